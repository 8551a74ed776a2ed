//! Accounts: sign up, check a login (throttled), find a user by name, personal API tokens.
//! The password hashes themselves are made and checked by the caller between the steps
//! (`crate::passwords`), so no database connection is held while one is computed.
//!
//! A username follows `crate::usernames`: stored in NFC, unique by its lookup key (lower case)
//! and by its confusable skeleton, so that no two names that look alike are taken. A name is
//! found by its key, else by its skeleton ([`user_by_name`]), so any case or look-alike of a
//! name reaches its account. The skeletons of the accounts made before they existed are
//! computed at the server's start ([`fill_username_skeletons`]).

use chrono::{Duration, NaiveDateTime};
use diesel::prelude::*;
use sha2::{Digest, Sha256};

use crate::config::AuthSettings;
use crate::db::DbConnection;
use crate::models::{NewApiToken, NewLoginAttempt, NewUser, User};
use crate::passwords::{DUMMY_HASH, HashError};
use crate::schema::{api_tokens, login_attempts, users};
use crate::usernames::{self, Refusal};

/// Why a sign-up was refused.
#[derive(Debug, thiserror::Error)]
pub enum SignUpError {
    #[error(transparent)]
    InvalidUsername(#[from] Refusal),
    #[error("the username \"{0}\" is already taken")]
    UsernameTaken(String),
    /// Another name with the same skeleton (another case, a look-alike letter) is taken.
    #[error(
        "the username \"{name}\" is already taken: it reads the same as \"{taken}\" (names \
         are compared ignoring case, accents written apart and letters that look alike)"
    )]
    UsernameLookalike { name: String, taken: String },
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

/// A username as typed: 3 to 20 letters and digits of any script in current use, `_` or `-`,
/// starting with a letter or digit, once in NFC (`crate::usernames`).
pub fn check_username(typed: &str) -> Result<(), SignUpError> {
    usernames::check(&usernames::normalise(typed))?;
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
    let username = usernames::normalise(username);
    let email = email.trim();
    usernames::check(&username)?;
    if email.len() > 254 || !email_address::EmailAddress::is_valid(email) {
        return Err(SignUpError::InvalidEmail(email.chars().take(80).collect()));
    }
    check_password(password, &username)?;
    Ok(CheckedSignUp {
        username,
        email: email.to_string(),
    })
}

/// Registers a checked player with the hash of their password (`passwords::hash_password`);
/// the username is unique regardless of case and of look-alike letters (its skeleton).
pub fn sign_up(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    checked: &CheckedSignUp,
    password_hash: &str,
) -> Result<User, SignUpError> {
    let username = checked.username.as_str();
    let key = usernames::lookup_key(username);
    let skeleton = usernames::skeleton_key(username);
    crate::db::write_transaction(conn, |conn| {
        // The name taken in another case, or one that reads the same, is named in the
        // refusal. The unique indexes still decide a race between two sign-ups.
        let same_key = users::table
            .filter(users::username_key.eq(&key))
            .count()
            .get_result::<i64>(conn)?;
        if same_key > 0 {
            return Err(SignUpError::UsernameTaken(username.to_string()));
        }
        let look_alike: Option<String> = users::table
            .filter(users::username_skeleton.eq(&skeleton))
            .select(users::username)
            .get_result(conn)
            .optional()?;
        if let Some(taken) = look_alike {
            return Err(SignUpError::UsernameLookalike {
                name: username.to_string(),
                taken,
            });
        }
        let new = NewUser {
            username,
            username_key: &key,
            username_skeleton: &skeleton,
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
    // Every spelling of a name that reaches one account counts against it.
    let typed: String = username.trim().chars().take(40).collect();
    let name_key = format!("user:{}", usernames::skeleton_key(&typed));
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
    let user = user_by_name(conn, username)?;
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

/// A user by name: the account whose lookup key the name's is (any case, any normal form),
/// else the one whose skeleton it has (a look-alike spelling of it).
pub fn user_by_name(conn: &mut DbConnection, name: &str) -> QueryResult<Option<User>> {
    if name.chars().count() > usernames::MAX_LOOKUP_CHARS {
        return Ok(None);
    }
    let by_key = users::table
        .filter(users::username_key.eq(usernames::lookup_key(name)))
        .select(User::as_select())
        .get_result(conn)
        .optional()?;
    if by_key.is_some() {
        return Ok(by_key);
    }
    users::table
        .filter(users::username_skeleton.eq(usernames::skeleton_key(name)))
        .select(User::as_select())
        .get_result(conn)
        .optional()
}

/// What [`fill_username_skeletons`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SkeletonsFilled {
    /// Accounts whose skeleton was written.
    pub filled: usize,
    /// Accounts made before skeletons whose skeleton an older account holds: they keep none,
    /// and are found by their own name.
    pub look_alikes: usize,
}

/// Computes the skeleton of each account that has none (those made before skeletons; SQL
/// cannot compute it), oldest first, each in its own transaction. An account whose skeleton
/// is already held keeps none: both accounts go on working, and a new name like either is
/// refused all the same, since it meets the holder's skeleton. Run at every start; another
/// instance doing the same at once is harmless.
pub fn fill_username_skeletons(conn: &mut DbConnection) -> QueryResult<SkeletonsFilled> {
    let missing: Vec<(i64, String)> = users::table
        .filter(users::username_skeleton.is_null())
        .select((users::id, users::username))
        .order(users::id.asc())
        .load(conn)?;
    let mut done = SkeletonsFilled::default();
    for (id, name) in missing {
        let skeleton = usernames::skeleton_key(&name);
        let written = crate::db::write_transaction(conn, |conn| {
            let held: i64 = users::table
                .filter(users::username_skeleton.eq(&skeleton))
                .count()
                .get_result(conn)?;
            if held > 0 {
                return Ok(None);
            }
            diesel::update(
                users::table
                    .find(id)
                    .filter(users::username_skeleton.is_null()),
            )
            .set(users::username_skeleton.eq(&skeleton))
            .execute(conn)
            .map(Some)
        });
        match written {
            Ok(Some(1)) => done.filled += 1,
            // Another instance filled it meanwhile.
            Ok(Some(_)) => {}
            Ok(None) => done.look_alikes += 1,
            // Another instance gave the skeleton to another account at the same moment.
            Err(diesel::result::Error::DatabaseError(
                diesel::result::DatabaseErrorKind::UniqueViolation,
                _,
            )) => done.look_alikes += 1,
            Err(e) => return Err(e),
        }
    }
    Ok(done)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usernames_are_checked() {
        assert!(check_username("alice").is_ok());
        assert!(check_username("Zoë").is_ok());
        assert!(check_username("李雷雷").is_ok());
        assert!(check_username("al").is_err());
        assert!(check_username("_alice").is_err());
        assert!(check_username("a<script>").is_err());
        assert!(check_username("pаypal").is_err());
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
