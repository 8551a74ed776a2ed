//! Quiescence: captures and promotions searched until the position is quiet, and the quick look at every move that the levels' deliberate errors use.

use shakmaty::variant::VariantPosition;
use shakmaty::{Move, Position};

use super::{INFINITY, Played, Searcher, outcome_score};
use crate::eval::evaluate;
use crate::ordering::{MAX_PLY, is_tactical, tactical_gain};
use crate::position::Kind;

/// How many captures deep quiescence goes at most.
const QUIESCENCE_PLIES: usize = 10;

impl Searcher<'_> {
    /// Captures and promotions until the position is quiet (every move when
    /// in check; in antichess no standing pat while a capture is forced).
    pub(super) fn quiesce(
        &mut self,
        pos: &VariantPosition,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        qply: usize,
    ) -> i32 {
        self.nodes += 1;
        if self.out_of_budget() {
            return 0;
        }
        if pos.is_variant_end() {
            return outcome_score(pos.variant_outcome(), pos, ply);
        }
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return outcome_score(pos.outcome(), pos, ply);
        }
        let in_check = self.checks_matter() && pos.is_check();
        let forced = self.kind == Kind::Antichess && moves.iter().any(|m| m.is_capture());
        let stand = evaluate(self.kind, pos);
        if qply >= QUIESCENCE_PLIES || ply >= MAX_PLY {
            return stand;
        }
        let mut best = -INFINITY;
        if !in_check && !forced {
            if stand >= beta {
                return stand;
            }
            alpha = alpha.max(stand);
            best = stand;
        }
        let board = pos.board();
        let mut candidates: Vec<(i32, Move)> = moves
            .iter()
            .filter(|m| {
                in_check || forced || (is_tactical(**m) && !is_underpromotion(**m, self.kind))
            })
            .map(|&m| (tactical_gain(m, self.kind, board), m))
            .collect();
        candidates.sort_by_key(|c| std::cmp::Reverse(c.0));
        for (_, m) in candidates {
            let score = match self.play(pos, None, m, ply, false) {
                Played::Board(child, _, cost) => {
                    -self.quiesce(&child, -beta - cost, -alpha - cost, ply + 1, qply + 1) - cost
                }
                Played::Over(score) => score,
                Played::Gamble { .. } => unreachable!("no gamble without asking"),
            };
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
            }
            if score > alpha {
                alpha = score;
            }
            if alpha >= beta {
                break;
            }
        }
        best
    }

    /// The quick score of each move (one ply and at most three plies of
    /// captures, 64 nodes a move), for levels that choose a worse move on
    /// purpose.
    pub(crate) fn shallow_scores(&mut self, root: &VariantPosition) -> Vec<(Move, i32)> {
        root.legal_moves()
            .into_iter()
            .map(|m| {
                self.stopped = false;
                self.budget.nodes = self.nodes + 64;
                let score = match self.play(root, None, m, 0, false) {
                    Played::Board(child, _, cost) => {
                        -self.quiesce(&child, -INFINITY, INFINITY, 1, QUIESCENCE_PLIES - 3) - cost
                    }
                    Played::Over(score) => score,
                    Played::Gamble { .. } => unreachable!("no gamble without asking"),
                };
                (m, score)
            })
            .collect()
    }
}

fn is_underpromotion(m: Move, kind: Kind) -> bool {
    kind != Kind::Antichess && m.promotion().is_some_and(|r| r != shakmaty::Role::Queen)
}
