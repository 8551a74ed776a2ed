//! Legal moves of any position, for the analysis board and for clients:
//! `POST /api/v1/positions/moves` `{"variant","fen"}` →
//! `{"moves":[{"uci","san","fen"}],"outcome":null|"1-0 checkmate"}`. No login: a position is no
//! one's secret.

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use serde::Deserialize;
use serde_json::{Value, json};
use slowfuse_rules::{Game, Variant};

use crate::web::errors::ApiError;

/// The longest FEN read: a crazyhouse FEN with full pockets is well under it.
const MAX_FEN_CHARS: usize = 200;

#[derive(Deserialize)]
pub struct PositionBody {
    variant: String,
    fen: String,
}

fn unprocessable(message: String) -> ApiError {
    ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, message)
}

/// Every legal move of `game` now, each with the FEN it leads to, and how the position is
/// already decided, if it is (`"1-0 checkmate"`, `"1/2-1/2 stalemate"`).
pub fn moves_json(game: &Game) -> Value {
    let moves: Vec<Value> = game
        .legal_moves()
        .into_iter()
        .map(|m| {
            let fen = game.play_uci(&m.uci).map(|g| g.fen()).unwrap_or_default();
            json!({ "uci": m.uci, "san": m.san, "fen": fen })
        })
        .collect();
    let outcome = game
        .outcome()
        .map(|o| format!("{} {}", o.result(), o.reason.as_str()));
    json!({ "moves": moves, "outcome": outcome })
}

/// A position a client sent: its variant by name and its FEN, read as the rules read them; a
/// clear 422 for an unknown variant, an over-long FEN or one that is not a position of it.
pub fn position_from(variant: &str, fen: &str) -> Result<(Variant, Game), ApiError> {
    let variant: Variant = variant.parse().map_err(|_| {
        let names: Vec<&str> = Variant::ALL.iter().map(|v| v.as_str()).collect();
        unprocessable(format!(
            "unknown variant \"{}\": use {}",
            variant.chars().take(40).collect::<String>(),
            names.join(", ")
        ))
    })?;
    if fen.chars().count() > MAX_FEN_CHARS {
        return Err(unprocessable(format!(
            "a FEN is at most {MAX_FEN_CHARS} characters"
        )));
    }
    let game = Game::from_fen(variant, fen.trim())
        .map_err(|e| unprocessable(format!("not a position of {}: {e}", variant.as_str())))?;
    Ok((variant, game))
}

pub async fn position_moves(body: web::Json<PositionBody>) -> Result<HttpResponse, ApiError> {
    let (_, game) = position_from(&body.variant, &body.fen)?;
    Ok(HttpResponse::Ok().json(moves_json(&game)))
}
