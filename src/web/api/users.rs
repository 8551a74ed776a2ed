//! The API's public profile: `GET /api/v1/users/{name}` with ratings per variant and history.

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use serde_json::{Map, Value, json};

use crate::usecases::profiles::{Profile, load_profile};
use crate::usecases::ratings::is_provisional;
use crate::web::AppState;
use crate::web::errors::ApiError;

/// Rating changes returned per variant, newest first.
const API_HISTORY: i64 = 50;
/// Games returned, most recently active first.
const API_GAMES: i64 = 20;

fn round(x: f64) -> i64 {
    x.round() as i64
}

/// The profile as the API shows it (no email, nothing private).
pub fn profile_json(p: &Profile) -> Value {
    let mut ratings = Map::new();
    let mut history = Map::new();
    for r in &p.ratings {
        let rt = &r.rating;
        ratings.insert(
            rt.variant.clone(),
            json!({
                "rating": round(rt.rating),
                "deviation": round(rt.deviation),
                "provisional": is_provisional(rt.deviation),
                "games": rt.games,
            }),
        );
        let entries: Vec<Value> = r
            .history
            .iter()
            .map(|h| {
                let c = &h.change;
                json!({
                    "game_id": c.game_id,
                    "opponent": h.opponent,
                    "score": c.score,
                    "rating_before": round(c.rating_before),
                    "rating_after": round(c.rating_after),
                    "deviation_before": round(c.deviation_before),
                    "deviation_after": round(c.deviation_after),
                    "at": c.created_at.and_utc().to_rfc3339(),
                })
            })
            .collect();
        history.insert(rt.variant.clone(), Value::Array(entries));
    }
    let games: Vec<Value> = p
        .recent_games
        .iter()
        .map(|g| {
            json!({
                "id": g.id,
                "variant": g.variant,
                "white": g.white,
                "black": g.black,
                "status": g.status,
                "result": g.result,
                "rated": g.rated,
            })
        })
        .collect();
    json!({
        "username": p.username,
        "member_since": p.member_since.and_utc().to_rfc3339(),
        "ratings": ratings,
        "history": history,
        "recent_games": games,
    })
}

/// `GET /api/v1/users/{name}`: public, no token needed; 404 for an unknown name.
pub async fn get_user(
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let name = path.into_inner();
    let profile = state
        .db(move |c| load_profile(c, &name, API_HISTORY, API_GAMES))
        .await??
        .ok_or_else(|| ApiError::new(StatusCode::NOT_FOUND, "no such user"))?;
    Ok(HttpResponse::Ok().json(profile_json(&profile)))
}
