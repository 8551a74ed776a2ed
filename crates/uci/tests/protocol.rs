//! Against programs that are not (good) engines: a bad path, `cat`, scripts that never say
//! `uciok`, ignore `stop` or die mid-search. No engine needs to be installed.

mod common;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use common::running;
use slowfuse_uci::{EngineConfig, UciEngine, UciError};

fn quick(path: &Path, args: &[&str]) -> EngineConfig {
    EngineConfig {
        args: args.iter().map(|a| (*a).to_string()).collect(),
        nodes: 1000,
        timeout: Duration::from_millis(700),
        ..EngineConfig::new(path)
    }
}

/// Writes an executable shell script `body` as `dir/name`.
fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// The process ids a script wrote to `file`, one a line.
fn pids(file: &Path) -> Vec<u32> {
    let text = std::fs::read_to_string(file).unwrap();
    text.lines().map(|l| l.trim().parse().unwrap()).collect()
}

/// An engine that answers `uci` and `isready` and does nothing else: `go` and `stop` alike are
/// ignored. It writes its process id to its first argument.
const DEAF_ENGINE: &str = r#"echo $$ > "$1"
while read -r line; do
  case "$line" in
    uci) echo "id name Deaf"; echo "option name Hash type spin default 16 min 1 max 64"; echo uciok ;;
    isready) echo readyok ;;
    go*) [ -n "$2" ] && exit 3 ;;
  esac
done
"#;

#[test]
fn a_program_that_is_not_there_cannot_be_spawned() {
    let error = UciEngine::start(&quick(Path::new("/nonexistent/stockfish"), &[]))
        .err()
        .expect("no such program");
    assert!(matches!(error, UciError::Spawn(_)), "{error}");
}

#[test]
fn cat_is_not_an_engine() {
    let began = Instant::now();
    let error = UciEngine::start(&quick(Path::new("/bin/cat"), &[]))
        .err()
        .expect("cat never says uciok");
    assert!(matches!(error, UciError::Timeout), "{error}");
    assert!(
        began.elapsed() < Duration::from_secs(2),
        "{:?}",
        began.elapsed()
    );
}

#[test]
fn a_program_that_ends_without_uciok_breaks_the_protocol() {
    let dir = tempfile::tempdir().unwrap();
    let path = script(
        dir.path(),
        "banner",
        "read -r line\necho \"Hello, $line\"\n",
    );
    let error = UciEngine::start(&quick(&path, &[]))
        .err()
        .expect("no uciok");
    assert!(
        matches!(&error, UciError::Protocol(m) if m.contains("uciok")),
        "{error}"
    );
}

#[test]
fn a_silent_script_times_out_and_leaves_no_process() {
    let dir = tempfile::tempdir().unwrap();
    let pid_file = dir.path().join("pids");
    // The shell and a child of its own, both blocked for good.
    let body = "echo $$ > \"$1\"\nsleep 600 &\necho $! >> \"$1\"\necho 'Not an engine'\nwait\n";
    let path = script(dir.path(), "silent", body);
    let began = Instant::now();
    let arg = pid_file.to_str().unwrap();
    let error = UciEngine::start(&quick(&path, &[arg]))
        .err()
        .expect("no uciok");
    assert!(matches!(error, UciError::Timeout), "{error}");
    assert!(
        began.elapsed() < Duration::from_secs(2),
        "{:?}",
        began.elapsed()
    );
    let pids = pids(&pid_file);
    assert_eq!(pids.len(), 2);
    // The child is reaped by whoever adopted it; give that a moment.
    std::thread::sleep(Duration::from_millis(100));
    for pid in pids {
        assert!(!running(pid), "process {pid} still runs");
    }
}

#[test]
fn an_engine_that_ignores_stop_is_killed() {
    let dir = tempfile::tempdir().unwrap();
    let pid_file = dir.path().join("pid");
    let path = script(dir.path(), "deaf", DEAF_ENGINE);
    let mut engine = UciEngine::start(&quick(&path, &[pid_file.to_str().unwrap()])).unwrap();
    assert_eq!(engine.name(), "Deaf");
    assert_eq!(engine.options().len(), 1);
    assert!(engine.supports_variant("chess") && !engine.supports_variant("crazyhouse"));
    let error = engine.analyse("chess", None, &[], true).unwrap_err();
    assert!(
        matches!(&error, UciError::UnsupportedVariant(v) if v == "chess960"),
        "{error}"
    );
    let began = Instant::now();
    let error = engine.analyse("chess", None, &[], false).unwrap_err();
    assert!(matches!(error, UciError::Timeout), "{error}");
    // The timeout, then a second for `bestmove` after `stop`.
    assert!(
        began.elapsed() < Duration::from_secs(3),
        "{:?}",
        began.elapsed()
    );
    let pid = pids(&pid_file)[0];
    assert!(!running(pid), "the engine {pid} still runs");
    assert_eq!(engine.pid(), None);
    let error = engine.analyse("chess", None, &[], false).unwrap_err();
    assert!(matches!(error, UciError::Exited), "{error}");
}

#[test]
fn an_engine_that_dies_mid_search_has_exited() {
    let dir = tempfile::tempdir().unwrap();
    let pid_file = dir.path().join("pid");
    let path = script(dir.path(), "dying", DEAF_ENGINE);
    let args = [pid_file.to_str().unwrap(), "die"];
    let mut engine = UciEngine::start(&quick(&path, &args)).unwrap();
    let error = engine.analyse("chess", None, &[], false).unwrap_err();
    assert!(matches!(error, UciError::Exited), "{error}");
    assert!(!running(pids(&pid_file)[0]));
}

#[test]
fn input_that_would_break_the_line_is_refused_before_sending() {
    let dir = tempfile::tempdir().unwrap();
    let pid_file = dir.path().join("pid");
    let path = script(dir.path(), "deaf", DEAF_ENGINE);
    let mut config = quick(&path, &[pid_file.to_str().unwrap()]);
    config.options = vec![("Hash".into(), "16\nquit".into())];
    assert!(matches!(
        UciEngine::start(&config),
        Err(UciError::InvalidInput(_))
    ));
    config.options.clear();
    let mut engine = UciEngine::start(&config).unwrap();
    let two_lines = "8/8/8/8/8/8/8/K6k w - - 0 1\ngo infinite";
    for error in [
        engine
            .analyse("chess", Some(two_lines), &[], false)
            .unwrap_err(),
        engine
            .analyse("chess", None, &["e2e4 e7e5".to_string()], false)
            .unwrap_err(),
        engine
            .analyse("chess", None, &[String::new()], false)
            .unwrap_err(),
        engine.analyse("", None, &[], false).unwrap_err(),
    ] {
        assert!(matches!(error, UciError::InvalidInput(_)), "{error}");
    }
    assert!(
        engine.pid().is_some(),
        "nothing was sent, the engine runs on"
    );
}

#[test]
fn malformed_search_output_is_a_protocol_error() {
    let dir = tempfile::tempdir().unwrap();
    let body = r#"while read -r line; do
  case "$line" in
    uci) echo uciok ;;
    isready) echo readyok ;;
    go*) echo "info depth 3 score cp many pv e2e4"; echo "bestmove e2e4" ;;
  esac
done
"#;
    let path = script(dir.path(), "garbled", body);
    let mut engine = UciEngine::start(&quick(&path, &[])).unwrap();
    assert_eq!(engine.name(), "garbled", "no id name: the file's name");
    let error = engine.analyse("chess", None, &[], false).unwrap_err();
    assert!(
        matches!(&error, UciError::Protocol(m) if m.contains("many")),
        "{error}"
    );
}
