//! The JSON API end to end, on SQLite and (when configured) PostgreSQL.

use crate::common;

use common::TestApp;
use serde_json::json;

on_both_databases!(
    the_opening_book_counts_finished_games_only,
    board_preferences_change_one_field_at_a_time_and_refuse_unknown_values,
    atomic_game_ends_with_explosion_and_pgn,
    sign_up_errors_are_clear,
    wrong_password_is_refused_then_throttled,
    bad_moves_change_nothing,
    stale_and_racing_submissions_store_one_move,
    many_racing_submissions_store_one_move_each_ply,
    draw_offer_accept_decline_and_claims,
    resignation_ends_the_game,
    queue_lists_games_awaiting_my_move,
    direct_and_link_challenges_are_for_their_players,
    fen_at_each_ply_and_unknown_game,
);

fn atomic_game_ends_with_explosion_and_pgn(app: &TestApp) {
    let a = app.user("alice");
    let b = app.user("bob");
    let g = app.game("atomic", &a, &b);
    let r = app.play_all(g, &a, &b, &["Nf3", "Nf6", "Ne5", "e6"]);
    assert_eq!(r.body["status"], "started");
    let r = app.post(
        &format!("/api/v1/games/{g}/moves"),
        Some(&a),
        json!({"move": "Nxf7", "ply": 4, "comment": "Boom {goes} the king"}),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["status"], "finished");
    assert_eq!(r.body["result"], "1-0");
    assert_eq!(r.body["termination"], "explosion");
    assert_eq!(
        r.body["moves"],
        json!(["g1f3", "g8f6", "f3e5", "e7e6", "e5f7"])
    );
    assert_eq!(r.body["white"], "alice");
    assert_eq!(r.body["turn"], "black");
    // The stored game reads back the same.
    let got = app.get(&format!("/api/v1/games/{g}"), None);
    assert_eq!(got.status, 200);
    assert_eq!(got.body, r.body);
    // PGN: tags, moves, comment, result.
    let (status, pgn) = app.get_text(&format!("/games/{g}.pgn"));
    assert_eq!(status, 200);
    for needle in [
        "[White \"alice\"]",
        "[Black \"bob\"]",
        "[Result \"1-0\"]",
        "[Variant \"Atomic\"]",
        "[Termination ",
        "[Date \"",
        "[Site \"",
        "1. Nf3 Nf6 2. Ne5 e6 3. Nxf7",
        "Boom",
    ] {
        assert!(pgn.contains(needle), "PGN lacks {needle}:\n{pgn}");
    }
    assert!(
        !pgn.contains("{goes}"),
        "a brace inside a comment must not end it early:\n{pgn}"
    );
    assert!(pgn.trim_end().ends_with("1-0"));
    assert!(!pgn.contains("[FEN"), "standard start has no FEN tag");
    independent_reader_accepts(&pgn, &["Nf3", "Nf6", "Ne5", "e6", "Nxf7"]);
    // Moving in a finished game is refused.
    let r = app.play(g, &b, "Kd8", 5);
    assert_eq!(r.status, 409, "{}", r.body);
    assert!(r.body["error"].as_str().unwrap().contains("over"));
}

/// Runs pgn-extract (written by others) over the PGN when it is installed; CI installs it.
fn independent_reader_accepts(pgn: &str, sans: &[&str]) {
    let program = ["pgn-extract", "/usr/games/pgn-extract"]
        .into_iter()
        .find(|p| {
            std::process::Command::new(p)
                .arg("--version")
                .output()
                .is_ok()
        })
        .unwrap_or("pgn-extract");
    let Ok(out) = std::process::Command::new(program)
        .args(["-s", "-Wsan", "--nocomments"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child.stdin.take().unwrap().write_all(pgn.as_bytes())?;
            child.wait_with_output()
        })
    else {
        assert!(!common::under_ci(), "pgn-extract must be installed in CI");
        eprintln!("SKIPPED: pgn-extract not installed");
        return;
    };
    let text = String::from_utf8_lossy(&out.stdout);
    let errors = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "pgn-extract failed: {errors}");
    assert!(
        !errors.to_lowercase().contains("error") && !errors.to_lowercase().contains("illegal"),
        "pgn-extract complains: {errors}"
    );
    for san in sans {
        assert!(
            text.contains(san),
            "pgn-extract output lacks {san}: {text} / {errors}"
        );
    }
    assert!(text.contains("1-0"), "{text}");
    common::readers::pgn_readers_accept(pgn, 1);
}

fn sign_up_errors_are_clear(app: &TestApp) {
    app.user("carol");
    let cases = [
        (
            json!({"username": "CAROL", "email": "c@example.com", "password": "correct horse"}),
            409,
            "taken",
        ),
        (
            json!({"username": "dave", "email": "not-an-email", "password": "correct horse"}),
            422,
            "email",
        ),
        (
            json!({"username": "dave", "email": "d@example.com", "password": "short"}),
            422,
            "short",
        ),
        (
            json!({"username": "dave", "email": "d@example.com", "password": "password"}),
            422,
            "guess",
        ),
        (
            json!({"username": "<b>x</b>", "email": "d@example.com", "password": "correct horse"}),
            422,
            "username",
        ),
    ];
    for (body, status, word) in cases {
        let r = app.post("/api/v1/accounts", None, body.clone());
        assert_eq!(r.status, status, "{body}: {}", r.body);
        assert!(
            r.body["error"].as_str().unwrap().contains(word),
            "{}",
            r.body
        );
    }
    let r = app.post("/api/v1/accounts", None, json!({"username": "x"}));
    assert_eq!(r.status, 400);
    assert!(r.body["error"].is_string());
}

fn wrong_password_is_refused_then_throttled(app: &TestApp) {
    app.user("erin");
    for _ in 0..5 {
        let r = app.post(
            "/api/v1/tokens",
            None,
            json!({"username": "erin", "password": "wrong password"}),
        );
        assert_eq!(r.status, 401, "{}", r.body);
        assert!(
            r.body["error"]
                .as_str()
                .unwrap()
                .contains("wrong username or password")
        );
    }
    // Even the right password is refused while throttled.
    let r = app.post(
        "/api/v1/tokens",
        None,
        json!({"username": "erin", "password": "correct horse battery"}),
    );
    assert_eq!(r.status, 429, "{}", r.body);
    assert!(r.body["error"].as_str().unwrap().contains("too many"));
    // Another account is not affected by erin's throttle.
    app.user("frank");
}

/// The game as stored: its JSON without `clock`, the seconds left as of the moment asked (which
/// tick on between two reads while nothing changes).
fn game_state(app: &TestApp, g: i64) -> serde_json::Value {
    let mut game = app.get(&format!("/api/v1/games/{g}"), None).body;
    if let Some(fields) = game.as_object_mut() {
        fields.remove("clock");
    }
    game
}

fn bad_moves_change_nothing(app: &TestApp) {
    let a = app.user("alice");
    let b = app.user("bob");
    let c = app.user("carol");
    let g = app.game("standard", &a, &b);
    app.play_all(
        g,
        &a,
        &b,
        &["e4", "e5", "Nf3", "Nc6", "d3", "d6", "Be2", "Be7"],
    );
    let before = game_state(app, g);
    assert_eq!(before["ply"], 8);
    let cases: [(&str, &str, u16, &str); 7] = [
        (&a, "Qxf7", 422, "not a legal move"),
        (&a, "hello", 422, "cannot read"),
        (&a, "Nd2", 422, "ambiguous"),
        (&a, "", 422, "type a move"),
        (&a, "Nf3Nf3Nf3Nf3Nf3Nf3Nf3", 422, "too long"),
        (&b, "a6", 403, "not your turn"),
        (&c, "a3", 403, "not playing"),
    ];
    for (token, mv, status, word) in cases {
        let r = app.play(g, token, mv, 8);
        assert_eq!(r.status, status, "{mv}: {}", r.body);
        assert!(
            r.body["error"].as_str().unwrap().contains(word),
            "{mv}: {}",
            r.body
        );
        assert_eq!(game_state(app, g), before, "{mv} changed the game");
    }
    let r = app.post(
        &format!("/api/v1/games/{g}/moves"),
        None,
        json!({"move": "a3", "ply": 8}),
    );
    assert_eq!(r.status, 401);
    // A token nobody holds: checked with the move, which is then not stored.
    let r = app.play(g, "sf_bogus", "a3", 8);
    assert_eq!(r.status, 401, "{}", r.body);
    assert_eq!(
        game_state(app, g),
        before,
        "a move with a bogus token changed the game"
    );
    let r = app.play(9999, &a, "a3", 8);
    assert_eq!(r.status, 404);
    let long = "x".repeat(5000);
    let r = app.post(
        &format!("/api/v1/games/{g}/moves"),
        Some(&a),
        json!({"move": "a3", "ply": 8, "comment": long}),
    );
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(r.body["error"].as_str().unwrap().contains("too long"));
    assert_eq!(game_state(app, g), before);
    // UCI works too, and so does SAN with a check sign.
    let r = app.play(g, &a, "c1g5", 8);
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["sans"][8], "Bg5");
}

fn stale_and_racing_submissions_store_one_move(app: &TestApp) {
    let a = app.user("alice");
    let b = app.user("bob");
    let g = app.game("atomic", &a, &b);
    app.play_all(g, &a, &b, &["e4", "e5"]);
    // A page drawn before Black's reply: stale.
    let r = app.play(g, &a, "d4", 1);
    assert_eq!(r.status, 409, "{}", r.body);
    assert!(r.body["error"].as_str().unwrap().contains("moved on"));
    // Many rounds of two simultaneous submissions for the same ply.
    let mut ply = 2;
    let rounds = [("Nf3", "Nc3", "Nc6", "Nf6"), ("a3", "h3", "a6", "h6")];
    for (w1, w2, b1, b2) in rounds {
        for (token, m1, m2) in [(&a, w1, w2), (&b, b1, b2)] {
            let statuses: Vec<u16> = std::thread::scope(|s| {
                let h1 = s.spawn(|| app.play(g, token, m1, ply).status);
                let h2 = s.spawn(|| app.play(g, token, m2, ply).status);
                vec![h1.join().unwrap(), h2.join().unwrap()]
            });
            let mut sorted = statuses.clone();
            sorted.sort();
            assert_eq!(sorted, vec![200, 409], "ply {ply}: {statuses:?}");
            ply += 1;
            assert_eq!(game_state(app, g)["ply"], ply);
        }
    }
    assert_eq!(game_state(app, g)["moves"].as_array().unwrap().len(), 6);
}

/// Six submissions of the same player at the same ply, at once, for a dozen plies: each ply is
/// stored once, the others are told the game moved on, and nobody is told it is not their turn
/// (a move is judged on the game as of one moment, never half of another move).
fn many_racing_submissions_store_one_move_each_ply(app: &TestApp) {
    let a = app.user("alice");
    let b = app.user("bob");
    let g = app.game("standard", &a, &b);
    let line = [
        ["Nf3", "Nc3", "e3", "d3", "g3", "b3"],
        ["Nf6", "Nc6", "e6", "d6", "g6", "b6"],
    ];
    for ply in 0..12_i64 {
        let token = if ply % 2 == 0 { &a } else { &b };
        let current = game_state(app, g);
        let candidates: Vec<&str> = line[(ply % 2) as usize]
            .iter()
            .copied()
            .filter(|m| !current["sans"].as_array().unwrap().iter().any(|s| s == m))
            .collect();
        let statuses: Vec<u16> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..6)
                .map(|i| {
                    let m = candidates[i % candidates.len()];
                    s.spawn(move || app.play(g, token, m, ply).status)
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        let mut sorted = statuses.clone();
        sorted.sort();
        assert_eq!(
            sorted,
            vec![200, 409, 409, 409, 409, 409],
            "ply {ply}: {statuses:?}"
        );
        assert_eq!(game_state(app, g)["ply"], ply + 1);
    }
}

fn action(app: &TestApp, g: i64, token: &str, name: &str, ply: i64) -> common::Reply {
    app.post(
        &format!("/api/v1/games/{g}/actions"),
        Some(token),
        json!({"action": name, "ply": ply, "message": null}),
    )
}

fn draw_offer_accept_decline_and_claims(app: &TestApp) {
    let a = app.user("alice");
    let b = app.user("bob");
    let g = app.game("standard", &a, &b);
    app.play_all(g, &a, &b, &["Nf3", "Nf6"]);
    // Nothing to accept yet.
    let r = action(app, g, &b, "accept_draw", 2);
    assert_eq!(r.status, 422, "{}", r.body);
    // Offer, decline.
    let r = action(app, g, &a, "offer_draw", 2);
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["draw_offer"], "white");
    let r = action(app, g, &b, "decline_draw", 2);
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(r.body["draw_offer"].is_null());
    // A claim that does not hold.
    let r = action(app, g, &a, "claim_draw", 2);
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(game_state(app, g)["status"], "started");
    // Threefold repetition: the position after 2...Nf6 occurs again at plies 6 and 10.
    let moves = ["Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6"];
    for (i, mv) in moves.iter().enumerate() {
        let ply = 2 + i as i64;
        let token = if ply % 2 == 0 { &a } else { &b };
        assert_eq!(app.play(g, token, mv, ply).status, 200);
    }
    let r = action(app, g, &b, "claim_draw", 10);
    assert_eq!(r.status, 403, "only the player to move claims: {}", r.body);
    let r = action(app, g, &a, "claim_draw", 10);
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["result"], "1/2-1/2");
    assert_eq!(r.body["termination"], "repetition");
    // Offer then accept in a new game.
    let g2 = app.game("atomic", &a, &b);
    app.play_all(g2, &a, &b, &["e4"]);
    assert_eq!(action(app, g2, &b, "offer_draw", 1).status, 200);
    let r = action(app, g2, &a, "accept_draw", 0);
    assert_eq!(r.status, 409, "stale ply: {}", r.body);
    let r = action(app, g2, &a, "accept_draw", 1);
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["result"], "1/2-1/2");
    assert_eq!(r.body["termination"], "agreement");
    let r = action(app, g2, &a, "dance", 1);
    assert_eq!(r.status, 422);
}

fn resignation_ends_the_game(app: &TestApp) {
    let a = app.user("alice");
    let b = app.user("bob");
    let g = app.game("atomic", &a, &b);
    app.play_all(g, &a, &b, &["e4"]);
    // Resigning is allowed when it is not your turn.
    let r = app.post(
        &format!("/api/v1/games/{g}/actions"),
        Some(&a),
        json!({"action": "resign", "ply": 1, "message": "good game"}),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["result"], "0-1");
    assert_eq!(r.body["termination"], "resignation");
    let (_, pgn) = app.get_text(&format!("/games/{g}.pgn"));
    assert!(pgn.contains("good game"), "{pgn}");
    assert!(pgn.contains("[Result \"0-1\"]"), "{pgn}");
    assert_eq!(action(app, g, &b, "resign", 1).status, 409);
}

fn queue_lists_games_awaiting_my_move(app: &TestApp) {
    let a = app.user("alice");
    let b = app.user("bob");
    let g1 = app.game("atomic", &a, &b);
    let g2 = app.game("standard", &a, &b);
    let g3 = app.game("atomic", &b, &a);
    // g1: alice moved, bob's turn. g2: alice's turn. g3: bob is white, his turn.
    app.play(g1, &a, "e4", 0);
    let q = app.get("/api/v1/me/queue", Some(&a));
    assert_eq!(q.status, 200);
    let ids: Vec<i64> = q
        .body
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_i64().unwrap())
        .collect();
    assert_eq!(ids, vec![g2]);
    let q = app.get("/api/v1/me/queue", Some(&b));
    let ids: Vec<i64> = q
        .body
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_i64().unwrap())
        .collect();
    assert!(
        ids.contains(&g1) && ids.contains(&g3) && ids.len() == 2,
        "{ids:?}"
    );
    assert_eq!(app.get("/api/v1/me/queue", None).status, 401);
    assert_eq!(app.get("/api/v1/me/queue", Some("sf_bogus")).status, 401);
}

fn direct_and_link_challenges_are_for_their_players(app: &TestApp) {
    let a = app.user("alice");
    let b = app.user("bob");
    let c = app.user("carol");
    let r = app.post(
        "/api/v1/challenges",
        Some(&a),
        json!({"variant": "atomic", "color": "black", "days_per_move": 5, "opponent": "bob"}),
    );
    assert_eq!(r.status, 201);
    let direct = r.body["id"].as_i64().unwrap();
    assert_eq!(
        app.post(
            &format!("/api/v1/challenges/{direct}/accept"),
            Some(&c),
            json!({})
        )
        .status,
        403
    );
    assert_eq!(
        app.post(
            &format!("/api/v1/challenges/{direct}/accept"),
            Some(&a),
            json!({})
        )
        .status,
        403
    );
    let r = app.post(
        &format!("/api/v1/challenges/{direct}/accept"),
        Some(&b),
        json!({}),
    );
    assert_eq!(r.status, 201);
    let g = r.body["game_id"].as_i64().unwrap();
    let game = game_state(app, g);
    assert_eq!(game["white"], "bob");
    assert_eq!(game["black"], "alice");
    assert_eq!(
        app.post(
            &format!("/api/v1/challenges/{direct}/accept"),
            Some(&b),
            json!({})
        )
        .status,
        409
    );
    // A link challenge needs its token; it is not listed for others.
    let r = app.post(
        "/api/v1/challenges",
        Some(&a),
        json!({"variant": "standard", "color": "random", "days_per_move": 1, "opponent": null, "link_only": true}),
    );
    let link = r.body["id"].as_i64().unwrap();
    let url = r.body["url"].as_str().unwrap().to_string();
    let listed = app.get("/api/v1/challenges", Some(&c));
    assert!(
        listed
            .body
            .as_array()
            .unwrap()
            .iter()
            .all(|x| x["id"] != link)
    );
    assert_eq!(
        app.post(
            &format!("/api/v1/challenges/{link}/accept"),
            Some(&c),
            json!({})
        )
        .status,
        403
    );
    let token = url.rsplit('/').next().unwrap();
    let r = app.post(
        &format!("/api/v1/challenges/{link}/accept"),
        Some(&c),
        json!({"token": token}),
    );
    assert_eq!(r.status, 201, "{}", r.body);
    // Bad fields.
    for (body, word) in [
        (
            json!({"variant": "bughouse2", "color": "white", "days_per_move": 3}),
            "variant",
        ),
        (
            json!({"variant": "atomic", "color": "green", "days_per_move": 3}),
            "colour",
        ),
        (
            json!({"variant": "atomic", "color": "white", "days_per_move": 4}),
            "days",
        ),
        (
            json!({"variant": "atomic", "color": "white", "days_per_move": 3, "opponent": "nobody"}),
            "no user",
        ),
        (
            json!({"variant": "atomic", "color": "white", "days_per_move": 3, "opponent": "alice"}),
            "yourself",
        ),
    ] {
        let r = app.post("/api/v1/challenges", Some(&a), body);
        assert_eq!(r.status, 422, "{}", r.body);
        assert!(
            r.body["error"].as_str().unwrap().contains(word),
            "{}",
            r.body
        );
    }
    // Cancel: only the creator, only while open.
    let r = app.post(
        "/api/v1/challenges",
        Some(&a),
        json!({"variant": "atomic", "color": "white", "days_per_move": 3}),
    );
    let open = r.body["id"].as_i64().unwrap();
    assert_eq!(
        app.post(
            &format!("/api/v1/challenges/{open}/cancel"),
            Some(&b),
            json!({})
        )
        .status,
        403
    );
    assert_eq!(
        app.post(
            &format!("/api/v1/challenges/{open}/cancel"),
            Some(&a),
            json!({})
        )
        .status,
        200
    );
    assert_eq!(
        app.post(
            &format!("/api/v1/challenges/{open}/accept"),
            Some(&b),
            json!({})
        )
        .status,
        409
    );
}

fn fen_at_each_ply_and_unknown_game(app: &TestApp) {
    let a = app.user("alice");
    let b = app.user("bob");
    let g = app.game("standard", &a, &b);
    app.play_all(g, &a, &b, &["e4", "c5"]);
    let (s, fen0) = app.get_text(&format!("/games/{g}.fen?ply=0"));
    assert_eq!(s, 200);
    assert_eq!(
        fen0.trim(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    );
    let (_, fen1) = app.get_text(&format!("/games/{g}.fen?ply=1"));
    assert!(
        fen1.starts_with("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq"),
        "{fen1}"
    );
    let (_, fen2) = app.get_text(&format!("/games/{g}.fen"));
    assert!(
        fen2.starts_with("rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"),
        "{fen2}"
    );
    assert_eq!(app.get_text(&format!("/games/{g}.fen?ply=3")).0, 400);
    assert_eq!(app.get_text(&format!("/games/{g}.fen?ply=x")).0, 400);
    assert_eq!(app.get_text("/games/424242.pgn").0, 404);
    assert_eq!(app.get("/api/v1/games/424242", None).status, 404);
    assert_eq!(app.get("/api/v1/games/abc", None).status, 404);
}

/// `docs/api.md` names every variant a challenge takes and every way a game can end.
#[test]
fn the_api_documentation_names_every_variant_and_termination() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/api.md"))
        .expect("docs/api.md");
    let challenge = &doc[doc
        .find("POST /api/v1/challenges")
        .expect("the challenge call")..];
    let challenge = &challenge[..challenge.find("\n\n").unwrap_or(challenge.len())];
    for variant in slowfuse_rules::Variant::ALL {
        assert!(
            challenge.contains(&format!("`{}`", variant.as_str())),
            "the challenge call does not list {}",
            variant.as_str()
        );
    }
    let games = &doc[doc
        .find("`termination`: null")
        .expect("the termination field")..];
    let games = &games[..games.find("\n\n").unwrap_or(games.len())];
    for reason in slowfuse_rules::EndReason::ALL {
        assert!(
            games.contains(&format!("`{}`", reason.as_str())),
            "termination {} is not listed",
            reason.as_str()
        );
    }
}

fn board_preferences_change_one_field_at_a_time_and_refuse_unknown_values(app: &TestApp) {
    let alice = app.user("alice");
    let bob = app.user("bob");
    assert_eq!(app.get("/api/v1/me/preferences", None).status, 401);
    let start = app.get("/api/v1/me/preferences", Some(&alice));
    assert_eq!(start.status, 200);
    assert_eq!(
        start.body,
        json!({
            "board_theme": "green", "piece_set": "classic", "confirm_moves": true,
            "always_white": false, "next_game_after_move": false, "coordinates": true,
            "board_3d": false, "animation_ms": 700,
            "choices": {
                "board_theme": ["green", "brown", "blue", "grey", "purple", "high-contrast"],
                "piece_set": ["classic", "flat", "letters"],
            },
        })
    );
    let put = |token: &str, body: serde_json::Value| {
        app.post_method("PUT", "/api/v1/me/preferences", Some(token), body)
    };
    let changed = put(
        &alice,
        json!({"board_theme": "high-contrast", "board_3d": true}),
    );
    assert_eq!(changed.status, 200, "{}", changed.body);
    assert_eq!(changed.body["board_theme"], "high-contrast");
    assert_eq!(changed.body["board_3d"], true);
    assert_eq!(changed.body["confirm_moves"], true, "the others stay");
    let changed = put(
        &alice,
        json!({"piece_set": "letters", "animation_ms": 0, "confirm_moves": false}),
    );
    assert_eq!(changed.status, 200, "{}", changed.body);
    assert_eq!(
        changed.body["board_theme"], "high-contrast",
        "kept from before"
    );
    // Each refusal names the problem and changes nothing, not even the valid fields beside it.
    for bad in [
        json!({"piece_set": "plastic", "coordinates": false}),
        json!({"board_theme": "pink"}),
        json!({"animation_ms": 99999}),
        json!({"animation_ms": -1}),
        json!({"coordinates": "no"}),
        json!({"colour": "red"}),
        json!(["board_3d"]),
    ] {
        let refused = put(&alice, bad.clone());
        assert_eq!(refused.status, 422, "{bad}: {}", refused.body);
        assert!(
            refused.body["error"]
                .as_str()
                .is_some_and(|e| !e.is_empty()),
            "{}",
            refused.body
        );
    }
    let now = app.get("/api/v1/me/preferences", Some(&alice)).body;
    assert_eq!(now["piece_set"], "letters");
    assert_eq!(now["coordinates"], true);
    assert_eq!(now["animation_ms"], 0);
    assert_eq!(now["confirm_moves"], false);
    // Bob's are his own.
    assert_eq!(
        app.get("/api/v1/me/preferences", Some(&bob)).body["board_theme"],
        "green"
    );
}

/// Legal moves of any position: each with SAN and the FEN after it; a decided position says so.
#[test]
fn legal_moves_of_any_position_with_the_fen_after_each() {
    let app = common::spawn_app(common::Backend::Sqlite).unwrap();
    let ask = |body: serde_json::Value| app.post("/api/v1/positions/moves", None, body);
    let start = ask(
        json!({"variant": "standard", "fen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"}),
    );
    assert_eq!(start.status, 200, "{}", start.body);
    let moves = start.body["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 20);
    let e4 = moves.iter().find(|m| m["uci"] == "e2e4").unwrap();
    assert_eq!(e4["san"], "e4");
    assert_eq!(
        e4["fen"],
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    );
    assert_eq!(start.body["outcome"], serde_json::Value::Null);
    // Atomic: the capture on f7 blows up the king and says so in its SAN.
    let atomic = ask(
        json!({"variant": "atomic", "fen": "rnbqkb1r/pppp1ppp/4pn2/4N3/8/8/PPPPPPPP/RNBQKB1R w KQkq - 0 3"}),
    );
    assert!(
        atomic.body["moves"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["san"] == "Nxf7#")
    );
    // Crazyhouse drops.
    let zh = ask(
        json!({"variant": "crazyhouse", "fen": "rnbqkbnr/ppp1pppp/8/8/8/8/PPPP1PPP/RNBQKBNR[Pp] w KQkq - 0 3"}),
    );
    assert!(
        zh.body["moves"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["uci"] == "P@e4")
    );
    // A decided position: no moves, and why.
    let mate = ask(
        json!({"variant": "standard", "fen": "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"}),
    );
    assert_eq!(mate.body["moves"], json!([]));
    assert_eq!(mate.body["outcome"], "0-1 checkmate");
    // Bad input: a clear 422 each.
    for (body, says) in [
        (
            json!({"variant": "standard", "fen": "not a fen"}),
            "not a position",
        ),
        (
            json!({"variant": "checkers", "fen": "8/8/8/8/8/8/8/8 w - - 0 1"}),
            "unknown variant",
        ),
        (
            json!({"variant": "standard", "fen": "k".repeat(500)}),
            "at most",
        ),
    ] {
        let r = ask(body);
        assert_eq!(r.status, 422, "{}", r.body);
        assert!(
            r.body["error"].as_str().unwrap().contains(says),
            "{}",
            r.body
        );
    }
}

fn the_opening_book_counts_finished_games_only(app: &TestApp) {
    let a = app.user("alice");
    let b = app.user("bob");
    let resign = |g: i64, token: &str, ply: i64| {
        let r = app.post(
            &format!("/api/v1/games/{g}/actions"),
            Some(token),
            json!({"action": "resign", "ply": ply}),
        );
        assert_eq!(r.status, 200, "{}", r.body);
    };
    // 1. e4 e5 2. Nf3 Nc6, Black resigns (1-0); 1. e4 c5, White resigns (0-1); 1. d4 runs on.
    let g1 = app.game("standard", &a, &b);
    app.play_all(g1, &a, &b, &["e4", "e5", "Nf3", "Nc6"]);
    resign(g1, &b, 4);
    let g2 = app.game("standard", &a, &b);
    app.play_all(g2, &a, &b, &["e4", "c5"]);
    resign(g2, &a, 2);
    let g3 = app.game("standard", &a, &b);
    app.play_all(g3, &a, &b, &["d4"]);
    let in_url = |fen: &str| fen.replace(' ', "%20").replace('/', "%2F");
    let book = |variant: &str, fen: &str| {
        let q = format!("/api/v1/openings?variant={variant}&fen={}", in_url(fen));
        app.get(&q, None)
    };
    let start = book(
        "standard",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    );
    assert_eq!(start.status, 200, "{}", start.body);
    assert_eq!(
        start.body["games"], 2,
        "the running game is not in the book: {}",
        start.body
    );
    assert_eq!(
        start.body["moves"],
        json!([{"uci": "e2e4", "san": "e4", "games": 2, "white": 1, "draws": 0, "black": 1}])
    );
    // After 1. e4, written with other move counters: the same position.
    let e4 = book(
        "standard",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 7",
    );
    assert_eq!(e4.body["games"], 2);
    let sans: Vec<&str> = e4.body["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["san"].as_str().unwrap())
        .collect();
    assert_eq!(sans, ["c5", "e5"], "equal counts: by name");
    assert_eq!(e4.body["moves"][0]["black"], 1);
    assert_eq!(e4.body["opening"]["eco"], "B00");
    assert!(
        e4.body["opening"]["name"]
            .as_str()
            .unwrap()
            .contains("King's Pawn"),
        "{}",
        e4.body
    );
    // Another variant has its own book; an unnamed position has no opening.
    let atomic = book(
        "atomic",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    );
    assert_eq!(
        (atomic.body["games"].clone(), atomic.body["opening"].clone()),
        (json!(0), serde_json::Value::Null)
    );
    assert_eq!(book("standard", "not a fen").status, 422);
    assert_eq!(book("checkers", "8/8/8/8/8/8/8/8 w - - 0 1").status, 422);
    // The games behind a book position, found by the search, as many as its total says
    // (counted from the book alone, or with the games when another filter asks).
    let found_with = |filters: &str, fen: &str| -> Vec<i64> {
        let q = format!("/api/v1/search?{filters}&position={}", in_url(fen));
        let r = app.get(&q, None);
        assert_eq!(r.status, 200, "{}", r.body);
        let mut ids: Vec<i64> = r.body["games"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["id"].as_i64().unwrap())
            .collect();
        ids.sort();
        assert_eq!(r.body["total"], ids.len(), "{q}: {}", r.body);
        ids
    };
    let found = |fen: &str| found_with("variant=standard&status=finished", fen);
    assert_eq!(
        found("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"),
        [g1, g2]
    );
    // After 1. e4 e5 only the first game went on (2. Nf3).
    assert_eq!(
        found("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"),
        [g1]
    );
    // A game that comes back to the start position is counted once.
    let g4 = app.game("standard", &a, &b);
    app.play_all(g4, &a, &b, &["Nf3", "Nf6", "Ng1", "Ng8", "Nc3"]);
    resign(g4, &b, 5);
    let start_fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    assert_eq!(found(start_fen), [g1, g2, g4]);
    // The book counts it there once too, with the move it played the first time.
    let start = book("standard", start_fen);
    assert_eq!(start.body["games"], 3, "{}", start.body);
    assert_eq!(
        start.body["moves"],
        json!([
            {"uci": "e2e4", "san": "e4", "games": 2, "white": 1, "draws": 0, "black": 1},
            {"uci": "g1f3", "san": "Nf3", "games": 1, "white": 1, "draws": 0, "black": 0}
        ])
    );
    assert_eq!(found_with("variant=&status=", start_fen), [g1, g2, g4]);
    assert_eq!(found_with("result=1-0", start_fen), [g1, g4]);
    assert_eq!(found_with("status=started", start_fen), Vec::<i64>::new());
    // Page by page, the same games in the same order (newest finished first), the early pages
    // walked in that order, the last gathered and sorted.
    let paged: Vec<i64> = (1..=3)
        .flat_map(|p| {
            let q = format!(
                "/api/v1/search?per_page=1&page={p}&position={}",
                in_url(start_fen)
            );
            let r = app.get(&q, None);
            assert_eq!(r.body["total"], 3, "{q}: {}", r.body);
            r.body["games"].as_array().unwrap().clone()
        })
        .map(|g| g["id"].as_i64().unwrap())
        .collect();
    assert_eq!(paged, [g4, g2, g1]);
    let bad = app.get("/api/v1/search?position=nonsense", None);
    assert_eq!(bad.status, 422, "{}", bad.body);
    // The PGN names the opening too, and reads cleanly elsewhere.
    let (_, pgn) = app.get_text(&format!("/games/{g1}.pgn"));
    assert!(pgn.contains("[ECO \"C44\"]"), "{pgn}");
    assert!(
        pgn.contains("[Opening \"King's Knight Opening: Normal Variation\"]"),
        "{pgn}"
    );
    independent_reader_accepts(&pgn, &["e4", "e5", "Nf3", "Nc6"]);
    // Games finished before the book existed are added once, at the next start.
    use diesel::RunQueryDsl;
    let mut conn = app.state.pool.get().unwrap();
    diesel::delete(slowfuse::schema::book_moves::table)
        .execute(&mut **conn)
        .unwrap();
    assert_eq!(book("standard", start_fen).body["games"], 0);
    assert_eq!(
        slowfuse::usecases::book::index_missing_games(&mut conn).unwrap(),
        3
    );
    assert_eq!(
        slowfuse::usecases::book::index_missing_games(&mut conn).unwrap(),
        0
    );
    assert_eq!(book("standard", start_fen).body["games"], 3);
}
