//! The instance's own figures for operators: HTTP requests and their latency, moves stored,
//! the background worker's passes and heartbeat. Kept in atomics (no lock on the hot path),
//! one set per application, read by `/metrics` and `/health`.

mod exposition;
mod requests;

pub use exposition::{Scrape, render};
pub use requests::{Method, RequestTable};

use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};

/// Every figure one application keeps.
#[derive(Debug, Default)]
pub struct Metrics {
    /// HTTP requests by method, route pattern and status, with their latency.
    pub requests: RequestTable,
    /// Moves stored by this instance (players', the computer's, conditional replies).
    moves: AtomicU64,
    /// The background worker's heartbeat.
    pub worker: Heartbeat,
}

impl Metrics {
    /// Counts moves stored (and committed) by this instance.
    pub fn count_moves(&self, n: u64) {
        if n > 0 {
            self.moves.fetch_add(n, Ordering::Relaxed);
        }
    }

    /// Moves stored by this instance since it started.
    pub fn moves(&self) -> u64 {
        self.moves.load(Ordering::Relaxed)
    }
}

/// When the background worker last completed a pass, on the application's clock.
#[derive(Debug)]
pub struct Heartbeat {
    /// Milliseconds since the Unix epoch of the last completed pass (or of the start).
    last_ms: AtomicI64,
    passes: AtomicU64,
}

impl Default for Heartbeat {
    fn default() -> Self {
        Heartbeat {
            last_ms: AtomicI64::new(i64::MIN),
            passes: AtomicU64::new(0),
        }
    }
}

impl Heartbeat {
    /// Starts the count: a worker that never completes a pass is late from this moment on.
    pub fn start(&self, now: chrono::NaiveDateTime) {
        self.last_ms
            .store(now.and_utc().timestamp_millis(), Ordering::Relaxed);
    }

    /// A pass completed at `now` (whether its jobs succeeded or not: the loop is alive).
    pub fn beat(&self, now: chrono::NaiveDateTime) {
        self.last_ms
            .fetch_max(now.and_utc().timestamp_millis(), Ordering::Relaxed);
        self.passes.fetch_add(1, Ordering::Relaxed);
    }

    /// Passes completed since the start.
    pub fn passes(&self) -> u64 {
        self.passes.load(Ordering::Relaxed)
    }

    /// Seconds from the last completed pass (or the start) to `now`; `None` before the start.
    pub fn lag_seconds(&self, now: chrono::NaiveDateTime) -> Option<f64> {
        let last = self.last_ms.load(Ordering::Relaxed);
        (last != i64::MIN).then(|| (now.and_utc().timestamp_millis() - last).max(0) as f64 / 1000.0)
    }
}

static PROCESS_START: std::sync::OnceLock<f64> = std::sync::OnceLock::new();

/// When this process started serving, in seconds since the Unix epoch (fixed at the first
/// call, made when the application is built).
pub fn process_start_seconds() -> f64 {
    *PROCESS_START.get_or_init(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0.0, |d| d.as_secs_f64())
    })
}

/// How late the worker may be before `/health` calls it stalled: three intervals and half a
/// minute (a pass that sends a batch of mail over a slow SMTP server takes a while).
pub fn worker_stale_after_seconds(interval_seconds: u64) -> f64 {
    (3 * interval_seconds.max(1) + 30) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(secs: i64) -> chrono::NaiveDateTime {
        chrono::DateTime::from_timestamp(1_800_000_000 + secs, 0)
            .unwrap()
            .naive_utc()
    }

    #[test]
    fn the_heartbeat_measures_the_lag_from_the_last_pass() {
        let beat = Heartbeat::default();
        assert_eq!(beat.lag_seconds(at(0)), None);
        beat.start(at(0));
        assert_eq!(beat.lag_seconds(at(5)), Some(5.0));
        beat.beat(at(4));
        beat.beat(at(3)); // a slower pass finishing late never moves the beat back
        assert_eq!(beat.lag_seconds(at(10)), Some(6.0));
        assert_eq!(beat.passes(), 2);
    }
}
