//! Antichess (giveaway): fewer pieces is better (more so near the end), pieces the enemy must take are a gift, captures we are forced into cost a tempo.

use shakmaty::{Board, Color, Role};

/// A piece's burden in antichess: a piece that can be given away easily
/// (a pawn, a long-range piece) weighs less than one that is hard to lose.
fn burden(role: Role) -> i32 {
    match role {
        Role::Pawn => 70,
        Role::Knight => 110,
        Role::Bishop => 100,
        Role::Rook => 120,
        Role::Queen => 90,
        Role::King => 130,
    }
}

/// The position's worth from White's side; `to_move` has the move.
pub(crate) fn evaluate(board: &Board, to_move: Color) -> i32 {
    let white = side(board, Color::White, to_move);
    let black = side(board, Color::Black, to_move);
    black - white
}

/// How badly `color` stands: the weight of its pieces (more so with few
/// pieces left), less the pieces the enemy will have to take.
fn side(board: &Board, color: Color, to_move: Color) -> i32 {
    let total = i32::try_from(board.occupied().count()).unwrap_or(32);
    let endgame = 1 + (20 - total).max(0) / 6;
    let occupied = board.occupied();
    let mut weight = 0;
    let mut offered = 0;
    let mut must_take = 0;
    for square in board.by_color(color) {
        let Some(role) = board.role_at(square) else {
            continue;
        };
        weight += burden(role) * endgame;
        if !board.attacks_to(square, !color, occupied).is_empty() {
            offered += 1;
        }
        if !(board.attacks_from(square) & board.by_color(!color)).is_empty() {
            must_take += 1;
        }
    }
    let tempo = if to_move == color { 25 } else { 10 };
    weight - offered * 20 + must_take * tempo
}
