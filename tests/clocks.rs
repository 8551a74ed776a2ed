//! Clocks with an injected "now": deadlines, Fischer banks, timeouts ended exactly once by
//! concurrent workers, aborts, claimed wins, and the background worker itself.

mod common;

use std::sync::Arc;

use chrono::{Duration, NaiveDate, NaiveDateTime};
use common::{Backend, Options, TestApp, spawn_app_with};
use serde_json::json;
use slowfuse::clock::FixedClock;
use slowfuse::usecases::clocks::Expiry;

const DAY: i64 = 86_400;

fn t0() -> NaiveDateTime {
    NaiveDate::from_ymd_opt(2026, 3, 1)
        .unwrap()
        .and_hms_opt(12, 0, 0)
        .unwrap()
}

/// The app on `backend` with a clock standing at `t0()`; no background worker.
fn app_at_t0(backend: Backend) -> Option<(TestApp, Arc<FixedClock>)> {
    let clock = Arc::new(FixedClock::new(t0()));
    let app = spawn_app_with(
        backend,
        Options {
            clock: Some(clock.clone()),
            worker_interval: None,
        },
    )?;
    Some((app, clock))
}

macro_rules! clock_tests {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(#[test] fn $name() { if let Some((app, clock)) = super::app_at_t0(super::Backend::Sqlite) { super::$name(&app, &clock) } })*
        }
        mod postgres {
            $(#[test] fn $name() { if let Some((app, clock)) = super::app_at_t0(super::Backend::Postgres) { super::$name(&app, &clock) } })*
        }
    };
}

clock_tests!(
    days_per_move_deadlines_start_after_blacks_first_move,
    fischer_bank_spends_and_earns_the_increment,
    overdue_game_is_flagged_once_by_two_concurrent_workers,
    game_without_first_moves_is_aborted,
    opponent_claims_the_win_when_automatic_flagging_is_off,
    queue_is_ordered_by_time_left,
);

fn challenge(app: &TestApp, white: &str, black: &str, body: serde_json::Value) -> i64 {
    let r = app.post("/api/v1/challenges", Some(white), body);
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.body["id"].as_i64().unwrap();
    let r = app.post(
        &format!("/api/v1/challenges/{id}/accept"),
        Some(black),
        json!({}),
    );
    assert_eq!(r.status, 201, "{}", r.body);
    r.body["game_id"].as_i64().unwrap()
}

fn clock_of(app: &TestApp, g: i64, color: &str) -> Option<i64> {
    app.get(&format!("/api/v1/games/{g}"), None).body["clock"][color].as_i64()
}

fn deadline_of(app: &TestApp, g: i64) -> String {
    app.get(&format!("/api/v1/games/{g}"), None).body["deadline_at"]
        .as_str()
        .unwrap_or("")
        .to_string()
}

fn rfc(t: NaiveDateTime) -> String {
    t.and_utc().to_rfc3339()
}

fn days_per_move_deadlines_start_after_blacks_first_move(app: &TestApp, clock: &FixedClock) {
    let a = app.user("alice");
    let b = app.user("bob");
    let g = challenge(
        app,
        &a,
        &b,
        json!({"variant": "atomic", "color": "white", "days_per_move": 3}),
    );
    // Before any move: the allowance for the first move (an abort deadline).
    assert_eq!(deadline_of(app, g), rfc(t0() + Duration::days(3)));
    clock.advance(Duration::hours(30));
    app.play(g, &a, "e4", 0);
    assert_eq!(
        deadline_of(app, g),
        rfc(t0() + Duration::hours(30) + Duration::days(3))
    );
    clock.advance(Duration::hours(2));
    app.play(g, &b, "e5", 1);
    let now = t0() + Duration::hours(32);
    assert_eq!(deadline_of(app, g), rfc(now + Duration::days(3)));
    assert_eq!(clock_of(app, g, "white"), Some(3 * DAY));
    clock.advance(Duration::hours(5));
    assert_eq!(clock_of(app, g, "white"), Some(3 * DAY - 5 * 3600));
    // The page shows it too.
    let (_, page) = app.get_text(&format!("/games/{g}"));
    assert!(page.contains("2 days 19 h"), "time left on the page");
    assert!(page.contains("3 days per move"));
}

fn fischer_bank_spends_and_earns_the_increment(app: &TestApp, clock: &FixedClock) {
    let a = app.user("alice");
    let b = app.user("bob");
    let g = challenge(
        app,
        &a,
        &b,
        json!({"variant": "standard", "color": "white", "time_control": "fischer", "preset": "5+½≤15"}),
    );
    assert_eq!(clock_of(app, g, "white"), Some(5 * DAY));
    // First moves cost nothing and earn nothing.
    clock.advance(Duration::days(2));
    app.play(g, &a, "d4", 0);
    clock.advance(Duration::days(1));
    app.play(g, &b, "d5", 1);
    assert_eq!(clock_of(app, g, "white"), Some(5 * DAY));
    assert_eq!(clock_of(app, g, "black"), Some(5 * DAY));
    // White spends a day: 5 - 1 + ½ = 4½ days.
    clock.advance(Duration::days(1));
    app.play(g, &a, "c4", 2);
    assert_eq!(clock_of(app, g, "white"), Some(4 * DAY + DAY / 2));
    // Black answers at once: 5 + ½, and the clock now runs for White.
    app.play(g, &b, "e6", 3);
    assert_eq!(clock_of(app, g, "black"), Some(5 * DAY + DAY / 2));
    assert_eq!(
        deadline_of(app, g),
        rfc(t0() + Duration::days(4) + Duration::hours(108))
    );
    let r = app.post(
        "/api/v1/challenges",
        Some(&a),
        json!({"variant": "standard", "color": "white", "time_control": "fischer", "preset": "7+1≤9"}),
    );
    assert_eq!(r.status, 422, "{}", r.body);
    let r = app.post(
        "/api/v1/challenges",
        Some(&a),
        json!({"variant": "standard", "color": "white", "time_control": "fischer", "initial_days": 20, "increment_hours": 24, "cap_days": 10}),
    );
    assert_eq!(
        r.status, 422,
        "a cap below the start is refused: {}",
        r.body
    );
}

fn run_two_workers(app: &TestApp) -> Vec<Expiry> {
    let (mut one, mut two) = std::thread::scope(|s| {
        let h1 = s.spawn(|| {
            actix_web::rt::System::new().block_on(slowfuse::worker::run_once(&app.state))
        });
        let h2 = s.spawn(|| {
            actix_web::rt::System::new().block_on(slowfuse::worker::run_once(&app.state))
        });
        (h1.join().unwrap().unwrap(), h2.join().unwrap().unwrap())
    });
    one.append(&mut two);
    one
}

fn overdue_game_is_flagged_once_by_two_concurrent_workers(app: &TestApp, clock: &FixedClock) {
    let a = app.user("alice");
    let b = app.user("bob");
    let mut games = Vec::new();
    for _ in 0..4 {
        let g = challenge(
            app,
            &a,
            &b,
            json!({"variant": "atomic", "color": "white", "days_per_move": 1}),
        );
        app.play_all(g, &a, &b, &["e4", "e5"]);
        games.push(g);
    }
    // Not yet overdue: nothing happens.
    clock.advance(Duration::hours(23));
    assert!(run_two_workers(app).is_empty());
    clock.advance(Duration::hours(2));
    // A move after the deadline does not count.
    let r = app.play(games[0], &a, "Nf3", 2);
    assert_eq!(r.status, 409, "{}", r.body);
    assert!(r.body["error"].as_str().unwrap().contains("time ran out"));
    let mut ended = run_two_workers(app);
    ended.sort_by_key(|e| match e {
        Expiry::Flagged(id) | Expiry::Aborted(id) => *id,
    });
    let expected: Vec<Expiry> = games.iter().map(|g| Expiry::Flagged(*g)).collect();
    assert_eq!(ended, expected, "each game ended exactly once");
    for g in &games {
        let game = app.get(&format!("/api/v1/games/{g}"), None).body;
        assert_eq!(game["status"], "finished");
        assert_eq!(game["result"], "0-1");
        assert_eq!(game["termination"], "time");
        assert_eq!(game["ply"], 2);
    }
    assert!(run_two_workers(app).is_empty(), "nothing left to do");
}

fn game_without_first_moves_is_aborted(app: &TestApp, clock: &FixedClock) {
    let a = app.user("alice");
    let b = app.user("bob");
    let g = challenge(
        app,
        &a,
        &b,
        json!({"variant": "atomic", "color": "white", "days_per_move": 2}),
    );
    app.play(g, &a, "e4", 0);
    clock.advance(Duration::days(3));
    assert_eq!(run_two_workers(app), vec![Expiry::Aborted(g)]);
    let game = app.get(&format!("/api/v1/games/{g}"), None).body;
    assert_eq!(game["status"], "aborted");
    assert_eq!(game["result"], "*");
    let (_, page) = app.get_text(&format!("/games/{g}"));
    assert!(page.contains("Aborted"));
}

fn opponent_claims_the_win_when_automatic_flagging_is_off(app: &TestApp, clock: &FixedClock) {
    let a = app.user("alice");
    let b = app.user("bob");
    let g = challenge(
        app,
        &a,
        &b,
        json!({"variant": "standard", "color": "white", "days_per_move": 1, "auto_flag": false}),
    );
    app.play_all(g, &a, &b, &["e4", "e5", "Nf3"]);
    let claim = |who: &str| {
        app.post(
            &format!("/api/v1/games/{g}/actions"),
            Some(who),
            json!({"action": "claim_timeout", "ply": 3}),
        )
    };
    let r = claim(&a);
    assert_eq!(r.status, 422, "bob still has time: {}", r.body);
    clock.advance(Duration::days(2));
    assert!(
        run_two_workers(app).is_empty(),
        "no automatic flag in this game"
    );
    assert_eq!(claim(&b).status, 422, "only the waiting player claims");
    let r = claim(&a);
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["result"], "1-0");
    assert_eq!(r.body["termination"], "time");
}

fn queue_is_ordered_by_time_left(app: &TestApp, clock: &FixedClock) {
    let a = app.user("alice");
    let b = app.user("bob");
    let slow = challenge(
        app,
        &a,
        &b,
        json!({"variant": "atomic", "color": "white", "days_per_move": 14}),
    );
    let fast = challenge(
        app,
        &a,
        &b,
        json!({"variant": "atomic", "color": "white", "days_per_move": 1}),
    );
    let none = challenge(
        app,
        &a,
        &b,
        json!({"variant": "atomic", "color": "white", "time_control": "none"}),
    );
    let mid = challenge(
        app,
        &a,
        &b,
        json!({"variant": "atomic", "color": "white", "days_per_move": 5}),
    );
    clock.advance(Duration::minutes(1));
    let q = app.get("/api/v1/me/queue", Some(&a)).body;
    let ids: Vec<i64> = q
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_i64().unwrap())
        .collect();
    assert_eq!(ids, vec![fast, mid, slow, none]);
    let r = app.play(fast, &a, "e4", 0);
    assert_eq!(r.status, 200);
    let next = app
        .client
        .get(format!("{}/api/v1/me/queue", app.base))
        .bearer_auth(&a)
        .send()
        .unwrap();
    let ids: Vec<i64> = next
        .json::<serde_json::Value>()
        .unwrap()
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_i64().unwrap())
        .collect();
    assert_eq!(ids, vec![mid, slow, none]);
}

#[test]
fn the_background_worker_ends_overdue_games_by_itself() {
    let clock = Arc::new(FixedClock::new(t0()));
    let app = spawn_app_with(
        Backend::Sqlite,
        Options {
            clock: Some(clock.clone()),
            worker_interval: Some(1),
        },
    )
    .unwrap();
    let a = app.user("alice");
    let b = app.user("bob");
    let g = challenge(
        &app,
        &a,
        &b,
        json!({"variant": "atomic", "color": "white", "days_per_move": 1}),
    );
    app.play_all(g, &a, &b, &["e4", "e5"]);
    clock.advance(Duration::days(2));
    let mut status = String::new();
    for _ in 0..100 {
        status = app.get(&format!("/api/v1/games/{g}"), None).body["status"]
            .as_str()
            .unwrap()
            .to_string();
        if status == "finished" {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    assert_eq!(
        status, "finished",
        "the worker flagged the game within 10 s"
    );
}
