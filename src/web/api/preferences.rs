//! The API's board preferences: `GET` and `PUT /api/v1/me/preferences`.

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use serde_json::{Map, Value, json};

use super::ApiUser;
use crate::usecases::preferences::{
    self, BOARD_THEMES, PIECE_SETS, Preferences, PreferencesChange,
};
use crate::web::AppState;
use crate::web::errors::ApiError;

/// The preferences and the choices of theme and piece set.
pub fn preferences_json(p: &Preferences) -> Value {
    json!({
        "board_theme": p.board_theme,
        "piece_set": p.piece_set,
        "confirm_moves": p.confirm_moves,
        "always_white": p.always_white,
        "next_game_after_move": p.next_game_after_move,
        "coordinates": p.coordinates,
        "board_3d": p.board_3d,
        "animation_ms": p.animation_ms,
        "choices": { "board_theme": BOARD_THEMES, "piece_set": PIECE_SETS },
    })
}

fn unprocessable(message: String) -> ApiError {
    ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, message)
}

/// Reads a change from a JSON object: every field optional, none unknown, each of its type.
pub fn change_from_json(body: &Map<String, Value>) -> Result<PreferencesChange, ApiError> {
    let mut change = PreferencesChange::default();
    for (name, value) in body {
        let text = || {
            value
                .as_str()
                .map(str::to_string)
                .ok_or_else(|| unprocessable(format!("{name} must be a string")))
        };
        let flag = || {
            value
                .as_bool()
                .ok_or_else(|| unprocessable(format!("{name} must be true or false")))
        };
        match name.as_str() {
            "board_theme" => change.board_theme = Some(text()?),
            "piece_set" => change.piece_set = Some(text()?),
            "confirm_moves" => change.confirm_moves = Some(flag()?),
            "always_white" => change.always_white = Some(flag()?),
            "next_game_after_move" => change.next_game_after_move = Some(flag()?),
            "coordinates" => change.coordinates = Some(flag()?),
            "board_3d" => change.board_3d = Some(flag()?),
            "animation_ms" => {
                change.animation_ms = Some(value.as_i64().ok_or_else(|| {
                    unprocessable("animation_ms must be a whole number".to_string())
                })?)
            }
            // The read-only list that GET gives may come back unchanged.
            "choices" => {}
            other => {
                return Err(unprocessable(format!(
                    "unknown preference \"{}\"",
                    other.chars().take(40).collect::<String>()
                )));
            }
        }
    }
    Ok(change)
}

pub async fn get_preferences(
    state: web::Data<AppState>,
    user: ApiUser,
) -> Result<HttpResponse, ApiError> {
    let id = user.id;
    let prefs = state
        .db(move |c| preferences::preferences_of(c, id))
        .await??;
    Ok(HttpResponse::Ok().json(preferences_json(&prefs)))
}

pub async fn put_preferences(
    state: web::Data<AppState>,
    user: ApiUser,
    body: web::Json<Value>,
) -> Result<HttpResponse, ApiError> {
    let Value::Object(fields) = body.into_inner() else {
        return Err(unprocessable(
            "the body must be a JSON object of preferences".to_string(),
        ));
    };
    let change = change_from_json(&fields)?;
    let (id, now) = (user.id, state.now());
    let prefs = state
        .db(move |c| preferences::change_preferences(c, now, id, &change))
        .await??;
    Ok(HttpResponse::Ok().json(preferences_json(&prefs)))
}
