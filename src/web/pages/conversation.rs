//! The game page's kibitz and notes forms (the talk itself is drawn by `game_page`).

use actix_session::Session;
use actix_web::{HttpResponse, web};
use serde::Deserialize;

use crate::usecases::messages::{self, MessageError};
use crate::web::errors::{UseCaseError, WebError};
use crate::web::forms::game_form_sender;
use crate::web::game_page::{self, Occasion, Refusal, Typed};
use crate::web::respond::see_other;
use crate::web::{AppState, session};

#[derive(Deserialize)]
pub struct TextForm {
    csrf_token: String,
    text: String,
}

/// `POST /games/{id}/kibitz`: a spectator's remark.
pub async fn kibitz(
    state: web::Data<AppState>,
    session: Session,
    path: web::Path<String>,
    form: web::Form<TextForm>,
) -> Result<HttpResponse, WebError> {
    let (id, me) = match game_form_sender(&session, &path, &form.csrf_token)? {
        Ok(sender) => sender,
        Err(redirect) => return Ok(*redirect),
    };
    let text = form.into_inner().text;
    let (now, max) = (state.now(), state.settings.game.max_message_chars);
    let typed = Typed::Kibitz(text.clone());
    let result = state
        .db(move |c| messages::kibitz(c, now, max, id, me, &text))
        .await?
        .map(|_| ());
    done(
        &state,
        &session,
        id,
        result,
        "Your kibitz is posted.",
        typed,
    )
    .await
}

/// `POST /games/{id}/notes`: saves (or, when empty, deletes) the player's private note.
pub async fn save_notes(
    state: web::Data<AppState>,
    session: Session,
    path: web::Path<String>,
    form: web::Form<TextForm>,
) -> Result<HttpResponse, WebError> {
    let (id, me) = match game_form_sender(&session, &path, &form.csrf_token)? {
        Ok(sender) => sender,
        Err(redirect) => return Ok(*redirect),
    };
    let text = form.into_inner().text;
    let (now, max) = (state.now(), state.settings.game.max_message_chars);
    let typed = Typed::Note(text.clone());
    let cleared = text.trim().is_empty();
    let result = state
        .db(move |c| messages::save_note(c, now, max, id, me, &text))
        .await?
        .map(|_| ());
    let message = if cleared {
        "Your notes are cleared."
    } else {
        "Your notes are saved; only you can see them."
    };
    done(&state, &session, id, result, message, typed).await
}

/// Redirects to the game with a flash, or shows the page again with the refusal.
async fn done(
    state: &AppState,
    session: &Session,
    id: i64,
    result: Result<(), MessageError>,
    message: &str,
    typed: Typed,
) -> Result<HttpResponse, WebError> {
    match result {
        Ok(()) => {
            session::flash(session, "info", message);
            Ok(see_other(&format!("/games/{id}")))
        }
        Err(MessageError::NotFound) => Err(WebError::NotFound),
        Err(MessageError::Db(e)) => Err(e.into()),
        Err(e) => {
            let refusal = Refusal::new(e.status(), e.message(), typed);
            game_page::draw(state, session, id, Occasion::Refused(refusal)).await
        }
    }
}
