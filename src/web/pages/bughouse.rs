//! The bughouse match page's form, `POST /games/{id}/match`: a move or drop on one's own board,
//! a draw offer or answer, a resignation (asked first), or a line to the partner. A refusal
//! draws the page again with what was typed.

use actix_session::Session;
use actix_web::{HttpResponse, web};
use serde::Deserialize;

use crate::usecases::bughouse::parse_board;
use crate::usecases::play::{self, Action, ActionRequest, PlayError};
use crate::web::errors::{self, WebError};
use crate::web::forms::game_form_sender;
use crate::web::match_page::{self, MatchOccasion, MatchRefusal, MatchTyped};
use crate::web::respond::see_other;
use crate::web::{AppState, session};

#[derive(Deserialize)]
pub struct MatchForm {
    csrf_token: String,
    action: String,
    #[serde(default)]
    board: Option<String>,
    #[serde(default)]
    ply: Option<i32>,
    #[serde(rename = "move", default)]
    mv: Option<String>,
    #[serde(default)]
    message: Option<String>,
    /// `done`: a resignation already confirmed.
    #[serde(default)]
    confirm: Option<String>,
}

/// The flash message after an action went through.
fn done_text(action: &Action) -> &'static str {
    match action {
        Action::Resign => "You resigned: the match is over.",
        Action::OfferDraw => "You offered a draw of the match.",
        Action::AcceptDraw => "The match is drawn by agreement.",
        Action::DeclineDraw => "You declined the draw offer.",
        Action::WithdrawDraw => "You withdrew your draw offer.",
        Action::TeamChat(_) => "Sent to your partner.",
        _ => "Move played.",
    }
}

/// `POST /games/{id}/match`.
pub async fn act(
    state: web::Data<AppState>,
    session: Session,
    path: web::Path<String>,
    form: web::Form<MatchForm>,
) -> Result<HttpResponse, WebError> {
    let (id, me) = match game_form_sender(&session, &path, &form.csrf_token)? {
        Ok(sender) => sender,
        Err(redirect) => return Ok(*redirect),
    };
    let form = form.into_inner();
    let typed = MatchTyped {
        mv: form.mv.clone().unwrap_or_default(),
        chat: if form.action == "team_chat" {
            form.message.clone().unwrap_or_default()
        } else {
            String::new()
        },
    };
    let text = match form.action.as_str() {
        "team_chat" => form.message.as_deref(),
        _ => form.mv.as_deref(),
    };
    let Some(action) = Action::parse(&form.action, text) else {
        return Err(WebError::BadRequest("unknown action".into()));
    };
    if action == Action::Resign && form.confirm.as_deref() != Some("done") {
        return match_page::draw(&state, &session, id, MatchOccasion::ConfirmResign).await;
    }
    let req = ActionRequest {
        game_id: id,
        user_id: me,
        board: form.board.as_deref().and_then(parse_board),
        ply: form.ply,
        action: action.clone(),
        message: None,
    };
    let now = state.now();
    let max = state.settings.game.max_message_chars;
    let records = state.records.clone();
    let outcome = state
        .db(move |c| play::act(c, &records, now, max, &req))
        .await?;
    match outcome {
        Ok(_) => {
            session::flash(&session, "info", done_text(&action));
            let anchor = if matches!(action, Action::TeamChat(_)) {
                "#team-chat"
            } else {
                ""
            };
            Ok(see_other(&format!("/games/{id}{anchor}")))
        }
        Err(PlayError::NotFound) => Err(WebError::NotFound),
        Err(err) => {
            let errors::Refusal { status, message } = errors::refusal(err)?;
            let refusal = MatchRefusal {
                status,
                message,
                typed,
            };
            match_page::draw(&state, &session, id, MatchOccasion::Refused(refusal)).await
        }
    }
}
