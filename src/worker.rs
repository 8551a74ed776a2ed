//! The background worker: at a fixed interval, ends the games whose time ran out.

use std::time::Duration;

use crate::usecases::clocks::{Expiry, expire_overdue_games};
use crate::web::AppState;

/// Runs forever on the server's runtime; each pass is one blocking job on the thread pool.
pub async fn run_worker(state: AppState) {
    let period = Duration::from_secs(state.settings.worker.interval_seconds.max(1));
    let mut ticker = actix_web::rt::time::interval(period);
    loop {
        ticker.tick().await;
        match run_once(&state).await {
            Ok(done) if !done.is_empty() => log::info!("worker ended overdue games: {done:?}"),
            Ok(_) => {}
            Err(e) => log::error!("worker pass failed: {e:#}"),
        }
    }
}

/// One pass of every job.
pub async fn run_once(state: &AppState) -> anyhow::Result<Vec<Expiry>> {
    let now = state.now();
    state
        .db(move |conn| expire_overdue_games(conn, now))
        .await
        .map_err(|e| anyhow::anyhow!("{e}"))?
}
