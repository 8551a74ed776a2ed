//! The opening book over the API: `GET /api/v1/openings?variant=V&fen=FEN` → the moves played
//! from that position in finished games of the variant on this server, with their results, and
//! in standard chess the opening's ECO code and name.

use actix_web::{HttpResponse, web};
use serde::Deserialize;
use serde_json::json;
use slowfuse_rules::Variant;

use crate::openings::opening_at;
use crate::usecases::book::book_position;
use crate::web::AppState;
use crate::web::errors::ApiError;

use super::positions::position_from;

#[derive(Deserialize)]
pub struct OpeningsQuery {
    variant: String,
    fen: String,
}

pub async fn get_openings(
    state: web::Data<AppState>,
    query: web::Query<OpeningsQuery>,
) -> Result<HttpResponse, ApiError> {
    // Read as the rules read it, so that the same position written two ways is one position.
    let (variant, game) = position_from(&query.variant, &query.fen)?;
    let fen = game.fen();
    let key = fen.clone();
    let book = state
        .db(move |c| book_position(c, variant.as_str(), &key))
        .await??;
    let opening = (variant == Variant::Standard)
        .then(|| opening_at(&fen))
        .flatten()
        .map(|o| json!({ "eco": o.eco, "name": o.name }));
    let moves: Vec<_> = book
        .moves
        .iter()
        .map(|m| {
            json!({
                "uci": m.uci, "san": m.san, "games": m.games,
                "white": m.white, "draws": m.draws, "black": m.black,
            })
        })
        .collect();
    Ok(HttpResponse::Ok().json(json!({
        "fen": fen,
        "games": book.games,
        "moves": moves,
        "opening": opening,
    })))
}
