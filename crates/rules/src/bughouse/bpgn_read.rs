//! Reading BPGN files into replayed bughouse matches, with errors that say where.

use std::fmt;

use shakmaty::Color;

use super::game::BughouseGame;
use super::{Board, BughouseError};

/// A comment in the movetext of a match, e.g. the time a player had left.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BpgnComment {
    /// The number of moves played before it, both boards counted (0 =
    /// before the first move).
    pub ply: u32,
    /// The text between the braces, trimmed (`180`, `C:…`, `[%clk …]`, as
    /// written).
    pub text: String,
}

impl BpgnComment {
    /// The comment read as a plain number, as BPGN writes the seconds a
    /// player had left after their move (`{179}`, `{298.375}`).
    pub fn seconds(&self) -> Option<f64> {
        let text = self.text.trim();
        if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
            return None;
        }
        text.parse().ok()
    }
}

/// One match read from BPGN and replayed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BpgnGame {
    /// 1-based index of the match in the file.
    pub index: usize,
    /// Every tag as written, in order (values unescaped).
    pub tags: Vec<(String, String)>,
    /// The match replayed from its start (the `FEN` tag's two positions, or
    /// the start position), with any ending the final positions force.
    pub game: BughouseGame,
    /// The comments of the movetext.
    pub comments: Vec<BpgnComment>,
    /// The value of the `Result` tag, if any.
    pub result_tag: Option<String>,
    /// The result token that ends the movetext, if any.
    pub movetext_result: Option<String>,
}

impl BpgnGame {
    /// The value of the first tag called `name` (exact case), if any.
    pub fn tag(&self, name: &str) -> Option<&str> {
        find_tag(&self.tags, name)
    }
}

/// A match of a BPGN file that cannot be read or replayed. Reading goes on
/// with the next match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BpgnError {
    /// 1-based index of the match in the file.
    pub game: usize,
    /// 1-based line of the file where the problem is.
    pub line: usize,
    /// 1-based number of the bad move counting both boards, or `None` when
    /// the problem is not a move.
    pub ply: Option<u32>,
    /// The bad move as written, with its label (`4A. Nxe5`).
    pub text: Option<String>,
    /// What is wrong.
    pub problem: String,
    /// The tags read before the problem.
    pub tags: Vec<(String, String)>,
    /// The match as replayed up to the problem, when it could be set up.
    pub played: Option<Box<BughouseGame>>,
}

impl BpgnError {
    /// Where and what, without the match number: `ply 7 (4A. Nxe5): Nxe5 is
    /// not a legal move here`, or `line 3: …` when it is not a move.
    pub fn detail(&self) -> String {
        match (self.ply, &self.text) {
            (Some(ply), Some(text)) => format!("ply {ply} ({text}): {}", self.problem),
            (Some(ply), None) => format!("ply {ply}: {}", self.problem),
            (None, _) => format!("line {}: {}", self.line, self.problem),
        }
    }
}

impl fmt::Display for BpgnError {
    /// `game 2, ply 7 (4A. Nxe5): …` or `game 1, line 3: …`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "game {}, {}", self.game, self.detail())
    }
}

impl std::error::Error for BpgnError {}

/// Whether `input` reads as BPGN rather than PGN: a `Variant "Bughouse"`
/// tag, a `WhiteA`/`BlackA`/`WhiteB`/`BlackB` tag, or a board-lettered move
/// number (`1A.`, `12b.`) outside comments.
pub fn looks_like_bpgn(input: &[u8]) -> bool {
    let text = String::from_utf8_lossy(input);
    Lexer::new(&text).any(|(token, _)| match token {
        Token::Label { .. } => true,
        Token::Tag { name, value } => {
            matches!(name.as_str(), "WhiteA" | "BlackA" | "WhiteB" | "BlackB")
                || (name == "Variant" && is_bughouse_name(&value))
        }
        _ => false,
    })
}

/// Reads every match of a BPGN text.
///
/// BPGN is PGN for bughouse: the tags `WhiteA`, `BlackA`, `WhiteB` and
/// `BlackB` name the players (A1, B1, B2 and A2), and every move carries
/// its board's own move number and a board letter, upper case for White
/// and lower case for Black: `1A. e4 {180} 1B. d4 {179} 1a. e5 …`. The
/// moves are replayed in the order written. A `Variant` tag, if present,
/// must say bughouse; a `FEN` tag holds both start positions as `board A |
/// board B`. Comments are kept (BPGN puts the time left there), NAGs and
/// variations are skipped, `%` lines ignored, a UTF-8 byte order mark and
/// CRLF tolerated. The move numbers are not checked; the letter's case must
/// match the side to move on its board.
///
/// A match that cannot be replayed gives a [`BpgnError`] naming the match,
/// line, ply and move, and reading goes on with the next. Nothing in the
/// input makes it panic.
///
/// ```
/// use slowfuse_rules::bughouse::{Board, read_bpgn};
///
/// let bpgn = "[WhiteA \"Ann\"][BlackA \"Bob\"]\n\n1A. e4 {180} 1B. d4 1a. d5 2A. exd5 *\n";
/// let matches = read_bpgn(bpgn.as_bytes());
/// let read = matches[0].as_ref().unwrap();
/// assert_eq!(read.tag("BlackA"), Some("Bob"));
/// assert_eq!(read.game.ply(), 4);
/// assert_eq!(read.comments[0].seconds(), Some(180.0));
/// // A1's capture went to A2, Black on board B.
/// assert!(read.game.fen(Board::B).contains("[p]"));
/// ```
pub fn read_bpgn(input: &[u8]) -> Vec<Result<BpgnGame, BpgnError>> {
    let text = String::from_utf8_lossy(input);
    let mut lexer = Lexer::new(&text).peekable();
    let mut out = Vec::new();
    let mut index = 0;
    while lexer.peek().is_some() {
        index += 1;
        let mut tags = Vec::new();
        let mut tag_lines = Vec::new();
        let mut bad_tag = None;
        while let Some((Token::Tag { .. } | Token::BadTag, _)) = lexer.peek() {
            match lexer.next() {
                Some((Token::Tag { name, value }, line)) => {
                    tags.push((name, value));
                    tag_lines.push(line);
                }
                Some((_, line)) => {
                    bad_tag.get_or_insert(line);
                }
                None => {}
            }
        }
        let mut reading = Reading::start(index, tags, &tag_lines, bad_tag);
        while let Some((token, _)) = lexer.peek() {
            if matches!(token, Token::Tag { .. } | Token::BadTag) {
                break;
            }
            let Some((token, line)) = lexer.next() else {
                break;
            };
            if let Token::Result(result) = token {
                reading.movetext_result = Some(result.to_owned());
                break;
            }
            reading.take(token, line);
        }
        match reading.finish() {
            Some(read) => out.push(read),
            // Stray text (a lone comment) between matches: not a match.
            None => index -= 1,
        }
    }
    out
}

fn find_tag<'a>(tags: &'a [(String, String)], name: &str) -> Option<&'a str> {
    tags.iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
}

/// Whether a `Variant` tag value names bughouse (case, spaces, `-`, `_` ignored).
fn is_bughouse_name(value: &str) -> bool {
    value
        .chars()
        .filter(|c| !matches!(c, ' ' | '-' | '_'))
        .collect::<String>()
        .eq_ignore_ascii_case("bughouse")
}

/// A move label: `12A.` and friends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Label<'a> {
    board: Board,
    color: Color,
    text: &'a str,
}

/// What the lexer finds in BPGN text.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Token<'a> {
    Tag {
        name: String,
        value: String,
    },
    BadTag,
    Comment(&'a str),
    UnterminatedComment,
    Label(Label<'a>),
    /// A move number without a board letter (`12.`).
    Number(&'a str),
    Move(&'a str),
    Result(&'a str),
}

/// Splits BPGN text into tokens with their 1-based line numbers. Skips
/// whitespace, `;` comments, `%` lines, NAGs and variations.
struct Lexer<'a> {
    text: &'a str,
    pos: usize,
    line: usize,
    at_line_start: bool,
}

impl<'a> Lexer<'a> {
    fn new(text: &'a str) -> Lexer<'a> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        Lexer {
            text,
            pos: 0,
            line: 1,
            at_line_start: true,
        }
    }

    fn bytes(&self) -> &'a [u8] {
        self.text.as_bytes()
    }

    fn peek_byte(&self) -> Option<u8> {
        self.bytes().get(self.pos).copied()
    }

    /// Moves on to byte `end`, counting the lines passed.
    fn advance_to(&mut self, end: usize) {
        let end = end.min(self.text.len());
        let passed = &self.bytes()[self.pos..end];
        self.line += passed.iter().filter(|&&b| b == b'\n').count();
        if let Some(&last) = passed.last() {
            self.at_line_start = last == b'\n';
        }
        self.pos = end;
    }

    /// The byte index just past the next `byte` from `from`, or the end.
    fn after_next(&self, from: usize, byte: u8) -> Option<usize> {
        self.bytes()[from..]
            .iter()
            .position(|&b| b == byte)
            .map(|p| from + p + 1)
    }

    fn skip_line(&mut self) {
        let end = self.after_next(self.pos, b'\n').unwrap_or(self.text.len());
        self.advance_to(end);
    }

    /// Skips a variation `( … )`, nested ones and comments inside included.
    fn skip_variation(&mut self) {
        let mut depth = 0usize;
        while let Some(byte) = self.peek_byte() {
            match byte {
                b'(' => depth += 1,
                b')' => {
                    depth -= 1;
                    if depth == 0 {
                        self.advance_to(self.pos + 1);
                        return;
                    }
                }
                b'{' => {
                    let end = self.after_next(self.pos, b'}').unwrap_or(self.text.len());
                    self.advance_to(end);
                    continue;
                }
                b';' => {
                    self.skip_line();
                    continue;
                }
                _ => {}
            }
            self.advance_to(self.pos + 1);
        }
    }

    /// Reads `[Name "value"]`; on failure skips the rest of the line.
    fn tag(&mut self) -> Token<'a> {
        let bytes = self.bytes();
        let mut i = self.pos + 1;
        let skip_space = |i: &mut usize| {
            while bytes.get(*i).is_some_and(|b| matches!(b, b' ' | b'\t')) {
                *i += 1;
            }
        };
        skip_space(&mut i);
        let name_start = i;
        while bytes
            .get(i)
            .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_')
        {
            i += 1;
        }
        let name_end = i;
        skip_space(&mut i);
        if name_end == name_start || bytes.get(i) != Some(&b'"') {
            self.skip_line();
            return Token::BadTag;
        }
        i += 1;
        let value_start = i;
        while let Some(&b) = bytes.get(i) {
            match b {
                b'\\' => i += 2,
                b'"' | b'\n' => break,
                _ => i += 1,
            }
        }
        if bytes.get(i) != Some(&b'"') {
            self.skip_line();
            return Token::BadTag;
        }
        let value_end = i;
        i += 1;
        skip_space(&mut i);
        if bytes.get(i) != Some(&b']') {
            self.skip_line();
            return Token::BadTag;
        }
        let name = self.text[name_start..name_end].to_owned();
        let value = unescape(&self.text[value_start..value_end]);
        self.advance_to(i + 1);
        Token::Tag { name, value }
    }

    /// Reads a token starting with a digit: a result, a move label, a move
    /// number, or (`0-0`) a move.
    fn numbered(&mut self) -> Token<'a> {
        let rest = &self.text[self.pos..];
        for result in ["1-0", "0-1", "1/2-1/2"] {
            if rest.starts_with(result)
                && rest
                    .as_bytes()
                    .get(result.len())
                    .is_none_or(|&b| is_delimiter(b))
            {
                self.advance_to(self.pos + result.len());
                return Token::Result(result);
            }
        }
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        let after = rest.as_bytes().get(digits).copied();
        let letter = after.and_then(|b| Board::from_letter(char::from(b)));
        let dots_from = if letter.is_some() { digits + 1 } else { digits };
        let dots = rest.as_bytes()[dots_from.min(rest.len())..]
            .iter()
            .take_while(|&&b| b == b'.')
            .count();
        if dots == 0 {
            return self.word();
        }
        let end = dots_from + dots;
        let text = &rest[..end];
        self.advance_to(self.pos + end);
        match (letter, after) {
            (Some(board), Some(byte)) => Token::Label(Label {
                board,
                color: if byte.is_ascii_uppercase() {
                    Color::White
                } else {
                    Color::Black
                },
                text,
            }),
            _ => Token::Number(text),
        }
    }

    /// Reads a move token up to the next delimiter.
    fn word(&mut self) -> Token<'a> {
        let start = self.pos;
        let len = self.bytes()[start..]
            .iter()
            .take_while(|&&b| !is_delimiter(b))
            .count()
            .max(1);
        // Never split a UTF-8 character: delimiters are ASCII.
        let mut end = start + len;
        while end < self.text.len() && !self.text.is_char_boundary(end) {
            end += 1;
        }
        self.advance_to(end);
        Token::Move(&self.text[start..end])
    }
}

impl<'a> Iterator for Lexer<'a> {
    type Item = (Token<'a>, usize);

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let byte = self.peek_byte()?;
            if byte.is_ascii_whitespace() {
                self.advance_to(self.pos + 1);
                continue;
            }
            let line = self.line;
            match byte {
                b'%' if self.at_line_start => self.skip_line(),
                b';' => self.skip_line(),
                b'(' => self.skip_variation(),
                b')' | b']' | b'}' => self.advance_to(self.pos + 1),
                b'$' => {
                    let digits = self.bytes()[self.pos + 1..]
                        .iter()
                        .take_while(|b| b.is_ascii_digit())
                        .count();
                    self.advance_to(self.pos + 1 + digits);
                }
                b'[' => return Some((self.tag(), line)),
                b'{' => {
                    let start = self.pos + 1;
                    return Some(match self.after_next(self.pos, b'}') {
                        Some(end) => {
                            self.advance_to(end);
                            (Token::Comment(&self.text[start..end - 1]), line)
                        }
                        None => {
                            self.advance_to(self.text.len());
                            (Token::UnterminatedComment, line)
                        }
                    });
                }
                b'*' => {
                    self.advance_to(self.pos + 1);
                    return Some((Token::Result("*"), line));
                }
                b'0'..=b'9' => return Some((self.numbered(), line)),
                _ => {
                    let token = self.word();
                    // Move annotations written apart (`e4 !?`) are NAGs.
                    if matches!(token, Token::Move(text) if text.bytes().all(|b| b == b'!' || b == b'?'))
                    {
                        continue;
                    }
                    return Some((token, line));
                }
            }
        }
    }
}

fn is_delimiter(byte: u8) -> bool {
    byte.is_ascii_whitespace()
        || matches!(byte, b'{' | b'}' | b'(' | b')' | b'[' | b']' | b';' | b'$')
}

/// Undoes the `\"` and `\\` escapes of a tag value.
fn unescape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    let mut chars = value.chars();
    while let Some(ch) = chars.next() {
        if ch == '\\' {
            if let Some(next) = chars.next() {
                out.push(next);
            }
        } else {
            out.push(ch);
        }
    }
    out
}

/// The state of one match while its movetext is read.
struct Reading<'a> {
    index: usize,
    tags: Vec<(String, String)>,
    game: Option<BughouseGame>,
    label: Option<Label<'a>>,
    comments: Vec<BpgnComment>,
    movetext_result: Option<String>,
    failed: Option<BpgnError>,
    seen_move: bool,
}

impl<'a> Reading<'a> {
    fn start(
        index: usize,
        tags: Vec<(String, String)>,
        tag_lines: &[usize],
        bad_tag: Option<usize>,
    ) -> Reading<'a> {
        let mut reading = Reading {
            index,
            tags,
            game: None,
            label: None,
            comments: Vec::new(),
            movetext_result: None,
            failed: None,
            seen_move: false,
        };
        if let Some(line) = bad_tag {
            reading.fail(
                line,
                "cannot read this tag: write [Name \"value\"]".to_owned(),
            );
            return reading;
        }
        match setup(&reading.tags) {
            Ok(game) => reading.game = Some(game),
            Err((tag, problem)) => {
                let line = reading
                    .tags
                    .iter()
                    .position(|(name, _)| name == tag)
                    .and_then(|i| tag_lines.get(i).copied())
                    .unwrap_or(1);
                reading.fail(line, problem);
            }
        }
        reading
    }

    /// Records the first problem of the match; the rest is skipped.
    fn fail(&mut self, line: usize, problem: String) {
        if self.failed.is_none() {
            self.failed = Some(BpgnError {
                game: self.index,
                line,
                ply: None,
                text: None,
                problem,
                tags: self.tags.clone(),
                played: self.game.clone().map(Box::new),
            });
        }
    }

    fn take(&mut self, token: Token<'a>, line: usize) {
        if self.failed.is_some() {
            return;
        }
        match token {
            Token::Tag { .. } | Token::BadTag | Token::Result(_) => {}
            Token::Comment(text) => {
                let ply = self.game.as_ref().map_or(0, BughouseGame::ply);
                self.comments.push(BpgnComment {
                    ply,
                    text: text.trim().to_owned(),
                });
            }
            Token::UnterminatedComment => {
                self.fail(
                    line,
                    "a comment opened here is never closed with }".to_owned(),
                );
            }
            Token::Label(label) => self.label = Some(label),
            Token::Number(text) => self.fail(
                line,
                format!(
                    "the move number {text} has no board letter: BPGN numbers moves \
                     like 12A. (White on board A), 12a., 12B. or 12b."
                ),
            ),
            Token::Move(text) => self.play(text, line),
        }
    }

    fn play(&mut self, text: &str, line: usize) {
        self.seen_move = true;
        let Some(game) = self.game.as_ref() else {
            return;
        };
        let label = self.label.take();
        let written = match label {
            Some(label) => format!("{} {text}", label.text),
            None => text.to_owned(),
        };
        let result = match label {
            None => Err("the move has no board label like 1A. or 1a. before it".to_owned()),
            Some(_) if game.is_over() => Err(match game.outcome() {
                Some(outcome) => format!(
                    "the match was already over ({}, {})",
                    outcome.describe(),
                    outcome.result()
                ),
                None => BughouseError::GameOver.to_string(),
            }),
            Some(label) if game.turn(label.board) != label.color => Err(format!(
                "{} says {} moves on board {}, but {} is to move there",
                label.text,
                color_name(label.color),
                label.board,
                color_name(!label.color)
            )),
            Some(label) => game.play(label.board, text).map_err(|e| e.to_string()),
        };
        match result {
            Ok(next) => self.game = Some(next),
            Err(problem) => {
                let ply = game.ply() + 1;
                self.fail(line, problem);
                if let Some(failed) = self.failed.as_mut() {
                    failed.ply = Some(ply);
                    failed.text = Some(written);
                }
            }
        }
    }

    /// The match read, or `None` when there was nothing at all.
    fn finish(self) -> Option<Result<BpgnGame, BpgnError>> {
        if let Some(failed) = self.failed {
            return Some(Err(failed));
        }
        if self.tags.is_empty() && !self.seen_move && self.movetext_result.is_none() {
            return None;
        }
        let game = self.game?;
        let result_tag = find_tag(&self.tags, "Result").map(str::to_owned);
        Some(Ok(BpgnGame {
            index: self.index,
            tags: self.tags,
            game,
            comments: self.comments,
            result_tag,
            movetext_result: self.movetext_result,
        }))
    }
}

fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// The match a BPGN game starts from: its `Variant` tag must name bughouse
/// if present; its `FEN` tag gives both boards as `A | B`.
/// Errors name the tag at fault.
fn setup(tags: &[(String, String)]) -> Result<BughouseGame, (&'static str, String)> {
    if let Some(variant) = find_tag(tags, "Variant")
        && !is_bughouse_name(variant)
    {
        return Err((
            "Variant",
            format!("the Variant tag says \"{variant}\": a BPGN file holds bughouse matches"),
        ));
    }
    let Some(fen) = find_tag(tags, "FEN") else {
        return Ok(BughouseGame::new());
    };
    let mut fens = fen.split('|').map(str::trim);
    match (fens.next(), fens.next(), fens.next()) {
        (Some(a), Some(b), None) => {
            BughouseGame::from_fens(a, b).map_err(|e| ("FEN", format!("bad FEN tag: {e}")))
        }
        _ => Err((
            "FEN",
            "the FEN tag must hold both boards as \"FEN of board A | FEN of board B\"".to_owned(),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(text: &str) -> Vec<Token<'_>> {
        Lexer::new(text).map(|(token, _)| token).collect()
    }

    #[test]
    fn lexer_reads_labels_glued_moves_times_and_results() {
        assert_eq!(
            tokens("1A.e4{299.000} 1a... Nc6 $1 (1a. d5 {x} (2A. c4)) 12. 0-0 !? 1/2-1/2"),
            vec![
                Token::Label(Label {
                    board: Board::A,
                    color: Color::White,
                    text: "1A."
                }),
                Token::Move("e4"),
                Token::Comment("299.000"),
                Token::Label(Label {
                    board: Board::A,
                    color: Color::Black,
                    text: "1a..."
                }),
                Token::Move("Nc6"),
                Token::Number("12."),
                Token::Move("0-0"),
                Token::Result("1/2-1/2"),
            ]
        );
        assert_eq!(
            tokens("[WhiteA \"a \\\"b\\\"\"][BlackA \"c\"]\n% skipped\n[bad\n{open"),
            vec![
                Token::Tag {
                    name: "WhiteA".to_owned(),
                    value: "a \"b\"".to_owned()
                },
                Token::Tag {
                    name: "BlackA".to_owned(),
                    value: "c".to_owned()
                },
                Token::BadTag,
                Token::UnterminatedComment,
            ]
        );
    }

    #[test]
    fn detection_needs_a_bughouse_sign_outside_comments() {
        assert!(looks_like_bpgn(b"1A. e4 *"));
        assert!(looks_like_bpgn(b"[Variant \"Bughouse\"]\n\n*"));
        assert!(looks_like_bpgn(b"[WhiteB \"x\"]\n\n*"));
        assert!(!looks_like_bpgn(
            b"[Event \"1A. e4\"]\n\n1. e4 {1A. e4} e5 *"
        ));
        assert!(!looks_like_bpgn(b"[Variant \"Crazyhouse\"]\n\n1. e4 *"));
    }

    #[test]
    fn seconds_are_read_from_plain_numbers_only() {
        let comment = |text: &str| BpgnComment {
            ply: 1,
            text: text.to_owned(),
        };
        assert_eq!(comment("179").seconds(), Some(179.0));
        assert_eq!(comment("298.375").seconds(), Some(298.375));
        assert_eq!(comment("C:hello").seconds(), None);
        assert_eq!(comment("").seconds(), None);
    }
}
