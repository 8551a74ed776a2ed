//! `POST /account/preferences`: the board settings form of the account page and of the game
//! page's Settings panel (sent by its script as you change a setting).

use actix_session::Session;
use actix_web::{HttpRequest, HttpResponse, web};
use serde::Deserialize;

use crate::usecases::preferences::{self, PreferencesChange};
use crate::web::errors::{WebError, refusal};
use crate::web::forms::{check_csrf, require_login};
use crate::web::respond::{local_path, see_other};
use crate::web::{AppState, session};

/// The whole form: a checkbox left out is off.
#[derive(Deserialize)]
pub struct PreferencesForm {
    csrf_token: String,
    back: Option<String>,
    board_theme: String,
    piece_set: String,
    animation_ms: String,
    coordinates: Option<String>,
    board_3d: Option<String>,
    confirm_moves: Option<String>,
    always_white: Option<String>,
    next_game_after_move: Option<String>,
}

/// Saves the form; a script asking for JSON gets `204` (or the refusal's status and message),
/// a browser without one a flash message and the page it came from.
pub async fn save(
    state: web::Data<AppState>,
    session: Session,
    request: HttpRequest,
    form: web::Form<PreferencesForm>,
) -> Result<HttpResponse, WebError> {
    let form = form.into_inner();
    let back = local_path(form.back.as_deref(), "/account");
    let me = match require_login(&session, &back) {
        Ok(id) => id,
        Err(redirect) => return Ok(*redirect),
    };
    check_csrf(&session, &form.csrf_token)?;
    let wants_json = request
        .headers()
        .get(actix_web::http::header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains("application/json"));
    let change = PreferencesChange {
        board_theme: Some(form.board_theme),
        piece_set: Some(form.piece_set),
        // Not a number: refused as out of range.
        animation_ms: Some(form.animation_ms.trim().parse().unwrap_or(-1)),
        coordinates: Some(form.coordinates.is_some()),
        board_3d: Some(form.board_3d.is_some()),
        confirm_moves: Some(form.confirm_moves.is_some()),
        always_white: Some(form.always_white.is_some()),
        next_game_after_move: Some(form.next_game_after_move.is_some()),
    };
    let now = state.now();
    match state
        .db(move |c| preferences::change_preferences(c, now, me, &change))
        .await?
    {
        Ok(_) if wants_json => Ok(HttpResponse::NoContent().finish()),
        Ok(_) => {
            session::flash(&session, "info", "Board settings saved.");
            Ok(see_other(&back))
        }
        Err(preferences::PreferencesError::Db(e)) => Err(e.into()),
        Err(err) => {
            let refused = refusal(err)?;
            if wants_json {
                return Ok(HttpResponse::build(refused.status)
                    .json(serde_json::json!({ "error": refused.message })));
            }
            session::flash(&session, "error", refused.message);
            Ok(see_other(&back))
        }
    }
}
