//! The PGN of many games at once, as readers get it: the search's download and a player's,
//! streamed in the search's order with nothing cut off, and `slowfuse export` writing the same
//! file; every file read without complaint by pgn-extract, python-chess and pgn-reader.

use crate::common;

use std::process::Command;

use chrono::Duration;
use common::TestApp;
use serde_json::json;
use slowfuse::clock::FixedClock;

on_both_databases_at_t0!(
    a_search_download_holds_every_game_in_the_search_order,
    a_players_download_holds_their_games_only,
    the_command_line_exports_what_the_site_downloads,
);

/// Games of alice, bob and carol: more than a download's first batch, finishing at the same
/// instant in pairs (the order's ties), some running with equal deadlines. Returns alice's
/// atomic games.
fn many_games(app: &TestApp, clock: &FixedClock) -> Vec<i64> {
    let alice = app.user("alice");
    let bob = app.user("bob");
    let carol = app.user("carol");
    let mut alice_atomic = Vec::new();
    for i in 0..27 {
        let (white, black) = match i % 3 {
            0 => (&alice, &bob),
            1 => (&bob, &carol),
            _ => (&carol, &alice),
        };
        let variant = if i % 2 == 0 { "atomic" } else { "standard" };
        let id = app.game_from(
            white,
            black,
            json!({"variant": variant, "color": "white", "days_per_move": 3}),
        );
        if variant == "atomic" && i % 3 != 1 {
            alice_atomic.push(id);
        }
        assert_eq!(app.play(id, white, "Nf3", 0).status, 200);
        if i % 4 != 3 {
            let r = app.post(
                &format!("/api/v1/games/{id}/actions"),
                Some(black),
                json!({"action": "resign", "ply": 1}),
            );
            assert_eq!(r.status, 200, "{}", r.body);
        }
        if i % 2 == 1 {
            clock.advance(Duration::hours(1));
        }
    }
    alice_atomic
}

/// The game ids of a PGN file, in order (from the Site tags).
fn pgn_games(pgn: &str) -> Vec<i64> {
    let re = regex::Regex::new(r#"\[Site "[^"]*/games/(\d+)"\]"#).unwrap();
    re.captures_iter(pgn)
        .map(|c| c[1].parse().unwrap())
        .collect()
}

/// The ids the search API lists for `query`, in order (one page of up to 100).
fn listed(app: &TestApp, query: &str) -> Vec<i64> {
    let r = app.get(&format!("/api/v1/search?{query}&per_page=100"), None);
    assert_eq!(r.status, 200, "{}", r.body);
    r.body["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_i64().unwrap())
        .collect()
}

fn a_search_download_holds_every_game_in_the_search_order(app: &TestApp, clock: &FixedClock) {
    many_games(app, clock);
    for query in [
        "",
        "sort=time_left",
        "variant=atomic",
        "status=finished&sort=time_left",
    ] {
        let want = listed(app, query);
        let (status, pgn) = app.get_text(&format!("/search.pgn?{query}"));
        assert_eq!(status, 200);
        assert_eq!(
            pgn_games(&pgn),
            want,
            "{query}: the page's games, in its order"
        );
        assert_eq!(pgn.matches("[Event ").count(), want.len());
    }
    assert_eq!(listed(app, "").len(), 27, "every game is in the file");
    let (_, pgn) = app.get_text("/search.pgn");
    common::readers::pgn_readers_accept(&pgn, 27);
    // pgn-reader too, through the rules' own replay of the file: every game, every move.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("search.pgn");
    std::fs::write(&file, &pgn).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_slowfuse"))
        .arg("replay")
        .arg(&file)
        .output()
        .expect("run slowfuse replay");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 27);
    for line in &lines {
        assert!(line["error"].is_null(), "{line}");
        assert!(line["plies"].as_u64().unwrap() >= 1, "{line}");
    }
}

fn a_players_download_holds_their_games_only(app: &TestApp, clock: &FixedClock) {
    let mut alice_atomic = many_games(app, clock);
    let res = app
        .client
        .get(format!("{}/users/Alice/games.pgn?variant=atomic", app.base))
        .send()
        .unwrap();
    assert_eq!(res.status().as_u16(), 200);
    let disposition = res.headers()["content-disposition"].to_str().unwrap();
    assert!(
        disposition.contains("attachment") && disposition.contains("slowfuse-alice.pgn"),
        "{disposition}"
    );
    let pgn = res.text().unwrap();
    let mut got = pgn_games(&pgn);
    assert_eq!(got, listed(app, "player=alice&variant=atomic"));
    got.sort();
    alice_atomic.sort();
    assert_eq!(got, alice_atomic, "alice's atomic games, no other");
    // Every filter of the search applies; the player is the one in the path.
    let (_, pgn) = app.get_text("/users/alice/games.pgn?color=white&player=bob");
    assert_eq!(pgn_games(&pgn), listed(app, "player=alice&color=white"));
    assert_eq!(app.get_text("/users/nobody/games.pgn").0, 404);
    let (status, body) = app.get_text("/users/alice/games.pgn?result=2-0");
    assert_eq!(status, 400);
    assert!(body.contains("result must be"), "{body}");
    // The profile links to it.
    let profile = app.browser().get("/users/alice");
    assert!(
        profile.body.contains(r#"href="/users/alice/games.pgn""#),
        "the profile offers the download"
    );
}

fn the_command_line_exports_what_the_site_downloads(app: &TestApp, clock: &FixedClock) {
    many_games(app, clock);
    let config = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("config");
    let out = Command::new(env!("CARGO_BIN_EXE_slowfuse"))
        .arg("--config-dir")
        .arg(&config)
        .args(["export", "--player", "carol", "--status", "finished"])
        .env("DATABASE_URL", &app.state.settings.database.url)
        .env(
            "SLOWFUSE__SERVER__PUBLIC_URL",
            &app.state.settings.server.public_url,
        )
        .env("RUST_LOG", "off")
        .output()
        .expect("run slowfuse export");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let want = listed(app, "player=carol&status=finished");
    assert!(
        stderr.contains(&format!("{} games exported", want.len())),
        "{stderr}"
    );
    let (_, downloaded) = app.get_text("/search.pgn?player=carol&status=finished");
    let exported = String::from_utf8(out.stdout).unwrap();
    assert_eq!(pgn_games(&exported), want);
    assert_eq!(exported, downloaded, "the same file as the site's download");
    // A filter the search refuses is refused with its reason, and nothing is written.
    let bad = Command::new(env!("CARGO_BIN_EXE_slowfuse"))
        .arg("--config-dir")
        .arg(&config)
        .args(["export", "--variant", "tiddlywinks"])
        .env("DATABASE_URL", &app.state.settings.database.url)
        .output()
        .unwrap();
    assert!(!bad.status.success());
    assert!(bad.stdout.is_empty());
    assert!(
        String::from_utf8_lossy(&bad.stderr).contains("unknown variant"),
        "{}",
        String::from_utf8_lossy(&bad.stderr)
    );
}
