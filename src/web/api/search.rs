//! The API's private tags (`/games/{id}/tags`, the caller's own only) and game search (`/search`).

use actix_web::http::StatusCode;
use actix_web::http::header::AUTHORIZATION;
use actix_web::{FromRequest, HttpRequest, HttpResponse, web};
use serde_json::{Value, json};

use super::ApiUser;
use crate::usecases::search::{FoundGame, SearchParams, SearchResults, search_games};
use crate::usecases::tags;
use crate::web::AppState;
use crate::web::errors::ApiError;

fn tags_json(game_id: i64, tags: &[String]) -> Value {
    json!({ "game_id": game_id, "tags": tags })
}

/// `GET /api/v1/games/{id}/tags`: the caller's tags on a game.
pub async fn get_tags(
    state: web::Data<AppState>,
    user: ApiUser,
    path: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    let id = path.into_inner();
    let list = state
        .db(move |c| tags::tags_of_game(c, user.id, id))
        .await??;
    Ok(HttpResponse::Ok().json(tags_json(id, &list)))
}

/// `PUT /api/v1/games/{id}/tags/{tag}`: 201 when added, 200 when the caller already had it.
pub async fn put_tag(
    state: web::Data<AppState>,
    user: ApiUser,
    path: web::Path<(i64, String)>,
) -> Result<HttpResponse, ApiError> {
    let (id, tag) = path.into_inner();
    let now = state.now();
    let done = state
        .db(move |c| tags::add_tag(c, now, user.id, id, &tag))
        .await??;
    let status = if done.created {
        StatusCode::CREATED
    } else {
        StatusCode::OK
    };
    Ok(HttpResponse::build(status).json(tags_json(id, &done.tags)))
}

/// `DELETE /api/v1/games/{id}/tags/{tag}`: 404 when the caller has no such tag there.
pub async fn delete_tag(
    state: web::Data<AppState>,
    user: ApiUser,
    path: web::Path<(i64, String)>,
) -> Result<HttpResponse, ApiError> {
    let (id, tag) = path.into_inner();
    let left = state
        .db(move |c| tags::remove_tag(c, user.id, id, &tag))
        .await??;
    Ok(HttpResponse::Ok().json(tags_json(id, &left)))
}

fn found_json(f: &FoundGame, with_tags: bool) -> Value {
    let g = &f.game;
    let time = |t: Option<chrono::NaiveDateTime>| t.map(|t| t.and_utc().to_rfc3339());
    let mut v = json!({
        "id": g.id,
        "variant": g.variant,
        "white": f.white,
        "black": f.black,
        "white_name": f.white_name,
        "black_name": f.black_name,
        "status": g.status,
        "result": g.result,
        "termination": g.termination,
        "rated": g.rated,
        "ply": g.ply,
        "created_at": time(Some(g.created_at)),
        "finished_at": time(g.finished_at),
        "deadline_at": time(g.deadline_at),
    });
    if with_tags {
        v["tags"] = json!(f.tags);
    }
    v
}

fn results_json(params: &SearchParams, r: &SearchResults, with_tags: bool) -> Value {
    let link = |page: u32| format!("/api/v1/search?{}", params.to_query(Some(page)));
    json!({
        "total": r.total,
        "page": r.page,
        "per_page": r.per_page,
        "pages": r.pages(),
        "previous": (r.page > 1).then(|| link(r.page - 1)),
        "next": r.has_next().then(|| link(r.page + 1)),
        "unknown_players": r.unknown_players,
        "games": r.games.iter().map(|g| found_json(g, with_tags)).collect::<Vec<_>>(),
    })
}

/// `GET /api/v1/search?…`: the same search as the `/search` page. The token is optional;
/// with one, `tags` searches the caller's own tags and each game lists them.
pub async fn search(
    state: web::Data<AppState>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let viewer = if req.headers().contains_key(AUTHORIZATION) {
        Some(ApiUser::extract(&req).await?.id)
    } else {
        None
    };
    let params = SearchParams::from_query(req.query_string())?;
    let search = params.check(viewer.is_some())?;
    let found = state
        .db(move |c| search_games(c, viewer, &search))
        .await??;
    Ok(HttpResponse::Ok().json(results_json(&params, &found, viewer.is_some())))
}
