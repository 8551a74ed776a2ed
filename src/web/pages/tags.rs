//! The tag box on the game page: the viewer's own tags on the game, added and removed by form.

use actix_session::Session;
use actix_web::{HttpResponse, web};
use serde::Deserialize;

use super::{game_form_sender, see_other};
use crate::usecases::tags::{self, TagError};
use crate::web::errors::{UseCaseError, WebError};
use crate::web::{AppState, session};

/// What the game page's tag box shows: only ever the viewer's own tags.
#[derive(Clone, Debug, Default)]
pub struct TagBox {
    /// Nothing is shown to a visitor who is not logged in.
    pub logged_in: bool,
    pub tags: Vec<String>,
    /// Why the last tag edit was refused.
    pub error: Option<String>,
    /// The tag as typed, kept after a refusal.
    pub typed: String,
}

/// The logged-in viewer's tags on a game (an empty, hidden box for visitors).
pub async fn tag_box(
    state: &AppState,
    session: &Session,
    game_id: i64,
) -> Result<TagBox, WebError> {
    let Some(me) = session::current_user_id(session) else {
        return Ok(TagBox::default());
    };
    let tags = state.db(move |c| tags::my_tags(c, me, game_id)).await??;
    Ok(TagBox {
        logged_in: true,
        tags,
        ..TagBox::default()
    })
}

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
            let mut refused = tag_box(&state, &session, id).await?;
            refused.error = Some(err.message());
            if matches!(how, Edit::Add) {
                refused.typed = typed;
            }
            super::game::show_with_tags(&state, &session, id, refused, err.status()).await
        }
    }
}
