//! The rules commands of the built `slowfuse` binary: `perft`, `moves`, `replay`.
//!
//! They run without settings or a database (from an empty directory with
//! no config), print what outside checks read, and exit with 2 on bad input.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

/// Runs `slowfuse ARGS` from an empty directory with a config folder that
/// does not exist: the rules commands must not need one.
fn slowfuse(args: &[&str]) -> Output {
    let dir = tempfile::tempdir().expect("temp dir");
    Command::new(env!("CARGO_BIN_EXE_slowfuse"))
        .args(args)
        .current_dir(dir.path())
        .env("SLOWFUSE_CONFIG_DIR", dir.path().join("no-config-here"))
        .env_remove("DATABASE_URL")
        .output()
        .expect("the slowfuse binary runs")
}

fn stdout(output: &Output) -> String {
    assert!(
        output.status.success(),
        "exit {:?}, stderr: {}",
        output.status.code(),
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout.clone()).expect("UTF-8 output")
}

fn last_line(text: &str) -> &str {
    text.lines().last().expect("some output")
}

fn corpus() -> Option<PathBuf> {
    let dir = match std::env::var_os("SLOWFUSE_CORPUS") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"),
    };
    if dir.is_dir() {
        return Some(dir);
    }
    assert!(
        !std::env::var("SLOWFUSE_REQUIRE_CORPUS").is_ok_and(|v| v == "1"),
        "SLOWFUSE_REQUIRE_CORPUS=1 but no corpus at $SLOWFUSE_CORPUS or ../shared/corpus"
    );
    println!("corpus part skipped: no test corpus at $SLOWFUSE_CORPUS or ../shared/corpus");
    None
}

#[test]
fn perft_prints_the_count_on_its_last_line() {
    let out = stdout(&slowfuse(&["perft", "--depth", "3"]));
    assert_eq!(out, "8902\n");

    // Variant names are case-insensitive; FEN with pockets and four fields.
    let out = stdout(&slowfuse(&[
        "perft",
        "--variant",
        "CrazyHouse",
        "--fen",
        "2k5/8/8/8/8/8/8/4K3[Qn] w - -",
        "--depth",
        "2",
    ]));
    assert_eq!(last_line(&out), "3083");

    // Chess960 castling rights in Shredder notation.
    let out = stdout(&slowfuse(&[
        "perft",
        "--variant",
        "chess960",
        "--fen",
        "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe -",
        "--depth",
        "2",
    ]));
    assert_eq!(last_line(&out), "807");

    // --divide lists each move first; the total is still the last line.
    let out = stdout(&slowfuse(&[
        "perft",
        "--variant",
        "atomic",
        "--depth",
        "2",
        "--divide",
    ]));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 21);
    assert!(lines.contains(&"g1f3: 20"), "{out}");
    assert_eq!(last_line(&out), "400");
}

#[test]
fn moves_prints_sorted_uci_one_per_line() {
    let out = stdout(&slowfuse(&["moves"]));
    let moves: Vec<&str> = out.lines().collect();
    assert_eq!(moves.len(), 20);
    let mut sorted = moves.clone();
    sorted.sort_unstable();
    assert_eq!(moves, sorted);
    assert!(moves.contains(&"g1f3") && moves.contains(&"e2e4"));

    // Drops, and castling as king-takes-rook in a Chess960 position.
    let out = stdout(&slowfuse(&[
        "moves",
        "--variant",
        "crazyhouse",
        "--fen",
        "4k3/8/8/8/8/8/8/4K3[N] w - - 0 1",
    ]));
    assert!(out.lines().any(|m| m == "N@e2"), "{out}");
    assert_eq!(out.lines().count(), 5 + 62);
    let out = stdout(&slowfuse(&[
        "moves",
        "--variant",
        "Chess960",
        "--fen",
        "4k3/8/8/8/8/8/8/1R2K2R w KQ - 0 1",
    ]));
    assert!(
        out.lines().any(|m| m == "e1h1") && out.lines().any(|m| m == "e1b1"),
        "{out}"
    );

    // Antichess: a capture is compulsory.
    let out = stdout(&slowfuse(&[
        "moves",
        "--variant",
        "giveaway",
        "--fen",
        "4k3/8/8/8/8/1r3B2/8/4K3 b - - 0 1",
    ]));
    assert_eq!(out, "b3f3\n");

    // An exploded king: the game is over, no moves.
    let out = stdout(&slowfuse(&[
        "moves",
        "--variant",
        "atomic",
        "--fen",
        "r4b1r/ppp1pppp/7n/8/8/8/PPPPPPPP/RNBQKB1R b KQ - 0 3",
    ]));
    assert_eq!(out, "");
}

/// Twenty queens: more material than a game can produce, a position the rules play (the
/// counts python-chess gives).
#[test]
fn perft_and_moves_take_a_composed_position_with_twenty_queens() {
    let fen = "5qqk/8/8/qqqqqqqq/QQQQQQQQ/8/8/KQQ5 w - - 0 1";
    let out = stdout(&slowfuse(&["perft", "--fen", fen, "--depth", "3"]));
    assert_eq!(last_line(&out), "537023");
    let out = stdout(&slowfuse(&["moves", "--fen", fen]));
    assert_eq!(out.lines().count(), 82);
    assert!(out.lines().any(|m| m == "a4a5"), "{out}");
    // What the rules cannot play stays refused: no white king.
    let out = slowfuse(&[
        "perft",
        "--fen",
        "5qqk/8/8/qqqqqqqq/QQQQQQQQ/8/8/QQQ5 w - - 0 1",
        "--depth",
        "1",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("a king is missing"));
}

#[test]
fn bad_input_exits_with_2_and_says_why() {
    for args in [
        &["moves", "--variant", "starwars"][..],
        &[
            "perft",
            "--fen",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w",
            "--depth",
            "1",
        ][..],
        &["moves", "--fen", "8/8/8/8/8/8/8/K7 w - - 0 1"][..],
        &["perft", "--depth", "lots"][..],
        &["replay", "no-such-file.pgn"][..],
    ] {
        let output = slowfuse(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains("error"), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
    let stderr = String::from_utf8(slowfuse(&["moves", "--fen", "8/8/8/8/8/8/8/K7 w"]).stderr)
        .expect("UTF-8");
    assert!(stderr.contains("a king is missing"), "{stderr}");
}

fn replay_lines(pgn: &str, extra: &[&str]) -> Vec<Value> {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("games.pgn");
    std::fs::write(&file, pgn).expect("write pgn");
    let mut args = vec!["replay", file.to_str().expect("path")];
    args.extend_from_slice(extra);
    stdout(&slowfuse(&args))
        .lines()
        .map(|line| serde_json::from_str(line).expect("one JSON object per line"))
        .collect()
}

#[test]
fn replay_prints_one_json_line_per_game_and_reads_past_errors() {
    let pgn = "\u{feff}[Variant \"Atomic\"]\r\n\r\n1. Nf3 Nf6 2. Ne5 e6 {a comment} $1 (2... d6) 3. Nxf7 1-0\r\n\r\n\
               [Event \"broken\"]\n\n1. e4 e5 2. Ke3 Nc6 *\n\n\
               [Event \"null move\"]\n\n1. e4 -- 2. d4 *\n\n\
               [Event \"FICS rated crazyhouse match\"]\n\n1. e4 d5 2. exd5 Qxd5 3. Nc3 Qa5 4. P@d5 *\n\n\
               [FEN \"7k/8/6K1/8/8/8/8/5Q2 w - - 0 1\"]\n[SetUp \"1\"]\n\n1. Qf7 1/2-1/2\n\n\
               1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 1/2-1/2\n\n\
               [FEN \"4k3/8/8/8/8/8/8/4KB2 w - - 0 1\"]\n\n1. Bc4 *\n";
    let lines = replay_lines(pgn, &[]);
    assert_eq!(lines.len(), 7, "{lines:?}");
    for (i, line) in lines.iter().enumerate() {
        assert_eq!(line["game"], i + 1, "games are numbered from 1");
        let keys: Vec<&String> = line.as_object().expect("object").keys().collect();
        assert_eq!(keys.len(), 6, "{line}");
        for key in ["game", "plies", "end", "winner", "fen", "error"] {
            assert!(line.get(key).is_some(), "{key} missing in {line}");
        }
    }
    assert_eq!(lines[0]["plies"], 5);
    assert_eq!(lines[0]["end"], "explosion");
    assert_eq!(lines[0]["winner"], "white");
    assert_eq!(lines[0]["error"], Value::Null);

    assert_eq!(lines[1]["plies"], 2);
    assert_eq!(lines[1]["end"], "ongoing");
    assert_eq!(lines[1]["winner"], "none");
    assert_eq!(
        lines[1]["fen"],
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    );
    assert_eq!(
        lines[1]["error"],
        "ply 3 (2. Ke3): Ke3 is not a legal move here"
    );

    assert_eq!(lines[2]["plies"], 1);
    let null = lines[2]["error"].as_str().expect("an error");
    assert!(null.starts_with("ply 2 (1... --): "), "{null}");

    // No Variant tag: the FICS Event tag names the variant.
    assert_eq!(lines[3]["plies"], 7);
    assert_eq!(lines[3]["error"], Value::Null);
    assert!(
        lines[3]["fen"].as_str().unwrap().contains('['),
        "{}",
        lines[3]
    );

    assert_eq!(lines[4]["end"], "stalemate");
    assert_eq!(lines[4]["winner"], "none");
    assert_eq!(lines[5]["end"], "repetition");
    assert_eq!(lines[6]["end"], "insufficient");
    assert_eq!(lines[6]["winner"], "none");

    // --default-variant for games without a Variant tag.
    let lines = replay_lines(
        "1. e4 d5 2. exd5 Qxd5 3. P@e4 *\n",
        &["--default-variant", "crazyhouse"],
    );
    assert_eq!(lines[0]["error"], Value::Null);
    let lines = replay_lines("1. e4 d5 2. exd5 Qxd5 3. P@e4 *\n", &[]);
    assert_eq!(lines[0]["plies"], 4);
    assert!(
        lines[0]["error"]
            .as_str()
            .unwrap()
            .starts_with("ply 5 (3. P@e4)")
    );
}

#[test]
fn replay_reads_bpgn_bughouse_matches() {
    let bpgn = "[Variant \"Bughouse\"]\n[SetUp \"1\"]\n\
                [FEN \"4k3/8/8/8/8/8/6PP/6RK[n] b - - 0 1 | \
                rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1\"]\n\n\
                1B. e4 {170} 1a. N@f2# 0-1\n\n\
                1A. e4 1a. e5 2A. Ke3 *\n\n\
                [WhiteA \"ann\"][BlackA \"bob\"]\n\n1A. e4 1a. d5 2A. exd5 {A2 gets a pawn} *\n\n\
                [FEN \"4k3/8/8/8/8/8/6PP/r6K[] w - - 0 1 | 4k3/8/8/8/8/N7/6PP/7K[r] b - - 0 1\"]\n\n\
                1b. R@c1+ 1/2-1/2\n";
    let lines = replay_lines(bpgn, &[]);
    assert_eq!(lines.len(), 4, "{lines:?}");
    for (i, line) in lines.iter().enumerate() {
        assert_eq!(line["game"], i + 1);
        assert_eq!(line.as_object().expect("object").len(), 6, "{line}");
    }
    // A knight mate on board A ends the match: team B (BlackA) wins.
    assert_eq!(lines[0]["plies"], 2);
    assert_eq!(lines[0]["end"], "checkmate");
    assert_eq!(lines[0]["winner"], "black");
    assert_eq!(
        lines[0]["fen"],
        "4k3/8/8/8/8/8/5nPP/6RK[] w - - 1 2 | \
         rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR[] b KQkq - 0 1"
    );
    assert_eq!(lines[0]["error"], Value::Null);

    assert_eq!(lines[1]["plies"], 2);
    assert_eq!(
        lines[1]["error"],
        "ply 3 (2A. Ke3): Ke3 is not a legal move here"
    );
    assert_eq!(lines[1]["end"], "ongoing");

    // A1's capture went to A2's pocket on board B.
    assert_eq!(lines[2]["plies"], 3);
    assert_eq!(lines[2]["end"], "ongoing");
    assert_eq!(lines[2]["winner"], "none");
    assert!(
        lines[2]["fen"]
            .as_str()
            .unwrap()
            .ends_with(" | rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[p] w KQkq - 0 1"),
        "{}",
        lines[2]
    );

    // Both players to move wait for a piece that cannot come: a draw.
    assert_eq!(lines[3]["end"], "stalemate");
    assert_eq!(lines[3]["winner"], "none");
    assert_eq!(lines[3]["error"], Value::Null);
}

/// `pgn/RESULTS.tsv` as (file, game) → ending.
fn recorded_endings(corpus: &Path) -> std::collections::HashMap<(String, u64), String> {
    let text = std::fs::read_to_string(corpus.join("pgn/RESULTS.tsv")).expect("RESULTS.tsv");
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("header").split('\t').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).expect("column");
    let (file, game, ending) = (col("file"), col("game"), col("ending"));
    lines
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (
                (f[file].to_owned(), f[game].parse().expect("game")),
                f[ending].to_owned(),
            )
        })
        .collect()
}

#[test]
fn replay_reads_every_corpus_game_with_its_ending() {
    let Some(corpus) = corpus() else {
        return;
    };
    let endings = recorded_endings(&corpus);
    let mut games = 0;
    for folder in ["atomic", "antichess", "crazyhouse", "standard"] {
        let dir = corpus.join("pgn").join(folder);
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .expect("pgn folder")
            .map(|e| e.expect("entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "pgn"))
            .collect();
        files.sort();
        for file in files {
            let name = format!(
                "pgn/{folder}/{}",
                file.file_name().unwrap().to_string_lossy()
            );
            let out = stdout(&slowfuse(&["replay", file.to_str().expect("path")]));
            for line in out.lines() {
                let line: Value = serde_json::from_str(line).expect("JSON line");
                assert_eq!(line["error"], Value::Null, "{name}: {line}");
                let game = line["game"].as_u64().expect("game number");
                let recorded = &endings[&(name.clone(), game)];
                let end = line["end"].as_str().expect("end");
                let expected: &[&str] = match recorded.as_str() {
                    "checkmate" => &["checkmate"],
                    "stalemate" => &["stalemate"],
                    "variant_win" => &["explosion", "variant_win"],
                    r if r.starts_with("draw claimable") => &["repetition", "fifty_moves"],
                    _ => &["ongoing"],
                };
                assert!(
                    expected.contains(&end),
                    "{name} game {game}: {end}, recorded {recorded}"
                );
                games += 1;
            }
        }
    }
    assert_eq!(games, endings.len(), "every game of pgn/RESULTS.tsv");
}

/// Above this many nodes a perft count is left out here too (debug build).
const CLI_PERFT_BUDGET: u64 = 60_000_000;

/// The lichess-rules records of a perft suite: (id, epd, depth, nodes).
fn perft_records(text: &str) -> Vec<(String, String, u32, u64)> {
    let (mut lichess, mut id, mut epd) = (true, String::new(), String::new());
    let mut out = Vec::new();
    for line in text.lines().map(str::trim) {
        if let Some(rules) = line.strip_prefix("# rules:") {
            lichess = rules.trim() == "lichess";
        } else if let Some(rest) = line.strip_prefix("id ") {
            id = rest.to_owned();
        } else if let Some(rest) = line.strip_prefix("epd ") {
            epd = rest.to_owned();
        } else if let Some(rest) = line.strip_prefix("perft ")
            && lichess
        {
            let mut parts = rest.split_whitespace();
            let depth = parts.next().and_then(|d| d.parse().ok()).expect("depth");
            let nodes = parts.next().and_then(|n| n.parse().ok()).expect("nodes");
            out.push((id.clone(), epd.clone(), depth, nodes));
        }
    }
    out
}

/// The counts the rules crate's corpus test leaves out as over its budget
/// (2,000,000 nodes), through the binary, where they are few enough: every
/// suite but the thousands of standard-chess random and Chess960 records.
#[test]
fn perft_counts_above_the_library_test_budget() {
    let Some(corpus) = corpus() else {
        return;
    };
    let suites = [
        ("atomic", "perft/atomic/atomic-boombase-suite.perft"),
        ("atomic", "perft/atomic/atomic-lichess-libs.perft"),
        ("atomic", "perft/atomic/atomic-fairy-stockfish.perft"),
        (
            "crazyhouse",
            "perft/crazyhouse/crazyhouse-lichess-libs.perft",
        ),
        (
            "crazyhouse",
            "perft/crazyhouse/crazyhouse-fairy-stockfish.perft",
        ),
        ("antichess", "perft/antichess/antichess-lichess-libs.perft"),
        ("standard", "perft/standard/standard-tricky.perft"),
        ("standard", "perft/standard/standard-pychess-suites.perft"),
    ];
    let mut run = 0;
    for (variant, suite) in suites {
        let text = std::fs::read_to_string(corpus.join(suite)).expect("suite");
        for (id, epd, depth, nodes) in perft_records(&text) {
            if nodes <= 2_000_000 || nodes > CLI_PERFT_BUDGET {
                continue;
            }
            let depth = depth.to_string();
            let out = stdout(&slowfuse(&[
                "perft",
                "--variant",
                variant,
                "--fen",
                &epd,
                "--depth",
                &depth,
            ]));
            assert_eq!(
                last_line(&out),
                nodes.to_string(),
                "{suite} {id} perft {depth}"
            );
            run += 1;
        }
    }
    println!("ran {run} perft counts above the library test's budget");
    assert!(run >= 20, "only {run} counts");
}
