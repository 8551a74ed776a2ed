//! Composing the daily digest at sending time: the games then awaiting the recipient's move,
//! most urgent first (the least time left; games without a clock last), and one line for each
//! held event that still matters, worded as the subject of the mail it stands for.

use chrono::{NaiveDate, NaiveDateTime};
use diesel::prelude::*;

use super::context::{Body, ComposeFailure, Context};
use super::events::event_body;
use super::messages::{DigestEmail, DigestEvent, DigestGame};
use super::words::{local_words, time_left_words, variant_name};
use crate::db::DbConnection;
use crate::models::{OutboxRow, User};
use crate::schema::outbox;
use crate::usecases::games::my_queue;
use crate::usecases::notify::Kind;

/// The digest for `user` from its row's payload (`date`, held `events`), or none when nothing
/// is left to tell.
pub fn digest(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    ctx: &Context,
    user: &User,
    payload: &serde_json::Value,
) -> Result<Option<DigestEmail>, ComposeFailure> {
    let games = games_awaiting(conn, now, ctx, user)?;
    let events = held_events(conn, now, ctx, user, payload)?;
    if games.is_empty() && events.is_empty() {
        return Ok(None);
    }
    let date = payload["date"]
        .as_str()
        .and_then(|d| d.parse::<NaiveDate>().ok())
        .map_or_else(String::new, |d| d.format("%A %-d %B %Y").to_string());
    Ok(Some(DigestEmail {
        name: user.username.clone(),
        date,
        games,
        events,
        footer: ctx.footer(
            user.id,
            Kind::Digest,
            "You get this daily digest because you chose the digest for some Slowfuse mails in your settings.",
        ),
    }))
}

/// The games awaiting `user`'s move, most urgent first.
fn games_awaiting(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    ctx: &Context,
    user: &User,
) -> QueryResult<Vec<DigestGame>> {
    Ok(my_queue(conn, user.id)?
        .into_iter()
        .map(|g| DigestGame {
            game_id: g.id,
            game_url: ctx.url(&format!("/games/{}", g.id)),
            opponent: match g.my_side {
                slowfuse_rules::Color::White => g.black,
                slowfuse_rules::Color::Black => g.white,
            },
            variant: variant_name(&g.variant),
            time_left: g.deadline_at.map(|d| time_left_words(now, d)),
            deadline: g.deadline_at.map(|d| local_words(d, user)),
        })
        .collect())
}

/// A line for each held event of the payload that still matters.
fn held_events(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    ctx: &Context,
    user: &User,
    payload: &serde_json::Value,
) -> Result<Vec<DigestEvent>, ComposeFailure> {
    let ids: Vec<i64> = payload["events"]
        .as_array()
        .map(|a| a.iter().filter_map(serde_json::Value::as_i64).collect())
        .unwrap_or_default();
    let rows: Vec<OutboxRow> = outbox::table
        .filter(outbox::id.eq_any(&ids))
        .filter(outbox::user_id.eq(user.id))
        .order(outbox::id.asc())
        .select(OutboxRow::as_select())
        .load(conn)?;
    let mut events = Vec::new();
    for row in rows {
        let Some(kind) = Kind::parse(&row.kind).filter(|k| k.may_wait_for_digest()) else {
            continue;
        };
        // The same check as for a mail of its own: an offer withdrawn since, a challenge
        // no longer open or a cancelled leave is left out.
        if let Ok(body) = event_body(conn, now, ctx, &row, kind, user)? {
            events.push(event_line(ctx, &row, kind, &body));
        }
    }
    Ok(events)
}

/// One event as a line: the subject its own mail would have had, and where to look.
fn event_line(ctx: &Context, row: &OutboxRow, kind: Kind, body: &Body) -> DigestEvent {
    let path = match (row.game_id, kind) {
        (Some(game_id), _) => format!("/games/{game_id}"),
        (None, Kind::ChallengeReceived) => "/challenges".to_string(),
        (None, _) => "/games".to_string(),
    };
    DigestEvent {
        text: body.subject(),
        url: ctx.url(&path),
    }
}
