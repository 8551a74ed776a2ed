//! An upgrade: a database made by the previous release's migrations, with players and games
//! in it (written as that release wrote them, in raw SQL of its schema), is migrated by the
//! server's normal start and served — on SQLite and on PostgreSQL. The game page shows the
//! moves, the JSON lists them, the players log in and play on, and the finished game joins the
//! opening book that the start fills. The start also computes the username skeletons of the old
//! accounts: two old names that read alike (`mike`, `rnike`) both keep working, and a new name
//! that reads like an old one is refused.

use crate::common;

use std::path::Path;

use common::migrations::migrate_before;
use common::{Backend, Options, TestApp, spawn_app_with_env};
use diesel::connection::SimpleConnection;
use diesel::migration::MigrationSource;
use diesel::prelude::*;
use diesel_migrations::{EmbeddedMigrations, MigrationHarness};
use serde_json::json;
use slowfuse::db::{POSTGRES_MIGRATIONS, SQLITE_MIGRATIONS};
use slowfuse_rules::{Game, Variant};

/// The first migration the previous release did not have: its database stops before it (the
/// schema before bughouse, minesweeper, imports, the computer players and engine analysis).
/// Move it forward to the first migration of each new release.
const FIRST_NEW_MIGRATION: &str = "2026-12-05-000014";

/// The password of both players.
const PASSWORD: &str = "correct horse battery";

/// One game as the previous release stored it: the game row, its board, its players and its
/// moves (every position computed by the rules, as the server would have).
fn old_game(variant: &str, moves: &[&str], finished: Option<(&str, &str)>) -> String {
    let mut game = Game::new(variant.parse::<Variant>().unwrap());
    for m in moves {
        game = game.play(m).unwrap();
    }
    let user = |name: &str| format!("(SELECT id FROM users WHERE username_key = '{name}')");
    let this_game = "(SELECT max(id) FROM games)";
    let (status, result, termination, finished_at) = match finished {
        Some((result, how)) => (
            "finished",
            result,
            format!("'{how}'"),
            "'2026-12-01 10:00:00'",
        ),
        None => ("started", "*", "NULL".to_string(), "NULL"),
    };
    let deadline = if finished.is_some() {
        "NULL"
    } else {
        "'2036-12-04 09:00:00'"
    };
    let turn = if game.ply().is_multiple_of(2) {
        "white"
    } else {
        "black"
    };
    let mut sql = format!(
        "INSERT INTO games (variant, initial_fen, ply, status, result, termination, time_control,
                            days_per_move, deadline_at, created_at, updated_at, finished_at)
           VALUES ('{variant}', '{initial}', {ply}, '{status}', '{result}', {termination}, 'days',
                   3, {deadline}, '2026-11-30 10:00:00', '2026-12-01 09:00:00', {finished_at});
         INSERT INTO game_boards (game_id, board, fen, ply, turn, deadline_at, last_move_at)
           VALUES ({this_game}, 0, '{fen}', {ply}, '{turn}', {deadline}, '2026-12-01 09:00:00');
         INSERT INTO game_players (game_id, user_id, board, color, time_left_seconds)
           VALUES ({this_game}, {alice}, 0, 'white', 259200),
                  ({this_game}, {bob}, 0, 'black', 259200);\n",
        initial = game.initial_fen(),
        ply = game.ply(),
        fen = game.fen(),
        alice = user("alice"),
        bob = user("bob"),
    );
    for (ply, m) in game.moves().iter().enumerate() {
        let player = user(if ply % 2 == 0 { "alice" } else { "bob" });
        sql += &format!(
            "INSERT INTO moves (game_id, board, ply, uci, san, fen_after, player_id, played_at)
               VALUES ({this_game}, 0, {ply}, '{uci}', '{san}', '{fen}', {player},
                       '2026-12-01 09:00:00');\n",
            uci = m.uci,
            san = m.san,
            fen = game.fen_at(ply as u32 + 1).unwrap(),
        );
    }
    sql
}

/// Two players (real password hashes, so that they can log in after the upgrade), a running
/// atomic game after 1. e4 e5 2. Nf3 and a finished game (fool's mate); two more players whose
/// names read alike (`m` looks like `rn`), as names were not compared by their look then.
fn old_data() -> String {
    use argon2::password_hash::{PasswordHasher, SaltString};
    let salt = SaltString::encode_b64(b"sixteen byte salt").unwrap();
    let hash = argon2::Argon2::default()
        .hash_password(PASSWORD.as_bytes(), &salt)
        .unwrap()
        .to_string();
    let mut sql = format!(
        "INSERT INTO users (username, username_key, email, password_hash, created_at)
           VALUES ('Alice', 'alice', 'alice@example.org', '{hash}', '2026-11-30 10:00:00'),
                  ('bob', 'bob', 'bob@example.org', '{hash}', '2026-11-30 10:00:00'),
                  ('mike', 'mike', 'mike@example.org', '{hash}', '2026-11-30 10:00:00'),
                  ('rnike', 'rnike', 'rnike@example.org', '{hash}', '2026-11-30 10:00:00');\n"
    );
    sql += &old_game("atomic", &["e4", "e5", "Nf3"], None);
    sql += &old_game(
        "standard",
        &["f3", "e5", "g4", "Qh4#"],
        Some(("0-1", "checkmate")),
    );
    sql
}

/// The server started normally on the old database (it migrates), then checked as a player
/// and a visitor would.
fn the_upgraded_server_serves_the_games(database_url: String, total_migrations: usize) {
    // The `DATABASE_URL` given replaces the harness's own fresh database, whichever backend.
    let app = spawn_app_with_env(
        Backend::Sqlite,
        Options::default(),
        vec![("DATABASE_URL".into(), database_url)],
    )
    .expect("the server starts on the old database");
    let applied = app
        .state
        .pool
        .get()
        .unwrap()
        .applied_migrations()
        .unwrap()
        .len();
    assert_eq!(
        applied, total_migrations,
        "every migration ran at the start"
    );
    let (running, finished) = (1, 2);
    let got = app.get(&format!("/api/v1/games/{running}"), None);
    assert_eq!(got.status, 200, "{}", got.body);
    assert_eq!(got.body["moves"], json!(["e2e4", "e7e5", "g1f3"]));
    assert_eq!(got.body["status"], "started");
    assert_eq!(got.body["white"], "Alice");
    assert_eq!(got.body["turn"], "black");
    let (status, page) = app.get_text(&format!("/games/{running}"));
    assert_eq!(status, 200);
    for san in ["e4", "e5", "Nf3", "Alice", "bob"] {
        assert!(page.contains(san), "{san} on the game page");
    }
    let got = app.get(&format!("/api/v1/games/{finished}"), None);
    assert_eq!(got.status, 200, "{}", got.body);
    assert_eq!(got.body["result"], "0-1");
    assert_eq!(got.body["moves"].as_array().unwrap().len(), 4);
    let (status, pgn) = app.get_text(&format!("/games/{finished}.pgn"));
    assert_eq!(status, 200);
    assert!(pgn.contains("2. g4 Qh4# 0-1"), "{pgn}");
    // The start put the game finished before the book existed into it.
    let start_fen =
        "rnbqkbnr%2Fpppppppp%2F8%2F8%2F8%2F8%2FPPPPPPPP%2FRNBQKBNR%20w%20KQkq%20-%200%201";
    let book = app.get(
        &format!("/api/v1/openings?variant=standard&fen={start_fen}"),
        None,
    );
    assert_eq!(book.status, 200, "{}", book.body);
    assert_eq!(book.body["games"], 1, "{}", book.body);
    assert_eq!(book.body["moves"][0]["san"], "f3");
    // The players log in with their old passwords and play on.
    let bob = token(&app, "bob");
    let r = app.play(running, &bob, "Nc6", 3);
    assert_eq!(r.status, 200, "{}", r.body);
    let alice = token(&app, "alice");
    let r = app.play(running, &alice, "Bb5", 4);
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["moves"].as_array().unwrap().len(), 5);
    the_old_names_have_skeletons(&app);
}

/// The start gave each old account its skeleton, the older of two look-alikes first; both
/// look-alikes log in and are found by their own names, and no new name like an old one is
/// taken.
fn the_old_names_have_skeletons(app: &TestApp) {
    use slowfuse::schema::users;
    let skeletons: Vec<(String, Option<String>)> = users::table
        .filter(users::username_key.eq_any(["alice", "bob", "mike", "rnike"]))
        .select((users::username, users::username_skeleton))
        .order(users::id.asc())
        .load(&mut **app.state.pool.get().unwrap())
        .unwrap();
    let rn = Some("rnike".to_string());
    assert_eq!(
        skeletons,
        [
            ("Alice".to_string(), Some("alice".to_string())),
            ("bob".to_string(), Some("bob".to_string())),
            ("mike".to_string(), rn.clone()),
            ("rnike".to_string(), None),
        ]
    );
    for name in ["mike", "rnike"] {
        token(app, name);
        let r = app.get(&format!("/api/v1/users/{name}"), None);
        assert_eq!(r.body["username"], name, "{}", r.body);
    }
    for (name, taken) in [("a1ice", "Alice"), ("MIKE", "MIKE"), ("rnikE", "rnikE")] {
        let r = app.post(
            "/api/v1/accounts",
            None,
            json!({"username": name, "email": "new@example.org", "password": PASSWORD}),
        );
        assert_eq!(r.status, 409, "{name}: {}", r.body);
        let error = r.body["error"].as_str().unwrap();
        assert!(error.contains(&format!("\"{taken}\"")), "{name}: {error}");
    }
}

fn token(app: &TestApp, name: &str) -> String {
    let r = app.post(
        "/api/v1/tokens",
        None,
        json!({"username": name, "password": PASSWORD}),
    );
    assert_eq!(r.status, 201, "{name} logs in: {}", r.body);
    r.body["token"].as_str().unwrap().to_string()
}

fn total(source: EmbeddedMigrations) -> usize {
    MigrationSource::<diesel::sqlite::Sqlite>::migrations(&source)
        .unwrap()
        .len()
}

#[test]
fn sqlite_database_of_the_previous_release_is_migrated_and_served() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("previous.db");
    let mut conn = SqliteConnection::establish(path.to_str().unwrap()).unwrap();
    let old = migrate_before(&mut conn, SQLITE_MIGRATIONS, FIRST_NEW_MIGRATION);
    assert!(old < total(SQLITE_MIGRATIONS), "newer migrations to run");
    conn.batch_execute(&old_data()).unwrap();
    drop(conn);
    the_upgraded_server_serves_the_games(
        format!("sqlite://{}", Path::new(&path).display()),
        total(SQLITE_MIGRATIONS),
    );
}

#[test]
fn postgres_database_of_the_previous_release_is_migrated_and_served() {
    let Some(server) = common::postgres_url() else {
        return;
    };
    let url = common::fresh_postgres_database(&server);
    let mut conn = PgConnection::establish(&url).unwrap();
    let all = MigrationSource::<diesel::pg::Pg>::migrations(&POSTGRES_MIGRATIONS)
        .unwrap()
        .len();
    let old = migrate_before(&mut conn, POSTGRES_MIGRATIONS, FIRST_NEW_MIGRATION);
    assert!(old < all, "newer migrations to run");
    conn.batch_execute(&old_data()).unwrap();
    drop(conn);
    the_upgraded_server_serves_the_games(url, all);
}
