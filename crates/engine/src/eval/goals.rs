//! Variants won by a goal besides mate: king of the hill (king to the centre), three-check (checks given), racing kings (king rank), horde (the pawns' advance).

use shakmaty::attacks::king_attacks;
use shakmaty::variant::VariantPosition;
use shakmaty::{Bitboard, Board, Color, Position, Role, Square};

use super::material::{distance, phase, relative_rank, side_score, value_of};
use super::standard;

/// King of the hill from White's side: standard terms plus each king's
/// nearness to d4, e4, d5 and e5.
pub(crate) fn king_of_the_hill(board: &Board) -> i32 {
    standard(board) + hill(board, Color::White) - hill(board, Color::Black)
}

fn hill(board: &Board, color: Color) -> i32 {
    let Some(king) = board.king_of(color) else {
        return 0;
    };
    let centre = [Square::D4, Square::E4, Square::D5, Square::E5];
    let steps = centre
        .iter()
        .map(|&sq| distance(king, sq))
        .min()
        .unwrap_or(7);
    match steps {
        0 => 2000,
        1 => 180,
        2 => 80,
        3 => 25,
        _ => 0,
    }
}

/// Three-check from White's side: standard terms, the checks each side has
/// given, and the open squares around each king.
pub(crate) fn three_check(pos: &VariantPosition) -> i32 {
    let board = pos.board();
    let mut score = standard(board);
    if let Some(remaining) = pos.remaining_checks() {
        for color in Color::ALL {
            let left = u32::from(*remaining.get(color));
            let given = match left {
                0 => 3000,
                1 => 500,
                2 => 150,
                _ => 0,
            };
            score += if color == Color::White { given } else { -given };
        }
    }
    score - exposure(board, Color::White) + exposure(board, Color::Black)
}

/// How open a king is: enemy pieces' attacks on the squares around it.
fn exposure(board: &Board, color: Color) -> i32 {
    let Some(king) = board.king_of(color) else {
        return 0;
    };
    let zone = king_attacks(king) | Bitboard::from(king);
    let mut hits = 0;
    for square in zone {
        hits += board.attacks_to(square, !color, board.occupied()).count();
    }
    i32::try_from(hits).unwrap_or(0) * 14
}

/// Racing kings from White's side: material, and each king's rank (both
/// race to the eighth), less for a king whose next step up is covered.
pub(crate) fn racing_kings(board: &Board) -> i32 {
    let material = side_score(board, Color::White, phase(board), value_of)
        - side_score(board, Color::Black, phase(board), value_of);
    material + race(board, Color::White) - race(board, Color::Black)
}

fn race(board: &Board, color: Color) -> i32 {
    let Some(king) = board.king_of(color) else {
        return 0;
    };
    let rank = i32::from(u8::from(king.rank()));
    let ahead: Bitboard = king_attacks(king)
        .into_iter()
        .filter(|sq| sq.rank() > king.rank())
        .collect();
    let blocked = ahead
        .into_iter()
        .filter(|&sq| !board.attacks_to(sq, !color, board.occupied()).is_empty())
        .count();
    rank * rank * 14 + rank * 40 - i32::try_from(blocked).unwrap_or(0) * 25
}

/// Horde from White's side: standard terms, plus the advance of the white
/// pawns (a pawn near promotion is a queen soon).
pub(crate) fn horde(board: &Board) -> i32 {
    let mut advance = 0;
    for square in board.by_color(Color::White) & board.pawns() {
        let rank = relative_rank(Color::White, square);
        advance += rank * rank * 2;
    }
    standard(board) + advance + crowding(board)
}

/// White's pawns count a little less each when there are many (they block each other).
fn crowding(board: &Board) -> i32 {
    let pawns = (board.by_color(Color::White) & board.by_role(Role::Pawn)).count();
    -(i32::try_from(pawns.saturating_sub(20)).unwrap_or(0)) * 20
}
