//! `POST /api/v1/computer-games`: a game against the computer, started at once.

use actix_web::{HttpResponse, web};
use serde::Deserialize;
use serde_json::json;

use super::ApiUser;
use crate::usecases::computer::{ComputerGameRequest, start_computer_game};
use crate::web::AppState;
use crate::web::errors::ApiError;

#[derive(Deserialize)]
pub(super) struct ComputerGameBody {
    variant: String,
    /// white, black or random (the default).
    #[serde(default)]
    color: Option<String>,
    /// easy, medium or hard.
    level: String,
}

pub(super) async fn create_computer_game(
    state: web::Data<AppState>,
    user: ApiUser,
    body: web::Json<ComputerGameBody>,
) -> Result<HttpResponse, ApiError> {
    let now = state.now();
    let b = body.into_inner();
    let req = ComputerGameRequest {
        variant: b.variant,
        color: b.color.unwrap_or_else(|| "random".to_string()),
        level: b.level,
    };
    let random = state.random.clone();
    let game_id = state
        .db(move |c| start_computer_game(c, now, &*random, user.id, &req))
        .await??;
    // The computer may be White, or have its bombs to place.
    state.wake_computer();
    Ok(HttpResponse::Created().json(json!({ "game_id": game_id })))
}
