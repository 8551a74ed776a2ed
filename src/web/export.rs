//! The export routes: `/games/{id}.pgn` (a bughouse match's is BPGN, also at
//! `/games/{id}.bpgn`) and `/games/{id}.fen`, served from `crate::export`.

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
