//! `POST` and `GET /api/v1/games/{id}/analysis/engine`: asking for a finished game's engine
//! analysis (any logged-in user; `202` with its status) and reading it (anyone who may see the
//! game): the status, the progress, and every position's figures with the judgement of the
//! move that led to it.

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use serde::Serialize;

use super::ApiUser;
use crate::game::read_game_cached;
use crate::usecases::engine_analysis::{
    EngineAnalysisError, EngineReview, read_review_of, request_analysis,
};
use crate::web::AppState;
use crate::web::errors::ApiError;

/// `POST /api/v1/games/{id}/analysis/engine`: queues the analysis (once; asking again is
/// harmless) and answers `202` with its status.
pub(super) async fn post_engine_analysis(
    state: web::Data<AppState>,
    user: ApiUser,
    path: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    let id = path.into_inner();
    let now = state.now();
    let requested = state
        .db(move |c| request_analysis(c, now, id, Some(user.id)))
        .await??;
    state.wake_analysis();
    Ok(HttpResponse::Accepted().json(serde_json::json!({
        "game_id": id,
        "status": requested.status,
    })))
}

/// `GET /api/v1/games/{id}/analysis/engine`.
pub(super) async fn get_engine_analysis(
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    let id = path.into_inner();
    let review = read_finished_review(&state, id).await?.ok_or_else(|| {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "nobody has asked for this game's engine analysis yet: POST to this address to ask",
        )
    })?;
    Ok(HttpResponse::Ok()
        .insert_header((actix_web::http::header::CACHE_CONTROL, "no-cache"))
        .json(ReviewJson::of(&review)))
}

/// The analysis of finished game `id` as stored (`None` when nobody asked for one); a game in
/// progress is refused (`409`), as asking for it is.
pub async fn read_finished_review(
    state: &AppState,
    id: i64,
) -> Result<Option<EngineReview>, ApiError> {
    let records = state.records.clone();
    state
        .db(move |c| -> Result<Option<EngineReview>, ApiError> {
            let record = read_game_cached(c, &records, id)?
                .ok_or(ApiError::from(EngineAnalysisError::NotFound))?;
            if record.status.is_running() {
                return Err(EngineAnalysisError::NotOver.into());
            }
            Ok(read_review_of(c, &record)?)
        })
        .await?
}

/// The answer's shape (documented in `docs/api.md`).
#[derive(Serialize)]
struct ReviewJson<'a> {
    status: &'a str,
    /// Percent of the positions judged, 0 to 100.
    progress: u32,
    positions: i32,
    done_positions: i32,
    engine: &'a str,
    nodes: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<&'a str>,
    plies: Vec<PlyJson<'a>>,
}

#[derive(Serialize)]
struct PlyJson<'a> {
    ply: i32,
    eval_cp: i32,
    mate: Option<i32>,
    best_uci: Option<&'a str>,
    best_san: Option<&'a str>,
    best_line: &'a [String],
    best_line_san: &'a [String],
    judgement: Option<&'static str>,
    depth: i32,
    nodes: i64,
}

impl<'a> ReviewJson<'a> {
    fn of(review: &'a EngineReview) -> ReviewJson<'a> {
        ReviewJson {
            status: &review.status,
            progress: review.percent(),
            positions: review.positions,
            done_positions: review.done_positions,
            engine: &review.engine,
            nodes: review.nodes,
            error: review.error.as_deref(),
            plies: review
                .plies
                .iter()
                .map(|p| PlyJson {
                    ply: p.figures.ply,
                    eval_cp: p.figures.eval_cp,
                    mate: p.figures.mate,
                    best_uci: p.figures.best_uci.as_deref(),
                    best_san: p.figures.best_san.as_deref(),
                    best_line: &p.figures.best_line,
                    best_line_san: &p.figures.best_line_san,
                    judgement: p.judgement.map(|j| j.as_str()),
                    depth: p.figures.depth,
                    nodes: p.figures.nodes,
                })
                .collect(),
        }
    }
}
