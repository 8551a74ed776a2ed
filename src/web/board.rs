//! The board as the page draws it: 64 squares in display order with their pieces and marks.

use slowfuse_rules::{BoardArray, Color, Game, PlyMarks, Pocket, Role};

/// One square of the drawn board.
#[derive(Clone, Debug)]
pub struct SquareView {
    /// Algebraic name, e.g. `e4`.
    pub name: &'static str,
    pub dark: bool,
    /// Piece code such as `wK`, used for the image file name.
    pub piece: Option<&'static str>,
    /// Words for the image's alt text, e.g. `white king`; empty for an empty square.
    pub piece_name: &'static str,
    pub last_move: bool,
    pub check: bool,
    /// Atomic: the square was cleared by the explosion of the move that led here.
    pub exploded: bool,
    /// Rank digit shown on the left edge, file letter shown on the bottom edge.
    pub rank_label: Option<char>,
    pub file_label: Option<char>,
    /// Minesweeper: what the reader may know of the square (nothing on other boards).
    pub mine: MineMarks,
}

/// What a minesweeper square shows its reader: one of their own bombs (or, after the end, any
/// bomb), a bomb that went off, and the count they were told there. Never another reader's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MineMarks {
    pub bomb: bool,
    pub spent: bool,
    pub count: Option<u8>,
}

/// The whole board as drawn, from one player's side.
#[derive(Clone, Debug)]
pub struct BoardView {
    pub squares: Vec<SquareView>,
    pub orientation: &'static str,
}

/// One kind of piece in a pocket as drawn beside the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PocketPiece {
    /// Piece code such as `wN` (the image and `data-piece`).
    pub code: String,
    /// Words for screen readers, e.g. `white knight`.
    pub name: String,
    pub count: u8,
}

/// A pocket as drawn: whose it is (`white` or `black`) and its pieces, strongest first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PocketView {
    pub color: &'static str,
    pub pieces: Vec<PocketPiece>,
}

/// Where the images of a piece set are served from.
pub fn piece_base(set: &str) -> &'static str {
    match set {
        "flat" => "/static/pieces/flat/",
        "letters" => "/static/pieces/letters/",
        _ => "/static/pieces/",
    }
}

/// The kinds a pocket holds, strongest first (the order of FEN pockets).
const POCKET_ORDER: [Role; 5] = [
    Role::Queen,
    Role::Rook,
    Role::Bishop,
    Role::Knight,
    Role::Pawn,
];

/// `pocket` of `color` as drawn (only the kinds held).
pub fn pocket_view(pocket: &Pocket, color: Color) -> PocketView {
    let (prefix, word) = match color {
        Color::White => ('w', "white"),
        Color::Black => ('b', "black"),
    };
    PocketView {
        color: word,
        pieces: POCKET_ORDER
            .into_iter()
            .filter(|&role| pocket.count(role) > 0)
            .map(|role| PocketPiece {
                code: format!("{prefix}{}", role_letter(role)),
                name: format!("{word} {}", role_word(role)),
                count: pocket.count(role),
            })
            .collect(),
    }
}

/// Pieces in hand as letters in FEN order, upper case, e.g. `QNPP`; empty when none.
pub fn pocket_letters(pocket: &Pocket) -> String {
    POCKET_ORDER
        .into_iter()
        .flat_map(|role| std::iter::repeat_n(role_letter(role), usize::from(pocket.count(role))))
        .collect()
}

fn role_letter(role: Role) -> char {
    match role {
        Role::Pawn => 'P',
        Role::Knight => 'N',
        Role::Bishop => 'B',
        Role::Rook => 'R',
        Role::Queen => 'Q',
        Role::King => 'K',
    }
}

fn role_word(role: Role) -> &'static str {
    match role {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    }
}

/// The names of the 64 squares, index 0 = a1, 7 = h1, 63 = h8.
pub const SQUARE_NAMES: [&str; 64] = [
    "a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1", "a2", "b2", "c2", "d2", "e2", "f2", "g2", "h2",
    "a3", "b3", "c3", "d3", "e3", "f3", "g3", "h3", "a4", "b4", "c4", "d4", "e4", "f4", "g4", "h4",
    "a5", "b5", "c5", "d5", "e5", "f5", "g5", "h5", "a6", "b6", "c6", "d6", "e6", "f6", "g6", "h6",
    "a7", "b7", "c7", "d7", "e7", "f7", "g7", "h7", "a8", "b8", "c8", "d8", "e8", "f8", "g8", "h8",
];

/// A piece's code (`wK`, the image's file name) and its words (`white king`); written out
/// once, so drawing a board allocates nothing per square.
fn piece_code_and_name(color: Color, role: Role) -> (&'static str, &'static str) {
    match (color, role) {
        (Color::White, Role::King) => ("wK", "white king"),
        (Color::White, Role::Queen) => ("wQ", "white queen"),
        (Color::White, Role::Rook) => ("wR", "white rook"),
        (Color::White, Role::Bishop) => ("wB", "white bishop"),
        (Color::White, Role::Knight) => ("wN", "white knight"),
        (Color::White, Role::Pawn) => ("wP", "white pawn"),
        (Color::Black, Role::King) => ("bK", "black king"),
        (Color::Black, Role::Queen) => ("bQ", "black queen"),
        (Color::Black, Role::Rook) => ("bR", "black rook"),
        (Color::Black, Role::Bishop) => ("bB", "black bishop"),
        (Color::Black, Role::Knight) => ("bN", "black knight"),
        (Color::Black, Role::Pawn) => ("bP", "black pawn"),
    }
}

/// Draws the position after `ply` moves of `game`, seen from `side`, with the move that led
/// there, the king in check and the squares an atomic explosion cleared.
pub fn board_view(game: &Game, ply: u32, side: Color) -> BoardView {
    let pieces = game.board_at(ply).unwrap_or([None; 64]);
    let marks = game.marks_at(ply).unwrap_or_default();
    draw_squares(&pieces, &marks, side)
}

/// Draws `pieces` with `marks` (the last move, the king in check, cleared squares), seen
/// from `side`: any board, also one of a bughouse match.
pub fn draw_squares(pieces: &BoardArray, marks: &PlyMarks, side: Color) -> BoardView {
    let last = marks.from_to;
    let (ranks, files): (Vec<u8>, Vec<u8>) = match side {
        Color::White => ((0..8).rev().collect(), (0..8).collect()),
        Color::Black => ((0..8).collect(), (0..8).rev().collect()),
    };
    let mut squares = Vec::with_capacity(64);
    for (row, &rank) in ranks.iter().enumerate() {
        for (col, &file) in files.iter().enumerate() {
            let index = rank * 8 + file;
            let piece = pieces[usize::from(index)];
            let is_last = last.is_some_and(|(from, to)| from == index || to == index);
            let in_check = marks.check == Some(index);
            let drawn = piece.map(|(c, r)| piece_code_and_name(c, r));
            squares.push(SquareView {
                name: SQUARE_NAMES[usize::from(index)],
                dark: (rank + file) % 2 == 0,
                piece: drawn.map(|(code, _)| code),
                piece_name: drawn.map_or("", |(_, name)| name),
                last_move: is_last,
                check: in_check,
                exploded: marks.exploded.contains(&index),
                rank_label: (col == 0).then(|| (b'1' + rank) as char),
                file_label: (row == 7).then(|| (b'a' + file) as char),
                mine: MineMarks::default(),
            });
        }
    }
    BoardView {
        squares,
        orientation: if side == Color::White {
            "white"
        } else {
            "black"
        },
    }
}
