//! The Analysis Board's private trees: the API (`/api/v1/games/{id}/analysis`) and the game
//! page's own route (`/games/{id}/analysis.json`), on SQLite and (when configured) PostgreSQL.
//! A tree is its owner's alone: the opponent, spectators, the page, the PGN and the game JSON
//! never see it; a bad tree is refused and changes nothing.

use crate::common;

use common::{TestApp, hidden_value};
use serde_json::json;

on_both_databases!(
    a_tree_is_saved_read_back_and_seen_by_its_owner_only,
    bad_trees_are_refused_and_change_nothing,
    the_page_route_needs_the_session_and_its_token,
);

/// Words that only the analysis holds.
const SECRET: &str = "xyzzy plan";

fn analysis(app: &TestApp, g: i64, token: Option<&str>) -> common::Reply {
    app.get(&format!("/api/v1/games/{g}/analysis"), token)
}

fn put(app: &TestApp, g: i64, token: &str, pgn: &str) -> common::Reply {
    app.post_method(
        "PUT",
        &format!("/api/v1/games/{g}/analysis"),
        Some(token),
        json!({ "pgn": pgn }),
    )
}

fn a_tree_is_saved_read_back_and_seen_by_its_owner_only(app: &TestApp) {
    let alice = app.user("alice");
    let bob = app.user("bob");
    let carol = app.user("carol");
    let g = app.game("atomic", &alice, &bob);
    app.play_all(g, &alice, &bob, &["Nf3", "f6"]);

    // Nothing before the first save.
    let r = analysis(app, g, Some(&alice));
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body, json!({ "pgn": "" }));

    // The game's moves with two variations and a comment, during the game.
    let r = put(
        app,
        g,
        &alice,
        &format!("1. Nf3 (1. e4 d5) 1... f6 2. Ne5 {{{SECRET}}} (2. d4 Kf7) *"),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let pgn = r.body["pgn"].as_str().unwrap().to_string();
    for needle in [
        "[Variant \"Atomic\"]",
        "[White \"alice\"]",
        "[Black \"bob\"]",
        "1. Nf3 (1. e4 d5) 1... f6 2. Ne5 { xyzzy plan } (2. d4 Kf7) *",
    ] {
        assert!(pgn.contains(needle), "stored PGN lacks {needle}:\n{pgn}");
    }
    // Read back as stored, from any client of hers.
    assert_eq!(analysis(app, g, Some(&alice)).body["pgn"], pgn);

    // The opponent and a spectator have their own (empty) trees; a visitor none at all.
    assert_eq!(analysis(app, g, Some(&bob)).body["pgn"], "");
    assert_eq!(analysis(app, g, Some(&carol)).body["pgn"], "");
    assert_eq!(analysis(app, g, None).status, 401);
    let r = put(app, g, &bob, "1. d4 *");
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(
        !analysis(app, g, Some(&alice)).body["pgn"]
            .as_str()
            .unwrap()
            .contains("1. d4"),
        "bob's tree must not change alice's"
    );

    // Nothing that others receive carries it: the game JSON, the PGN, the page.
    let json = app.get(&format!("/api/v1/games/{g}"), Some(&bob));
    assert!(!json.body.to_string().contains("xyzzy"), "{}", json.body);
    let (_, game_pgn) = app.get_text(&format!("/games/{g}.pgn"));
    assert!(!game_pgn.contains("xyzzy"), "{game_pgn}");
    let (_, page) = app.get_text(&format!("/games/{g}"));
    assert!(
        !page.contains("xyzzy"),
        "the page source must not hold the tree"
    );
    let (_, plies) = app.get_text(&format!("/games/{g}/plies.json"));
    assert!(!plies.contains("xyzzy"));

    // An empty tree deletes it.
    let r = put(app, g, &alice, "");
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(analysis(app, g, Some(&alice)).body["pgn"], "");
    assert_eq!(analysis(app, 999_999, Some(&alice)).status, 404);
}

fn bad_trees_are_refused_and_change_nothing(app: &TestApp) {
    let alice = app.user("alice");
    let bob = app.user("bob");
    let g = app.game("standard", &alice, &bob);
    let kept = put(app, g, &alice, "1. e4 e5 (1... c5) *");
    assert_eq!(kept.status, 200, "{}", kept.body);
    let kept = kept.body["pgn"].clone();

    let too_long = format!("1. e4 {{{}}} *", "a".repeat(101 * 1024));
    let far_too_long = format!("1. e4 {{{}}} *", "a".repeat(2 * 1024 * 1024));
    for (pgn, says) in [
        (
            "1. e4 e5 2. Ke3 *",
            "ply 3 (2. Ke3): Ke3 is not a legal move here",
        ),
        ("1. e4 e5 (1... e5 2. Qh5 *", "not closed"),
        ("[Variant \"Atomic\"]\n\n1. e4 *", "Variant"),
        ("1. e4 *\n\n1. d4 *", "one game"),
        (too_long.as_str(), "at most 100 KB"),
        (far_too_long.as_str(), "at most 100 KB"),
    ] {
        let r = put(app, g, &alice, pgn);
        assert_eq!(r.status, 422, "{}: {}", &pgn[..pgn.len().min(40)], r.body);
        let error = r.body["error"].as_str().unwrap_or_default();
        assert!(error.contains(says), "{error} should say {says}");
        assert_eq!(analysis(app, g, Some(&alice)).body["pgn"], kept);
    }
}

fn the_page_route_needs_the_session_and_its_token(app: &TestApp) {
    let alice = app.user("alice");
    let bob = app.user("bob");
    let g = app.game("crazyhouse", &alice, &bob);
    app.play_all(g, &alice, &bob, &["e4", "d5", "exd5"]);
    put(app, g, &alice, "1. e4 {alice's own} *");

    let visitor = app.browser();
    assert_eq!(
        visitor.get(&format!("/games/{g}/analysis.json")).status,
        401
    );

    // A spectator with a session: the game's moves to follow, and a tree of her own.
    let dana = app.browser();
    dana.sign_up("dana");
    let page = dana.get(&format!("/games/{g}"));
    assert!(page.body.contains("Analysis Board"), "the tab is offered");
    let r = dana
        .client
        .get(format!("{}/games/{g}/analysis.json", dana.base))
        .send()
        .unwrap();
    assert_eq!(r.status(), 200);
    assert_eq!(
        r.headers()["cache-control"].to_str().unwrap(),
        "private, no-store"
    );
    let body: serde_json::Value = r.json().unwrap();
    assert_eq!(body["pgn"], "");
    assert_eq!(body["nodes"].as_array().unwrap().len(), 1);
    assert_eq!(body["game"][2]["san"], "exd5");
    assert!(!body.to_string().contains("alice's own"));

    let send = |token: Option<&str>, pgn: &str| {
        let mut req = dana
            .client
            .put(format!("{}/games/{g}/analysis.json", dana.base))
            .json(&json!({ "pgn": pgn }));
        if let Some(t) = token {
            req = req.header("X-CSRF-Token", t);
        }
        let r = req.send().unwrap();
        (r.status().as_u16(), r.json::<serde_json::Value>().unwrap())
    };
    let (status, _) = send(None, "1. e4 d5 2. exd5 Qxd5 3. P@e4 *");
    assert_eq!(status, 403, "no token, nothing saved");
    let csrf = hidden_value(&page.body, "csrf_token").expect("the page's token");
    let (status, body) = send(Some(&csrf), "1. e4 d5 2. exd5 Qxd5 3. P@e4 *");
    assert_eq!(status, 200, "{body}");
    let body: serde_json::Value = dana
        .client
        .get(format!("{}/games/{g}/analysis.json", dana.base))
        .send()
        .unwrap()
        .json()
        .unwrap();
    let nodes = body["nodes"].as_array().unwrap();
    assert_eq!(nodes.len(), 6);
    assert_eq!(nodes[5]["uci"], "P@e4");
    assert_eq!(nodes[4]["children"], json!([5]));
    // Alice's tree is untouched by the spectator's.
    assert!(
        analysis(app, g, Some(&alice)).body["pgn"]
            .as_str()
            .unwrap()
            .contains("alice's own")
    );
}
