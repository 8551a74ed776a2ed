//! The caller's own analysis of a game: `GET` and `PUT /api/v1/games/{id}/analysis` `{"pgn"}`.
//! The tree as PGN with variations (`""` before any); a `PUT` that is unreadable, illegal or
//! over 100 KB is refused with 422 and stores nothing. Never cached: it is private.

use actix_web::error::JsonPayloadError;
use actix_web::http::StatusCode;
use actix_web::http::header::CACHE_CONTROL;
use actix_web::{HttpResponse, web};
use serde::Deserialize;
use serde_json::json;

use super::ApiUser;
use crate::usecases::analysis::{self, MAX_ANALYSIS_BYTES};
use crate::web::AppState;
use crate::web::errors::ApiError;

/// The JSON body limit of an analysis: above the 100 KB of PGN it may hold (escaping makes
/// the JSON longer), so a tree just over the limit gets the use case's own 422.
pub const BODY_LIMIT: usize = 4 * MAX_ANALYSIS_BYTES;

#[derive(Deserialize)]
pub struct AnalysisBody {
    pub pgn: String,
}

/// The JSON settings of a route that takes an analysis: a body over the limit is 422, like a
/// tree over 100 KB; any other unreadable body 400.
pub fn json_config() -> web::JsonConfig {
    web::JsonConfig::default()
        .limit(BODY_LIMIT)
        .error_handler(|err, _| match err {
            JsonPayloadError::Overflow { .. } | JsonPayloadError::OverflowKnownLength { .. } => {
                ApiError::new(
                    StatusCode::UNPROCESSABLE_ENTITY,
                    analysis::AnalysisError::TooLarge.to_string(),
                )
                .into()
            }
            other => {
                ApiError::new(StatusCode::BAD_REQUEST, format!("bad JSON body: {other}")).into()
            }
        })
}

/// A private answer: no cache anywhere may keep it.
pub fn private_json(body: serde_json::Value) -> HttpResponse {
    HttpResponse::Ok()
        .insert_header((CACHE_CONTROL, "private, no-store"))
        .json(body)
}

/// `GET /api/v1/games/{id}/analysis`.
pub async fn get_analysis(
    state: web::Data<AppState>,
    user: ApiUser,
    path: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    let id = path.into_inner();
    let analysis = state
        .db(move |c| analysis::my_analysis(c, id, user.id))
        .await??;
    Ok(private_json(json!({ "pgn": analysis.pgn })))
}

/// `PUT /api/v1/games/{id}/analysis` `{"pgn"}`: replaces the caller's tree; answers with it as
/// stored (the server's own PGN).
pub async fn put_analysis(
    state: web::Data<AppState>,
    user: ApiUser,
    path: web::Path<i64>,
    body: web::Json<AnalysisBody>,
) -> Result<HttpResponse, ApiError> {
    let id = path.into_inner();
    let now = state.now();
    let pgn = body.into_inner().pgn;
    let analysis = state
        .db(move |c| analysis::save_analysis(c, now, id, user.id, &pgn))
        .await??;
    Ok(private_json(json!({ "pgn": analysis.pgn })))
}
