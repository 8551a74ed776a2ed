//! Clocks with an injected "now": deadlines, Fischer banks, timeouts ended exactly once by
//! concurrent workers, aborts, claimed wins, and the background worker itself.

use crate::common;

use std::sync::Arc;

use chrono::{Duration, NaiveDateTime};
use common::{Backend, Options, TestApp, spawn_app_with, t0};
use serde_json::json;
use slowfuse::clock::FixedClock;
use slowfuse::usecases::clocks::Expiry;

const DAY: i64 = 86_400;

on_both_databases_at_t0!(
    days_per_move_deadlines_start_after_blacks_first_move,
    fischer_bank_spends_and_earns_the_increment,
    overdue_game_is_flagged_once_by_two_concurrent_workers,
    game_without_first_moves_is_aborted,
    opponent_claims_the_win_when_automatic_flagging_is_off,
    queue_is_ordered_by_time_left,
);

fn challenge(app: &TestApp, white: &str, black: &str, body: serde_json::Value) -> i64 {
    app.game_from(white, black, body)
}

/// Alice and Bob sign up and play the game of Alice's challenge `body` (she is White); their
/// tokens and the game.
fn alice_v_bob(app: &TestApp, body: serde_json::Value) -> (String, String, i64) {
    let (a, b) = (app.user("alice"), app.user("bob"));
    let g = challenge(app, &a, &b, body);
    (a, b, g)
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
    let (a, b, g) = alice_v_bob(
        app,
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
    let (a, b, g) = alice_v_bob(
        app,
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
            actix_web::rt::System::new().block_on(slowfuse::worker::run_once(&app.state.worker()))
        });
        let h2 = s.spawn(|| {
            actix_web::rt::System::new().block_on(slowfuse::worker::run_once(&app.state.worker()))
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
    let (a, _, g) = alice_v_bob(
        app,
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
    let (a, b, g) = alice_v_bob(
        app,
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
            ..Options::default()
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

on_both_databases_at_t0!(sqlite_more, postgres_more:
    leave_freezes_the_clock_and_the_opponent_sees_it,
    leave_is_limited_by_the_yearly_allowance,
    giving_time_extends_the_opponents_deadline,
    the_overview_tells_draw_offers_gifts_and_leave_at_their_ply,
    leave_from_today_starts_when_booked_and_reads_in_the_readers_time_zone,
);

fn book(app: &TestApp, token: &str, start: &str, days: i64) -> common::Reply {
    app.post(
        "/api/v1/me/leave",
        Some(token),
        json!({"start": start, "days": days}),
    )
}

fn leave_freezes_the_clock_and_the_opponent_sees_it(app: &TestApp, clock: &FixedClock) {
    let (a, b, g) = alice_v_bob(
        app,
        json!({"variant": "atomic", "color": "white", "days_per_move": 3}),
    );
    app.play_all(g, &a, &b, &["e4", "e5"]);
    // Alice to move, 3 days from t0. She books 5 days of leave from tomorrow.
    let r = book(app, &a, "2026-03-02", 5);
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(r.body["used_days"], 5);
    assert_eq!(r.body["left_days"], 23);
    // Deadline: 12 h run until midnight, 5 days stand still, 2½ days run: t0 + 8 days.
    assert_eq!(deadline_of(app, g), rfc(t0() + Duration::days(8)));
    // During the leave the opponent sees it and the clock does not move.
    clock.advance(Duration::days(2));
    let game = app.get(&format!("/api/v1/games/{g}"), None).body;
    assert_eq!(
        game["on_leave_until"]["white"],
        rfc(t0() + Duration::hours(12) + Duration::days(5))
    );
    assert!(game["on_leave_until"]["black"].is_null());
    let (_, page) = app.get_text(&format!("/games/{g}"));
    assert!(
        page.contains("alice is on leave until 2026-03-07"),
        "the overview shows the leave"
    );
    let (_, profile) = app.get_text("/users/alice");
    assert!(
        profile.contains("5 of 28 days used, 23 left"),
        "the profile shows leave used and left"
    );
    assert!(profile.contains("On leave until 2026-03-07"));
    assert!(run_two_workers(app).is_empty(), "no flag during leave");
    // Fischer-free check of the worker: past the extended deadline she loses.
    clock.advance(Duration::days(6) + Duration::minutes(1));
    assert_eq!(run_two_workers(app), vec![Expiry::Flagged(g)]);
}

fn leave_from_today_starts_when_booked_and_reads_in_the_readers_time_zone(
    app: &TestApp,
    clock: &FixedClock,
) {
    let (a, b, g) = alice_v_bob(
        app,
        json!({"variant": "atomic", "color": "white", "days_per_move": 3}),
    );
    app.play_all(g, &a, &b, &["e4", "e5"]);
    // Alice reads times in Berlin (CET in March, an hour ahead of UTC); Bob chose no zone.
    let r = app.post_method(
        "PUT",
        "/api/v1/me/notifications",
        Some(&a),
        json!({"time_zone": "Europe/Berlin"}),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    // At 18:02 UTC she books today: the leave starts now, not at the midnight behind her.
    clock.advance(Duration::hours(6) + Duration::minutes(2));
    let r = book(app, &a, "2026-03-01", 1);
    assert_eq!(r.status, 201, "{}", r.body);
    let booking = &r.body["bookings"][0];
    assert_eq!(
        booking["start"],
        rfc(t0() + Duration::hours(6) + Duration::minutes(2))
    );
    assert_eq!(booking["end"], rfc(t0() + Duration::hours(12)));
    assert_eq!(booking["days"], 1);
    assert_eq!(r.body["left_days"], 27);
    // Her clock ran from 12:00 to 18:02, and stands still only from then until midnight.
    assert_eq!(
        deadline_of(app, g),
        rfc(t0() + Duration::days(3) + Duration::hours(5) + Duration::minutes(58))
    );
    // Each reader reads the moments in their own time zone.
    let alice = app.logged_in("alice");
    let own = alice.get(&format!("/games/{g}")).body;
    assert!(
        own.contains("You are on leave until 2026-03-02 01:00 CET: your clock stands still."),
        "{own}"
    );
    let account = alice.get("/account").body;
    assert!(
        account.contains("<td>2026-03-01 19:02 CET</td><td>2026-03-02 01:00 CET</td>"),
        "{account}"
    );
    let bob = app.logged_in("bob");
    let theirs = bob.get(&format!("/games/{g}")).body;
    assert!(
        theirs.contains("alice is on leave until 2026-03-02 00:00 UTC: their clock stands still."),
        "{theirs}"
    );
    // Back at 20:00 UTC: the move list tells the leave from its real start to its end.
    clock.advance(Duration::minutes(118));
    let id = booking["id"].as_i64().unwrap();
    let r = app.post_method(
        "DELETE",
        &format!("/api/v1/me/leave/{id}"),
        Some(&a),
        json!({}),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let told = |page: &str| {
        move_lines(page)
            .into_iter()
            .find(|l| l.contains("e5"))
            .expect("the move e5")
    };
    let own = told(&alice.get(&format!("/games/{g}")).body);
    assert!(
        own.contains("You were on leave from 2026-03-01 19:02 CET to 2026-03-01 21:00 CET"),
        "{own}"
    );
    let theirs = told(&bob.get(&format!("/games/{g}")).body);
    assert!(
        theirs.contains("alice was on leave from 2026-03-01 18:02 UTC to 2026-03-01 20:00 UTC"),
        "{theirs}"
    );
}

fn leave_is_limited_by_the_yearly_allowance(app: &TestApp, clock: &FixedClock) {
    let a = app.user("alice");
    assert_eq!(
        book(app, &a, "2026-02-27", 3).status,
        422,
        "not in the past"
    );
    assert_eq!(book(app, &a, "2026-04-01", 0).status, 422);
    assert_eq!(book(app, &a, "2026-04-01", 20).status, 201);
    let r = book(app, &a, "2026-04-10", 3);
    assert_eq!(r.status, 422, "overlap: {}", r.body);
    assert!(r.body["error"].as_str().unwrap().contains("overlaps"));
    let r = book(app, &a, "2026-06-01", 9);
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(
        r.body["error"]
            .as_str()
            .unwrap()
            .contains("8 of 28 are left"),
        "{}",
        r.body
    );
    // Days past new year count against the next year's allowance.
    let r = book(app, &a, "2026-12-22", 10);
    assert_eq!(
        r.status, 422,
        "10 more days in 2026 is too many: {}",
        r.body
    );
    assert_eq!(
        book(app, &a, "2026-12-29", 8).status,
        201,
        "3 days in 2026, 5 in 2027"
    );
    // Cancel future leave; the days come back.
    let summary = app.get("/api/v1/me/leave", Some(&a)).body;
    assert_eq!(summary["left_days"], 5);
    let id = summary["bookings"][0]["id"].as_i64().unwrap();
    let b = app.user("bob");
    assert_eq!(
        app.post_method(
            "DELETE",
            &format!("/api/v1/me/leave/{id}"),
            Some(&b),
            json!({})
        )
        .status,
        404,
        "not bob's"
    );
    let r = app.post_method(
        "DELETE",
        &format!("/api/v1/me/leave/{id}"),
        Some(&a),
        json!({}),
    );
    assert_eq!(r.status, 200);
    assert_eq!(r.body["left_days"], 25);
    // Leave under way ends early: the day begun counts, the days not begun come back.
    clock.advance(Duration::days(303)); // 29 December, 12:00: the leave is under way
    let summary = app.get("/api/v1/me/leave", Some(&a)).body;
    assert_eq!(summary["left_days"], 25, "3 days this December");
    let id = summary["bookings"][0]["id"].as_i64().unwrap();
    let b_refused = app.post_method(
        "DELETE",
        &format!("/api/v1/me/leave/{id}"),
        Some(&b),
        json!({}),
    );
    assert_eq!(b_refused.status, 404, "not bob's to end");
    let r = app.post_method(
        "DELETE",
        &format!("/api/v1/me/leave/{id}"),
        Some(&a),
        json!({}),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(
        r.body["left_days"], 27,
        "only 29 December taken: {}",
        r.body
    );
    assert_eq!(r.body["bookings"], json!([]), "{}", r.body);
    // Ended leave is over: nothing left to end.
    assert_eq!(
        app.post_method(
            "DELETE",
            &format!("/api/v1/me/leave/{id}"),
            Some(&a),
            json!({})
        )
        .status,
        404
    );
}

fn giving_time_extends_the_opponents_deadline(app: &TestApp, clock: &FixedClock) {
    let (a, b, g) = alice_v_bob(
        app,
        json!({"variant": "standard", "color": "white", "days_per_move": 2}),
    );
    app.play_all(g, &a, &b, &["e4", "e5", "Nf3"]);
    let before = t0() + Duration::days(2);
    assert_eq!(deadline_of(app, g), rfc(before));
    let give = |who: &str, days: i64| {
        app.post(
            &format!("/api/v1/games/{g}/actions"),
            Some(who),
            json!({"action": "give_time", "ply": 3, "days": days}),
        )
    };
    assert_eq!(give(&a, 0).status, 422);
    assert_eq!(give(&a, 31).status, 422);
    let r = give(&a, 3);
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(deadline_of(app, g), rfc(before + Duration::days(3)));
    clock.advance(Duration::days(4));
    assert!(run_two_workers(app).is_empty(), "bob still has a day");
    assert_eq!(app.play(g, &b, "Nc6", 3).status, 200);
    // Per-move allowance starts afresh for the next move.
    let now = t0() + Duration::days(4);
    assert_eq!(deadline_of(app, g), rfc(now + Duration::days(2)));
}

#[test]
fn a_rated_game_needs_a_clock() {
    let app = common::spawn_app(Backend::Sqlite).unwrap();
    let a = app.user("alice");
    let r = app.post(
        "/api/v1/challenges",
        Some(&a),
        json!({"variant": "atomic", "color": "white", "time_control": "none", "rated": true}),
    );
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(r.body["error"].as_str().unwrap().contains("needs a clock"));
}

/// The move list shown with the page: its items' text, one per move line.
fn move_lines(page: &str) -> Vec<String> {
    let list = page
        .split("class=\"movelist")
        .nth(1)
        .and_then(|rest| rest.split("</ol>").next())
        .unwrap_or_default();
    list.split("<li")
        .skip(1)
        .map(|item| {
            let text = regex::Regex::new(r"<[^>]*>")
                .unwrap()
                .replace_all(item, " ");
            text.split_whitespace().collect::<Vec<_>>().join(" ")
        })
        .collect()
}

fn the_overview_tells_draw_offers_gifts_and_leave_at_their_ply(app: &TestApp, clock: &FixedClock) {
    let (a, b, g) = alice_v_bob(
        app,
        json!({"variant": "atomic", "color": "white", "days_per_move": 3}),
    );
    let act = |who: &str, body: serde_json::Value| {
        let r = app.post(&format!("/api/v1/games/{g}/actions"), Some(who), body);
        assert_eq!(r.status, 200, "{}", r.body);
    };
    app.play_all(g, &a, &b, &["e4", "e5"]);
    act(&a, json!({"action": "offer_draw", "ply": 2}));
    act(
        &b,
        json!({"action": "decline_draw", "ply": 2, "message": "not yet"}),
    );
    act(&b, json!({"action": "give_time", "ply": 2, "days": 2}));
    // Leave from tomorrow, then a move during it.
    assert_eq!(book(app, &a, "2026-03-02", 2).status, 201);
    clock.advance(Duration::days(1) + Duration::hours(13));
    assert_eq!(app.play(g, &a, "Nf3", 2).status, 200);

    let (_, page) = app.get_text(&format!("/games/{g}"));
    let lines = move_lines(&page);
    let e5 = lines
        .iter()
        .find(|l| l.contains("e5"))
        .expect("the move e5");
    for told in [
        "alice offered a draw",
        "bob declined the draw offer",
        "bob: not yet",
        "bob gave alice 2 days",
        "alice is on leave until 2026-03-04 00:00 UTC",
    ] {
        assert!(
            e5.contains(told),
            "after 1... e5 the list tells {told}: {e5}"
        );
    }
    let nf3 = lines
        .iter()
        .find(|l| l.contains("Nf3"))
        .expect("the move Nf3");
    assert!(!nf3.contains("offered"), "{nf3}");
    // The API's conversation and the PGN tell them too.
    let json = app.get(&format!("/api/v1/games/{g}"), None).body;
    let told: Vec<String> = json["comments"]
        .as_array()
        .map(|c| {
            c.iter()
                .map(|e| format!("{} {} {}", e["kind"], e["author"], e["text"]))
                .collect()
        })
        .unwrap_or_default();
    assert!(
        told.iter()
            .any(|t| t == r#""event" "alice" "offered a draw""#),
        "{told:?}"
    );
    let (_, pgn) = app.get_text(&format!("/games/{g}.pgn"));
    assert!(pgn.contains("alice offered a draw"), "{pgn}");
}
