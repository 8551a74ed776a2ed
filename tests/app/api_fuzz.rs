//! Hostile JSON bodies against every API route that reads one, on both databases: thousands
//! of bodies made from a fixed seed (wrong types, extreme numbers, long and odd strings, deep
//! nesting, broken JSON, bytes that are not UTF-8, a wrong content type), each sent by a
//! player of the games involved. No answer may be a server failure (5xx); every refusal is the
//! API's JSON error with a message; afterwards the server still answers and every game still
//! reads whole (its ply and moves agree, its page opens). The same seed gives the same bodies on
//! every run, so a failure can be replayed; `SLOWFUSE_FUZZ_BODIES` sets how many bodies a route
//! gets (default 120).

use crate::common;

use common::TestApp;
use serde_json::{Map, Value, json};

/// A small deterministic generator (xorshift64*), so that a failing body can be made again.
struct Chance(u64);

impl Chance {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// The field names the API's bodies use, and a few it does not.
const FIELDS: &[&str] = &[
    "move",
    "ply",
    "comment",
    "board",
    "action",
    "message",
    "variant",
    "color",
    "level",
    "days_per_move",
    "opponent",
    "seat",
    "rated",
    "lines",
    "username",
    "email",
    "password",
    "value",
    "bombs",
    "squares",
    "start",
    "end",
    "fen",
    "moves",
    "tree",
    "time_control",
    "initial_seconds",
    "increment_seconds",
    "days",
    "kind",
    "mode",
    "theme",
    "piece_set",
    "coordinates",
    "confirm_moves",
    "animation",
    "fill_with_computer",
    "__proto__",
    "",
];

/// Strings a client may send: moves, names, markup, controls, the very long.
fn string(chance: &mut Chance) -> String {
    let plain = [
        "",
        "e4",
        "e2e4",
        "Nf3",
        "O-O",
        "P@e4",
        "e7e8q",
        "a1a1",
        "resign",
        "offer_draw",
        "takeback",
        "give_time",
        "white",
        "black",
        "random",
        "easy",
        "hard",
        "atomic",
        "bughouse",
        "minesweeper",
        "A1",
        "b",
        "e4 e5; d4",
        "8/8/8/8/8/8/8/8 w - - 0 1",
        "<script>alert(1)</script>",
        "\"quoted\"",
        "ä€😀",
        "\u{0}",
        "\u{202e}rtl",
        "%00",
        "../..",
        "NaN",
        "-1",
        "9999999999999999999999",
    ];
    match chance.below(6) {
        0 => "x".repeat(1 + chance.below(70_000)),
        1 => (0..chance.below(40))
            .map(|_| char::from_u32(chance.below(0x3000) as u32).unwrap_or('?'))
            .collect(),
        _ => chance.pick(&plain).to_string(),
    }
}

/// A JSON value of any kind, nested at most `depth` deep.
fn value(chance: &mut Chance, depth: usize) -> Value {
    match chance.below(if depth == 0 { 6 } else { 9 }) {
        0 => Value::Null,
        1 => Value::Bool(chance.below(2) == 0),
        2 => json!(*chance.pick(&[
            0i64,
            1,
            -1,
            2,
            40,
            300,
            100_000,
            i64::MAX,
            i64::MIN,
            i32::MAX as i64 + 1
        ])),
        3 => json!(*chance.pick(&[0.5f64, -0.0, 1e308, -1e308, 2.5e-308, 1.8e19])),
        4 | 5 => Value::String(string(chance)),
        6 => Value::Array(
            (0..chance.below(5))
                .map(|_| value(chance, depth - 1))
                .collect(),
        ),
        _ => object(chance, depth - 1),
    }
}

/// An object with some of the API's field names (and maybe others).
fn object(chance: &mut Chance, depth: usize) -> Value {
    let mut map = Map::new();
    for _ in 0..chance.below(7) {
        map.insert(chance.pick(FIELDS).to_string(), value(chance, depth));
    }
    Value::Object(map)
}

/// A body: mostly JSON objects; sometimes deep nesting, broken text or bytes that are not
/// UTF-8, or a content type that is not JSON. The content type and the bytes.
fn body(chance: &mut Chance) -> (&'static str, Vec<u8>) {
    const JSON: &str = "application/json";
    match chance.below(12) {
        0 => (JSON, b"{\"move\": \"e4\", \"ply\":".to_vec()),
        1 => (JSON, vec![b'{', b'"', 0xff, 0xfe, b'"', b':', b'1', b'}']),
        2 => {
            let depth = 50 + chance.below(400);
            let text = "[".repeat(depth) + &"]".repeat(depth);
            (JSON, text.into_bytes())
        }
        3 => ("text/plain", b"{\"move\":\"e4\",\"ply\":0}".to_vec()),
        4 => (JSON, serde_json::to_vec(&value(chance, 3)).unwrap()),
        _ => (JSON, serde_json::to_vec(&object(chance, 3)).unwrap()),
    }
}

/// The world the bodies are sent into: two players' tokens, a running game, a finished one, a
/// minesweeper game in its setup, an open challenge; and the routes to try, by method and path.
struct World {
    white: String,
    black: String,
    running: i64,
    routes: Vec<(&'static str, String, bool)>,
}

fn world(app: &TestApp) -> World {
    let white = app.user("fuzzwhite");
    let black = app.user("fuzzblack");
    let running = app.game("atomic", &white, &black);
    app.play_all(running, &white, &black, &["e4", "e5"]);
    let finished = app.game("standard", &white, &black);
    let r = app.post(
        &format!("/api/v1/games/{finished}/actions"),
        Some(&black),
        json!({"action": "resign", "ply": 0}),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let mines = app.game("minesweeper", &white, &black);
    let r = app.post(
        "/api/v1/challenges",
        Some(&white),
        json!({"variant": "atomic", "color": "white", "days_per_move": 3, "opponent": null}),
    );
    assert_eq!(r.status, 201, "{}", r.body);
    let challenge = r.body["id"].as_i64().unwrap();
    // (method, path, whether the body is sent by Black rather than White)
    let routes = vec![
        ("POST", "/api/v1/accounts".to_string(), false),
        ("POST", "/api/v1/tokens".to_string(), false),
        ("POST", "/api/v1/challenges".to_string(), false),
        (
            "POST",
            format!("/api/v1/challenges/{challenge}/accept"),
            true,
        ),
        (
            "POST",
            format!("/api/v1/challenges/{challenge}/cancel"),
            false,
        ),
        ("POST", "/api/v1/computer-games".to_string(), false),
        ("POST", format!("/api/v1/games/{running}/moves"), false),
        ("POST", format!("/api/v1/games/{running}/actions"), true),
        ("PUT", format!("/api/v1/games/{running}/tags/fuzz"), false),
        ("PUT", format!("/api/v1/games/{mines}/bombs"), false),
        ("PUT", format!("/api/v1/games/{running}/analysis"), false),
        (
            "POST",
            format!("/api/v1/games/{finished}/analysis/engine"),
            false,
        ),
        ("PUT", format!("/api/v1/games/{running}/notes"), false),
        ("PUT", format!("/api/v1/games/{running}/conditional"), true),
        ("POST", "/api/v1/me/leave".to_string(), false),
        ("PUT", "/api/v1/me/notifications".to_string(), false),
        ("POST", "/api/v1/positions/moves".to_string(), false),
        ("PUT", "/api/v1/me/preferences".to_string(), false),
    ];
    World {
        white,
        black,
        running,
        routes,
    }
}

fn hostile_json_bodies_never_fail_the_server(app: &TestApp) {
    let world = world(app);
    let per_route: usize = std::env::var("SLOWFUSE_FUZZ_BODIES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(120);
    let mut chance = Chance(0x5EED_F00D_CAFE_0001);
    let mut statuses = std::collections::BTreeMap::new();
    for (method, path, by_black) in &world.routes {
        let token = if *by_black {
            &world.black
        } else {
            &world.white
        };
        for n in 0..per_route {
            let (content_type, bytes) = body(&mut chance);
            let shown = String::from_utf8_lossy(&bytes[..bytes.len().min(300)]).into_owned();
            let answer = app
                .client
                .request(method.parse().unwrap(), format!("{}{path}", app.base))
                .bearer_auth(token)
                .header("content-type", content_type)
                .body(bytes)
                .send()
                .unwrap_or_else(|e| panic!("{method} {path} body {n} ({shown}): no answer: {e}"));
            let status = answer.status().as_u16();
            *statuses.entry(status).or_insert(0) += 1;
            let text = answer.text().unwrap_or_default();
            assert!(
                status < 500,
                "{method} {path} body {n} ({shown}): {status} {text}"
            );
            if status >= 400 {
                let error: Value = serde_json::from_str(&text).unwrap_or_else(|_| {
                    panic!("{method} {path} body {n} ({shown}): {status} is not JSON: {text}")
                });
                assert!(
                    error["error"].as_str().is_some_and(|m| !m.is_empty()),
                    "{method} {path} body {n} ({shown}): {status} without a message: {text}"
                );
            }
        }
    }
    eprintln!("answers by status: {statuses:?}");
    // Still serving, and the game still whole.
    let r = app.get(
        &format!("/api/v1/games/{}", world.running),
        Some(&world.white),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let moves = r.body["moves"].as_array().unwrap().len() as i64;
    assert_eq!(moves, r.body["ply"].as_i64().unwrap());
    let (status, _) = app.get_text(&format!("/games/{}", world.running));
    assert_eq!(status, 200);
}

/// A NUL character, which PostgreSQL's text cannot hold, in every text a player sends: a clear
/// refusal or the text kept without it, never a server failure.
fn a_nul_character_in_any_text_is_never_a_server_failure(app: &TestApp) {
    let world = world(app);
    let game = world.running;
    let nul = "before\u{0}after";
    let sends = [
        (
            "POST",
            format!("/api/v1/games/{game}/moves"),
            json!({"move": "Nf3", "ply": 2, "comment": nul}),
        ),
        (
            "POST",
            format!("/api/v1/games/{game}/actions"),
            json!({"action": "comment", "message": nul}),
        ),
        (
            "POST",
            format!("/api/v1/games/{game}/actions"),
            json!({"action": "kibitz", "message": nul}),
        ),
        (
            "PUT",
            format!("/api/v1/games/{game}/notes"),
            json!({"text": nul, "notes": nul}),
        ),
        ("PUT", format!("/api/v1/games/{game}/tags/a%00b"), json!({})),
        (
            "PUT",
            format!("/api/v1/games/{game}/conditional"),
            json!({"lines": nul, "ply": 2}),
        ),
        (
            "POST",
            "/api/v1/challenges".to_string(),
            json!({"variant": nul, "color": "white", "days_per_move": 3, "opponent": nul}),
        ),
        (
            "POST",
            "/api/v1/accounts".to_string(),
            json!({"username": nul, "email": nul, "password": nul}),
        ),
        (
            "POST",
            "/api/v1/tokens".to_string(),
            json!({"username": nul, "password": nul}),
        ),
        (
            "POST",
            "/api/v1/me/leave".to_string(),
            json!({"start": nul, "end": nul}),
        ),
        (
            "PUT",
            "/api/v1/me/preferences".to_string(),
            json!({"theme": nul}),
        ),
        (
            "PUT",
            "/api/v1/me/notifications".to_string(),
            json!({"your_turn": nul}),
        ),
        (
            "PUT",
            format!("/api/v1/games/{game}/analysis"),
            json!({"tree": nul, "comment": nul}),
        ),
    ];
    for (method, path, body) in sends {
        let r = app.post_method(method, &path, Some(&world.white), body.clone());
        assert!(
            r.status < 500,
            "{method} {path} {body}: {} {}",
            r.status,
            r.body
        );
        assert!(
            r.status < 400 || r.body["error"].as_str().is_some_and(|m| !m.is_empty()),
            "{method} {path} {body}: a refusal says why: {}",
            r.body
        );
    }
    for query in [
        "player=a%00b",
        "variant=a%00b",
        "opponent=%00",
        "position=%00",
    ] {
        let r = app.get(&format!("/api/v1/search?{query}"), Some(&world.white));
        assert!(r.status < 500, "search {query}: {} {}", r.status, r.body);
        let (status, page) = app.get_text(&format!("/search?{query}"));
        assert!(status < 500, "search page {query}: {status} {page}");
    }
    let (status, page) = app.get_text("/users/a%00b");
    assert!(status < 500, "profile: {status} {page}");
}

on_both_databases!(
    hostile_json_bodies_never_fail_the_server,
    a_nul_character_in_any_text_is_never_a_server_failure
);
