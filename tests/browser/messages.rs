//! Comments, kibitz, private notes and draw offers: who reads what through the page, the API
//! and the PGN (an attacker account tries every route), length limits, hostile HTML shown as
//! text, withdrawing an offer and an offer lapsing.

use crate::common;
use crate::webdriver;

use common::{Browser, Reply, TestApp, hidden_value};
use serde_json::{Value, json};

on_both_databases!(
    comments_are_for_the_players_and_everyone_in_a_public_game,
    a_private_games_comments_reach_only_its_players,
    kibitz_is_hidden_from_the_players_until_the_end,
    notes_are_read_by_their_author_only,
    an_attacker_reads_and_writes_nothing_that_is_not_theirs,
    over_long_and_empty_messages_are_refused_clearly,
    hostile_html_in_every_kind_is_shown_as_text,
    a_draw_offer_is_withdrawn_by_its_maker_only,
    a_draw_offer_lapses_when_the_offerers_opponent_moves,
    comments_can_be_hidden_with_and_without_javascript,
    a_server_notice_reaches_only_its_player,
    hide_comments_toggles_at_once_with_javascript,
    the_kept_move_list_carries_nothing_from_one_viewer_to_the_next,
);

const PASSWORD: &str = "correct horse battery";

/// Logs a user (made with `app.user`) in through the login form.
fn log_in(app: &TestApp, name: &str) -> Browser {
    let b = app.browser();
    let csrf = b.csrf("/login");
    let r = b.post(
        "/login",
        &[
            ("csrf_token", &csrf),
            ("username", name),
            ("password", PASSWORD),
            ("next", "/"),
        ],
    );
    assert_eq!(r.status, 303, "log in {name}: {}", r.body);
    b
}

/// A standard game, `white` (a token) against `black`; `private` as the challenge chose.
fn new_game(app: &TestApp, white: &str, black: &str, private: bool) -> i64 {
    app.game_from(
        white,
        black,
        json!({"variant": "standard", "color": "white", "days_per_move": 3, "private": private}),
    )
}

fn action(app: &TestApp, g: i64, token: Option<&str>, body: Value) -> Reply {
    app.post(&format!("/api/v1/games/{g}/actions"), token, body)
}

fn say(app: &TestApp, g: i64, token: &str, kind: &str, text: &str) -> Reply {
    action(
        app,
        g,
        Some(token),
        json!({"action": kind, "message": text}),
    )
}

fn ply_of(app: &TestApp, g: i64) -> i64 {
    app.get(&format!("/api/v1/games/{g}"), None).body["ply"]
        .as_i64()
        .unwrap()
}

/// Everything a reader gets about the game: the API's game JSON (with their token, if any)
/// and the game page (in their browser, if any).
fn seen_by(app: &TestApp, g: i64, token: Option<&str>, browser: Option<&Browser>) -> String {
    let api = app.get(&format!("/api/v1/games/{g}"), token);
    assert_eq!(api.status, 200, "{}", api.body);
    let page = match browser {
        Some(b) => b.get(&format!("/games/{g}")),
        None => app.browser().get(&format!("/games/{g}")),
    };
    assert_eq!(page.status, 200);
    format!("{}\n{}", api.body, page.body)
}

fn pgn(app: &TestApp, g: i64) -> String {
    let (status, text) = app.get_text(&format!("/games/{g}.pgn"));
    assert_eq!(status, 200);
    text
}

fn assert_reads(all: &str, secrets: &[&str], who: &str) {
    for s in secrets {
        assert!(all.contains(s), "{who} should read {s}:\n{all}");
    }
}

fn assert_reads_none(all: &str, secrets: &[&str], who: &str) {
    for s in secrets {
        assert!(!all.contains(s), "{who} must not read {s}:\n{all}");
    }
}

/// Posts the game page's action form as the page shows it.
fn page_action(b: &Browser, g: i64, action: &str, mv: &str, message: &str) -> common::Page {
    let path = format!("/games/{g}");
    let page = b.get(&path);
    let csrf = hidden_value(&page.body, "csrf_token").unwrap();
    let ply = hidden_value(&page.body, "ply").expect("an action form");
    b.post(
        &path,
        &[
            ("csrf_token", &csrf),
            ("ply", &ply),
            ("action", action),
            ("move", mv),
            ("message", message),
        ],
    )
}

/// Posts one of the page's text forms (`kibitz` or `notes`).
fn page_text(b: &Browser, g: i64, form: &str, text: &str) -> common::Page {
    let csrf = b.csrf(&format!("/games/{g}"));
    b.post(
        &format!("/games/{g}/{form}"),
        &[("csrf_token", &csrf), ("text", text)],
    )
}

fn comments_are_for_the_players_and_everyone_in_a_public_game(app: &TestApp) {
    let (a, b, c) = (app.user("alice"), app.user("bob"), app.user("carol"));
    let g = new_game(app, &a, &b, false);
    let r = app.post(
        &format!("/api/v1/games/{g}/moves"),
        Some(&a),
        json!({"move": "e4", "ply": 0, "comment": "C1 with the move"}),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    // A comment on its own needs no ply, and a wrong one does not matter: it is stored at
    // the game's ply.
    assert_eq!(say(app, g, &b, "comment", "C2 on its own").status, 200);
    let r = action(
        app,
        g,
        Some(&b),
        json!({"action": "comment", "ply": 99, "message": "C3 at a wrong ply"}),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let c3 = r.body["comments"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["text"] == "C3 at a wrong ply")
        .expect("the comment in the answer")
        .clone();
    assert_eq!(c3["ply"], 1);
    assert_eq!(c3["author"], "bob");
    assert_eq!(c3["kind"], "comment");
    assert_eq!(ply_of(app, g), 1, "a comment is not a move");
    let r = action(
        app,
        g,
        Some(&b),
        json!({"action": "offer_draw", "ply": 1, "message": "C4 with an offer"}),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let all = [
        "C1 with the move",
        "C2 on its own",
        "C3 at a wrong ply",
        "C4 with an offer",
    ];
    let carol = log_in(app, "carol");
    for (who, token, browser) in [
        ("alice", Some(a.as_str()), Some(log_in(app, "alice"))),
        ("a spectator", Some(c.as_str()), Some(carol)),
        ("an anonymous visitor", None, None),
    ] {
        assert_reads(&seen_by(app, g, token, browser.as_ref()), &all, who);
    }
    let text = pgn(app, g);
    assert_reads(&text, &all, "the PGN");
    assert!(text.contains("alice: C1 with the move"), "{text}");
    // Only players comment.
    let r = say(app, g, &c, "comment", "not mine to say");
    assert_eq!(r.status, 403, "{}", r.body);
    assert!(r.body["error"].as_str().unwrap().contains("players"));
    // After the end the players still talk.
    assert_eq!(
        action(app, g, Some(&a), json!({"action": "resign", "ply": 1})).status,
        200
    );
    assert_eq!(say(app, g, &b, "comment", "C5 gg").status, 200);
    assert_reads(&seen_by(app, g, None, None), &["C5 gg"], "anyone");
    // On the page, a finished game has its own comment box for the players.
    let bob = log_in(app, "bob");
    let page = bob.get(&format!("/games/{g}"));
    assert!(page.body.contains(r#"id="comment-form""#), "{}", page.body);
    assert!(!page.body.contains(r#"id="action-form""#));
    let r = bob.follow(page_action(&bob, g, "comment", "", "C6 from the page"));
    assert!(r.body.contains("Your comment is posted."), "{}", r.body);
    assert!(r.body.contains("bob: C6 from the page"), "{}", r.body);
}

/// The move list of a game is kept alike for every viewer: neither what one viewer may read nor
/// the ply they looked at reaches the next viewer's page.
fn the_kept_move_list_carries_nothing_from_one_viewer_to_the_next(app: &TestApp) {
    let (a, b) = (app.user("alice"), app.user("bob"));
    let g = new_game(app, &a, &b, true);
    let secret = "L1 between the players";
    let r = app.post(
        &format!("/api/v1/games/{g}/moves"),
        Some(&a),
        json!({"move": "e4", "ply": 0, "comment": secret}),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(app.play(g, &b, "e5", 1).status, 200);
    assert_eq!(app.play(g, &a, "Nf3", 2).status, 200);
    let e4_shown = r#"<a class="current" href=?ply=1 aria-current="step">e4</a>"#;
    let nf3_shown = r#"<a class="current" href=?ply=3 aria-current="step">Nf3</a>"#;
    let alice = log_in(app, "alice");
    for _ in 0..2 {
        let hers = alice.get(&format!("/games/{g}?ply=1")).body;
        assert_reads(&hers, &[secret, e4_shown], "alice at ply 1");
        let visitor = app.browser().get(&format!("/games/{g}")).body;
        assert_reads_none(&visitor, &[secret, e4_shown], "a visitor after alice");
        assert_reads(&visitor, &[nf3_shown, "<a href=?ply=1>e4</a>"], "a visitor");
        assert_eq!(
            visitor.matches(r#"class="current""#).count(),
            1,
            "{visitor}"
        );
    }
}

fn a_private_games_comments_reach_only_its_players(app: &TestApp) {
    let (a, b, c) = (app.user("alice"), app.user("bob"), app.user("carol"));
    // The challenge form's "Private game" box.
    let alice = log_in(app, "alice");
    let csrf = alice.csrf("/challenges");
    let r = alice.post(
        "/challenges",
        &[
            ("csrf_token", &csrf),
            ("variant", "standard"),
            ("color", "white"),
            ("days_per_move", "3"),
            ("kind", "open"),
            ("opponent", "bob"),
            ("private", "1"),
        ],
    );
    assert_eq!(r.status, 303, "{}", r.body);
    let list = app.get("/api/v1/challenges", Some(&b));
    let ch = &list.body[0];
    assert_eq!(ch["private"], true, "{}", list.body);
    let r = app.post(
        &format!("/api/v1/challenges/{}/accept", ch["id"]),
        Some(&b),
        json!({}),
    );
    let g = r.body["game_id"].as_i64().unwrap();
    let game = app.get(&format!("/api/v1/games/{g}"), None);
    assert_eq!(game.body["is_public"], false);
    // Every way a player writes.
    let r = app.post(
        &format!("/api/v1/games/{g}/moves"),
        Some(&a),
        json!({"move": "e4", "ply": 0, "comment": "P1 move"}),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(say(app, g, &b, "comment", "P2 alone").status, 200);
    let offer = json!({"action": "offer_draw", "ply": 1, "message": "P3 offer"});
    assert_eq!(action(app, g, Some(&a), offer).status, 200);
    let decline = json!({"action": "decline_draw", "ply": 1, "message": "P4 decline"});
    assert_eq!(action(app, g, Some(&b), decline).status, 200);
    let secrets = ["P1 move", "P2 alone", "P3 offer", "P4 decline"];
    let bob = log_in(app, "bob");
    let carol = log_in(app, "carol");
    let check = |secrets: &[&str]| {
        assert_reads(&seen_by(app, g, Some(&a), Some(&alice)), secrets, "alice");
        assert_reads(&seen_by(app, g, Some(&b), Some(&bob)), secrets, "bob");
        let spectator = seen_by(app, g, Some(&c), Some(&carol));
        assert_reads_none(&spectator, secrets, "a spectator");
        let anonymous = seen_by(app, g, None, None);
        assert_reads_none(&anonymous, secrets, "an anonymous visitor");
        // The moves and the page stay public.
        assert!(anonymous.contains("e4"), "{anonymous}");
        assert!(anonymous.contains("Private game"), "{anonymous}");
        // The PGN is the same for everyone, a player's browser included: no comments.
        assert_reads_none(&pgn(app, g), secrets, "the PGN");
        let players_pgn = alice.get(&format!("/games/{g}.pgn")).body;
        assert_reads_none(&players_pgn, secrets, "the PGN fetched by a player");
        assert!(players_pgn.contains("1. e4"), "{players_pgn}");
    };
    check(&secrets);
    // No kibitz in a private game, through the API or the page.
    let r = say(app, g, &c, "kibitz", "K private");
    assert_eq!(r.status, 403, "{}", r.body);
    assert!(r.body["error"].as_str().unwrap().contains("private"));
    let page = carol.get(&format!("/games/{g}"));
    assert!(!page.body.contains(r#"id="kibitz-form""#));
    let r = page_text(&carol, g, "kibitz", "K private page");
    assert_eq!(r.status, 403, "{}", r.body);
    assert!(r.body.contains("this game is private"), "{}", r.body);
    // After the end too.
    let resign = json!({"action": "resign", "ply": 1, "message": "P5 resign"});
    assert_eq!(action(app, g, Some(&b), resign).status, 200);
    check(&["P1 move", "P2 alone", "P3 offer", "P4 decline", "P5 resign"]);
    assert_eq!(say(app, g, &c, "kibitz", "K after").status, 403);
    assert_reads_none(
        &seen_by(app, g, None, None),
        &["K private", "K after"],
        "anyone",
    );
}

fn kibitz_is_hidden_from_the_players_until_the_end(app: &TestApp) {
    let (a, b, c, d) = (
        app.user("alice"),
        app.user("bob"),
        app.user("carol"),
        app.user("dave"),
    );
    let g = new_game(app, &a, &b, false);
    app.play_all(g, &a, &b, &["e4", "e5"]);
    let r = say(app, g, &c, "kibitz", "K1 from carol");
    assert_eq!(r.status, 200, "{}", r.body);
    let mine = r.body["comments"].as_array().unwrap();
    assert!(
        mine.iter()
            .any(|e| e["kind"] == "kibitz" && e["author"] == "carol"),
        "{}",
        r.body
    );
    // Dave kibitzes from the page.
    let dave = log_in(app, "dave");
    let page = dave.get(&format!("/games/{g}"));
    assert!(page.body.contains(r#"id="kibitz-form""#), "{}", page.body);
    assert!(
        !page.body.contains(r#"id="notes-form""#),
        "spectators keep no notes"
    );
    let r = dave.follow(page_text(&dave, g, "kibitz", "K2 from dave"));
    assert!(r.body.contains("Your kibitz is posted."), "{}", r.body);
    let kibitz = ["K1 from carol", "K2 from dave"];
    // Spectators read each other at once.
    let carol = log_in(app, "carol");
    assert_reads(&seen_by(app, g, Some(&c), Some(&carol)), &kibitz, "carol");
    let seen = seen_by(app, g, Some(&d), Some(&dave));
    assert_reads(&seen, &kibitz, "dave");
    assert!(seen.contains("carol (spectator): K1 from carol"), "{seen}");
    // The players, anonymous visitors and the PGN do not, while the game runs.
    let alice = log_in(app, "alice");
    let bob = log_in(app, "bob");
    let seen = seen_by(app, g, Some(&a), Some(&alice));
    assert_reads_none(&seen, &kibitz, "alice during the game");
    assert!(seen.contains(r#"id="kibitz-waits""#), "{seen}");
    assert_reads_none(&seen_by(app, g, Some(&b), Some(&bob)), &kibitz, "bob");
    assert_reads_none(
        &seen_by(app, g, None, None),
        &kibitz,
        "an anonymous visitor",
    );
    assert_reads_none(&pgn(app, g), &kibitz, "the PGN during the game");
    // Players do not kibitz; nobody kibitzes without logging in.
    let r = say(app, g, &a, "kibitz", "K from a player");
    assert_eq!(r.status, 403, "{}", r.body);
    assert!(r.body["error"].as_str().unwrap().contains("you play"));
    let r = action(
        app,
        g,
        None,
        json!({"action": "kibitz", "message": "K anon"}),
    );
    assert_eq!(r.status, 401, "{}", r.body);
    let anonymous = app.browser();
    let r = anonymous.post(
        &format!("/games/{g}/kibitz"),
        &[("csrf_token", "x"), ("text", "K anon page")],
    );
    assert_eq!(r.status, 303);
    assert!(r.location.unwrap().starts_with("/login"));
    // Once the game is over, everyone reads the kibitz.
    let r = action(app, g, Some(&b), json!({"action": "resign", "ply": 2}));
    assert_eq!(r.status, 200, "{}", r.body);
    assert_reads(
        &seen_by(app, g, Some(&a), Some(&alice)),
        &kibitz,
        "alice after",
    );
    assert_reads(&seen_by(app, g, Some(&b), Some(&bob)), &kibitz, "bob after");
    assert_reads(&seen_by(app, g, None, None), &kibitz, "anyone after");
    let text = pgn(app, g);
    assert_reads(&text, &kibitz, "the PGN after");
    assert!(text.contains("dave (spectator): K2 from dave"), "{text}");
    // Kibitz after the end is read by everyone at once.
    assert_eq!(say(app, g, &c, "kibitz", "K3 post mortem").status, 200);
    assert_reads(
        &seen_by(app, g, Some(&a), None),
        &["K3 post mortem"],
        "alice",
    );
    assert_reads(&pgn(app, g), &["K3 post mortem"], "the PGN");
    assert_reads_none(&seen_by(app, g, None, None), &["K anon"], "anyone");
}

fn notes(app: &TestApp, g: i64, token: Option<&str>) -> Reply {
    app.get(&format!("/api/v1/games/{g}/notes"), token)
}

fn put_note(app: &TestApp, g: i64, token: Option<&str>, text: &str) -> Reply {
    app.post_method(
        "PUT",
        &format!("/api/v1/games/{g}/notes"),
        token,
        json!({ "text": text }),
    )
}

fn notes_are_read_by_their_author_only(app: &TestApp) {
    let (a, b, c) = (app.user("alice"), app.user("bob"), app.user("carol"));
    let g = new_game(app, &a, &b, false);
    app.play_all(g, &a, &b, &["d4"]);
    // Empty before anything is written.
    let r = notes(app, g, Some(&a));
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["text"], "");
    assert!(r.body["saved_at"].is_null());
    // Alice through the API (twice: the second replaces the first), Bob through the page.
    assert_eq!(put_note(app, g, Some(&a), "N0 first draft").status, 200);
    let r = put_note(app, g, Some(&a), "N1 alice plans Nf3");
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["text"], "N1 alice plans Nf3");
    assert!(r.body["saved_at"].is_string());
    let bob = log_in(app, "bob");
    let r = bob.follow(page_text(&bob, g, "notes", "N2 bob fears Bg5"));
    assert!(r.body.contains("Your notes are saved"), "{}", r.body);
    assert!(r.body.contains("N2 bob fears Bg5"), "{}", r.body);
    assert_eq!(notes(app, g, Some(&a)).body["text"], "N1 alice plans Nf3");
    assert_eq!(notes(app, g, Some(&b)).body["text"], "N2 bob fears Bg5");
    let alice = log_in(app, "alice");
    let carol = log_in(app, "carol");
    let both = ["N0 first draft", "N1 alice plans Nf3", "N2 bob fears Bg5"];
    let check = || {
        let seen = alice.get(&format!("/games/{g}")).body;
        assert!(seen.contains("N1 alice plans Nf3"), "{seen}");
        assert_reads_none(&seen, &["N0 first draft", "N2 bob fears Bg5"], "alice");
        let seen = bob.get(&format!("/games/{g}")).body;
        assert_reads_none(&seen, &["N0 first draft", "N1 alice plans Nf3"], "bob");
        // The game JSON carries nobody's notes, not even to their author.
        for token in [Some(a.as_str()), Some(b.as_str()), Some(c.as_str()), None] {
            let api = app.get(&format!("/api/v1/games/{g}"), token);
            assert_reads_none(&api.body.to_string(), &both, "the game JSON");
        }
        assert_reads_none(&carol.get(&format!("/games/{g}")).body, &both, "carol");
        assert_reads_none(
            &app.browser().get(&format!("/games/{g}")).body,
            &both,
            "anon",
        );
        assert_reads_none(&pgn(app, g), &both, "the PGN");
        // Others' requests get nothing.
        let r = notes(app, g, Some(&c));
        assert_eq!(r.status, 403, "{}", r.body);
        assert_reads_none(&r.body.to_string(), &both, "carol's request");
        assert_eq!(notes(app, g, None).status, 401);
    };
    check();
    // The end of the game reveals no note.
    let r = action(app, g, Some(&a), json!({"action": "resign", "ply": 1}));
    assert_eq!(r.status, 200, "{}", r.body);
    check();
    // Notes can still be written after the end, and an empty text clears them.
    let r = put_note(app, g, Some(&a), "   ");
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["text"], "");
    assert!(r.body["saved_at"].is_null());
    let seen = alice.get(&format!("/games/{g}")).body;
    assert!(!seen.contains("N1 alice plans Nf3"), "{seen}");
    assert_eq!(notes(app, g, Some(&b)).body["text"], "N2 bob fears Bg5");
    assert_eq!(notes(app, g, Some(&a)).status, 200);
    assert_eq!(notes(app, 999_999, Some(&a)).status, 404);
}

fn an_attacker_reads_and_writes_nothing_that_is_not_theirs(app: &TestApp) {
    let (a, b, m) = (app.user("alice"), app.user("bob"), app.user("mallory"));
    let g = new_game(app, &a, &b, true);
    let r = app.post(
        &format!("/api/v1/games/{g}/moves"),
        Some(&a),
        json!({"move": "e4", "ply": 0, "comment": "S1 secret move comment"}),
    );
    assert_eq!(r.status, 200);
    let offer = json!({"action": "offer_draw", "ply": 1, "message": "S2 secret offer"});
    assert_eq!(action(app, g, Some(&a), offer).status, 200);
    assert_eq!(say(app, g, &b, "comment", "S3 secret comment").status, 200);
    assert_eq!(put_note(app, g, Some(&a), "S4 alice note").status, 200);
    assert_eq!(put_note(app, g, Some(&b), "S5 bob note").status, 200);
    let secrets = [
        "S1 secret move comment",
        "S2 secret offer",
        "S3 secret comment",
        "S4 alice note",
        "S5 bob note",
    ];
    let state = |token: &str| {
        let g = app.get(&format!("/api/v1/games/{g}"), Some(token)).body;
        json!([g["ply"], g["status"], g["draw_offer"], g["comments"]])
    };
    let before = state(&a);
    // Every API route, with Mallory's token.
    let mut answers = Vec::new();
    answers.push(app.get(&format!("/api/v1/games/{g}"), Some(&m)));
    answers.push(notes(app, g, Some(&m)));
    answers.push(put_note(app, g, Some(&m), "M overwrite"));
    for name in [
        "comment",
        "kibitz",
        "withdraw_draw",
        "accept_draw",
        "decline_draw",
        "offer_draw",
        "resign",
        "claim_draw",
    ] {
        let body = json!({"action": name, "ply": 1, "message": "M words"});
        answers.push(action(app, g, Some(&m), body));
    }
    answers.push(app.post(
        &format!("/api/v1/games/{g}/moves"),
        Some(&m),
        json!({"move": "e5", "ply": 1, "comment": "M words"}),
    ));
    for r in &answers[1..] {
        assert!(r.status == 403, "refused: {} {}", r.status, r.body);
    }
    for r in &answers {
        assert_reads_none(&r.body.to_string(), &secrets, "mallory's API answers");
    }
    // A bad token is refused rather than read as anonymous.
    let r = app.get(&format!("/api/v1/games/{g}"), Some("not-a-token"));
    assert_eq!(r.status, 401);
    // Every page route, in Mallory's browser.
    let mallory = log_in(app, "mallory");
    let page = mallory.get(&format!("/games/{g}"));
    assert_reads_none(&page.body, &secrets, "mallory's page");
    assert!(!page.body.contains(r#"id="notes-form""#));
    let csrf = hidden_value(&page.body, "csrf_token").unwrap();
    let mut pages = vec![
        page_text(&mallory, g, "notes", "M overwrite"),
        page_text(&mallory, g, "kibitz", "M words"),
    ];
    for name in ["comment", "withdraw_draw", "accept_draw", "resign"] {
        pages.push(mallory.post(
            &format!("/games/{g}"),
            &[
                ("csrf_token", &csrf),
                ("ply", "1"),
                ("action", name),
                ("move", ""),
                ("message", "M words"),
            ],
        ));
    }
    for p in &pages {
        assert_eq!(p.status, 403, "{}", p.body);
        assert_reads_none(&p.body, &secrets, "mallory's refused pages");
    }
    for path in [format!("/games/{g}.pgn"), format!("/games/{g}.fen")] {
        assert_reads_none(&mallory.get(&path).body, &secrets, "the exports");
    }
    // Nothing changed, nothing of Mallory's was stored.
    let after = state(&a);
    assert_eq!(before, after);
    assert_reads_none(&after.to_string(), &["M words", "M overwrite"], "alice");
    assert_eq!(notes(app, g, Some(&a)).body["text"], "S4 alice note");
    assert_eq!(notes(app, g, Some(&b)).body["text"], "S5 bob note");
}

fn over_long_and_empty_messages_are_refused_clearly(app: &TestApp) {
    let (a, b, c) = (app.user("alice"), app.user("bob"), app.user("carol"));
    let g = new_game(app, &a, &b, false);
    app.play_all(g, &a, &b, &["c4"]);
    let max = "é".repeat(2000);
    let long = "é".repeat(2001);
    for (token, kind) in [(&b, "comment"), (&c, "kibitz")] {
        let r = say(app, g, token, kind, &long);
        assert_eq!(r.status, 422, "{kind}: {}", r.body);
        let e = r.body["error"].as_str().unwrap();
        assert!(
            e.contains(&format!("the {kind} is too long: at most 2000 characters")),
            "{e}"
        );
        assert!(e.contains("2001"), "{e}");
        let r = say(app, g, token, kind, "  \n ");
        assert_eq!(r.status, 422, "{}", r.body);
        assert!(r.body["error"].as_str().unwrap().contains("empty"));
        // Exactly the limit (counted in characters, not bytes) is fine.
        assert_eq!(say(app, g, token, kind, &max).status, 200, "{kind}");
    }
    let r = put_note(app, g, Some(&a), &long);
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(
        r.body["error"]
            .as_str()
            .unwrap()
            .contains("the note is too long")
    );
    assert_eq!(put_note(app, g, Some(&a), &max).status, 200);
    // With a move, too: nothing is played.
    let r = app.post(
        &format!("/api/v1/games/{g}/moves"),
        Some(&b),
        json!({"move": "e5", "ply": 1, "comment": long}),
    );
    assert_eq!(r.status, 422);
    assert_eq!(ply_of(app, g), 1);
    // On the page the refusal is shown and what was typed is kept.
    let alice = log_in(app, "alice");
    let typed = format!("keep me {}", "x".repeat(2001));
    let r = page_text(&alice, g, "notes", &typed);
    assert_eq!(r.status, 422);
    assert!(r.body.contains("the note is too long"), "{}", r.body);
    assert!(r.body.contains(&typed), "the typed note is kept");
    let carol = log_in(app, "carol");
    let r = page_text(&carol, g, "kibitz", &typed);
    assert_eq!(r.status, 422);
    assert!(r.body.contains("the kibitz is too long"), "{}", r.body);
    assert!(r.body.contains(&typed));
    let r = page_action(&alice, g, "comment", "", "   ");
    assert_eq!(r.status, 422);
    assert!(r.body.contains("the comment is empty"), "{}", r.body);
    // The notes were not replaced by the refused text.
    assert_eq!(notes(app, g, Some(&a)).body["text"], max.as_str());
}

fn hostile_html_in_every_kind_is_shown_as_text(app: &TestApp) {
    let (a, b, c) = (app.user("alice"), app.user("bob"), app.user("carol"));
    let g = new_game(app, &a, &b, false);
    let alice = log_in(app, "alice");
    let bob = log_in(app, "bob");
    let carol = log_in(app, "carol");
    let with_move = "<script>alert('with a move')</script>";
    let alone = "<img src=x onerror=alert('alone')>";
    let kibitz = "<iframe src=\"javascript:alert('kibitz')\"></iframe>";
    let note = "</textarea><script>alert('note')</script>";
    let r = page_action(&alice, g, "move", "e4", with_move);
    assert_eq!(r.status, 303, "{}", r.body);
    let r = page_action(&bob, g, "comment", "", alone);
    assert_eq!(r.status, 303, "{}", r.body);
    assert_eq!(page_text(&carol, g, "kibitz", kibitz).status, 303);
    assert_eq!(page_text(&alice, g, "notes", note).status, 303);
    let raw = [
        "<script>alert(",
        "<img src=x",
        "<iframe",
        "</textarea><script>",
    ];
    let escaped = |s: &str| s.contains("&lt;script&gt;") || s.contains("&#60;script&#62;");
    // The players see the comments and Alice her note; Carol the comments and her kibitz.
    let seen = alice.get(&format!("/games/{g}")).body;
    assert_reads_none(&seen, &raw, "alice's page (as markup)");
    assert!(escaped(&seen), "{seen}");
    assert!(seen.contains("alert(&#39;note&#39;)") || seen.contains("alert(&#x27;note&#x27;)"));
    assert!(
        seen.contains("onerror=alert"),
        "the comment is there, as text"
    );
    let seen = carol.get(&format!("/games/{g}")).body;
    assert_reads_none(&seen, &raw, "carol's page (as markup)");
    assert!(
        seen.contains("&lt;iframe") || seen.contains("&#60;iframe"),
        "{seen}"
    );
    // After the end the kibitz reaches the players' pages, still as text.
    assert_eq!(
        action(app, g, Some(&b), json!({"action": "resign", "ply": 1})).status,
        200
    );
    let seen = bob.get(&format!("/games/{g}")).body;
    assert_reads_none(&seen, &raw, "bob's page after the end");
    assert!(
        seen.contains("&lt;iframe") || seen.contains("&#60;iframe"),
        "{seen}"
    );
    // JSON and PGN carry the text itself: data, for the reader to escape.
    let api = app.get(&format!("/api/v1/games/{g}"), Some(&c)).body;
    let texts: Vec<&str> = api["comments"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["text"].as_str().unwrap())
        .collect();
    assert_eq!(texts, vec![with_move, alone, kibitz]);
    assert_eq!(notes(app, g, Some(&a)).body["text"], note);
}

fn a_draw_offer_is_withdrawn_by_its_maker_only(app: &TestApp) {
    let (a, b) = (app.user("alice"), app.user("bob"));
    let g = new_game(app, &a, &b, false);
    app.play_all(g, &a, &b, &["e4", "e5"]);
    let act = |token: &str, name: &str, ply: i64, message: Option<&str>| {
        action(
            app,
            g,
            Some(token),
            json!({"action": name, "ply": ply, "message": message}),
        )
    };
    // Nothing to withdraw.
    let r = act(&a, "withdraw_draw", 2, None);
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(r.body["error"].as_str().unwrap().contains("no standing"));
    assert_eq!(act(&b, "offer_draw", 2, Some("draw?")).status, 200);
    // The opponent cannot withdraw it; a stale page cannot either.
    let r = act(&a, "withdraw_draw", 2, None);
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(act(&b, "withdraw_draw", 1, None).status, 409);
    assert_eq!(ply_of(app, g), 2);
    let r = act(&b, "withdraw_draw", 2, Some("W1 on second thought"));
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(r.body["draw_offer"].is_null());
    assert_reads(&r.body.to_string(), &["W1 on second thought"], "bob");
    let r = act(&a, "accept_draw", 2, None);
    assert_eq!(
        r.status, 422,
        "a withdrawn offer cannot be accepted: {}",
        r.body
    );
    assert_eq!(
        r.body["error"],
        "there is no draw offer from your opponent to answer"
    );
    // On the page: the maker is offered "Withdraw draw offer", the opponent accept / decline.
    let alice = log_in(app, "alice");
    let bob = log_in(app, "bob");
    let r = alice.follow(page_action(&alice, g, "offer_draw", "", ""));
    assert!(r.body.contains("You offered a draw."), "{}", r.body);
    assert!(r.body.contains(r#"value="withdraw_draw""#));
    assert!(!r.body.contains(r#"value="offer_draw""#));
    let seen = bob.get(&format!("/games/{g}")).body;
    assert!(seen.contains(r#"value="accept_draw""#), "{seen}");
    assert!(!seen.contains(r#"value="withdraw_draw""#));
    let r = alice.follow(page_action(&alice, g, "withdraw_draw", "", ""));
    assert!(
        r.body.contains("You withdrew your draw offer."),
        "{}",
        r.body
    );
    assert!(r.body.contains(r#"value="offer_draw""#));
    assert!(!r.body.contains("You have offered a draw."));
    let seen = bob.get(&format!("/games/{g}")).body;
    assert!(!seen.contains(r#"value="accept_draw""#), "{seen}");
    assert!(!seen.contains("alice offers a draw."));
    assert_eq!(
        app.get(&format!("/api/v1/games/{g}"), None).body["status"],
        "started"
    );
}

fn a_draw_offer_lapses_when_the_offerers_opponent_moves(app: &TestApp) {
    let (a, b) = (app.user("alice"), app.user("bob"));
    let g = new_game(app, &a, &b, false);
    app.play_all(g, &a, &b, &["e4", "e5"]);
    let offer = |token: &str, ply: i64| {
        action(
            app,
            g,
            Some(token),
            json!({"action": "offer_draw", "ply": ply}),
        )
    };
    // Alice offers, then makes her own move: her offer still stands for Bob.
    assert_eq!(offer(&a, 2).status, 200);
    let r = app.play(g, &a, "Nf3", 2);
    assert_eq!(r.body["draw_offer"], "white", "{}", r.body);
    // Bob moves instead of answering: the offer lapses.
    let r = app.play(g, &b, "Nc6", 3);
    assert_eq!(r.status, 200);
    assert!(r.body["draw_offer"].is_null(), "{}", r.body);
    let r = action(app, g, Some(&b), json!({"action": "accept_draw", "ply": 4}));
    assert_eq!(
        r.status, 422,
        "a lapsed offer cannot be accepted: {}",
        r.body
    );
    // The same the other way round, seen on Alice's page.
    assert_eq!(offer(&b, 4).status, 200);
    let alice = log_in(app, "alice");
    let seen = alice.get(&format!("/games/{g}")).body;
    assert!(seen.contains("bob offers a draw."), "{seen}");
    let r = alice.follow(page_action(&alice, g, "move", "Bb5", ""));
    assert!(r.body.contains("You played Bb5."), "{}", r.body);
    assert!(!r.body.contains("bob offers a draw."), "{}", r.body);
    assert!(!r.body.contains(r#"value="accept_draw""#));
    let game = app.get(&format!("/api/v1/games/{g}"), None).body;
    assert!(game["draw_offer"].is_null());
    assert_eq!(game["status"], "started");
}

fn comments_can_be_hidden_with_and_without_javascript(app: &TestApp) {
    let (a, b) = (app.user("alice"), app.user("bob"));
    let g = new_game(app, &a, &b, false);
    let r = app.post(
        &format!("/api/v1/games/{g}/moves"),
        Some(&a),
        json!({"move": "e4", "ply": 0, "comment": "H1 visible unless hidden"}),
    );
    assert_eq!(r.status, 200);
    let reader = app.browser();
    let path = format!("/games/{g}");
    let seen = reader.get(&path).body;
    assert!(seen.contains("H1 visible unless hidden"), "{seen}");
    assert!(seen.contains(">Hide Comments</a>"));
    assert!(seen.contains(&format!(r#"href="/games/{g}?comments=hide""#)));
    assert!(!seen.contains("Comments are hidden"));
    assert!(seen.contains(r#"data-rendered="yes""#));
    assert!(seen.contains(r#"src="/static/comments.js""#));
    // Without JavaScript: the link hides them, and the choice is remembered.
    let seen = reader.get(&format!("{path}?comments=hide&ply=1")).body;
    assert!(!seen.contains("H1 visible unless hidden"), "{seen}");
    assert!(seen.contains("Comments are hidden"));
    let show = format!("/games/{g}?comments=show&ply=1");
    let show_in_html = [show.replace('&', "&amp;"), show.replace('&', "&#38;")];
    assert!(
        show_in_html.iter().any(|h| seen.contains(h.as_str())),
        "{seen}"
    );
    assert!(!reader.get(&path).body.contains("H1 visible unless hidden"));
    let seen = reader.get(&format!("{path}?comments=show")).body;
    assert!(seen.contains("H1 visible unless hidden"), "{seen}");
    // Another browser is not affected.
    assert!(app.browser().get(&path).body.contains("H1 visible"));
    // The script behind the toggle is served.
    let (status, js) = app.get_text("/static/comments.js");
    assert_eq!(status, 200);
    assert!(js.contains("comments-hidden"));
}

fn a_server_notice_reaches_only_its_player(app: &TestApp) {
    use diesel::RunQueryDsl;
    let (a, b) = (app.user("alice"), app.user("bob"));
    let g = new_game(app, &a, &b, false);
    app.play_all(g, &a, &b, &["e4"]);
    // The server writes notices (a conditional line dropped) as rows of kind "notice", under
    // the game's lock, which counts the change in its revision (the record cache relies on it).
    let mut conn = app.state.pool.get().unwrap();
    assert!(slowfuse::db::lock_game(&mut conn, g).unwrap());
    let user_id: i64 = {
        use diesel::prelude::*;
        use slowfuse::schema::users;
        users::table
            .filter(users::username.eq("alice"))
            .select(users::id)
            .get_result(&mut **conn)
            .unwrap()
    };
    diesel::insert_into(slowfuse::schema::game_messages::table)
        .values(slowfuse::models::NewGameMessage {
            game_id: g,
            user_id,
            ply: 1,
            kind: "notice",
            body: "N-notice your line Nf3 was dropped",
            created_at: chrono::Utc::now().naive_utc(),
        })
        .execute(&mut **conn)
        .unwrap();
    let secret = ["N-notice your line Nf3 was dropped"];
    let alice = log_in(app, "alice");
    let seen = seen_by(app, g, Some(&a), Some(&alice));
    assert_reads(&seen, &secret, "alice");
    assert!(seen.contains("Notice (only you see it)"), "{seen}");
    let bob = log_in(app, "bob");
    assert_reads_none(&seen_by(app, g, Some(&b), Some(&bob)), &secret, "bob");
    assert_reads_none(&seen_by(app, g, None, None), &secret, "anyone");
    assert_reads_none(&pgn(app, g), &secret, "the PGN");
    let r = action(app, g, Some(&b), json!({"action": "resign", "ply": 1}));
    assert_eq!(r.status, 200);
    assert_reads_none(
        &seen_by(app, g, None, None),
        &secret,
        "anyone after the end",
    );
    assert_reads_none(&pgn(app, g), &secret, "the PGN after the end");
}

fn hide_comments_toggles_at_once_with_javascript(app: &TestApp) {
    let Some(chromedriver) = webdriver::chromedriver_path() else {
        assert!(!common::under_ci(), "chromedriver must be installed in CI");
        eprintln!("SKIPPED: chromedriver not installed");
        return;
    };
    let (a, b) = (app.user("alice"), app.user("bob"));
    let g = new_game(app, &a, &b, false);
    let r = app.post(
        &format!("/api/v1/games/{g}/moves"),
        Some(&a),
        json!({"move": "e4", "ply": 0, "comment": "J1 a comment"}),
    );
    assert_eq!(r.status, 200);
    let driver = webdriver::Driver::start(&chromedriver);
    let window = driver.session(1200, 900);
    window.goto(&format!("{}/games/{g}", app.base));
    window.wait_for_text(".movelist .comment", "J1 a comment");
    let shown = || {
        window.execute(
            "const c = document.querySelector('.movelist .comment');
             return c !== null && getComputedStyle(c).display !== 'none';",
            json!([]),
        )
    };
    assert_eq!(shown(), json!(true));
    // A click hides the comments without loading a page, and stores the choice.
    let before = window.url();
    window.find("#comments-toggle").click();
    window.wait_for(r#"#comments-toggle[aria-selected="true"]"#);
    assert_eq!(shown(), json!(false));
    assert_eq!(window.url(), before, "no page was loaded");
    window.find("#comments-toggle").click();
    window.wait_for(r#"#comments-toggle[aria-selected="false"]"#);
    assert_eq!(shown(), json!(true));
    window.find("#comments-toggle").click();
    window.wait_for(r#"#comments-toggle[aria-selected="true"]"#);
    // Stored in the order clicked (the last click wins), then kept on the next page: the
    // comments are not even sent.
    window.wait_for(r#"#comments-toggle[data-stored="yes"]"#);
    window.wait_until("the choice stored", || {
        window.goto(&format!("{}/games/{g}", app.base));
        window
            .find_all(".movelist .comment")
            .is_empty()
            .then_some(())
    });
    // The tab, clicked again, then loads them.
    window.find("#comments-toggle").click();
    window.wait_for_text(".movelist .comment", "J1 a comment");
    assert_eq!(shown(), json!(true));
}
