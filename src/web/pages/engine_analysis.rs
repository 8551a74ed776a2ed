//! The Engine Analysis tab's form: `POST /games/{id}/engine-analysis` asks for the finished
//! game's analysis (logged in, CSRF) and comes back to the tab, which shows its progress.

use actix_session::Session;
use actix_web::{HttpResponse, web};
use serde::Deserialize;

use crate::usecases::engine_analysis::request_analysis;
use crate::web::errors::{UseCaseError, WebError};
use crate::web::forms::game_form_sender;
use crate::web::respond::see_other;
use crate::web::{AppState, session};

#[derive(Deserialize)]
pub struct AskForm {
    csrf_token: String,
}

/// `POST /games/{id}/engine-analysis`.
pub async fn ask(
    state: web::Data<AppState>,
    session: Session,
    path: web::Path<String>,
    form: web::Form<AskForm>,
) -> Result<HttpResponse, WebError> {
    let (id, me) = match game_form_sender(&session, &path, &form.csrf_token)? {
        Ok(sender) => sender,
        Err(redirect) => return Ok(*redirect),
    };
    let now = state.now();
    let asked = state
        .db(move |c| request_analysis(c, now, id, Some(me)))
        .await?;
    match asked {
        Ok(requested) => {
            state.wake_analysis();
            let text = if requested.queued_now {
                "Engine analysis queued: the Engine Analysis tab shows how far it is."
            } else {
                "This game's engine analysis was already asked for."
            };
            session::flash(&session, "info", text);
        }
        Err(e) if e.status().is_server_error() => return Err(WebError::internal(e)),
        Err(e) => session::flash(&session, "error", e.to_string()),
    }
    Ok(see_other(&format!("/games/{id}#panel-engine")))
}
