//! Each user's mail settings: which kinds are on, confirming the address (and asking for
//! another confirmation mail), and the one-click unsubscribe.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use serde_json::json;

use crate::db::DbConnection;
use crate::schema::{email_preferences, users};
use crate::usecases::notify::{Kind, queue};

/// Why a new confirmation mail was not queued.
#[derive(Debug, thiserror::Error)]
pub enum ResendError {
    #[error("your address is already confirmed")]
    AlreadyVerified,
    #[error("a confirmation mail was sent a moment ago: wait ten minutes before asking again")]
    TooSoon,
    #[error("no such user")]
    NoUser,
    #[error(transparent)]
    Db(#[from] diesel::result::Error),
}

/// Queues another confirmation mail, at most one per ten minutes (the key is the window).
pub fn resend_verification(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    user_id: i64,
) -> Result<(), ResendError> {
    conn.transaction(|conn| {
        let user =
            crate::usecases::accounts::user_by_id(conn, user_id)?.ok_or(ResendError::NoUser)?;
        if user.email_verified_at.is_some() {
            return Err(ResendError::AlreadyVerified);
        }
        let window = now.and_utc().timestamp() / 600;
        let key = format!("verify_email:{user_id}:{window}");
        let payload = json!({ "email": user.email });
        if !queue(conn, now, Kind::VerifyEmail, user_id, None, &key, payload)? {
            return Err(ResendError::TooSoon);
        }
        Ok(())
    })
}

/// Marks a user's address as confirmed (the link's token was checked by the caller).
/// Returns false when it already was.
pub fn confirm_address(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    user_id: i64,
) -> QueryResult<bool> {
    let changed = diesel::update(
        users::table
            .filter(users::id.eq(user_id))
            .filter(users::email_verified_at.is_null()),
    )
    .set(users::email_verified_at.eq(Some(now)))
    .execute(conn)?;
    Ok(changed == 1)
}

/// A user's mail settings: the address, whether it is confirmed, each kind on or off.
#[derive(Clone, Debug)]
pub struct MailSettingsView {
    pub email: String,
    pub verified: bool,
    pub kinds: Vec<(Kind, bool)>,
}

/// Reads a user's mail settings.
pub fn settings_of(conn: &mut DbConnection, user_id: i64) -> QueryResult<MailSettingsView> {
    let (email, verified_at): (String, Option<NaiveDateTime>) = users::table
        .find(user_id)
        .select((users::email, users::email_verified_at))
        .first(conn)?;
    let off: Vec<String> = email_preferences::table
        .filter(email_preferences::user_id.eq(user_id))
        .filter(email_preferences::mode.eq("off"))
        .select(email_preferences::kind)
        .load(conn)?;
    let kinds = Kind::OPTIONAL
        .into_iter()
        .map(|k| (k, !off.iter().any(|o| o == k.as_str())))
        .collect();
    Ok(MailSettingsView {
        email,
        verified: verified_at.is_some(),
        kinds,
    })
}

/// Switches kinds of mail on or off for a user, in one transaction.
pub fn set_kinds(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    user_id: i64,
    changes: &[(Kind, bool)],
) -> QueryResult<()> {
    conn.transaction(|conn| {
        for (kind, on) in changes {
            let mode = if *on { "immediate" } else { "off" };
            let row = (
                email_preferences::user_id.eq(user_id),
                email_preferences::kind.eq(kind.as_str()),
                email_preferences::mode.eq(mode),
                email_preferences::updated_at.eq(now),
            );
            crate::on_backend!(conn, |c| diesel::insert_into(email_preferences::table)
                .values(row)
                .on_conflict((email_preferences::user_id, email_preferences::kind))
                .do_update()
                .set((
                    email_preferences::mode.eq(mode),
                    email_preferences::updated_at.eq(now),
                ))
                .execute(c))?;
        }
        Ok(())
    })
}

/// The one-click unsubscribe: switches one kind off (the token was checked by the caller).
pub fn unsubscribe(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    user_id: i64,
    kind: Kind,
) -> QueryResult<()> {
    set_kinds(conn, now, user_id, &[(kind, false)])
}
