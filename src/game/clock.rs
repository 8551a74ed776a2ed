//! Clocks as stored: a game's time control from its columns, deadlines with leave, and each
//! player's leave read as periods for the clock arithmetic.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use slowfuse_rules::{DAY_SECONDS, LeavePeriod, TimeControl};

use crate::db::DbConnection;
use crate::models::Game;
use crate::schema::leaves;

/// The columns that store a time control: kind, days per move, initial, increment, cap.
pub type TimeColumns = (
    &'static str,
    Option<i32>,
    Option<i32>,
    Option<i32>,
    Option<i32>,
);

/// Splits a time control into its stored columns.
pub fn to_columns(tc: TimeControl) -> TimeColumns {
    let secs = |s: i64| i32::try_from(s).ok();
    match tc {
        TimeControl::PerMove { seconds } => ("days", secs(seconds / DAY_SECONDS), None, None, None),
        TimeControl::Fischer {
            initial,
            increment,
            cap,
        } => ("fischer", None, secs(initial), secs(increment), secs(cap)),
        TimeControl::Unlimited => ("none", None, None, None, None),
    }
}

/// Reads a stored time control back.
pub fn from_columns(
    kind: &str,
    days: Option<i32>,
    initial: Option<i32>,
    increment: Option<i32>,
    cap: Option<i32>,
) -> TimeControl {
    match (kind, days, initial, increment, cap) {
        ("days", Some(d), ..) => TimeControl::days_per_move(d.into()),
        ("fischer", _, Some(i), Some(inc), Some(c)) => TimeControl::Fischer {
            initial: i.into(),
            increment: inc.into(),
            cap: c.into(),
        },
        _ => TimeControl::Unlimited,
    }
}

/// A stored game's time control.
pub fn time_control_of(g: &Game) -> TimeControl {
    from_columns(
        &g.time_control,
        g.days_per_move,
        g.initial_seconds,
        g.increment_seconds,
        g.cap_seconds,
    )
}

/// A challenge's time control, from its columns.
pub fn challenge_time_control(c: &crate::models::Challenge) -> TimeControl {
    from_columns(
        &c.time_control,
        c.days_per_move,
        c.initial_seconds,
        c.increment_seconds,
        c.cap_seconds,
    )
}

/// The deadline of the player to move whose turn started at `turn_start` with `bank`
/// seconds: the clock runs once both sides have moved; before that the same allowance
/// is the deadline after which the game is aborted.
/// The clock stands still while the player is on leave (`leaves`).
pub fn deadline(
    tc: TimeControl,
    turn_start: NaiveDateTime,
    bank: Option<i64>,
    leaves: &[LeavePeriod],
) -> Option<NaiveDateTime> {
    if !tc.is_timed() {
        return None;
    }
    let bank = bank.or(tc.initial_bank())?;
    Some(from_epoch(slowfuse_rules::deadline_with_leave(
        epoch(turn_start),
        bank,
        leaves,
    )))
}

/// Seconds since the epoch, as the rules crate counts.
pub fn epoch(t: NaiveDateTime) -> i64 {
    t.and_utc().timestamp()
}

/// From seconds since the epoch back to a timestamp.
pub fn from_epoch(s: i64) -> NaiveDateTime {
    chrono::DateTime::from_timestamp(s, 0).map_or(NaiveDateTime::MIN, |d| d.naive_utc())
}

/// One player's leave as periods for clock arithmetic, in start order.
pub fn leave_periods(conn: &mut DbConnection, user_id: i64) -> QueryResult<Vec<LeavePeriod>> {
    let rows: Vec<(NaiveDateTime, NaiveDateTime)> = leaves::table
        .filter(leaves::user_id.eq(user_id))
        .order(leaves::starts_at.asc())
        .select((leaves::starts_at, leaves::ends_at))
        .load(conn)?;
    Ok(rows
        .into_iter()
        .map(|(start, end)| leave_period(start, end))
        .collect())
}

/// A period of leave, as stored (start, end), for clock arithmetic.
pub fn leave_period(start: NaiveDateTime, end: NaiveDateTime) -> LeavePeriod {
    LeavePeriod {
        start: epoch(start),
        end: epoch(end),
    }
}
