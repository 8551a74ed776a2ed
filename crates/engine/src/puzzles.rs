//! An exhaustive solver for short forced wins, apart from the search: it checks what the tests and measurements expect of the engine.

use shakmaty::variant::VariantPosition;
use shakmaty::{KnownOutcome, Move, Outcome, Position};

use crate::position::EnginePosition;

/// A first move with which the side to move wins by force within `moves` of
/// its own moves (a mate, a king blown up, a variant's goal), found by trying
/// every line; `None` when there is none. Costly beyond three moves.
pub fn forced_win(position: &EnginePosition, moves: u32) -> Option<String> {
    let pos = &position.pos;
    let mut first = None;
    for depth in 1..=moves {
        first = winning_move(pos, depth);
        if first.is_some() {
            break;
        }
    }
    first.map(|m| m.to_uci(position.mode).to_string())
}

/// A move of the side to move that wins within `depth` of its moves.
fn winning_move(pos: &VariantPosition, depth: u32) -> Option<Move> {
    let us = pos.turn();
    pos.legal_moves().into_iter().find(|&m| {
        let mut child = pos.clone();
        child.play_unchecked(m);
        wins(&child, us, depth)
    })
}

/// Whether `us` wins from `pos` (the opponent to move) within `depth` of our
/// moves; a reply that ends the game for us (antichess) counts too.
fn wins(pos: &VariantPosition, us: shakmaty::Color, depth: u32) -> bool {
    if let Some(winner) = decided(pos) {
        return winner == Some(us);
    }
    let replies = pos.legal_moves();
    replies.iter().all(|&reply| {
        let mut after = pos.clone();
        after.play_unchecked(reply);
        match decided(&after) {
            Some(winner) => winner == Some(us),
            None => depth > 1 && winning_move(&after, depth - 1).is_some(),
        }
    })
}

/// `Some(winner)` (`Some(None)`: a draw) when the game is over.
fn decided(pos: &VariantPosition) -> Option<Option<shakmaty::Color>> {
    match pos.outcome() {
        Outcome::Known(KnownOutcome::Decisive { winner }) => Some(Some(winner)),
        Outcome::Known(KnownOutcome::Draw) => Some(None),
        Outcome::Unknown => None,
    }
}

/// Whether playing `uci` keeps a forced win for the side to move within
/// `moves` of its own moves (this one included).
pub fn move_wins(position: &EnginePosition, uci: &str, moves: u32) -> bool {
    let Some(after) = position.play_uci(uci) else {
        return false;
    };
    wins(&after.pos, position.pos.turn(), moves)
}
