//! Writing a game as PGN: tags, numbered SAN movetext with comments, wrapped lines.

use shakmaty::Color;

use crate::game::Game;
use crate::variant::Variant;

/// The longest movetext line written.
const LINE_WIDTH: usize = 80;

/// The tags of a PGN export that the game itself does not know.
///
/// `Round` is always `-`; `Result`, `Variant`, `SetUp` and `FEN` come from
/// the [`Game`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnHeaders {
    /// `Event` tag, e.g. `"Slowfuse correspondence game"`.
    pub event: String,
    /// `Site` tag, e.g. the game's URL.
    pub site: String,
    /// `Date` tag as `YYYY.MM.DD` (`??` for unknown parts).
    pub date: String,
    /// `White` tag: White's player name.
    pub white: String,
    /// `Black` tag: Black's player name.
    pub black: String,
    /// `Termination` tag, e.g. [`EndReason::describe`](crate::EndReason::describe);
    /// omitted when `None`.
    pub termination: Option<String>,
    /// More tags written last, in order, e.g. `("TimeControl", "...")`.
    /// Characters other than letters, digits and `_` are dropped from names.
    pub extra: Vec<(String, String)>,
}

/// Writes `game` as one PGN game.
///
/// Tags: the seven-tag roster (`Event`, `Site`, `Date`, `Round "-"`,
/// `White`, `Black`, `Result`), then `Variant` for every variant but
/// standard chess, `SetUp "1"` and `FEN` when the game did not start from
/// the normal start position, `Termination` when given, and the extra tags.
///
/// Movetext: numbered SAN moves; `comments[i]` is written as `{ text }`
/// after the move of ply `i` (0-based; `None`, blank or past the last move:
/// nothing), with `}` replaced by `)` and line breaks by spaces. After a
/// comment Black's move is numbered again (`12...`). The result token (`*`
/// while the game goes on) ends the movetext; lines are at most 80
/// characters where no single word is longer, and the text ends with a
/// blank line.
///
/// ```
/// use slowfuse_rules::{Game, PgnHeaders, Variant, write_pgn};
///
/// let game = Game::new(Variant::Standard).play("e4")?.play("e5")?;
/// let pgn = write_pgn(&PgnHeaders::default(), &game, &[None, Some("Solid".into())]);
/// assert!(pgn.ends_with("1. e4 e5 { Solid } *\n\n"));
/// # Ok::<_, slowfuse_rules::MoveError>(())
/// ```
pub fn write_pgn(headers: &PgnHeaders, game: &Game, comments: &[Option<String>]) -> String {
    let mut out = String::new();
    let result = game.outcome().map_or("*", |o| o.result());

    let mut tags = TagSection::new(&mut out);
    tags.roster(headers, result);
    if game.variant() != Variant::Standard {
        tags.tag("Variant", game.variant().pgn_name());
    }
    if !game.is_standard_start() {
        tags.tag("SetUp", "1");
        tags.tag("FEN", &game.initial_fen());
    }
    if let Some(termination) = &headers.termination {
        tags.tag("Termination", termination);
    }
    tags.extra(&headers.extra);
    tags.end();

    let mut tokens = movetext_tokens(game, comments);
    tokens.push(result.to_owned());
    wrap(&tokens, &mut out);
    out.push('\n');
    out
}

/// Escapes a tag value: `\` and `"` get a backslash; line breaks become spaces.
/// A PGN tag section being written into a string: one `[Name "value"]` line per tag, values
/// escaped; [`TagSection::end`] closes it with the blank line before the movetext.
pub(crate) struct TagSection<'a> {
    out: &'a mut String,
}

impl<'a> TagSection<'a> {
    pub(crate) fn new(out: &'a mut String) -> TagSection<'a> {
        TagSection { out }
    }

    pub(crate) fn tag(&mut self, name: &str, value: &str) {
        self.out.push('[');
        self.out.push_str(name);
        self.out.push_str(" \"");
        self.out.push_str(&escape_tag_value(value));
        self.out.push_str("\"]\n");
    }

    /// The seven-tag roster of a two-player game (`Round` is always `-`).
    pub(crate) fn roster(&mut self, headers: &PgnHeaders, result: &str) {
        self.event(&headers.event, &headers.site, &headers.date);
        self.tag("White", &headers.white);
        self.tag("Black", &headers.black);
        self.tag("Result", result);
    }

    /// `Event`, `Site`, `Date` and `Round` (always `-`: correspondence games have none).
    pub(crate) fn event(&mut self, event: &str, site: &str, date: &str) {
        self.tag("Event", event);
        self.tag("Site", site);
        self.tag("Date", date);
        self.tag("Round", "-");
    }

    /// The caller's own tags, their names cut to letters, digits and `_` (a name with none of
    /// those is left out).
    pub(crate) fn extra(&mut self, extra: &[(String, String)]) {
        for (name, value) in extra {
            let name: String = name
                .chars()
                .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                self.tag(&name, value);
            }
        }
    }

    pub(crate) fn end(self) {
        self.out.push('\n');
    }
}

fn escape_tag_value(value: &str) -> String {
    let mut escaped = String::with_capacity(value.len());
    for ch in value.chars() {
        match ch {
            '\\' => escaped.push_str("\\\\"),
            '"' => escaped.push_str("\\\""),
            '\r' | '\n' | '\t' => escaped.push(' '),
            _ => escaped.push(ch),
        }
    }
    escaped
}

/// The movetext as unbreakable units: `"1. e4"`, `"e5"`, `"{"`, words, `"}"`.
fn movetext_tokens(game: &Game, comments: &[Option<String>]) -> Vec<String> {
    let mut tokens = Vec::new();
    let initial_fen = game.initial_fen();
    let mut turn = start_turn(&initial_fen);
    let mut number = start_number(&initial_fen);
    let mut renumber = true;
    for (ply, played) in game.moves().iter().enumerate() {
        match turn {
            Color::White => tokens.push(format!("{number}. {}", played.san)),
            Color::Black if renumber => tokens.push(format!("{number}... {}", played.san)),
            Color::Black => tokens.push(played.san.clone()),
        }
        renumber = false;
        let comment = comments
            .get(ply)
            .and_then(Option::as_deref)
            .map(clean_comment)
            .filter(|text| !text.is_empty());
        if let Some(text) = comment {
            tokens.push("{".to_owned());
            tokens.extend(text.split(' ').map(str::to_owned));
            tokens.push("}".to_owned());
            renumber = true;
        }
        if turn == Color::Black {
            number += 1;
        }
        turn = !turn;
    }
    tokens
}

/// Comment text fit for `{ }`: no `}`, no line breaks, single spaces.
pub(crate) fn clean_comment(text: &str) -> String {
    text.replace('}', ")")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

fn start_turn(fen: &str) -> Color {
    match fen.split(' ').nth(1) {
        Some("b") => Color::Black,
        _ => Color::White,
    }
}

fn start_number(fen: &str) -> u32 {
    fen.split(' ')
        .nth(5)
        .and_then(|n| n.parse().ok())
        .unwrap_or(1)
}

/// Joins tokens with spaces into lines of at most [`LINE_WIDTH`] characters.
pub(crate) fn wrap(tokens: &[String], out: &mut String) {
    let mut line_len = 0;
    for token in tokens {
        let len = token.chars().count();
        if line_len > 0 && line_len + 1 + len > LINE_WIDTH {
            out.push('\n');
            line_len = 0;
        }
        if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        out.push_str(token);
        line_len += len;
    }
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers() -> PgnHeaders {
        PgnHeaders {
            event: "Casual \"fun\" game".to_owned(),
            site: "https://example.invalid/g/1".to_owned(),
            date: "2025.01.02".to_owned(),
            white: "Ann \\ Co".to_owned(),
            black: "Bob".to_owned(),
            termination: None,
            extra: vec![("Time Control".to_owned(), "1 day".to_owned())],
        }
    }

    #[test]
    fn tags_are_ordered_and_escaped() {
        let game = Game::new(Variant::Atomic);
        let pgn = write_pgn(&headers(), &game, &[]);
        assert_eq!(
            pgn,
            "[Event \"Casual \\\"fun\\\" game\"]\n\
             [Site \"https://example.invalid/g/1\"]\n\
             [Date \"2025.01.02\"]\n\
             [Round \"-\"]\n\
             [White \"Ann \\\\ Co\"]\n\
             [Black \"Bob\"]\n\
             [Result \"*\"]\n\
             [Variant \"Atomic\"]\n\
             [TimeControl \"1 day\"]\n\
             \n\
             *\n\
             \n"
        );
    }

    #[test]
    fn comments_renumber_black_and_are_cleaned() {
        let mut game = Game::new(Variant::Standard);
        for m in ["e4", "e5", "Nf3", "Nc6"] {
            game = game.play(m).unwrap();
        }
        let comments = vec![
            Some("Best by\ntest }".to_owned()),
            None,
            Some("  ".to_owned()),
        ];
        let pgn = write_pgn(&PgnHeaders::default(), &game, &comments);
        assert!(
            pgn.ends_with("\n1. e4 { Best by test ) } 1... e5 2. Nf3 Nc6 *\n\n"),
            "{pgn}"
        );
    }

    #[test]
    fn black_to_move_start_and_long_lines() {
        let game = Game::from_fen(
            Variant::Standard,
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 7",
        )
        .unwrap();
        let game = game.play("e5").unwrap().play("Nf3").unwrap();
        let long = "word ".repeat(40);
        let pgn = write_pgn(&PgnHeaders::default(), &game, &[Some(long)]);
        assert!(pgn.contains(
            "[SetUp \"1\"]\n[FEN \"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 7\"]\n"
        ));
        let movetext = pgn.split("\n\n").nth(1).unwrap();
        assert!(movetext.starts_with("7... e5 { word word"), "{movetext}");
        assert!(movetext.trim_end().ends_with("} 8. Nf3 *"), "{movetext}");
        assert!(pgn.lines().all(|l| l.chars().count() <= 80));
        assert!(movetext.lines().count() > 2);
    }
}
