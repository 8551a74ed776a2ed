//! Material values and piece-square bonuses (our own, written as formulas of rank, file and centre distance).

use shakmaty::{Bitboard, Board, Color, Role, Square};

/// Orthodox piece values in centipawns; the king counts nothing here.
pub(crate) fn value_of(role: Role) -> i32 {
    match role {
        Role::Pawn => 100,
        Role::Knight => 320,
        Role::Bishop => 330,
        Role::Rook => 500,
        Role::Queen => 950,
        Role::King => 0,
    }
}

/// How far the game is from its end: 24 with every minor, rook and queen on
/// the board, 0 with none left.
pub(crate) fn phase(board: &Board) -> i32 {
    let minors = (board.knights() | board.bishops()).count();
    let rooks = board.rooks().count();
    let queens = board.queens().count();
    i32::try_from(minors + 2 * rooks + 4 * queens)
        .unwrap_or(24)
        .min(24)
}

/// The rank counted from `color`'s side (0 = its first rank).
pub(crate) fn relative_rank(color: Color, square: Square) -> i32 {
    let rank = i32::from(u8::from(square.rank()));
    match color {
        Color::White => rank,
        Color::Black => 7 - rank,
    }
}

/// How central a square is: 1 in a corner, 7 on the four centre squares.
pub(crate) fn centrality(square: Square) -> i32 {
    let file = i32::from(u8::from(square.file()));
    let rank = i32::from(u8::from(square.rank()));
    let along = |x: i32| if x < 4 { x } else { 7 - x };
    along(file) + along(rank) + 1
}

/// The bonus of a piece of `color` and `role` on `square`, blended between
/// the middle game (`phase` 24) and the end (`phase` 0).
pub(crate) fn square_bonus(color: Color, role: Role, square: Square, phase: i32) -> i32 {
    let rank = relative_rank(color, square);
    let file = i32::from(u8::from(square.file()));
    let centre = centrality(square);
    let (middle, end) = match role {
        Role::Pawn => {
            let central = if (2..=5).contains(&file) {
                (rank - 1) * 5
            } else {
                0
            };
            (rank * 4 + central, rank * rank * 3)
        }
        Role::Knight => ((centre - 4) * 9, (centre - 4) * 6),
        Role::Bishop => ((centre - 4) * 4, (centre - 4) * 3),
        Role::Rook => (
            if rank == 6 { 20 } else { 0 } + i32::from((3..=4).contains(&file)) * 6,
            0,
        ),
        Role::Queen => ((centre - 4) * 2 - i32::from(rank > 1) * 4, (centre - 4) * 4),
        Role::King => (king_home(rank, file), (centre - 4) * 10),
    };
    (middle * phase + end * (24 - phase)) / 24
}

/// A king's middle-game bonus: sheltered on its first rank, towards a corner.
pub(crate) fn king_home(rank: i32, file: i32) -> i32 {
    if rank > 0 {
        return -18 * rank;
    }
    match file {
        1 | 2 | 6 => 24,
        0 | 7 => 14,
        _ => 0,
    }
}

/// Material and squares of one side with `values`, blended by `phase`.
pub(crate) fn side_score(board: &Board, color: Color, phase: i32, values: fn(Role) -> i32) -> i32 {
    let mut score = 0;
    for square in board.by_color(color) {
        if let Some(role) = board.role_at(square) {
            score += values(role) + square_bonus(color, role, square, phase);
        }
    }
    if (board.bishops() & board.by_color(color)).count() >= 2 {
        score += 30;
    }
    score - doubled_pawns(board.pawns() & board.by_color(color)) * 15
}

/// How many pawns stand behind another of their side on the same file.
fn doubled_pawns(pawns: Bitboard) -> i32 {
    let mut doubled = 0;
    for file in shakmaty::File::ALL {
        let on_file = (pawns & Bitboard::from_file(file)).count();
        doubled += i32::try_from(on_file.saturating_sub(1)).unwrap_or(0);
    }
    doubled
}

/// Chebyshev distance between two squares.
pub(crate) fn distance(a: Square, b: Square) -> i32 {
    i32::try_from(a.distance(b)).unwrap_or(7)
}
