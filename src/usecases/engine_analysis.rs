//! Engine analysis of finished games, as stored: asking for one (once per game, and only
//! after the end: correspondence players may not consult engines while they play), the
//! worker's claim with a lease (one worker at a time, whatever the number of instances), each
//! position's figures written as soon as they are found, the end of the job, and the
//! analysis read back with every move's judgement. The engine itself runs in the worker
//! (`crate::analysis_worker`): this module only decides and stores.

use chrono::{Duration, NaiveDateTime};
use diesel::prelude::*;
use diesel::result::{DatabaseErrorKind, Error as DbError};
use slowfuse_engine::{Eval, Judgement, judge};
use slowfuse_rules::{Color, GameKind, Variant};

use crate::db::DbConnection;
use crate::game::{GameRecord, GameStatus};
use crate::schema::{engine_analyses, engine_analysis_plies, games};

/// The stored states of an analysis.
pub mod status {
    /// Asked for; no worker has it yet.
    pub const QUEUED: &str = "queued";
    /// A worker holds it (until `claimed_until`) and writes a position at a time.
    pub const RUNNING: &str = "running";
    /// Every position judged.
    pub const DONE: &str = "done";
    /// The engine could not go on (the reason in `error`); asking again starts it anew.
    pub const FAILED: &str = "failed";
}

/// How long a worker's claim on an analysis lasts without news. Each position written
/// renews it; a worker that dies leaves the job to another once it runs out.
pub const LEASE_SECONDS: i64 = 120;

#[derive(Debug, thiserror::Error)]
pub enum EngineAnalysisError {
    #[error("no such game")]
    NotFound,
    #[error(
        "engines are not allowed while the game is in progress: engine analysis opens when the game is over"
    )]
    NotOver,
    #[error("an aborted game has no analysis")]
    Aborted,
    #[error("engine analysis covers games on one board without hidden pieces, not {0}")]
    Unsupported(String),
    #[error(transparent)]
    Db(#[from] DbError),
}

/// Whether the engine analyses games of this kind: every one-board variant the rules play;
/// not bughouse (two boards, pieces passed between them) nor minesweeper (hidden bombs).
pub fn offered_for(kind: GameKind) -> bool {
    kind.variant().is_some()
}

/// [`offered_for`] a stored variant name (unknown names are not analysed).
fn offered_for_stored(variant: &str) -> bool {
    variant.parse::<GameKind>().is_ok_and(offered_for)
}

/// What asking for an analysis did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Requested {
    /// The analysis's status now.
    pub status: String,
    /// Whether this request queued it (false: it was already queued, running or done).
    pub queued_now: bool,
}

/// Queues the analysis of finished game `game_id` (once: asking again answers with the status
/// it has; a failed one is queued anew).
pub fn request_analysis(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    game_id: i64,
    requested_by: Option<i64>,
) -> Result<Requested, EngineAnalysisError> {
    let (variant, stored_status, ply): (String, String, i32) = games::table
        .find(game_id)
        .select((games::variant, games::status, games::ply))
        .get_result(conn)
        .optional()?
        .ok_or(EngineAnalysisError::NotFound)?;
    match stored_status.parse::<GameStatus>() {
        Ok(GameStatus::Finished) => {}
        Ok(GameStatus::Aborted) => return Err(EngineAnalysisError::Aborted),
        _ => return Err(EngineAnalysisError::NotOver),
    }
    if !offered_for_stored(&variant) {
        return Err(EngineAnalysisError::Unsupported(variant));
    }
    if let Some(existing) = stored_status_of(conn, game_id)? {
        if existing != status::FAILED {
            return Ok(Requested {
                status: existing,
                queued_now: false,
            });
        }
        return requeue_failed(conn, now, game_id, requested_by, ply + 1);
    }
    let inserted = diesel::insert_into(engine_analyses::table)
        .values((
            engine_analyses::game_id.eq(game_id),
            engine_analyses::status.eq(status::QUEUED),
            engine_analyses::engine.eq(""),
            engine_analyses::nodes.eq(0i64),
            engine_analyses::positions.eq(ply + 1),
            engine_analyses::done_positions.eq(0),
            engine_analyses::requested_by.eq(requested_by),
            engine_analyses::requested_at.eq(now),
        ))
        .execute(conn);
    match inserted {
        Ok(_) => Ok(Requested {
            status: status::QUEUED.to_string(),
            queued_now: true,
        }),
        // Another request (or instance) queued it a moment ago.
        Err(DbError::DatabaseError(DatabaseErrorKind::UniqueViolation, _)) => Ok(Requested {
            status: stored_status_of(conn, game_id)?.unwrap_or_else(|| status::QUEUED.into()),
            queued_now: false,
        }),
        Err(e) => Err(e.into()),
    }
}

fn requeue_failed(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    game_id: i64,
    requested_by: Option<i64>,
    positions: i32,
) -> Result<Requested, EngineAnalysisError> {
    let changed = crate::db::write_transaction(conn, |conn| {
        diesel::delete(
            engine_analysis_plies::table.filter(engine_analysis_plies::game_id.eq(game_id)),
        )
        .execute(conn)?;
        diesel::update(
            engine_analyses::table
                .filter(engine_analyses::game_id.eq(game_id))
                .filter(engine_analyses::status.eq(status::FAILED)),
        )
        .set((
            engine_analyses::status.eq(status::QUEUED),
            engine_analyses::positions.eq(positions),
            engine_analyses::done_positions.eq(0),
            engine_analyses::requested_by.eq(requested_by),
            engine_analyses::requested_at.eq(now),
            engine_analyses::claimed_by.eq(None::<String>),
            engine_analyses::claimed_until.eq(None::<NaiveDateTime>),
            engine_analyses::error.eq(None::<String>),
        ))
        .execute(conn)
    })?;
    Ok(Requested {
        status: stored_status_of(conn, game_id)?.unwrap_or_else(|| status::QUEUED.into()),
        queued_now: changed == 1,
    })
}

fn stored_status_of(conn: &mut DbConnection, game_id: i64) -> QueryResult<Option<String>> {
    engine_analyses::table
        .find(game_id)
        .select(engine_analyses::status)
        .get_result(conn)
        .optional()
}

/// Queues every rated game that finished at `since` or later and has no analysis yet (the
/// setting `analysis.automatic_for_rated`); returns the games queued. Safe on several
/// instances at once: a game another instance queued first is left as it is.
pub fn queue_rated_games(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    since: NaiveDateTime,
) -> QueryResult<Vec<i64>> {
    let candidates: Vec<(i64, String)> = games::table
        .left_join(engine_analyses::table)
        .filter(engine_analyses::game_id.is_null())
        .filter(games::status.eq(GameStatus::Finished.as_str()))
        .filter(games::rated.eq(true))
        .filter(games::finished_at.ge(since))
        .filter(games::variant.eq_any(Variant::ALL.iter().map(|v| v.as_str())))
        .select((games::id, games::variant))
        .order(games::finished_at.asc())
        .limit(100)
        .load(conn)?;
    let mut queued = Vec::new();
    for (id, variant) in candidates {
        if !offered_for_stored(&variant) {
            continue;
        }
        match request_analysis(conn, now, id, None) {
            Ok(r) if r.queued_now => queued.push(id),
            Ok(_) => {}
            Err(EngineAnalysisError::Db(e)) => return Err(e),
            Err(e) => log::warn!("game {id} not queued for analysis: {e}"),
        }
    }
    Ok(queued)
}

/// An analysis a worker holds: the game and the positions still to judge.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Job {
    pub game_id: i64,
    /// Positions in all (the start and one after each move).
    pub positions: i32,
    /// Positions already judged (by this worker, or one whose lease ran out).
    pub done_positions: i32,
}

/// What the worker uses, written on the analysis when it takes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Engine<'a> {
    /// The engine's name ("Slowfuse", or what the UCI engine calls itself).
    pub name: &'a str,
    /// Its node budget a position.
    pub nodes: i64,
}

/// Claims the oldest waiting analysis (or one whose worker's lease ran out) for `worker`: a
/// single conditional UPDATE, so of two workers racing for it exactly one gets it.
pub fn claim_next(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    worker: &str,
) -> QueryResult<Option<Job>> {
    let claimable = || {
        engine_analyses::status
            .eq(status::QUEUED)
            .or(engine_analyses::status
                .eq(status::RUNNING)
                .and(engine_analyses::claimed_until.lt(now)))
    };
    let waiting: Vec<i64> = engine_analyses::table
        .filter(claimable())
        .order((
            engine_analyses::requested_at.asc(),
            engine_analyses::game_id.asc(),
        ))
        .select(engine_analyses::game_id)
        .limit(10)
        .load(conn)?;
    for game_id in waiting {
        let changed = diesel::update(
            engine_analyses::table
                .filter(engine_analyses::game_id.eq(game_id))
                .filter(claimable()),
        )
        .set((
            engine_analyses::status.eq(status::RUNNING),
            engine_analyses::claimed_by.eq(Some(worker)),
            engine_analyses::claimed_until.eq(Some(now + Duration::seconds(LEASE_SECONDS))),
        ))
        .execute(conn)?;
        if changed == 1 {
            let (positions, done_positions) = engine_analyses::table
                .find(game_id)
                .select((engine_analyses::positions, engine_analyses::done_positions))
                .get_result(conn)?;
            return Ok(Some(Job {
                game_id,
                positions,
                done_positions,
            }));
        }
    }
    Ok(None)
}

/// One position's figures, from White's side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionFigures {
    /// The position after this many plies (0: the start).
    pub ply: i32,
    pub eval_cp: i32,
    pub mate: Option<i32>,
    /// The best move there in UCI and in SAN; `None` when the game is over in it.
    pub best_uci: Option<String>,
    pub best_san: Option<String>,
    /// The best line in UCI and in SAN, starting with the best move.
    pub best_line: Vec<String>,
    pub best_line_san: Vec<String>,
    pub depth: i32,
    pub nodes: i64,
}

/// Writes one position's figures if `worker` still holds the analysis, and renews its lease;
/// `false` when it no longer does (its lease ran out and another worker took the job).
pub fn record_position(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    worker: &str,
    game_id: i64,
    engine: &Engine<'_>,
    figures: &PositionFigures,
) -> QueryResult<bool> {
    crate::db::write_transaction(conn, |conn| {
        let held = diesel::update(
            engine_analyses::table
                .filter(engine_analyses::game_id.eq(game_id))
                .filter(engine_analyses::status.eq(status::RUNNING))
                .filter(engine_analyses::claimed_by.eq(worker)),
        )
        .set((
            engine_analyses::done_positions.eq(figures.ply + 1),
            engine_analyses::claimed_until.eq(Some(now + Duration::seconds(LEASE_SECONDS))),
            engine_analyses::engine.eq(engine.name),
            engine_analyses::nodes.eq(engine.nodes),
        ))
        .execute(conn)?;
        if held == 0 {
            return Ok(false);
        }
        diesel::insert_into(engine_analysis_plies::table)
            .values((
                engine_analysis_plies::game_id.eq(game_id),
                engine_analysis_plies::ply.eq(figures.ply),
                engine_analysis_plies::eval_cp.eq(figures.eval_cp),
                engine_analysis_plies::mate.eq(figures.mate),
                engine_analysis_plies::best_uci.eq(figures.best_uci.as_deref()),
                engine_analysis_plies::best_san.eq(figures.best_san.as_deref()),
                engine_analysis_plies::best_line.eq(figures.best_line.join(" ")),
                engine_analysis_plies::best_line_san.eq(figures.best_line_san.join(" ")),
                engine_analysis_plies::depth.eq(figures.depth),
                engine_analysis_plies::nodes.eq(figures.nodes),
            ))
            .execute(conn)?;
        Ok(true)
    })
}

/// Marks the analysis done (every position judged), if `worker` still holds it.
pub fn finish_job(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    worker: &str,
    game_id: i64,
) -> QueryResult<bool> {
    let changed = diesel::update(
        engine_analyses::table
            .filter(engine_analyses::game_id.eq(game_id))
            .filter(engine_analyses::status.eq(status::RUNNING))
            .filter(engine_analyses::claimed_by.eq(worker)),
    )
    .set((
        engine_analyses::status.eq(status::DONE),
        engine_analyses::finished_at.eq(Some(now)),
        engine_analyses::claimed_until.eq(None::<NaiveDateTime>),
    ))
    .execute(conn)?;
    Ok(changed == 1)
}

/// Marks the analysis failed with `reason`, if `worker` still holds it.
pub fn fail_job(
    conn: &mut DbConnection,
    worker: &str,
    game_id: i64,
    reason: &str,
) -> QueryResult<()> {
    diesel::update(
        engine_analyses::table
            .filter(engine_analyses::game_id.eq(game_id))
            .filter(engine_analyses::status.eq(status::RUNNING))
            .filter(engine_analyses::claimed_by.eq(worker)),
    )
    .set((
        engine_analyses::status.eq(status::FAILED),
        engine_analyses::claimed_until.eq(None::<NaiveDateTime>),
        engine_analyses::error.eq(Some(reason)),
    ))
    .execute(conn)?;
    Ok(())
}

/// A game's engine analysis as anyone who may see the game reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineReview {
    /// `queued`, `running`, `done` or `failed`.
    pub status: String,
    /// Positions in all and positions judged so far.
    pub positions: i32,
    pub done_positions: i32,
    /// The engine that judged them and its nodes a position (empty and 0 while queued).
    pub engine: String,
    pub nodes: i64,
    /// Why it failed.
    pub error: Option<String>,
    /// The positions judged, in order from the start.
    pub plies: Vec<PlyReview>,
}

impl EngineReview {
    /// Percent of the positions judged, rounded down: 100 only when done.
    pub fn percent(&self) -> u32 {
        if self.status == status::DONE {
            return 100;
        }
        if self.positions <= 0 {
            return 0;
        }
        let share = f64::from(self.done_positions) / f64::from(self.positions);
        ((share * 100.0).floor() as u32).min(99)
    }
}

/// One position of the analysis: the figures after `ply` plies, and the judgement of the move
/// that led to it (none for the start).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlyReview {
    pub figures: PositionFigures,
    pub judgement: Option<Judgement>,
}

/// The analysis of game `game_id` (`None` when nobody asked for one), each move judged
/// against the position before it. `moves_uci` are the game's moves and `first_mover` the side
/// to move at its start.
pub fn read_review(
    conn: &mut DbConnection,
    game_id: i64,
    moves_uci: &[&str],
    first_mover: Color,
) -> QueryResult<Option<EngineReview>> {
    type Row = (String, i32, i32, String, i64, Option<String>);
    let Some((status, positions, done_positions, engine, nodes, error)) = engine_analyses::table
        .find(game_id)
        .select((
            engine_analyses::status,
            engine_analyses::positions,
            engine_analyses::done_positions,
            engine_analyses::engine,
            engine_analyses::nodes,
            engine_analyses::error,
        ))
        .get_result::<Row>(conn)
        .optional()?
    else {
        return Ok(None);
    };
    type PlyRow = (
        i32,
        i32,
        Option<i32>,
        Option<String>,
        Option<String>,
        String,
        String,
        i32,
        i64,
    );
    let rows: Vec<PlyRow> = engine_analysis_plies::table
        .filter(engine_analysis_plies::game_id.eq(game_id))
        .order(engine_analysis_plies::ply.asc())
        .select((
            engine_analysis_plies::ply,
            engine_analysis_plies::eval_cp,
            engine_analysis_plies::mate,
            engine_analysis_plies::best_uci,
            engine_analysis_plies::best_san,
            engine_analysis_plies::best_line,
            engine_analysis_plies::best_line_san,
            engine_analysis_plies::depth,
            engine_analysis_plies::nodes,
        ))
        .load(conn)?;
    let figures = rows
        .into_iter()
        .map(
            |(ply, eval_cp, mate, best_uci, best_san, line, line_san, depth, nodes)| {
                PositionFigures {
                    ply,
                    eval_cp,
                    mate,
                    best_uci,
                    best_san,
                    best_line: words(&line),
                    best_line_san: words(&line_san),
                    depth,
                    nodes,
                }
            },
        )
        .collect();
    Ok(Some(EngineReview {
        status,
        positions,
        done_positions,
        engine,
        nodes,
        error,
        plies: judge_moves(figures, moves_uci, first_mover),
    }))
}

fn words(line: &str) -> Vec<String> {
    line.split_whitespace().map(str::to_string).collect()
}

/// The analysis of the game of `record` (`None` when nobody asked for one, or for a game of
/// more than one board), its moves judged as [`read_review`] does.
pub fn read_review_of(
    conn: &mut DbConnection,
    record: &GameRecord,
) -> QueryResult<Option<EngineReview>> {
    if !offered_for(record.kind) {
        return Ok(None);
    }
    let moves: Vec<&str> = record.moves.iter().map(|m| m.uci.as_str()).collect();
    let first = match record.game.initial_fen.split_whitespace().nth(1) {
        Some("b") => Color::Black,
        _ => Color::White,
    };
    read_review(conn, record.game.id, &moves, first)
}

/// Each position's figures with the judgement of the move that led to it: the evaluation
/// before and after it, from the mover's side; never for the move the engine found best.
pub fn judge_moves(
    figures: Vec<PositionFigures>,
    moves_uci: &[&str],
    first_mover: Color,
) -> Vec<PlyReview> {
    let mut judged: Vec<PlyReview> = Vec::with_capacity(figures.len());
    for f in figures {
        let judgement = judged.last().and_then(|before| {
            let before = &before.figures;
            if before.ply + 1 != f.ply || f.ply < 1 {
                return None;
            }
            let played = moves_uci.get(usize::try_from(f.ply - 1).ok()?)?;
            let mover = if f.ply % 2 == 1 {
                first_mover
            } else {
                first_mover.other()
            };
            let eval = |p: &PositionFigures| Eval {
                cp: p.eval_cp,
                mate: p.mate,
            };
            let played_best = before.best_uci.as_deref() == Some(*played);
            judge(eval(before), eval(&f), mover, played_best)
        });
        judged.push(PlyReview {
            figures: f,
            judgement,
        });
    }
    judged
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(ply: i32, eval_cp: i32, best: &str) -> PositionFigures {
        PositionFigures {
            ply,
            eval_cp,
            mate: None,
            best_uci: Some(best.to_string()),
            best_san: None,
            best_line: vec![best.to_string()],
            best_line_san: Vec::new(),
            depth: 5,
            nodes: 1000,
        }
    }

    #[test]
    fn each_move_is_judged_from_its_movers_side() {
        let figures = vec![
            at(0, 20, "e2e4"),
            at(1, -300, "d8h4"), // White threw a piece away
            at(2, -320, "a2a3"), // Black kept it: the engine's move
            at(3, -310, "e7e5"),
            at(4, 400, "b1c3"), // Black gave back more than all of it
        ];
        let moves = ["g2g4", "d8h4", "f2f3", "h4e1"];
        let judged = judge_moves(figures, &moves, Color::White);
        let marks: Vec<_> = judged.iter().map(|p| p.judgement).collect();
        assert_eq!(
            marks,
            vec![
                None,
                Some(Judgement::Blunder),
                None,
                None,
                Some(Judgement::Blunder)
            ]
        );
    }

    #[test]
    fn a_game_started_by_black_judges_black_first() {
        let figures = vec![at(0, 0, "e7e5"), at(1, 350, "e2e4")];
        let judged = judge_moves(figures, &["a7a6"], Color::Black);
        assert_eq!(judged[1].judgement, Some(Judgement::Blunder));
    }

    #[test]
    fn a_gap_in_the_figures_judges_nothing_across_it() {
        let figures = vec![at(0, 0, "e2e4"), at(2, -900, "e2e4")];
        let judged = judge_moves(figures, &["e2e4", "e7e5"], Color::White);
        assert_eq!(judged[1].judgement, None);
    }

    #[test]
    fn only_one_board_games_without_secrets_are_offered() {
        assert!(offered_for_stored("atomic"));
        assert!(offered_for_stored("standard"));
        assert!(offered_for_stored("antichess"));
        assert!(!offered_for_stored("bughouse"));
        assert!(!offered_for_stored("minesweeper"));
        assert!(!offered_for_stored("nonsense"));
    }
}
