//! Rules benchmark: our layer beside bare shakmaty / pgn-reader on the same input.
//!
//! Run with `cargo bench -p slowfuse-rules` (add a word after `--` to run
//! only the cases whose name contains it, e.g. `-- atomic`, or a section:
//! `-- perft`, `-- pgn`, `-- replay`). Three parts:
//!
//! 1. perft per variant: [`Game::perft`] / [`perft_from_fen`] against a
//!    plain recursive perft over shakmaty's concrete position types;
//! 2. PGN replay of every game in the shared corpus
//!    (`$SLOWFUSE_CORPUS` or `../shared/corpus`, `pgn/*/*.pgn`, read at run
//!    time): [`read_pgn`] against a minimal pgn-reader visitor that plays
//!    the SAN moves on a shakmaty position of the game's variant;
//! 3. [`Game::replay`] of a 60-ply stored UCI list against parsing and
//!    playing the same UCI moves on a bare shakmaty position.
//!
//! Parts 2 and 3 also time a third contender, "bare + record": bare
//! shakmaty doing the least work that gives what a [`Game`] holds after
//! each move (UCI and SAN text with `+`/`#`, the position kept, whether the
//! game ended; for PGN also the tags and comments), so that the cost of
//! that work and the cost of our layer around it can be told apart.
//!
//! Each case runs once per contender to warm up (the results must agree:
//! leaf counts, games and plies), then a number of samples, the contenders
//! taking turns; the median sample is reported.

use std::env;
use std::fs;
use std::hint::black_box;
use std::io::Cursor;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use pgn_reader::{Outcome as PgnOutcome, RawComment, RawTag, Reader, SanPlus, Visitor};
use shakmaty::fen::Fen;
use shakmaty::san::{San, Suffix};
use shakmaty::uci::UciMove;
use shakmaty::variant::{
    Antichess, Atomic, Crazyhouse, Horde, KingOfTheHill, RacingKings, ThreeCheck,
    Variant as Engine, VariantPosition,
};
use shakmaty::{
    CastlingMode, Chess, FromSetup, KnownOutcome, Move, Outcome, Position, PositionError, Setup,
};
use slowfuse_rules::{Game, PgnReadOptions, Variant, perft_from_fen, read_pgn};

/// Samples per contender and case, after one warm-up run each.
const SAMPLES: usize = 5;

fn main() {
    let filter: Option<String> = env::args().skip(1).find(|a| !a.starts_with('-'));
    let wanted = |name: &str| filter.as_deref().is_none_or(|f| name.contains(f));
    println!(
        "slowfuse-rules benchmark: median of {SAMPLES} samples per contender, contenders \
         taking turns; ratio = our time / bare time"
    );
    perft_section(&wanted);
    pgn_section(&wanted);
    replay_section(&wanted);
}

/// The median time per call of each of `contenders`, which must all
/// return the same value.
fn measure(
    name: &str,
    iterations: u32,
    contenders: &mut [&mut dyn FnMut() -> u64],
) -> Vec<Duration> {
    let values: Vec<u64> = contenders.iter_mut().map(|f| f()).collect();
    assert!(
        values.iter().all(|v| *v == values[0]),
        "{name}: the contenders disagree: {values:?}"
    );
    let mut samples = vec![Vec::with_capacity(SAMPLES); contenders.len()];
    for _ in 0..SAMPLES {
        for (f, times) in contenders.iter_mut().zip(&mut samples) {
            let start = Instant::now();
            for _ in 0..iterations {
                black_box(f());
            }
            times.push(start.elapsed() / iterations);
        }
    }
    samples
        .into_iter()
        .map(|mut times| {
            times.sort();
            times[times.len() / 2]
        })
        .collect()
}

/// How many calls of `f` make a sample of about 0.2 s.
fn iterations_for(mut f: impl FnMut() -> u64) -> u32 {
    let start = Instant::now();
    black_box(f());
    (0.2 / start.elapsed().as_secs_f64()).clamp(1.0, 100_000.0) as u32
}

fn ratio(ours: Duration, bare: Duration) -> f64 {
    ours.as_secs_f64() / bare.as_secs_f64()
}

// ---------------------------------------------------------------- perft

/// A perft case: the variant, its position and the depth. When `start` is
/// set our side times `Game::new(variant).perft(depth)`, whose start
/// position is `fen`; otherwise `perft_from_fen`.
struct PerftCase {
    name: &'static str,
    variant: Variant,
    start: bool,
    fen: &'static str,
    depth: u32,
}

const CHESS_START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

const PERFT_CASES: &[PerftCase] = &[
    PerftCase {
        name: "standard start",
        variant: Variant::Standard,
        start: true,
        fen: CHESS_START,
        depth: 6,
    },
    PerftCase {
        name: "standard kiwipete",
        variant: Variant::Standard,
        start: false,
        fen: "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        depth: 5,
    },
    PerftCase {
        name: "chess960 middlegame",
        variant: Variant::Chess960,
        start: false,
        fen: "nbrq1kbr/Bp3ppp/2pnp3/3p4/5P2/2P4P/PP1PP1P1/NBRQNK1R w HChc - 0 1",
        depth: 5,
    },
    PerftCase {
        name: "atomic middlegame",
        variant: Variant::Atomic,
        start: false,
        fen: "rn2kb1r/1pp1p2p/p2q1pp1/3P4/2P3b1/4PN2/PP3PPP/R2QKB1R b KQkq - 0 1",
        depth: 5,
    },
    PerftCase {
        name: "antichess start",
        variant: Variant::Antichess,
        start: true,
        fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
        depth: 6,
    },
    PerftCase {
        name: "crazyhouse middlegame",
        variant: Variant::Crazyhouse,
        start: false,
        fen: "2rn1b1r/1pp2n1p/B1PBk1pP/5p1P/P5p1/2P2RP1/RP1QNP2/1NBK4[QPp] w - - 0 1",
        depth: 4,
    },
    PerftCase {
        name: "kingofthehill start",
        variant: Variant::KingOfTheHill,
        start: true,
        fen: CHESS_START,
        depth: 6,
    },
    PerftCase {
        name: "threecheck start",
        variant: Variant::ThreeCheck,
        start: true,
        fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+3 0 1",
        depth: 6,
    },
    PerftCase {
        name: "horde start",
        variant: Variant::Horde,
        start: true,
        fen: "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1",
        depth: 7,
    },
    PerftCase {
        name: "racingkings start",
        variant: Variant::RacingKings,
        start: true,
        fen: "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1",
        depth: 5,
    },
];

fn perft_section(wanted: &dyn Fn(&str) -> bool) {
    let cases: Vec<&PerftCase> = PERFT_CASES
        .iter()
        .filter(|c| wanted(c.name) || wanted("perft"))
        .collect();
    if cases.is_empty() {
        return;
    }
    println!();
    println!("## perft");
    println!();
    println!(
        "| position | depth | leaves | ours ms | bare ms | ours Mleaves/s | bare Mleaves/s | ratio |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|");
    for case in cases {
        let mut ours = || {
            if case.start {
                Game::new(case.variant).perft(case.depth)
            } else {
                perft_from_fen(case.variant, case.fen, case.depth).expect("our FEN reading")
            }
        };
        let leaves = ours();
        let mut bare = || bare_perft_from_fen(case.variant, case.fen, case.depth);
        let times = measure(case.name, 1, &mut [&mut ours, &mut bare]);
        let (ours, bare) = (times[0], times[1]);
        let rate = |t: Duration| leaves as f64 / t.as_secs_f64() / 1e6;
        println!(
            "| {} | {} | {leaves} | {:.0} | {:.0} | {:.1} | {:.1} | {:.2} |",
            case.name,
            case.depth,
            ours.as_secs_f64() * 1e3,
            bare.as_secs_f64() * 1e3,
            rate(ours),
            rate(bare),
            ratio(ours, bare)
        );
    }
}

/// Sets up the concrete shakmaty position of `variant` from `fen` and
/// counts its perft leaves with [`bare_perft`].
fn bare_perft_from_fen(variant: Variant, fen: &str, depth: u32) -> u64 {
    let setup = Fen::from_ascii(fen.as_bytes()).expect("FEN").into_setup();
    let mode = match variant {
        Variant::Chess960 => CastlingMode::Chess960,
        _ => CastlingMode::detect(&setup),
    };
    fn run<P: Position + Clone + FromSetup>(setup: Setup, mode: CastlingMode, depth: u32) -> u64 {
        let pos = P::from_setup(setup, mode)
            .or_else(PositionError::ignore_impossible_check)
            .expect("legal position");
        bare_perft(&pos, depth)
    }
    match variant {
        Variant::Standard | Variant::Chess960 => run::<Chess>(setup, mode, depth),
        Variant::Atomic => run::<Atomic>(setup, mode, depth),
        Variant::Antichess => run::<Antichess>(setup, mode, depth),
        Variant::Crazyhouse => run::<Crazyhouse>(setup, mode, depth),
        Variant::KingOfTheHill => run::<KingOfTheHill>(setup, mode, depth),
        Variant::ThreeCheck => run::<ThreeCheck>(setup, mode, depth),
        Variant::Horde => run::<Horde>(setup, mode, depth),
        Variant::RacingKings => run::<RacingKings>(setup, mode, depth),
    }
}

/// The plain recursive perft: leaves `depth` plies down, counting the
/// moves at the last level without playing them.
fn bare_perft<P: Position + Clone>(pos: &P, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = pos.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut leaves = 0;
    for &m in &moves {
        let mut child = pos.clone();
        child.play_unchecked(m);
        leaves += bare_perft(&child, depth - 1);
    }
    leaves
}

// ------------------------------------------------- "bare + record" work

/// What a game holds after each move, built directly on shakmaty.
#[derive(Default)]
struct Record {
    /// Each move as (UCI, SAN with `+`/`#`).
    moves: Vec<(String, String)>,
    /// The positions after each move.
    positions: Vec<VariantPosition>,
    /// Whether the last position ends the game (variant end, mate or
    /// stalemate).
    over: bool,
}

impl Record {
    /// Plays `m` on `pos` and records it, generating the legal moves of the
    /// new position once (for both the `#` and the end).
    fn play(&mut self, pos: &mut VariantPosition, m: Move, mode: CastlingMode) {
        let uci = UciMove::from_move(m, mode).to_string();
        let san = San::from_move(pos, m);
        pos.play_unchecked(m);
        let variant_end = pos.variant_outcome();
        let stuck = pos.legal_moves().is_empty();
        let mate = match variant_end {
            Outcome::Known(KnownOutcome::Decisive { .. }) => true,
            Outcome::Known(KnownOutcome::Draw) => false,
            Outcome::Unknown => stuck && pos.is_check(),
        };
        let suffix = if mate {
            Some(Suffix::Checkmate)
        } else if pos.is_check() {
            Some(Suffix::Check)
        } else {
            None
        };
        self.moves.push((uci, SanPlus { san, suffix }.to_string()));
        self.positions.push(pos.clone());
        self.over = variant_end.is_known() || stuck;
    }
}

// ---------------------------------------------------------- PGN replay

fn corpus_dir() -> Option<PathBuf> {
    let dir = match env::var_os("SLOWFUSE_CORPUS") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"),
    };
    dir.is_dir().then_some(dir)
}

/// The name and bytes of every `pgn/*/*.pgn` file of the corpus, in path
/// order.
fn corpus_pgn_files(corpus: &Path) -> Vec<(String, Vec<u8>)> {
    let mut paths = Vec::new();
    for folder in fs::read_dir(corpus.join("pgn")).expect("corpus pgn folder") {
        let folder = folder.expect("folder entry").path();
        if !folder.is_dir() {
            continue;
        }
        for file in fs::read_dir(&folder).expect("corpus variant folder") {
            let file = file.expect("file entry").path();
            if file.extension().is_some_and(|e| e == "pgn") {
                paths.push(file);
            }
        }
    }
    paths.sort();
    paths
        .into_iter()
        .map(|path| {
            let name = path.strip_prefix(corpus).unwrap_or(&path).display();
            (name.to_string(), fs::read(&path).expect("corpus pgn file"))
        })
        .collect()
}

fn pgn_section(wanted: &dyn Fn(&str) -> bool) {
    let Some(corpus) = corpus_dir() else {
        if wanted("pgn") {
            println!();
            println!("PGN replay skipped: no corpus at $SLOWFUSE_CORPUS or ../shared/corpus");
        }
        return;
    };
    let files = corpus_pgn_files(&corpus);
    let mut rows: Vec<(String, Vec<&[u8]>)> = files
        .iter()
        .map(|(name, bytes)| (name.clone(), vec![bytes.as_slice()]))
        .collect();
    rows.push((
        "all corpus files".to_owned(),
        files.iter().map(|(_, b)| b.as_slice()).collect(),
    ));
    rows.retain(|(name, _)| wanted("pgn") || wanted(name));
    if rows.is_empty() {
        return;
    }
    println!();
    println!("## PGN replay");
    println!();
    println!(
        "| input | KB | games | plies | ours games/s | bare games/s | bare + record games/s \
         | ratio | ratio to bare + record |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (name, inputs) in rows {
        let kilobytes = inputs.iter().map(|i| i.len()).sum::<usize>() as f64 / 1e3;
        let (games, plies) = our_pgn_replay(&inputs);
        for record in [false, true] {
            assert_eq!(
                (games, plies),
                bare_pgn_replay(&inputs, record),
                "{name}: ours and bare (record: {record}) replay different games or plies"
            );
        }
        // A game count that changes with the plies, so that a contender
        // replaying other games or fewer moves is caught.
        let check = |(games, plies): (u64, u64)| games << 32 | plies;
        let mut ours = || check(our_pgn_replay(&inputs));
        let mut bare = || check(bare_pgn_replay(&inputs, false));
        let mut bare_record = || check(bare_pgn_replay(&inputs, true));
        let iterations = iterations_for(&mut ours);
        let times = measure(
            &name,
            iterations,
            &mut [&mut ours, &mut bare, &mut bare_record],
        );
        let rate = |t: Duration| games as f64 / t.as_secs_f64();
        println!(
            "| {name} | {kilobytes:.0} | {games} | {plies} | {:.0} | {:.0} | {:.0} | {:.2} | {:.2} |",
            rate(times[0]),
            rate(times[1]),
            rate(times[2]),
            ratio(times[0], times[1]),
            ratio(times[0], times[2])
        );
    }
}

/// Games replayed to their end, and plies played, by [`read_pgn`].
fn our_pgn_replay(inputs: &[&[u8]]) -> (u64, u64) {
    let mut games = 0;
    let mut plies = 0;
    for input in inputs {
        for game in read_pgn(input, PgnReadOptions::default())
            .into_iter()
            .flatten()
        {
            games += 1;
            plies += u64::from(game.game.ply());
        }
    }
    (games, plies)
}

/// Games replayed to their end, and plies played, by [`BareReplay`] with
/// pgn-reader's default settings.
fn bare_pgn_replay(inputs: &[&[u8]], record: bool) -> (u64, u64) {
    let mut games = 0;
    let mut plies = 0;
    let mut visitor = BareReplay { record };
    for input in inputs {
        let mut reader = Reader::new(Cursor::new(*input));
        while let Ok(Some(read)) = reader.read_game(&mut visitor) {
            if let Ok(n) = read {
                games += 1;
                plies += n;
            }
        }
    }
    (games, plies)
}

/// A minimal pgn-reader visitor: picks the variant (the `Variant` tag, else
/// a variant named in the `Event` tag, else standard, as `read_pgn` does)
/// and the start (`FEN` tag), then plays each SAN move; the output is the
/// number of plies, or an error at the first move that does not play.
/// With `record` it also keeps every tag and comment and a [`Record`] of
/// the moves.
struct BareReplay {
    record: bool,
}

#[derive(Default)]
struct BareTags {
    variant: Option<String>,
    event: Option<String>,
    fen: Option<String>,
    all: Vec<(String, String)>,
    any: bool,
}

/// A game being replayed by [`BareReplay`].
struct BareGame {
    pos: VariantPosition,
    mode: CastlingMode,
    plies: u64,
    tagged: bool,
    ended: bool,
    record: Option<Record>,
    tags: Vec<(String, String)>,
    comments: Vec<String>,
}

fn engine_named(name: &str) -> Option<(Engine, bool)> {
    let name: String = name
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .collect::<String>()
        .to_ascii_lowercase();
    Some(match name.as_str() {
        "standard" | "chess" => (Engine::Chess, false),
        "chess960" => (Engine::Chess, true),
        "atomic" => (Engine::Atomic, false),
        "antichess" | "giveaway" => (Engine::Antichess, false),
        "crazyhouse" => (Engine::Crazyhouse, false),
        "kingofthehill" => (Engine::KingOfTheHill, false),
        "threecheck" => (Engine::ThreeCheck, false),
        "horde" => (Engine::Horde, false),
        "racingkings" => (Engine::RacingKings, false),
        _ => return None,
    })
}

impl Visitor for BareReplay {
    type Tags = BareTags;
    type Movetext = BareGame;
    type Output = Result<u64, ()>;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue(BareTags::default())
    }

    fn tag(
        &mut self,
        tags: &mut Self::Tags,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<Self::Output> {
        tags.any = true;
        if self.record {
            tags.all.push((
                String::from_utf8_lossy(name).into_owned(),
                value.decode_utf8_lossy().into_owned(),
            ));
        }
        let slot = match name {
            b"Variant" => &mut tags.variant,
            b"Event" => &mut tags.event,
            b"FEN" => &mut tags.fen,
            _ => return ControlFlow::Continue(()),
        };
        *slot = Some(value.decode_utf8_lossy().into_owned());
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<Self::Output, Self::Movetext> {
        let chosen = match (&tags.variant, &tags.event) {
            (Some(variant), _) => engine_named(variant),
            (None, Some(event)) => Some(
                event
                    .split(|c: char| !c.is_ascii_alphanumeric())
                    .filter_map(engine_named)
                    .find(|(e, _)| *e != Engine::Chess)
                    .unwrap_or((Engine::Chess, false)),
            ),
            (None, None) => Some((Engine::Chess, false)),
        };
        let Some((engine, chess960)) = chosen else {
            return ControlFlow::Break(Err(()));
        };
        let (pos, mode) = match &tags.fen {
            None => (VariantPosition::new(engine), CastlingMode::Standard),
            Some(fen) => {
                let Ok(fen) = Fen::from_ascii(fen.as_bytes()) else {
                    return ControlFlow::Break(Err(()));
                };
                let setup = fen.into_setup();
                let mode = if chess960 {
                    CastlingMode::Chess960
                } else {
                    CastlingMode::detect(&setup)
                };
                match VariantPosition::from_setup(engine, setup, mode) {
                    Ok(pos) => (pos, mode),
                    Err(_) => return ControlFlow::Break(Err(())),
                }
            }
        };
        let record = self.record.then(|| Record {
            positions: vec![pos.clone()],
            ..Record::default()
        });
        ControlFlow::Continue(BareGame {
            pos,
            mode,
            plies: 0,
            tagged: tags.any,
            ended: false,
            record,
            tags: tags.all,
            comments: Vec::new(),
        })
    }

    fn san(&mut self, game: &mut Self::Movetext, san_plus: SanPlus) -> ControlFlow<Self::Output> {
        if game.record.as_ref().is_some_and(|r| r.over) {
            return ControlFlow::Break(Err(()));
        }
        let Ok(m) = san_plus.san.to_move(&game.pos) else {
            return ControlFlow::Break(Err(()));
        };
        match &mut game.record {
            Some(record) => record.play(&mut game.pos, m, game.mode),
            None => game.pos.play_unchecked(m),
        }
        game.plies += 1;
        ControlFlow::Continue(())
    }

    fn comment(
        &mut self,
        game: &mut Self::Movetext,
        comment: RawComment<'_>,
    ) -> ControlFlow<Self::Output> {
        if self.record {
            let text = String::from_utf8_lossy(comment.as_bytes());
            game.comments.push(text.trim().to_owned());
        }
        ControlFlow::Continue(())
    }

    fn outcome(&mut self, game: &mut Self::Movetext, _: PgnOutcome) -> ControlFlow<Self::Output> {
        game.ended = true;
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, game: Self::Movetext) -> Self::Output {
        black_box((&game.record, &game.tags, &game.comments));
        // Stray text between games, with no tag, move or result, is no game.
        if game.tagged || game.plies > 0 || game.ended {
            Ok(game.plies)
        } else {
            Err(())
        }
    }
}

// ------------------------------------------------------- stored replay

/// The variants whose 60-ply replay is timed.
const REPLAY_VARIANTS: &[Variant] = &[
    Variant::Standard,
    Variant::Chess960,
    Variant::Atomic,
    Variant::Crazyhouse,
];

const REPLAY_PLIES: usize = 60;

/// A game of `plies` legal moves of `variant` that has not ended, played
/// by a fixed pseudo-random choice among the legal moves (the same list on
/// every run): its start FEN and UCI moves.
fn stored_game(variant: Variant, plies: usize) -> (String, Vec<String>) {
    let mut seed: u64 = 0x5eed_0000 + variant as u64;
    'attempt: loop {
        let start = match variant {
            Variant::Chess960 => Game::chess960((seed % 960) as u16).expect("a Chess960 start"),
            _ => Game::new(variant),
        };
        let mut game = start.clone();
        for _ in 0..plies {
            let moves = game.legal_moves();
            // Knuth's MMIX linear congruential generator.
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let pick = (seed >> 33) as usize % moves.len().max(1);
            match moves.get(pick).map(|m| game.play_uci(&m.uci)) {
                Some(Ok(next)) if !next.is_over() => game = next,
                _ => continue 'attempt,
            }
        }
        let uci = game.moves().iter().map(|m| m.uci.clone()).collect();
        return (start.initial_fen(), uci);
    }
}

fn replay_section(wanted: &dyn Fn(&str) -> bool) {
    let variants: Vec<Variant> = REPLAY_VARIANTS
        .iter()
        .copied()
        .filter(|v| wanted("replay") || wanted(v.as_str()))
        .collect();
    if variants.is_empty() {
        return;
    }
    println!();
    println!("## stored-game replay ({REPLAY_PLIES} plies of UCI)");
    println!();
    println!("| variant | ours µs | bare µs | bare + record µs | ratio | ratio to bare + record |");
    println!("|---|---:|---:|---:|---:|---:|");
    for variant in variants {
        let (fen, moves) = stored_game(variant, REPLAY_PLIES);
        let mut ours = || {
            let game = Game::replay(variant, &fen, &moves).expect("our replay");
            u64::from(game.ply())
        };
        let mut bare = || bare_replay(variant, &fen, &moves, None);
        let mut bare_record = || {
            let mut record = Record::default();
            let plies = bare_replay(variant, &fen, &moves, Some(&mut record));
            black_box(&record);
            plies
        };
        let iterations = iterations_for(&mut ours);
        let times = measure(
            &format!("replay {variant}"),
            iterations,
            &mut [&mut ours, &mut bare, &mut bare_record],
        );
        let micros = |t: Duration| t.as_secs_f64() * 1e6;
        println!(
            "| {variant} | {:.1} | {:.1} | {:.1} | {:.2} | {:.2} |",
            micros(times[0]),
            micros(times[1]),
            micros(times[2]),
            ratio(times[0], times[1]),
            ratio(times[0], times[2])
        );
    }
}

/// Sets up the start and plays every UCI move on a bare shakmaty position,
/// checking each for legality (and recording it into `record`, if given);
/// the number of plies played.
fn bare_replay(variant: Variant, fen: &str, moves: &[String], record: Option<&mut Record>) -> u64 {
    let setup = Fen::from_ascii(fen.as_bytes()).expect("FEN").into_setup();
    let mode = match variant {
        Variant::Chess960 => CastlingMode::Chess960,
        _ => CastlingMode::detect(&setup),
    };
    let engine = match variant {
        Variant::Standard | Variant::Chess960 => Engine::Chess,
        Variant::Atomic => Engine::Atomic,
        Variant::Crazyhouse => Engine::Crazyhouse,
        other => unreachable!("no bare replay for {other}"),
    };
    let mut pos = VariantPosition::from_setup(engine, setup, mode).expect("legal start");
    let mut record = record;
    if let Some(record) = record.as_deref_mut() {
        record.positions.push(pos.clone());
    }
    for uci in moves {
        let m = UciMove::from_ascii(uci.as_bytes())
            .expect("UCI")
            .to_move(&pos)
            .expect("legal move");
        match record.as_deref_mut() {
            Some(record) => {
                assert!(!record.over, "a move after the end");
                record.play(&mut pos, m, mode);
            }
            None => pos.play_unchecked(m),
        }
    }
    moves.len() as u64
}
