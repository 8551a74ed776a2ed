//! The evaluation: one function per variant, each scoring a quiet position for the side to move in centipawns.

pub(crate) mod antichess;
pub(crate) mod atomic;
pub(crate) mod crazyhouse;
pub(crate) mod goals;
pub(crate) mod material;

use shakmaty::variant::VariantPosition;
use shakmaty::{Board, Color, Position};

use crate::position::Kind;
use material::{centrality, distance, phase, side_score, value_of};

/// A bonus for having the move.
const TEMPO: i32 = 10;

/// The position's worth for the side to move, judged as `kind` plays.
pub(crate) fn evaluate(kind: Kind, pos: &VariantPosition) -> i32 {
    let us = pos.turn();
    let white = match kind {
        Kind::Standard | Kind::Minesweeper => standard(pos.board()),
        Kind::Atomic => atomic::evaluate(pos.board()),
        Kind::Antichess => antichess::evaluate(pos.board(), us),
        Kind::Crazyhouse | Kind::Bughouse => crazyhouse::evaluate(pos),
        Kind::KingOfTheHill => goals::king_of_the_hill(pos.board()),
        Kind::ThreeCheck => goals::three_check(pos),
        Kind::Horde => goals::horde(pos.board()),
        Kind::RacingKings => goals::racing_kings(pos.board()),
    };
    let own = if us == Color::White { white } else { -white };
    own + TEMPO
}

/// Standard chess from White's side: material, squares, and in a won
/// ending the losing king driven to the edge.
pub(crate) fn standard(board: &Board) -> i32 {
    let phase = phase(board);
    let score = side_score(board, Color::White, phase, value_of)
        - side_score(board, Color::Black, phase, value_of);
    score + mop_up(board, score, phase)
}

/// In an ending with a clear lead: the weaker king to the edge, the kings close.
fn mop_up(board: &Board, score: i32, phase: i32) -> i32 {
    if score.abs() < 300 || phase > 10 {
        return 0;
    }
    let (strong, weak) = if score > 0 {
        (Color::White, Color::Black)
    } else {
        (Color::Black, Color::White)
    };
    let (Some(strong_king), Some(weak_king)) = (board.king_of(strong), board.king_of(weak)) else {
        return 0;
    };
    let bonus = (7 - centrality(weak_king)) * 12 + (7 - distance(strong_king, weak_king)) * 6;
    if strong == Color::White {
        bonus
    } else {
        -bonus
    }
}
