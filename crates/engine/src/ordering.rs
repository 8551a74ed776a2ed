//! Move ordering: the hash move first, then captures by victim and attacker (in atomic by what the blast takes), promotions, killer moves and the history of cut-offs.

use shakmaty::attacks::king_attacks;
use shakmaty::{Board, Color, Move, Role};

use crate::eval::material::value_of;
use crate::position::{Kind, idx};

/// The deepest ply the search keeps killers for.
pub(crate) const MAX_PLY: usize = 128;

/// What the search learned about quiet moves: two killers per ply and a
/// history score per (origin, target).
pub(crate) struct Ordering {
    killers: Vec<[Option<Move>; 2]>,
    history: Vec<[i32; 64]>,
}

impl Ordering {
    pub(crate) fn new() -> Ordering {
        Ordering {
            killers: vec![[None; 2]; MAX_PLY + 1],
            history: vec![[0; 64]; 71],
        }
    }

    /// Remembers a quiet move that caused a cut-off at `ply` with `depth` left.
    pub(crate) fn reward(&mut self, m: Move, ply: usize, depth: i32) {
        let ply = ply.min(MAX_PLY);
        if self.killers[ply][0] != Some(m) {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = Some(m);
        }
        let cell = &mut self.history[origin(m)][idx(m.to())];
        *cell = (*cell + depth * depth).min(1 << 20);
    }

    /// Sorts `moves` best first for the node at `ply`.
    pub(crate) fn sort(
        &self,
        moves: &mut [Move],
        kind: Kind,
        board: &Board,
        hash_move: Option<Move>,
        ply: usize,
    ) {
        let ply = ply.min(MAX_PLY);
        let mut keyed: Vec<(i32, Move)> = moves
            .iter()
            .map(|&m| (self.score(m, kind, board, hash_move, ply), m))
            .collect();
        keyed.sort_by_key(|k| std::cmp::Reverse(k.0));
        for (slot, (_, m)) in moves.iter_mut().zip(keyed) {
            *slot = m;
        }
    }

    fn score(
        &self,
        m: Move,
        kind: Kind,
        board: &Board,
        hash_move: Option<Move>,
        ply: usize,
    ) -> i32 {
        if Some(m) == hash_move {
            return 10_000_000;
        }
        if is_tactical(m) {
            return 1_000_000 + tactical_gain(m, kind, board);
        }
        if self.killers[ply][0] == Some(m) {
            return 900_000;
        }
        if self.killers[ply][1] == Some(m) {
            return 800_000;
        }
        self.history[origin(m)][idx(m.to())]
    }
}

/// Captures and promotions: what quiescence searches.
pub(crate) fn is_tactical(m: Move) -> bool {
    m.is_capture() || m.is_promotion()
}

/// A rough gain for ordering captures: most valuable victim, least valuable
/// attacker; in atomic, what the explosion removes of each side.
pub(crate) fn tactical_gain(m: Move, kind: Kind, board: &Board) -> i32 {
    let promotion = m.promotion().map_or(0, value_of);
    let Some(victim) = m.capture() else {
        return promotion;
    };
    if kind == Kind::Atomic {
        let mover = board
            .color_at(m.from().unwrap_or(m.to()))
            .unwrap_or(Color::White);
        return blast_gain(board, mover, m) + promotion;
    }
    let attacker = value_of(m.role()) / 10;
    10 * value_of(victim) - attacker + promotion
}

/// In atomic: the enemy material a capture on `m.to()` destroys less ours
/// (our capturing piece included), a king far above all.
fn blast_gain(board: &Board, mover: Color, m: Move) -> i32 {
    let mut gain = -value_of(m.role());
    let to = m.to();
    if let Some(victim) = m.capture() {
        gain += value_of(victim);
    }
    for square in king_attacks(to) {
        let Some(piece) = board.piece_at(square) else {
            continue;
        };
        if piece.role == Role::Pawn {
            continue; // pawns survive a neighbouring blast
        }
        let value = if piece.role == Role::King {
            100_000
        } else {
            value_of(piece.role)
        };
        gain += if piece.color == mover { -value } else { value };
    }
    gain
}

/// The history row of a move: its origin square, or 64 + role for a drop.
fn origin(m: Move) -> usize {
    match m.from() {
        Some(from) => idx(from),
        None => 64 + (m.role() as usize),
    }
}
