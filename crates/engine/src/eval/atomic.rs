//! Atomic chess: material valued for explosions, each king's danger from captures next to it, and connected kings.
//!
//! A capture on a square next to a king blows that king up, so a side's own
//! pieces standing next to its king are a liability when the enemy attacks
//! them, and enemy pieces next to the enemy king that we attack are a threat.
//! Kings that touch cannot be blown up by a capture next to either of them
//! (it would blow up the capturer's king too): the danger terms then vanish.
//! The explosions themselves are found by the search.

use shakmaty::attacks::king_attacks;
use shakmaty::{Board, Color, Role};

use super::material::{phase, side_score};

/// Piece values in atomic: a knight reaches fewer king squares and trades
/// itself away in any capture, so it counts less; the queen more.
pub(crate) fn value_of(role: Role) -> i32 {
    match role {
        Role::Pawn => 100,
        Role::Knight => 230,
        Role::Bishop => 320,
        Role::Rook => 460,
        Role::Queen => 1000,
        Role::King => 0,
    }
}

/// The position's worth from White's side.
pub(crate) fn evaluate(board: &Board) -> i32 {
    let phase = phase(board);
    let material = side_score(board, Color::White, phase, value_of)
        - side_score(board, Color::Black, phase, value_of);
    material - danger(board, Color::White) + danger(board, Color::Black)
}

/// How exposed `color`'s king is to an explosion.
fn danger(board: &Board, color: Color) -> i32 {
    let (Some(king), Some(enemy_king)) = (board.king_of(color), board.king_of(!color)) else {
        return 0;
    };
    let ring = king_attacks(king);
    if ring.contains(enemy_king) {
        return -40; // connected kings: a defensive resource
    }
    let occupied = board.occupied();
    let enemy = board.by_color(!color) & !board.kings();
    let mut danger = 0;
    for square in ring {
        let attackers = board.attacks_to(square, !color, occupied) & enemy;
        if attackers.is_empty() {
            continue;
        }
        if board.by_color(color).contains(square) {
            // Our piece next to our king that they can capture: the blast takes the king.
            danger += 170;
        } else {
            // An empty or enemy square they attack next to our king.
            danger += 18;
        }
    }
    // Their queen near our king is the usual attacker.
    let queens = board.queens() & board.by_color(!color);
    for queen in queens {
        if queen.distance(king) <= 3 {
            danger += 30;
        }
    }
    danger
}
