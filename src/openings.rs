//! Opening names: the ECO code and name of a standard-chess position, from the CC0 data under
//! `openings/` built into the binary. Positions are compared, not move orders, so a
//! transposition finds its name. Pure: no I/O beyond the data compiled in.

use std::collections::HashMap;
use std::sync::OnceLock;

use slowfuse_rules::{Game, Variant};

/// A named opening.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Opening {
    pub eco: &'static str,
    pub name: &'static str,
}

const DATA: [&str; 5] = [
    include_str!("../openings/a.tsv"),
    include_str!("../openings/b.tsv"),
    include_str!("../openings/c.tsv"),
    include_str!("../openings/d.tsv"),
    include_str!("../openings/e.tsv"),
];

/// The key of a position: its FEN without the move counters (board and pockets, side to move,
/// castling rights, en passant square), so that the same position reached at another move
/// number is the same.
pub fn position_key(fen: &str) -> String {
    fen.split_whitespace().take(4).collect::<Vec<_>>().join(" ")
}

/// Every named position, by key; where several lines reach one position, the first listed.
fn table() -> &'static HashMap<String, Opening> {
    static TABLE: OnceLock<HashMap<String, Opening>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table = HashMap::new();
        for line in DATA.iter().flat_map(|file| file.lines().skip(1)) {
            let mut fields = line.split('\t');
            let (Some(eco), Some(name), Some(pgn)) = (fields.next(), fields.next(), fields.next())
            else {
                continue;
            };
            let mut moves = pgn.split_whitespace().filter(|token| !token.ends_with('.'));
            let Ok(game) = moves.try_fold(Game::new(Variant::Standard), |game, san| game.play(san))
            else {
                log::warn!("opening data: cannot play the line of {eco} {name}");
                continue;
            };
            table
                .entry(position_key(&game.fen()))
                .or_insert(Opening { eco, name });
        }
        table
    })
}

/// The opening named for exactly this position (a FEN of standard chess), if any.
pub fn opening_at(fen: &str) -> Option<Opening> {
    table().get(&position_key(fen)).copied()
}

/// The opening of a standard game: the last named position along its moves.
pub fn classify(game: &Game) -> Option<Opening> {
    if !matches!(game.variant(), Variant::Standard) {
        return None;
    }
    (0..=game.ply())
        .rev()
        .find_map(|ply| game.fen_at(ply).and_then(|fen| opening_at(&fen)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn after(moves: &[&str]) -> Game {
        moves
            .iter()
            .try_fold(Game::new(Variant::Standard), |g, m| g.play(m))
            .unwrap()
    }

    #[test]
    fn positions_are_named_by_the_line_that_reaches_them_in_any_order() {
        let sicilian = classify(&after(&["e4", "c5"])).unwrap();
        assert_eq!(sicilian.eco, "B20");
        assert!(
            sicilian.name.starts_with("Sicilian Defense"),
            "{}",
            sicilian.name
        );
        // The Queen's Gambit Declined by a transposition: 1. c4 e6 2. d4 d5.
        let by_transposition = classify(&after(&["c4", "e6", "d4", "d5"])).unwrap();
        let direct = classify(&after(&["d4", "d5", "c4", "e6"])).unwrap();
        assert_eq!(by_transposition, direct);
        assert!(
            direct.name.contains("Queen's Gambit Declined"),
            "{}",
            direct.name
        );
        // A game that leaves the book keeps the last name it had.
        let left = classify(&after(&["e4", "c5", "a3", "a6", "h3", "h6"])).unwrap();
        assert_eq!(left.eco.chars().next(), Some('B'));
        assert_eq!(classify(&Game::new(Variant::Atomic)), None);
        assert!(table().len() > 3000, "{}", table().len());
    }
}
