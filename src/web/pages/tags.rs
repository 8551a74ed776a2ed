//! The game page's tag forms: the viewer's own tags on the game, added and removed (the tag
//! box itself is drawn by `game_page`).

use actix_session::Session;
use actix_web::{HttpResponse, web};
use serde::Deserialize;

use crate::usecases::tags::{self, TagError};
use crate::web::errors::{UseCaseError, WebError};
use crate::web::forms::game_form_sender;
use crate::web::game_page::{self, Occasion, Refusal, Typed};
use crate::web::respond::see_other;
use crate::web::{AppState, session};

#[derive(Deserialize)]
pub struct TagForm {
    csrf_token: String,
    tag: String,
}

/// Which way a form changes the tags.
#[derive(Clone, Copy)]
enum Edit {
    Add,
    Remove,
}

/// `POST /games/{id}/tags`: puts one of my tags on the game.
pub async fn add(
    state: web::Data<AppState>,
    session: Session,
    path: web::Path<String>,
    form: web::Form<TagForm>,
) -> Result<HttpResponse, WebError> {
    edit(state, session, path, form, Edit::Add).await
}

/// `POST /games/{id}/tags/remove`: takes one of my tags off the game.
pub async fn remove(
    state: web::Data<AppState>,
    session: Session,
    path: web::Path<String>,
    form: web::Form<TagForm>,
) -> Result<HttpResponse, WebError> {
    edit(state, session, path, form, Edit::Remove).await
}

async fn edit(
    state: web::Data<AppState>,
    session: Session,
    path: web::Path<String>,
    form: web::Form<TagForm>,
    how: Edit,
) -> Result<HttpResponse, WebError> {
    let (id, me) = match game_form_sender(&session, &path, &form.csrf_token)? {
        Ok(sender) => sender,
        Err(redirect) => return Ok(*redirect),
    };
    let typed = form.into_inner().tag;
    let raw = typed.clone();
    let now = state.now();
    let done = state
        .db(move |c| match how {
            Edit::Add => tags::add_tag(c, now, me, id, &raw).map(|t| {
                if t.created {
                    format!("Tagged this game “{}”.", t.tag)
                } else {
                    format!("This game already has your tag “{}”.", t.tag)
                }
            }),
            Edit::Remove => tags::remove_tag(c, me, id, &raw)
                .map(|_| format!("Removed your tag “{}”.", raw.trim().to_lowercase())),
        })
        .await?;
    match done {
        Ok(text) => {
            session::flash(&session, "info", text);
            Ok(see_other(&format!("/games/{id}")))
        }
        Err(TagError::NoGame) => Err(WebError::NotFound),
        Err(TagError::Db(e)) => Err(e.into()),
        Err(err) => {
            // A refused addition keeps the tag as typed; a refused removal empties the box.
            let typed = match how {
                Edit::Add => typed,
                Edit::Remove => String::new(),
            };
            let refusal = Refusal::new(err.status(), err.message(), Typed::Tag(typed));
            game_page::draw(&state, &session, id, Occasion::Refused(refusal)).await
        }
    }
}
