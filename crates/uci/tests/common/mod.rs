//! What the integration tests share: finding the Debian engines (skip, or fail under CI), a
//! configuration, and whether a process still runs.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::time::Duration;

use slowfuse_uci::EngineConfig;

/// Whether the tests run under CI (`CI` set, and not empty, `false` or `0`): there, a test
/// that lacks an engine fails instead of skipping.
pub fn under_ci() -> bool {
    std::env::var("CI")
        .is_ok_and(|v| !matches!(v.trim().to_ascii_lowercase().as_str(), "" | "0" | "false"))
}

/// The engine program `name` (`stockfish`, `fairy-stockfish`): `/usr/games/NAME` (Debian) or
/// the first on `PATH`. `None` (the test skips) when it is not installed, except under CI,
/// where the test fails.
pub fn engine(name: &str) -> Option<PathBuf> {
    let fixed = Path::new("/usr/games").join(name);
    let found = if fixed.is_file() {
        Some(fixed)
    } else {
        std::env::var_os("PATH").and_then(|path| {
            std::env::split_paths(&path)
                .map(|dir| dir.join(name))
                .find(|candidate| candidate.is_file())
        })
    };
    if found.is_none() {
        assert!(
            !under_ci(),
            "{name} not installed; CI must run the engine tests (apt-get install stockfish fairy-stockfish)"
        );
        eprintln!("SKIPPED: {name} not installed");
    }
    found
}

/// The engine at `path` on one thread and 16 MB of hash, `nodes` a position, 20 seconds at most.
pub fn config(path: &Path, nodes: u64) -> EngineConfig {
    EngineConfig {
        options: vec![("Threads".into(), "1".into()), ("Hash".into(), "16".into())],
        nodes,
        timeout: Duration::from_secs(20),
        ..EngineConfig::new(path)
    }
}

/// Whether process `pid` still runs (a zombie waiting to be collected does not).
pub fn running(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        // The state follows the command name in parentheses.
        stat.rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().next())
            .is_some_and(|state| state != "Z" && state != "X")
    })
}

/// Moves in UCI notation, from one string.
pub fn moves(list: &str) -> Vec<String> {
    list.split_whitespace().map(str::to_string).collect()
}
