//! The export routes: `/games/{id}.pgn` (a bughouse match's is BPGN, also at
//! `/games/{id}.bpgn`), `/games/{id}.fen` and the picture `/games/{id}.svg`, served from
//! `crate::export`.

use actix_web::{HttpResponse, web};
use serde::Deserialize;

use crate::export::{NoSuchPly, fen_at, pgn_of};
use crate::game::{GameRecord, read_game};
use crate::web::AppState;
use crate::web::errors::WebError;

/// Registers the export routes (before the game page, whose pattern is wider).
pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/games/{id}.pgn", web::get().to(game_pgn))
        .route("/games/{id}.bpgn", web::get().to(game_bpgn))
        .route("/games/{id}.svg", web::get().to(game_svg))
        .route("/games/{id}.fen", web::get().to(game_fen));
}

/// The game named in the path, or 404.
async fn game_in_path(state: &AppState, raw: &str) -> Result<GameRecord, WebError> {
    let id: i64 = raw.parse().map_err(|_| WebError::NotFound)?;
    state
        .db(move |c| read_game(c, id))
        .await??
        .ok_or(WebError::NotFound)
}

async fn game_pgn(
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<HttpResponse, WebError> {
    let record = game_in_path(&state, &path).await?;
    let url = state.settings.server.public_url.clone();
    let pgn = if record.game.variant == crate::game::rules::MINESWEEPER {
        let copy = record.clone();
        let game = state
            .db(move |c| crate::usecases::minesweeper::secret_game(c, &copy))
            .await?
            .map_err(WebError::internal)?;
        crate::export::minesweeper_pgn(&record, &game, &url)
    } else {
        pgn_of(&record, &url)?
    };
    let extension = if record.game.variant == crate::game::rules::BUGHOUSE {
        "bpgn"
    } else {
        "pgn"
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
    let record = game_in_path(&state, &path).await?;
    if record.game.variant != crate::game::rules::BUGHOUSE {
        return Err(WebError::NotFound);
    }
    game_pgn(state, path).await
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
    let record = game_in_path(&state, &path).await?;
    let ply = match query.ply.as_deref() {
        None | Some("") => None,
        Some(raw) => Some(raw.parse().map_err(|_| NoSuchPly {
            last: record.game.ply,
        })?),
    };
    let fen = if record.game.variant == crate::game::rules::BUGHOUSE {
        // Both boards after `ply` moves of the match: board a's FEN, " | ", board b's.
        let game = record.bughouse_game()?;
        let ply = ply.map_or(game.ply(), |p: i32| u32::try_from(p).unwrap_or(u32::MAX));
        let last = NoSuchPly {
            last: record.game.ply,
        };
        let fens: Option<Vec<String>> = slowfuse_rules::bughouse::Board::BOTH
            .into_iter()
            .map(|board| game.fen_at(ply, board))
            .collect();
        fens.ok_or(last)?.join(" | ")
    } else if record.game.variant == crate::game::rules::MINESWEEPER {
        // The visible position: the stored FENs hold no bomb.
        let copy = record.clone();
        let game = state
            .db(move |c| crate::usecases::minesweeper::secret_game(c, &copy))
            .await?
            .map_err(WebError::internal)?;
        let fens = game.public_view().fens;
        let at = ply.map_or(fens.len().saturating_sub(1), |p| {
            usize::try_from(p).unwrap_or(usize::MAX)
        });
        fens.get(at).cloned().ok_or(NoSuchPly {
            last: record.game.ply,
        })?
    } else {
        let game = record.chess_game()?;
        fen_at(&record, &game, ply)?
    };
    Ok(HttpResponse::Ok()
        .content_type("text/plain; charset=utf-8")
        .body(format!("{fen}\n")))
}

#[derive(Deserialize)]
struct PictureQuery {
    ply: Option<String>,
    /// `1`: from Black's side (in bughouse: each board from its other side).
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
    use slowfuse_rules::Color;
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
    let record = game_in_path(&state, &path).await?;
    let no_such = NoSuchPly {
        last: record.game.ply,
    };
    let ply: Option<u32> = match query.ply.as_deref() {
        None | Some("") => None,
        Some(raw) => Some(raw.parse().map_err(|_| no_such.clone())?),
    };
    let flipped = query.flip.as_deref() == Some("1");
    let highlight = query.highlight.as_deref() != Some("0");
    let squares = |uci: &str| -> Option<(u8, u8)> {
        let to = slowfuse_rules::square_index(uci.get(2..4)?)?;
        let from = match uci.as_bytes().get(1) {
            Some(b'@') => to,
            _ => slowfuse_rules::square_index(uci.get(0..2)?)?,
        };
        Some((from, to))
    };
    let side = |base: Color| if flipped { !base } else { base };
    let variant = record.game.variant.clone();
    let mut boards: Vec<Picture> = Vec::new();
    if variant == crate::game::rules::BUGHOUSE {
        let game = record.bughouse_game()?;
        let at = ply.unwrap_or(game.ply());
        for (board, base) in [
            (slowfuse_rules::bughouse::Board::A, Color::White),
            (slowfuse_rules::bughouse::Board::B, Color::Black),
        ] {
            let pieces = game.board_at(at, board).ok_or(no_such.clone())?;
            let last = game
                .moves()
                .iter()
                .take(at as usize)
                .rfind(|m| m.board == board)
                .and_then(|m| squares(&m.uci));
            boards.push(Picture {
                pieces,
                last_move: last.filter(|_| highlight),
                side: side(base),
            });
        }
    } else if variant == crate::game::rules::MINESWEEPER {
        let copy = record.clone();
        let game = state
            .db(move |c| crate::usecases::minesweeper::secret_game(c, &copy))
            .await?
            .map_err(WebError::internal)?;
        // The visible board only: what anyone may see.
        let public = game.public_view();
        let at = ply.unwrap_or(game.ply());
        let pieces = public.board_at(at).ok_or(no_such.clone())?;
        let last = at
            .checked_sub(1)
            .and_then(|i| public.moves.get(i as usize))
            .and_then(|m| squares(&m.uci));
        boards.push(Picture {
            pieces,
            last_move: last.filter(|_| highlight),
            side: side(Color::White),
        });
    } else {
        let game = record.chess_game()?;
        let at = ply.unwrap_or(game.ply());
        let pieces = game.board_at(at).ok_or(no_such.clone())?;
        let last = game.marks_at(at).and_then(|m| m.from_to);
        boards.push(Picture {
            pieces,
            last_move: last.filter(|_| highlight),
            side: side(Color::White),
        });
    }
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
