//! Leave: a yearly allowance of days during which a player's clocks stand still in every
//! game, from the first day's midnight (UTC), or from the moment of booking for leave from
//! today, to the end of the last day. Booking or cancelling leave moves the deadlines of the
//! games awaiting their move.

use chrono::{Datelike, Duration, NaiveDate, NaiveDateTime, SubsecRound};
use diesel::prelude::*;
use slowfuse_rules::LeavePeriod;

use crate::db::{DbConnection, lock_game};
use crate::game::clock::{deadline, epoch, from_epoch, leave_periods, time_control_of};
use crate::game::store::set_deadline;
use crate::game::{CorruptGame, GameStatus, Seat, load_game};
use crate::schema::{game_players, games, leaves};

/// One booked leave.
#[derive(Clone, Debug, Queryable, Selectable, PartialEq, Eq)]
#[diesel(table_name = leaves)]
pub struct Leave {
    pub id: i64,
    pub user_id: i64,
    pub starts_at: NaiveDateTime,
    pub ends_at: NaiveDateTime,
    pub created_at: NaiveDateTime,
}

impl Leave {
    /// Days booked (or taken, when ended early): the days it touches, a day begun counting
    /// whole (leave booked in the evening counts that day).
    pub fn days(&self) -> i64 {
        whole_days(self.ends_at - midnight_of(self.starts_at))
    }

    /// Whether the leave is under way at `now`.
    pub fn is_running(&self, now: NaiveDateTime) -> bool {
        self.starts_at <= now && now < self.ends_at
    }
}

/// The start (midnight, UTC) of the day of `t`.
fn midnight_of(t: NaiveDateTime) -> NaiveDateTime {
    t.date().and_time(Default::default())
}

/// Days in `span`, a day begun counting whole.
fn whole_days(span: Duration) -> i64 {
    let seconds = span.num_seconds().max(0);
    (seconds + 86_399) / 86_400
}

/// Why leave could not be booked or cancelled.
#[derive(Debug, thiserror::Error)]
pub enum LeaveError {
    #[error("leave starts today or later")]
    InThePast,
    #[error("book between 1 and {0} days at a time")]
    BadLength(i64),
    #[error("that overlaps leave you have already booked")]
    Overlap,
    #[error(
        "that would take {wanted} day{} of leave in {year}, where {left} of {allowance} are left",
        if *wanted == 1 { "" } else { "s" }
    )]
    OverAllowance {
        year: i32,
        wanted: i64,
        left: i64,
        allowance: i64,
    },
    #[error("no such leave of yours that has not started yet")]
    NotCancellable,
    #[error("no such leave of yours under way now")]
    NotRunning,
    #[error(transparent)]
    Db(#[from] diesel::result::Error),
    #[error(transparent)]
    Corrupt(#[from] CorruptGame),
}

/// A player's leave this year and their bookings from today on.
#[derive(Clone, Debug)]
pub struct LeaveSummary {
    pub year: i32,
    pub allowance: i64,
    pub used: i64,
    pub left: i64,
    pub bookings: Vec<Leave>,
}

fn all_leaves(conn: &mut DbConnection, user_id: i64) -> QueryResult<Vec<Leave>> {
    leaves::table
        .filter(leaves::user_id.eq(user_id))
        .order(leaves::starts_at.asc())
        .select(Leave::as_select())
        .load(conn)
}

/// Days of `[start, end)` falling in `year`, the day of `start` whole.
fn days_in_year(start: NaiveDateTime, end: NaiveDateTime, year: i32) -> i64 {
    let start = midnight_of(start);
    let year_start = NaiveDate::from_ymd_opt(year, 1, 1)
        .unwrap_or_default()
        .and_time(Default::default());
    let year_end = NaiveDate::from_ymd_opt(year + 1, 1, 1)
        .unwrap_or_default()
        .and_time(Default::default());
    whole_days(end.min(year_end) - start.max(year_start))
}

/// Books `days` days of leave from the start of `start` (UTC) to the end of its last day. Leave
/// from today starts now, when it is booked: the clocks stand still from then on, not for the
/// hours of today already gone.
pub fn book_leave(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    allowance: i64,
    user_id: i64,
    start: NaiveDate,
    days: i64,
) -> Result<Leave, LeaveError> {
    if start < now.date() {
        return Err(LeaveError::InThePast);
    }
    if !(1..=allowance).contains(&days) {
        return Err(LeaveError::BadLength(allowance));
    }
    let first_day = start.and_time(Default::default());
    let starts_at = first_day.max(now.trunc_subsecs(0));
    let ends_at = first_day + Duration::days(days);
    crate::db::write_transaction(conn, |conn| {
        let existing = all_leaves(conn, user_id)?;
        if existing
            .iter()
            .any(|l| l.starts_at < ends_at && starts_at < l.ends_at)
        {
            return Err(LeaveError::Overlap);
        }
        for year in starts_at.year()..=(ends_at - Duration::seconds(1)).year() {
            let used: i64 = existing
                .iter()
                .map(|l| days_in_year(l.starts_at, l.ends_at, year))
                .sum();
            let wanted = days_in_year(starts_at, ends_at, year);
            if used + wanted > allowance {
                return Err(LeaveError::OverAllowance {
                    year,
                    wanted,
                    left: (allowance - used).max(0),
                    allowance,
                });
            }
        }
        diesel::insert_into(leaves::table)
            .values((
                leaves::user_id.eq(user_id),
                leaves::starts_at.eq(starts_at),
                leaves::ends_at.eq(ends_at),
                leaves::created_at.eq(now),
            ))
            .execute(conn)?;
        refresh_deadlines(conn, now, user_id)?;
        touch_games_ended_since(conn, user_id, starts_at)?;
        let booked = all_leaves(conn, user_id)?
            .into_iter()
            .find(|l| l.starts_at == starts_at)
            .ok_or(LeaveError::Db(diesel::result::Error::NotFound))?;
        crate::usecases::notify::opponent_on_leave(conn, now, user_id, booked.id)?;
        Ok(booked)
    })
}

/// Cancels leave that has not started yet.
pub fn cancel_leave(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    user_id: i64,
    leave_id: i64,
) -> Result<(), LeaveError> {
    crate::db::write_transaction(conn, |conn| {
        let deleted = diesel::delete(
            leaves::table
                .filter(leaves::id.eq(leave_id))
                .filter(leaves::user_id.eq(user_id))
                .filter(leaves::starts_at.gt(now)),
        )
        .execute(conn)?;
        if deleted == 0 {
            return Err(LeaveError::NotCancellable);
        }
        refresh_deadlines(conn, now, user_id)?;
        Ok(())
    })
}

/// Ends leave that is under way now: the player's clocks run again at once, and the days not
/// begun are theirs again (the day under way counts as taken).
pub fn end_leave_now(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    user_id: i64,
    leave_id: i64,
) -> Result<Leave, LeaveError> {
    crate::db::write_transaction(conn, |conn| {
        let ended = diesel::update(
            leaves::table
                .filter(leaves::id.eq(leave_id))
                .filter(leaves::user_id.eq(user_id))
                .filter(leaves::starts_at.le(now))
                .filter(leaves::ends_at.gt(now)),
        )
        .set(leaves::ends_at.eq(now))
        .execute(conn)?;
        if ended == 0 {
            return Err(LeaveError::NotRunning);
        }
        refresh_deadlines(conn, now, user_id)?;
        let leave: Leave = leaves::table
            .find(leave_id)
            .select(Leave::as_select())
            .get_result(conn)?;
        touch_games_ended_since(conn, user_id, leave.starts_at)?;
        Ok(leave)
    })
}

/// Recomputes the deadline of every running game awaiting `user_id`'s move.
fn refresh_deadlines(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    user_id: i64,
) -> Result<(), LeaveError> {
    let periods = leave_periods(conn, user_id)?;
    let mine: Vec<(i64, i32, String)> = game_players::table
        .inner_join(games::table)
        .filter(game_players::user_id.eq(user_id))
        .filter(games::status.eq(GameStatus::Started.as_str()))
        .select((games::id, game_players::board, game_players::color))
        .load(conn)?;
    for (game_id, board, color) in mine {
        if !lock_game(conn, game_id)? {
            continue;
        }
        let Some(record) = load_game(conn, game_id)? else {
            continue;
        };
        let Some(state) = record.board(board) else {
            continue;
        };
        let seat = Seat {
            board,
            color: state.turn,
        };
        if seat.color_name() != color {
            continue;
        }
        let tc = time_control_of(&record.game);
        let bank = record.player(seat).and_then(|p| p.time_left_seconds);
        let turn_start = state.last_move_at.unwrap_or(record.game.created_at);
        let moved = deadline(tc, turn_start, bank, &periods);
        set_deadline(conn, now, game_id, board, moved)?;
    }
    Ok(())
}

/// Counts a change in each game of `user_id` that ended after `since`: the leave its page shows
/// (`game::leave_taken`) changed with this booking, so the record kept of it is stale. (The
/// running ones were locked by [`refresh_deadlines`]; leave not begun touches no ended game.)
fn touch_games_ended_since(
    conn: &mut DbConnection,
    user_id: i64,
    since: NaiveDateTime,
) -> QueryResult<()> {
    let ended: Vec<i64> = game_players::table
        .inner_join(games::table)
        .filter(game_players::user_id.eq(user_id))
        .filter(games::finished_at.gt(since))
        .select(games::id)
        .load(conn)?;
    for game_id in ended {
        lock_game(conn, game_id)?;
    }
    Ok(())
}

/// This year's leave and the bookings still to come or under way.
pub fn leave_summary(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    allowance: i64,
    user_id: i64,
) -> QueryResult<LeaveSummary> {
    let all = all_leaves(conn, user_id)?;
    let year = now.year();
    let used: i64 = all
        .iter()
        .map(|l| days_in_year(l.starts_at, l.ends_at, year))
        .sum();
    Ok(LeaveSummary {
        year,
        allowance,
        used,
        left: (allowance - used).max(0),
        bookings: all.into_iter().filter(|l| l.ends_at > now).collect(),
    })
}

/// When the player's current leave ends, if they are on leave now.
pub fn on_leave_until(periods: &[LeavePeriod], now: NaiveDateTime) -> Option<NaiveDateTime> {
    let t = epoch(now);
    periods
        .iter()
        .find(|p| p.start <= t && t < p.end)
        .map(|p| from_epoch(p.end))
}
