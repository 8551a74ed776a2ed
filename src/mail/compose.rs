//! Composing one outbox row into a mail, from the state of its game and its user at sending
//! time: a mail whose reason has passed (a later move, a withdrawn offer) is skipped instead.

use chrono::NaiveDateTime;
use lettre::Message;
use lettre::message::Mailbox;

use super::context::{Body, ComposeFailure, Context, boxed};
use super::digest::digest;
use super::events::event_body;
use super::messages::{Envelope, build_message, game_thread, message_id};
use crate::db::DbConnection;
use crate::models::{OutboxRow, User};
use crate::usecases::accounts::user_by_id;
use crate::usecases::notify::{self, Kind, Mode};

/// A row turned into a mail (with its Message-ID), or the reason it is not to be sent.
pub enum Composed {
    Mail(Box<Message>, String),
    Skip(String),
}

/// Reads what the mail needs now (not when the event happened: a mail that became stale is
/// skipped) and builds it.
pub fn compose(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    ctx: &Context,
    row: &OutboxRow,
) -> Result<Composed, ComposeFailure> {
    let skip = |reason: &str| Ok(Composed::Skip(reason.to_string()));
    let Some(kind) = Kind::parse(&row.kind) else {
        return skip("unknown kind of mail");
    };
    let Some(user) = user_by_id(conn, row.user_id)? else {
        return skip("the user is gone");
    };
    if let Some(reason) = refusal(conn, &user, kind)? {
        return skip(reason);
    }
    let Ok(address) = user.email.parse() else {
        return skip("the address is not valid");
    };
    let body = match body_of(conn, now, ctx, row, kind, &user)? {
        Ok(body) => body,
        Err(reason) => return skip(reason),
    };
    let envelope = Envelope {
        to: Mailbox::new(Some(user.username.clone()), address),
        message_id: message_id(row.id, &ctx.host),
        thread: row.game_id.map(|g| game_thread(g, &ctx.host)),
        unsubscribe_url: (kind != Kind::VerifyEmail).then(|| ctx.unsubscribe_url(user.id, kind)),
        date: now,
    };
    let message = build_message(&ctx.from, &envelope, body.as_ref())?;
    Ok(Composed::Mail(Box::new(message), envelope.message_id))
}

/// Why this user gets no mail of this kind now, if so: only the confirmation mail goes to an
/// unconfirmed address, and never to a confirmed one; other kinds may be switched off.
fn refusal(
    conn: &mut DbConnection,
    user: &User,
    kind: Kind,
) -> Result<Option<&'static str>, ComposeFailure> {
    let verified = user.email_verified_at.is_some();
    Ok(match kind {
        Kind::VerifyEmail if verified => Some("the address is already confirmed"),
        Kind::VerifyEmail => None,
        _ if !verified => Some("the address is not confirmed"),
        Kind::Digest => (!crate::usecases::email_settings::settings_of(conn, user.id)?
            .uses_digest())
        .then_some("no kind waits for the digest any more"),
        _ => match notify::mode_of(conn, user.id, kind)? {
            Mode::Immediate => None,
            Mode::Digest => Some("moved to the daily digest by the user"),
            Mode::Off => Some("switched off by the user"),
        },
    })
}

/// The mail's subject and parts: the daily digest, or the mail for one event.
fn body_of(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    ctx: &Context,
    row: &OutboxRow,
    kind: Kind,
    user: &User,
) -> Result<Result<Body, &'static str>, ComposeFailure> {
    if kind == Kind::Digest {
        let payload: serde_json::Value = serde_json::from_str(&row.payload).unwrap_or_default();
        return Ok(boxed(
            digest(conn, now, ctx, user, &payload)?,
            "nothing to report",
        ));
    }
    event_body(conn, now, ctx, row, kind, user)
}
