//! Signing up and logging in, for the pages and the API alike: the cheap checks first, then
//! the password's hash made or checked through the `PasswordGate` (on its own threads, with no
//! database connection held meanwhile), then the rows.

use crate::models::User;
use crate::usecases::accounts::{self, LoginError, SignUpError};
use crate::web::AppState;
use crate::web::errors::WebError;

/// Registers a player: refused before any hash when the name, address or password is bad,
/// and with `SignUpError::Hash` (nothing stored) when too many hashes are asked for at once.
pub async fn sign_up(
    state: &AppState,
    username: &str,
    email: &str,
    password: String,
) -> Result<Result<User, SignUpError>, WebError> {
    let checked = match accounts::check_sign_up(username, email, &password) {
        Ok(checked) => checked,
        Err(e) => return Ok(Err(e)),
    };
    let admission = match state.passwords.admit() {
        Ok(admission) => admission,
        Err(e) => return Ok(Err(e.into())),
    };
    let hash = match admission.hash(password).await {
        Ok(hash) => hash,
        Err(e) => return Ok(Err(e.into())),
    };
    let now = state.now();
    state
        .db(move |c| accounts::sign_up(c, now, &checked, &hash))
        .await
}

/// Checks a login: throttled before any hash, `LoginError::Hash` (nothing recorded) when too
/// many hashes are asked for at once, else the outcome recorded as `accounts::finish_login`
/// does.
pub async fn log_in(
    state: &AppState,
    username: String,
    password: String,
    address: String,
) -> Result<Result<User, LoginError>, WebError> {
    // Admitted before the database is asked anything: a sign-in refused costs nothing.
    let admission = match state.passwords.admit() {
        Ok(admission) => admission,
        Err(e) => return Ok(Err(e.into())),
    };
    let now = state.now();
    let auth = state.settings.auth.clone();
    let attempt = match state
        .db(move |c| accounts::begin_login(c, &auth, now, &username, &address))
        .await?
    {
        Ok(attempt) => attempt,
        Err(e) => return Ok(Err(e)),
    };
    let password_ok = match admission
        .verify(attempt.stored_hash().to_string(), password)
        .await
    {
        Ok(ok) => ok,
        Err(e) => return Ok(Err(e.into())),
    };
    let now = state.now();
    state
        .db(move |c| accounts::finish_login(c, now, attempt, password_ok))
        .await
}
