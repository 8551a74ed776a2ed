//! Against the real engines of Debian: Stockfish 15.1 and Fairy-Stockfish 11.1.

mod common;

use std::time::{Duration, Instant};

use common::{config, engine, moves, running};
use slowfuse_uci::{UciEngine, UciError};

/// A long-rank mate: Ra8#.
const BACK_RANK: &str = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";

#[test]
fn stockfish_finds_a_mate_in_one_from_a_fen() {
    let Some(path) = engine("stockfish") else {
        return;
    };
    let mut stockfish = UciEngine::start(&config(&path, 100_000)).unwrap();
    assert!(
        stockfish.name().starts_with("Stockfish"),
        "{}",
        stockfish.name()
    );
    let analysis = stockfish
        .analyse("chess", Some(BACK_RANK), &[], false)
        .unwrap();
    assert_eq!(analysis.mate, Some(1));
    assert_eq!(analysis.score_cp, None);
    assert_eq!(analysis.best.as_deref(), Some("a1a8"));
    assert_eq!(analysis.pv, moves("a1a8"));
}

#[test]
fn stockfish_sees_fools_mate_after_moves_from_the_start() {
    let Some(path) = engine("stockfish") else {
        return;
    };
    let mut stockfish = UciEngine::start(&config(&path, 100_000)).unwrap();
    let analysis = stockfish
        .analyse("chess", None, &moves("f2f3 e7e5 g2g4"), false)
        .unwrap();
    assert_eq!(
        (analysis.mate, analysis.best.as_deref()),
        (Some(1), Some("d8h4"))
    );
    // After the mate the side to move is mated already and has no move.
    let mated = stockfish
        .analyse("chess", None, &moves("f2f3 e7e5 g2g4 d8h4"), false)
        .unwrap();
    assert_eq!((mated.mate, mated.best, mated.pv.len()), (Some(0), None, 0));
}

#[test]
fn stockfish_analyses_the_start_position() {
    let Some(path) = engine("stockfish") else {
        return;
    };
    let mut stockfish = UciEngine::start(&config(&path, 200_000)).unwrap();
    let analysis = stockfish.analyse("chess", None, &[], false).unwrap();
    let best = analysis.best.clone().expect("a move from the start");
    let square = |s: &[u8]| (b'a'..=b'h').contains(&s[0]) && (b'1'..=b'8').contains(&s[1]);
    assert!(
        best.len() == 4 && square(&best.as_bytes()[..2]) && square(&best.as_bytes()[2..]),
        "{best}"
    );
    assert!(
        best.ends_with('3') || best.ends_with('4'),
        "a first move goes to the third or fourth rank: {best}"
    );
    assert_eq!(analysis.pv.first(), Some(&best), "{analysis:?}");
    assert!(analysis.pv.len() >= 4, "{analysis:?}");
    assert!(analysis.depth >= 8, "{analysis:?}");
    assert!((190_000..400_000).contains(&analysis.nodes), "{analysis:?}");
    let cp = analysis.score_cp.expect("no mate from the start");
    assert!(
        (-20..=120).contains(&cp),
        "White's edge from the start: {cp}"
    );
    // The next position, with Black to move, is seen from Black's side.
    let reply = stockfish.analyse("chess", None, &[best], false).unwrap();
    assert!(reply.score_cp.is_some_and(|cp| cp < 20), "{reply:?}");
}

#[test]
fn options_are_sent_to_the_engine() {
    let Some(path) = engine("stockfish") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("engine.log");
    let mut config = config(&path, 20_000);
    // Stockfish writes everything it reads and says to its debug log once this is set.
    config.options.insert(
        0,
        ("Debug Log File".into(), log.to_string_lossy().into_owned()),
    );
    let mut stockfish = UciEngine::start(&config).unwrap();
    assert!(
        stockfish.option("hash").is_some_and(|o| o.kind == "spin"),
        "names are case-insensitive"
    );
    stockfish
        .analyse("chess", Some(BACK_RANK), &[], false)
        .unwrap();
    drop(stockfish);
    let written = std::fs::read_to_string(&log).unwrap();
    for line in [
        ">> setoption name Threads value 1",
        ">> setoption name Hash value 16",
        ">> isready",
        &format!(">> position fen {BACK_RANK}"),
        ">> go nodes 20000",
        "<< bestmove a1a8",
        ">> quit",
    ] {
        assert!(
            written.lines().any(|l| l.trim_end() == line),
            "{line:?} not in the log:\n{written}"
        );
    }
}

#[test]
fn an_option_the_engine_lacks_is_refused() {
    let Some(path) = engine("stockfish") else {
        return;
    };
    let mut config = config(&path, 1000);
    config.options.push(("Hash Size".into(), "16".into()));
    let error = UciEngine::start(&config).err().expect("refused");
    assert!(
        matches!(&error, UciError::InvalidInput(m) if m.contains("Hash Size")),
        "{error}"
    );
}

#[test]
fn stockfish_plays_chess_only() {
    let Some(path) = engine("stockfish") else {
        return;
    };
    let mut stockfish = UciEngine::start(&config(&path, 20_000)).unwrap();
    assert!(stockfish.supports_variant("chess"));
    assert!(!stockfish.supports_variant("crazyhouse"));
    assert!(!stockfish.supports_variant("atomic"));
    let error = stockfish
        .analyse(
            "crazyhouse",
            Some("6rk/6pp/8/8/8/8/8/6K1[N] w - - 0 1"),
            &[],
            false,
        )
        .unwrap_err();
    assert!(
        matches!(&error, UciError::UnsupportedVariant(v) if v == "crazyhouse"),
        "{error}"
    );
    // Chess960: castling written king-takes-rook (Shredder-FEN castling rights).
    let start960 = "nrbqkbrn/pppppppp/8/8/8/8/PPPPPPPP/NRBQKBRN w GBgb - 0 1";
    let analysis = stockfish
        .analyse("chess", Some(start960), &[], true)
        .unwrap();
    assert!(analysis.best.is_some(), "{analysis:?}");
    assert_eq!(
        stockfish
            .analyse("chess", Some(BACK_RANK), &[], false)
            .unwrap()
            .best
            .as_deref(),
        Some("a1a8")
    );
}

#[test]
fn fairy_stockfish_mates_with_a_drop_in_crazyhouse() {
    let Some(path) = engine("fairy-stockfish") else {
        return;
    };
    let mut fairy = UciEngine::start(&config(&path, 100_000)).unwrap();
    assert!(
        fairy.name().starts_with("Fairy-Stockfish"),
        "{}",
        fairy.name()
    );
    for variant in [
        "chess",
        "crazyhouse",
        "kingofthehill",
        "3check",
        "antichess",
        "horde",
        "racingkings",
    ] {
        assert!(fairy.supports_variant(variant), "{variant}");
    }
    assert!(!fairy.supports_variant("no-such-variant"));
    // Only the knight in hand mates: N@f7, smothered.
    let smothered = "6rk/6pp/8/8/8/8/8/6K1[N] w - - 0 1";
    let analysis = fairy
        .analyse("crazyhouse", Some(smothered), &[], false)
        .unwrap();
    assert_eq!(
        (analysis.mate, analysis.best.as_deref()),
        (Some(1), Some("N@f7")),
        "{analysis:?}"
    );
    // Back to chess on the same engine: UCI_Variant is set back.
    let chess = fairy.analyse("chess", Some(BACK_RANK), &[], false).unwrap();
    assert_eq!((chess.mate, chess.best.as_deref()), (Some(1), Some("a1a8")));
    let error = fairy
        .analyse("no-such-variant", None, &[], false)
        .unwrap_err();
    assert!(matches!(error, UciError::UnsupportedVariant(_)), "{error}");
}

#[test]
fn a_search_past_its_time_is_stopped_and_the_engine_goes_on() {
    let Some(path) = engine("stockfish") else {
        return;
    };
    // Started with the usual time (a loaded machine may take a while to start an engine),
    // then given 800 ms a search.
    let mut stockfish = UciEngine::start(&config(&path, 1_000_000_000_000)).unwrap();
    stockfish.set_timeout(Duration::from_millis(800));
    let began = Instant::now();
    let error = stockfish.analyse("chess", None, &[], false).unwrap_err();
    assert!(matches!(error, UciError::Timeout), "{error}");
    assert!(
        began.elapsed() < Duration::from_secs(3),
        "{:?}",
        began.elapsed()
    );
    let pid = stockfish.pid().expect("Stockfish obeys stop and is kept");
    assert!(running(pid));
    // Still in step: the next answer is for the next position, not the stopped search's. A
    // mate in one ends the search at Stockfish's greatest depth long before the node count.
    let analysis = stockfish
        .analyse("chess", Some(BACK_RANK), &[], false)
        .unwrap();
    assert_eq!(
        (analysis.mate, analysis.best.as_deref()),
        (Some(1), Some("a1a8"))
    );
}

#[test]
fn dropping_the_engine_ends_its_process() {
    let Some(path) = engine("stockfish") else {
        return;
    };
    let stockfish = UciEngine::start(&config(&path, 1000)).unwrap();
    let pid = stockfish.pid().unwrap();
    assert!(running(pid));
    let began = Instant::now();
    drop(stockfish);
    assert!(!running(pid), "stockfish {pid} still runs");
    assert!(
        began.elapsed() < Duration::from_secs(2),
        "{:?}",
        began.elapsed()
    );
}
