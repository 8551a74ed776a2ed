//! The game page's talk: what the viewer may read and write (comments, kibitz, private
//! notes), the "Hide comments" preference, and the kibitz and notes forms.

use actix_session::Session;
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use serde::Deserialize;

use super::game::{Typed, refuse};
use super::{game_form_sender, see_other};
use crate::game::GameRecord;
use crate::usecases::messages::{self, MessageError};
use crate::web::errors::{UseCaseError, WebError};
use crate::web::{AppState, session};

/// The session key of the "Hide comments" preference (for every game).
const HIDE_KEY: &str = "hide_comments";

/// The talk part of the game page, as this viewer may see and use it.
pub struct TalkView {
    /// The viewer asked not to see comments and kibitz.
    pub hidden: bool,
    /// The link that flips the preference (`?comments=show|hide`, keeping the viewed ply).
    pub toggle_href: String,
    pub is_public: bool,
    /// The viewer plays: a notes box; the note is read by `fill_note`.
    pub note_box: bool,
    pub note_value: String,
    /// A logged-in spectator of a public game: a kibitz box.
    pub kibitz_box: bool,
    pub kibitz_value: String,
    /// A player of a running public game: spectators' kibitz waits for the end.
    pub kibitz_waits: bool,
    /// A visitor who is not logged in, in a running public game.
    pub login_to_kibitz: bool,
    /// A player of a finished game: comments go in their own box (no action bar then).
    pub comment_box: bool,
    pub comment_value: String,
    pub max_chars: usize,
}

/// Whether this browser hides comments (a preference kept in its session).
pub fn comments_hidden(session: &Session) -> bool {
    session
        .get::<bool>(HIDE_KEY)
        .ok()
        .flatten()
        .unwrap_or(false)
}

/// Records `?comments=hide` or `?comments=show`.
pub fn remember_preference(session: &Session, choice: Option<&str>) {
    match choice {
        Some("hide") => {
            let _ = session.insert(HIDE_KEY, true);
        }
        Some("show") => {
            session.remove(HIDE_KEY);
        }
        _ => {}
    }
}

/// The talk as `viewer` sees it; `typed` keeps what a refused form held.
pub fn talk_view(
    state: &AppState,
    session: &Session,
    record: &GameRecord,
    view_ply: Option<u32>,
    typed: &Typed,
) -> TalkView {
    let viewer = session::current_user_id(session);
    let plays = viewer.is_some_and(|id| record.seat_of(id).is_some());
    let public = record.game.is_public;
    let running = record.is_started();
    let hidden = comments_hidden(session);
    let ply = view_ply.map_or(String::new(), |p| format!("&ply={p}"));
    TalkView {
        hidden,
        toggle_href: format!(
            "/games/{}?comments={}{ply}",
            record.game.id,
            if hidden { "show" } else { "hide" }
        ),
        is_public: public,
        note_box: plays,
        note_value: typed.note.clone().unwrap_or_default(),
        kibitz_box: public && viewer.is_some() && !plays,
        kibitz_value: typed.kibitz.clone(),
        kibitz_waits: public && running && plays,
        login_to_kibitz: public && running && viewer.is_none(),
        comment_box: plays && !running,
        comment_value: if running {
            String::new()
        } else {
            typed.message.clone()
        },
        max_chars: state.settings.game.max_message_chars,
    }
}

/// Reads the viewer's own note into the notes box, unless a refused form's text is kept.
pub async fn fill_note(
    state: &AppState,
    session: &Session,
    record: &GameRecord,
    talk: &mut TalkView,
    typed: bool,
) -> Result<(), WebError> {
    let Some(me) = session::current_user_id(session) else {
        return Ok(());
    };
    if !talk.note_box || typed {
        return Ok(());
    }
    let id = record.game.id;
    match state.db(move |c| messages::my_note(c, id, me)).await? {
        Ok(note) => talk.note_value = note.map(|n| n.text).unwrap_or_default(),
        Err(MessageError::Db(e)) => return Err(e.into()),
        // Not a player after all: the box stays empty.
        Err(_) => {}
    }
    Ok(())
}

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
    let typed = Typed {
        kibitz: text.clone(),
        ..Typed::default()
    };
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
    let typed = Typed {
        note: Some(text.clone()),
        ..Typed::default()
    };
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
            let status: StatusCode = e.status();
            refuse(state, session, id, status, e.message(), typed).await
        }
    }
}
