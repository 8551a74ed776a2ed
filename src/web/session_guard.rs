//! Ends sessions the server no longer honours: a session cookie names a user and the login
//! generation it was made under (`users.session_epoch`); when the user has logged out since
//! (on any instance) or the account is gone, the request goes on as a visitor's and the
//! answer replaces the cookie. The cookie alone can never outlive a logout.

use actix_session::SessionExt;
use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::middleware::Next;
use actix_web::{Error, web};

use super::AppState;
use super::session;
use crate::usecases::accounts;

/// Paths that never read the session (the API uses bearer tokens): no database read for them.
const SESSIONLESS: &[&str] = &["/static/", "/api/", "/health", "/metrics"];

/// The middleware, inside the session middleware: it checks a logged-in session's login
/// generation against the user's before any handler reads the session.
pub async fn end_stale_sessions(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, Error> {
    let path = req.path();
    if !SESSIONLESS.iter().any(|p| path.starts_with(p)) {
        let session = req.get_session();
        if let Some(user_id) = session::current_user_id(&session)
            && let Some(state) = req.app_data::<web::Data<AppState>>().cloned()
        {
            let current = state
                .db(move |c| accounts::session_epoch(c, user_id))
                .await?
                .map_err(super::errors::WebError::internal)?;
            if current.is_none() || current != session::epoch(&session) {
                session::forget(&session);
            }
        }
    }
    next.call(req).await
}
