//! Perft suites from the shared corpus, counted through `Game`'s move generation.
//!
//! The corpus is found at `$SLOWFUSE_CORPUS` or at `../shared/corpus` from the
//! workspace root. Without it the test says so and passes, unless
//! `SLOWFUSE_REQUIRE_CORPUS=1` (set in CI), where it fails.

use std::env;
use std::fs;
use std::path::PathBuf;

use slowfuse_rules::{Game, Variant, perft_from_fen};

/// Records whose expected count is above this are left out (debug builds are slow).
const MAX_NODES: u64 = 1_000_000;

/// The suites run here: path under the corpus, and the variant they are for.
const SUITES: &[(&str, Variant)] = &[
    ("perft/atomic/atomic-lichess-libs.perft", Variant::Atomic),
    ("perft/standard/standard-tricky.perft", Variant::Standard),
];

/// The one setup error tolerated: a check no game can reach.
const IMPOSSIBLE_CHECK: &str = "the check on the king cannot have arisen in a game";

fn corpus_dir() -> Option<PathBuf> {
    let dir = match env::var_os("SLOWFUSE_CORPUS") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"),
    };
    dir.is_dir().then_some(dir)
}

fn corpus_required() -> bool {
    env::var("SLOWFUSE_REQUIRE_CORPUS").is_ok_and(|v| v == "1")
}

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

#[test]
fn perft_suites_from_the_corpus() {
    let Some(corpus) = corpus_dir() else {
        assert!(
            !corpus_required(),
            "SLOWFUSE_REQUIRE_CORPUS=1 but no corpus at $SLOWFUSE_CORPUS or ../shared/corpus"
        );
        println!("skipped: no test corpus at $SLOWFUSE_CORPUS or ../shared/corpus");
        return;
    };

    let mut checked = 0;
    let mut refused = 0;
    for &(path, variant) in SUITES {
        let file = corpus.join(path);
        let text = fs::read_to_string(&file)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", file.display()));
        let (declared, records) = parse_suite(&text);
        let expected_name = match variant {
            Variant::Standard => "chess",
            Variant::Atomic => "atomic",
        };
        assert_eq!(declared.as_deref(), Some(expected_name), "{path}");
        assert!(!records.is_empty(), "{path} has no records");

        for record in &records {
            if record.rules != "lichess" {
                println!(
                    "skipped {path} {}: written for rules \"{}\", not lichess, so counts differ",
                    record.id, record.rules
                );
                continue;
            }
            // Through a Game where Slowfuse accepts the start position; the
            // few suite positions with a check no game can reach are refused
            // as game starts and counted by `perft_from_fen` instead.
            let game = match Game::from_fen(variant, &record.epd) {
                Ok(game) => Some(game),
                Err(e) if e.to_string().ends_with(IMPOSSIBLE_CHECK) => {
                    println!(
                        "{path} {}: not a game start ({e}); counted from the FEN",
                        record.id
                    );
                    refused += 1;
                    None
                }
                Err(e) => panic!("{path} {}: {e}", record.id),
            };
            for &(depth, nodes) in &record.counts {
                if nodes > MAX_NODES {
                    continue;
                }
                let counted = match &game {
                    Some(game) => game.perft(depth),
                    None => perft_from_fen(variant, &record.epd, depth)
                        .unwrap_or_else(|e| panic!("{path} {}: {e}", record.id)),
                };
                assert_eq!(
                    counted, nodes,
                    "{path} {} ({}) perft {depth}",
                    record.id, record.epd
                );
                checked += 1;
            }
        }
    }
    println!("checked {checked} perft counts, refused {refused} start positions");
    assert!(refused <= 3, "more start positions refused than expected");
    assert!(checked > 20, "too few perft counts were checked: {checked}");
}
