//! The background worker: at a fixed interval, ends the minesweeper setups whose time ran out
//! (the missing bombs placed at random), ends the games whose time ran out, queues the
//! "time running low" mails and the daily digests that became due, sends the mail that is
//! due, and deletes old finished mail. Beside it, the computer opponent's loop: it takes the
//! computer's turns as soon as a player on this instance acts (`AppState::wake_computer`), and
//! at the same interval in any case (turns whose player acted on another instance). The loops
//! run on a [`WorkerState`] of their own, made from the application's parts at start, and never
//! reach the web layer.

use std::sync::Arc;
use std::time::Duration;

use crate::clock::Clock;
use crate::config::Settings;
use crate::db::{DbConnection, DbPool};
use crate::mail::{MailReport, deliver_due};
use crate::random::Random;
use crate::usecases::clocks::{Expiry, expire_overdue_games};
use crate::usecases::computer::{ComputerAction, HARD_NODES, computer_turns, play_computer_turn};
use crate::usecases::minesweeper::finish_overdue_setups;
use crate::usecases::{digest, notify, outbox};

/// What the background loops reach, and the HTTP side with them (`web::AppState` holds one):
/// the application's pool and its turns, settings, clock, chance, mail signer, record cache,
/// wake-ups, shutdown and metrics.
#[derive(Clone)]
pub struct WorkerState {
    pub pool: DbPool,
    /// One permit per pooled connection: requests and passes wait for a connection here, first
    /// come first served, rather than in the pool, whose waiters are woken in no order.
    pub db_turns: Arc<tokio::sync::Semaphore>,
    pub settings: Arc<Settings>,
    pub clock: Arc<dyn Clock>,
    /// Draws what is left to chance: a random colour, a Chess960 start.
    pub random: Arc<dyn Random>,
    /// Signs and checks the tokens of mail links (unsubscribe, address confirmation).
    pub signer: crate::mail::Signer,
    /// The moves of recently read games (see `game::cache`).
    pub records: Arc<crate::game::RecordCache>,
    /// Wakes this instance's computer opponent after a player acted.
    pub computer_wakeup: Arc<tokio::sync::Notify>,
    /// Wakes this instance's engine analysis worker after someone asked for an analysis.
    pub analysis_wakeup: Arc<tokio::sync::Notify>,
    /// Tells the background loops to finish what they hold and stop (see `shutdown`).
    pub shutdown: Arc<crate::shutdown::Shutdown>,
    /// Requests, moves and the worker's heartbeat, for `/metrics` and `/health`.
    pub metrics: Arc<crate::metrics::Metrics>,
}

impl WorkerState {
    /// Runs blocking database work on the thread pool with a pooled connection, in turn; the
    /// moves it commits are counted. The outer error is the infrastructure's.
    pub async fn db<T, F>(&self, f: F) -> anyhow::Result<T>
    where
        T: Send + 'static,
        F: FnOnce(&mut DbConnection) -> T + Send + 'static,
    {
        let _turn = self.db_turns.acquire().await?;
        let (pool, metrics) = (self.pool.clone(), self.metrics.clone());
        let (value, moves) = actix_web::rt::task::spawn_blocking(move || {
            crate::db::with_pooled_connection(&pool, f)
        })
        .await??;
        metrics.count_moves(moves);
        Ok(value)
    }

    /// The current time from the injected clock.
    pub fn now(&self) -> chrono::NaiveDateTime {
        self.clock.now()
    }
}

/// Runs forever on the server's runtime; each pass is one blocking job on the thread pool,
/// and each completed pass is the worker's heartbeat (`WorkerState::metrics`).
pub async fn run_worker(state: WorkerState) {
    let period = Duration::from_secs(state.settings.worker.interval_seconds.max(1));
    loop {
        match run_once(&state).await {
            Ok(done) if !done.is_empty() => log::info!("worker ended overdue games: {done:?}"),
            Ok(_) => {}
            Err(e) => log::error!("worker pass failed: {e:#}"),
        }
        // Done, well or not: the loop is alive (`/health`; a failing database shows there
        // on its own).
        state.metrics.worker.beat(state.now());
        if !state.shutdown.wait(period, None).await {
            return;
        }
    }
}

/// One pass of every job: end overdue games (which may queue result mails), then send mail.
/// Returns the games ended; the mail job's outcome is logged (see [`send_mail_once`]).
pub async fn run_once(state: &WorkerState) -> anyhow::Result<Vec<Expiry>> {
    let now = state.now();
    let random = state.random.clone();
    let started = state
        .db(move |conn| finish_overdue_setups(conn, now, &*random))
        .await??;
    if !started.is_empty() {
        log::info!("worker ended the setup of minesweeper games: {started:?}");
    }
    let ended = state
        .db(move |conn| expire_overdue_games(conn, now))
        .await??;
    match send_mail_once(state).await {
        Ok(report) if !report.is_empty() => log::info!("worker mail: {report:?}"),
        Ok(_) => {}
        Err(e) => log::error!("mail pass failed: {e:#}"),
    }
    Ok(ended)
}

/// The mail job alone: queues the "time running low" mails and the digests that became due,
/// deletes old finished rows, then claims the due outbox rows and sends them through the
/// configured transport. Safe to run on every instance at once: each row is claimed by one,
/// each digest written once.
pub async fn send_mail_once(state: &WorkerState) -> anyhow::Result<MailReport> {
    let now = state.now();
    let settings = state.settings.clone();
    let signer = state.signer.clone();
    let shutdown = state.shutdown.clone();
    state
        .db(move |conn| {
            let (fraction, hours) = (
                settings.mail.low_time_fraction,
                settings.mail.low_time_hours,
            );
            if let Err(e) = notify::low_time(conn, now, fraction, hours) {
                log::error!("time-running-low scan failed: {e}");
            }
            if let Err(e) = digest::queue_due_digests(conn, now) {
                log::error!("digest scan failed: {e}");
            }
            match outbox::delete_finished(conn, now, settings.mail.keep_days) {
                Ok(0) => {}
                Ok(n) => log::info!("deleted {n} finished outbox rows"),
                Err(e) => log::error!("outbox clean-up failed: {e}"),
            }
            deliver_due(conn, now, &settings, &signer, &|| shutdown.is_stopping())
        })
        .await?
}

/// The longest the computer thinks about one move, whatever the node budget: a safety net for
/// a loaded machine (the node budget decides the move; this only cuts it short).
const MAX_THINK: Duration = Duration::from_secs(5);

/// Runs forever on the server's runtime: a computer pass when woken, and every
/// `worker.interval_seconds` anyway.
pub async fn run_computer(state: WorkerState) {
    let period = Duration::from_secs(state.settings.worker.interval_seconds.max(1));
    // Woken or timed out: either way, a pass; stopping: no more.
    while state
        .shutdown
        .wait(period, Some(&state.computer_wakeup))
        .await
    {
        match play_computer_once(&state).await {
            Ok(done) if !done.is_empty() => log::info!("the computer acted: {done:?}"),
            Ok(_) => {}
            Err(e) => log::error!("computer pass failed: {e:#}"),
        }
    }
}

/// One computer pass: every game where the computer is to act gets its move (or, in a
/// minesweeper setup, its bombs), each game on its own; a turn another instance took first is
/// left alone. Returns what was done, by game.
pub async fn play_computer_once(state: &WorkerState) -> anyhow::Result<Vec<(i64, ComputerAction)>> {
    let turns = state.db(computer_turns).await??;
    let mut done = Vec::new();
    for turn in turns {
        if state.shutdown.is_stopping() {
            break;
        }
        let now = state.now();
        let (random, records) = (state.random.clone(), state.records.clone());
        let game_id = turn.game_id;
        let acted = state
            .db(move |conn| {
                let started = std::time::Instant::now();
                let stop = move || started.elapsed() > MAX_THINK;
                let limits = slowfuse_engine::Limits::nodes(HARD_NODES).with_stop(&stop);
                play_computer_turn(conn, &records, now, &*random, &turn, &limits)
            })
            .await?;
        match acted {
            Ok(Some(action)) => done.push((game_id, action)),
            Ok(None) => {}
            Err(e) => log::error!("the computer could not act in game {game_id}: {e}"),
        }
    }
    Ok(done)
}
