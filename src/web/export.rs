//! Public exports of a game: PGN and the FEN at any ply.

use actix_web::{HttpResponse, web};
use serde::Deserialize;
use slowfuse_rules::{EndReason, PgnHeaders, write_pgn};

use crate::game::{GameRecord, load_game};
use crate::usecases::messages::readable_conversation;
use crate::web::AppState;
use crate::web::errors::WebError;

/// Registers the export routes (before the game page, whose pattern is wider).
pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/games/{id}.pgn", web::get().to(game_pgn))
        .route("/games/{id}.fen", web::get().to(game_fen));
}

fn parse_id(raw: &str) -> Result<i64, WebError> {
    raw.parse().map_err(|_| WebError::NotFound)
}

/// The PGN of a game as anyone may read it: the moves, and of the conversation only what an
/// anonymous reader may see (`messages::may_read`): comments of public games, kibitz once the
/// game is over, never a note, nothing written in a private game.
pub fn pgn_of(record: &GameRecord, public_url: &str) -> Result<String, WebError> {
    let game = record
        .chess_game()
        .map_err(|e| WebError::Internal(e.to_string()))?;
    let mut comments: Vec<Option<String>> = vec![None; record.moves.len()];
    // Each entry goes after the last move made before it was written.
    for entry in readable_conversation(record, None) {
        let index = (entry.ply.max(1) - 1) as usize;
        if let Some(slot) = comments.get_mut(index) {
            let text = entry.line();
            *slot = Some(match slot.take() {
                Some(prev) => format!("{prev} | {text}"),
                None => text,
            });
        }
    }
    let termination = record
        .game
        .termination
        .as_deref()
        .and_then(|t| t.parse::<EndReason>().ok())
        .map(|r| r.describe().to_string());
    let headers = PgnHeaders {
        event: format!("Slowfuse correspondence game {}", record.game.id),
        site: format!(
            "{}/games/{}",
            public_url.trim_end_matches('/'),
            record.game.id
        ),
        date: record.game.created_at.format("%Y.%m.%d").to_string(),
        white: record
            .name_of(crate::game::Seat::first_board(slowfuse_rules::Color::White))
            .to_string(),
        black: record
            .name_of(crate::game::Seat::first_board(slowfuse_rules::Color::Black))
            .to_string(),
        termination,
        extra: Vec::new(),
    };
    Ok(write_pgn(&headers, &game, &comments))
}

async fn game_pgn(
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<HttpResponse, WebError> {
    let id = parse_id(&path)?;
    let record = state
        .db(move |c| load_game(c, id))
        .await??
        .ok_or(WebError::NotFound)?;
    let pgn = pgn_of(&record, &state.settings.server.public_url)?;
    Ok(HttpResponse::Ok()
        .content_type("application/x-chess-pgn; charset=utf-8")
        .insert_header((
            "Content-Disposition",
            format!("inline; filename=\"slowfuse-{id}.pgn\""),
        ))
        .body(pgn))
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
    let id = parse_id(&path)?;
    let record = state
        .db(move |c| load_game(c, id))
        .await??
        .ok_or(WebError::NotFound)?;
    let fen = match query.ply.as_deref() {
        None | Some("") => record.game.fen.clone(),
        Some(raw) => {
            let ply: i32 = raw.parse().map_err(|_| {
                WebError::BadRequest(format!(
                    "ply must be a number from 0 to {}",
                    record.game.ply
                ))
            })?;
            if ply == 0 {
                record.game.initial_fen.clone()
            } else {
                record
                    .moves
                    .iter()
                    .find(|m| m.ply + 1 == ply)
                    .map(|m| m.fen_after.clone())
                    .ok_or_else(|| {
                        WebError::BadRequest(format!(
                            "ply must be a number from 0 to {}",
                            record.game.ply
                        ))
                    })?
            }
        }
    };
    Ok(HttpResponse::Ok()
        .content_type("text/plain; charset=utf-8")
        .body(format!("{fen}\n")))
}
