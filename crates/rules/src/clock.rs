//! Correspondence clocks as pure arithmetic on seconds: time controls, time banks, deadlines.
//!
//! Nothing here reads the system clock: the caller passes the seconds spent and gets back
//! the new bank. Two kinds of control exist besides none:
//!
//! * **days per move**: every move must be made within a fixed allowance;
//! * **Fischer with a cap**: a starting bank, an increment added after each move, and a
//!   ceiling the bank never exceeds (SchemingMind's `30+1≤45` = 30 days, +1 day a move,
//!   at most 45 days).
//!
//! ```
//! use slowfuse_rules::TimeControl;
//!
//! const DAY: i64 = 86_400;
//! let tc = TimeControl::Fischer { initial: 30 * DAY, increment: DAY, cap: 45 * DAY };
//! // Spending 2 days of a 30-day bank leaves 28 + 1 = 29 days.
//! assert_eq!(tc.bank_after_move(30 * DAY, 2 * DAY), 29 * DAY);
//! // The increment never lifts the bank above the cap.
//! assert_eq!(tc.bank_after_move(45 * DAY, 0), 45 * DAY);
//! ```

/// Seconds in a day.
pub const DAY_SECONDS: i64 = 86_400;

/// How much time each player has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// Each move must be made within this many seconds of the opponent's move.
    PerMove {
        /// The allowance for every move, in seconds.
        seconds: i64,
    },
    /// A bank that shrinks while thinking and grows by `increment` after each move, up to `cap`.
    Fischer {
        /// The bank each player starts with, in seconds.
        initial: i64,
        /// Seconds added after each move.
        increment: i64,
        /// The most a bank may hold, in seconds.
        cap: i64,
    },
    /// No clock: the game never times out.
    Unlimited,
}

/// The Fischer presets offered by name: (label, initial days, increment hours, cap days).
pub const FISCHER_PRESETS: &[(&str, i64, i64, i64)] = &[
    ("30+1≤45", 30, 24, 45),
    ("30+3≤60", 30, 72, 60),
    ("10+1≤30", 10, 24, 30),
    ("5+½≤15", 5, 12, 15),
];

impl TimeControl {
    /// Days per move.
    pub fn days_per_move(days: i64) -> TimeControl {
        TimeControl::PerMove {
            seconds: days * DAY_SECONDS,
        }
    }

    /// The bank a player starts the game with; `None` without a clock.
    pub fn initial_bank(&self) -> Option<i64> {
        match *self {
            TimeControl::PerMove { seconds } => Some(seconds),
            TimeControl::Fischer { initial, .. } => Some(initial),
            TimeControl::Unlimited => None,
        }
    }

    /// The mover's bank after a move that took `spent` seconds out of `bank`.
    /// Per-move controls start afresh; Fischer subtracts, adds the increment, and caps.
    /// A bank never goes below zero.
    pub fn bank_after_move(&self, bank: i64, spent: i64) -> i64 {
        match *self {
            TimeControl::PerMove { seconds } => seconds,
            TimeControl::Fischer { increment, cap, .. } => (bank - spent.max(0))
                .max(0)
                .saturating_add(increment)
                .min(cap),
            TimeControl::Unlimited => bank,
        }
    }

    /// Whether the clock ever runs.
    pub fn is_timed(&self) -> bool {
        !matches!(self, TimeControl::Unlimited)
    }

    /// A short human description, e.g. `3 days per move`, `30+1≤45 days`.
    pub fn describe(&self) -> String {
        match *self {
            TimeControl::PerMove { seconds } if seconds % DAY_SECONDS == 0 => {
                let days = seconds / DAY_SECONDS;
                format!("{days} day{} per move", if days == 1 { "" } else { "s" })
            }
            TimeControl::PerMove { seconds } => format!("{} hours per move", seconds / 3600),
            TimeControl::Fischer {
                initial,
                increment,
                cap,
            } => format!(
                "{}+{}≤{} days",
                fmt_days(initial),
                fmt_days(increment),
                fmt_days(cap)
            ),
            TimeControl::Unlimited => "no time limit".to_string(),
        }
    }
}

/// Days as written in presets: whole, or with ½.
fn fmt_days(seconds: i64) -> String {
    let half_days = seconds * 2 / DAY_SECONDS;
    match (half_days / 2, half_days % 2) {
        (0, 1) => "½".to_string(),
        (d, 1) => format!("{d}½"),
        (d, _) => d.to_string(),
    }
}

/// A period of leave: the player's clocks stand still from `start` to `end` (seconds
/// since the epoch, `end` excluded).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LeavePeriod {
    /// When the leave begins.
    pub start: i64,
    /// When it ends.
    pub end: i64,
}

/// Sorts periods and merges those that overlap or touch.
fn merged(leaves: &[LeavePeriod]) -> Vec<LeavePeriod> {
    let mut sorted: Vec<LeavePeriod> = leaves.iter().copied().filter(|l| l.end > l.start).collect();
    sorted.sort_by_key(|l| l.start);
    let mut out: Vec<LeavePeriod> = Vec::with_capacity(sorted.len());
    for l in sorted {
        match out.last_mut() {
            Some(last) if l.start <= last.end => last.end = last.end.max(l.end),
            _ => out.push(l),
        }
    }
    out
}

/// Seconds of `[from, to)` spent on leave.
pub fn leave_within(from: i64, to: i64, leaves: &[LeavePeriod]) -> i64 {
    merged(leaves)
        .iter()
        .map(|l| (l.end.min(to) - l.start.max(from)).max(0))
        .sum()
}

/// When a turn that started at `turn_start` with `bank` seconds runs out, the clock
/// standing still during leave.
///
/// ```
/// use slowfuse_rules::{LeavePeriod, deadline_with_leave};
///
/// // 10 seconds of bank, with leave from 5 to 20: 5 run, 15 stand still, 5 run.
/// assert_eq!(deadline_with_leave(0, 10, &[LeavePeriod { start: 5, end: 20 }]), 25);
/// ```
pub fn deadline_with_leave(turn_start: i64, bank: i64, leaves: &[LeavePeriod]) -> i64 {
    let mut t = turn_start;
    let mut remaining = bank.max(0);
    for l in merged(leaves).into_iter().filter(|l| l.end > turn_start) {
        if l.start >= t + remaining {
            break;
        }
        remaining -= (l.start - t).max(0);
        t = t.max(l.end);
    }
    t + remaining
}

#[cfg(test)]
mod tests {
    use super::*;

    const DAY: i64 = DAY_SECONDS;

    #[test]
    fn per_move_allowance_resets_every_move() {
        let tc = TimeControl::days_per_move(3);
        assert_eq!(tc.initial_bank(), Some(3 * DAY));
        assert_eq!(tc.bank_after_move(3 * DAY, 2 * DAY + 5), 3 * DAY);
        assert_eq!(tc.describe(), "3 days per move");
        assert_eq!(TimeControl::days_per_move(1).describe(), "1 day per move");
    }

    #[test]
    fn fischer_adds_the_increment_up_to_the_cap() {
        let tc = TimeControl::Fischer {
            initial: 5 * DAY,
            increment: DAY / 2,
            cap: 15 * DAY,
        };
        assert_eq!(tc.bank_after_move(5 * DAY, DAY), 4 * DAY + DAY / 2);
        assert_eq!(tc.bank_after_move(15 * DAY, 0), 15 * DAY);
        assert_eq!(tc.bank_after_move(14 * DAY + DAY / 2 + 7, 0), 15 * DAY);
        // Overspending is floored at zero before the increment.
        assert_eq!(tc.bank_after_move(DAY, 3 * DAY), DAY / 2);
        assert_eq!(tc.describe(), "5+½≤15 days");
    }

    #[test]
    fn presets_read_as_their_labels() {
        for (label, initial, inc_hours, cap) in FISCHER_PRESETS {
            let tc = TimeControl::Fischer {
                initial: initial * DAY,
                increment: inc_hours * 3600,
                cap: cap * DAY,
            };
            assert_eq!(format!("{} days", label), tc.describe());
        }
    }

    #[test]
    fn leave_stops_the_clock() {
        let leave = |start, end| LeavePeriod { start, end };
        // No leave: bank after the start.
        assert_eq!(deadline_with_leave(100, 50, &[]), 150);
        // Leave already over, or after the deadline: no effect.
        assert_eq!(
            deadline_with_leave(100, 50, &[leave(0, 90), leave(150, 400)]),
            150
        );
        // Leave under way when the turn starts: the clock waits for its end.
        assert_eq!(deadline_with_leave(100, 50, &[leave(80, 130)]), 180);
        // Two leaves, one reaching the other after extension; overlapping ones merge.
        assert_eq!(
            deadline_with_leave(0, 10, &[leave(5, 10), leave(12, 20), leave(15, 18)]),
            23
        );
        assert_eq!(
            leave_within(0, 100, &[leave(10, 20), leave(15, 30), leave(90, 200)]),
            30
        );
    }

    #[test]
    fn unlimited_never_flags() {
        assert_eq!(TimeControl::Unlimited.initial_bank(), None);
        assert!(!TimeControl::Unlimited.is_timed());
        assert_eq!(TimeControl::Unlimited.bank_after_move(7, 100), 7);
    }
}
