//! Bughouse through the API, on SQLite and (when configured) PostgreSQL: a four-seat
//! challenge filled seat by seat, a match played on both boards with a capture going to the
//! partner's pocket and dropped from there, the team chat read by that team only, the bad
//! requests refused without changing anything, and a resignation ending the match for all four.

use crate::common;

use chrono::Duration;
use common::{TestApp, hidden_value};
use serde_json::{Value, json};
use slowfuse::clock::{Clock, FixedClock};
use slowfuse::usecases::clocks::Expiry;

on_both_databases!(
    four_seats_are_filled_and_the_match_starts_with_the_fourth,
    a_capture_fills_the_partners_pocket_and_the_drop_is_played,
    team_chat_reaches_the_two_partners_only,
    a_resignation_ends_the_match_for_all_four_and_rates_them,
    the_match_page_plays_on_ones_own_board_and_keeps_the_team_chat_in_the_team,
    the_bpgn_names_the_four_players_and_both_boards_moves,
    every_list_and_page_shows_matches_and_minesweeper_games_beside_the_others,
    a_player_in_check_sits_until_the_partner_sends_a_piece_to_block,
);

on_both_databases_at_t0!(
    sqlite_at_t0,
    postgres_at_t0:
    each_board_has_its_own_clock_and_the_first_to_run_out_loses_the_match,
    a_board_whose_first_moves_are_not_made_calls_the_match_off,
    each_player_is_told_of_their_own_move_on_their_own_board,
    without_automatic_flags_the_opponent_on_the_board_claims_the_timeout,
);

struct Four {
    alice: String,
    bob: String,
    carol: String,
    dave: String,
}

/// alice (A1), bob (B1), carol (B2) and dave (A2) in a rated match, three days per move.
fn match_of_four(app: &TestApp) -> (Four, i64) {
    match_of_four_with(app, json!({}))
}

/// As [`match_of_four`], with more fields of the challenge (`auto_flag`, say).
fn match_of_four_with(app: &TestApp, extra: Value) -> (Four, i64) {
    let four = Four {
        alice: app.user("alice"),
        bob: app.user("bob"),
        carol: app.user("carol"),
        dave: app.user("dave"),
    };
    let mut body = json!({"variant": "bughouse", "seat": "A1", "days_per_move": 3, "rated": true});
    for (key, value) in extra.as_object().into_iter().flatten() {
        body[key] = value.clone();
    }
    let r = app.post("/api/v1/challenges", Some(&four.alice), body);
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.body["id"].as_i64().unwrap();
    let mut game = None;
    for (token, seat) in [(&four.bob, "B1"), (&four.carol, "B2"), (&four.dave, "A2")] {
        let r = app.post(
            &format!("/api/v1/challenges/{id}/accept"),
            Some(token),
            json!({ "seat": seat }),
        );
        assert_eq!(r.status, 201, "{}", r.body);
        game = r.body["game_id"].as_i64();
    }
    (four, game.expect("the fourth seat starts the match"))
}

fn game_json(app: &TestApp, g: i64, token: Option<&str>) -> Value {
    let r = app.get(&format!("/api/v1/games/{g}"), token);
    assert_eq!(r.status, 200, "{}", r.body);
    r.body
}

fn play(app: &TestApp, g: i64, token: &str, board: &str, mv: &str, ply: i64) -> common::Reply {
    app.post(
        &format!("/api/v1/games/{g}/moves"),
        Some(token),
        json!({"board": board, "move": mv, "ply": ply}),
    )
}

fn four_seats_are_filled_and_the_match_starts_with_the_fourth(app: &TestApp) {
    let alice = app.user("alice");
    let bob = app.user("bob");
    let carol = app.user("carol");
    let dave = app.user("dave");
    let erin = app.user("erin");
    let r = app.post(
        "/api/v1/challenges",
        Some(&alice),
        json!({"variant": "bughouse", "seat": "A1", "days_per_move": 2, "invite": {"B1": "bob"}}),
    );
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.body["id"].as_i64().unwrap();
    assert_eq!(r.body["kind"], "open");
    assert!(
        r.body["url"]
            .as_str()
            .unwrap()
            .contains("/challenges/link/")
    );
    assert_eq!(
        r.body["seats"],
        json!({"A1": "alice", "B1": null, "B2": null, "A2": null})
    );
    assert_eq!(r.body["invited"], json!({"B1": "bob"}));
    let accept = |token: &str, seat: &str| {
        app.post(
            &format!("/api/v1/challenges/{id}/accept"),
            Some(token),
            json!({ "seat": seat }),
        )
    };

    // A seat offered to bob is his alone; a seat name that is none is refused.
    let r = accept(&carol, "B1");
    assert_eq!(r.status, 403, "{}", r.body);
    assert_eq!(accept(&carol, "C3").status, 422);
    // "any" gives bob the seat offered to him.
    let r = accept(&bob, "any");
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(
        r.body,
        json!({"seats": {"A1": "alice", "B1": "bob", "B2": null, "A2": null}, "game_id": null})
    );
    // A taken seat, and a second seat for someone seated, are refused.
    let r = accept(&carol, "A1");
    assert_eq!(r.status, 409, "{}", r.body);
    assert!(r.body["error"].as_str().unwrap().contains("taken"));
    assert_eq!(accept(&alice, "B2").status, 409);
    assert_eq!(accept(&carol, "B2").status, 201);
    let r = accept(&dave, "any");
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(r.body["seats"]["A2"], "dave");
    let g = r.body["game_id"]
        .as_i64()
        .expect("the fourth seat starts it");
    // A fifth player finds the challenge closed.
    assert_eq!(accept(&erin, "any").status, 409);

    let j = game_json(app, g, None);
    assert_eq!(j["variant"], "bughouse");
    assert_eq!(j["status"], "started");
    assert_eq!(j["result"], "*");
    assert_eq!(
        j["seats"],
        json!({"A1": "alice", "B1": "bob", "B2": "carol", "A2": "dave"})
    );
    for board in ["a", "b"] {
        let b = &j["boards"][board];
        assert_eq!(b["ply"], 0);
        assert_eq!(b["turn"], "white");
        assert_eq!(b["moves"], json!([]));
        assert_eq!(b["pockets"], json!({"white": "", "black": ""}));
        assert!(b["deadline_at"].is_string(), "{b}");
        assert!(
            b["fen"]
                .as_str()
                .unwrap()
                .starts_with("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR")
        );
    }
    assert_eq!(j["sitting"], json!([]));
    assert_eq!(j["winning_team"], Value::Null);
    assert!(j.get("team_chat").is_none(), "a visitor gets no team chat");
}

fn a_capture_fills_the_partners_pocket_and_the_drop_is_played(app: &TestApp) {
    let (p, g) = match_of_four(app);
    // Board a: 1. e4 d5 2. exd5 — the pawn goes to dave (A2, Black on board b).
    assert_eq!(play(app, g, &p.alice, "a", "e4", 0).status, 200);
    assert_eq!(play(app, g, &p.bob, "a", "d5", 1).status, 200);
    // Board b moves at the same time: carol (B2) opens.
    assert_eq!(play(app, g, &p.carol, "b", "e4", 0).status, 200);
    let r = play(app, g, &p.alice, "a", "exd5", 2);
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["boards"]["b"]["pockets"]["black"], "P");
    assert!(
        r.body["boards"]["b"]["fen"]
            .as_str()
            .unwrap()
            .contains("[p]"),
        "{}",
        r.body["boards"]["b"]["fen"]
    );

    // Refused, and nothing changes: the partner's board, a stale ply, a piece not in the
    // pocket, no board, not the player's turn.
    // The match as stored, without the clocks (they count down while the test runs).
    let stored = || {
        let mut j = game_json(app, g, None);
        for board in ["a", "b"] {
            j["boards"][board].as_object_mut().unwrap().remove("clock");
        }
        j
    };
    let before = stored();
    let r = play(app, g, &p.alice, "b", "d5", 1);
    assert_eq!(r.status, 403, "{}", r.body);
    assert!(r.body["error"].as_str().unwrap().contains("board a"));
    let r = play(app, g, &p.dave, "b", "P@d5", 0);
    assert_eq!(r.status, 409, "{}", r.body);
    let r = play(app, g, &p.dave, "b", "Q@d5", 1);
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(
        r.body["error"].as_str().unwrap().contains("queen"),
        "{}",
        r.body
    );
    let r = app.play(g, &p.dave, "P@d5", 1);
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(r.body["error"].as_str().unwrap().contains("board"));
    let r = play(app, g, &p.carol, "b", "d4", 1);
    assert_eq!(r.status, 403, "{}", r.body);
    assert_eq!(stored(), before);

    // The drop from the pocket the partner filled.
    let r = play(app, g, &p.dave, "b", "P@d5", 1);
    assert_eq!(r.status, 200, "{}", r.body);
    let b = &r.body["boards"]["b"];
    assert_eq!(b["ply"], 2);
    assert_eq!(b["moves"], json!(["e2e4", "P@d5"]));
    assert_eq!(b["pockets"]["black"], "");
    assert_eq!(b["turn"], "white");
    assert_eq!(
        r.body["moves"],
        json!([
            {"board": "a", "uci": "e2e4", "san": "e4"},
            {"board": "a", "uci": "d7d5", "san": "d5"},
            {"board": "b", "uci": "e2e4", "san": "e4"},
            {"board": "a", "uci": "e4d5", "san": "exd5"},
            {"board": "b", "uci": "P@d5", "san": "P@d5"},
        ])
    );
    assert_eq!(r.body["boards"]["a"]["sans"], json!(["e4", "d5", "exd5"]));
}

fn team_chat_reaches_the_two_partners_only(app: &TestApp) {
    let (p, g) = match_of_four(app);
    let secret = "push the queen, I will send knights";
    let r = app.post(
        &format!("/api/v1/games/{g}/actions"),
        Some(&p.alice),
        json!({"action": "team_chat", "message": secret}),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["team_chat"][0]["author"], "alice");
    assert_eq!(r.body["team_chat"][0]["text"], secret);
    // Her partner reads it; the other team has its own (empty) chat; visitors none.
    let dave = game_json(app, g, Some(&p.dave));
    assert_eq!(dave["team_chat"][0]["text"], secret);
    for token in [&p.bob, &p.carol] {
        let j = game_json(app, g, Some(token));
        assert_eq!(j["team_chat"], json!([]), "{j}");
    }
    let outsider = app.user("mallory");
    for token in [Some(outsider.as_str()), None] {
        let r = app.get(&format!("/api/v1/games/{g}"), token);
        assert!(!r.body.to_string().contains("queen, I will"), "{}", r.body);
    }
    for path in [format!("/games/{g}"), format!("/games/{g}.pgn")] {
        let (_, text) = app.get_text(&path);
        assert!(
            !text.contains("queen, I will"),
            "{path} shows the team chat"
        );
    }
    // Someone not playing cannot write to it; an empty line is refused.
    let r = app.post(
        &format!("/api/v1/games/{g}/actions"),
        Some(&outsider),
        json!({"action": "team_chat", "message": "hello"}),
    );
    assert_eq!(r.status, 403, "{}", r.body);
    let r = app.post(
        &format!("/api/v1/games/{g}/actions"),
        Some(&p.bob),
        json!({"action": "team_chat", "message": "  "}),
    );
    assert_eq!(r.status, 422, "{}", r.body);
}

fn a_resignation_ends_the_match_for_all_four_and_rates_them(app: &TestApp) {
    let (p, g) = match_of_four(app);
    assert_eq!(play(app, g, &p.alice, "a", "e4", 0).status, 200);
    assert_eq!(play(app, g, &p.bob, "a", "e5", 1).status, 200);
    assert_eq!(play(app, g, &p.carol, "b", "d4", 0).status, 200);
    // carol (B2) resigns on board b: team B loses, on both boards.
    let r = app.post(
        &format!("/api/v1/games/{g}/actions"),
        Some(&p.carol),
        json!({"action": "resign", "board": "b", "ply": 1}),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["status"], "finished");
    assert_eq!(r.body["result"], "1-0");
    assert_eq!(r.body["termination"], "resignation");
    assert_eq!(r.body["winning_team"], "A");
    // Nobody moves any more, on either board.
    let r = play(app, g, &p.alice, "a", "Nf3", 2);
    assert_eq!(r.status, 409, "{}", r.body);
    let r = play(app, g, &p.dave, "b", "e5", 1);
    assert_eq!(r.status, 409, "{}", r.body);
    // Each player's bughouse rating moved: the winners up, the losers down.
    for (name, up) in [
        ("alice", true),
        ("dave", true),
        ("bob", false),
        ("carol", false),
    ] {
        let r = app.get(&format!("/api/v1/users/{name}"), None);
        assert_eq!(r.status, 200, "{}", r.body);
        let rating = r.body["ratings"]["bughouse"]["rating"]
            .as_f64()
            .unwrap_or_else(|| panic!("{name} has a bughouse rating: {}", r.body));
        assert_eq!(rating > 1500.0, up, "{name}: {rating}");
    }
}

fn the_match_page_plays_on_ones_own_board_and_keeps_the_team_chat_in_the_team(app: &TestApp) {
    let (p, g) = match_of_four(app);
    assert_eq!(play(app, g, &p.alice, "a", "e4", 0).status, 200);
    assert_eq!(play(app, g, &p.bob, "a", "d5", 1).status, 200);
    assert_eq!(play(app, g, &p.alice, "a", "exd5", 2).status, 200);

    // A visitor sees both boards, the four players, the pocket the capture filled, the moves
    // with their board letters, and no form and no team chat.
    let (status, html) = app.get_text(&format!("/games/{g}"));
    assert_eq!(status, 200, "{html}");
    let html = html.replace("&#38;", "&amp;");
    for needle in [
        "Bughouse: alice &amp; dave v bob &amp; carol",
        "id=\"board-a\"",
        "id=\"board-b\"",
        "aria-label=\"black pawn in hand, 1\"",
        "2A.</span> exd5",
        "Board b: carol (B2) to move",
    ] {
        assert!(html.contains(needle), "the visitor's page lacks {needle}");
    }
    assert!(!html.contains("move-form-"), "a visitor gets no move form");
    assert!(!html.contains("team-chat"), "a visitor gets no team chat");

    // carol plays on board b through the page's form; the page shows her board first.
    let carol = app.logged_in("carol");
    let page = carol.get(&format!("/games/{g}"));
    assert_eq!(page.status, 200);
    assert!(page.body.contains("id=\"move-form-b\""), "{}", page.body);
    assert!(!page.body.contains("id=\"move-form-a\""));
    // Next Game, as on every game page, for a logged-in reader (a visitor gets none).
    assert!(
        page.body
            .contains(&format!(r#"id="next-game" href="/next?after={g}""#))
    );
    assert!(!html.contains("next-game"));
    assert!(
        page.body.find("id=\"board-b\"").unwrap() < page.body.find("id=\"board-a\"").unwrap(),
        "her own board comes first"
    );
    let csrf = hidden_value(&page.body, "csrf_token").unwrap();
    let path = format!("/games/{g}/match");
    // An illegal move is refused on the page with the move kept in its box.
    let refused = carol.post(
        &path,
        &[
            ("csrf_token", &csrf),
            ("board", "b"),
            ("ply", "0"),
            ("action", "move"),
            ("move", "Ke2"),
        ],
    );
    assert_eq!(refused.status, 422, "{}", refused.body);
    assert!(
        refused.body.contains("value=\"Ke2\""),
        "the typed move is kept"
    );
    let done = carol.post(
        &path,
        &[
            ("csrf_token", &csrf),
            ("board", "b"),
            ("ply", "0"),
            ("action", "move"),
            ("move", "d4"),
        ],
    );
    assert_eq!(done.status, 303, "{}", done.body);
    assert_eq!(
        game_json(app, g, None)["boards"]["b"]["sans"],
        json!(["d4"])
    );

    // Her team chat, on her page and her partner's only.
    let said = carol.post(
        &path,
        &[
            ("csrf_token", &csrf),
            ("action", "team_chat"),
            ("message", "<b>trade</b> knights"),
        ],
    );
    assert_eq!(said.status, 303, "{}", said.body);
    let bob = app.logged_in("bob");
    let bob_page = bob.get(&format!("/games/{g}")).body;
    assert!(
        !bob_page.contains("<b>trade"),
        "written as text, never as markup"
    );
    let text = bob_page
        .replace("&#60;", "<")
        .replace("&lt;", "<")
        .replace("&#62;", ">")
        .replace("&gt;", ">");
    assert!(
        text.contains("<b>trade</b> knights"),
        "her partner reads it"
    );
    let alice = app.logged_in("alice");
    let alice_page = alice.get(&format!("/games/{g}")).body;
    assert!(
        alice_page.contains("id=\"team-chat\""),
        "alice has her own team's chat"
    );
    assert!(
        !alice_page.contains("trade"),
        "the other team never reads it"
    );

    // Resigning asks first, then ends the match for all four.
    let asked = alice.post(
        &path,
        &[
            (
                "csrf_token",
                &hidden_value(&alice_page, "csrf_token").unwrap(),
            ),
            ("board", "a"),
            ("ply", "3"),
            ("action", "resign"),
        ],
    );
    assert_eq!(asked.status, 200);
    assert!(asked.body.contains("id=\"resign-question\""));
    assert_eq!(game_json(app, g, None)["status"], "started");
}

fn the_bpgn_names_the_four_players_and_both_boards_moves(app: &TestApp) {
    let (p, g) = match_of_four(app);
    assert_eq!(play(app, g, &p.alice, "a", "e4", 0).status, 200);
    assert_eq!(play(app, g, &p.carol, "b", "d4", 0).status, 200);
    assert_eq!(play(app, g, &p.bob, "a", "d5", 1).status, 200);
    let (status, bpgn) = app.get_text(&format!("/games/{g}.bpgn"));
    assert_eq!(status, 200, "{bpgn}");
    for needle in [
        "[WhiteA \"alice\"]",
        "[BlackA \"bob\"]",
        "[WhiteB \"carol\"]",
        "[BlackB \"dave\"]",
        "[Variant \"Bughouse\"]",
        "1A. e4 1B. d4 1a. d5 *",
    ] {
        assert!(bpgn.contains(needle), "the BPGN lacks {needle}:\n{bpgn}");
    }
    let (_, pgn) = app.get_text(&format!("/games/{g}.pgn"));
    assert_eq!(pgn, bpgn, ".pgn of a match is its BPGN");
    let (_, fen) = app.get_text(&format!("/games/{g}.fen"));
    assert_eq!(fen.trim().split(" | ").count(), 2, "{fen}");
    // A game of one board has no BPGN.
    let other = app.game("standard", &p.alice, &p.bob);
    assert_eq!(app.get_text(&format!("/games/{other}.bpgn")).0, 404);
}

fn run_worker(app: &TestApp) -> Vec<Expiry> {
    actix_web::rt::System::new()
        .block_on(slowfuse::worker::run_once(&app.state.worker()))
        .unwrap()
}

fn each_board_has_its_own_clock_and_the_first_to_run_out_loses_the_match(
    app: &TestApp,
    clock: &FixedClock,
) {
    let (p, g) = match_of_four(app);
    // Both boards past their first two moves, a day apart.
    assert_eq!(play(app, g, &p.alice, "a", "e4", 0).status, 200);
    assert_eq!(play(app, g, &p.bob, "a", "e5", 1).status, 200);
    clock.advance(Duration::days(1));
    assert_eq!(play(app, g, &p.carol, "b", "d4", 0).status, 200);
    assert_eq!(play(app, g, &p.dave, "b", "d5", 1).status, 200);
    // alice (board a) and carol (board b) are to move; alice's three days end first.
    let j = game_json(app, g, None);
    let a_deadline = j["boards"]["a"]["deadline_at"]
        .as_str()
        .unwrap()
        .to_string();
    let b_deadline = j["boards"]["b"]["deadline_at"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(a_deadline < b_deadline, "{a_deadline} {b_deadline}");
    // alice's deadline is three days after bob's move; carol's three days after dave's.
    clock.advance(Duration::days(1) + Duration::hours(22));
    assert!(run_worker(app).is_empty(), "nobody is out of time yet");
    clock.advance(Duration::hours(3));
    assert_eq!(run_worker(app), vec![Expiry::Flagged(g)]);
    let j = game_json(app, g, None);
    assert_eq!(j["status"], "finished");
    assert_eq!(j["termination"], "time");
    assert_eq!(j["result"], "0-1", "alice's team A loses on time");
    assert_eq!(j["winning_team"], "B");
    assert!(run_worker(app).is_empty(), "ended once");
}

fn without_automatic_flags_the_opponent_on_the_board_claims_the_timeout(
    app: &TestApp,
    clock: &FixedClock,
) {
    let (p, g) = match_of_four_with(app, json!({"auto_flag": false}));
    assert_eq!(play(app, g, &p.alice, "a", "e4", 0).status, 200);
    assert_eq!(play(app, g, &p.bob, "a", "e5", 1).status, 200);
    assert_eq!(play(app, g, &p.carol, "b", "d4", 0).status, 200);
    assert_eq!(play(app, g, &p.dave, "b", "d5", 1).status, 200);
    let claim = |token: &str, board: &str, ply: i64| {
        app.post(
            &format!("/api/v1/games/{g}/actions"),
            Some(token),
            json!({"action": "claim_timeout", "board": board, "ply": ply}),
        )
    };
    // In time, nobody can claim.
    let r = claim(&p.bob, "a", 2);
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(r.body["error"].as_str().unwrap().contains("still has time"));
    clock.advance(Duration::days(3) + Duration::hours(1));
    assert!(
        run_worker(app).is_empty(),
        "no automatic flag in this match"
    );
    // alice, to move on board a, cannot claim against herself; dave is not on board a.
    let r = claim(&p.alice, "a", 2);
    assert_eq!(r.status, 422, "{}", r.body);
    let r = claim(&p.dave, "a", 2);
    assert_eq!(r.status, 403, "{}", r.body);
    assert!(
        r.body["error"]
            .as_str()
            .unwrap()
            .contains("you play on board b")
    );
    // bob, alice's opponent on board a, claims: team A loses, for all four.
    let r = claim(&p.bob, "a", 2);
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["status"], "finished");
    assert_eq!(r.body["termination"], "time");
    assert_eq!(r.body["winning_team"], "B");
    let r = play(app, g, &p.carol, "b", "Nf3", 2);
    assert_eq!(r.status, 409, "{}", r.body);
    assert!(
        r.body["error"]
            .as_str()
            .unwrap()
            .contains("the match is over")
    );
}

fn a_board_whose_first_moves_are_not_made_calls_the_match_off(app: &TestApp, clock: &FixedClock) {
    let (p, g) = match_of_four(app);
    assert_eq!(play(app, g, &p.alice, "a", "e4", 0).status, 200);
    assert_eq!(play(app, g, &p.bob, "a", "e5", 1).status, 200);
    // carol never opens board b.
    clock.advance(Duration::days(3) + Duration::minutes(1));
    assert_eq!(run_worker(app), vec![Expiry::Aborted(g)]);
    let j = game_json(app, g, None);
    assert_eq!(j["status"], "aborted");
    assert_eq!(j["result"], "*");
}

/// The waiting "your move" mails of the match, as (recipient, status).
fn your_move_mails(app: &TestApp, g: i64) -> Vec<(String, String)> {
    use diesel::prelude::*;
    use slowfuse::schema::{outbox, users};
    let mut conn = app.state.pool.get().unwrap();
    outbox::table
        .inner_join(users::table)
        .filter(outbox::game_id.eq(g))
        .filter(outbox::kind.eq("your_turn"))
        .order(outbox::id.asc())
        .select((users::username, outbox::status))
        .load(&mut **conn)
        .unwrap()
}

fn each_player_is_told_of_their_own_move_on_their_own_board(app: &TestApp, clock: &FixedClock) {
    let (p, g) = match_of_four(app);
    {
        // Mail goes to confirmed addresses only (tests/app/mail.rs confirms them by mail).
        use diesel::prelude::*;
        use slowfuse::schema::{outbox, users};
        let mut conn = app.state.pool.get().unwrap();
        diesel::update(users::table)
            .set(users::email_verified_at.eq(Some(clock.now())))
            .execute(&mut **conn)
            .unwrap();
        diesel::delete(outbox::table).execute(&mut **conn).unwrap();
    }
    for board in [0, 1] {
        let mut conn = app.state.pool.get().unwrap();
        slowfuse::usecases::notify::your_turn(&mut conn, clock.now(), g, board).unwrap();
    }
    // The match starts: both Whites are told.
    let pending = |who: &str| {
        your_move_mails(app, g)
            .iter()
            .any(|(name, status)| name == who && status == "pending")
    };
    assert!(
        pending("alice") && pending("carol"),
        "{:?}",
        your_move_mails(app, g)
    );
    // A move on board a tells bob and leaves carol's mail for board b waiting.
    assert_eq!(play(app, g, &p.alice, "a", "e4", 0).status, 200);
    assert!(pending("bob"), "{:?}", your_move_mails(app, g));
    assert!(
        pending("carol"),
        "board b's mail stands: {:?}",
        your_move_mails(app, g)
    );
    assert!(!pending("alice"), "alice has moved");
    assert!(!pending("dave"), "dave is not to move");
}

fn every_list_and_page_shows_matches_and_minesweeper_games_beside_the_others(app: &TestApp) {
    let (p, g) = match_of_four(app);
    assert_eq!(play(app, g, &p.alice, "a", "e4", 0).status, 200);
    let mines = app.game_from(
        &p.alice,
        &p.bob,
        json!({"variant": "minesweeper", "color": "white", "days_per_move": 3}),
    );
    let chess = app.game("atomic", &p.alice, &p.bob);
    let alice = app.logged_in("alice");
    for path in [
        "/",
        "/games",
        "/next",
        "/challenges",
        "/search",
        "/search?variant=bughouse",
        "/search?variant=minesweeper",
        "/users/alice",
        "/users/dave",
        "/account",
    ] {
        let page = alice.follow(alice.get(path));
        assert_eq!(page.status, 200, "{path}: {}", page.body);
    }
    let visitor = app.browser();
    for path in ["/", "/search", "/users/alice", "/variants"] {
        assert_eq!(visitor.get(path).status, 200, "{path} for a visitor");
    }
    let home = alice.get("/games").body;
    for id in [g, mines, chess] {
        assert!(
            home.contains(&format!("/games/{id}")),
            "my games lists game {id}"
        );
    }
    let listed = app.get("/api/v1/me/games", Some(&p.dave)).body;
    let entry = listed
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["id"] == json!(g))
        .unwrap_or_else(|| panic!("dave's games list the match: {listed}"))
        .clone();
    assert_eq!(
        entry["white"], "alice & dave",
        "the sides are the teams: {entry}"
    );
    assert_eq!(entry["black"], "bob & carol");
    for path in [
        "/api/v1/me/games",
        "/api/v1/me/queue",
        "/api/v1/users/alice",
        "/api/v1/search?player=alice",
        "/api/v1/challenges",
    ] {
        let r = app.get(path, Some(&p.alice));
        assert_eq!(r.status, 200, "{path}: {}", r.body);
    }
    let (status, pgn) = app.get_text("/search.pgn?player=alice");
    assert_eq!(status, 200);
    assert!(
        pgn.contains("[WhiteA \"alice\"]"),
        "the match is in the download: {pgn}"
    );
}

fn a_player_in_check_sits_until_the_partner_sends_a_piece_to_block(app: &TestApp) {
    let (p, g) = match_of_four(app);
    // Board a: 1. f3 e5 2. g4 Qh4+ — mate in chess, but a piece dropped on g3 or f2 would block.
    for (token, mv, ply) in [(&p.alice, "f3", 0), (&p.bob, "e5", 1), (&p.alice, "g4", 2)] {
        assert_eq!(play(app, g, token, "a", mv, ply).status, 200, "{mv}");
    }
    let r = play(app, g, &p.bob, "a", "Qh4+", 3);
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["status"], "started", "not mate: alice sits");
    assert_eq!(r.body["sitting"], json!(["A1"]));
    // She has no move to make meanwhile.
    let r = play(app, g, &p.alice, "a", "Kf2", 4);
    assert_eq!(r.status, 422, "{}", r.body);
    let (_, page) = app.get_text(&format!("/games/{g}"));
    assert!(
        page.contains("Board a: alice (A1) sits, waiting for a piece to block the check"),
        "the page says who sits and why"
    );
    // Board b: dave takes a pawn, which goes to alice's hand; she drops it on g3.
    for (token, mv, ply) in [
        (&p.carol, "e4", 0),
        (&p.dave, "d5", 1),
        (&p.carol, "Nc3", 2),
    ] {
        assert_eq!(play(app, g, token, "b", mv, ply).status, 200, "{mv}");
    }
    let r = play(app, g, &p.dave, "b", "dxe4", 3);
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["boards"]["a"]["pockets"]["white"], "P");
    assert_eq!(r.body["sitting"], json!([]), "help has come");
    let r = play(app, g, &p.alice, "a", "P@g3", 4);
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["boards"]["a"]["turn"], "black");
    assert_eq!(r.body["status"], "started");
}
