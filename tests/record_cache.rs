//! The record cache seen from outside: each instance keeps the games it showed and answers a
//! page view of a game nobody changed with one query of its revision, so what another instance
//! (or this one) wrote since must show at once. Two instances on one database, on both
//! databases: a move, a comment, a resignation and leave booked on one are seen on the other's
//! page and JSON at the next view.

mod common;

use common::{Backend, TestApp};
use serde_json::json;

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
    let before = page(a, g);
    assert!(!before.contains("is on leave until"), "no leave yet");
    // Leave booked through B from the start of today overlaps the game that ended today: the
    // ended game's page on A now shows it (its record kept on A is stale).
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
    let after = page(a, g);
    assert!(
        after.contains("is on leave until"),
        "alice's leave shows on the ended game's page"
    );
}
