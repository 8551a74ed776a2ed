//! The small board of the lists (home page, my games, search): a game's current position
//! from one side with its last move marked, drawn from the stored FEN's piece placement alone
//! (no replay, nothing secret), shown as one link to the game (`templates/_mini_board.html`).

use slowfuse_rules::{Color, GameKind};

use crate::usecases::boards::BoardSnapshot;
use crate::usecases::preferences::Preferences;
use crate::web::board::piece_base;

/// One square of a small board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MiniSquare {
    /// Algebraic name, e.g. `e4` (drawn as `data-at`, never `data-square`: that is the game
    /// board's).
    pub name: String,
    pub dark: bool,
    /// The last move left from or arrived on this square.
    pub last: bool,
    /// Piece code such as `wP` (the image's file name).
    pub piece: Option<String>,
}

/// How the viewer likes boards drawn: their theme and piece set (the defaults for visitors).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardLook {
    pub theme: String,
    pub piece_base: &'static str,
}

impl BoardLook {
    /// The look of `prefs`.
    pub fn of(prefs: &Preferences) -> BoardLook {
        BoardLook {
            theme: prefs.board_theme.clone(),
            piece_base: piece_base(&prefs.piece_set),
        }
    }
}

impl Default for BoardLook {
    fn default() -> BoardLook {
        BoardLook::of(&Preferences::default())
    }
}

/// A small board as drawn: a link to the game with its accessible name.
#[derive(Clone, Debug)]
pub struct MiniBoard {
    pub game_id: i64,
    /// The link's accessible name, e.g. `alice vs bob, Atomic, the position now`; for a
    /// captioned board its caption's words, `vs bob, Atomic, 2 days 3 h left`.
    pub label: String,
    pub squares: Vec<MiniSquare>,
    /// `white` or `black`: the side at the bottom.
    pub orientation: &'static str,
    pub theme: String,
    pub piece_base: &'static str,
    /// The visible caption under (or beside) the board: a title and short lines; none when
    /// the board stands alone (a search result's row says the rest).
    pub title: String,
    pub details: Vec<String>,
}

impl MiniBoard {
    /// The board with a visible caption, which is then the link's accessible name too, so that
    /// what is read out (or said to a voice control) is what is seen (WCAG 2.5.3).
    pub fn captioned(mut self, title: String, details: Vec<String>) -> MiniBoard {
        self.label = std::iter::once(&title)
            .chain(&details)
            .map(String::as_str)
            .collect::<Vec<_>>()
            .join(", ");
        self.title = title;
        self.details = details;
        self
    }
}

/// Draws `snapshot` of game `game_id` from `side`, named `label`, in the viewer's `look`.
pub fn mini_board(
    game_id: i64,
    snapshot: &BoardSnapshot,
    side: Color,
    label: String,
    look: &BoardLook,
) -> MiniBoard {
    let pieces = placement(&snapshot.fen);
    let marked = snapshot
        .last_move
        .as_deref()
        .map_or([None, None], move_squares);
    let (ranks, files): (Vec<u8>, Vec<u8>) = match side {
        Color::White => ((0..8).rev().collect(), (0..8).collect()),
        Color::Black => ((0..8).collect(), (0..8).rev().collect()),
    };
    let mut squares = Vec::with_capacity(64);
    for &rank in &ranks {
        for &file in &files {
            let index = rank * 8 + file;
            squares.push(MiniSquare {
                name: format!("{}{}", (b'a' + file) as char, rank + 1),
                dark: (rank + file) % 2 == 0,
                last: marked.contains(&Some(index)),
                piece: pieces[usize::from(index)].map(|(color, letter)| {
                    let prefix = if color == Color::White { 'w' } else { 'b' };
                    format!("{prefix}{letter}")
                }),
            });
        }
    }
    MiniBoard {
        game_id,
        label,
        squares,
        orientation: if side == Color::White {
            "white"
        } else {
            "black"
        },
        theme: look.theme.clone(),
        piece_base: look.piece_base,
        title: String::new(),
        details: Vec::new(),
    }
}

/// The pieces of a FEN's placement field, a1 = 0 … h8 = 63, as (colour, upper-case letter).
/// Only the eight ranks are read: crazyhouse pockets (`[…]` or a ninth rank), promoted marks
/// (`~`) and anything that is not a piece letter or a count of empty squares are skipped.
pub fn placement(fen: &str) -> [Option<(Color, char)>; 64] {
    let mut board = [None; 64];
    let field = fen.split_whitespace().next().unwrap_or("");
    let field = field.split('[').next().unwrap_or("");
    for (row, rank_text) in field.split('/').take(8).enumerate() {
        let rank = 7 - row;
        let mut file = 0usize;
        for c in rank_text.chars() {
            if file >= 8 {
                break;
            }
            if let Some(empty) = c.to_digit(10) {
                file += empty as usize;
            } else if "pnbrqkPNBRQK".contains(c) {
                let color = if c.is_ascii_uppercase() {
                    Color::White
                } else {
                    Color::Black
                };
                board[rank * 8 + file] = Some((color, c.to_ascii_uppercase()));
                file += 1;
            }
        }
    }
    board
}

/// The squares a UCI move touches: from and to (`e2e4`, castling `e1g1` or `e1h1`), or only
/// the target of a drop (`P@e4`).
fn move_squares(uci: &str) -> [Option<u8>; 2] {
    let square = |s: &str| {
        let b = s.as_bytes();
        (b.len() == 2 && (b'a'..=b'h').contains(&b[0]) && (b'1'..=b'8').contains(&b[1]))
            .then(|| (b[1] - b'1') * 8 + (b[0] - b'a'))
    };
    match uci.split_once('@') {
        Some((_, to)) => [None, to.get(..2).and_then(square)],
        None => [
            uci.get(..2).and_then(square),
            uci.get(2..4).and_then(square),
        ],
    }
}

/// A stored variant name as shown: `Atomic`, `King of the Hill`, `Bughouse`; an unknown name
/// with its first letter in capitals.
pub fn variant_words(stored: &str) -> String {
    match stored.parse::<GameKind>() {
        Ok(kind) => kind.display_name().to_string(),
        Err(_) => {
            let mut chars = stored.chars();
            chars.next().map_or_else(String::new, |first| {
                first.to_uppercase().chain(chars).collect::<String>()
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn snapshot(fen: &str, last: Option<&str>) -> BoardSnapshot {
        BoardSnapshot {
            fen: fen.to_string(),
            turn: Color::Black,
            last_move: last.map(str::to_string),
        }
    }

    fn at<'a>(board: &'a MiniBoard, name: &str) -> &'a MiniSquare {
        board.squares.iter().find(|s| s.name == name).unwrap()
    }

    #[test]
    fn the_position_after_e4_from_either_side() {
        let after_e4 = snapshot(
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
            Some("e2e4"),
        );
        let look = BoardLook::default();
        let white = mini_board(7, &after_e4, Color::White, "x".into(), &look);
        assert_eq!(white.squares.len(), 64);
        assert_eq!(white.squares[0].name, "a8");
        assert_eq!(white.squares[63].name, "h1");
        assert_eq!(at(&white, "e4").piece.as_deref(), Some("wP"));
        assert_eq!(at(&white, "e2").piece, None);
        assert!(at(&white, "e2").last && at(&white, "e4").last);
        assert!(!at(&white, "d4").last);
        assert_eq!(at(&white, "e8").piece.as_deref(), Some("bK"));
        assert!(at(&white, "a1").dark && !at(&white, "h1").dark);
        let black = mini_board(7, &after_e4, Color::Black, "x".into(), &look);
        assert_eq!(black.squares[0].name, "h1");
        assert_eq!(black.orientation, "black");
        assert_eq!(at(&black, "e4").piece.as_deref(), Some("wP"));
    }

    #[test]
    fn pockets_promotions_drops_and_junk_are_read_safely() {
        let zh = snapshot(
            "rnbqkb1r/pppppppp/5n2/8/4P3/8/PPPP1PPP/RNBQKB~NR[Pp] w KQkq - 0 3",
            Some("P@e4"),
        );
        let board = mini_board(1, &zh, Color::White, "x".into(), &BoardLook::default());
        assert_eq!(at(&board, "g1").piece.as_deref(), Some("wN"));
        assert_eq!(at(&board, "e4").piece.as_deref(), Some("wP"));
        assert!(at(&board, "e4").last);
        assert_eq!(board.squares.iter().filter(|s| s.last).count(), 1);
        // A ninth rank of pockets, anything that is not a piece, a damaged FEN: only pieces.
        let odd = placement("8/8/8/8/8/8/8/4K3/QQ x");
        assert_eq!(odd.iter().flatten().count(), 1);
        let junk = placement("4X*3/9k/8");
        assert_eq!(junk.iter().flatten().count(), 0);
        assert_eq!(placement("").iter().flatten().count(), 0);
        assert_eq!(move_squares("e7e8q"), [Some(52), Some(60)]);
        assert_eq!(move_squares("zz"), [None, None]);
    }

    #[test]
    fn variant_names_read_as_people_write_them() {
        assert_eq!(variant_words("kingofthehill"), "King of the Hill");
        assert_eq!(variant_words("minesweeper"), "Minesweeper");
        assert_eq!(variant_words("bughouse"), "Bughouse");
    }
}
