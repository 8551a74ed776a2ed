//! Accounts: sign up, check a login (throttled), personal API tokens.

use argon2::Argon2;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use chrono::{Duration, NaiveDateTime};
use diesel::prelude::*;
use sha2::{Digest, Sha256};

use crate::config::AuthSettings;
use crate::db::DbConnection;
use crate::models::{NewApiToken, NewLoginAttempt, NewUser, User};
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

/// Registers a player; the username is unique regardless of case.
pub fn sign_up(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    username: &str,
    email: &str,
    password: &str,
) -> Result<User, SignUpError> {
    let username = username.trim();
    let email = email.trim();
    check_username(username)?;
    if email.len() > 254 || !email_address::EmailAddress::is_valid(email) {
        return Err(SignUpError::InvalidEmail(email.chars().take(80).collect()));
    }
    check_password(password, username)?;
    let key = username.to_lowercase();
    let hash = hash_password(password);
    crate::db::write_transaction(conn, |conn| {
        let new = NewUser {
            username,
            username_key: &key,
            email,
            password_hash: &hash,
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

fn hash_password(password: &str) -> String {
    let salt = SaltString::encode_b64(&rand::random::<[u8; 16]>()).expect("16 bytes encode");
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .expect("argon2id hashing with default parameters")
        .to_string()
}

fn password_matches(hash: &str, password: &str) -> bool {
    PasswordHash::new(hash)
        .map(|parsed| {
            Argon2::default()
                .verify_password(password.as_bytes(), &parsed)
                .is_ok()
        })
        .unwrap_or(false)
}

/// Checks a username and password, refusing early when either the name or the address has
/// failed too often within the window. Failures are recorded; a success clears the name's.
pub fn log_in(
    conn: &mut DbConnection,
    settings: &AuthSettings,
    now: NaiveDateTime,
    username: &str,
    password: &str,
    address: &str,
) -> Result<User, LoginError> {
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
        .first(conn)
        .optional()?;
    // Hash even for an unknown name, so timing does not tell which names exist.
    let ok = match &user {
        Some(u) => password_matches(&u.password_hash, password),
        None => {
            let _ = password_matches(DUMMY_HASH, password);
            false
        }
    };
    match user {
        Some(u) if ok => {
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

/// An argon2id hash of a random password, checked against when the user does not exist.
const DUMMY_HASH: &str =
    "$argon2id$v=19$m=19456,t=2,p=1$c2xvd2Z1c2VkdW1teQ$J1y7iVfYxwYjKxv8a9mVvQ3Jq8kz7oS5lq1dW1cSxXc";

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
        .first(conn)
        .optional()
}

/// A user by id.
pub fn user_by_id(conn: &mut DbConnection, id: i64) -> QueryResult<Option<User>> {
    users::table
        .find(id)
        .select(User::as_select())
        .first(conn)
        .optional()
}

/// A user by name, case-insensitively.
pub fn user_by_name(conn: &mut DbConnection, name: &str) -> QueryResult<Option<User>> {
    users::table
        .filter(users::username_key.eq(name.trim().to_lowercase()))
        .select(User::as_select())
        .first(conn)
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

    #[test]
    fn hashes_verify_only_the_right_password() {
        let h = hash_password("correct horse battery");
        assert!(h.starts_with("$argon2id$"));
        assert!(password_matches(&h, "correct horse battery"));
        assert!(!password_matches(&h, "wrong horse battery"));
        assert!(!password_matches(DUMMY_HASH, "anything"));
    }
}
