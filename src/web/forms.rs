//! The checks of a posted form: its CSRF token, the logged-in sender (or the redirect to log in
//! and come back), and who sends a form about a game.

use actix_session::Session;
use actix_web::HttpResponse;
use serde::Deserialize;

use crate::web::errors::WebError;
use crate::web::respond::see_other;
use crate::web::session;

/// A form that carries nothing but its CSRF token.
#[derive(Deserialize)]
pub struct CsrfForm {
    csrf_token: String,
}

impl CsrfForm {
    /// The submitted token.
    pub fn csrf_token(&self) -> &str {
        &self.csrf_token
    }
}

/// Refuses a form whose CSRF token is not this session's.
pub fn check_csrf(session: &Session, submitted: &str) -> Result<(), WebError> {
    if session::csrf_ok(session, submitted) {
        Ok(())
    } else {
        Err(WebError::Forbidden(
            "this form has expired or did not come from this site: reload the page and try again"
                .into(),
        ))
    }
}

/// The logged-in user's id, or a redirect to the login page that comes back to `back`.
pub fn require_login(session: &Session, back: &str) -> Result<i64, Box<HttpResponse>> {
    session::current_user_id(session).ok_or_else(|| {
        let next: String = serde_urlencoded::to_string([("next", back)]).unwrap_or_default();
        Box::new(see_other(&format!("/login?{next}")))
    })
}

/// Who sends a form about the game of a `/games/{id}…` path: the game id and the logged-in
/// user, once the CSRF token is checked. A malformed id is 404; a visitor gets `Err` with the
/// redirect to log in and come back to the game.
pub fn game_form_sender(
    session: &Session,
    path: &str,
    csrf: &str,
) -> Result<Result<(i64, i64), Box<HttpResponse>>, WebError> {
    let id: i64 = path.parse().map_err(|_| WebError::NotFound)?;
    let me = match require_login(session, &format!("/games/{id}")) {
        Ok(me) => me,
        Err(redirect) => return Ok(Err(redirect)),
    };
    check_csrf(session, csrf)?;
    Ok(Ok((id, me)))
}
