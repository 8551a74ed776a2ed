//! Minesweeper on the site, on SQLite and (when configured) PostgreSQL: the challenge with its
//! options, the setup (placing, replacing, refusals, the game starting when both are placed),
//! moves during the setup refused, a count told to its player only, a blast seen by everyone,
//! and everything shown after the end.
//!
//! The no-leak test plays two games whose public course is the same and whose hidden bombs
//! differ, and asks every route as every reader that is not entitled to the bombs (the
//! opponent, a spectator, a visitor): each answer must be the same byte for byte for both games
//! (once the game's id is set aside), in every phase up to the end. A bomb or count in any
//! notation — a square name, an index, a coordinate in a drawing, a class, a timing word —
//! would make the two answers differ.

use crate::common;

use common::{Browser, TestApp};
use serde_json::{Value, json};
use sha2::Digest as _;
use slowfuse::clock::FixedClock;

on_both_databases_at_t0!(
    a_game_goes_from_the_setup_through_a_count_and_a_blast_to_the_end,
    bad_placements_and_early_moves_are_refused_and_change_nothing,
    no_bomb_and_no_count_reaches_anyone_not_entitled_before_the_end,
    at_the_setup_deadline_the_server_places_what_is_missing_and_the_game_starts,
    the_page_offers_only_the_draw_actions_that_can_be_done,
    the_page_has_the_game_pages_parts_and_each_reader_steps_through_only_what_they_may_know,
);

/// White's bombs (ranks 1–4): d3 is where Black's queen will land and go up.
const WHITE_BOMBS: [&str; 8] = ["a3", "b3", "d3", "g3", "h3", "a4", "b4", "h4"];
/// Black's bombs (ranks 5–8): c6 is next to d5, where White's pawn arrives (a count of 1).
const BLACK_BOMBS: [&str; 8] = ["a6", "b6", "c6", "g6", "h6", "a5", "b5", "h5"];
/// The moves: 1. e4 d5 2. exd5 (White told 1 at d5) Qxd5 3. Nc3 Qd3 (a blast on d3).
const MOVES: [&str; 6] = ["e4", "d5", "exd5", "Qxd5", "Nc3", "Qd3"];

struct Players {
    alice: String,
    bob: String,
}

/// alice (White) challenges bob to minesweeper with the players placing their bombs.
fn new_game(app: &TestApp, players: &Players, options: &str) -> i64 {
    app.game_from(
        &players.alice,
        &players.bob,
        json!({"variant": "minesweeper", "minesweeper": options, "color": "white", "days_per_move": 3, "setup_hours": 24}),
    )
}

fn put_bombs(app: &TestApp, g: i64, token: &str, squares: &[&str]) -> common::Reply {
    app.post_method(
        "PUT",
        &format!("/api/v1/games/{g}/bombs"),
        Some(token),
        json!({ "squares": squares }),
    )
}

fn game_json(app: &TestApp, g: i64, token: Option<&str>) -> Value {
    let r = app.get(&format!("/api/v1/games/{g}"), token);
    assert_eq!(r.status, 200, "{}", r.body);
    r.body
}

fn a_game_goes_from_the_setup_through_a_count_and_a_blast_to_the_end(
    app: &TestApp,
    _clock: &FixedClock,
) {
    let p = Players {
        alice: app.user("alice"),
        bob: app.user("bob"),
    };
    let g = new_game(app, &p, "chosen");
    let j = game_json(app, g, None);
    assert_eq!(j["status"], "setup");
    assert_eq!(j["phase"], "setup");
    assert_eq!(j["minesweeper"], "chosen");
    assert_eq!(j["setup_deadline_at"], "2026-03-02T12:00:00+00:00");
    assert_eq!(j["counts"], json!([]));
    assert_eq!(j["blasts"], json!([]));
    assert!(j.get("bombs").is_none());

    // alice places five, then all eight; bob's placement starts the game.
    let r = put_bombs(app, g, &p.alice, &WHITE_BOMBS[..5]);
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(
        r.body,
        json!({"squares": ["a3", "b3", "d3", "g3", "h3"], "complete": false})
    );
    let r = put_bombs(app, g, &p.alice, &WHITE_BOMBS);
    assert_eq!(r.body["complete"], true);
    assert_eq!(
        app.get(&format!("/api/v1/games/{g}/bombs"), Some(&p.alice))
            .body["squares"],
        json!(["a3", "b3", "d3", "g3", "h3", "a4", "b4", "h4"])
    );
    assert_eq!(game_json(app, g, None)["phase"], "setup");
    let r = put_bombs(app, g, &p.bob, &BLACK_BOMBS);
    assert_eq!(r.body["complete"], true, "{}", r.body);
    let j = game_json(app, g, None);
    assert_eq!(j["phase"], "play");
    assert_eq!(j["status"], "started");
    assert_eq!(j["setup_deadline_at"], Value::Null);
    // Placing after the setup: 409.
    assert_eq!(put_bombs(app, g, &p.alice, &WHITE_BOMBS).status, 409);

    for (ply, mv) in MOVES.iter().enumerate() {
        let token = if ply % 2 == 0 { &p.alice } else { &p.bob };
        let r = app.play(g, token, mv, ply as i64);
        assert_eq!(r.status, 200, "{mv}: {}", r.body);
    }
    // alice was told one bomb next to d5 at ply 3; bob was told nothing; the blast is public.
    let alice = game_json(app, g, Some(&p.alice));
    assert_eq!(
        alice["counts"],
        json!([{"ply": 3, "square": "d5", "count": 1}])
    );
    let bob = game_json(app, g, Some(&p.bob));
    assert_eq!(bob["counts"], json!([]));
    for j in [&alice, &bob, &game_json(app, g, None)] {
        assert_eq!(j["blasts"], json!([{"ply": 6, "square": "d3"}]));
    }
    let placement = alice["fen"].as_str().unwrap().split(' ').next().unwrap();
    let ranks: Vec<&str> = placement.split('/').collect();
    assert!(
        !placement.contains('q') && ranks[5] == "8" && ranks[6] == "PP3PPP",
        "the queen went up with the bomb, and the knight and pawns beside it: {placement}"
    );

    // bob resigns: every bomb and count is shown to everyone, and in the PGN.
    let r = app.post(
        &format!("/api/v1/games/{g}/actions"),
        Some(&p.bob),
        json!({"action": "resign", "ply": 6}),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let j = game_json(app, g, None);
    assert_eq!(j["phase"], "over");
    assert_eq!(j["result"], "1-0");
    let mut shown: Vec<String> = j["bombs"]["white"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect();
    shown.sort();
    let mut placed: Vec<String> = WHITE_BOMBS.iter().map(|s| s.to_string()).collect();
    placed.sort();
    assert_eq!(shown, placed);
    assert_eq!(j["bombs"]["black"].as_array().unwrap().len(), 8);
    assert_eq!(j["counts"], json!([{"ply": 3, "square": "d5", "count": 1}]));
    let (status, pgn) = app.get_text(&format!("/games/{g}.pgn"));
    assert_eq!(status, 200);
    assert!(pgn.contains("[Variant \"Minesweeper\"]"), "{pgn}");
    assert!(pgn.contains("[WhiteBombs "), "{pgn}");
    assert!(pgn.contains("[%count d5 1]"), "{pgn}");
}

fn bad_placements_and_early_moves_are_refused_and_change_nothing(
    app: &TestApp,
    _clock: &FixedClock,
) {
    let p = Players {
        alice: app.user("alice"),
        bob: app.user("bob"),
    };
    let carol = app.user("carol");
    let g = new_game(app, &p, "chosen");
    assert_eq!(put_bombs(app, g, &p.alice, &WHITE_BOMBS[..3]).status, 200);
    let before = app
        .get(&format!("/api/v1/games/{g}/bombs"), Some(&p.alice))
        .body;
    for (squares, why) in [
        (vec!["e5"], "off her half"),
        (vec!["a3", "a3"], "a square twice"),
        (
            vec!["a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1", "a2"],
            "too many",
        ),
        (vec!["z9"], "not a square"),
    ] {
        let r = put_bombs(app, g, &p.alice, &squares);
        assert_eq!(r.status, 422, "{why}: {}", r.body);
        assert!(r.body["error"].is_string());
    }
    assert_eq!(
        app.get(&format!("/api/v1/games/{g}/bombs"), Some(&p.alice))
            .body,
        before,
        "nothing changed"
    );
    // Someone else's game, someone else's bombs, no token.
    assert_eq!(put_bombs(app, g, &carol, &["a6"]).status, 403);
    assert_eq!(
        app.get(&format!("/api/v1/games/{g}/bombs"), Some(&carol))
            .status,
        403
    );
    assert_eq!(
        app.get(&format!("/api/v1/games/{g}/bombs"), None).status,
        401
    );
    // No move during the setup.
    let r = app.play(g, &p.alice, "e4", 0);
    assert_eq!(r.status, 409, "{}", r.body);
    assert!(
        r.body["error"]
            .as_str()
            .unwrap()
            .contains("still being placed")
    );
    // Options that are none, a setup too long.
    for body in [
        json!({"variant": "minesweeper", "minesweeper": "everywhere", "color": "white", "days_per_move": 3}),
        json!({"variant": "minesweeper", "color": "white", "days_per_move": 3, "setup_hours": 0}),
    ] {
        let r = app.post("/api/v1/challenges", Some(&p.alice), body);
        assert_eq!(r.status, 422, "{}", r.body);
    }
    // Bombs placed at random by the server: nothing to place, the game starts at once, and
    // with random_hidden not even their owner may read them.
    let g2 = new_game(app, &p, "random_hidden");
    assert_eq!(game_json(app, g2, None)["phase"], "play");
    assert_eq!(put_bombs(app, g2, &p.alice, &WHITE_BOMBS).status, 409);
    assert_eq!(
        app.get(&format!("/api/v1/games/{g2}/bombs"), Some(&p.alice))
            .status,
        403
    );
}

/// What a reader gets from a route, with the game's own id made neutral.
fn answer(reader: &Reader, app: &TestApp, path: &str, g: i64) -> String {
    let path = path.replace("{g}", &g.to_string());
    if path.contains(".png") || path.contains(".gif") {
        // A raster picture: its bytes, each one (no id in it either).
        let request = match reader {
            Reader::Token(token) => app
                .client
                .get(format!("{}{path}", app.base))
                .bearer_auth(token),
            Reader::Browser(browser) => browser.client.get(format!("{}{path}", browser.base)),
            Reader::Visitor => app.client.get(format!("{}{path}", app.base)),
        };
        let r = request.send().expect("request");
        let status = r.status().as_u16();
        let bytes = r.bytes().unwrap_or_default();
        let digest: String = sha2::Sha256::digest(&bytes)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        return format!("{status}\n{} bytes, SHA-256 {digest}", bytes.len());
    }
    let (status, text) = match reader {
        Reader::Token(token) => {
            let r = app
                .client
                .get(format!("{}{path}", app.base))
                .bearer_auth(token)
                .send()
                .expect("request");
            (r.status().as_u16(), r.text().unwrap_or_default())
        }
        Reader::Browser(browser) => {
            let page = browser.get(&path);
            (page.status, page.body)
        }
        Reader::Visitor => app.get_text(&path),
    };
    if path.contains(".svg") {
        // A picture holds no id (and its colours and path data would look like one).
        return format!("{status}\n{text}");
    }
    let neutral = text
        .replace(&format!("/games/{g}"), "/games/ID")
        .replace(&format!("\"id\":{g}"), "\"id\":ID")
        .replace(&format!("\"game_id\":{g}"), "\"game_id\":ID")
        .replace(&format!("#{g}"), "#ID")
        .replace(&format!("game {g}"), "game ID")
        .replace(&format!("slowfuse-{g}."), "slowfuse-ID.")
        .replace(&format!(r#"data-game="{g}""#), r#"data-game="ID""#)
        .replace(&format!("after={g}"), "after=ID");
    format!("{status}\n{neutral}")
}

enum Reader {
    Token(String),
    Browser(Browser),
    Visitor,
}

/// Every route a reader may ask about a game.
const ROUTES: [&str; 20] = [
    "/api/v1/games/{g}",
    "/api/v1/games/{g}/bombs",
    "/api/v1/games/{g}/analysis",
    "/api/v1/games/{g}/conditional",
    "/api/v1/games/{g}/notes",
    "/api/v1/games/{g}/tags",
    "/games/{g}",
    "/games/{g}?ply=3",
    "/games/{g}?flip=1",
    "/games/{g}.pgn",
    "/games/{g}.bpgn",
    "/games/{g}.fen",
    "/games/{g}.fen?ply=0",
    "/games/{g}.svg",
    "/games/{g}.svg?ply=5&flip=1",
    "/games/{g}.png",
    "/games/{g}.png?ply=5&flip=1",
    "/games/{g}.gif",
    "/games/{g}/plies.json",
    "/games/{g}/analysis.json",
];

fn no_bomb_and_no_count_reaches_anyone_not_entitled_before_the_end(
    app: &TestApp,
    _clock: &FixedClock,
) {
    let p = Players {
        alice: app.user("alice"),
        bob: app.user("bob"),
    };
    let carol = app.user("carol");
    // Two games with the same course; alice's bombs differ between them (d3, where the blast
    // will be, is in both; none of the others is ever reached).
    let other_white = ["c3", "e3", "d3", "f3", "c4", "e4", "f4", "g4"];
    let one = new_game(app, &p, "chosen");
    let two = new_game(app, &p, "chosen");
    assert_eq!(put_bombs(app, one, &p.alice, &WHITE_BOMBS).status, 200);
    assert_eq!(put_bombs(app, two, &p.alice, &other_white).status, 200);

    let readers = [
        ("bob (API)", Reader::Token(p.bob.clone())),
        ("carol (API)", Reader::Token(carol.clone())),
        ("bob (page)", Reader::Browser(app.logged_in("bob"))),
        ("carol (page)", Reader::Browser(app.logged_in("carol"))),
        ("a visitor", Reader::Visitor),
    ];
    let same_for_all = |phase: &str| {
        for (who, reader) in &readers {
            for route in ROUTES {
                let a = answer(reader, app, route, one);
                let b = answer(reader, app, route, two);
                assert_eq!(
                    a, b,
                    "{phase}: {who} on {route} learns something of alice's bombs"
                );
            }
        }
    };
    same_for_all("setup, alice placed");

    // bob places the same bombs in both: the games start.
    for g in [one, two] {
        assert_eq!(put_bombs(app, g, &p.bob, &BLACK_BOMBS).status, 200);
    }
    same_for_all("play, no move yet");
    for (ply, mv) in MOVES.iter().enumerate() {
        for g in [one, two] {
            let token = if ply % 2 == 0 { &p.alice } else { &p.bob };
            let r = app.play(g, token, mv, ply as i64);
            assert_eq!(r.status, 200, "{mv}: {}", r.body);
        }
        same_for_all(&format!("after {mv}"));
    }
    // A refused move says the same in both games.
    for g in [one, two] {
        let r = app.play(g, &p.alice, "Ke3", 6);
        assert_eq!(r.status, 422, "{}", r.body);
    }
    assert_eq!(
        app.play(one, &p.bob, "Kd7", 6).body,
        app.play(two, &p.bob, "Kd7", 6).body,
        "a refusal tells nothing of the bombs"
    );
    // alice's own count and bombs are hers: her answers do differ, and show them.
    let alice_one = game_json(app, one, Some(&p.alice));
    assert_eq!(
        alice_one["counts"],
        json!([{"ply": 3, "square": "d5", "count": 1}])
    );
    let page = app.logged_in("alice").get(&format!("/games/{one}")).body;
    assert!(
        page.contains(", 1 bombs around"),
        "alice's page shows her count"
    );
    assert_eq!(
        page.matches("own-bomb").count(),
        8,
        "and her eight bombs, the spent one too"
    );
    assert!(
        page.contains(&format!(r#"id="next-game" href="/next?after={one}""#)),
        "Next Game, as on every game page"
    );
    assert!(
        page.contains("<li>2... <a href=?ply=4>Qxd5</a>"),
        "Black's reply after White's count keeps its number"
    );
    assert_eq!(
        game_json(app, one, Some(&carol))["counts"],
        json!([]),
        "a spectator is told no count"
    );

    // After the end everything is shown, and the two games differ as they should.
    for g in [one, two] {
        let r = app.post(
            &format!("/api/v1/games/{g}/actions"),
            Some(&p.bob),
            json!({"action": "resign", "ply": 6}),
        );
        assert_eq!(r.status, 200, "{}", r.body);
    }
    let shown = game_json(app, two, None);
    assert_eq!(shown["bombs"]["white"].as_array().unwrap().len(), 8);
    assert!(
        shown["bombs"]["white"]
            .as_array()
            .unwrap()
            .contains(&json!("c3"))
    );
    let (_, pgn) = app.get_text(&format!("/games/{two}.pgn"));
    assert!(
        pgn.contains("c3"),
        "the PGN shows the bombs after the end: {pgn}"
    );
}

fn at_the_setup_deadline_the_server_places_what_is_missing_and_the_game_starts(
    app: &TestApp,
    clock: &FixedClock,
) {
    let p = Players {
        alice: app.user("alice"),
        bob: app.user("bob"),
    };
    let g = new_game(app, &p, "chosen");
    assert_eq!(put_bombs(app, g, &p.alice, &["a3", "b3", "d3"]).status, 200);
    let run_worker = || {
        actix_web::rt::System::new()
            .block_on(slowfuse::worker::run_once(&app.state.worker()))
            .unwrap()
    };
    clock.advance(chrono::Duration::hours(23));
    run_worker();
    assert_eq!(
        game_json(app, g, None)["phase"],
        "setup",
        "not before the deadline"
    );
    clock.advance(chrono::Duration::hours(1));
    run_worker();
    let j = game_json(app, g, None);
    assert_eq!(j["phase"], "play");
    assert_eq!(j["turn"], "white");
    assert!(j["deadline_at"].is_string(), "White's clock runs: {j}");
    // alice keeps the three she chose; both have all eight now.
    let hers = app
        .get(&format!("/api/v1/games/{g}/bombs"), Some(&p.alice))
        .body;
    let hers: Vec<&str> = hers["squares"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect();
    assert_eq!(hers.len(), 8, "{hers:?}");
    for kept in ["a3", "b3", "d3"] {
        assert!(hers.contains(&kept), "{kept} kept: {hers:?}");
    }
    let his = app
        .get(&format!("/api/v1/games/{g}/bombs"), Some(&p.bob))
        .body;
    assert_eq!(his["squares"].as_array().unwrap().len(), 8);
    assert_eq!(app.play(g, &p.alice, "e4", 0).status, 200);
}

/// The page's action list follows the draw offer standing (and a claim only when one holds):
/// nothing to accept or decline at the start.
fn the_page_offers_only_the_draw_actions_that_can_be_done(app: &TestApp, _clock: &FixedClock) {
    let alice = app.user("alice");
    let bob = app.user("bob");
    let g = app.game_from(
        &alice,
        &bob,
        json!({"variant": "minesweeper", "minesweeper": "random", "color": "white", "days_per_move": 3, "opponent": null}),
    );
    let options = |name: &str| {
        let page = app.logged_in(name).get(&format!("/games/{g}")).body;
        [
            "offer_draw",
            "accept_draw",
            "decline_draw",
            "withdraw_draw",
            "claim_draw",
        ]
        .into_iter()
        .filter(|a| page.contains(&format!(r#"<option value="{a}">"#)))
        .collect::<Vec<_>>()
    };
    assert_eq!(options("alice"), ["offer_draw"]);
    let r = app.post(
        &format!("/api/v1/games/{g}/actions"),
        Some(&bob),
        json!({"action": "offer_draw", "ply": 0}),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(options("alice"), ["accept_draw", "decline_draw"]);
    assert_eq!(options("bob"), ["withdraw_draw"]);
}

/// The squares of the game page's board whose `class` holds `mark` (`own-bomb`, `blast-spent`).
fn marked(page: &str, mark: &str) -> Vec<String> {
    let mut squares: Vec<String> = page
        .split(r#"<div class="sq "#)
        .skip(1)
        .filter_map(|tag| {
            let (classes, rest) = tag.split_once('"')?;
            let square = rest.split(r#"data-square=""#).nth(1)?.get(0..2)?;
            classes
                .split(' ')
                .any(|c| c == mark)
                .then(|| square.to_string())
        })
        .collect();
    squares.sort();
    squares
}

/// The counts the board tells its reader, as "d5 1".
fn counts_told(page: &str) -> Vec<String> {
    page.split(r#"aria-label=""#)
        .skip(1)
        .filter_map(|label| {
            let label = label.split('"').next()?;
            let n = label.strip_suffix(" bombs around")?.rsplit(", ").next()?;
            Some(format!("{} {n}", label.get(0..2)?))
        })
        .collect()
}

fn sorted(squares: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = squares.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

fn the_page_has_the_game_pages_parts_and_each_reader_steps_through_only_what_they_may_know(
    app: &TestApp,
    _clock: &FixedClock,
) {
    let p = Players {
        alice: app.user("alice"),
        bob: app.user("bob"),
    };
    app.user("carol");
    let g = new_game(app, &p, "chosen");
    assert_eq!(put_bombs(app, g, &p.alice, &WHITE_BOMBS).status, 200);
    assert_eq!(put_bombs(app, g, &p.bob, &BLACK_BOMBS).status, 200);
    for (ply, mv) in MOVES.iter().enumerate() {
        let token = if ply % 2 == 0 { &p.alice } else { &p.bob };
        assert_eq!(app.play(g, token, mv, ply as i64).status, 200, "{mv}");
    }
    let alice = app.logged_in("alice");
    let bob = app.logged_in("bob");
    let carol = app.logged_in("carol");
    let visitor = app.browser();
    let page = |who: &common::Browser, query: &str| {
        let page = who.get(&format!("/games/{g}{query}"));
        assert_eq!(page.status, 200, "{query}: {}", page.body);
        page.body
    };

    // alice, to move: the players with their clocks, the time left, the action bar with
    // Continue and Next Game (and only what minesweeper offers), a board to move on, the
    // navigation toolbar and the tabs.
    let hers = page(&alice, "");
    for part in [
        r#"<span class="clock" id="white-clock">"#,
        r#"<span class="clock" id="black-clock">"#,
        r#"id="time-left">Time left for alice: "#,
        r#"<form id="action-form" class="action-bar""#,
        r#"<button class="btn btn-primary" type="submit">Continue</button>"#,
        r#"data-can-move="true""#,
        r#"data-my-turn="true""#,
        r#"id="nav-toolbar""#,
        r#"data-last-ply="6""#,
        r#"id="nav-prev" aria-label="Previous move" title="Previous move" href="/games/ID?ply=5""#,
        r#"id="tab-variant""#,
        r#"id="share-fen""#,
    ] {
        let part = part.replace("ID", &g.to_string());
        assert!(hers.contains(&part), "alice's page lacks {part}");
    }
    assert!(hers.contains(&format!(r#"id="next-game" href="/next?after={g}""#)));
    assert!(hers.contains(r#"data-legal=""#) && hers.contains("g1f3"));
    for not_offered in [
        r#"value="conditional_move""#,
        r#"value="comment""#,
        r#"value="move_offer_draw""#,
        r#"id="message-input""#,
    ] {
        assert!(!hers.contains(not_offered), "{not_offered} is not offered");
    }
    // bob waits: his board does not move, no legal moves are sent to him.
    let his = page(&bob, "");
    assert!(his.contains(r#"data-my-turn="false""#) && !his.contains("data-legal="));
    assert!(his.contains(r#"id="action-form""#) && !his.contains(r#"id="move-input""#));

    // Every ply, as each reader sees it: the position and the public blasts; alice's bombs and
    // count only to alice; bob's bombs only to bob.
    let readers = [
        ("alice", &alice, sorted(&WHITE_BOMBS)),
        ("bob", &bob, sorted(&BLACK_BOMBS)),
        ("carol", &carol, Vec::new()),
        ("a visitor", &visitor, Vec::new()),
    ];
    for (who, browser, own) in &readers {
        let plies = browser.get(&format!("/games/{g}/plies.json"));
        assert_eq!(plies.status, 200, "{who}: {}", plies.body);
        let plies: Value = serde_json::from_str(&plies.body).unwrap();
        assert_eq!(plies["last_ply"], 6);
        for ply in 0..=6u32 {
            let at = page(browser, &format!("?ply={ply}"));
            let shown = &plies["plies"][ply as usize];
            assert_eq!(&marked(&at, "own-bomb"), own, "{who} at ply {ply}");
            let mut bombs: Vec<String> = shown["mines"]["bombs"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s.as_str().unwrap().to_string())
                .collect();
            bombs.sort();
            assert_eq!(&bombs, own, "{who}'s plies at {ply}");
            let blasted: Vec<String> = if ply >= 6 { vec!["d3".into()] } else { vec![] };
            assert_eq!(marked(&at, "blast-spent"), blasted, "{who} at ply {ply}");
            assert_eq!(shown["mines"]["spent"], json!(blasted), "{who} at {ply}");
            let told = if *who == "alice" && ply >= 3 {
                vec!["d5 1".to_string()]
            } else {
                vec![]
            };
            assert_eq!(counts_told(&at), told, "{who} at ply {ply}");
            let counts = if told.is_empty() {
                json!([])
            } else {
                json!([["d5", 1]])
            };
            assert_eq!(shown["mines"]["counts"], counts, "{who}'s plies at {ply}");
            assert!(
                at.contains(&format!(r#"data-view-ply="{ply}""#)),
                "{who} {ply}"
            );
        }
        // The position at a ply: White's pawn reached d5 at ply 3; the blast at ply 6 cleared
        // the queen on d3 and the pieces beside it.
        let at3 = page(browser, "?ply=3");
        assert!(at3.contains(r#"aria-label="d5, white pawn"#), "{who}");
        assert_eq!(
            plies_board(browser, g, 6),
            "rnb1kbnr/ppp1pppp/8/8/8/8/PP3PPP/R1BQKBNR"
        );
        let at6 = page(browser, "?ply=6");
        assert_eq!(marked(&at6, "exploded"), ["c2", "c3", "d2", "d3"], "{who}");
    }
    // Spectators and visitors have no action bar to use; a logged-in one has Next Game.
    let spectator = page(&carol, "");
    assert!(!spectator.contains(r#"id="action-form""#));
    assert!(spectator.contains(r#"id="next-game""#));
    assert!(spectator.contains(r#"id="time-left">Time left for alice: "#));
    assert!(!page(&visitor, "").contains(r#"id="next-game""#));

    // After the end, everyone steps through every bomb and count.
    let r = app.post(
        &format!("/api/v1/games/{g}/actions"),
        Some(&p.bob),
        json!({"action": "resign", "ply": 6}),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let plies: Value =
        serde_json::from_str(&visitor.get(&format!("/games/{g}/plies.json")).body).unwrap();
    assert_eq!(
        plies["plies"][0]["mines"]["bombs"]
            .as_array()
            .unwrap()
            .len(),
        16
    );
    assert_eq!(plies["plies"][3]["mines"]["counts"], json!([["d5", 1]]));
    assert_eq!(counts_told(&page(&visitor, "?ply=4")), ["d5 1"]);
    assert_eq!(marked(&page(&visitor, "?ply=1"), "own-bomb").len(), 16);
}

/// The pieces of ply `ply` in the navigation's plies, as `who` gets them.
fn plies_board(who: &common::Browser, g: i64, ply: usize) -> String {
    let plies: Value =
        serde_json::from_str(&who.get(&format!("/games/{g}/plies.json")).body).expect("plies JSON");
    plies["plies"][ply]["board"].as_str().unwrap().to_string()
}
