//! Our PGN output read back by an independent reader (pgn-reader) and replayed.

use std::io;
use std::ops::ControlFlow;

use pgn_reader::{Outcome as PgnOutcome, RawComment, RawTag, Reader, SanPlus, Visitor};
use slowfuse_rules::GameRules;
use slowfuse_rules::{Color, EndReason, Game, PgnHeaders, Variant, write_pgn};

/// What pgn-reader saw in one game.
#[derive(Debug, Default)]
struct Seen {
    tags: Vec<(String, String)>,
    sans: Vec<String>,
    comments: Vec<String>,
    result: Option<String>,
}

impl Seen {
    fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

struct Collect;

impl Visitor for Collect {
    type Tags = Seen;
    type Movetext = Seen;
    type Output = Seen;

    fn begin_tags(&mut self) -> ControlFlow<Seen, Seen> {
        ControlFlow::Continue(Seen::default())
    }

    fn tag(&mut self, tags: &mut Seen, name: &[u8], value: RawTag<'_>) -> ControlFlow<Seen> {
        tags.tags.push((
            String::from_utf8_lossy(name).into_owned(),
            value.decode_utf8_lossy().into_owned(),
        ));
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Seen) -> ControlFlow<Seen, Seen> {
        ControlFlow::Continue(tags)
    }

    fn san(&mut self, movetext: &mut Seen, san_plus: SanPlus) -> ControlFlow<Seen> {
        movetext.sans.push(san_plus.to_string());
        ControlFlow::Continue(())
    }

    fn comment(&mut self, movetext: &mut Seen, comment: RawComment<'_>) -> ControlFlow<Seen> {
        let text = String::from_utf8_lossy(comment.as_bytes());
        movetext.comments.push(text.trim().to_owned());
        ControlFlow::Continue(())
    }

    fn outcome(&mut self, movetext: &mut Seen, outcome: PgnOutcome) -> ControlFlow<Seen> {
        movetext.result = Some(outcome.to_string());
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, movetext: Seen) -> Seen {
        movetext
    }
}

fn read_back(pgn: &str) -> Seen {
    let mut reader = Reader::new(io::Cursor::new(pgn.as_bytes()));
    let seen = reader
        .read_game(&mut Collect)
        .expect("reading from memory cannot fail")
        .expect("one game");
    assert!(
        reader.read_game(&mut Collect).unwrap().is_none(),
        "exactly one game"
    );
    seen
}

fn headers(termination: Option<String>) -> PgnHeaders {
    PgnHeaders {
        event: "Slowfuse \"test\" event".to_owned(),
        site: "https://example.invalid/game/7".to_owned(),
        date: "2025.03.04".to_owned(),
        white: "White \\ Player".to_owned(),
        black: "Black Player".to_owned(),
        termination,
        extra: vec![("TimeControl".to_owned(), "1/259200".to_owned())],
    }
}

#[test]
fn an_independent_reader_accepts_our_pgn() {
    let mut game = Game::new(Variant::Atomic);
    for m in ["Nf3", "Nf6", "Ne5", "e6", "Nxf7"] {
        game = game.play(m).unwrap();
    }
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.reason, EndReason::Explosion);
    let comments = vec![
        Some("Knight out {braces} and\nnewlines".to_owned()),
        Some("A reply worth a long comment: ".repeat(5)),
        None,
        None,
        Some("Boom".to_owned()),
    ];
    let pgn = write_pgn(
        &headers(Some(outcome.reason.describe().to_owned())),
        &game,
        &comments,
    );
    assert!(pgn.lines().all(|line| line.chars().count() <= 80), "{pgn}");
    assert!(pgn.ends_with("\n\n"));

    let seen = read_back(&pgn);
    let names: Vec<&str> = seen.tags.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        [
            "Event",
            "Site",
            "Date",
            "Round",
            "White",
            "Black",
            "Result",
            "Variant",
            "Termination",
            "TimeControl"
        ]
    );
    assert_eq!(seen.tag("Event"), Some("Slowfuse \"test\" event"));
    assert_eq!(seen.tag("White"), Some("White \\ Player"));
    assert_eq!(seen.tag("Round"), Some("-"));
    assert_eq!(seen.tag("Result"), Some("1-0"));
    assert_eq!(seen.tag("Variant"), Some("Atomic"));
    assert_eq!(seen.tag("Termination"), Some("King exploded"));
    assert_eq!(seen.result.as_deref(), Some("1-0"));

    let sans: Vec<&str> = game.moves().iter().map(|m| m.san.as_str()).collect();
    assert_eq!(seen.sans, sans);
    assert_eq!(seen.comments.len(), 3);
    assert_eq!(seen.comments[0], "Knight out {braces) and newlines");
    assert_eq!(seen.comments[2], "Boom");
    assert!(pgn.contains("{ Knight out {braces) and newlines } 1... Nf6"));

    // Replaying what was read gives the same game.
    let variant: Variant = seen.tag("Variant").unwrap_or("").parse().unwrap();
    let mut replayed = Game::new(variant);
    for san in &seen.sans {
        replayed = replayed.play(san).unwrap();
    }
    assert_eq!(replayed, game);
}

#[test]
fn a_game_from_a_fen_round_trips() {
    let fen = "r3k2r/pp3ppp/8/3pP3/8/8/PPP2PPP/R3K2R w KQkq d6 0 15";
    let mut game = Game::from_fen(Variant::Standard, fen).unwrap();
    for m in ["exd6", "O-O-O", "O-O", "Rxd6", "Rfe1", "Rd2"] {
        game = game.play(m).unwrap();
    }
    let game = game.resign(Color::White).unwrap();
    let pgn = write_pgn(&headers(None), &game, &[]);
    assert!(pgn.contains("[SetUp \"1\"]\n"));
    assert!(!pgn.contains("[Variant "));
    assert!(
        pgn.contains("15. exd6 O-O-O 16. O-O Rxd6 17. Rfe1 Rd2 0-1"),
        "{pgn}"
    );

    let seen = read_back(&pgn);
    assert_eq!(seen.tag("FEN"), Some(game.initial_fen().as_str()));
    assert_eq!(seen.tag("Result"), Some("0-1"));
    assert_eq!(seen.result.as_deref(), Some("0-1"));

    let variant: Variant = seen.tag("Variant").unwrap_or("").parse().unwrap();
    let mut replayed = Game::from_fen(variant, seen.tag("FEN").unwrap()).unwrap();
    for san in &seen.sans {
        replayed = replayed.play(san).unwrap();
    }
    assert_eq!(replayed.initial_fen(), game.initial_fen());
    assert_eq!(replayed.fen(), game.fen());
    assert_eq!(replayed.moves(), game.moves());
}
