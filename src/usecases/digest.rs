//! The daily digest, as data: which users are due one (their digest hour has come in their
//! own time zone and today's is not written yet), and the digest row that gathers the events
//! held for them. The mail itself is composed at sending time (`mail::digest`), from the games
//! then awaiting the user's move and the held events that still matter.

use std::collections::HashSet;

use chrono::{NaiveDate, NaiveDateTime, Timelike};
use chrono_tz::Tz;
use diesel::prelude::*;
use serde_json::json;

use crate::db::DbConnection;
use crate::schema::{email_preferences, outbox, users};
use crate::usecases::email_settings::time_zone;
use crate::usecases::games::{awaiting_move, awaits_move};
use crate::usecases::notify::{Kind, Mode, queue, status};

/// The local date whose digest is due at `now` for a user in `tz` with this digest hour, or
/// none before that hour. A worker that was down at the hour sends the digest later the
/// same local day; one that is down all day skips that day (the next digest lists what waits).
pub fn due_date(now: NaiveDateTime, tz: Tz, digest_hour: i32) -> Option<NaiveDate> {
    let local = now.and_utc().with_timezone(&tz);
    (i64::from(local.hour()) >= i64::from(digest_hour)).then(|| local.date_naive())
}

/// The dedup key of a user's digest for one local date: one digest a day, whatever the number
/// of workers.
fn digest_key(user_id: i64, date: NaiveDate) -> String {
    format!("daily_digest:{user_id}:{date}")
}

/// The worker's scan: every user with a confirmed address and a kind set to the digest whose
/// hour has come gets today's digest row, when there is something to tell (a game awaiting
/// their move, or a held event). The held rows it lists are marked `digested` in the same
/// transaction. Returns the digests queued.
pub fn queue_due_digests(conn: &mut DbConnection, now: NaiveDateTime) -> QueryResult<usize> {
    let due = crate::db::read_planned_for_values(conn, |conn| digests_to_write(conn, now))?;
    let mut queued = 0;
    for (user_id, date, key) in due {
        if crate::db::write_transaction(conn, |conn| queue_digest(conn, now, user_id, date, &key))?
        {
            queued += 1;
        }
    }
    Ok(queued)
}

/// The digests the scan is to write, each with its reader and local date: of the users whose
/// digest hour has come, those whose digest of the day is not written yet and who have
/// something to tell. A few queries for all of them, not a few for each: which digests are
/// written already, then, of the rest only, who has anything to tell (a held event, a game
/// awaiting their move). Once the day's digests are out, a pass asks the first question alone.
fn digests_to_write(
    conn: &mut DbConnection,
    now: NaiveDateTime,
) -> QueryResult<Vec<(i64, NaiveDate, String)>> {
    let candidates: Vec<(i64, String, i32)> = users::table
        .inner_join(email_preferences::table)
        .filter(email_preferences::mode.eq(Mode::Digest.as_str()))
        .filter(users::email_verified_at.is_not_null())
        .select((users::id, users::time_zone, users::digest_hour))
        .distinct()
        .load(conn)?;
    let due: Vec<(i64, NaiveDate, String)> = candidates
        .into_iter()
        .filter_map(|(user_id, zone, hour)| {
            let date = due_date(now, time_zone(&zone), hour)?;
            Some((user_id, date, digest_key(user_id, date)))
        })
        .collect();
    let mut written = HashSet::new();
    for chunk in due.chunks(500) {
        let keys: Vec<&str> = chunk.iter().map(|(_, _, key)| key.as_str()).collect();
        written.extend(
            outbox::table
                .filter(outbox::dedup_key.eq_any(&keys))
                .select(outbox::dedup_key)
                .load::<String>(conn)?,
        );
    }
    let due: Vec<_> = due
        .into_iter()
        .filter(|(_, _, key)| !written.contains(key))
        .collect();
    let mut telling = HashSet::new();
    for chunk in due.chunks(500) {
        let ids: Vec<i64> = chunk.iter().map(|(id, ..)| *id).collect();
        telling.extend(
            outbox::table
                .filter(outbox::user_id.eq_any(&ids))
                .filter(outbox::status.eq(status::HELD))
                .filter(outbox::created_at.le(now))
                .select(outbox::user_id)
                .distinct()
                .load::<i64>(conn)?,
        );
        telling.extend(awaiting_move(conn, &ids)?);
    }
    Ok(due
        .into_iter()
        .filter(|(user_id, ..)| telling.contains(user_id))
        .collect())
}

/// Writes one digest row listing the user's held events, unless there is nothing to tell or
/// another worker wrote it first. Returns whether it was written.
fn queue_digest(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    user_id: i64,
    date: NaiveDate,
    key: &str,
) -> QueryResult<bool> {
    let held: Vec<i64> = outbox::table
        .filter(outbox::user_id.eq(user_id))
        .filter(outbox::status.eq(status::HELD))
        .filter(outbox::created_at.le(now))
        .order(outbox::id.asc())
        .select(outbox::id)
        .load(conn)?;
    if held.is_empty() && !awaits_move(conn, user_id)? {
        return Ok(false);
    }
    let payload = json!({ "date": date.to_string(), "events": held });
    if !queue(conn, now, Kind::Digest, user_id, None, key, payload)? {
        return Ok(false);
    }
    diesel::update(
        outbox::table
            .filter(outbox::id.eq_any(&held))
            .filter(outbox::status.eq(status::HELD)),
    )
    .set(outbox::status.eq(status::DIGESTED))
    .execute(conn)?;
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utc(text: &str) -> NaiveDateTime {
        NaiveDateTime::parse_from_str(text, "%Y-%m-%d %H:%M").unwrap()
    }

    #[test]
    fn the_digest_is_due_from_the_hour_in_the_users_zone() {
        let berlin = time_zone("Europe/Berlin");
        // 05:30 UTC is 06:30 in Berlin in winter: not yet 07:00 there.
        assert_eq!(due_date(utc("2026-12-01 05:30"), berlin, 7), None);
        assert_eq!(
            due_date(utc("2026-12-01 06:00"), berlin, 7),
            NaiveDate::from_ymd_opt(2026, 12, 1)
        );
        // In summer Berlin is two hours ahead.
        assert!(due_date(utc("2026-07-01 05:00"), berlin, 7).is_some());
        // Late in the UTC evening it is already the next day in Tokyo.
        assert_eq!(
            due_date(utc("2026-12-01 23:30"), time_zone("Asia/Tokyo"), 7),
            NaiveDate::from_ymd_opt(2026, 12, 2)
        );
        // West of UTC, the same moment is still the day before.
        assert_eq!(
            due_date(utc("2026-12-02 03:00"), time_zone("America/Chicago"), 20),
            NaiveDate::from_ymd_opt(2026, 12, 1)
        );
        assert_eq!(time_zone("Not/AZone"), Tz::UTC);
    }
}
