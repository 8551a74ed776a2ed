//! Every perft suite of the shared corpus, counted through `Game`'s move generation.
//!
//! All records of every suite under `perft/` are visited. Counts up to a
//! node budget are checked (the budget keeps the whole test near a minute
//! in a debug build); the records and depths above it are listed, and the
//! `slowfuse perft` command checks them outside the test. Records written
//! under other rules than lichess's (`# rules:` lines) are counted too and
//! asserted to differ; where a depth is too shallow for the rules to part,
//! the test says that the counts agree there.

mod common;

use std::env;
use std::fs;
use std::path::Path;

use slowfuse_rules::{Game, Variant, perft_from_fen};

/// Counts whose expected node count is above this are listed, not run.
/// `SLOWFUSE_PERFT_BUDGET` overrides it.
const DEFAULT_BUDGET: u64 = 2_000_000;

/// The one setup error tolerated: a check no game can reach.
const IMPOSSIBLE_CHECK: &str = "the check on the king cannot have arisen in a game";

/// One `id`/`epd`/`perft` record and the rule set it was written under.
struct Record {
    id: String,
    epd: String,
    counts: Vec<(u32, u64)>,
    rules: String,
}

fn parse_suite(text: &str) -> (Option<String>, Vec<Record>) {
    let mut variant = None;
    let mut rules = String::from("lichess");
    let mut records: Vec<Record> = Vec::new();
    for line in text.lines().map(str::trim) {
        if let Some(v) = line.strip_prefix("# variant:") {
            variant = Some(v.trim().to_owned());
        } else if let Some(r) = line.strip_prefix("# rules:") {
            rules = r.trim().to_owned();
        } else if let Some(id) = line.strip_prefix("id ") {
            records.push(Record {
                id: id.trim().to_owned(),
                epd: String::new(),
                counts: Vec::new(),
                rules: rules.clone(),
            });
        } else if let Some(epd) = line.strip_prefix("epd ") {
            records.last_mut().expect("epd after id").epd = epd.trim().to_owned();
        } else if let Some(perft) = line.strip_prefix("perft ") {
            let mut parts = perft.split_whitespace();
            let depth = parts.next().and_then(|d| d.parse().ok()).expect("depth");
            let nodes = parts.next().and_then(|n| n.parse().ok()).expect("nodes");
            records
                .last_mut()
                .expect("perft after id")
                .counts
                .push((depth, nodes));
        }
    }
    (variant, records)
}

/// Our variant for a suite's `# variant:` name. `giveaway` (castling
/// allowed) and `suicide` (FICS) are antichess under other rules.
fn our_variant(name: &str) -> Variant {
    match name {
        "chess" => Variant::Standard,
        "giveaway" | "suicide" => Variant::Antichess,
        other => other
            .parse()
            .unwrap_or_else(|e| panic!("suite variant {other}: {e}")),
    }
}

#[derive(Default)]
struct Tally {
    checked: u64,
    nodes: u64,
    over_budget: Vec<String>,
    refused_starts: u32,
    other_rules_differ: Vec<String>,
    other_rules_agree: Vec<String>,
    other_rules_unrun: Vec<String>,
}

fn count(variant: Variant, record: &Record, game: Option<&Game>, depth: u32) -> u64 {
    match game {
        Some(game) => game.perft(depth),
        None => perft_from_fen(variant, &record.epd, depth)
            .unwrap_or_else(|e| panic!("{} ({}): {e}", record.id, record.epd)),
    }
}

fn run_suite(path: &Path, name: &str, budget: u64, tally: &mut Tally) {
    let text = fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {name}: {e}"));
    let (declared, records) = parse_suite(&text);
    let declared = declared.unwrap_or_else(|| panic!("{name} has no # variant: line"));
    let variant = our_variant(&declared);
    assert!(!records.is_empty(), "{name} has no records");

    for record in &records {
        let lichess = record.rules == "lichess";
        // Through a Game where Slowfuse accepts the start position; suite
        // positions with a check no game can reach are refused as game
        // starts and counted by `perft_from_fen` instead.
        let game = match Game::from_fen(variant, &record.epd) {
            Ok(game) => Some(game),
            Err(e) if e.to_string().ends_with(IMPOSSIBLE_CHECK) => {
                tally.refused_starts += 1;
                None
            }
            Err(e) if !lichess => {
                tally.other_rules_differ.push(format!(
                    "{name} {} [{}]: our rules refuse the position ({e})",
                    record.id, record.rules
                ));
                continue;
            }
            Err(e) => panic!("{name} {} ({}): {e}", record.id, record.epd),
        };
        let mut differs = false;
        let mut ran = Vec::new();
        for &(depth, nodes) in &record.counts {
            let label = format!("{name} {} perft {depth} ({nodes} nodes)", record.id);
            if nodes > budget {
                if lichess {
                    tally.over_budget.push(label);
                }
                continue;
            }
            let counted = count(variant, record, game.as_ref(), depth);
            tally.nodes += nodes;
            if lichess {
                assert_eq!(counted, nodes, "{label}: {}", record.epd);
                tally.checked += 1;
            } else {
                differs |= counted != nodes;
                ran.push(format!("perft {depth}: ours {counted}, theirs {nodes}"));
            }
        }
        if !lichess {
            let label = format!("{name} {} [{}]", record.id, record.rules);
            if differs {
                tally
                    .other_rules_differ
                    .push(format!("{label}: {}", ran.join("; ")));
            } else if ran.is_empty() {
                tally.other_rules_unrun.push(label);
            } else {
                tally
                    .other_rules_agree
                    .push(format!("{label}: {}", ran.join("; ")));
            }
        }
    }
}

#[test]
fn perft_suites_from_the_corpus() {
    let Some(corpus) = common::corpus_or_skip("perft_suites_from_the_corpus") else {
        return;
    };
    let budget = env::var("SLOWFUSE_PERFT_BUDGET")
        .ok()
        .and_then(|b| b.parse().ok())
        .unwrap_or(DEFAULT_BUDGET);

    let mut tally = Tally::default();
    let mut suites = 0;
    let perft_dir = corpus.join("perft");
    let mut folders: Vec<_> = fs::read_dir(&perft_dir)
        .expect("perft folder")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.is_dir())
        .collect();
    folders.sort();
    for folder in folders {
        for path in common::files_ending(&folder, ".perft") {
            let name = path
                .strip_prefix(&corpus)
                .unwrap_or(&path)
                .display()
                .to_string();
            run_suite(&path, &name, budget, &mut tally);
            suites += 1;
        }
    }

    println!(
        "{suites} suites: checked {} perft counts ({} nodes) within a budget of {budget} nodes per count",
        tally.checked, tally.nodes
    );
    println!(
        "{} start positions with a check no game can reach were counted from the FEN",
        tally.refused_starts
    );
    println!(
        "{} counts above the budget are left to `slowfuse perft`:",
        tally.over_budget.len()
    );
    // Every one for the variant suites; a count per suite for the
    // thousands of standard and Chess960 records.
    let mut per_suite: Vec<(&str, usize)> = Vec::new();
    for label in &tally.over_budget {
        let suite = label.split(' ').next().unwrap_or("");
        match per_suite.last_mut() {
            Some((name, n)) if *name == suite => *n += 1,
            _ => per_suite.push((suite, 1)),
        }
        if !suite.starts_with("perft/standard/") {
            println!("  over budget: {label}");
        }
    }
    for (suite, n) in per_suite {
        println!("  {suite}: {n} counts over budget");
    }
    for line in &tally.other_rules_differ {
        println!("other rules, counts differ as expected: {line}");
    }
    for line in &tally.other_rules_agree {
        println!(
            "other rules, counts agree at these depths (the rule difference does not show \
             in these counts): {line}"
        );
    }
    for line in &tally.other_rules_unrun {
        println!("other rules, every depth over budget, not run: {line}");
    }

    assert!(suites >= 13, "only {suites} perft suites found");
    assert!(
        tally.checked > 1000,
        "too few perft counts were checked: {}",
        tally.checked
    );
    // The rule sets that differ from lichess's within reach of the budget.
    assert!(
        tally.other_rules_differ.len() >= 2,
        "records under other rules should differ from ours"
    );
}
