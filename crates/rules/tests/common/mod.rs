//! Finding the shared test corpus (`$SLOWFUSE_CORPUS` or `../shared/corpus`).

use std::env;
use std::path::PathBuf;

/// The corpus folder, or `None` (with a notice printed) when it is absent.
///
/// # Panics
///
/// When it is absent and `SLOWFUSE_REQUIRE_CORPUS=1` (as in CI).
pub fn corpus_or_skip(test: &str) -> Option<PathBuf> {
    let dir = match env::var_os("SLOWFUSE_CORPUS") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"),
    };
    if dir.is_dir() {
        return Some(dir);
    }
    assert!(
        !env::var("SLOWFUSE_REQUIRE_CORPUS").is_ok_and(|v| v == "1"),
        "{test}: SLOWFUSE_REQUIRE_CORPUS=1 but no corpus at $SLOWFUSE_CORPUS or ../shared/corpus"
    );
    println!("{test} skipped: no test corpus at $SLOWFUSE_CORPUS or ../shared/corpus");
    None
}

/// The files directly in `dir` whose names end with `suffix`, sorted.
pub fn files_ending(dir: &std::path::Path, suffix: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .map(|entry| entry.expect("directory entry").path())
        .filter(|path| path.to_string_lossy().ends_with(suffix))
        .collect();
    files.sort();
    files
}
