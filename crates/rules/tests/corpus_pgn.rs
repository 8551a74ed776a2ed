//! Real games of the shared corpus (`pgn/*/*.pgn`) replayed with `read_pgn`,
//! checked against `pgn/RESULTS.tsv`; and the PGN stress files read
//! without a panic, compared with what python-chess read from them.

mod common;

use std::collections::HashMap;
use std::fs;
use std::path::Path;

use slowfuse_rules::{Color, EndReason, PgnReadOptions, Variant, read_pgn};

/// One row of `pgn/RESULTS.tsv`.
struct Expected {
    result: String,
    plies: u32,
    ending: String,
    verdict: String,
}

fn results(corpus: &Path) -> HashMap<(String, usize), Expected> {
    let text = fs::read_to_string(corpus.join("pgn/RESULTS.tsv")).expect("RESULTS.tsv");
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("header").split('\t').collect();
    let column = |name: &str| {
        header
            .iter()
            .position(|h| *h == name)
            .unwrap_or_else(|| panic!("RESULTS.tsv has no {name} column"))
    };
    let (file, game, result, plies, ending, verdict) = (
        column("file"),
        column("game"),
        column("result"),
        column("plies"),
        column("ending"),
        column("verdict"),
    );
    lines
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            (
                (f[file].to_owned(), f[game].parse().expect("game number")),
                Expected {
                    result: f[result].to_owned(),
                    plies: f[plies].parse().expect("plies"),
                    ending: f[ending].to_owned(),
                    verdict: f[verdict].to_owned(),
                },
            )
        })
        .collect()
}

fn winner_of(result: &str) -> Option<Option<Color>> {
    match result {
        "1-0" => Some(Some(Color::White)),
        "0-1" => Some(Some(Color::Black)),
        "1/2-1/2" => Some(None),
        _ => None,
    }
}

#[test]
fn real_games_replay_with_the_recorded_endings() {
    let Some(corpus) = common::corpus_or_skip("real_games_replay_with_the_recorded_endings") else {
        return;
    };
    let expected = results(&corpus);
    let mut seen = 0;
    let mut decided_by_position = 0;
    let mut failures = Vec::new();
    let mut folders: Vec<_> = fs::read_dir(corpus.join("pgn"))
        .expect("pgn folder")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.is_dir())
        .collect();
    folders.sort();
    for folder in folders {
        for path in common::files_ending(&folder, ".pgn") {
            let name = path.strip_prefix(&corpus).unwrap().display().to_string();
            let bytes = fs::read(&path).expect("pgn file");
            for read in read_pgn(&bytes, PgnReadOptions::default()) {
                let read = match read {
                    Ok(read) => read,
                    Err(error) => {
                        failures.push(format!("{name}: {error}"));
                        continue;
                    }
                };
                seen += 1;
                let key = (name.clone(), read.index);
                let Some(want) = expected.get(&key) else {
                    failures.push(format!("{name} game {}: not in RESULTS.tsv", read.index));
                    continue;
                };
                let game = &read.game;
                let label = format!("{name} game {} ({})", read.index, want.ending);
                if game.ply() != want.plies {
                    failures.push(format!(
                        "{label}: {} plies, expected {}",
                        game.ply(),
                        want.plies
                    ));
                }
                let outcome = game.outcome();
                let decided = match want.ending.as_str() {
                    "checkmate" => Some(EndReason::Checkmate),
                    "stalemate" => Some(EndReason::Stalemate),
                    "variant_win" => Some(match game.variant() {
                        Variant::Atomic => EndReason::Explosion,
                        _ => EndReason::VariantWin,
                    }),
                    _ => None,
                };
                match decided {
                    Some(reason) => {
                        decided_by_position += 1;
                        let Some(outcome) = outcome else {
                            failures.push(format!("{label}: our game goes on"));
                            continue;
                        };
                        if outcome.reason != reason {
                            failures.push(format!("{label}: ended by {:?}", outcome.reason));
                        }
                        // "unfinished-tag-but-terminal": Result is "*".
                        if let Some(winner) = winner_of(&want.result)
                            && outcome.winner != winner
                        {
                            failures.push(format!(
                                "{label}: winner {:?}, Result {}",
                                outcome.winner, want.result
                            ));
                        }
                    }
                    None if want.ending.starts_with("draw claimable") => {
                        if outcome.is_some() || game.can_claim_draw().is_none() {
                            failures.push(format!(
                                "{label}: should be claimable, got {outcome:?} / {:?}",
                                game.can_claim_draw()
                            ));
                        }
                    }
                    None => {
                        if let Some(outcome) = outcome {
                            failures.push(format!("{label}: we end it by {:?}", outcome.reason));
                        }
                    }
                }
                if want.verdict == "MISMATCH" {
                    failures.push(format!("{label}: RESULTS.tsv says MISMATCH"));
                }
            }
        }
    }
    println!(
        "replayed {seen} games; {decided_by_position} of them decided by the final position, with the same ending"
    );
    assert!(
        failures.is_empty(),
        "{} problems:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert_eq!(seen, expected.len(), "games read v. rows in RESULTS.tsv");
}

/// Stress files that pgn-reader (and so Slowfuse) reads differently from
/// python-chess, and why. The test asserts that they still differ.
const READ_DIFFERENTLY: &[(&str, &str)] = &[
    (
        "pgn-stress/chessops-data/leading-whitespace.pgn",
        "tags indented by spaces are tags for pgn-reader; python-chess splits the games differently",
    ),
    (
        "pgn-stress/python-chess-testpy/test_no_movetext-1.pgn",
        "pgn-reader reads a tag section followed by blank lines and another tag section as one game",
    ),
    (
        "pgn-stress/python-chess-testpy/test_read_game_with_leading_whitespace_before_header-1.pgn",
        "pgn-reader reads the indented tag line as a tag; python-chess reads it as movetext",
    ),
    (
        "pgn-stress/python-chess-testpy/test_annotations-1.pgn",
        "only [%eval]/[%clk] text, no tag and no movetext: not a game for Slowfuse",
    ),
    (
        "pgn-stress/python-chess-testpy/test_float_clk-1.pgn",
        "only [%clk] text, no tag and no movetext: not a game for Slowfuse",
    ),
    (
        "pgn-stress/scalachess-fixtures/invalidVariant.pgn",
        "an unknown Variant tag stops the game before its first move; python-chess plays it as chess",
    ),
];

/// `INVENTORY-python-chess.tsv`: file → (games, games with errors, plies).
fn inventory(corpus: &Path) -> HashMap<String, (usize, usize, Vec<u32>)> {
    let text = fs::read_to_string(corpus.join("pgn-stress/INVENTORY-python-chess.tsv"))
        .expect("inventory");
    text.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            let plies = f[5]
                .split(',')
                .filter(|p| !p.is_empty())
                .map(|p| p.parse().expect("plies"))
                .collect();
            (
                f[0].to_owned(),
                (
                    f[2].parse().expect("games"),
                    f[3].parse().expect("errors"),
                    plies,
                ),
            )
        })
        .collect()
}

#[test]
fn stress_files_are_read_without_panics() {
    let Some(corpus) = common::corpus_or_skip("stress_files_are_read_without_panics") else {
        return;
    };
    let inventory = inventory(&corpus);
    let mut files = 0;
    let mut mismatches = Vec::new();
    let mut folders: Vec<_> = fs::read_dir(corpus.join("pgn-stress"))
        .expect("pgn-stress folder")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.is_dir())
        .collect();
    folders.sort();
    for folder in folders {
        for path in common::files_ending(&folder, ".pgn") {
            files += 1;
            let name = path.strip_prefix(&corpus).unwrap().display().to_string();
            let bytes = fs::read(&path).expect("pgn file");
            let games = read_pgn(&bytes, PgnReadOptions::default());
            let errors = games.iter().filter(|g| g.is_err()).count();
            for error in games.iter().filter_map(|g| g.as_ref().err()) {
                println!("{name}: {error}");
            }
            let plies: Vec<u32> = games
                .iter()
                .map(|g| match g {
                    Ok(game) => game.game.ply(),
                    Err(e) => e.played.as_ref().map_or(0, |g| g.ply()),
                })
                .collect();
            let Some((want_games, want_errors, want_plies)) = inventory.get(&name) else {
                mismatches.push(format!("{name}: not in the inventory"));
                continue;
            };
            let same = (games.len(), errors, &plies) == (*want_games, *want_errors, want_plies);
            if let Some((_, why)) = READ_DIFFERENTLY.iter().find(|(f, _)| *f == name) {
                assert!(
                    !same,
                    "{name} now reads as python-chess does: remove it from READ_DIFFERENTLY"
                );
                println!("{name} read differently from python-chess, as expected: {why}");
                continue;
            }
            if !same {
                mismatches.push(format!(
                    "{name}: {} games, {errors} with errors, plies {plies:?}; python-chess: \
                     {want_games} games, {want_errors} with errors, plies {want_plies:?}",
                    games.len()
                ));
            }
        }
    }
    println!("read {files} stress files");
    for m in &mismatches {
        println!("differs from python-chess: {m}");
    }
    assert!(files >= 40, "only {files} stress files");
    assert!(
        mismatches.is_empty(),
        "{} files read differently",
        mismatches.len()
    );
}
