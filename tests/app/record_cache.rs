//! The record cache seen from outside: each instance keeps the games it showed and answers a
//! page view of a game nobody changed with one query of its revision, so what another instance
//! (or this one) wrote since must show at once. Two instances on one database, on both
//! databases: a move, a comment, leave booked, a resignation and leave ended early on one are seen on the other's
//! page and JSON at the next view.

use crate::common;

use std::sync::Arc;

use common::{Backend, Options, TestApp};
use serde_json::json;
use slowfuse::clock::FixedClock;

fn on_two_instances(backend: Backend) -> Option<(TestApp, TestApp)> {
    let first = common::spawn_app(backend)?;
    let second = common::spawn_app_on(&first.database_url);
    Some((first, second))
}

#[test]
fn what_one_instance_writes_the_other_shows_at_once_sqlite() {
    if let Some((a, b)) = on_two_instances(Backend::Sqlite) {
        what_one_instance_writes_the_other_shows_at_once(&a, &b);
    }
}

#[test]
fn what_one_instance_writes_the_other_shows_at_once_postgres() {
    if let Some((a, b)) = on_two_instances(Backend::Postgres) {
        what_one_instance_writes_the_other_shows_at_once(&a, &b);
    }
}

#[test]
fn a_move_is_answered_with_the_game_as_stored_sqlite() {
    a_move_is_answered_with_the_game_as_stored(Backend::Sqlite);
}

#[test]
fn a_move_is_answered_with_the_game_as_stored_postgres() {
    a_move_is_answered_with_the_game_as_stored(Backend::Postgres);
}

#[test]
fn a_view_begun_after_a_move_shows_it_while_others_read_sqlite() {
    if let Some((a, b)) = on_two_instances(Backend::Sqlite) {
        a_view_begun_after_a_move_shows_it_while_others_read(&a, &b);
    }
}

#[test]
fn a_view_begun_after_a_move_shows_it_while_others_read_postgres() {
    if let Some((a, b)) = on_two_instances(Backend::Postgres) {
        a_view_begun_after_a_move_shows_it_while_others_read(&a, &b);
    }
}

/// While readers keep viewing a game on one instance, a view begun after another instance
/// acknowledged a move shows it, and no reader ever sees the game go back.
fn a_view_begun_after_a_move_shows_it_while_others_read(a: &TestApp, b: &TestApp) {
    let alice = a.user("alice");
    let bob = a.user("bob");
    let g = a.game_from(
        &alice,
        &bob,
        json!({"variant": "atomic", "color": "white", "days_per_move": 3}),
    );
    let line = [
        "e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "c3", "Nf6", "d3", "d6", "Nbd2", "Be6",
    ];
    let done = std::sync::atomic::AtomicBool::new(false);
    let path = format!("/api/v1/games/{g}");
    std::thread::scope(|scope| {
        let readers: Vec<_> = (0..6)
            .map(|_| {
                scope.spawn(|| {
                    let (mut last, mut views) = (0, 0);
                    while !done.load(std::sync::atomic::Ordering::SeqCst) {
                        let r = a.get(&path, None);
                        assert_eq!(r.status, 200, "{}", r.body);
                        let ply = r.body["ply"].as_i64().unwrap();
                        assert!(ply >= last, "a reader saw ply {ply} after {last}");
                        (last, views) = (ply, views + 1);
                    }
                    views
                })
            })
            .collect();
        // The readers stop when the moves end, also when an assertion below fails.
        struct StopReaders<'a>(&'a std::sync::atomic::AtomicBool);
        impl Drop for StopReaders<'_> {
            fn drop(&mut self) {
                self.0.store(true, std::sync::atomic::Ordering::SeqCst);
            }
        }
        let stop = StopReaders(&done);
        for (ply, mv) in line.iter().enumerate() {
            let mover = if ply % 2 == 0 { &alice } else { &bob };
            let r = b.play(g, mover, mv, ply as i64);
            assert_eq!(r.status, 200, "{mv}: {}", r.body);
            let seen = a.get(&path, None);
            assert_eq!(
                seen.body["ply"],
                ply + 1,
                "{mv} at once on the other instance"
            );
            let sans = seen.body["sans"].as_array().unwrap();
            assert_eq!(sans.last().unwrap(), mv, "{}", seen.body);
        }
        drop(stop);
        for r in readers {
            assert!(r.join().unwrap() > 0, "every reader read");
        }
    });
}

/// The answer to a move is made from the game as read before it and the move, not read back:
/// it must be the game as a reader of the rows sees it, in every part a move changes (the
/// board, the mover's bank with an increment, the clocks, a comment with its time, the draw
/// offer kept or lapsed), and so must the record the instance keeps for its next views.
fn a_move_is_answered_with_the_game_as_stored(backend: Backend) {
    let start = chrono::NaiveDate::from_ymd_opt(2026, 3, 2)
        .unwrap()
        .and_hms_opt(12, 0, 0)
        .unwrap();
    let clock = Arc::new(FixedClock::new(start));
    let options = || Options {
        clock: Some(clock.clone()),
        ..Options::default()
    };
    let Some(a) = common::spawn_app_with(backend, options()) else {
        return;
    };
    // Another instance reads the game from the rows at every change.
    let b = common::spawn_app_on_with(&a.database_url, options());
    let alice = a.user("alice");
    let bob = a.user("bob");
    let fischer = json!({"variant": "standard", "color": "white", "time_control": "fischer",
                         "initial_days": 10, "increment_hours": 24, "cap_days": 20});
    let daily = json!({"variant": "atomic", "color": "white", "days_per_move": 3});
    let line = ["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "c3", "Nf6"];
    for challenge in [fischer, daily] {
        let g = a.game_from(&alice, &bob, challenge);
        for (ply, mv) in line.iter().enumerate() {
            clock.advance(chrono::Duration::minutes(301 * (ply as i64 + 1)));
            let (mover, other) = if ply % 2 == 0 {
                (&alice, &bob)
            } else {
                (&bob, &alice)
            };
            if ply == 2 {
                // Alice's offer stands through her own move and lapses with Bob's.
                let r = a.post(
                    &format!("/api/v1/games/{g}/actions"),
                    Some(mover),
                    json!({"action": "offer_draw", "ply": ply}),
                );
                assert_eq!(r.status, 200, "{}", r.body);
            }
            let comment = (ply % 3 == 1).then(|| format!("Plan <{ply}> & more"));
            let r = a.post(
                &format!("/api/v1/games/{g}/moves"),
                Some(mover),
                json!({"move": mv, "ply": ply, "comment": comment}),
            );
            assert_eq!(r.status, 200, "{mv}: {}", r.body);
            assert_eq!(r.body["ply"], ply + 1);
            let offer = if ply == 2 {
                json!("white")
            } else {
                json!(null)
            };
            assert_eq!(r.body["draw_offer"], offer, "{mv}");
            // Every field of the kept record, the revision and times the JSON leaves out too.
            let kept = a.state.records.last_read(g).expect("the game is kept");
            let mut conn = a.state.pool.get().unwrap();
            let rows = slowfuse::game::read_game(&mut conn, g).unwrap().unwrap();
            drop(conn);
            assert_eq!(format!("{kept:?}"), format!("{rows:?}"), "{mv}");
            let game = format!("/api/v1/games/{g}");
            for (who, token) in [("the mover", mover), ("the opponent", other)] {
                let read = b.get(&game, Some(token)).body;
                let kept = a.get(&game, Some(token)).body;
                let answer = if who == "the mover" {
                    r.body.clone()
                } else {
                    read.clone()
                };
                assert_eq!(answer, read, "{mv}: the answer against the rows, {who}");
                assert_eq!(kept, read, "{mv}: the record kept against the rows, {who}");
            }
        }
    }
}

fn page(app: &TestApp, game: i64) -> String {
    let (status, html) = app.get_text(&format!("/games/{game}"));
    assert_eq!(status, 200, "{html}");
    html
}

fn what_one_instance_writes_the_other_shows_at_once(a: &TestApp, b: &TestApp) {
    let alice = a.user("alice");
    let bob = a.user("bob");
    let g = a.game("atomic", &alice, &bob);
    // Instance A keeps the game as it starts, page and JSON.
    assert_eq!(a.get(&format!("/api/v1/games/{g}"), None).body["ply"], 0);
    // (The position after 1. Nf3, as the page's board and FEN show it.)
    assert!(!page(a, g).contains("5N2/PPPPPPPP"));
    // A move through B: A's next page and JSON show it.
    let r = b.play(g, &alice, "Nf3", 0);
    assert_eq!(r.status, 200, "{}", r.body);
    let seen = a.get(&format!("/api/v1/games/{g}"), None);
    assert_eq!(seen.body["ply"], 1, "{}", seen.body);
    assert_eq!(seen.body["moves"], json!(["g1f3"]));
    assert!(page(a, g).contains("5N2/PPPPPPPP"));
    // A comment through B, which moves nothing: A's page shows it.
    let r = b.post(
        &format!("/api/v1/games/{g}/actions"),
        Some(&bob),
        json!({"action": "comment", "message": "Cached-or-not 4417"}),
    );
    assert!(r.status < 300, "{}", r.body);
    assert!(page(a, g).contains("Cached-or-not 4417"));
    // Moves through A, read back on B and A alike.
    a.play(g, &bob, "Nf6", 1);
    assert_eq!(b.get(&format!("/api/v1/games/{g}"), None).body["ply"], 2);
    assert_eq!(a.get(&format!("/api/v1/games/{g}"), None).body["ply"], 2);
    // Leave from today, booked through B, begins at once: A's page shows it.
    assert!(!page(a, g).contains("is on leave until"), "no leave yet");
    let today = chrono::Utc::now()
        .date_naive()
        .format("%Y-%m-%d")
        .to_string();
    let r = b.post(
        "/api/v1/me/leave",
        Some(&alice),
        json!({"start": today, "days": 2}),
    );
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.body["bookings"][0]["id"].as_i64().expect("the booking");
    assert!(page(a, g).contains("alice is on leave until"));
    // A resignation through B ends the game on A's page.
    let r = b.post(
        &format!("/api/v1/games/{g}/actions"),
        Some(&alice),
        json!({"action": "resign", "ply": 2}),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let seen = a.get(&format!("/api/v1/games/{g}"), None);
    assert_eq!(seen.body["status"], "finished", "{}", seen.body);
    assert_eq!(seen.body["result"], "0-1");
    // The leave, ended early through B, overlaps the game that ended during it: the ended
    // game's page on A no longer tells it as under way (its record kept on A is stale).
    assert!(page(a, g).contains("alice is on leave until"));
    let r = b.post_method(
        "DELETE",
        &format!("/api/v1/me/leave/{id}"),
        Some(&alice),
        json!({}),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let after = page(a, g);
    assert!(!after.contains("is on leave until"), "{after}");
}

#[test]
fn a_move_judged_on_a_record_behind_writes_only_what_the_game_as_read_again_allows_sqlite() {
    if let Some((a, b)) = on_two_instances(Backend::Sqlite) {
        a_move_judged_on_a_record_behind_writes_only_what_the_game_as_read_again_allows(&a, &b);
    }
}

#[test]
fn a_move_judged_on_a_record_behind_writes_only_what_the_game_as_read_again_allows_postgres() {
    if let Some((a, b)) = on_two_instances(Backend::Postgres) {
        a_move_judged_on_a_record_behind_writes_only_what_the_game_as_read_again_allows(&a, &b);
    }
}

/// A keeps the game; a comment through B changes it (its revision, not its ply); a move through
/// A is judged on the record kept, which is behind: the move is stored once, after it the
/// opponent's one "your move" mail for this game, and nothing else (on PostgreSQL the move's
/// one statement finds the claim refused and must write none of its parts).
fn a_move_judged_on_a_record_behind_writes_only_what_the_game_as_read_again_allows(
    a: &TestApp,
    b: &TestApp,
) {
    use diesel::prelude::*;
    use slowfuse::schema::{moves, outbox, users};
    let alice = a.user("alice");
    let bob = a.user("bob");
    let mut conn = a.state.pool.get().unwrap();
    // Confirmed addresses, so that a move queues the opponent's "your move".
    diesel::update(users::table)
        .set(users::email_verified_at.eq(Some(chrono::Utc::now().naive_utc())))
        .execute(&mut **conn)
        .unwrap();
    let g = a.game("atomic", &alice, &bob);
    assert_eq!(a.get(&format!("/api/v1/games/{g}"), None).body["ply"], 0);
    let r = b.post(
        &format!("/api/v1/games/{g}/actions"),
        Some(&bob),
        json!({"action": "comment", "message": "Good luck"}),
    );
    assert!(r.status < 300, "{}", r.body);
    let r = a.play(g, &alice, "Nf3", 0);
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["ply"], 1, "{}", r.body);
    let stored: i64 = moves::table
        .filter(moves::game_id.eq(g))
        .count()
        .get_result(&mut **conn)
        .unwrap();
    assert_eq!(stored, 1, "the move stored once");
    let mails: Vec<(Option<i64>, String, String)> = outbox::table
        .inner_join(users::table)
        .filter(outbox::kind.eq("your_turn"))
        .select((outbox::game_id, users::username, outbox::status))
        .load(&mut **conn)
        .unwrap();
    assert_eq!(
        mails,
        vec![(Some(g), "bob".to_string(), "pending".to_string())],
        "bob's one \"your move\", of this game"
    );
}
