//! Reading PGN files (via pgn-reader) into replayed games, with errors that say where.

use std::fmt;
use std::io::{self, Cursor};
use std::ops::ControlFlow;

use pgn_reader::{Nag, Outcome as PgnOutcome, RawComment, RawTag, Reader, SanPlus, Visitor};
use shakmaty::Color;
use shakmaty::san::San;

use crate::error::MoveError;
use crate::game::{Game, san_text};
use crate::variant::Variant;

/// How [`read_pgn`] treats games that do not say which variant they are.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PgnReadOptions {
    /// The variant of games without a `Variant` tag. When `None`, such a
    /// game is read as the variant named by a word of its `Event` tag (FICS
    /// exports say `"rated crazyhouse match"` and carry no `Variant` tag),
    /// and as standard chess when no word names one.
    pub default_variant: Option<Variant>,
}

/// A comment in the main line of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnComment {
    /// The number of moves played before the comment (0 = before the first move).
    pub ply: u32,
    /// The text between the braces, trimmed; `[%clk ...]` and other
    /// annotations are kept as written.
    pub text: String,
}

/// One game read from PGN and replayed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnGame {
    /// 1-based index of the game in the file.
    pub index: usize,
    /// Every tag as written, in order (values unescaped).
    pub tags: Vec<(String, String)>,
    /// The game replayed from its start: variant, start FEN
    /// ([`Game::initial_fen`]), moves as played ([`Game::moves`]) and any
    /// ending the final position forces ([`Game::outcome`]).
    pub game: Game,
    /// The comments of the main line.
    pub comments: Vec<PgnComment>,
    /// The NAGs of the main line (`$1`, or `!`, `?` … after a move): the
    /// number of moves played before it, and its number.
    pub nags: Vec<(u32, u8)>,
    /// The value of the `Result` tag, if there is one.
    pub result_tag: Option<String>,
    /// The result token that ends the movetext (`1-0`, `0-1`, `1/2-1/2`,
    /// `*`), if there is one.
    pub movetext_result: Option<String>,
}

impl PgnGame {
    /// The value of the first tag called `name` (exact case), if any.
    pub fn tag(&self, name: &str) -> Option<&str> {
        find_tag(&self.tags, name)
    }
}

/// A game of a PGN file that cannot be replayed. Reading goes on with the
/// next game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnError {
    /// 1-based index of the game in the file.
    pub game: usize,
    /// 1-based ply of the first bad move (1 = the first move of the
    /// record), or `None` when the problem is not a move (tags, FEN, a
    /// broken file).
    pub ply: Option<u32>,
    /// The bad move as written (without move number), when there is one.
    pub text: Option<String>,
    /// What is wrong.
    pub problem: String,
    /// The tags read before the problem.
    pub tags: Vec<(String, String)>,
    /// The game as replayed up to the bad move, when the start position
    /// could be set up.
    pub played: Option<Box<Game>>,
}

impl PgnError {
    /// Where and what, without the game number: `ply 17 (9. Nf3): Nf3 is
    /// not a legal move here`, or just the problem when it is not a move.
    pub fn detail(&self) -> String {
        let mut out = String::new();
        if let Some(ply) = self.ply {
            out.push_str(&format!("ply {ply}"));
            if let Some(text) = &self.text {
                match self.played.as_deref() {
                    Some(game) => {
                        let number = game.fullmove_number();
                        let dots = if game.turn() == Color::White {
                            "."
                        } else {
                            "..."
                        };
                        out.push_str(&format!(" ({number}{dots} {text})"));
                    }
                    None => out.push_str(&format!(" ({text})")),
                }
            }
            out.push_str(": ");
        }
        out.push_str(&self.problem);
        out
    }
}

impl fmt::Display for PgnError {
    /// `game 3, ply 17 (9. Nf3): Nf3 is not a legal move here`, or
    /// `game 2: bad FEN tag: …`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.ply.is_some() {
            write!(f, "game {}, {}", self.game, self.detail())
        } else {
            write!(f, "game {}: {}", self.game, self.detail())
        }
    }
}

impl std::error::Error for PgnError {}

/// Reads every game of a PGN text held in memory. See [`PgnGames`].
///
/// ```
/// use slowfuse_rules::{EndReason, PgnReadOptions, read_pgn};
///
/// let pgn = "[Variant \"Atomic\"]\n\n1. Nf3 Nf6 2. Ne5 e6 {Oops} 3. Nxf7# 1-0\n\n\
///            [Event \"b\"]\n\n1. e4 e5 2. Ke3 *\n";
/// let games = read_pgn(pgn.as_bytes(), PgnReadOptions::default());
/// let first = games[0].as_ref().unwrap();
/// assert_eq!(first.game.outcome().unwrap().reason, EndReason::Explosion);
/// assert_eq!(first.comments[0].text, "Oops");
/// let error = games[1].as_ref().unwrap_err();
/// assert_eq!(error.to_string(), "game 2, ply 3 (2. Ke3): Ke3 is not a legal move here");
/// ```
pub fn read_pgn(input: &[u8], options: PgnReadOptions) -> Vec<Result<PgnGame, PgnError>> {
    PgnGames::new(input, options).collect()
}

/// The games of a PGN file, read one by one with pgn-reader and replayed.
///
/// The variant comes from the `Variant` tag (names as [`Variant`]'s
/// `FromStr` reads them), else from [`PgnReadOptions`]; the start from the
/// `FEN` tag when there is one, else the variant's start position. Moves
/// are read as SAN (a token that is not legal SAN but reads as UCI, like
/// `g1f3`, is tried as UCI); comments and NAGs of the main line are kept;
/// variations are skipped. A UTF-8 byte order mark, CRLF line ends and
/// `%` escape lines are tolerated, and so are three common slips in
/// movetext that are not SAN: a promotion without `=` (`a8Q`), an `e.p.`
/// glued to an en passant capture (`bxa6e.p.`) and a doubled check sign
/// (`Rh7++`). Other text that pgn-reader cannot read as a token is
/// skipped, as pgn-reader does.
///
/// A game that cannot be replayed (an unknown variant, a bad FEN, a null
/// move, an illegal or ambiguous move, a move after the game ended) gives a
/// [`PgnError`] naming the game, ply and move, and reading goes on with the
/// next game. Nothing in the input makes it panic.
pub struct PgnGames {
    reader: Reader<Cursor<Vec<u8>>>,
    collector: Collector,
    done: bool,
}

impl PgnGames {
    /// Reads the games of the PGN text `input`.
    pub fn new(input: &[u8], options: PgnReadOptions) -> PgnGames {
        PgnGames {
            // The movetext buffer keeps its default size: long comments
            // arrive in parts (see `partial_comment`). pgn-reader tops the
            // buffer up to that size before every token, moving what is left
            // to the front, so a 64 KiB buffer made reading quadratic near
            // the end of the input (ten times slower on a 37 KB file).
            reader: Reader::build(Cursor::new(tolerate_slips(input)))
                .set_supported_tag_line_length(1 << 12)
                .finish(),
            collector: Collector { options, index: 0 },
            done: false,
        }
    }
}

impl Iterator for PgnGames {
    type Item = Result<PgnGame, PgnError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let before = self.collector.index;
        match self.reader.read_game(&mut self.collector) {
            Ok(Some(Ok(game))) if is_empty(&game) => {
                // Stray text between games ("[/pgn]"): not a game.
                self.collector.index -= 1;
                self.next()
            }
            Ok(Some(output)) => Some(output),
            Ok(None) => None,
            Err(error) => {
                // pgn-reader has skipped past the broken part; the next call
                // reads on. Errors other than broken data (the input failed)
                // end the reading.
                if error.kind() != io::ErrorKind::InvalidData {
                    self.done = true;
                }
                if self.collector.index == before {
                    self.collector.index += 1;
                }
                Some(Err(PgnError {
                    game: self.collector.index,
                    ply: None,
                    text: None,
                    problem: format!("the PGN cannot be read: {error}"),
                    tags: Vec::new(),
                    played: None,
                }))
            }
        }
    }
}

/// Rewrites three common slips in movetext into SAN that pgn-reader reads:
/// `a8Q` / `bxa8Q` → `a8=Q` / `bxa8=Q`, `bxa6e.p.` → `bxa6`, `Rh7++` →
/// `Rh7+`. Tag lines, `{}` and `;` comments and `%` lines are copied as
/// they are.
fn tolerate_slips(input: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(input.len() + 16);
    let mut i = 0;
    let mut line_start = true;
    // Where the current movetext token began in `out`.
    let mut token_start = 0;
    while i < input.len() {
        let byte = input[i];
        let copy_until = |end: u8, from: usize| {
            input[from..]
                .iter()
                .position(|&b| b == end)
                .map_or(input.len(), |p| from + p + 1)
        };
        let skip_to = match byte {
            b'[' | b'%' if line_start => Some(copy_until(b'\n', i)),
            b'{' => Some(copy_until(b'}', i)),
            b';' => Some(copy_until(b'\n', i)),
            _ => None,
        };
        if let Some(end) = skip_to {
            out.extend_from_slice(&input[i..end]);
            line_start = out.last() == Some(&b'\n');
            i = end;
            token_start = out.len();
            continue;
        }
        line_start = byte == b'\n' || (line_start && matches!(byte, b' ' | b'\t' | b'\r'));
        let token = &out[token_start..];
        let after_square = matches!(token, [.., b'a'..=b'h', b'1'..=b'8']);
        if after_square && input[i..].starts_with(b"e.p.") {
            i += 4;
            continue;
        }
        if byte == b'+' && out.last() == Some(&b'+') {
            i += 1;
            continue;
        }
        let pawn_on_last_rank = matches!(
            token,
            [b'a'..=b'h', b'1' | b'8'] | [b'a'..=b'h', b'x', b'a'..=b'h', b'1' | b'8']
        );
        if pawn_on_last_rank
            && matches!(byte, b'Q' | b'R' | b'B' | b'N')
            && input
                .get(i + 1)
                .is_none_or(|b| !b.is_ascii_alphanumeric() && *b != b'=')
        {
            out.push(b'=');
        }
        out.push(byte);
        if !(byte.is_ascii_alphanumeric() || matches!(byte, b'x' | b'=' | b'@' | b'-')) {
            token_start = out.len();
        }
        i += 1;
    }
    out
}

/// Whether a "game" holds nothing at all: no tag, move, comment or result.
fn is_empty(game: &PgnGame) -> bool {
    game.tags.is_empty()
        && game.game.ply() == 0
        && game.comments.is_empty()
        && game.nags.is_empty()
        && game.movetext_result.is_none()
}

/// The pgn-reader visitor: builds one [`PgnGame`] or [`PgnError`] per game.
struct Collector {
    options: PgnReadOptions,
    /// 1-based index of the game being read (0 before the first).
    index: usize,
}

/// The state of a game while its movetext is read.
struct Reading {
    index: usize,
    tags: Vec<(String, String)>,
    game: Game,
    comments: Vec<PgnComment>,
    pending_comment: String,
    nags: Vec<(u32, u8)>,
    movetext_result: Option<String>,
}

impl Reading {
    fn fail(&mut self, text: String, error: &MoveError) -> PgnError {
        let problem = match error {
            MoveError::Unparsable(_) if text == "--" || text == "Z0" => {
                "a null move cannot be replayed".to_owned()
            }
            MoveError::GameOver => match self.game.outcome() {
                Some(outcome) => format!(
                    "the game was already over ({}, {})",
                    outcome.reason.describe(),
                    outcome.result()
                ),
                None => "the game was already over".to_owned(),
            },
            other => other.to_string(),
        };
        PgnError {
            game: self.index,
            ply: Some(self.game.ply() + 1),
            text: Some(text),
            problem,
            tags: std::mem::take(&mut self.tags),
            played: Some(Box::new(self.game.clone())),
        }
    }
}

/// Keeps a tag as read (name and value as UTF-8, the value unescaped).
pub(crate) fn push_tag(tags: &mut Vec<(String, String)>, name: &[u8], value: RawTag<'_>) {
    tags.push((
        String::from_utf8_lossy(name).into_owned(),
        value.decode_utf8_lossy().into_owned(),
    ));
}

/// Keeps a part of a long comment: pgn-reader hands a very long one over in parts.
pub(crate) fn keep_comment_part(pending: &mut String, part: RawComment<'_>) {
    pending.push_str(&String::from_utf8_lossy(part.as_bytes()));
}

/// The whole comment that `last` ends: the parts kept before it, then it.
pub(crate) fn whole_comment(pending: &mut String, last: RawComment<'_>) -> String {
    let mut text = std::mem::take(pending);
    text.push_str(&String::from_utf8_lossy(last.as_bytes()));
    text
}

fn find_tag<'a>(tags: &'a [(String, String)], name: &str) -> Option<&'a str> {
    tags.iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
}

impl Collector {
    /// The variant of a game from its tags (see [`PgnReadOptions`]).
    fn variant(&self, tags: &[(String, String)]) -> Result<Variant, String> {
        if let Some(name) = find_tag(tags, "Variant") {
            return name.parse().map_err(|e| format!("{e} in the Variant tag"));
        }
        if let Some(variant) = self.options.default_variant {
            return Ok(variant);
        }
        let event = find_tag(tags, "Event").unwrap_or("");
        Ok(event
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter_map(|word| word.parse::<Variant>().ok())
            .find(|v| *v != Variant::Standard)
            .unwrap_or(Variant::Standard))
    }

    fn start(&self, tags: &[(String, String)]) -> Result<Game, String> {
        let variant = self.variant(tags)?;
        match find_tag(tags, "FEN") {
            Some(fen) => Game::from_fen(variant, fen).map_err(|e| format!("bad FEN tag: {e}")),
            None => Ok(Game::new(variant)),
        }
    }
}

impl Visitor for Collector {
    type Tags = Vec<(String, String)>;
    type Movetext = Reading;
    type Output = Result<PgnGame, PgnError>;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        self.index += 1;
        ControlFlow::Continue(Vec::new())
    }

    fn tag(
        &mut self,
        tags: &mut Self::Tags,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<Self::Output> {
        push_tag(tags, name, value);
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<Self::Output, Self::Movetext> {
        match self.start(&tags) {
            Ok(game) => ControlFlow::Continue(Reading {
                index: self.index,
                tags,
                game,
                comments: Vec::new(),
                pending_comment: String::new(),
                nags: Vec::new(),
                movetext_result: None,
            }),
            Err(problem) => ControlFlow::Break(Err(PgnError {
                game: self.index,
                ply: None,
                text: None,
                problem,
                tags,
                played: None,
            })),
        }
    }

    fn san(&mut self, movetext: &mut Reading, san_plus: SanPlus) -> ControlFlow<Self::Output> {
        let result = match san_plus.san {
            San::Null => Err(MoveError::Unparsable("--".to_owned())),
            san => movetext.game.play_san_in_place(&san),
        };
        match result {
            Ok(()) => ControlFlow::Continue(()),
            Err(error) => {
                let text = match san_plus.san {
                    San::Null => "--".to_owned(),
                    _ => san_text(&san_plus),
                };
                ControlFlow::Break(Err(movetext.fail(text, &error)))
            }
        }
    }

    fn nag(&mut self, movetext: &mut Reading, nag: Nag) -> ControlFlow<Self::Output> {
        movetext.nags.push((movetext.game.ply(), nag.0));
        ControlFlow::Continue(())
    }

    fn partial_comment(
        &mut self,
        movetext: &mut Reading,
        comment: RawComment<'_>,
    ) -> ControlFlow<Self::Output> {
        keep_comment_part(&mut movetext.pending_comment, comment);
        ControlFlow::Continue(())
    }

    fn comment(
        &mut self,
        movetext: &mut Reading,
        comment: RawComment<'_>,
    ) -> ControlFlow<Self::Output> {
        let text = whole_comment(&mut movetext.pending_comment, comment);
        movetext.comments.push(PgnComment {
            ply: movetext.game.ply(),
            text: text.trim().to_owned(),
        });
        ControlFlow::Continue(())
    }

    fn outcome(
        &mut self,
        movetext: &mut Reading,
        outcome: PgnOutcome,
    ) -> ControlFlow<Self::Output> {
        movetext.movetext_result = Some(outcome.to_string());
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, movetext: Reading) -> Self::Output {
        let result_tag = find_tag(&movetext.tags, "Result").map(str::to_owned);
        Ok(PgnGame {
            index: movetext.index,
            tags: movetext.tags,
            game: movetext.game,
            comments: movetext.comments,
            nags: movetext.nags,
            result_tag,
            movetext_result: movetext.movetext_result,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outcome::EndReason;

    fn read(text: &str) -> Vec<Result<PgnGame, PgnError>> {
        read_pgn(text.as_bytes(), PgnReadOptions::default())
    }

    #[test]
    fn slips_are_mended_outside_comments_and_tags() {
        let mended = tolerate_slips(
            b"[Event \"a8Q e.p.\"]\n\n1. e4 {a8Q ++} 2. bxa6e.p. Rh7++ 3.a8Q bxc8N+ Qa8 ; a8Q\n",
        );
        assert_eq!(
            String::from_utf8(mended).unwrap(),
            "[Event \"a8Q e.p.\"]\n\n1. e4 {a8Q ++} 2. bxa6 Rh7+ 3.a8=Q bxc8=N+ Qa8 ; a8Q\n"
        );
    }

    #[test]
    fn tags_comments_nags_and_variations() {
        let games = read(
            "\u{feff}[Event \"One\"]\r\n[Result \"1-0\"]\r\n\r\n\
             {Start} 1. e4 $1 e5 !? (1... c5 {skipped} 2. Nf3) 2. Nf3 {Two} 1-0\r\n",
        );
        let game = games[0].as_ref().unwrap();
        assert_eq!(game.index, 1);
        assert_eq!(game.tag("Event"), Some("One"));
        assert_eq!(game.result_tag.as_deref(), Some("1-0"));
        assert_eq!(game.movetext_result.as_deref(), Some("1-0"));
        let sans: Vec<&str> = game.game.moves().iter().map(|m| m.san.as_str()).collect();
        assert_eq!(sans, ["e4", "e5", "Nf3"]);
        let comments: Vec<(u32, &str)> = game
            .comments
            .iter()
            .map(|c| (c.ply, c.text.as_str()))
            .collect();
        assert_eq!(comments, [(0, "Start"), (3, "Two")]);
        assert_eq!(game.nags, [(1, 1), (2, 5)]);
    }

    #[test]
    fn errors_name_the_game_ply_and_move_and_reading_goes_on() {
        let games = read(
            "[Event \"a\"]\n\n1. e4 -- 2. d4 *\n\n\
             [Variant \"Atomic\"]\n\n1. Nf3 f6 2. Ne5 d6 3. Nf7 Kxf7 *\n\n\
             [FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n1. e4 *\n\n\
             [Variant \"Atomic\"]\n\n1. Nf3 Nf6 2. Ne5 e6 3. Nxf7 Ke7 *\n\n\
             1. d4 *\n",
        );
        assert_eq!(games.len(), 5);
        let null = games[0].as_ref().unwrap_err();
        assert_eq!((null.game, null.ply), (1, Some(2)));
        assert_eq!(
            null.to_string(),
            "game 1, ply 2 (1... --): a null move cannot be replayed"
        );
        let king = games[1].as_ref().unwrap_err();
        assert_eq!(
            king.to_string(),
            "game 2, ply 6 (3... Kxf7): Kxf7 is not a legal move here"
        );
        assert_eq!(king.played.as_ref().unwrap().ply(), 5);
        let fen = games[2].as_ref().unwrap_err();
        assert_eq!((fen.game, fen.ply), (3, None));
        assert!(
            fen.to_string().starts_with("game 3: bad FEN tag: "),
            "{fen}"
        );
        let over = games[3].as_ref().unwrap_err();
        assert_eq!(
            over.played.as_ref().unwrap().outcome().unwrap().reason,
            EndReason::Explosion
        );
        assert_eq!(
            over.detail(),
            "ply 6 (3... Ke7): the game was already over (King exploded, 1-0)"
        );
        assert_eq!(games[4].as_ref().unwrap().game.ply(), 1);
    }
}
