//! The engine analysis worker of one instance: it queues rated games as they end (when the
//! setting asks), then takes the waiting analyses one at a time (each claimed with a lease, so
//! exactly one instance works on a game), judges every position in turn with the engine the
//! settings give for the variant (`analysts`), and writes each position as soon as it is judged, so the
//! page shows the progress and a worker that dies leaves what it did to the next one.
//! The search runs on the blocking pool, holding no database connection while it thinks.

use std::time::Duration;

use slowfuse_rules::Game;

use crate::analysts::Analyst;
use crate::game::read_game_cached;
use crate::usecases::engine_analysis::{
    Engine, Job, claim_next, fail_job, finish_job, queue_rated_games, record_position,
};
use crate::worker::WorkerState;

/// How far back a rated game's end may lie for it to be queued automatically: games that ended
/// while the setting was off, or long before this instance started, are left alone.
const AUTOMATIC_WINDOW_HOURS: i64 = 24;

/// Runs forever on the server's runtime: a pass when woken (someone asked for an analysis on
/// this instance), and every `worker.interval_seconds` anyway.
pub async fn run_analysis(state: WorkerState) {
    let period = Duration::from_secs(state.settings.worker.interval_seconds.max(1));
    let worker = worker_name();
    while state
        .shutdown
        .wait(period, Some(&state.analysis_wakeup))
        .await
    {
        match analyse_waiting(&state, &worker).await {
            Ok(done) if !done.is_empty() => log::info!("engine analysis done: games {done:?}"),
            Ok(_) => {}
            Err(e) => log::error!("engine analysis pass failed: {e:#}"),
        }
    }
}

/// This worker's name on the analyses it claims: the process and a random part, so two
/// instances on one host differ.
pub fn worker_name() -> String {
    format!("{}-{:08x}", std::process::id(), rand::random::<u32>())
}

/// One pass: queue the rated games that ended (when asked to), then analyse every waiting
/// game, one after another. Returns the games whose analysis this pass finished.
pub async fn analyse_waiting(state: &WorkerState, worker: &str) -> anyhow::Result<Vec<i64>> {
    if state.settings.analysis.automatic_for_rated {
        let now = state.now();
        let since = now - chrono::Duration::hours(AUTOMATIC_WINDOW_HOURS);
        let queued = state
            .db(move |c| queue_rated_games(c, now, since))
            .await??;
        if !queued.is_empty() {
            log::info!("rated games queued for engine analysis: {queued:?}");
        }
    }
    let mut done = Vec::new();
    while !state.shutdown.is_stopping() {
        let now = state.now();
        let name = worker.to_string();
        let Some(job) = state.db(move |c| claim_next(c, now, &name)).await?? else {
            return Ok(done);
        };
        let game_id = job.game_id;
        let (state2, name) = (state.clone(), worker.to_string());
        let finished =
            actix_web::rt::task::spawn_blocking(move || analyse_job(&state2, &name, &job))
                .await
                .map_err(|e| anyhow::anyhow!("the analysis thread failed: {e}"))?;
        match finished {
            Ok(true) => done.push(game_id),
            Ok(false) => {
                log::info!(
                    "engine analysis of game {game_id} left to another worker (taken over, or this instance is stopping)"
                )
            }
            Err(e) => {
                log::error!("engine analysis of game {game_id} failed: {e:#}");
                let (reason, name) = (format!("{e:#}"), worker.to_string());
                state
                    .db(move |c| fail_job(c, &name, game_id, &reason))
                    .await??;
            }
        }
    }
    Ok(done)
}

/// Judges the positions of `job` still to do, writing each; `Ok(false)` when another worker
/// took the job over meanwhile, or the instance is stopping (the lease then passes it on). Blocking: runs on the blocking pool.
fn analyse_job(state: &WorkerState, worker: &str, job: &Job) -> anyhow::Result<bool> {
    let game = {
        let mut conn = state.pool.get()?;
        let record = read_game_cached(&mut conn, &state.records, job.game_id)?
            .ok_or_else(|| anyhow::anyhow!("the game is gone"))?;
        record.chess_game()?
    };
    let mut analyst = Analyst::for_variant(&state.settings.analysis, game.variant());
    let total = i32::try_from(game.moves().len() + 1)?;
    let mut at = Game::from_fen(game.variant(), &game.initial_fen())?;
    for ply in 0..total {
        if state.shutdown.is_stopping() {
            // What is judged is written; the lease lets another worker go on from here.
            return Ok(false);
        }
        if ply >= job.done_positions {
            let figures = analyst.judge(&at, ply);
            let (name, nodes) = analyst.engine();
            let engine = Engine {
                name: &name,
                nodes: i64::try_from(nodes).unwrap_or(i64::MAX),
            };
            let now = state.now();
            let mut conn = state.pool.get()?;
            if !record_position(&mut conn, now, worker, job.game_id, &engine, &figures)? {
                return Ok(false);
            }
        }
        if let Some(played) = game.moves().get(usize::try_from(ply)?) {
            at = at.play_uci(&played.uci)?;
        }
    }
    let now = state.now();
    let mut conn = state.pool.get()?;
    Ok(finish_job(&mut conn, now, worker, job.game_id)?)
}
