//! The engine's entry points: a move for a level, and analysis of a position or of a whole game.

use shakmaty::{Move, Position};
use slowfuse_rules::{Color, Game};

use crate::levels::Level;
use crate::position::EnginePosition;
use crate::rng::Rng;
use crate::search::{Budget, MATE, MATE_BOUND, Searcher};

/// How long the engine may think: a node budget, a depth, and optionally a
/// closure it asks now and then (every 1024 nodes) whether to stop, e.g.
/// one that compares the caller's clock with a deadline. A search stopped by
/// the closure still answers with the best move of the plies completed.
#[derive(Clone, Copy)]
pub struct Limits<'a> {
    /// The most positions to visit.
    pub nodes: u64,
    /// The deepest iteration, in plies.
    pub depth: u32,
    /// Asked now and then; `true` stops the search.
    pub stop: Option<&'a dyn Fn() -> bool>,
}

impl Limits<'static> {
    /// At most `nodes` positions, no depth limit.
    pub fn nodes(nodes: u64) -> Limits<'static> {
        Limits {
            nodes,
            depth: 64,
            stop: None,
        }
    }

    /// At most `depth` plies (and a million nodes).
    pub fn depth(depth: u32) -> Limits<'static> {
        Limits {
            nodes: 1_000_000,
            depth,
            stop: None,
        }
    }
}

impl<'a> Limits<'a> {
    /// The same limits, also stopping when `stop` says so.
    pub fn with_stop<'b>(self, stop: &'b dyn Fn() -> bool) -> Limits<'b> {
        Limits {
            nodes: self.nodes,
            depth: self.depth,
            stop: Some(stop),
        }
    }
}

impl Default for Limits<'static> {
    /// 200,000 nodes: a fraction of a second in a release build.
    fn default() -> Limits<'static> {
        Limits::nodes(200_000)
    }
}

/// Why the engine gives no move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    /// The game is over in this position (mate, stalemate, a variant's goal).
    #[error("the game is over")]
    GameOver,
}

/// The engine's move and what it thinks of it, from the side to move's view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move, legal in the position given.
    pub best: Move,
    /// The move in UCI (`e2e4`, `e7e8q`, castling `e1g1`, drops `N@f3`).
    pub uci: String,
    /// The score in centipawns for the side to move (mates as ±30000 less
    /// the plies to it).
    pub score_cp: i32,
    /// Moves to a mate: positive when the side to move mates, negative when
    /// it is mated.
    pub mate: Option<i32>,
    /// The line expected, in UCI, starting with the move.
    pub pv: Vec<String>,
    /// Positions visited.
    pub nodes: u64,
    /// The last completed iteration, in plies.
    pub depth: u32,
    /// Whether the level picked this move on purpose instead of the best found.
    pub deliberate: bool,
}

/// The engine's judgement of one position, from White's side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// Centipawns for White (a mate as ±30000 less the plies to it).
    pub score_cp: i32,
    /// Moves to a mate: positive when White mates, negative when Black does.
    pub mate: Option<i32>,
    /// The best move in UCI; `None` when the game is over.
    pub best: Option<String>,
    /// The best line in UCI.
    pub pv: Vec<String>,
    /// Positions visited.
    pub nodes: u64,
    /// The last completed iteration, in plies.
    pub depth: u32,
}

/// The move `level` plays in `position`, within `limits`, its deliberate
/// errors drawn from `seed`.
///
/// # Errors
///
/// [`EngineError::GameOver`] when the side to move has no legal move or the
/// game has ended.
pub fn best_move(
    position: &EnginePosition,
    level: Level,
    limits: &Limits,
    seed: u64,
) -> Result<SearchResult, EngineError> {
    let pos = &position.pos;
    if let Some(capture) = position.king_capture() {
        return Ok(result(
            position,
            capture,
            MATE - 1,
            vec![capture],
            1,
            1,
            false,
        ));
    }
    if pos.is_variant_end() {
        return Err(EngineError::GameOver);
    }
    let budget = Budget {
        nodes: limits.nodes.min(level.max_nodes()),
        depth: i32::try_from(limits.depth)
            .unwrap_or(64)
            .min(level.max_depth()),
        stop: limits.stop,
    };
    let mines = position
        .mines
        .as_ref()
        .map(|m| m.reading_counts(level.reads_counts()));
    let mut searcher = Searcher::new(position.kind, mines.as_ref(), &position.history, budget);
    let found = searcher.run(pos).ok_or(EngineError::GameOver)?;
    let mut rng = Rng::new(seed ^ position_salt(position));
    if level.errs(&mut rng) {
        let scored = searcher.shallow_scores(pos);
        if let Some((m, score)) = level.worse_move(found.best, &scored, &mut rng) {
            let nodes = searcher.nodes;
            return Ok(result(
                position,
                m,
                score,
                vec![m],
                nodes,
                found.depth,
                true,
            ));
        }
    }
    Ok(result(
        position,
        found.best,
        found.score,
        found.pv,
        searcher.nodes,
        found.depth,
        false,
    ))
}

/// The engine's judgement of `position` within `limits`, from White's side.
pub fn analyse(position: &EnginePosition, limits: &Limits) -> Analysis {
    let white = position.turn() == Color::White;
    let for_white = |score: i32| if white { score } else { -score };
    match best_move(position, Level::Hard, limits, 0) {
        Ok(found) => Analysis {
            score_cp: for_white(found.score_cp),
            mate: found.mate.map(for_white),
            best: Some(found.uci),
            pv: found.pv,
            nodes: found.nodes,
            depth: found.depth,
        },
        Err(EngineError::GameOver) => {
            let outcome = position.pos.outcome();
            let score_cp = match outcome.winner() {
                Some(Color::White) => MATE,
                Some(Color::Black) => -MATE,
                None => 0,
            };
            Analysis {
                score_cp,
                mate: outcome.winner().map(|_| 0),
                best: None,
                pv: Vec::new(),
                nodes: 0,
                depth: 0,
            }
        }
    }
}

/// Every position of a finished (or running) game judged in turn, from the
/// start to the last move, each within `limits`.
pub fn analyse_game(game: &Game, limits: &Limits) -> Vec<Analysis> {
    let start = Game::from_fen(game.variant(), &game.initial_fen())
        .map(|g| EnginePosition::from_game(&g))
        .ok();
    let mut judged = Vec::new();
    let mut position = start;
    let mut moves = game.moves().iter();
    while let Some(current) = position {
        judged.push(analyse(&current, limits));
        position = moves.next().and_then(|m| current.play_uci(&m.uci));
    }
    judged
}

fn result(
    position: &EnginePosition,
    best: Move,
    score: i32,
    pv: Vec<Move>,
    nodes: u64,
    depth: i32,
    deliberate: bool,
) -> SearchResult {
    let uci = |m: Move| m.to_uci(position.mode).to_string();
    let mate = (score.abs() > MATE_BOUND).then(|| {
        let moves = (MATE - score.abs() + 1) / 2;
        if score > 0 { moves } else { -moves }
    });
    SearchResult {
        best,
        uci: uci(best),
        score_cp: score,
        mate,
        pv: pv.into_iter().map(uci).collect(),
        nodes,
        depth: u32::try_from(depth).unwrap_or(0),
        deliberate,
    }
}

/// Mixes the position into the seed so that one game's moves draw different numbers.
fn position_salt(position: &EnginePosition) -> u64 {
    crate::position::hash(&position.pos)
}
