//! The source of "now": the system clock in production, a settable one in tests.

use chrono::{NaiveDateTime, Utc};
use std::sync::Mutex;

/// Tells the current UTC time. Injected so that tests control deadlines.
pub trait Clock: Send + Sync {
    /// The current time, UTC, to the microsecond.
    fn now(&self) -> NaiveDateTime;
}

/// The real clock.
#[derive(Debug, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> NaiveDateTime {
        let now = Utc::now().naive_utc();
        // Both databases keep microseconds; cut here so a value reads back equal.
        now.with_nanosecond_truncated()
    }
}

/// A clock that stands still until moved; for tests.
#[derive(Debug)]
pub struct FixedClock(Mutex<NaiveDateTime>);

impl FixedClock {
    /// A clock showing `at`.
    pub fn new(at: NaiveDateTime) -> FixedClock {
        FixedClock(Mutex::new(at))
    }

    /// Moves the clock forward.
    pub fn advance(&self, by: chrono::Duration) {
        let mut t = self.0.lock().expect("clock lock");
        *t += by;
    }
}

impl Clock for FixedClock {
    fn now(&self) -> NaiveDateTime {
        *self.0.lock().expect("clock lock")
    }
}

trait TruncateNanos {
    fn with_nanosecond_truncated(self) -> Self;
}

impl TruncateNanos for NaiveDateTime {
    fn with_nanosecond_truncated(self) -> Self {
        use chrono::Timelike;
        let micros = self.nanosecond() / 1000 * 1000;
        self.with_nanosecond(micros).unwrap_or(self)
    }
}
