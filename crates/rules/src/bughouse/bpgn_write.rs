//! Writing a bughouse match as BPGN: four player tags, board-lettered move numbers, comments.

use super::game::BughouseGame;
use crate::pgn::{TagSection, clean_comment, wrap};

/// The tags of a BPGN export that the match itself does not know.
///
/// `Round` is always `-`; `Result`, `Variant`, `SetUp` and `FEN` come from
/// the [`BughouseGame`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BpgnHeaders {
    /// `Event` tag.
    pub event: String,
    /// `Site` tag, e.g. the match's URL.
    pub site: String,
    /// `Date` tag as `YYYY.MM.DD`.
    pub date: String,
    /// `WhiteA` tag: A1's name (White on board A).
    pub white_a: String,
    /// `BlackA` tag: B1's name (Black on board A).
    pub black_a: String,
    /// `WhiteB` tag: B2's name (White on board B).
    pub white_b: String,
    /// `BlackB` tag: A2's name (Black on board B).
    pub black_b: String,
    /// `Termination` tag, e.g. [`BughouseOutcome::describe`](super::BughouseOutcome::describe);
    /// omitted when `None`.
    pub termination: Option<String>,
    /// More tags written last, in order, e.g. `("TimeControl", "...")`.
    /// Characters other than letters, digits and `_` are dropped from names.
    pub extra: Vec<(String, String)>,
}

/// Writes `game` as one BPGN game.
///
/// Tags: `Event`, `Site`, `Date`, `Round "-"`, `WhiteA`, `BlackA`,
/// `WhiteB`, `BlackB`, `Result` (from team A's side: `1-0` means A1 and A2
/// won), `Variant "Bughouse"`, `SetUp "1"` and `FEN "board A | board B"`
/// when a board did not start from the chess start position, `Termination`
/// when given, then the extra tags.
///
/// Movetext: every move in the order played, each with its board's own
/// move number and board letter (`1A.` for White on board A, `1a.` for
/// Black, `1B.` / `1b.` on board B), e.g. `1A. e4 1B. d4 1a. e5`.
/// `comments[i]` is written as `{ text }` after move `i` (0-based, counting
/// both boards) — BPGN keeps the time a player had left here, e.g. `{179}`;
/// `}` becomes `)` and line breaks spaces. The result (`*` while the match
/// goes on) ends the movetext; lines are at most 80 characters where no
/// word is longer.
///
/// ```
/// use slowfuse_rules::bughouse::{Board, BpgnHeaders, BughouseGame, write_bpgn};
///
/// let game = BughouseGame::new().play(Board::A, "e4")?.play(Board::B, "d4")?;
/// let bpgn = write_bpgn(&BpgnHeaders::default(), &game, &[Some("180".into())]);
/// assert!(bpgn.ends_with("\n1A. e4 { 180 } 1B. d4 *\n\n"));
/// # Ok::<_, slowfuse_rules::bughouse::BughouseError>(())
/// ```
pub fn write_bpgn(
    headers: &BpgnHeaders,
    game: &BughouseGame,
    comments: &[Option<String>],
) -> String {
    let mut out = String::new();
    let result = game.outcome().map_or("*", |o| o.result());
    let mut tags = TagSection::new(&mut out);
    tags.event(&headers.event, &headers.site, &headers.date);
    tags.tag("WhiteA", &headers.white_a);
    tags.tag("BlackA", &headers.black_a);
    tags.tag("WhiteB", &headers.white_b);
    tags.tag("BlackB", &headers.black_b);
    tags.tag("Result", result);
    tags.tag("Variant", "Bughouse");
    if !game.is_standard_start() {
        tags.tag("SetUp", "1");
        let fens = format!(
            "{} | {}",
            game.initial_fen(super::Board::A),
            game.initial_fen(super::Board::B)
        );
        tags.tag("FEN", &fens);
    }
    if let Some(termination) = &headers.termination {
        tags.tag("Termination", termination);
    }
    tags.extra(&headers.extra);
    tags.end();

    let mut tokens = Vec::new();
    for (ply, played) in game.moves().iter().enumerate() {
        tokens.push(format!("{} {}", played.label(), played.san));
        let comment = comments
            .get(ply)
            .and_then(Option::as_deref)
            .map(clean_comment)
            .filter(|text| !text.is_empty());
        if let Some(text) = comment {
            tokens.push("{".to_owned());
            tokens.extend(text.split(' ').map(str::to_owned));
            tokens.push("}".to_owned());
        }
    }
    tokens.push(result.to_owned());
    wrap(&tokens, &mut out);
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::GameRules;
    use crate::bughouse::{Board, Seat};

    #[test]
    fn tags_name_the_four_players_and_the_start() {
        let game =
            BughouseGame::from_fens(super::super::START_FEN, "4k3/8/8/8/8/8/8/4K3[Qq] b - - 0 9")
                .unwrap()
                .play(Board::B, "Q@e1")
                .unwrap_err();
        assert!(game.to_string().contains("not a legal move"), "{game}");
        let game =
            BughouseGame::from_fens(super::super::START_FEN, "4k3/8/8/8/8/8/8/4K3[Qq] b - - 0 9")
                .unwrap()
                .play(Board::B, "Q@e2+")
                .unwrap()
                .resign(Seat::A1)
                .unwrap();
        let headers = BpgnHeaders {
            white_a: "Ann".to_owned(),
            black_a: "Bob".to_owned(),
            white_b: "Cy \"C\"".to_owned(),
            black_b: "Di".to_owned(),
            termination: Some(game.outcome().unwrap().describe()),
            extra: vec![("Time Control".to_owned(), "3 days".to_owned())],
            ..BpgnHeaders::default()
        };
        let bpgn = write_bpgn(&headers, &game, &[]);
        assert_eq!(
            bpgn,
            "[Event \"\"]\n[Site \"\"]\n[Date \"\"]\n[Round \"-\"]\n\
             [WhiteA \"Ann\"]\n[BlackA \"Bob\"]\n[WhiteB \"Cy \\\"C\\\"\"]\n[BlackB \"Di\"]\n\
             [Result \"0-1\"]\n[Variant \"Bughouse\"]\n[SetUp \"1\"]\n\
             [FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1 | \
             4k3/8/8/8/8/8/8/4K3[Qq] b - - 0 9\"]\n\
             [Termination \"A1 resigned: team B wins\"]\n[TimeControl \"3 days\"]\n\
             \n9b. Q@e2+ 0-1\n\n"
        );
    }

    #[test]
    fn long_movetext_wraps_at_80() {
        let mut game = BughouseGame::new();
        for _ in 0..6 {
            for (board, m) in [
                (Board::A, "Nf3"),
                (Board::B, "Nc3"),
                (Board::A, "Nf6"),
                (Board::B, "Nc6"),
                (Board::A, "Ng1"),
                (Board::B, "Nb1"),
                (Board::A, "Ng8"),
                (Board::B, "Nb8"),
            ] {
                game = game.play(board, m).unwrap();
            }
        }
        let bpgn = write_bpgn(&BpgnHeaders::default(), &game, &[]);
        assert!(bpgn.lines().all(|l| l.chars().count() <= 80), "{bpgn}");
        let movetext = bpgn.split("\n\n").nth(1).unwrap().replace('\n', " ");
        assert!(
            movetext.contains("11A. Nf3 11B. Nc3 11a. Nf6 11b. Nc6 12A. Ng1"),
            "{movetext}"
        );
    }
}
