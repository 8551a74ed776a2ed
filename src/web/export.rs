//! The export routes: `/games/{id}.pgn` (a bughouse match's is BPGN, also at
//! `/games/{id}.bpgn`), `/games/{id}.fen` and the picture `/games/{id}.svg`, served from
//! `crate::export`.

use actix_web::{HttpResponse, web};
use serde::Deserialize;

use crate::export::{NoSuchPly, boards_at, pgn_of, position_fen};
use crate::game::{GameRecord, RulesGame, read_game, rules_game};
use crate::web::AppState;
use crate::web::errors::WebError;

/// Registers the export routes (before the game page, whose pattern is wider).
pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/games/{id}.pgn", web::get().to(game_pgn))
        .route("/games/{id}.bpgn", web::get().to(game_bpgn))
        .route("/games/{id}.svg", web::get().to(game_svg))
        .route("/games/{id}.fen", web::get().to(game_fen));
}

/// The game named in the path with its game as the rules see it, or 404. A minesweeper game's
/// secret rows are read here: the exports draw only what its public view holds.
async fn game_in_path(state: &AppState, raw: &str) -> Result<(GameRecord, RulesGame), WebError> {
    let id: i64 = raw.parse().map_err(|_| WebError::NotFound)?;
    state
        .db(move |c| -> Result<_, WebError> {
            let Some(record) = read_game(c, id)? else {
                return Ok(None);
            };
            let game = rules_game(c, &record).map_err(WebError::internal)?;
            Ok(Some((record, game)))
        })
        .await??
        .ok_or(WebError::NotFound)
}

async fn game_pgn(
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<HttpResponse, WebError> {
    let (record, game) = game_in_path(&state, &path).await?;
    let pgn = pgn_of(&record, &game, &state.settings.server.public_url);
    let extension = match game {
        RulesGame::Bughouse(_) => "bpgn",
        _ => "pgn",
    };
    Ok(HttpResponse::Ok()
        .content_type("application/x-chess-pgn; charset=utf-8")
        .insert_header((
            "Content-Disposition",
            format!(
                "inline; filename=\"slowfuse-{}.{extension}\"",
                record.game.id
            ),
        ))
        .body(pgn))
}

/// `/games/{id}.bpgn`: a bughouse match's BPGN (the same as its `.pgn`); 404 for a game of
/// one board.
async fn game_bpgn(
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<HttpResponse, WebError> {
    if record_variant(&state, &path).await? != crate::game::rules::BUGHOUSE {
        return Err(WebError::NotFound);
    }
    game_pgn(state, path).await
}

/// The stored variant of the game named in the path, or 404.
async fn record_variant(state: &AppState, raw: &str) -> Result<String, WebError> {
    let id: i64 = raw.parse().map_err(|_| WebError::NotFound)?;
    let record = state
        .db(move |c| read_game(c, id))
        .await??
        .ok_or(WebError::NotFound)?;
    Ok(record.game.variant)
}

/// A `ply` of the query: a number from 0, or `None` for now.
fn ply_of(raw: Option<&str>, record: &GameRecord) -> Result<Option<u32>, NoSuchPly> {
    match raw {
        None | Some("") => Ok(None),
        Some(raw) => raw.parse().map(Some).map_err(|_| NoSuchPly {
            last: record.game.ply,
        }),
    }
}

#[derive(Deserialize)]
struct FenQuery {
    ply: Option<String>,
}

async fn game_fen(
    state: web::Data<AppState>,
    path: web::Path<String>,
    query: web::Query<FenQuery>,
) -> Result<HttpResponse, WebError> {
    let (record, game) = game_in_path(&state, &path).await?;
    let ply = ply_of(query.ply.as_deref(), &record)?.map(|p| i32::try_from(p).unwrap_or(i32::MAX));
    let fen = position_fen(&record, &game, ply)?;
    Ok(HttpResponse::Ok()
        .content_type("text/plain; charset=utf-8")
        .body(format!("{fen}\n")))
}

#[derive(Deserialize)]
struct PictureQuery {
    ply: Option<String>,
    /// `1`: from the other side (in bughouse: each board from its other side).
    flip: Option<String>,
    /// `0`: no letters and digits along the edges.
    coords: Option<String>,
    /// `0`: the last move not highlighted.
    highlight: Option<String>,
    theme: Option<String>,
    pieces: Option<String>,
}

/// `GET /games/{id}.svg?ply=N`: the position as a picture (a bughouse match's two boards side
/// by side; a minesweeper game's visible board, never a bomb), in the page's themes and our
/// piece sets.
async fn game_svg(
    state: web::Data<AppState>,
    path: web::Path<String>,
    query: web::Query<PictureQuery>,
) -> Result<HttpResponse, WebError> {
    use crate::export::svg::{Picture, Style, boards_svg, is_piece_set, theme_colours};
    let theme = query.theme.as_deref().unwrap_or("green");
    if theme_colours(theme).is_none() {
        return Err(WebError::BadRequest(format!(
            "unknown theme: use {}",
            crate::usecases::preferences::BOARD_THEMES.join(", ")
        )));
    }
    let piece_set = query.pieces.as_deref().unwrap_or("classic");
    if !is_piece_set(piece_set) {
        return Err(WebError::BadRequest(format!(
            "unknown piece set: use {}",
            crate::usecases::preferences::PIECE_SETS.join(", ")
        )));
    }
    let (record, game) = game_in_path(&state, &path).await?;
    let ply = ply_of(query.ply.as_deref(), &record)?;
    let flipped = query.flip.as_deref() == Some("1");
    let highlight = query.highlight.as_deref() != Some("0");
    let boards: Vec<Picture> = boards_at(&record, &game, ply)?
        .into_iter()
        .map(|b| Picture {
            pieces: b.pieces,
            last_move: b.last_move.filter(|_| highlight),
            side: if flipped { !b.side } else { b.side },
        })
        .collect();
    let style = Style {
        theme,
        piece_set,
        coords: query.coords.as_deref() != Some("0"),
    };
    Ok(HttpResponse::Ok()
        .content_type("image/svg+xml")
        .insert_header(("Cache-Control", "no-cache"))
        .body(boards_svg(&boards, &style)))
}
