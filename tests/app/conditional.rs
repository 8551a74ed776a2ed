//! Conditional moves through the API: lines played automatically, chains, deviations,
//! limits, drops, and privacy (only the author ever reads their lines).

use crate::common;

use common::TestApp;
use serde_json::{Value, json};

on_both_databases!(
    waiting_players_lines_answer_each_move,
    two_players_lines_chain_one_after_the_other,
    a_deviation_drops_the_lines,
    bad_lines_are_refused_with_their_place,
    nobody_but_the_author_reads_the_lines,
    a_drop_line_in_crazyhouse,
);

fn set_lines(app: &TestApp, g: i64, token: &str, lines: &str, ply: i64) -> common::Reply {
    app.post_method(
        "PUT",
        &format!("/api/v1/games/{g}/conditional"),
        Some(token),
        json!({"lines": lines, "ply": ply}),
    )
}

fn my_lines(app: &TestApp, g: i64, token: &str) -> Value {
    app.get(&format!("/api/v1/games/{g}/conditional"), Some(token))
        .body["lines"]
        .clone()
}

fn sans(app: &TestApp, g: i64) -> Vec<String> {
    let body = app.get(&format!("/api/v1/games/{g}"), None).body;
    body["sans"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect()
}

fn waiting_players_lines_answer_each_move(app: &TestApp) {
    let a = app.user("alice");
    let b = app.user("bob");
    let g = app.game("standard", &a, &b);
    let r = set_lines(app, g, &b, "1. e4 e5 2. Nf3 Nc6; 1. d4 d5", 0);
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["lines"], "e4 e5 Nf3 Nc6; d4 d5");
    assert_eq!(r.body["game"]["ply"], 0, "nothing is played while waiting");
    let r = app.play(g, &a, "e4", 0);
    assert_eq!(r.status, 200);
    assert_eq!(
        r.body["sans"],
        json!(["e4", "e5"]),
        "bob's reply came at once"
    );
    assert_eq!(r.body["turn"], "white");
    assert_eq!(my_lines(app, g, &b), "Nf3 Nc6");
    app.play(g, &a, "Nf3", 2);
    assert_eq!(sans(app, g), ["e4", "e5", "Nf3", "Nc6"]);
    assert!(my_lines(app, g, &b).is_null(), "the lines are used up");
    // A queue: the game is alice's again.
    let q = app.get("/api/v1/me/queue", Some(&a)).body;
    assert_eq!(q[0]["id"], g);
}

fn two_players_lines_chain_one_after_the_other(app: &TestApp) {
    let a = app.user("alice");
    let b = app.user("bob");
    let g = app.game("atomic", &a, &b);
    app.play_all(g, &a, &b, &["e4", "e5", "Nf3", "Nc6"]);
    assert_eq!(set_lines(app, g, &b, "Bc4 Bc5 c3 Nf6", 4).status, 200);
    // Alice is to move: her lines start with the move she makes now.
    let r = set_lines(app, g, &a, "Bc4 Bc5 c3 Nf6 d4", 4);
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["game"]["sans"].as_array().unwrap().len(), 9);
    assert_eq!(sans(app, g)[4..], ["Bc4", "Bc5", "c3", "Nf6", "d4"]);
    assert!(my_lines(app, g, &a).is_null());
    assert!(my_lines(app, g, &b).is_null());
    assert_eq!(
        app.get(&format!("/api/v1/games/{g}"), None).body["turn"],
        "black"
    );
}

fn a_deviation_drops_the_lines(app: &TestApp) {
    let a = app.user("alice");
    let b = app.user("bob");
    let g = app.game("standard", &a, &b);
    assert_eq!(set_lines(app, g, &b, "e4 e5 Nf3 Nc6", 0).status, 200);
    let r = app.play(g, &a, "d4", 0);
    assert_eq!(
        r.body["sans"],
        json!(["d4"]),
        "no automatic reply to an unexpected move"
    );
    assert!(
        my_lines(app, g, &b).is_null(),
        "the lines are gone after a deviation"
    );
    // Later deviation inside a line.
    app.play(g, &b, "d5", 1);
    assert_eq!(set_lines(app, g, &b, "c4 e6 Nc3 Nf6", 2).status, 200);
    app.play(g, &a, "c4", 2);
    assert_eq!(my_lines(app, g, &b), "Nc3 Nf6");
    app.play(g, &a, "Nf3", 4);
    assert!(my_lines(app, g, &b).is_null());
    assert_eq!(sans(app, g), ["d4", "d5", "c4", "e6", "Nf3"]);
}

fn bad_lines_are_refused_with_their_place(app: &TestApp) {
    let a = app.user("alice");
    let b = app.user("bob");
    let g = app.game("standard", &a, &b);
    let cases = [
        ("e4 e5; d4 Ke7", "line 2, move 2 (Ke7)"),
        ("e4 e5; e4 c5", "disagree"),
        ("", "enter at least one line"),
        (&["e4"; 60].join(";"), "too many lines"),
        (&["Nf3 Nf6 Ng1 Ng8"; 11].join(" "), "too long"),
    ];
    for (lines, word) in cases {
        let r = set_lines(app, g, &b, lines, 0);
        assert_eq!(r.status, 422, "{lines}: {}", r.body);
        assert!(
            r.body["error"].as_str().unwrap().contains(word),
            "{}",
            r.body
        );
    }
    assert_eq!(set_lines(app, g, &b, "e4 e5", 1).status, 409, "stale ply");
    let c = app.user("carol");
    assert_eq!(
        set_lines(app, g, &c, "e4 e5", 0).status,
        403,
        "not a player"
    );
    assert!(my_lines(app, g, &b).is_null(), "nothing was stored");
    assert_eq!(sans(app, g).len(), 0);
}

fn nobody_but_the_author_reads_the_lines(app: &TestApp) {
    let a = app.user("alice");
    let b = app.user("bob");
    let c = app.user("carol");
    let g = app.game("standard", &a, &b);
    assert_eq!(set_lines(app, g, &b, "h4 h5 Rh3 Rh6", 0).status, 200);
    // The opponent, a stranger and an anonymous visitor see nothing of them.
    assert!(
        my_lines(app, g, &a).is_null(),
        "alice reads only her own (none)"
    );
    assert_eq!(
        app.get(&format!("/api/v1/games/{g}/conditional"), Some(&c))
            .status,
        403
    );
    assert_eq!(
        app.get(&format!("/api/v1/games/{g}/conditional"), None)
            .status,
        401
    );
    let game = app
        .get(&format!("/api/v1/games/{g}"), Some(&a))
        .body
        .to_string();
    assert!(
        !game.contains("h5") && !game.contains("Rh6") && !game.contains("h7h5"),
        "{game}"
    );
    for path in [
        format!("/games/{g}"),
        format!("/games/{g}.pgn"),
        format!("/games/{g}.fen"),
    ] {
        let (_, text) = app.get_text(&path);
        assert!(
            !text.contains("Rh6") && !text.contains("h7h5"),
            "{path} leaks the lines"
        );
    }
    let alice_page = app.browser();
    let csrf = alice_page.csrf("/login");
    alice_page.post(
        "/login",
        &[
            ("csrf_token", &csrf),
            ("username", "alice"),
            ("password", "correct horse battery"),
        ],
    );
    let page = alice_page.get(&format!("/games/{g}")).body;
    assert!(
        !page.contains("Rh6") && !page.contains("h7h5"),
        "the opponent's page leaks the lines"
    );
    // The author sees them on the page.
    let bob_page = app.browser();
    let csrf = bob_page.csrf("/login");
    bob_page.post(
        "/login",
        &[
            ("csrf_token", &csrf),
            ("username", "bob"),
            ("password", "correct horse battery"),
        ],
    );
    assert!(
        bob_page
            .get(&format!("/games/{g}"))
            .body
            .contains("h4 h5 Rh3 Rh6")
    );
    // Clearing.
    let r = app.post_method(
        "DELETE",
        &format!("/api/v1/games/{g}/conditional"),
        Some(&b),
        json!({}),
    );
    assert_eq!(r.status, 200);
    assert!(my_lines(app, g, &b).is_null());
}

fn a_drop_line_in_crazyhouse(app: &TestApp) {
    let a = app.user("alice");
    let b = app.user("bob");
    let g = app.game("crazyhouse", &a, &b);
    app.play_all(g, &a, &b, &["e4", "d5", "exd5", "Qxd5", "Nc3"]);
    // Both sides hold a pawn. White waits with lines that drop.
    assert_eq!(
        set_lines(app, g, &a, "Qa5 P@b4 Qxb4; Qe6+ Be2", 5).status,
        200
    );
    let r = app.play(g, &b, "Qa5", 5);
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["sans"].as_array().unwrap().last().unwrap(), "P@b4");
    assert_eq!(
        my_lines(app, g, &a),
        "Qxb4",
        "the expected capture stays, with no reply of White's after it"
    );
    assert!(
        r.body["fen"].as_str().unwrap().contains("[p]")
            || r.body["fen"].as_str().unwrap().contains("[P"),
        "{}",
        r.body["fen"]
    );
}
