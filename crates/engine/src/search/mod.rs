//! The search: iterative deepening over negamax alpha-beta with principal-variation windows, late-move reductions, a transposition table and quiescence.

use shakmaty::variant::VariantPosition;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{EnPassantMode, KnownOutcome, Move, Outcome, Position};

use crate::minesweeper::{Arrival, Blasted, Mines, blast};
use crate::ordering::{MAX_PLY, Ordering, is_tactical};
use crate::position::{Kind, hash};
use crate::tt::{Bound, Entry, Table, to_table, usable};

mod quiesce;

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
                (
                    calm,
                    key,
                    Mix {
                        chance,
                        blasted,
                        cost: 0,
                    },
                )
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

    fn child(&self, pos: &VariantPosition, key: u64, m: Move) -> (VariantPosition, u64) {
        let incremental =
            pos.update_zobrist_hash::<Zobrist64>(Zobrist64(key), m, EnPassantMode::Legal);
        let mut child = pos.clone();
        child.play_unchecked(m);
        let child_key = incremental.map_or_else(|| hash(&child), |z| z.0);
        (child, child_key)
    }

    /// The position after `m` (played at `ply`), its key when `key` is
    /// given (0 otherwise), and what the move risks by itself: in
    /// minesweeper a blast played out; a step where a bomb may lie either
    /// both ways (when `gamble`) or as its expected loss. Elsewhere nothing.
    pub(super) fn play(
        &self,
        pos: &VariantPosition,
        key: Option<u64>,
        m: Move,
        ply: usize,
        gamble: bool,
    ) -> Played {
        let (child, child_key) = match key {
            Some(key) => self.child(pos, key, m),
            None => {
                let mut child = pos.clone();
                child.play_unchecked(m);
                (child, 0)
            }
        };
        let Some((mines, role, to)) = self.mines.zip(landing(m)).map(|(x, (r, t))| (x, r, t))
        else {
            return Played::Board(child, child_key, 0);
        };
        let blasted = |child: &VariantPosition| -> Option<Aftermath> {
            let won = MATE - i32::try_from(ply + 1).unwrap_or(0);
            Some(match blast(child, to, mines.modest)? {
                Blasted::Board(next) => {
                    let next_key = key.map_or(0, |_| hash(&next));
                    Aftermath::Board(next, next_key)
                }
                Blasted::Won => Aftermath::Over(won),
                Blasted::Lost => Aftermath::Over(-won),
                Blasted::Drawn => Aftermath::Over(0),
            })
        };
        match mines.arrival(pos.board(), pos.turn(), role, to) {
            Arrival::Clear => Played::Board(child, child_key, 0),
            Arrival::Risk { cost, chance } => match blasted(&child).filter(|_| gamble) {
                Some(blasted) => Played::Gamble {
                    calm: child,
                    key: child_key,
                    chance,
                    blasted,
                },
                None => Played::Board(child, child_key, cost),
            },
            Arrival::Blast => match blasted(&child) {
                Some(Aftermath::Board(next, next_key)) => Played::Board(next, next_key, 0),
                Some(Aftermath::Over(score)) => Played::Over(score),
                None => {
                    let loss = mines.blast_loss(pos.board(), pos.turn(), role, to);
                    Played::Board(child, child_key, loss.min(3000))
                }
            },
        }
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

/// A move played in the search.
pub(super) enum Played {
    /// The position after it, its key, and what the move cost its mover.
    Board(VariantPosition, u64, i32),
    /// A step where a bomb may lie, both ways: the position if none
    /// (`calm`, `key`), the chance of one in thousandths, and the blast.
    Gamble {
        calm: VariantPosition,
        key: u64,
        chance: i32,
        blasted: Aftermath,
    },
    /// A blast ended the game: the score for the mover.
    Over(i32),
}

/// What a blast leaves: a board (and its key) or a finished game (the
/// score for the mover).
pub(super) enum Aftermath {
    Board(VariantPosition, u64),
    Over(i32),
}

/// How a move's score follows from its child's: less a fixed cost, or mixed
/// with the score of a blast by its chance.
#[derive(Clone, Copy)]
struct Mix {
    /// The chance of the blast, in thousandths (0: none).
    chance: i32,
    /// The score for the mover if the blast happens.
    blasted: i32,
    /// What the move costs whatever happens.
    cost: i32,
}

impl Mix {
    fn cost(cost: i32) -> Mix {
        Mix {
            chance: 0,
            blasted: 0,
            cost,
        }
    }

    /// The move's score when the calm child scores `calm` for the mover.
    fn value(self, calm: i32) -> i32 {
        let (c, calm, blasted) = (
            i64::from(self.chance),
            i64::from(calm),
            i64::from(self.blasted),
        );
        let mixed = ((1000 - c) * calm + c * blasted).div_euclid(1000);
        i32::try_from(mixed).unwrap_or(0) - self.cost
    }

    /// The window for the calm child's score that gives the move's score
    /// the window (`low`, `high`).
    fn window(self, low: i32, high: i32) -> (i32, i32) {
        if self.chance == 0 {
            return (low + self.cost, high + self.cost);
        }
        let back = |v: i32, up: bool| {
            let c = i64::from(self.chance);
            let top = (i64::from(v) + i64::from(self.cost)) * 1000 - c * i64::from(self.blasted);
            let q = top.div_euclid(1000 - c) + i64::from(up && top.rem_euclid(1000 - c) != 0);
            i32::try_from(q.clamp(-i64::from(INFINITY), i64::from(INFINITY))).unwrap_or(0)
        };
        let (low, high) = (back(low, false), back(high, true));
        (low, high.max(low + 1))
    }
}

/// The piece that arrives somewhere with a move, and where (none for castling,
/// which stays on the mover's own back rank).
fn landing(m: Move) -> Option<(shakmaty::Role, shakmaty::Square)> {
    match m {
        Move::Normal { role, to, .. } | Move::Put { role, to } => Some((role, to)),
        Move::EnPassant { to, .. } => Some((shakmaty::Role::Pawn, to)),
        Move::Castle { .. } => None,
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
