//! The game page's routes: showing a game, the action bar's form (a move, a draw offer, a
//! resignation, …) and clearing conditional lines. The page itself is drawn by `game_page`.

use actix_session::Session;
use actix_web::{HttpResponse, web};
use serde::Deserialize;

use crate::game::GameRecord;
use crate::usecases::computer::computer_to_move;
use crate::usecases::messages::MessageError;
use crate::usecases::play::{self, Action, ActionRequest, PlayError};
use crate::web::errors::{self, WebError};
use crate::web::forms::game_form_sender;
use crate::web::game_page::{self, Occasion, Preview, Refusal, Typed, remember_preference};
use crate::web::respond::see_other;
use crate::web::{AppState, session};

#[derive(Deserialize)]
pub struct ViewQuery {
    ply: Option<String>,
    /// `1`: the board seen from the other side (the toolbar's Flip without JavaScript).
    flip: Option<String>,
    /// `hide` or `show`: the "Hide comments" preference.
    comments: Option<String>,
}

/// `GET /games/{id}`: the game at the current position or at `?ply=`, flipped with `?flip=1`.
pub async fn show(
    state: web::Data<AppState>,
    session: Session,
    path: web::Path<String>,
    query: web::Query<ViewQuery>,
) -> Result<HttpResponse, WebError> {
    let id: i64 = path.parse().map_err(|_| WebError::NotFound)?;
    // A ply that is not a number shows the current position.
    let ply = query.ply.as_deref().and_then(|p| p.parse().ok());
    let flipped = query.flip.as_deref() == Some("1");
    remember_preference(&session, query.comments.as_deref());
    game_page::draw(&state, &session, id, Occasion::View { ply, flipped }).await
}

#[derive(Deserialize)]
pub struct ActionForm {
    csrf_token: String,
    ply: i32,
    action: String,
    #[serde(rename = "move")]
    mv: Option<String>,
    message: Option<String>,
    /// `ask`: show the move and wait for `Confirm move` instead of playing it (a preference);
    /// `done`: the move or the resignation confirmed; `keep`: "Keep playing" after the resign
    /// question.
    confirm: Option<String>,
    /// `next`: after a move, go on to the next game awaiting the player's move (a preference).
    then: Option<String>,
}

/// The flash message after an action went through.
fn done_text(action: &Action, record: &GameRecord, me: i64, ply: i32) -> String {
    match action {
        Action::Move(_) | Action::MoveAndOfferDraw(_) => {
            // The player's own move is the one at the ply their page showed; any after it were
            // played for them by conditional lines (their opponent's reply, and so on).
            let at = usize::try_from(ply).unwrap_or(0);
            let Some(mine) = record.moves.get(at) else {
                return "Move played.".into();
            };
            let followed: Vec<&str> = record.moves[at + 1..]
                .iter()
                .map(|m| m.san.as_str())
                .collect();
            let offer = if matches!(action, Action::MoveAndOfferDraw(_)) && record.is_started() {
                " and offered a draw"
            } else {
                ""
            };
            if followed.is_empty() {
                return format!("You played {}{offer}.", mine.san);
            }
            let opponent = record
                .seat_of(me)
                .map_or("your opponent", |seat| record.name_of(seat.opponent()));
            format!(
                "You played {}{offer}; {opponent}'s conditional moves answered at once: {}.",
                mine.san,
                followed.join(" ")
            )
        }
        Action::Resign => "You resigned.".into(),
        Action::OfferDraw if record.is_started() => "You offered a draw.".into(),
        Action::OfferDraw | Action::AcceptDraw => "The game is drawn by agreement.".into(),
        Action::DeclineDraw => "You declined the draw offer.".into(),
        Action::ClaimDraw => "Your draw claim holds: the game is drawn.".into(),
        Action::ClaimTimeout => "Your opponent ran out of time: the game is over.".into(),
        Action::ConditionalMove(_) => {
            "Your conditional moves are saved; only you can see them.".into()
        }
        Action::WithdrawDraw => "You withdrew your draw offer.".into(),
        Action::Comment => "Your comment is posted.".into(),
        Action::TeamChat(_) => "Sent to your partner.".into(),
        Action::GiveTime(days) => match days.trim() {
            "1" => "You gave your opponent 1 more day.".into(),
            days => format!("You gave your opponent {days} more days."),
        },
        Action::Takeback => "Your last move is taken back: your move.".into(),
    }
}

/// The message typed with an action.
fn typed_message(typed: &Typed) -> String {
    match typed {
        Typed::Action { message, .. } => message.clone(),
        _ => String::new(),
    }
}

/// The longest a player's move waits for the computer's reply before the page is drawn.
const COMPUTER_WAIT: std::time::Duration = std::time::Duration::from_secs(4);

/// When the computer is to move in the game, waits (a little) for its reply, so that the page
/// drawn after the player's move shows it; the page without it after [`COMPUTER_WAIT`].
async fn await_computer(state: &AppState, id: i64) -> Result<(), WebError> {
    let started = std::time::Instant::now();
    while started.elapsed() < COMPUTER_WAIT {
        if !state.db(move |c| computer_to_move(c, id)).await?? {
            break;
        }
        actix_web::rt::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    Ok(())
}

/// `POST /games/{id}`: the action bar's form; a refusal draws the page again with what was typed.
pub async fn act(
    state: web::Data<AppState>,
    session: Session,
    path: web::Path<String>,
    form: web::Form<ActionForm>,
) -> Result<HttpResponse, WebError> {
    let (id, me) = match game_form_sender(&session, &path, &form.csrf_token)? {
        Ok(sender) => sender,
        Err(redirect) => return Ok(*redirect),
    };
    let form = form.into_inner();
    let typed = Typed::Action {
        action: form.action.clone(),
        mv: form.mv.clone().unwrap_or_default(),
        message: form.message.clone().unwrap_or_default(),
    };
    let Some(action) = Action::parse(&form.action, form.mv.as_deref()) else {
        return Err(WebError::BadRequest("unknown action".into()));
    };
    let req = ActionRequest {
        game_id: id,
        user_id: me,
        board: None,
        ply: Some(form.ply),
        action: action.clone(),
        message: form.message,
    };
    let now = state.now();
    let max = state.settings.game.max_message_chars;
    let records = state.records.clone();
    let asks = form.confirm.as_deref() == Some("ask")
        && matches!(action, Action::Move(_) | Action::MoveAndOfferDraw(_));
    // A move typed in the box is never thrown away by an action that does not play it.
    let typed_move = form.mv.as_deref().map(str::trim).unwrap_or_default();
    let ignores_move = !matches!(
        action,
        Action::Move(_)
            | Action::MoveAndOfferDraw(_)
            | Action::ConditionalMove(_)
            | Action::GiveTime(_)
    );
    if ignores_move && !typed_move.is_empty() {
        let refusal = Refusal::new(
            actix_web::http::StatusCode::UNPROCESSABLE_ENTITY,
            format!(
                "You typed the move {typed_move} but chose another action: choose Move (or Move and offer draw) to play it, or empty the move box."
            ),
            typed,
        );
        return game_page::draw(&state, &session, id, Occasion::Refused(refusal)).await;
    }
    if action == Action::Resign && form.confirm.as_deref() == Some("keep") {
        // "Keep playing" after the resign question: nothing changes, and the page comes back
        // with the message typed with Resign still in its box.
        let occasion = Occasion::KeepPlaying {
            message: typed_message(&typed),
        };
        return game_page::draw(&state, &session, id, occasion).await;
    }
    let outcome = if action == Action::Resign && form.confirm.as_deref() != Some("done") {
        // Resigning always asks first (of a player who may resign), and changes nothing until
        // it is confirmed.
        match state
            .db(move |c| play::check_action(c, &records, now, &req))
            .await?
        {
            Ok(()) => {
                let message = typed_message(&typed);
                let occasion = Occasion::ConfirmResign { message };
                return game_page::draw(&state, &session, id, occasion).await;
            }
            Err(err) => Err(err),
        }
    } else if asks {
        // Judged as the move itself would be, shown, and not stored.
        match state
            .db(move |c| play::preview_move(c, &records, now, max, &req))
            .await?
        {
            Ok((_, after)) => {
                let mut preview = Preview::of(after, typed_message(&typed));
                preview.offer_draw = matches!(action, Action::MoveAndOfferDraw(_));
                let occasion = Occasion::Confirm(Box::new(preview));
                return game_page::draw(&state, &session, id, occasion).await;
            }
            Err(err) => Err(err),
        }
    } else {
        state
            .db(move |c| play::act(c, &records, now, max, &req))
            .await?
    };
    match outcome {
        Ok(record) => {
            if record.seats_a_computer() {
                state.wake_computer();
                await_computer(&state, id).await?;
            }
            session::flash(&session, "info", done_text(&action, &record, me, form.ply));
            let moved = matches!(action, Action::Move(_) | Action::MoveAndOfferDraw(_));
            if form.then.as_deref() == Some("next") && moved {
                return Ok(see_other(&format!("/next?after={id}")));
            }
            Ok(see_other(&format!("/games/{id}")))
        }
        Err(PlayError::Db(e) | PlayError::Message(MessageError::Db(e))) => Err(e.into()),
        Err(PlayError::NotFound | PlayError::Message(MessageError::NotFound)) => {
            Err(WebError::NotFound)
        }
        Err(err) => {
            let errors::Refusal { status, message } = errors::refusal(err)?;
            let refusal = Refusal::new(status, message, typed);
            game_page::draw(&state, &session, id, Occasion::Refused(refusal)).await
        }
    }
}

/// Deletes the logged-in player's conditional lines in this game.
pub async fn clear_conditional(
    state: web::Data<AppState>,
    session: Session,
    path: web::Path<String>,
    form: web::Form<crate::web::forms::CsrfForm>,
) -> Result<HttpResponse, WebError> {
    let (id, me) = match game_form_sender(&session, &path, form.csrf_token())? {
        Ok(sender) => sender,
        Err(redirect) => return Ok(*redirect),
    };
    state
        .db(move |c| crate::usecases::conditional::clear_lines(c, id, me))
        .await??;
    session::flash(&session, "info", "Your conditional moves are cleared.");
    Ok(see_other(&format!("/games/{id}")))
}
