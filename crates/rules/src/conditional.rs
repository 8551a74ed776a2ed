//! Conditional moves: lines of "if they play X, I reply Y, then if Z, W …" entered in
//! advance, checked against the game, and followed move by move.
//!
//! Lines start from the position the game is in when they are entered and alternate
//! between the two sides. When the author is to move, every line starts with the same
//! move (the one played at once); otherwise the first move of each line is an expected
//! reply of the opponent. Two lines may share a start, but never answer the same
//! opponent move with two different replies.
//!
//! ```
//! use slowfuse_rules::{Color, ConditionalLimits, ConditionalLines, Game, Reply, Variant};
//!
//! let game = Game::new(Variant::Atomic).play("e4")?; // Black to move: White enters lines
//! let lines = ConditionalLines::parse(&game, Color::White, "e5 Nf3 Nc6 Bc4; d5 exd5", ConditionalLimits::default())
//!     .unwrap();
//! match lines.answer("e7e5") {
//!     Reply::Play { uci, rest } => {
//!         assert_eq!(uci, "g1f3");
//!         assert_eq!(rest.to_text(), "Nc6 Bc4");
//!     }
//!     other => panic!("{other:?}"),
//! }
//! # Ok::<_, slowfuse_rules::MoveError>(())
//! ```

use shakmaty::Color;

use crate::{Game, MoveError, PlayedMove};

/// Size limits for one player's conditional lines in one game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConditionalLimits {
    /// Most lines.
    pub max_lines: usize,
    /// Most moves (plies) in one line.
    pub max_plies: usize,
}

impl Default for ConditionalLimits {
    fn default() -> Self {
        ConditionalLimits {
            max_lines: 50,
            max_plies: 40,
        }
    }
}

/// Why lines were refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConditionalError {
    /// Nothing but blanks was entered.
    #[error("enter at least one line of moves, e.g. \"Nf3 Nf6 Ne5; e4 e5 Nf3\"")]
    Empty,
    /// More lines than allowed.
    #[error("too many lines: at most {0}")]
    TooManyLines(usize),
    /// A line longer than allowed (1-based line number).
    #[error("line {line} is too long: at most {max} moves")]
    TooLong {
        /// Which line.
        line: usize,
        /// The limit.
        max: usize,
    },
    /// A move that cannot be played (1-based line and move numbers).
    #[error("line {line}, move {index} ({text}): {error}")]
    BadMove {
        /// Which line.
        line: usize,
        /// Which move of the line.
        index: usize,
        /// The move as written.
        text: String,
        /// Why it cannot be played.
        error: MoveError,
    },
    /// Two lines answer the same position with different own moves.
    #[error(
        "lines {first} and {second} disagree on your move after {after}: give one reply per position"
    )]
    Conflict {
        /// The earlier line.
        first: usize,
        /// The later line.
        second: usize,
        /// The moves before the disagreement, in SAN.
        after: String,
    },
    /// The game has ended.
    #[error("the game is over")]
    GameOver,
}

/// What the lines say when the opponent has moved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// Play this move (UCI); `rest` are the lines left after it.
    Play {
        /// The author's reply in UCI.
        uci: String,
        /// The lines that continue after the reply.
        rest: ConditionalLines,
    },
    /// A line expected that move but holds no reply to it: nothing more to do.
    Exhausted,
    /// No line expected that move: the lines are dropped.
    Deviation,
}

/// One player's conditional lines from a base position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ConditionalLines {
    lines: Vec<Vec<PlayedMove>>,
}

impl ConditionalLines {
    /// Reads lines separated by `;` or new lines, moves in SAN or UCI (drops such as
    /// `N@f3` included; move numbers like `12.` or `3...` are skipped), each from the
    /// current position of `game`, entered by `author`.
    ///
    /// # Errors
    ///
    /// [`ConditionalError`] naming the line and move at fault, or the limit exceeded.
    pub fn parse(
        game: &Game,
        author: Color,
        text: &str,
        limits: ConditionalLimits,
    ) -> Result<ConditionalLines, ConditionalError> {
        if game.is_over() {
            return Err(ConditionalError::GameOver);
        }
        let raw: Vec<Vec<&str>> = text
            .split([';', '\n'])
            .map(|line| {
                line.split_whitespace()
                    .filter_map(strip_move_number)
                    .collect::<Vec<_>>()
            })
            .filter(|line| !line.is_empty())
            .collect();
        if raw.is_empty() {
            return Err(ConditionalError::Empty);
        }
        if raw.len() > limits.max_lines {
            return Err(ConditionalError::TooManyLines(limits.max_lines));
        }
        let mut lines = Vec::with_capacity(raw.len());
        for (i, words) in raw.iter().enumerate() {
            if words.len() > limits.max_plies {
                return Err(ConditionalError::TooLong {
                    line: i + 1,
                    max: limits.max_plies,
                });
            }
            let mut g = game.clone();
            for (j, word) in words.iter().enumerate() {
                g = g.play(word).map_err(|error| ConditionalError::BadMove {
                    line: i + 1,
                    index: j + 1,
                    text: (*word).to_string(),
                    error,
                })?;
            }
            lines.push(g.moves()[game.moves().len()..].to_vec());
        }
        let parsed = ConditionalLines { lines };
        parsed.check_consistent(game.turn() == author)?;
        Ok(parsed.deduplicated())
    }

    /// Rebuilds lines stored with [`ConditionalLines::to_storage`] against the game they
    /// were entered in (after any moves already followed).
    ///
    /// # Errors
    ///
    /// As [`ConditionalLines::parse`]; a stored line that no longer plays is an error.
    pub fn from_storage(
        game: &Game,
        author: Color,
        stored: &str,
    ) -> Result<ConditionalLines, ConditionalError> {
        let limits = ConditionalLimits {
            max_lines: usize::MAX,
            max_plies: usize::MAX,
        };
        ConditionalLines::parse(game, author, stored, limits)
    }

    /// Reads stored UCI lines without checking them against a game; moves keep their
    /// UCI as their SAN. Used to follow lines: each reply is checked when it is played.
    pub fn from_storage_unchecked(stored: &str) -> ConditionalLines {
        let lines = stored
            .split(';')
            .map(|l| {
                l.split_whitespace()
                    .map(|u| PlayedMove {
                        uci: u.to_string(),
                        san: u.to_string(),
                    })
                    .collect::<Vec<_>>()
            })
            .filter(|l| !l.is_empty())
            .collect();
        ConditionalLines { lines }
    }

    /// The lines in UCI, `;`-separated, for storage.
    pub fn to_storage(&self) -> String {
        self.join(|m| m.uci.as_str())
    }

    /// The lines in SAN, `; `-separated, for showing to their author.
    pub fn to_text(&self) -> String {
        self.join(|m| m.san.as_str())
    }

    fn join(&self, f: impl Fn(&PlayedMove) -> &str) -> String {
        self.lines
            .iter()
            .map(|l| l.iter().map(&f).collect::<Vec<_>>().join(" "))
            .collect::<Vec<_>>()
            .join("; ")
    }

    /// The lines, each a list of moves from the base position.
    pub fn lines(&self) -> &[Vec<PlayedMove>] {
        &self.lines
    }

    /// Whether no line is left.
    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// When the author is to move: the move every line starts with (UCI) and the lines
    /// after it. `None` when there are no lines.
    pub fn own_move(&self) -> Option<(String, ConditionalLines)> {
        let first = self.lines.first()?.first()?.uci.clone();
        let rest = self.after(&first);
        Some((first, rest))
    }

    /// What to do after the opponent played `opponent_uci` from the base position.
    pub fn answer(&self, opponent_uci: &str) -> Reply {
        let matching: Vec<&Vec<PlayedMove>> = self
            .lines
            .iter()
            .filter(|l| l.first().is_some_and(|m| m.uci == opponent_uci))
            .collect();
        if matching.is_empty() {
            return Reply::Deviation;
        }
        let Some(reply) = matching
            .iter()
            .find_map(|l| l.get(1))
            .map(|m| m.uci.clone())
        else {
            return Reply::Exhausted;
        };
        let rest = self.after(opponent_uci).after(&reply);
        Reply::Play { uci: reply, rest }
    }

    /// The lines that start with `uci`, without that move; lines left empty are dropped.
    fn after(&self, uci: &str) -> ConditionalLines {
        ConditionalLines {
            lines: self
                .lines
                .iter()
                .filter(|l| l.first().is_some_and(|m| m.uci == uci))
                .map(|l| l[1..].to_vec())
                .filter(|l| !l.is_empty())
                .collect(),
        }
    }

    /// At every position reached by the lines, the author's moves agree.
    fn check_consistent(&self, author_first: bool) -> Result<(), ConditionalError> {
        for (i, a) in self.lines.iter().enumerate() {
            for (j, b) in self.lines.iter().enumerate().skip(i + 1) {
                let common = a.iter().zip(b).take_while(|(x, y)| x.uci == y.uci).count();
                let both_go_on = common < a.len() && common < b.len();
                let authors_move = (common % 2 == 0) == author_first;
                if both_go_on && authors_move {
                    let before: Vec<&str> = a[..common].iter().map(|m| m.san.as_str()).collect();
                    let after = if before.is_empty() {
                        "the start".to_string()
                    } else {
                        before.join(" ")
                    };
                    return Err(ConditionalError::Conflict {
                        first: i + 1,
                        second: j + 1,
                        after,
                    });
                }
            }
        }
        Ok(())
    }

    /// Drops lines that repeat or are the start of another line.
    fn deduplicated(self) -> ConditionalLines {
        let mut kept: Vec<Vec<PlayedMove>> = Vec::new();
        for line in self.lines {
            if kept.iter().any(|k| k.starts_with(&line)) {
                continue;
            }
            kept.retain(|k| !line.starts_with(k));
            kept.push(line);
        }
        ConditionalLines { lines: kept }
    }
}

/// Skips move numbers: `12.` and `3...` vanish, `12.e4` becomes `e4`.
fn strip_move_number(word: &str) -> Option<&str> {
    let rest = word.trim_start_matches(|c: char| c.is_ascii_digit());
    if rest.len() == word.len() || !rest.starts_with('.') {
        return Some(word);
    }
    let rest = rest.trim_start_matches('.');
    (!rest.is_empty()).then_some(rest)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Variant;

    fn limits() -> ConditionalLimits {
        ConditionalLimits::default()
    }

    #[test]
    fn author_waiting_lines_start_with_the_opponents_moves() {
        // White to move; Black enters lines.
        let game = Game::new(Variant::Standard);
        let lines =
            ConditionalLines::parse(&game, Color::Black, "Nf3 Nf6 Ne5; e4 e5 Nf3", limits())
                .unwrap();
        assert_eq!(lines.to_text(), "Nf3 Nf6 Ne5; e4 e5 Nf3");
        assert_eq!(lines.to_storage(), "g1f3 g8f6 f3e5; e2e4 e7e5 g1f3");
        match lines.answer("e2e4") {
            Reply::Play { uci, rest } => {
                assert_eq!(uci, "e7e5");
                assert_eq!(rest.to_text(), "Nf3");
                // Nf3 is White's move with no Black reply: the line is used up.
                assert_eq!(rest.answer("g1f3"), Reply::Exhausted);
                assert_eq!(rest.answer("b1c3"), Reply::Deviation);
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(lines.answer("d2d4"), Reply::Deviation);
    }

    #[test]
    fn author_to_move_plays_the_common_first_move() {
        let game = Game::new(Variant::Atomic);
        let lines = ConditionalLines::parse(
            &game,
            Color::White,
            "1. Nf3 Nf6 2. Ne5; 1.Nf3 e6 2.e4",
            limits(),
        )
        .unwrap();
        let (first, rest) = lines.own_move().unwrap();
        assert_eq!(first, "g1f3");
        assert_eq!(rest.to_text(), "Nf6 Ne5; e6 e4");
        let err =
            ConditionalLines::parse(&game, Color::White, "Nf3 Nf6; e4 e5", limits()).unwrap_err();
        assert!(
            matches!(
                err,
                ConditionalError::Conflict {
                    first: 1,
                    second: 2,
                    ..
                }
            ),
            "{err}"
        );
    }

    #[test]
    fn two_replies_to_one_move_conflict() {
        let game = Game::new(Variant::Standard);
        let err =
            ConditionalLines::parse(&game, Color::Black, "e4 e5; e4 c5", limits()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "lines 1 and 2 disagree on your move after e4: give one reply per position"
        );
    }

    #[test]
    fn bad_moves_and_limits_are_named() {
        let game = Game::new(Variant::Standard);
        let err =
            ConditionalLines::parse(&game, Color::Black, "e4 e5; d4 Ke2", limits()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "line 2, move 2 (Ke2): Ke2 is not a legal move here"
        );
        let many = ["e4"; 3].join(";");
        let small = ConditionalLimits {
            max_lines: 2,
            max_plies: 2,
        };
        assert_eq!(
            ConditionalLines::parse(&game, Color::Black, &many, small),
            Err(ConditionalError::TooManyLines(2))
        );
        assert_eq!(
            ConditionalLines::parse(&game, Color::Black, "e4 e5 Nf3", small),
            Err(ConditionalError::TooLong { line: 1, max: 2 })
        );
        assert_eq!(
            ConditionalLines::parse(&game, Color::Black, " ; \n", limits()),
            Err(ConditionalError::Empty)
        );
    }

    #[test]
    fn drops_are_lines_too() {
        let game = Game::from_fen(
            Variant::Crazyhouse,
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[] w KQkq - 2 3",
        )
        .unwrap()
        .play("Nxe5")
        .unwrap()
        .play("Nxe5")
        .unwrap();
        // White has a pawn in hand, Black a knight; Black enters lines with drops.
        let lines =
            ConditionalLines::parse(&game, Color::Black, "P@d6 cxd6; d4 N@f3+", limits()).unwrap();
        assert_eq!(lines.to_storage(), "P@d6 c7d6; d2d4 N@f3");
        match lines.answer("d2d4") {
            Reply::Play { uci, .. } => assert_eq!(uci, "N@f3"),
            other => panic!("{other:?}"),
        }
        match lines.answer("P@d6") {
            Reply::Play { uci, .. } => assert_eq!(uci, "c7d6"),
            other => panic!("{other:?}"),
        }
        let stored =
            ConditionalLines::from_storage(&game, Color::Black, &lines.to_storage()).unwrap();
        assert_eq!(stored, lines);
    }

    #[test]
    fn repeated_and_prefix_lines_collapse() {
        let game = Game::new(Variant::Standard);
        let lines =
            ConditionalLines::parse(&game, Color::Black, "e4; e4 e5; e4 e5", limits()).unwrap();
        assert_eq!(lines.to_text(), "e4 e5");
    }
}
