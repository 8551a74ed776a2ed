//! The browser session: who is logged in, the CSRF token, and one-shot flash messages.

use actix_session::Session;
use serde::{Deserialize, Serialize};

const USER_KEY: &str = "user_id";
const NAME_KEY: &str = "username";
const CSRF_KEY: &str = "csrf";
const FLASH_KEY: &str = "flash";
const EPOCH_KEY: &str = "epoch";

/// A message shown once on the next page.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Flash {
    /// `info` or `error`; used as a CSS class.
    pub level: String,
    pub text: String,
}

/// The logged-in user's id, if any.
pub fn current_user_id(session: &Session) -> Option<i64> {
    session.get::<i64>(USER_KEY).ok().flatten()
}

/// The logged-in user's name, if any.
pub fn current_username(session: &Session) -> Option<String> {
    session.get::<String>(NAME_KEY).ok().flatten()
}

/// The generation of the user's logins this session was made under (see `session_guard`).
pub fn epoch(session: &Session) -> Option<i32> {
    session.get::<i32>(EPOCH_KEY).ok().flatten()
}

/// Logs a user in: a fresh session id guards against fixation (whatever the session held
/// before, a visitor's CSRF token included, is dropped), and the session carries the user's
/// login generation `epoch`.
pub fn log_in(session: &Session, user: &crate::models::User) {
    session.clear();
    session.renew();
    let _ = session.insert(USER_KEY, user.id);
    let _ = session.insert(NAME_KEY, &user.username);
    let _ = session.insert(EPOCH_KEY, user.session_epoch);
    let _ = session.insert(CSRF_KEY, new_token());
}

/// Forgets everything and starts a fresh, empty session (its new id is set on the answer).
pub fn forget(session: &Session) {
    session.clear();
    session.renew();
}

/// Logs out: forgets everything and removes the cookie. The caller also ends the user's
/// login generation (`accounts::end_sessions`), so a kept copy of the cookie is worthless.
pub fn log_out(session: &Session) {
    session.purge();
}

fn new_token() -> String {
    use base64::Engine;
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(rand::random::<[u8; 32]>())
}

/// The session's CSRF token, created on first use.
pub fn csrf_token(session: &Session) -> String {
    if let Ok(Some(t)) = session.get::<String>(CSRF_KEY) {
        return t;
    }
    let t = new_token();
    let _ = session.insert(CSRF_KEY, &t);
    t
}

/// The session's CSRF token if it has one already (creates nothing).
pub fn existing_csrf_token(session: &Session) -> Option<String> {
    session.get::<String>(CSRF_KEY).ok().flatten()
}

/// Whether a submitted form carries this session's CSRF token.
pub fn csrf_ok(session: &Session, submitted: &str) -> bool {
    match session.get::<String>(CSRF_KEY) {
        Ok(Some(expected)) => constant_time_eq(expected.as_bytes(), submitted.as_bytes()),
        _ => false,
    }
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// Queues a message for the next page.
pub fn flash(session: &Session, level: &str, text: impl Into<String>) {
    let mut all = session
        .get::<Vec<Flash>>(FLASH_KEY)
        .ok()
        .flatten()
        .unwrap_or_default();
    all.push(Flash {
        level: level.to_string(),
        text: text.into(),
    });
    let _ = session.insert(FLASH_KEY, all);
}

/// Takes the queued messages.
pub fn take_flashes(session: &Session) -> Vec<Flash> {
    session
        .remove_as::<Vec<Flash>>(FLASH_KEY)
        .and_then(Result::ok)
        .unwrap_or_default()
}
