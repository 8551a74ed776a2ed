//! Readers written by others, run over the files we write: pgn-extract (Debian) and
//! python-chess (run with the system's Python). Where one is missing the check says so and
//! skips, except under CI, which installs both.

use std::io::Write;
use std::process::{Command, Stdio};

/// Runs `program args` with `input` on its standard input; `None` when it cannot be started.
fn run(program: &str, args: &[&str], input: &str) -> Option<std::process::Output> {
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .ok()?;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .ok()?;
    child.wait_with_output().ok()
}

/// python-chess reads every game of `pgn` (in its variant, from its Variant tag) without an
/// error and finds `games` games.
const PYTHON_CHESS: &str = r#"
import sys, chess.pgn
games = 0
while True:
    game = chess.pgn.read_game(sys.stdin)
    if game is None:
        break
    games += 1
    if game.errors:
        print(f"game {games}: {game.errors}", file=sys.stderr)
        sys.exit(1)
    game.end().board()
print(games)
"#;

/// Checks that pgn-extract and python-chess read `pgn` without an error or a warning, and that
/// python-chess finds `games` games in it.
pub fn pgn_readers_accept(pgn: &str, games: usize) {
    let program = ["pgn-extract", "/usr/games/pgn-extract"]
        .into_iter()
        .find(|p| Command::new(p).arg("--version").output().is_ok());
    match program.and_then(|p| run(p, &["-s", "-r"], pgn)) {
        Some(out) => {
            let errors = String::from_utf8_lossy(&out.stderr);
            assert!(out.status.success(), "pgn-extract failed: {errors}");
            assert!(
                errors.trim().is_empty(),
                "pgn-extract complains about the file: {errors}"
            );
        }
        None => {
            assert!(!super::under_ci(), "pgn-extract must be installed in CI");
            eprintln!("SKIPPED: pgn-extract not installed");
        }
    }
    let python_has_chess = Command::new("/usr/bin/python3")
        .args(["-c", "import chess.pgn"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !python_has_chess {
        assert!(!super::under_ci(), "python-chess must be installed in CI");
        eprintln!("SKIPPED: python-chess not installed");
        return;
    }
    let out = run("/usr/bin/python3", &["-c", PYTHON_CHESS], pgn).expect("python3 runs");
    let errors = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "python-chess: {errors}");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        games.to_string(),
        "python-chess counts the games"
    );
}
