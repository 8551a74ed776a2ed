//! The search: iterative deepening over negamax alpha-beta with principal-variation windows, late-move reductions, a transposition table and quiescence.

use shakmaty::variant::VariantPosition;
use shakmaty::{KnownOutcome, Move, Outcome, Position};

use crate::minesweeper::Mines;
use crate::ordering::{MAX_PLY, Ordering, is_tactical};
use crate::position::{Kind, hash};
use crate::tt::{Bound, Entry, Table, to_table, usable};

mod play;
mod quiesce;

use play::{Aftermath, Mix, Played};

/// The score of a mate on the board (less the plies to reach it).
pub(crate) const MATE: i32 = 30_000;
/// Scores beyond this are mates.
pub(crate) const MATE_BOUND: i32 = MATE - 1_000;
/// Above every score.
const INFINITY: i32 = 32_000;

/// The budget of one search.
pub(crate) struct Budget<'a> {
    pub(crate) nodes: u64,
    pub(crate) depth: i32,
    pub(crate) stop: Option<&'a dyn Fn() -> bool>,
}

/// What a finished search found.
pub(crate) struct Found {
    pub(crate) best: Move,
    pub(crate) score: i32,
    pub(crate) depth: i32,
    pub(crate) pv: Vec<Move>,
}

/// One search's state: the table, the ordering's memory, the counters.
pub(crate) struct Searcher<'a> {
    kind: Kind,
    mines: Option<&'a Mines>,
    tt: Table,
    order: Ordering,
    pub(crate) nodes: u64,
    budget: Budget<'a>,
    stopped: bool,
    path: Vec<u64>,
}

impl<'a> Searcher<'a> {
    /// A searcher for positions of `kind` that have `history` behind them.
    pub(crate) fn new(
        kind: Kind,
        mines: Option<&'a Mines>,
        history: &[u64],
        budget: Budget<'a>,
    ) -> Searcher<'a> {
        Searcher {
            kind,
            mines,
            tt: Table::new(table_bits(budget.nodes)),
            order: Ordering::new(),
            nodes: 0,
            budget,
            stopped: false,
            path: history.to_vec(),
        }
    }

    /// Deepens from one ply until the budget ends or a mate is certain;
    /// `None` when the side to move has no legal move.
    pub(crate) fn run(&mut self, root: &VariantPosition) -> Option<Found> {
        let mut moves: Vec<Move> = root.legal_moves().into_iter().collect();
        if moves.is_empty() {
            return None;
        }
        let key = hash(root);
        self.order
            .sort(&mut moves, self.kind, root.board(), None, 0);
        let mut found = Found {
            best: moves[0],
            score: 0,
            depth: 0,
            pv: vec![moves[0]],
        };
        for depth in 1..=self.budget.depth.max(1) {
            let Some((best, score)) = self.root(root, key, &mut moves, depth) else {
                break;
            };
            found = Found {
                best,
                score,
                depth,
                pv: self.principal_variation(root, best, depth),
            };
            if self.stopped || (score.abs() > MATE_BOUND && MATE - score.abs() <= depth) {
                break;
            }
        }
        Some(found)
    }

    /// One iteration at the root; the best move goes to the front of `moves`.
    fn root(
        &mut self,
        pos: &VariantPosition,
        key: u64,
        moves: &mut [Move],
        depth: i32,
    ) -> Option<(Move, i32)> {
        let mut alpha = -INFINITY;
        let mut best: Option<(usize, i32)> = None;
        self.path.push(key);
        for (i, &m) in moves.iter().enumerate() {
            let node = Node {
                pos,
                key,
                depth,
                alpha,
                beta: INFINITY,
                ply: 0,
            };
            let score = self.search_move(&node, m, i, false);
            if self.stopped {
                break;
            }
            if score > alpha {
                alpha = score;
                best = Some((i, score));
            }
        }
        self.path.pop();
        let (i, score) = best?;
        moves[..=i].rotate_right(1);
        self.tt.store(Entry {
            key,
            best: Some(moves[0]),
            score,
            depth,
            bound: Bound::Exact,
        });
        Some((moves[0], score))
    }

    /// The score of `pos` for the side to move, searched `depth` plies deep
    /// in the window (`alpha`, `beta`).
    fn negamax(
        &mut self,
        pos: &VariantPosition,
        key: u64,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        if self.out_of_budget() {
            return 0;
        }
        if let Some(score) = self.draw_or_end(pos, key, ply) {
            return score;
        }
        if depth <= 0 || ply >= MAX_PLY {
            return self.quiesce(pos, alpha, beta, ply, 0);
        }
        self.nodes += 1;
        let entry = self.tt.probe(key);
        if let Some(score) = entry.and_then(|e| usable(e, depth, alpha, beta, ply)) {
            return score;
        }
        let mut moves: Vec<Move> = pos.legal_moves().into_iter().collect();
        if moves.is_empty() {
            return outcome_score(pos.outcome(), pos, ply);
        }
        let in_check = self.checks_matter() && pos.is_check();
        let depth = depth + i32::from(in_check);
        let hash_move = entry.and_then(|e| e.best);
        self.order
            .sort(&mut moves, self.kind, pos.board(), hash_move, ply);
        let mut node = Node {
            pos,
            key,
            depth,
            alpha,
            beta,
            ply,
        };
        let (best_score, best_move) = self.search_moves(&mut node, &moves, in_check);
        if self.stopped {
            return 0;
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(Entry {
            key,
            best: best_move,
            score: to_table(best_score, ply),
            depth,
            bound,
        });
        best_score
    }

    /// Searches `moves` in order at `node` until one fails high; the best
    /// score and move. A quiet move that fails high is remembered.
    fn search_moves(
        &mut self,
        node: &mut Node,
        moves: &[Move],
        in_check: bool,
    ) -> (i32, Option<Move>) {
        let mut best_score = -INFINITY;
        let mut best_move = None;
        self.path.push(node.key);
        for (i, &m) in moves.iter().enumerate() {
            let score = self.search_move(node, m, i, !in_check);
            if self.stopped {
                break;
            }
            if score > best_score {
                best_score = score;
                best_move = Some(m);
            }
            node.alpha = node.alpha.max(score);
            if node.alpha >= node.beta {
                if !is_tactical(m) {
                    self.order.reward(m, node.ply, node.depth);
                }
                break;
            }
        }
        self.path.pop();
        (best_score, best_move)
    }

    /// The score for the mover of the `i`th move at `node`: the first in the
    /// full window, later ones in a null window (quiet ones reduced when
    /// `reduce` allows) and searched again when they beat alpha.
    fn search_move(&mut self, node: &Node, m: Move, i: usize, reduce: bool) -> i32 {
        let (child, key, mix) = match self.play(node.pos, Some(node.key), m, node.ply, true) {
            Played::Board(child, key, cost) => (child, key, Mix::cost(cost)),
            Played::Gamble {
                calm,
                key,
                chance,
                blasted,
            } => {
                let blasted = match blasted {
                    Aftermath::Board(next, next_key) => -self.negamax(
                        &next,
                        next_key,
                        node.depth - 1,
                        -INFINITY,
                        INFINITY,
                        node.ply + 1,
                    ),
                    Aftermath::Over(score) => score,
                };
                (calm, key, Mix::gamble(chance, blasted))
            }
            Played::Over(score) => return score,
        };
        let (alpha, beta, depth, ply) = (node.alpha, node.beta, node.depth - 1, node.ply + 1);
        // The child's window, mapped through what the move itself risks.
        let score_in = |this: &mut Self, depth: i32, low: i32, high: i32| {
            let (low, high) = mix.window(low, high);
            mix.value(-this.negamax(&child, key, depth, -high, -low, ply))
        };
        if i == 0 {
            return score_in(self, depth, alpha, beta);
        }
        let reduction = if reduce && !is_tactical(m) && i >= 3 && depth >= 2 && !child.is_check() {
            1 + i32::from(i >= 8 && depth >= 4)
        } else {
            0
        };
        let mut score = score_in(self, depth - reduction, alpha, alpha + 1);
        if score > alpha && reduction > 0 {
            score = score_in(self, depth, alpha, alpha + 1);
        }
        if score > alpha && score < beta {
            score = score_in(self, depth, alpha, beta);
        }
        score
    }

    /// The score of a draw by repetition, the fifty-move rule or material,
    /// or of a variant's own ending, at a node below the root.
    fn draw_or_end(&self, pos: &VariantPosition, key: u64, ply: usize) -> Option<i32> {
        if pos.is_variant_end() {
            return Some(outcome_score(pos.variant_outcome(), pos, ply));
        }
        if pos.halfmoves() >= 100 {
            return Some(0);
        }
        let back = usize::try_from(pos.halfmoves())
            .unwrap_or(0)
            .min(self.path.len());
        if self.path[self.path.len() - back..]
            .iter()
            .rev()
            .skip(1)
            .step_by(2)
            .any(|&k| k == key)
        {
            return Some(0);
        }
        if pos.board().occupied().count() <= 5 && pos.is_insufficient_material() {
            return Some(0);
        }
        None
    }

    /// Whether being in check means anything here (antichess and racing
    /// kings have no checks to answer; the rules forbid them in racing kings).
    fn checks_matter(&self) -> bool {
        !matches!(self.kind, Kind::Antichess | Kind::RacingKings)
    }

    fn out_of_budget(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if self.nodes >= self.budget.nodes {
            self.stopped = true;
        } else if self.nodes.is_multiple_of(1024)
            && let Some(stop) = self.budget.stop
            && stop()
        {
            self.stopped = true;
        }
        self.stopped
    }

    /// The best line: the root's best move, then the table's moves while
    /// they are legal and new.
    fn principal_variation(&self, root: &VariantPosition, best: Move, depth: i32) -> Vec<Move> {
        let mut line = vec![best];
        let mut pos = root.clone();
        pos.play_unchecked(best);
        let mut seen = vec![hash(root)];
        let limit = usize::try_from(depth).unwrap_or(1).max(1) + 4;
        while line.len() < limit {
            let key = hash(&pos);
            if seen.contains(&key) {
                break;
            }
            seen.push(key);
            let Some(m) = self.tt.probe(key).and_then(|e| e.best) else {
                break;
            };
            if !pos.legal_moves().contains(&m) {
                break;
            }
            pos.play_unchecked(m);
            line.push(m);
        }
        line
    }
}

/// A node of the tree as `search_move` needs it.
struct Node<'p> {
    pos: &'p VariantPosition,
    key: u64,
    depth: i32,
    alpha: i32,
    beta: i32,
    ply: usize,
}

/// A table about as large as the node budget (2^10 to 2^20 slots).
fn table_bits(nodes: u64) -> u32 {
    (64 - nodes.leading_zeros()).clamp(10, 20)
}

/// A finished game's score for the side to move at `ply`.
fn outcome_score(outcome: Outcome, pos: &VariantPosition, ply: usize) -> i32 {
    let distance = i32::try_from(ply).unwrap_or(0);
    match outcome {
        Outcome::Known(KnownOutcome::Decisive { winner }) if winner == pos.turn() => {
            MATE - distance
        }
        Outcome::Known(KnownOutcome::Decisive { .. }) => -(MATE - distance),
        _ => 0,
    }
}
