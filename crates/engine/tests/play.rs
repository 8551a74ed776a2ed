//! What a player notices of the computer: it mates, explodes kings, gives material away in antichess, drops pieces, repeats itself for one seed, and never plays an illegal move.

use std::path::PathBuf;

use slowfuse_engine::playout::random_position;
use slowfuse_engine::puzzles::forced_win;
use slowfuse_engine::{EngineError, EnginePosition, Level, Limits, analyse, best_move};
use slowfuse_rules::{Game, PgnReadOptions, Variant, read_pgn};

fn hard(variant: Variant, fen: &str, nodes: u64) -> slowfuse_engine::SearchResult {
    let position = EnginePosition::from_fen(variant, fen).expect("a legal FEN");
    best_move(&position, Level::Hard, &Limits::nodes(nodes), 7).expect("a move")
}

#[test]
fn mates_in_one_in_standard() {
    let found = hard(
        Variant::Standard,
        "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
        5_000,
    );
    assert_eq!(found.uci, "d1d8");
    assert_eq!(found.mate, Some(1));
}

#[test]
fn mates_in_two_in_standard() {
    // 1. Nf6+ gxf6 2. Bxf7#: the solver confirms there is no mate in one.
    let fen = "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1";
    let position = EnginePosition::from_fen(Variant::Standard, fen).unwrap();
    assert_eq!(forced_win(&position, 1), None);
    let found = hard(Variant::Standard, fen, 60_000);
    assert_eq!(found.mate, Some(2), "{found:?}");
    assert_eq!(found.uci, "d5f6");
    assert_eq!(found.pv.len(), 3);
}

#[test]
fn knows_it_is_mated_and_that_the_game_is_over() {
    let mated = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1";
    let game = Game::from_fen(Variant::Standard, mated)
        .unwrap()
        .play("Rd8#")
        .unwrap();
    let position = EnginePosition::from_game(&game);
    assert_eq!(
        best_move(&position, Level::Hard, &Limits::nodes(100), 0),
        Err(EngineError::GameOver)
    );
    assert_eq!(analyse(&position, &Limits::nodes(100)).score_cp, 30_000);
}

#[test]
fn explodes_the_king_in_atomic() {
    // The knight takes the pawn next to the king: the blast takes the king.
    let found = hard(Variant::Atomic, "4k3/3p4/8/4N3/8/8/8/4K3 w - - 0 1", 2_000);
    assert_eq!(found.uci, "e5d7");
    assert_eq!(found.mate, Some(1));
    // Black's queen can blow up White's king through the pawn on f2.
    let found = hard(
        Variant::Atomic,
        "rnb1kbnr/pppp1ppp/8/4p3/7q/3P4/PPP1PPPP/RNBQKBNR b KQkq - 0 1",
        5_000,
    );
    assert_eq!(found.uci, "h4f2");
}

#[test]
fn explodes_the_king_in_corpus_atomic_games() {
    let Some(path) = corpus("pgn/atomic/atomic-games.pgn") else {
        return;
    };
    let bytes = std::fs::read(&path).expect("the corpus file reads");
    let mut checked = 0;
    for (number, read) in read_pgn(&bytes, PgnReadOptions::default())
        .into_iter()
        .enumerate()
    {
        let Ok(record) = read else { continue };
        let moves: Vec<String> = record.game.moves().iter().map(|m| m.uci.clone()).collect();
        let mut game = Game::from_fen(Variant::Atomic, &record.game.initial_fen()).unwrap();
        for (ply, uci) in moves.iter().enumerate() {
            let position = EnginePosition::from_game(&game);
            if forced_win(&position, 1).is_some() {
                let found = best_move(&position, Level::Hard, &Limits::nodes(3_000), 1).unwrap();
                assert_eq!(
                    found.mate,
                    Some(1),
                    "game {} ply {ply}: {found:?}",
                    number + 1
                );
                checked += 1;
            }
            game = game.play_uci(uci).unwrap();
        }
    }
    assert!(
        checked > 0,
        "no position of the corpus had a king to explode"
    );
}

#[test]
fn gives_material_away_in_antichess() {
    // White wins by offering the queen to the pawn (1. Qc1 d4 2. Qc3 dxc3).
    let fen = "8/8/8/3p4/8/8/8/Q7 w - - 0 1";
    let found = hard(Variant::Antichess, fen, 2_000);
    assert_eq!(found.mate, Some(2), "{found:?}");
    let after = EnginePosition::from_fen(Variant::Antichess, fen).unwrap();
    assert_eq!(forced_win(&after, 1), None);
    assert!(forced_win(&after, 2).is_some());
    // A capture is compulsory: the only moves are captures and one is played.
    let fen = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w - - 0 2";
    let found = hard(Variant::Antichess, fen, 3_000);
    assert_eq!(found.uci, "e4d5");
}

#[test]
fn drops_pieces_in_crazyhouse() {
    // A rook in hand mates on the back rank.
    let found = hard(
        Variant::Crazyhouse,
        "6k1/5ppp/8/8/8/8/5PPP/6K1[R] w - - 0 1",
        5_000,
    );
    assert!(
        found.uci.starts_with("R@") && found.uci.ends_with('8'),
        "{found:?}"
    );
    assert_eq!(found.mate, Some(1));
    // A queen in hand is worth about a queen.
    let with = EnginePosition::from_fen(
        Variant::Crazyhouse,
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNB1KB1R[Q] w KQkq - 0 4",
    )
    .unwrap();
    let without = EnginePosition::from_fen(
        Variant::Crazyhouse,
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNB1KB1R w KQkq - 0 4",
    )
    .unwrap();
    let gain =
        analyse(&with, &Limits::depth(1)).score_cp - analyse(&without, &Limits::depth(1)).score_cp;
    assert!(gain > 600, "a queen in hand counted {gain}");
}

#[test]
fn the_same_seed_gives_the_same_move() {
    for seed in 0..6 {
        let position = random_position(Variant::Standard, 12, seed);
        for level in Level::ALL {
            let a = best_move(&position, level, &Limits::nodes(1_500), seed).unwrap();
            let b = best_move(&position, level, &Limits::nodes(1_500), seed).unwrap();
            assert_eq!(a, b);
        }
    }
}

#[test]
fn easy_errs_on_purpose_and_hard_never() {
    let mut easy_errors = 0;
    for seed in 0..40 {
        let position = random_position(Variant::Standard, 10, seed % 8);
        let easy = best_move(&position, Level::Easy, &Limits::nodes(400), seed).unwrap();
        easy_errors += usize::from(easy.deliberate);
        let hard = best_move(&position, Level::Hard, &Limits::nodes(400), seed).unwrap();
        assert!(!hard.deliberate);
    }
    assert!(
        (4..=30).contains(&easy_errors),
        "Easy erred {easy_errors} times in 40"
    );
}

#[test]
fn every_move_is_legal_in_every_variant() {
    for &variant in Variant::ALL {
        for seed in 0..200 {
            let plies = usize::try_from(seed % 50).unwrap();
            let position = random_position(variant, plies, seed);
            let legal = position.legal_ucis();
            let level = Level::ALL[usize::try_from(seed % 3).unwrap()];
            match best_move(&position, level, &Limits::nodes(30), seed) {
                Ok(found) => assert!(
                    legal.contains(&found.uci),
                    "{variant} {}: {}",
                    position.fen(),
                    found.uci
                ),
                Err(EngineError::GameOver) => assert!(legal.is_empty() || position.is_over()),
            }
        }
    }
}

/// The shared corpus file, or `None` (with a note) when it is missing and
/// `SLOWFUSE_REQUIRE_CORPUS` is not set.
fn corpus(relative: &str) -> Option<PathBuf> {
    let root = std::env::var_os("SLOWFUSE_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus")
        });
    let path = root.join(relative);
    if path.exists() {
        return Some(path);
    }
    assert!(
        std::env::var_os("SLOWFUSE_REQUIRE_CORPUS").is_none(),
        "corpus file {} missing",
        path.display()
    );
    eprintln!("skipped: corpus file {} missing", path.display());
    None
}

#[test]
fn analyses_every_position_of_a_game() {
    let mut game = Game::new(Variant::Standard);
    for san in ["e4", "e5", "Bc4", "Nc6", "Qf3", "d6", "Qxf7#"] {
        game = game.play(san).unwrap();
    }
    let judged = slowfuse_engine::analyse_game(&game, &Limits::nodes(3_000));
    assert_eq!(judged.len(), 8);
    let before_mate = &judged[6];
    assert_eq!(before_mate.best.as_deref(), Some("f3f7"));
    assert_eq!(before_mate.mate, Some(1));
    assert_eq!(judged[7].score_cp, 30_000);
    assert_eq!(judged[7].best, None);
}

#[test]
fn a_deadline_already_passed_still_gives_a_legal_move() {
    let position = random_position(Variant::Crazyhouse, 20, 3);
    let passed = || true;
    let limits = Limits::nodes(1_000_000).with_stop(&passed);
    let found = best_move(&position, Level::Hard, &limits, 0).unwrap();
    assert!(position.legal_ucis().contains(&found.uci));
    assert!(
        found.nodes < 2_000,
        "searched {} nodes past the deadline",
        found.nodes
    );
}

#[test]
fn reaches_each_variant_goal() {
    // King of the hill: the king steps onto a centre square.
    let found = hard(
        Variant::KingOfTheHill,
        "8/8/8/8/8/3K4/8/k7 w - - 0 1",
        2_000,
    );
    assert!(["d3d4", "d3e4"].contains(&found.uci.as_str()), "{found:?}");
    assert_eq!(found.mate, Some(1));
    // Three-check: two checks given, the third wins.
    let found = hard(
        Variant::ThreeCheck,
        "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1 +2+0",
        2_000,
    );
    assert_eq!(found.mate, Some(1), "{found:?}");
    // Racing kings: the king reaches the eighth rank first.
    let found = hard(Variant::RacingKings, "8/6K1/8/8/8/8/k7/8 w - - 0 1", 2_000);
    assert!(found.uci.ends_with('8'), "{found:?}");
}
