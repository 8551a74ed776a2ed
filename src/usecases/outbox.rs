//! The outbox as the mail worker sees it: due rows, an atomic claim with a lease, and the
//! outcome of each try. Each function is one statement, so nothing waits on SMTP in a
//! transaction.

use chrono::{Duration, NaiveDateTime};
use diesel::prelude::*;

use crate::db::DbConnection;
use crate::models::OutboxRow;
use crate::schema::outbox;
use crate::usecases::notify::{Kind, status};

/// How long a claimed row belongs to the worker that claimed it. A worker that dies while
/// sending leaves the row; after the lease another worker takes it up.
pub const LEASE_SECONDS: i64 = 300;

/// The wait before try `attempts + 1`: 1, 2, 4 … minutes, at most an hour.
pub fn backoff(attempts: i32) -> Duration {
    let exponent = (attempts.max(1) - 1).min(6) as u32;
    Duration::minutes((1i64 << exponent).min(60))
}

/// Mails queued and not yet sent: waiting (however long: coalescing, back-off) or being sent.
/// Held rows wait for a digest and are not counted. One indexed count, for `/metrics`.
pub fn depth(conn: &mut DbConnection) -> QueryResult<i64> {
    outbox::table
        .filter(outbox::status.eq_any([status::PENDING, status::SENDING]))
        .count()
        .get_result(conn)
}

/// Rows due now, the longest due first (a new row is due when written, so new rows go in the
/// order they were written): waiting ones whose time has come, and claimed ones whose lease
/// ran out. A "your move" mail is due only `coalesce_seconds` after it was written, so that a
/// later move in the same game can replace it. Ordered by when they fell due, the rows are
/// found through `outbox_due (status, next_attempt_at)`: ordered by id alone, PostgreSQL
/// walked the primary key from the oldest of millions of sent rows to find the few waiting
/// ones (docs/benchmarks.md, "Data at scale").
pub fn due_ids(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    coalesce_seconds: i64,
    limit: i64,
) -> QueryResult<Vec<i64>> {
    let held_since = now - Duration::seconds(coalesce_seconds.max(0));
    outbox::table
        .filter(outbox::status.eq_any([status::PENDING, status::SENDING]))
        .filter(outbox::next_attempt_at.le(now))
        .filter(
            outbox::kind
                .ne(Kind::YourTurn.as_str())
                .or(outbox::created_at.le(held_since)),
        )
        .order((outbox::next_attempt_at.asc(), outbox::id.asc()))
        .select(outbox::id)
        .limit(limit)
        .load(conn)
}

/// Claims one row for this worker: a single conditional UPDATE, so of two workers racing for
/// it exactly one sees a changed row (PostgreSQL re-checks the condition after the other's
/// commit; SQLite writes one at a time). Returns the row when it is ours.
pub fn claim(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    id: i64,
) -> QueryResult<Option<OutboxRow>> {
    let changed = diesel::update(
        outbox::table
            .filter(outbox::id.eq(id))
            .filter(outbox::status.eq_any([status::PENDING, status::SENDING]))
            .filter(outbox::next_attempt_at.le(now)),
    )
    .set((
        outbox::status.eq(status::SENDING),
        outbox::attempts.eq(outbox::attempts + 1),
        outbox::next_attempt_at.eq(now + Duration::seconds(LEASE_SECONDS)),
    ))
    .execute(conn)?;
    if changed == 0 {
        return Ok(None);
    }
    outbox::table
        .find(id)
        .select(OutboxRow::as_select())
        .get_result(conn)
        .optional()
}

/// The mail was handed over.
pub fn mark_sent(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    id: i64,
    message_id: &str,
) -> QueryResult<()> {
    diesel::update(
        outbox::table
            .filter(outbox::id.eq(id))
            .filter(outbox::status.eq(status::SENDING)),
    )
    .set((
        outbox::status.eq(status::SENT),
        outbox::sent_at.eq(Some(now)),
        outbox::message_id.eq(Some(message_id)),
        outbox::last_error.eq(None::<String>),
    ))
    .execute(conn)?;
    Ok(())
}

/// The mail is not to be sent after all (`reason` says why).
pub fn mark_cancelled(conn: &mut DbConnection, id: i64, reason: &str) -> QueryResult<()> {
    diesel::update(outbox::table.filter(outbox::id.eq(id)))
        .set((
            outbox::status.eq(status::CANCELLED),
            outbox::last_error.eq(Some(reason)),
        ))
        .execute(conn)?;
    Ok(())
}

/// The mail will never go: a permanent refusal or too many tries.
pub fn mark_failed(conn: &mut DbConnection, id: i64, error: &str) -> QueryResult<()> {
    diesel::update(outbox::table.filter(outbox::id.eq(id)))
        .set((
            outbox::status.eq(status::FAILED),
            outbox::last_error.eq(Some(error)),
        ))
        .execute(conn)?;
    Ok(())
}

/// Deletes the rows finished (sent, cancelled, failed, gathered into a digest) more than
/// `keep_days` ago; 0 keeps them all. Waiting and held rows are never deleted. Returns how many
/// went.
pub fn delete_finished(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    keep_days: i64,
) -> QueryResult<usize> {
    if keep_days <= 0 {
        return Ok(0);
    }
    diesel::delete(
        outbox::table
            .filter(outbox::status.eq_any([
                status::SENT,
                status::CANCELLED,
                status::FAILED,
                status::DIGESTED,
            ]))
            .filter(outbox::created_at.lt(now - Duration::days(keep_days))),
    )
    .execute(conn)
}

/// A try failed for a reason that may pass: wait by the back-off and try again, or give up
/// after `max_attempts` tries. Returns true when it gave up.
pub fn mark_retry(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    row: &OutboxRow,
    error: &str,
    max_attempts: i32,
) -> QueryResult<bool> {
    if row.attempts >= max_attempts.max(1) {
        mark_failed(
            conn,
            row.id,
            &format!("gave up after {} tries: {error}", row.attempts),
        )?;
        return Ok(true);
    }
    diesel::update(
        outbox::table
            .filter(outbox::id.eq(row.id))
            .filter(outbox::status.eq(status::SENDING)),
    )
    .set((
        outbox::status.eq(status::PENDING),
        outbox::next_attempt_at.eq(now + backoff(row.attempts)),
        outbox::last_error.eq(Some(error)),
    ))
    .execute(conn)?;
    Ok(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn back_off_doubles_up_to_an_hour() {
        let minutes: Vec<i64> = (1..=9).map(|a| backoff(a).num_minutes()).collect();
        assert_eq!(minutes, vec![1, 2, 4, 8, 16, 32, 60, 60, 60]);
    }
}
