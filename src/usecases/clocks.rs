//! Clocks in storage: reading a game's time control, setting deadlines, and ending overdue
//! games exactly once (the background worker's job).

use chrono::NaiveDateTime;
use diesel::prelude::*;
use slowfuse_rules::{DAY_SECONDS, FISCHER_PRESETS, GameOver, TimeControl};

use crate::db::{DbConnection, lock_game};
use crate::game::clock::time_control_of;
use crate::game::store::write_abort;
use crate::game::{
    CorruptGame, Ending, EndingRefused, GameRecord, GameStatus, Seat, load_game, rules_game,
};
use crate::schema::games;
use crate::usecases::finish::end_game;

/// Days per move a challenge may ask for.
pub const DAYS_PER_MOVE: &[i32] = &[1, 2, 3, 5, 7, 10, 14];

/// A time control as a player asks for it, before checking.
#[derive(Clone, Debug, Default)]
pub struct TimeControlRequest {
    /// `days` (the default), `fischer` or `none`.
    pub kind: Option<String>,
    pub days_per_move: Option<i32>,
    /// A Fischer preset label such as `30+1≤45`; or the three custom values below.
    pub preset: Option<String>,
    pub initial_days: Option<i32>,
    pub increment_hours: Option<i32>,
    pub cap_days: Option<i32>,
}

/// Why a time control was refused.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum TimeControlError {
    #[error("time control must be days, fischer or none")]
    UnknownKind,
    #[error("days per move must be one of 1, 2, 3, 5, 7, 10, 14")]
    BadDays,
    #[error(
        "a Fischer clock needs a preset (30+1≤45, 30+3≤60, 10+1≤30, 5+½≤15) or initial days 1–60, increment 0–168 hours and a cap from the initial days up to 90"
    )]
    BadFischer,
}

impl TimeControlRequest {
    /// Checks the request and returns the control.
    pub fn check(&self) -> Result<TimeControl, TimeControlError> {
        match self.kind.as_deref().map(str::trim).unwrap_or("days") {
            "" | "days" => {
                let days = self.days_per_move.ok_or(TimeControlError::BadDays)?;
                if !DAYS_PER_MOVE.contains(&days) {
                    return Err(TimeControlError::BadDays);
                }
                Ok(TimeControl::days_per_move(days.into()))
            }
            "fischer" => self.fischer(),
            "none" => Ok(TimeControl::Unlimited),
            _ => Err(TimeControlError::UnknownKind),
        }
    }

    fn fischer(&self) -> Result<TimeControl, TimeControlError> {
        if let Some(label) = self
            .preset
            .as_deref()
            .map(str::trim)
            .filter(|l| !l.is_empty())
        {
            let normalised = label.replace("<=", "≤").replace("1/2", "½");
            let (_, initial, inc_hours, cap) = FISCHER_PRESETS
                .iter()
                .find(|(l, ..)| *l == normalised)
                .ok_or(TimeControlError::BadFischer)?;
            return Ok(TimeControl::Fischer {
                initial: initial * DAY_SECONDS,
                increment: inc_hours * 3600,
                cap: cap * DAY_SECONDS,
            });
        }
        let (Some(initial), Some(inc), Some(cap)) =
            (self.initial_days, self.increment_hours, self.cap_days)
        else {
            return Err(TimeControlError::BadFischer);
        };
        if !(1..=60).contains(&initial) || !(0..=168).contains(&inc) || cap < initial || cap > 90 {
            return Err(TimeControlError::BadFischer);
        }
        Ok(TimeControl::Fischer {
            initial: i64::from(initial) * DAY_SECONDS,
            increment: i64::from(inc) * 3600,
            cap: i64::from(cap) * DAY_SECONDS,
        })
    }
}

/// What the worker did to one overdue game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expiry {
    /// The player to move lost on time (or drew: the winner could not win).
    Flagged(i64),
    /// Too few moves were played: the game is called off without a result.
    Aborted(i64),
}

/// Why a pass over the overdue games stopped; the games it ended before stay ended.
#[derive(Debug, thiserror::Error)]
pub enum ExpireError {
    #[error(transparent)]
    Db(#[from] diesel::result::Error),
    #[error(transparent)]
    Corrupt(#[from] CorruptGame),
    #[error(transparent)]
    Rules(#[from] crate::game::RulesError),
    /// The record says the game runs, its moves say it is over.
    #[error("game {game_id} is overdue, but its moves have already ended it")]
    AlreadyOver {
        game_id: i64,
        #[source]
        source: GameOver,
    },
}

/// Ends every game whose deadline has passed, each in its own transaction with the game
/// locked and the deadline checked again, so that several workers (several server
/// instances on one database) end each game exactly once. Returns what this call did.
pub fn expire_overdue_games(
    conn: &mut DbConnection,
    now: NaiveDateTime,
) -> Result<Vec<Expiry>, ExpireError> {
    let candidates: Vec<i64> = games::table
        .filter(games::status.eq(GameStatus::Started.as_str()))
        .filter(games::deadline_at.le(now))
        .filter(games::auto_flag.eq(true).or(games::ply.lt(2)))
        .order(games::deadline_at.asc())
        .select(games::id)
        .limit(500)
        .load(conn)?;
    let mut done = Vec::new();
    for id in candidates {
        let ended = crate::db::write_transaction::<_, ExpireError>(conn, |conn| {
            if !lock_game(conn, id)? {
                return Ok(None);
            }
            let Some(record) = load_game(conn, id)? else {
                return Ok(None);
            };
            expire_game(conn, now, &record)
        })?;
        done.extend(ended);
    }
    Ok(done)
}

/// Ends one overdue game of any kind, locked and read: the board whose deadline passed first
/// decides. When a board's first moves were not made, the game is called off; else, with
/// automatic flagging, the player to move there loses on time (the rules' `flag`: a draw when
/// the opponent could never win; in bughouse the team loses). `None` when nothing is due.
fn expire_game(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    record: &GameRecord,
) -> Result<Option<Expiry>, ExpireError> {
    let id = record.game.id;
    if !record.is_started() {
        return Ok(None);
    }
    let overdue: Vec<_> = record
        .boards
        .iter()
        .filter(|b| b.deadline_at.is_some_and(|d| d <= now))
        .collect();
    let Some(board) = overdue.iter().min_by_key(|b| b.deadline_at) else {
        return Ok(None);
    };
    if overdue.iter().any(|b| b.ply < 2) {
        write_abort(conn, now, id)?;
        return Ok(Some(Expiry::Aborted(id)));
    }
    if !record.game.auto_flag {
        return Ok(None);
    }
    let loser = Seat {
        board: board.board,
        color: board.turn,
    };
    let game = rules_game(conn, record)?;
    let ended = game.end(Ending::Flag(loser)).map_err(|e| match e {
        EndingRefused::Over | EndingRefused::NoSuchSeat | EndingRefused::Claim(_) => {
            ExpireError::AlreadyOver {
                game_id: id,
                source: GameOver,
            }
        }
    })?;
    end_game(conn, now, record, &ended)?;
    Ok(Some(Expiry::Flagged(id)))
}

/// Seconds left on one seat's clock now: the player to move counts down to the deadline,
/// the other shows their bank. `None` without a clock.
pub fn seconds_left(record: &GameRecord, seat: Seat, now: NaiveDateTime) -> Option<i64> {
    if !time_control_of(&record.game).is_timed() {
        return None;
    }
    if record.is_started()
        && let Some(board) = record.board(seat.board)
        && board.turn == seat.color
        && let Some(d) = board.deadline_at
    {
        return Some((d - now).num_seconds().max(0));
    }
    record.player(seat).and_then(|p| p.time_left_seconds)
}
