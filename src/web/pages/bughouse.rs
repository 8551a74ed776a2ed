//! The bughouse match page's form, `POST /games/{id}/match`: a move or drop on one's own board,
//! a draw offer or answer, a resignation (asked first), or a line to the partner. A refusal
//! draws the page again with what was typed.

use actix_session::Session;
use actix_web::{HttpResponse, web};
use serde::Deserialize;

use crate::usecases::bughouse::{MatchAction, MatchError, MatchRequest, act_in_match, parse_board};
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
fn done_text(action: &MatchAction) -> &'static str {
    match action {
        MatchAction::Move(_) => "Move played.",
        MatchAction::Resign => "You resigned: the match is over.",
        MatchAction::OfferDraw => "You offered a draw of the match.",
        MatchAction::AcceptDraw => "The match is drawn by agreement.",
        MatchAction::DeclineDraw => "You declined the draw offer.",
        MatchAction::WithdrawDraw => "You withdrew your draw offer.",
        MatchAction::TeamChat(_) => "Sent to your partner.",
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
    let action = match form.action.as_str() {
        "move" => MatchAction::Move(form.mv.unwrap_or_default()),
        "resign" => MatchAction::Resign,
        "offer_draw" => MatchAction::OfferDraw,
        "accept_draw" => MatchAction::AcceptDraw,
        "decline_draw" => MatchAction::DeclineDraw,
        "withdraw_draw" => MatchAction::WithdrawDraw,
        "team_chat" => MatchAction::TeamChat(form.message.unwrap_or_default()),
        _ => return Err(WebError::BadRequest("unknown action".into())),
    };
    if action == MatchAction::Resign && form.confirm.as_deref() != Some("done") {
        return match_page::draw(&state, &session, id, MatchOccasion::ConfirmResign).await;
    }
    let req = MatchRequest {
        game_id: id,
        user_id: me,
        board: form.board.as_deref().and_then(parse_board),
        ply: form.ply,
        action: action.clone(),
    };
    let now = state.now();
    let max = state.settings.game.max_message_chars;
    let outcome = state.db(move |c| act_in_match(c, now, max, &req)).await?;
    match outcome {
        Ok(_) => {
            session::flash(&session, "info", done_text(&action));
            let anchor = if matches!(action, MatchAction::TeamChat(_)) {
                "#team-chat"
            } else {
                ""
            };
            Ok(see_other(&format!("/games/{id}{anchor}")))
        }
        Err(MatchError::NotFound) => Err(WebError::NotFound),
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
