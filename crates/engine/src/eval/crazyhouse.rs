//! Crazyhouse (and one bughouse board): pieces in hand count about as on the board, and a king is judged by the drops it must fear.

use shakmaty::attacks::king_attacks;
use shakmaty::variant::VariantPosition;
use shakmaty::{Bitboard, Board, Color, Position, Role};

use super::material::{side_score, value_of};

/// A piece in hand: worth a little more than on the board (it can be
/// dropped anywhere), a pawn most of all.
fn in_hand(role: Role) -> i32 {
    match role {
        Role::Pawn => 130,
        Role::King => 0,
        other => value_of(other) * 11 / 10,
    }
}

/// Board pieces in crazyhouse: minor pieces gain (they return as drops).
fn on_board(role: Role) -> i32 {
    match role {
        Role::Knight => 340,
        Role::Bishop => 340,
        Role::Rook => 470,
        Role::Queen => 880,
        other => value_of(other),
    }
}

/// The position's worth from White's side.
pub(crate) fn evaluate(pos: &VariantPosition) -> i32 {
    let board = pos.board();
    // Pieces come back: the king stays sheltered as in a middle game.
    let mut score = side_score(board, Color::White, 24, on_board)
        - side_score(board, Color::Black, 24, on_board);
    let mut hand = [0i32; 2];
    if let Some(pockets) = pos.pockets() {
        for color in Color::ALL {
            let pocket = pockets.get(color);
            let value: i32 = Role::ALL
                .iter()
                .map(|&r| i32::from(*pocket.get(r)) * in_hand(r))
                .sum();
            let pieces: i32 = Role::ALL.iter().map(|&r| i32::from(*pocket.get(r))).sum();
            hand[color as usize] = pieces;
            score += if color == Color::White { value } else { -value };
        }
    }
    let white_hand = hand[Color::White as usize];
    let black_hand = hand[Color::Black as usize];
    score - king_danger(board, Color::White, black_hand)
        + king_danger(board, Color::Black, white_hand)
}

/// How open `color`'s king is to the enemy's drops and pieces.
fn king_danger(board: &Board, color: Color, enemy_hand: i32) -> i32 {
    let Some(king) = board.king_of(color) else {
        return 0;
    };
    let ring = king_attacks(king);
    let occupied = board.occupied();
    let shelter = i32::try_from((ring & board.by_color(color)).count()).unwrap_or(0);
    let mut attacked = 0;
    let mut holes = 0;
    for square in ring {
        let theirs = !board.attacks_to(square, !color, occupied).is_empty();
        let ours = !board.attacks_to(square, color, occupied).is_empty();
        if theirs {
            attacked += 1;
        }
        if !occupied.contains(square) && !ours {
            holes += 1;
        }
    }
    let pressure = 6 + enemy_hand * 3;
    attacked * pressure + holes * (4 + enemy_hand * 2) - shelter * 12 + edge(king)
}

/// A king off its first two ranks is exposed to drops from every side.
fn edge(king: shakmaty::Square) -> i32 {
    let back = Bitboard::from_rank(shakmaty::Rank::First)
        | Bitboard::from_rank(shakmaty::Rank::Second)
        | Bitboard::from_rank(shakmaty::Rank::Seventh)
        | Bitboard::from_rank(shakmaty::Rank::Eighth);
    if back.contains(king) { 0 } else { 60 }
}
