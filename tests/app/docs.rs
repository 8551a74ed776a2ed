//! The documents a newcomer reads first keep their promised shape: `ARCHITECTURE.md` a map of
//! at most 15,000 characters whose table cells stay short, `CONTRIBUTING.md` with its recipes,
//! and `docs/benchmarks.md` opening with the current figures.

use std::path::Path;

fn read(name: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(name))
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[test]
fn the_architecture_map_stays_short_enough_to_read_in_twenty_minutes() {
    let map = read("ARCHITECTURE.md");
    let chars = map.chars().count();
    assert!(chars <= 15_000, "ARCHITECTURE.md has {chars} characters");
    for line in map.lines().filter(|l| l.starts_with('|')) {
        for cell in line.split('|') {
            let n = cell.trim().chars().count();
            assert!(n <= 300, "a cell of {n} characters: {cell}");
        }
    }
    for walk in ["## A move", "## A game page", "## An email"] {
        assert!(map.contains(walk), "the walk \"{walk}\"");
    }
}

#[test]
fn contributing_holds_a_recipe_for_each_common_change() {
    let guide = read("CONTRIBUTING.md");
    for recipe in [
        "### A new tab on the game page",
        "### A new mail kind",
        "### A new route",
        "### A new variant",
        "### A new use case",
        "### A migration",
    ] {
        assert!(guide.contains(recipe), "{recipe}");
    }
}

#[test]
fn the_benchmarks_open_with_the_figures_and_keep_their_journal_apart() {
    let page = read("docs/benchmarks.md");
    let opening: String = page.lines().take(60).collect::<Vec<_>>().join("\n");
    assert!(
        opening.contains("| "),
        "a table of figures first: {opening}"
    );
    assert!(page.contains("## How to rerun"), "how to rerun");
    assert!(
        page.contains("benchmarks-journal.md"),
        "a link to the journal"
    );
    assert!(read("docs/benchmarks-journal.md").lines().count() > 100);
}
