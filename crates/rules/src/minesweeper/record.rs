//! Storing and exporting minesweeper games: one secret row per player, public PGN during play,
//! the full PGN with every bomb after the end.

use shakmaty::{Color, Square};

use super::bombs::Bomb;
use super::error::RestoreError;
use super::game::{MinesweeperGame, validate_bombs};
use super::options::{MinesweeperOptions, Placement};
use super::view::{Count, FullRecord, PublicView};
use crate::pgn::{PgnHeaders, TagSection, clean_comment, wrap};

/// The value of the PGN `Variant` tag.
pub const PGN_VARIANT: &str = "Minesweeper";

impl MinesweeperGame {
    /// The secret state stored in `color`'s row (`game_players.secret_state`):
    /// only that row's bombs and the counts told to `color`, as
    /// `bombs=a3,b2,h4;counts=9:2,15:0` (squares a1 first; counts as
    /// `ply:bombs` in move order). Either list may be empty.
    ///
    /// A row is storage, not a view: with option 2 it holds bombs its
    /// player is never shown. With neutral bombs (option 4) the 16 are
    /// split between the two rows, the first 8 (a1 first) in White's; which
    /// row holds a neutral bomb means nothing in play.
    pub fn secret_state(&self, color: Color) -> String {
        let squares: Vec<String> = self
            .row_bombs(color)
            .into_iter()
            .map(|sq| sq.to_string())
            .collect();
        let counts: Vec<String> = self
            .counts_of(color)
            .iter()
            .map(|c| format!("{}:{}", c.ply, c.bombs))
            .collect();
        format!("bombs={};counts={}", squares.join(","), counts.join(","))
    }

    /// Rebuilds a stored game from its options, both players' rows (see
    /// [`MinesweeperGame::secret_state`]) and its UCI moves, replaying each
    /// move. Checks the bombs against the options and the stored counts
    /// against the replay. An off-board ending is not in the moves: restore
    /// it with [`MinesweeperGame::with_outcome`].
    ///
    /// # Errors
    ///
    /// [`RestoreError`] names the row and position of a malformed row, the
    /// rule a row's bombs break, the first move that cannot be replayed, or
    /// the row whose counts disagree.
    pub fn restore(
        options: MinesweeperOptions,
        white: &str,
        black: &str,
        uci_moves: &[String],
    ) -> Result<MinesweeperGame, RestoreError> {
        let (white_bombs, white_counts) = parse_row(Color::White, white)?;
        let (black_bombs, black_counts) = parse_row(Color::Black, black)?;
        let mut game = MinesweeperGame::new(options);
        if options.placement == Placement::Neutral {
            let check = |color: Color, squares: &[Square]| {
                validate_bombs(&options, None, squares)
                    .map_err(|error| RestoreError::Bombs { color, error })
            };
            check(Color::White, &white_bombs)?;
            let all: Vec<Square> = white_bombs.iter().chain(&black_bombs).copied().collect();
            check(Color::Black, &all)?;
            game.bombs = all.into_iter().map(|sq| Bomb::new(sq, None)).collect();
        } else {
            for (color, squares) in [(Color::White, &white_bombs), (Color::Black, &black_bombs)] {
                validate_bombs(&options, Some(color), squares)
                    .map_err(|error| RestoreError::Bombs { color, error })?;
                game.bombs
                    .extend(squares.iter().map(|&sq| Bomb::new(sq, Some(color))));
            }
        }
        game.sort_bombs();
        game.setup_over = !game.bombs_missing();
        if !uci_moves.is_empty() && game.in_setup() {
            return Err(RestoreError::Incomplete);
        }
        for (ply, uci) in (1u32..).zip(uci_moves) {
            game = game
                .play_uci(uci)
                .map_err(|error| RestoreError::Move {
                    ply,
                    uci: uci.clone(),
                    error,
                })?
                .0;
        }
        for (color, stored) in [(Color::White, white_counts), (Color::Black, black_counts)] {
            let told: Vec<(u32, u8)> = game
                .counts_of(color)
                .iter()
                .map(|c| (c.ply, c.bombs))
                .collect();
            if told != stored {
                return Err(RestoreError::Counts { color });
            }
        }
        Ok(game)
    }

    /// The squares of the bombs `color`'s row holds, a1 first.
    fn row_bombs(&self, color: Color) -> Vec<Square> {
        if self.options.placement == Placement::Neutral {
            let all: Vec<Square> = self.bombs_of(None).map(|b| b.square).collect();
            let split = all.len().min(8);
            match color {
                Color::White => all[..split].to_vec(),
                Color::Black => all[split..].to_vec(),
            }
        } else {
            self.bombs_of(Some(color)).map(|b| b.square).collect()
        }
    }
}

/// A row's bombs and counts (`ply`, `bombs`).
type Row = (Vec<Square>, Vec<(u32, u8)>);

fn parse_row(color: Color, text: &str) -> Result<Row, RestoreError> {
    let fail = |byte: usize, problem: &str| RestoreError::Secret {
        color,
        position: text.get(..byte).map_or(byte, |s| s.chars().count()) + 1,
        problem: problem.to_owned(),
    };
    let Some(rest) = text.strip_prefix("bombs=") else {
        return Err(fail(0, "expected \"bombs=\""));
    };
    let bombs_at = "bombs=".len();
    let Some(semicolon) = rest.find(';') else {
        return Err(fail(text.len(), "expected \";counts=\" after the bombs"));
    };
    let counts_at = bombs_at + semicolon + 1;
    let Some(counts) = text[counts_at..].strip_prefix("counts=") else {
        return Err(fail(counts_at, "expected \"counts=\""));
    };
    let counts_at = counts_at + "counts=".len();

    let mut squares = Vec::new();
    for (offset, item) in items(&rest[..semicolon]) {
        let square = item
            .parse::<Square>()
            .map_err(|_| fail(bombs_at + offset, "not a square like e4"))?;
        squares.push(square);
    }
    let mut told = Vec::new();
    for (offset, item) in items(counts) {
        let at = counts_at + offset;
        let (ply, bombs) = item
            .split_once(':')
            .ok_or_else(|| fail(at, "a count is written ply:bombs, like 9:2"))?;
        let ply = ply
            .parse::<u32>()
            .ok()
            .filter(|p| *p > 0)
            .ok_or_else(|| fail(at, "the ply must be a whole number from 1"))?;
        let bombs = bombs
            .parse::<u8>()
            .ok()
            .filter(|b| *b <= 8)
            .ok_or_else(|| fail(at, "the count must be a whole number from 0 to 8"))?;
        told.push((ply, bombs));
    }
    Ok((squares, told))
}

/// The comma-separated items of a list with their byte offsets; none for
/// an empty list.
fn items(list: &str) -> Vec<(usize, &str)> {
    if list.is_empty() {
        return Vec::new();
    }
    let mut offset = 0;
    list.split(',')
        .map(|item| {
            let here = offset;
            offset += item.len() + 1;
            (here, item)
        })
        .collect()
}

/// Reads a list of bomb squares typed by a player: names like `e4`
/// separated by spaces or commas (`"a3 b2, c4"`), in any case.
///
/// # Errors
///
/// [`BombError::Unreadable`](super::BombError::Unreadable) names the first
/// word that is not a square and its 1-based character position.
pub fn parse_squares(text: &str) -> Result<Vec<Square>, super::BombError> {
    let mut squares = Vec::new();
    let mut start: Option<usize> = None;
    let chars: Vec<char> = text.chars().collect();
    for i in 0..=chars.len() {
        let separator = chars.get(i).is_none_or(|c| c.is_whitespace() || *c == ',');
        match (separator, start) {
            (false, None) => start = Some(i),
            (true, Some(s)) => {
                let word: String = chars[s..i].iter().collect();
                let square = word.to_ascii_lowercase().parse::<Square>().map_err(|_| {
                    super::BombError::Unreadable {
                        position: s + 1,
                        text: word.clone(),
                    }
                })?;
                squares.push(square);
                start = None;
            }
            _ => {}
        }
    }
    Ok(squares)
}

impl PublicView {
    /// The game as PGN, as anyone may see it: no bomb but those that went
    /// off and no count. Tags: the seven-tag roster, `Variant
    /// "Minesweeper"`, `MinesweeperOptions` (e.g. `"chosen"`), `Termination`
    /// when given, then the extra tags. Each blast is a `[%blast f6]`
    /// annotation in the comment after its move; `comments[i]` (the
    /// players' own, as for [`write_pgn`](crate::write_pgn)) follows it.
    pub fn pgn(&self, headers: &PgnHeaders, comments: &[Option<String>]) -> String {
        write(headers, self, None, comments)
    }
}

impl FullRecord {
    /// The game as PGN with everything revealed: as [`PublicView::pgn`],
    /// plus tags `WhiteBombs` and `BlackBombs` (or `NeutralBombs`) listing
    /// every bomb (`"a3 b2 …"`), and a `[%count f5 2]` annotation after
    /// each move that told its player a count.
    pub fn pgn(&self, headers: &PgnHeaders, comments: &[Option<String>]) -> String {
        write(headers, &self.public, Some(self), comments)
    }
}

fn write(
    headers: &PgnHeaders,
    public: &PublicView,
    full: Option<&FullRecord>,
    comments: &[Option<String>],
) -> String {
    let mut out = String::new();
    let result = public.outcome.map_or("*", |o| o.result());
    let mut tags = TagSection::new(&mut out);
    tags.roster(headers, result);
    tags.tag("Variant", PGN_VARIANT);
    tags.tag("MinesweeperOptions", &public.options.as_str());
    if let Some(termination) = &headers.termination {
        tags.tag("Termination", termination);
    }
    if let Some(full) = full {
        let list = |owner: Option<Color>| {
            full.bombs
                .iter()
                .filter(|b| b.owner == owner)
                .map(|b| b.square.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        };
        if public.options.placement == Placement::Neutral {
            tags.tag("NeutralBombs", &list(None));
        } else {
            tags.tag("WhiteBombs", &list(Some(Color::White)));
            tags.tag("BlackBombs", &list(Some(Color::Black)));
        }
    }
    tags.extra(&headers.extra);
    tags.end();

    let mut tokens = Vec::new();
    let mut renumber = true;
    for (index, played) in public.moves.iter().enumerate() {
        let number = index / 2 + 1;
        match (index % 2 == 0, renumber) {
            (true, _) => tokens.push(format!("{number}. {}", played.san)),
            (false, true) => tokens.push(format!("{number}... {}", played.san)),
            (false, false) => tokens.push(played.san.clone()),
        }
        // Annotations stay whole on one line; the players' words may wrap.
        let mut notes: Vec<String> = Vec::new();
        if let Some(blast) = &played.blast {
            notes.push(format!("[%blast {}]", blast.square));
        }
        let ply = u32::try_from(index + 1).unwrap_or(u32::MAX);
        if let Some(full) = full {
            for (_, count) in full.counts.iter().filter(|(_, c)| c.ply == ply) {
                notes.push(count_note(count));
            }
        }
        if let Some(text) = comments
            .get(index)
            .and_then(Option::as_deref)
            .map(clean_comment)
            .filter(|t| !t.is_empty())
        {
            notes.extend(text.split(' ').map(str::to_owned));
        }
        renumber = !notes.is_empty();
        if renumber {
            tokens.push("{".to_owned());
            tokens.extend(notes);
            tokens.push("}".to_owned());
        }
    }
    tokens.push(result.to_owned());
    wrap(&tokens, &mut out);
    out.push('\n');
    out
}

fn count_note(count: &Count) -> String {
    format!("[%count {} {}]", count.square, count.bombs)
}
