//! Each user's mail settings: each kind at once, in the daily digest or off; the digest's
//! hour and time zone (which the pages' moments follow too); confirming the address (and
//! asking for another confirmation mail); and the one-click unsubscribe.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use serde_json::json;

use crate::db::DbConnection;
use crate::schema::{email_preferences, outbox, users};
use crate::usecases::notify::{Kind, Mode, queue, status};

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
    crate::db::write_transaction(conn, |conn| {
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

/// A user's mail settings: the address, whether it is confirmed, each kind's mode, and when
/// the daily digest goes out.
#[derive(Clone, Debug)]
pub struct MailSettingsView {
    pub email: String,
    pub verified: bool,
    pub kinds: Vec<(Kind, Mode)>,
    /// 0–23, in `time_zone`.
    pub digest_hour: i32,
    /// An IANA name such as `Europe/Berlin`.
    pub time_zone: String,
}

/// Reads a user's mail settings.
pub fn settings_of(conn: &mut DbConnection, user_id: i64) -> QueryResult<MailSettingsView> {
    let (email, verified_at, digest_hour, time_zone): (String, Option<NaiveDateTime>, i32, String) =
        users::table
            .find(user_id)
            .select((
                users::email,
                users::email_verified_at,
                users::digest_hour,
                users::time_zone,
            ))
            .get_result(conn)?;
    let chosen: Vec<(String, String)> = email_preferences::table
        .filter(email_preferences::user_id.eq(user_id))
        .select((email_preferences::kind, email_preferences::mode))
        .load(conn)?;
    let kinds = Kind::OPTIONAL
        .into_iter()
        .map(|k| {
            let stored = chosen.iter().find(|(kind, _)| kind == k.as_str());
            (k, Mode::of_kind(k, stored.map(|(_, mode)| mode.as_str())))
        })
        .collect();
    Ok(MailSettingsView {
        email,
        verified: verified_at.is_some(),
        kinds,
        digest_hour,
        time_zone,
    })
}

/// One kind's line of the settings form: its field name, words, and the modes it may take
/// with the current one marked.
#[derive(Clone, Debug)]
pub struct KindChoice {
    pub name: &'static str,
    pub label: &'static str,
    /// `(value, words, selected)`.
    pub options: Vec<(&'static str, &'static str, bool)>,
}

impl MailSettingsView {
    /// The form's lines, in the order of [`Kind::OPTIONAL`].
    pub fn choices(&self) -> Vec<KindChoice> {
        self.kinds
            .iter()
            .map(|(kind, current)| KindChoice {
                name: kind.as_str(),
                label: kind.label(),
                options: Mode::ALL
                    .into_iter()
                    .filter(|m| *m != Mode::Digest || kind.may_wait_for_digest())
                    .map(|m| (m.as_str(), m.label(), m == *current))
                    .collect(),
            })
            .collect()
    }

    /// Whether any kind waits for the digest.
    pub fn uses_digest(&self) -> bool {
        self.kinds.iter().any(|(_, mode)| *mode == Mode::Digest)
    }
}

/// Every time zone the settings offer (the IANA names).
pub fn time_zone_names() -> impl Iterator<Item = &'static str> {
    chrono_tz::TZ_VARIANTS.iter().map(|tz| tz.name())
}

/// The time zone `user_id` reads times in (their mails, and moments on the pages), UTC for no
/// such user.
pub fn time_zone_of(conn: &mut DbConnection, user_id: i64) -> QueryResult<chrono_tz::Tz> {
    let name: Option<String> = users::table
        .find(user_id)
        .select(users::time_zone)
        .get_result(conn)
        .optional()?;
    Ok(name.map_or(chrono_tz::Tz::UTC, |n| time_zone(&n)))
}

/// A user's time zone: the stored IANA name, or UTC when it is not one (never expected:
/// [`set_kinds`] stores known names only).
pub fn time_zone(name: &str) -> chrono_tz::Tz {
    name.parse().unwrap_or(chrono_tz::Tz::UTC)
}

/// Why a change of mail settings was refused; nothing was changed.
#[derive(Debug, thiserror::Error)]
pub enum SettingsError {
    #[error("“{0}” cannot wait for the daily digest: it is sent at once or not at all")]
    NoDigest(&'static str),
    #[error("the digest hour must be a whole hour from 0 to 23")]
    Hour,
    #[error("unknown time zone “{0}”: use a name such as Europe/Berlin or America/New_York")]
    TimeZone(String),
    #[error(transparent)]
    Db(#[from] diesel::result::Error),
}

/// The digest hour and time zone to store, when either changes.
#[derive(Clone, Debug, Default)]
pub struct DigestTime {
    pub hour: Option<i32>,
    pub time_zone: Option<String>,
}

/// Sets the mode of some kinds and the digest's time, in one transaction; the kinds not named
/// stay as they are. Events held for the digest of a kind that leaves it are sent at once
/// (when set to immediate) or dropped (when set to off).
pub fn set_kinds(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    user_id: i64,
    changes: &[(Kind, Mode)],
    digest_time: &DigestTime,
) -> Result<(), SettingsError> {
    for (kind, mode) in changes {
        if *mode == Mode::Digest && !kind.may_wait_for_digest() {
            return Err(SettingsError::NoDigest(kind.label()));
        }
    }
    if digest_time.hour.is_some_and(|h| !(0..=23).contains(&h)) {
        return Err(SettingsError::Hour);
    }
    if let Some(zone) = &digest_time.time_zone
        && zone.parse::<chrono_tz::Tz>().is_err()
    {
        return Err(SettingsError::TimeZone(zone.chars().take(60).collect()));
    }
    crate::db::write_transaction(conn, |conn| -> QueryResult<()> {
        if let Some(hour) = digest_time.hour {
            diesel::update(users::table.find(user_id))
                .set(users::digest_hour.eq(hour))
                .execute(conn)?;
        }
        if let Some(zone) = &digest_time.time_zone {
            diesel::update(users::table.find(user_id))
                .set(users::time_zone.eq(zone))
                .execute(conn)?;
        }
        for (kind, mode) in changes {
            release_held(conn, user_id, *kind, *mode)?;
            let mode = mode.as_str();
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
    })?;
    Ok(())
}

/// Held events of `kind` when it is set to `mode`: still held for the digest, sent at once,
/// or dropped.
fn release_held(
    conn: &mut DbConnection,
    user_id: i64,
    kind: Kind,
    mode: Mode,
) -> QueryResult<usize> {
    let (state, reason) = match mode {
        Mode::Digest => return Ok(0),
        Mode::Immediate => (status::PENDING, None),
        Mode::Off => (status::CANCELLED, Some("switched off by the user")),
    };
    diesel::update(
        outbox::table
            .filter(outbox::user_id.eq(user_id))
            .filter(outbox::kind.eq(kind.as_str()))
            .filter(outbox::status.eq(status::HELD)),
    )
    .set((outbox::status.eq(state), outbox::last_error.eq(reason)))
    .execute(conn)
}

/// The one-click unsubscribe (the token was checked by the caller): switches one kind off;
/// for the daily digest, every kind that waited for it.
pub fn unsubscribe(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    user_id: i64,
    kind: Kind,
) -> Result<(), SettingsError> {
    let kinds: Vec<(Kind, Mode)> = if kind == Kind::Digest {
        settings_of(conn, user_id)?
            .kinds
            .into_iter()
            .filter(|(_, mode)| *mode == Mode::Digest)
            .map(|(k, _)| (k, Mode::Off))
            .collect()
    } else {
        vec![(kind, Mode::Off)]
    };
    set_kinds(conn, now, user_id, &kinds, &DigestTime::default())
}
