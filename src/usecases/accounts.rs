//! Accounts: sign up, check a login (throttled), personal API tokens. The password hashes
//! themselves are made and checked by the caller between the steps (`crate::passwords`), so
//! no database connection is held while one is computed.

use chrono::{Duration, NaiveDateTime};
use diesel::prelude::*;
use sha2::{Digest, Sha256};

use crate::config::AuthSettings;
use crate::db::DbConnection;
use crate::models::{NewApiToken, NewLoginAttempt, NewUser, User};
use crate::passwords::{DUMMY_HASH, HashError};
use crate::schema::{api_tokens, login_attempts, users};

/// Why a sign-up was refused.
#[derive(Debug, thiserror::Error)]
pub enum SignUpError {
    #[error("{0}")]
    InvalidUsername(&'static str),
    #[error("the username \"{0}\" is already taken")]
    UsernameTaken(String),
    #[error("\"{0}\" is not a valid email address")]
    InvalidEmail(String),
    #[error("{0}")]
    WeakPassword(&'static str),
    /// The password could not be hashed now (too many at once): nothing was stored.
    #[error(transparent)]
    Hash(#[from] HashError),
    #[error(transparent)]
    Db(#[from] diesel::result::Error),
}

/// Why a login was refused.
#[derive(Debug, thiserror::Error)]
pub enum LoginError {
    #[error("wrong username or password")]
    WrongCredentials,
    #[error("too many failed logins: wait {0} minutes and try again")]
    Throttled(i64),
    /// The password could not be checked now (too many at once): nothing was recorded.
    #[error(transparent)]
    Hash(#[from] HashError),
    #[error(transparent)]
    Db(#[from] diesel::result::Error),
}

/// A username: 3 to 20 letters, digits, `_` or `-`, starting with a letter or digit.
pub fn check_username(name: &str) -> Result<(), SignUpError> {
    let len = name.chars().count();
    if !(3..=20).contains(&len) {
        return Err(SignUpError::InvalidUsername(
            "a username has 3 to 20 characters",
        ));
    }
    if !name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        return Err(SignUpError::InvalidUsername(
            "a username may hold only letters, digits, _ and -",
        ));
    }
    if !name.starts_with(|c: char| c.is_ascii_alphanumeric()) {
        return Err(SignUpError::InvalidUsername(
            "a username starts with a letter or a digit",
        ));
    }
    Ok(())
}

/// Passwords that are refused whatever their length.
const COMMON_PASSWORDS: &[&str] = &[
    "password",
    "password1",
    "12345678",
    "123456789",
    "1234567890",
    "qwertyuiop",
    "iloveyou",
    "11111111",
    "00000000",
    "abcdefgh",
    "letmein1",
    "chess123",
    "qwerty123",
    "passw0rd",
];

/// A password: 8 to 128 characters, not a common one, not the username.
pub fn check_password(password: &str, username: &str) -> Result<(), SignUpError> {
    let len = password.chars().count();
    if len < 8 {
        return Err(SignUpError::WeakPassword(
            "the password is too short: use at least 8 characters",
        ));
    }
    if len > 128 {
        return Err(SignUpError::WeakPassword(
            "the password is too long: use at most 128 characters",
        ));
    }
    let lower = password.to_lowercase();
    if COMMON_PASSWORDS.contains(&lower.as_str()) || lower == username.to_lowercase() {
        return Err(SignUpError::WeakPassword(
            "the password is too easy to guess: choose another",
        ));
    }
    if password
        .chars()
        .all(|c| c == password.chars().next().unwrap_or(' '))
    {
        return Err(SignUpError::WeakPassword(
            "the password is too easy to guess: choose another",
        ));
    }
    Ok(())
}

/// A sign-up whose name, address and password passed the checks: ready for its password to
/// be hashed and its row written by [`sign_up`].
#[derive(Clone, Debug)]
pub struct CheckedSignUp {
    pub username: String,
    pub email: String,
}

/// Checks a sign-up before anything is hashed or written: the username, the address and the
/// password (refusals cost no hash).
pub fn check_sign_up(
    username: &str,
    email: &str,
    password: &str,
) -> Result<CheckedSignUp, SignUpError> {
    let username = username.trim();
    let email = email.trim();
    check_username(username)?;
    if email.len() > 254 || !email_address::EmailAddress::is_valid(email) {
        return Err(SignUpError::InvalidEmail(email.chars().take(80).collect()));
    }
    check_password(password, username)?;
    Ok(CheckedSignUp {
        username: username.to_string(),
        email: email.to_string(),
    })
}

/// Registers a checked player with the hash of their password (`passwords::hash_password`);
/// the username is unique regardless of case.
pub fn sign_up(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    checked: &CheckedSignUp,
    password_hash: &str,
) -> Result<User, SignUpError> {
    let username = checked.username.as_str();
    let key = username.to_lowercase();
    crate::db::write_transaction(conn, |conn| {
        let new = NewUser {
            username,
            username_key: &key,
            email: &checked.email,
            password_hash,
            created_at: now,
        };
        let inserted = crate::on_backend!(conn, |c| diesel::insert_into(users::table)
            .values(&new)
            .returning(User::as_returning())
            .get_result(c));
        match inserted {
            Err(diesel::result::Error::DatabaseError(
                diesel::result::DatabaseErrorKind::UniqueViolation,
                _,
            )) => Err(SignUpError::UsernameTaken(username.to_string())),
            other => {
                let user = other?;
                crate::usecases::notify::verify_email(conn, now, &user)?;
                Ok(user)
            }
        }
    })
}

/// A login let through the throttle: the account named (if any) and the keys its outcome is
/// recorded under. Its password is checked against [`LoginAttempt::stored_hash`] by the
/// caller, then [`finish_login`] records the outcome.
#[derive(Debug)]
pub struct LoginAttempt {
    user: Option<User>,
    name_key: String,
    addr_key: String,
}

impl LoginAttempt {
    /// The hash to check the password against: the account's, or for an unknown name a dummy
    /// one (checked all the same, so timing does not tell which names exist).
    pub fn stored_hash(&self) -> &str {
        self.user
            .as_ref()
            .map_or(DUMMY_HASH, |u| u.password_hash.as_str())
    }
}

/// The first step of a login: refuses early when either the name or the address has failed
/// too often within the window (no hash is spent on it), else reads the account named.
pub fn begin_login(
    conn: &mut DbConnection,
    settings: &AuthSettings,
    now: NaiveDateTime,
    username: &str,
    address: &str,
) -> Result<LoginAttempt, LoginError> {
    let name: String = username.trim().to_lowercase().chars().take(40).collect();
    let name_key = format!("user:{name}");
    let addr_key = format!("addr:{address}");
    let since = now - Duration::minutes(settings.login_window_minutes);
    let failures = |conn: &mut DbConnection, key: &str| -> QueryResult<i64> {
        login_attempts::table
            .filter(login_attempts::throttle_key.eq(key))
            .filter(login_attempts::attempted_at.gt(since))
            .count()
            .get_result(conn)
    };
    if failures(conn, &name_key)? >= settings.max_failed_logins_per_user
        || failures(conn, &addr_key)? >= settings.max_failed_logins_per_address
    {
        return Err(LoginError::Throttled(settings.login_window_minutes));
    }
    let user: Option<User> = users::table
        .filter(users::username_key.eq(username.trim().to_lowercase()))
        .select(User::as_select())
        .get_result(conn)
        .optional()?;
    Ok(LoginAttempt {
        user,
        name_key,
        addr_key,
    })
}

/// The last step of a login, once its password was checked: a success clears the name's
/// failures and gives the user; a failure is recorded against the name and the address.
pub fn finish_login(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    attempt: LoginAttempt,
    password_ok: bool,
) -> Result<User, LoginError> {
    let LoginAttempt {
        user,
        name_key,
        addr_key,
    } = attempt;
    match user {
        Some(u) if password_ok => {
            diesel::delete(
                login_attempts::table.filter(login_attempts::throttle_key.eq(&name_key)),
            )
            .execute(conn)?;
            Ok(u)
        }
        _ => {
            for key in [&name_key, &addr_key] {
                diesel::insert_into(login_attempts::table)
                    .values(NewLoginAttempt {
                        throttle_key: key,
                        attempted_at: now,
                    })
                    .execute(conn)?;
            }
            Err(LoginError::WrongCredentials)
        }
    }
}

/// The user's login generation now, or `None` when the account is gone: a session made under
/// another value is no longer logged in.
pub fn session_epoch(conn: &mut DbConnection, user_id: i64) -> QueryResult<Option<i32>> {
    users::table
        .find(user_id)
        .select(users::session_epoch)
        .get_result(conn)
        .optional()
}

/// Ends every session of the user (logging out): their login generation is counted up, so
/// each cookie made before, on any browser or any copy of it, no longer logs in.
pub fn end_sessions(conn: &mut DbConnection, user_id: i64) -> QueryResult<()> {
    diesel::update(users::table.find(user_id))
        .set(users::session_epoch.eq(users::session_epoch + 1))
        .execute(conn)?;
    Ok(())
}

fn token_hash(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// Creates a personal API token and returns it; only its hash is kept.
pub fn create_api_token(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    user_id: i64,
    label: &str,
) -> QueryResult<String> {
    use base64::Engine;
    let token = format!(
        "sf_{}",
        base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(rand::random::<[u8; 32]>())
    );
    diesel::insert_into(api_tokens::table)
        .values(NewApiToken {
            user_id,
            token_hash: &token_hash(&token),
            label,
            created_at: now,
        })
        .execute(conn)?;
    Ok(token)
}

/// The user a bearer token belongs to, if any.
pub fn user_by_token(conn: &mut DbConnection, token: &str) -> QueryResult<Option<User>> {
    api_tokens::table
        .inner_join(users::table)
        .filter(api_tokens::token_hash.eq(token_hash(token)))
        .select(User::as_select())
        .get_result(conn)
        .optional()
}

/// A user by id.
pub fn user_by_id(conn: &mut DbConnection, id: i64) -> QueryResult<Option<User>> {
    users::table
        .find(id)
        .select(User::as_select())
        .get_result(conn)
        .optional()
}

/// A user by name, case-insensitively.
pub fn user_by_name(conn: &mut DbConnection, name: &str) -> QueryResult<Option<User>> {
    users::table
        .filter(users::username_key.eq(name.trim().to_lowercase()))
        .select(User::as_select())
        .get_result(conn)
        .optional()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usernames_are_checked() {
        assert!(check_username("alice").is_ok());
        assert!(check_username("al").is_err());
        assert!(check_username("_alice").is_err());
        assert!(check_username("a<script>").is_err());
    }

    #[test]
    fn weak_passwords_are_refused() {
        assert!(check_password("short", "bob").is_err());
        assert!(check_password("password", "bob").is_err());
        assert!(check_password("aaaaaaaaaa", "bob").is_err());
        assert!(check_password("bobbybobby", "bobbybobby").is_err());
        assert!(check_password("correct horse battery", "bob").is_ok());
    }
}
