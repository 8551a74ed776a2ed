//! The API's side of the talk around a game: who is reading, kibitz, private notes.

use std::future::Future;
use std::pin::Pin;

use actix_web::http::header::AUTHORIZATION;
use actix_web::{FromRequest, HttpRequest, HttpResponse, web};
use serde::Deserialize;
use serde_json::json;

use super::{ApiUser, game_json_for};
use crate::game::GameRecord;
use crate::usecases::messages::{self, Kind, Note};
use crate::web::AppState;
use crate::web::errors::ApiError;

/// The reader of a public route: the token's user, or `None` without an `Authorization`
/// header. A header with a token that is not valid is refused (401), never read as anonymous.
pub struct Viewer(pub Option<i64>);

impl FromRequest for Viewer {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<Viewer, ApiError>>>>;

    fn from_request(req: &HttpRequest, payload: &mut actix_web::dev::Payload) -> Self::Future {
        if req.headers().get(AUTHORIZATION).is_none() {
            return Box::pin(async { Ok(Viewer(None)) });
        }
        let user = ApiUser::from_request(req, payload);
        Box::pin(async move { Ok(Viewer(Some(user.await?.id))) })
    }
}

/// The comments and kibitz `viewer` may read, oldest first.
pub fn conversation_json(record: &GameRecord, viewer: Option<i64>) -> Vec<serde_json::Value> {
    messages::readable_conversation(record, viewer)
        .into_iter()
        .map(|e| {
            json!({
                "ply": e.ply,
                "kind": e.kind.as_str(),
                "author": e.author,
                "text": e.text,
                "written_at": e.written_at.and_utc().to_rfc3339(),
            })
        })
        .collect()
}

/// Posts a spectator's kibitz; answers with the game as the kibitzer sees it.
pub async fn kibitz(
    state: web::Data<AppState>,
    user: ApiUser,
    game_id: i64,
    text: String,
) -> Result<HttpResponse, ApiError> {
    let now = state.now();
    let max = state.settings.game.max_message_chars;
    let user_id = user.id;
    let record = state
        .db(move |c| messages::kibitz(c, now, max, game_id, user_id, &text))
        .await??;
    Ok(HttpResponse::Ok().json(game_json_for(&record, now, Some(user_id))))
}

fn note_json(game_id: i64, note: Option<Note>) -> serde_json::Value {
    json!({
        "game_id": game_id,
        "kind": Kind::Note.as_str(),
        "text": note.as_ref().map_or("", |n| n.text.as_str()),
        "saved_at": note.map(|n| n.saved_at.and_utc().to_rfc3339()),
    })
}

/// `GET /api/v1/games/{id}/notes`: the caller's own note on a game they play.
pub async fn get_notes(
    state: web::Data<AppState>,
    user: ApiUser,
    path: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    let id = path.into_inner();
    let note = state
        .db(move |c| messages::my_note(c, id, user.id))
        .await??;
    Ok(HttpResponse::Ok().json(note_json(id, note)))
}

#[derive(Deserialize)]
pub struct NoteBody {
    text: String,
}

/// `PUT /api/v1/games/{id}/notes` `{"text"}`: replaces the caller's note; `""` deletes it.
pub async fn put_notes(
    state: web::Data<AppState>,
    user: ApiUser,
    path: web::Path<i64>,
    body: web::Json<NoteBody>,
) -> Result<HttpResponse, ApiError> {
    let id = path.into_inner();
    let now = state.now();
    let max = state.settings.game.max_message_chars;
    let text = body.into_inner().text;
    let note = state
        .db(move |c| messages::save_note(c, now, max, id, user.id, &text))
        .await??;
    Ok(HttpResponse::Ok().json(note_json(id, note)))
}
