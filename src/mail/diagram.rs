//! A small board for mails: a text diagram for the plain part, a table of squares for HTML.

use slowfuse_rules::Color;

/// One square of the HTML board.
#[derive(Clone, Debug)]
pub struct DiagramSquare {
    /// The piece as a chess symbol (♔…♟), or a space.
    pub glyph: char,
    pub dark: bool,
}

/// The board of a position seen from one side.
#[derive(Clone, Debug)]
pub struct Diagram {
    /// Eight rows from the viewer's far side, each with its rank digit.
    pub rows: Vec<(char, Vec<DiagramSquare>)>,
    /// The file letters from the viewer's left.
    pub files: Vec<char>,
    /// The same board as monospaced text: ranks, files, `.` for empty squares, and the pieces
    /// in hand under it (crazyhouse).
    pub text: String,
    /// Crazyhouse: the pieces in hand, e.g. `In hand — White: Q N; Black: nothing`.
    pub pockets: Option<String>,
    /// The address of the same position as a picture (the game's PNG at that ply), linked
    /// under the HTML board.
    pub picture: Option<String>,
}

/// Draws the board part of `fen` (the first field; promotion marks are left out) from `side`'s
/// point of view, with crazyhouse pockets (`[QNn]` or a ninth `/` part) listed under it. A
/// malformed field draws empty squares.
pub fn diagram(fen: &str, side: Color) -> Diagram {
    let board = parse_board(fen);
    let ranks: Vec<usize> = match side {
        Color::White => (0..8).rev().collect(),
        Color::Black => (0..8).collect(),
    };
    let files: Vec<usize> = match side {
        Color::White => (0..8).collect(),
        Color::Black => (0..8).rev().collect(),
    };
    let file_letters: Vec<char> = files.iter().map(|f| (b'a' + *f as u8) as char).collect();
    let mut rows = Vec::new();
    let mut text = String::new();
    for &rank in &ranks {
        let digit = (b'1' + rank as u8) as char;
        text.push(digit);
        text.push(' ');
        let mut squares = Vec::new();
        for &file in &files {
            let piece = board[rank][file];
            text.push(' ');
            text.push(piece.unwrap_or('.'));
            squares.push(DiagramSquare {
                glyph: piece.map_or(' ', symbol),
                dark: (rank + file) % 2 == 0,
            });
        }
        text.push('\n');
        rows.push((digit, squares));
    }
    text.push_str("  ");
    for letter in &file_letters {
        text.push(' ');
        text.push(*letter);
    }
    text.push('\n');
    let pockets = pockets_line(fen);
    if let Some(line) = &pockets {
        text.push_str(line);
        text.push('\n');
    }
    Diagram {
        rows,
        files: file_letters,
        text,
        pockets,
        picture: None,
    }
}

impl Diagram {
    /// The diagram with a link to `url`, its position as a picture.
    pub fn with_picture(self, url: String) -> Diagram {
        Diagram {
            picture: Some(url),
            ..self
        }
    }
}

/// The pieces in hand of a crazyhouse FEN in words; `None` when it has no pockets.
fn pockets_line(fen: &str) -> Option<String> {
    let field = fen.split_whitespace().next().unwrap_or("");
    let letters = match field.split_once('[') {
        Some((_, rest)) => rest.trim_end_matches(']'),
        None => field.split('/').nth(8)?,
    };
    let side = |white: bool| {
        let mut held: Vec<char> = letters
            .chars()
            .filter(|c| c.is_ascii_alphabetic() && c.is_ascii_uppercase() == white)
            .map(|c| c.to_ascii_uppercase())
            .collect();
        let order = |c: &char| "QRBNP".find(*c).unwrap_or(5);
        held.sort_by_key(order);
        if held.is_empty() {
            "nothing".to_string()
        } else {
            held.iter()
                .map(char::to_string)
                .collect::<Vec<_>>()
                .join(" ")
        }
    };
    Some(format!(
        "In hand — White: {}; Black: {}",
        side(true),
        side(false)
    ))
}

/// `board[rank][file]`, rank 0 = the first rank, with FEN letters (uppercase = white).
fn parse_board(fen: &str) -> [[Option<char>; 8]; 8] {
    let mut board = [[None; 8]; 8];
    let field = fen.split_whitespace().next().unwrap_or("");
    let field = field.split('[').next().unwrap_or("");
    for (row, line) in field.split('/').take(8).enumerate() {
        let rank = 7 - row;
        let mut file = 0usize;
        for c in line.chars() {
            if let Some(n) = c.to_digit(10) {
                file += n as usize;
            } else if c.is_ascii_alphabetic() && file < 8 {
                board[rank][file] = Some(c);
                file += 1;
            }
        }
    }
    board
}

fn symbol(piece: char) -> char {
    match piece {
        'K' => '♔',
        'Q' => '♕',
        'R' => '♖',
        'B' => '♗',
        'N' => '♘',
        'P' => '♙',
        'k' => '♚',
        'q' => '♛',
        'r' => '♜',
        'b' => '♝',
        'n' => '♞',
        'p' => '♟',
        _ => '?',
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const AFTER_E4: &str = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";

    #[test]
    fn white_sees_the_board_from_rank_one() {
        let d = diagram(AFTER_E4, Color::White);
        let lines: Vec<&str> = d.text.lines().collect();
        assert_eq!(lines[0], "8  r n b q k b n r");
        assert_eq!(lines[4], "4  . . . . P . . .");
        assert_eq!(lines[7], "1  R N B Q K B N R");
        assert_eq!(lines[8], "   a b c d e f g h");
        assert_eq!(d.rows[7].1[0].glyph, '♖');
        assert!(d.rows[7].1[0].dark, "a1 is dark");
    }

    #[test]
    fn black_sees_it_turned_round_and_pockets_are_listed_under_it() {
        let d = diagram(
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR[Nn] b KQkq - 0 1",
            Color::Black,
        );
        let lines: Vec<&str> = d.text.lines().collect();
        assert_eq!(lines[0], "1  R N B K Q B N R");
        assert_eq!(lines[3], "4  . . . P . . . .");
        assert_eq!(lines[4], "5  . . . . . . . .");
        let slash_pocket = diagram(
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR/Nn b KQkq - 0 1",
            Color::White,
        );
        let bracket_pocket = diagram(
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR[Nn] b KQkq - 0 1",
            Color::White,
        );
        assert_eq!(slash_pocket.text, bracket_pocket.text);
        assert_eq!(
            bracket_pocket.pockets.as_deref(),
            Some("In hand — White: N; Black: N")
        );
        assert!(
            bracket_pocket
                .text
                .ends_with("In hand — White: N; Black: N\n")
        );
        assert_eq!(diagram(AFTER_E4, Color::White).pockets, None);
        assert_eq!(lines[8], "   h g f e d c b a");
        assert!(diagram("garbage", Color::White).text.contains(". . . ."));
    }
}
