//! `slowfuse backup`: a copy of a running server's SQLite database, taken while players move,
//! is whole and consistent, and a server started on it serves the games and moves it held (and
//! plays on); the command never overwrites a file; on PostgreSQL it prints the pg_dump recipe.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicBool, Ordering};

use common::{Backend, Options, TestApp, spawn_app_with_env};
use diesel::prelude::*;
use diesel::sql_types::BigInt;

fn backup(database_url: &str, file: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_slowfuse"))
        .arg("backup")
        .arg(file)
        .env(
            "SLOWFUSE_CONFIG_DIR",
            Path::new(env!("CARGO_MANIFEST_DIR")).join("config"),
        )
        .env("DATABASE_URL", database_url)
        .output()
        .expect("the slowfuse binary runs")
}

#[derive(QueryableByName)]
struct Row {
    #[diesel(sql_type = BigInt)]
    id: i64,
    #[diesel(sql_type = BigInt)]
    ply: i64,
    #[diesel(sql_type = BigInt)]
    moves: i64,
}

/// The backup passes SQLite's own check, and every game in it has exactly the moves its row
/// counts: no move without its game's update, or the other way round.
fn the_copy_is_consistent(file: &Path) -> usize {
    let mut conn = SqliteConnection::establish(file.to_str().unwrap()).unwrap();
    #[derive(QueryableByName)]
    struct Check {
        #[diesel(sql_type = diesel::sql_types::Text)]
        integrity_check: String,
    }
    let check: Check = diesel::sql_query("PRAGMA integrity_check")
        .get_result(&mut conn)
        .unwrap();
    assert_eq!(check.integrity_check, "ok");
    let games: Vec<Row> = diesel::sql_query(
        "SELECT g.id AS id, CAST(g.ply AS BIGINT) AS ply,
                (SELECT count(*) FROM moves m WHERE m.game_id = g.id) AS moves
         FROM games g",
    )
    .load(&mut conn)
    .unwrap();
    for g in &games {
        assert_eq!(g.ply, g.moves, "game {} in the backup", g.id);
    }
    games.len()
}

#[test]
fn sqlite_backup_taken_while_players_move_restores_to_a_working_server() {
    let Some(app) = common::spawn_app(Backend::Sqlite) else {
        return;
    };
    let alice = app.user("alice");
    let bob = app.user("bob");
    let kept = app.game("atomic", &alice, &bob);
    app.play_all(kept, &alice, &bob, &["e4", "e5", "Nf3"]);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("slowfuse-backup.db");
    let busy = AtomicBool::new(true);
    let (output, games_during) = std::thread::scope(|s| {
        // Players keep starting games and moving while the copy is taken.
        let writer = s.spawn(|| {
            let mut games = 0;
            while busy.load(Ordering::Relaxed) {
                let g = app.game("standard", &alice, &bob);
                app.play_all(g, &alice, &bob, &["d4", "d5"]);
                games += 1;
            }
            games
        });
        std::thread::sleep(std::time::Duration::from_millis(100));
        let output = backup(&app.database_url, &file);
        busy.store(false, Ordering::Relaxed);
        (output, writer.join().unwrap())
    });
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(stdout.contains("Backed up"), "{stdout}");
    assert!(stdout.contains("slowfuse-backup.db"), "{stdout}");
    assert!(games_during > 0, "moves were made during the backup");
    let in_copy = the_copy_is_consistent(&file);
    assert!(stdout.contains(&format!("{in_copy} games")), "{stdout}");
    // The running server goes on; its next move is not in the copy.
    app.play(kept, &bob, "Nc6", 3);

    let restored = restore(&file);
    let got = restored.get(&format!("/api/v1/games/{kept}"), None);
    assert_eq!(got.status, 200, "{}", got.body);
    assert_eq!(
        got.body["moves"],
        serde_json::json!(["e2e4", "e7e5", "g1f3"])
    );
    let (status, page) = restored.get_text(&format!("/games/{kept}"));
    assert_eq!(status, 200);
    assert!(
        page.contains("Nf3") && !page.contains("Nc6"),
        "the page shows the moves of the copy"
    );
    // The accounts came along: Bob logs in on the restored server and plays on.
    let r = restored.post(
        "/api/v1/tokens",
        None,
        serde_json::json!({"username": "bob", "password": "correct horse battery"}),
    );
    assert_eq!(r.status, 201, "{}", r.body);
    let bob_there = r.body["token"].as_str().unwrap().to_string();
    let r = restored.play(kept, &bob_there, "Nc6", 3);
    assert_eq!(r.status, 200, "{}", r.body);
}

/// A server on the backup file: the restore steps of the README (the copy put in place, the
/// server started on it).
fn restore(file: &Path) -> TestApp {
    spawn_app_with_env(
        Backend::Sqlite,
        Options::default(),
        vec![(
            "DATABASE_URL".into(),
            format!("sqlite://{}", file.display()),
        )],
    )
    .expect("SQLite is always there")
}

#[test]
fn sqlite_backup_never_overwrites_a_file() {
    let Some(app) = common::spawn_app(Backend::Sqlite) else {
        return;
    };
    app.user("alice");
    let dir = tempfile::tempdir().unwrap();
    let file: PathBuf = dir.path().join("taken.db");
    std::fs::write(&file, b"something precious").unwrap();
    let output = backup(&app.database_url, &file);
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("exists already"), "{stderr}");
    assert_eq!(std::fs::read(&file).unwrap(), b"something precious");
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        1,
        "nothing else left behind"
    );
    let missing = dir.path().join("no-such-dir").join("x.db");
    let output = backup(&app.database_url, &missing);
    assert!(!output.status.success());
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("does not exist"),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn postgres_backup_points_to_pg_dump() {
    let Some(app) = common::spawn_app(Backend::Postgres) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("pg.db");
    let output = backup(&app.database_url, &file);
    assert!(!output.status.success(), "nothing was backed up");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("pg_dump --format=custom"), "{stderr}");
    assert!(stderr.contains("pg_restore"), "{stderr}");
    assert!(!file.exists());
}
