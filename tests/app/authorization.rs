//! The authorisation sweep: every route of the server's own table (`slowfuse::web::route_table`)
//! asked by a visitor, a logged-in spectator, the opponent and the player, on both databases,
//! over a world holding each kind of secret (a note, conditional lines, an analysis tree, tags,
//! a bughouse team chat, minesweeper bombs, API tokens). A route the sweep has no expectation
//! for fails the test, so a new route cannot be forgotten. Also: every page form refused
//! without its CSRF token, sessions renewed on login and dead after logout, and the login
//! throttle shared by two instances on one PostgreSQL database.

use crate::common;

use std::collections::{BTreeMap, BTreeSet};

use common::{Backend, Browser, TestApp, hidden_value};
use serde_json::json;
use slowfuse::web::route_table::Access;

on_both_databases_at_t0!(
    every_route_keeps_each_secret_with_its_owner,
    page_forms_are_refused_without_their_csrf_token,
    a_login_renews_the_session_and_a_logout_ends_it,
);

/// The roles every route is asked as, in this order.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Role {
    Visitor,
    Spectator,
    Opponent,
    Player,
}
const ROLES: [Role; 4] = [Role::Visitor, Role::Spectator, Role::Opponent, Role::Player];

/// A request not sent as this role: allowed, and it would change the world the other requests
/// are judged against (a move, a resignation, a logout). The rest are sent.
const SKIP: u16 = 0;

/// What the sweep expects of one route: the address it asks (placeholders below), the body,
/// and the status for a visitor, the spectator, the opponent and the player.
struct Expect {
    target: &'static str,
    body: Body,
    statuses: [u16; 4],
}

enum Body {
    Empty,
    /// A page form; the role's own CSRF token is added (the sweep asks as a user who could
    /// submit it, so a refusal is about who they are, not the token).
    Form(&'static [(&'static str, &'static str)]),
    /// A JSON body (the API, and the page's analysis JSON with its CSRF header).
    Json(&'static str),
}

fn e(target: &'static str, body: Body, statuses: [u16; 4]) -> Expect {
    Expect {
        target,
        body,
        statuses,
    }
}

/// Every route's expectation, keyed by method and pattern exactly as the table lists them.
/// Placeholders: `{g}` the running standard game, `{m}` the minesweeper game, `{b}` the bughouse
/// match, `{f}` the finished game, `{c}` the player's open challenge, `{l}` the player's leave,
/// `{tag}` the player's tag, `{user}` the player's name.
#[rustfmt::skip]
fn expectations() -> BTreeMap<(String, String), Expect> {
    use Body::{Empty, Form, Json};
    let list: Vec<(&str, &str, Expect)> = vec![
        ("GET", "/health", e("/health", Empty, [200; 4])),
        // Loopback without a proxy header: this host's scraper, whoever asks.
        ("GET", "/metrics", e("/metrics", Empty, [200; 4])),
        ("GET", "/static/{path:.*}", e("/static/site.css", Empty, [200; 4])),
        // The API: bearer tokens.
        ("POST", "/api/v1/accounts", e("/api/v1/accounts", Json(r#"{"username":"alice","email":"x@example.com","password":"correct horse battery"}"#), [409; 4])),
        ("POST", "/api/v1/tokens", e("/api/v1/tokens", Json(r#"{"username":"nobody-api","password":"wrong password"}"#), [401; 4])),
        ("GET", "/api/v1/challenges", e("/api/v1/challenges", Empty, [401, 200, 200, 200])),
        ("POST", "/api/v1/challenges", e("/api/v1/challenges", Json(r#"{"variant":"standard","color":"white","days_per_move":3}"#), [401, SKIP, SKIP, SKIP])),
        ("POST", "/api/v1/challenges/{id}/accept", e("/api/v1/challenges/{c}/accept", Json("{}"), [401, SKIP, SKIP, 403])),
        ("POST", "/api/v1/challenges/{id}/cancel", e("/api/v1/challenges/{c}/cancel", Json("{}"), [401, 403, 403, SKIP])),
        ("POST", "/api/v1/computer-games", e("/api/v1/computer-games", Json(r#"{"variant":"standard","level":"easy"}"#), [401, SKIP, SKIP, SKIP])),
        ("GET", "/api/v1/games/{id}", e("/api/v1/games/{g}", Empty, [200; 4])),
        ("POST", "/api/v1/games/{id}/moves", e("/api/v1/games/{g}/moves", Json(r#"{"move":"e5","ply":1}"#), [401, 403, SKIP, 403])),
        ("POST", "/api/v1/games/{id}/actions", e("/api/v1/games/{g}/actions", Json(r#"{"action":"resign","ply":1}"#), [401, 403, SKIP, SKIP])),
        ("GET", "/api/v1/games/{id}/tags", e("/api/v1/games/{g}/tags", Empty, [401, 200, 200, 200])),
        ("PUT", "/api/v1/games/{id}/tags/{tag}", e("/api/v1/games/{g}/tags/{tag}", Empty, [401, SKIP, SKIP, SKIP])),
        ("DELETE", "/api/v1/games/{id}/tags/{tag}", e("/api/v1/games/{g}/tags/{tag}", Empty, [401, 404, 404, SKIP])),
        ("GET", "/api/v1/search", e("/api/v1/search?player={user}", Empty, [200; 4])),
        ("GET", "/api/v1/games/{id}/bombs", e("/api/v1/games/{m}/bombs", Empty, [401, 403, 200, 200])),
        ("PUT", "/api/v1/games/{id}/bombs", e("/api/v1/games/{m}/bombs", Json(r#"{"squares":["a3"]}"#), [401, 403, 409, 409])),
        ("GET", "/api/v1/games/{id}/analysis", e("/api/v1/games/{g}/analysis", Empty, [401, 200, 200, 200])),
        ("PUT", "/api/v1/games/{id}/analysis", e("/api/v1/games/{g}/analysis", Json(r#"{"pgn":"1. d4"}"#), [401, SKIP, SKIP, SKIP])),
        ("POST", "/api/v1/games/{id}/analysis/engine", e("/api/v1/games/{g}/analysis/engine", Empty, [401, 409, 409, 409])),
        ("GET", "/api/v1/games/{id}/analysis/engine", e("/api/v1/games/{f}/analysis/engine", Empty, [404; 4])),
        ("GET", "/api/v1/games/{id}/notes", e("/api/v1/games/{g}/notes", Empty, [401, 403, 200, 200])),
        ("PUT", "/api/v1/games/{id}/notes", e("/api/v1/games/{g}/notes", Json(r#"{"text":"overwritten"}"#), [401, 403, SKIP, SKIP])),
        ("GET", "/api/v1/games/{id}/conditional", e("/api/v1/games/{g}/conditional", Empty, [401, 403, 200, 200])),
        ("PUT", "/api/v1/games/{id}/conditional", e("/api/v1/games/{g}/conditional", Json(r#"{"lines":"e5 Nf3","ply":1}"#), [401, 403, SKIP, SKIP])),
        ("DELETE", "/api/v1/games/{id}/conditional", e("/api/v1/games/{g}/conditional", Empty, [401, 403, SKIP, SKIP])),
        ("GET", "/api/v1/users/{name}", e("/api/v1/users/{user}", Empty, [200; 4])),
        ("GET", "/api/v1/me/queue", e("/api/v1/me/queue", Empty, [401, 200, 200, 200])),
        ("GET", "/api/v1/me/leave", e("/api/v1/me/leave", Empty, [401, 200, 200, 200])),
        ("POST", "/api/v1/me/leave", e("/api/v1/me/leave", Json(r#"{"start":"2026-12-24","days":3}"#), [401, SKIP, SKIP, SKIP])),
        ("DELETE", "/api/v1/me/leave/{id}", e("/api/v1/me/leave/{l}", Empty, [401, 404, 404, SKIP])),
        ("GET", "/api/v1/me/games", e("/api/v1/me/games", Empty, [401, 200, 200, 200])),
        ("GET", "/api/v1/me/notifications", e("/api/v1/me/notifications", Empty, [401, 200, 200, 200])),
        ("PUT", "/api/v1/me/notifications", e("/api/v1/me/notifications", Json(r#"{"digest_hour":3}"#), [401, SKIP, SKIP, SKIP])),
        ("GET", "/api/v1/openings", e("/api/v1/openings?variant=standard&fen=rnbqkbnr%2Fpppppppp%2F8%2F8%2F4P3%2F8%2FPPPP1PPP%2FRNBQKBNR%20b%20KQkq%20-%200%201", Empty, [200; 4])),
        ("POST", "/api/v1/positions/moves", e("/api/v1/positions/moves", Json(r#"{"variant":"standard","fen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"}"#), [200; 4])),
        ("GET", "/api/v1/me/preferences", e("/api/v1/me/preferences", Empty, [401, 200, 200, 200])),
        ("PUT", "/api/v1/me/preferences", e("/api/v1/me/preferences", Json(r#"{"board_theme":"green"}"#), [401, SKIP, SKIP, SKIP])),
        // Exports and pictures: public, the same for all.
        ("GET", "/games/{id}.pgn", e("/games/{g}.pgn", Empty, [200; 4])),
        ("GET", "/games/{id}.bpgn", e("/games/{b}.bpgn", Empty, [200; 4])),
        ("GET", "/games/{id}.svg", e("/games/{m}.svg", Empty, [200; 4])),
        ("GET", "/games/{id}.png", e("/games/{m}.png", Empty, [200; 4])),
        ("GET", "/games/{id}.gif", e("/games/{m}.gif", Empty, [200; 4])),
        ("GET", "/games/{id}.fen", e("/games/{m}.fen", Empty, [200; 4])),
        ("GET", "/games/{id}/plies.json", e("/games/{g}/plies.json", Empty, [200; 4])),
        // Pages: a visitor is sent to log in (303) where an account is needed.
        ("GET", "/", e("/", Empty, [200; 4])),
        ("GET", "/games", e("/games", Empty, [303, 200, 200, 200])),
        ("GET", "/search", e("/search?player={user}", Empty, [200; 4])),
        ("GET", "/search.pgn", e("/search.pgn?player={user}", Empty, [200; 4])),
        ("GET", "/next", e("/next", Empty, [303; 4])),
        ("POST", "/computer-games", e("/computer-games", Form(&[("variant", "standard"), ("color", "white"), ("level", "easy")]), [303, SKIP, SKIP, SKIP])),
        ("GET", "/help/game", e("/help/game", Empty, [200; 4])),
        ("GET", "/variants", e("/variants", Empty, [200; 4])),
        ("GET", "/signup", e("/signup", Empty, [200; 4])),
        ("POST", "/signup", e("/signup", Form(&[("username", "alice"), ("email", "x@example.com"), ("password", "correct horse battery")]), [409; 4])),
        ("GET", "/login", e("/login", Empty, [200; 4])),
        ("POST", "/login", e("/login", Form(&[("username", "nobody-page"), ("password", "wrong password")]), [401; 4])),
        ("POST", "/logout", e("/logout", Form(&[]), [303, SKIP, SKIP, SKIP])),
        ("GET", "/account", e("/account", Empty, [303, 200, 200, 200])),
        ("POST", "/account/tokens", e("/account/tokens", Form(&[("label", "sweep")]), [303, SKIP, SKIP, SKIP])),
        ("POST", "/account/preferences", e("/account/preferences", Form(&[("board_theme", "green"), ("piece_set", "classic"), ("animation_ms", "200")]), [303, SKIP, SKIP, SKIP])),
        ("POST", "/account/notifications", e("/account/notifications", Form(&[("digest_hour", "3")]), [303, SKIP, SKIP, SKIP])),
        ("POST", "/account/verify-email", e("/account/verify-email", Form(&[]), [303, SKIP, SKIP, SKIP])),
        ("GET", "/unsubscribe", e("/unsubscribe?token=forged", Empty, [400; 4])),
        ("POST", "/unsubscribe", e("/unsubscribe?token=forged", Form(&[]), [400; 4])),
        ("GET", "/verify-email", e("/verify-email?token=forged", Empty, [400; 4])),
        ("POST", "/account/leave", e("/account/leave", Form(&[("start", "2026-12-24"), ("days", "3")]), [303, SKIP, SKIP, SKIP])),
        ("POST", "/account/leave/{id}/cancel", e("/account/leave/{l}/cancel", Form(&[]), [303, 404, 404, SKIP])),
        ("POST", "/account/leave/{id}/end", e("/account/leave/{l}/end", Form(&[]), [303, 404, 404, SKIP])),
        ("GET", "/challenges", e("/challenges", Empty, [200; 4])),
        ("POST", "/challenges", e("/challenges", Form(&[("variant", "standard"), ("color", "white"), ("days_per_move", "3")]), [303, SKIP, SKIP, SKIP])),
        ("GET", "/challenges/link/{token}", e("/challenges/link/forged", Empty, [404; 4])),
        ("POST", "/challenges/{id}/accept", e("/challenges/{c}/accept", Form(&[]), [303, SKIP, SKIP, 403])),
        ("POST", "/challenges/{id}/cancel", e("/challenges/{c}/cancel", Form(&[]), [303, 403, 403, SKIP])),
        ("GET", "/import", e("/import", Empty, [303, 200, 200, 200])),
        ("POST", "/import", e("/import", Form(&[("pgn", "")]), [303, SKIP, SKIP, SKIP])),
        ("GET", "/users/{name}", e("/users/{user}", Empty, [200; 4])),
        ("GET", "/users/{name}/games.pgn", e("/users/{user}/games.pgn", Empty, [200; 4])),
        ("GET", "/games/{id}", e("/games/{g}", Empty, [200; 4])),
        ("POST", "/games/{id}", e("/games/{g}", Form(&[("ply", "1"), ("action", "resign"), ("confirm", "yes")]), [303, 403, SKIP, SKIP])),
        ("POST", "/games/{id}/match", e("/games/{b}/match", Form(&[("action", "team_chat"), ("board", "a"), ("message", "intruder words")]), [303, 403, 403, SKIP])),
        ("POST", "/games/{id}/bombs", e("/games/{m}/bombs", Form(&[("fill", "clear")]), [303, 403, SKIP, SKIP])),
        ("POST", "/games/{id}/tags", e("/games/{g}/tags", Form(&[("tag", "sweep")]), [303, SKIP, SKIP, SKIP])),
        ("POST", "/games/{id}/tags/remove", e("/games/{g}/tags/remove", Form(&[("tag", "{tag}")]), [303, 404, 404, SKIP])),
        // Refused while the game runs, with a flash on the game page.
        ("POST", "/games/{id}/engine-analysis", e("/games/{g}/engine-analysis", Form(&[]), [303; 4])),
        ("POST", "/games/{id}/kibitz", e("/games/{g}/kibitz", Form(&[("text", "kibitz")]), [303, SKIP, 403, 403])),
        ("POST", "/games/{id}/notes", e("/games/{g}/notes", Form(&[("text", "overwritten")]), [303, 403, SKIP, SKIP])),
        // A spectator clears only their own lines (none): the player's stay (the snapshot).
        ("POST", "/games/{id}/conditional/clear", e("/games/{g}/conditional/clear", Form(&[]), [303, 303, SKIP, SKIP])),
        ("GET", "/games/{id}/analysis.json", e("/games/{g}/analysis.json", Empty, [401, 200, 200, 200])),
        ("PUT", "/games/{id}/analysis.json", e("/games/{g}/analysis.json", Json(r#"{"pgn":"1. d4"}"#), [401, SKIP, SKIP, SKIP])),
    ];
    let mut map = BTreeMap::new();
    for (method, pattern, expect) in list {
        let key = (method.to_string(), pattern.to_string());
        assert!(
            map.insert(key, expect).is_none(),
            "{method} {pattern} twice"
        );
    }
    map
}

/// The unique words of each secret: none may reach anyone but its owner.
const NOTE: &str = "notemark-alice-5b1e";
const LINE: &str = "Ba4 Nf6 O-O Be7 Re1";
const LINES: &str = "e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1";
const TREE: &str = "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7#";
const TREE_MARK: &str = "Qxf7#";
const TAG: &str = "tagmark-a7c";
const TEAM_CHAT: &str = "teamchatmark alice to frank";
const WHITE_BOMBS: [&str; 8] = ["a3", "b3", "d3", "g3", "h3", "a4", "b4", "h4"];
const BLACK_BOMBS: [&str; 8] = ["a6", "b6", "c6", "g6", "h6", "a5", "b5", "h5"];

/// One who asks: a bearer token for the API, a browser with a session for the pages.
struct Asker {
    token: Option<String>,
    browser: Browser,
}

impl Asker {
    fn csrf(&self) -> String {
        let page = self.browser.get("/login");
        hidden_value(&page.body, "csrf_token")
            .or_else(|| hidden_value(&self.browser.get("/account").body, "csrf_token"))
            .expect("a CSRF token")
    }
}

/// The world the sweep runs over.
struct World {
    ids: BTreeMap<&'static str, String>,
    askers: Vec<Asker>,
    /// The player's API token: nobody else may read it.
    alice_token: String,
    /// The token she made on the account page.
    page_token: String,
    frank_token: String,
}

fn build_world(app: &TestApp) -> World {
    let alice = app.user("alice");
    let bob = app.user("bob");
    let carol = app.user("carol");
    let (dave, erin, frank) = (app.user("dave"), app.user("erin"), app.user("frank"));

    // The running game: alice (White) has played e4; bob is to move.
    let g = app.game("standard", &alice, &bob);
    app.play(g, &alice, "e4", 0);
    let path = |p: &str| format!("/api/v1/games/{g}/{p}");
    let r = app.post_method("PUT", &path("notes"), Some(&alice), json!({ "text": NOTE }));
    assert_eq!(r.status, 200, "{}", r.body);
    let r = app.post_method(
        "PUT",
        &path("conditional"),
        Some(&alice),
        json!({"lines": LINES, "ply": 1}),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let r = app.post_method(
        "PUT",
        &path("analysis"),
        Some(&alice),
        json!({ "pgn": TREE }),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let r = app.post_method(
        "PUT",
        &path(&format!("tags/{TAG}")),
        Some(&alice),
        json!({}),
    );
    assert!(r.status < 300, "{}", r.body);
    // Each secret is where its owner reads it (else the checks below would prove nothing).
    for (p, mark) in [
        ("notes", NOTE),
        ("conditional", LINE),
        ("analysis", TREE_MARK),
        ("tags", TAG),
    ] {
        let r = app.get(&path(p), Some(&alice));
        assert!(r.body.to_string().contains(mark), "{p}: {}", r.body);
    }

    // A minesweeper game with both players' bombs placed.
    let m = app.game_from(
        &alice,
        &bob,
        json!({"variant": "minesweeper", "minesweeper": "chosen", "color": "white", "days_per_move": 3, "setup_hours": 24}),
    );
    for (token, bombs) in [(&alice, WHITE_BOMBS), (&bob, BLACK_BOMBS)] {
        let r = app.post_method(
            "PUT",
            &format!("/api/v1/games/{m}/bombs"),
            Some(token),
            json!({ "squares": bombs }),
        );
        assert_eq!(r.status, 200, "{}", r.body);
    }

    // A bughouse match: alice (A1) and frank (A2) against dave (B1) and erin (B2).
    let b = app.bughouse_match([&alice, &dave, &erin, &frank]);
    let r = app.post(
        &format!("/api/v1/games/{b}/actions"),
        Some(&alice),
        json!({"action": "team_chat", "message": TEAM_CHAT}),
    );
    assert_eq!(r.status, 200, "{}", r.body);

    // A finished game, and an open challenge and leave of alice's.
    let f = app.game("standard", &alice, &bob);
    app.play_all(f, &alice, &bob, &["f3", "e5", "g4", "Qh4#"]);
    let r = app.post(
        "/api/v1/challenges",
        Some(&alice),
        json!({"variant": "atomic", "color": "white", "days_per_move": 3}),
    );
    assert_eq!(r.status, 201, "{}", r.body);
    let c = r.body["id"].as_i64().unwrap();
    let r = app.post(
        "/api/v1/me/leave",
        Some(&alice),
        json!({"start": "2026-11-02", "days": 2}),
    );
    assert_eq!(r.status, 201, "{}", r.body);
    let l = r.body["bookings"][0]["id"].as_i64().unwrap();

    let visitor = app.browser();
    visitor.get("/login"); // a session with a CSRF token, as a visitor about to log in has
    let alice_browser = app.logged_in("alice");
    // A token made on the account page, with a label of its own.
    let csrf = hidden_value(&alice_browser.get("/account").body, "csrf_token").unwrap();
    let page = alice_browser.post(
        "/account/tokens",
        &[("csrf_token", &csrf), ("label", "for the sweep")],
    );
    assert!(page.status < 300, "{}", page.body);
    let page_token = regex::Regex::new(r#"<code id="new-token">([^<]+)</code>"#)
        .unwrap()
        .captures(&page.body)
        .expect("the new token, shown once")[1]
        .to_string();
    // The page shows alice her own bombs (the markers the checks look for).
    let own = alice_browser.get(&format!("/games/{m}")).body;
    assert!(bombs_shown(&own, &WHITE_BOMBS), "{own}");
    assert!(!bombs_shown(&own, &BLACK_BOMBS), "{own}");

    let ids = BTreeMap::from([
        ("{g}", g.to_string()),
        ("{m}", m.to_string()),
        ("{b}", b.to_string()),
        ("{f}", f.to_string()),
        ("{c}", c.to_string()),
        ("{l}", l.to_string()),
        ("{tag}", TAG.to_string()),
        ("{user}", "alice".to_string()),
    ]);
    let _ = (dave, erin);
    World {
        ids,
        askers: vec![
            Asker {
                token: None,
                browser: visitor,
            },
            Asker {
                token: Some(carol),
                browser: app.logged_in("carol"),
            },
            Asker {
                token: Some(bob),
                browser: app.logged_in("bob"),
            },
            Asker {
                token: Some(alice.clone()),
                browser: alice_browser,
            },
        ],
        alice_token: alice,
        page_token,
        frank_token: frank,
    }
}

impl World {
    fn fill(&self, template: &str) -> String {
        self.ids
            .iter()
            .fold(template.to_string(), |s, (k, v)| s.replace(k, v))
    }
}

/// Sends one request of the sweep as `asker`; its status and body as text.
fn send(
    world: &World,
    asker: &Asker,
    method: &str,
    target: &str,
    body: &Body,
    csrf: Option<&str>,
) -> (u16, String) {
    let url = format!("{}{}", asker.browser.base, world.fill(target));
    let method = reqwest::Method::from_bytes(method.as_bytes()).unwrap();
    let mut req = asker.browser.client.request(method, url);
    let api = target.starts_with("/api/");
    if api && let Some(t) = &asker.token {
        req = req.bearer_auth(t);
    }
    match body {
        Body::Empty => {}
        Body::Json(j) => {
            req = req
                .header("content-type", "application/json")
                .body(world.fill(j));
            if let Some(c) = csrf {
                req = req.header("x-csrf-token", c);
            }
        }
        Body::Form(fields) => {
            let mut all: Vec<(String, String)> = fields
                .iter()
                .map(|(k, v)| (k.to_string(), world.fill(v)))
                .collect();
            if let Some(c) = csrf {
                all.push(("csrf_token".to_string(), c.to_string()));
            }
            req = req.form(&all);
        }
    }
    let res = req.send().expect("request");
    (res.status().as_u16(), res.text().unwrap_or_default())
}

/// What the player alone may know, and where each lies: the secrets must not be in `body`.
/// A secret the request itself carried (a tag named in the address) is the asker's own words.
/// The opponent's bombs are his alone in turn.
fn leaks(world: &World, body: &str, role: Role, sent: &str) -> Vec<&'static str> {
    let mut found = Vec::new();
    if role != Role::Opponent && bombs_shown(body, &BLACK_BOMBS) {
        found.push("the opponent's bombs");
    }
    if role == Role::Player {
        return found;
    }
    for (name, mark) in [
        ("note", NOTE),
        ("conditional line", LINE),
        ("analysis tree", TREE_MARK),
        ("tag", TAG),
        ("team chat", TEAM_CHAT),
    ] {
        if body.contains(mark) && !sent.contains(mark) {
            found.push(name);
        }
    }
    if bombs_shown(body, &WHITE_BOMBS) {
        found.push("bombs");
    }
    if body.contains(&world.alice_token) || body.contains(&world.page_token) {
        found.push("API token");
    }
    found
}

/// Whether `body` shows a bomb on one of `squares`: the game page marks a square holding one
/// of the reader's bombs `aria-label="a3, empty, bomb"` (class `own-bomb`), the API lists them
/// as `"squares":["a3",…]`.
fn bombs_shown(body: &str, squares: &[&str]) -> bool {
    let any = squares.join("|");
    let page = regex::Regex::new(&format!(r#"aria-label="({any}), [^"]*, bomb[",]"#)).unwrap();
    let json = regex::Regex::new(&format!(r#""squares":\["({any})""#)).unwrap();
    page.is_match(body) || json.is_match(body)
}

/// The player's world as she reads it, to compare before and after the refused requests.
fn snapshot(app: &TestApp, world: &World) -> Vec<String> {
    let a = Some(world.alice_token.as_str());
    let mut seen = Vec::new();
    for p in [
        "/api/v1/games/{g}",
        "/api/v1/games/{m}",
        "/api/v1/games/{b}",
        "/api/v1/games/{f}",
        "/api/v1/games/{g}/notes",
        "/api/v1/games/{g}/conditional",
        "/api/v1/games/{g}/analysis",
        "/api/v1/games/{g}/tags",
        "/api/v1/games/{m}/bombs",
        "/api/v1/challenges",
        "/api/v1/me/leave",
        "/api/v1/me/preferences",
        "/api/v1/me/notifications",
        "/api/v1/me/games",
    ] {
        let r = app.get(&world.fill(p), a);
        assert_eq!(r.status, 200, "{p}: {}", r.body);
        seen.push(format!("{p}: {}", r.body));
    }
    // The team chat is still the team's.
    let r = app.get(&world.fill("/api/v1/games/{b}"), Some(&world.frank_token));
    seen.push(format!("frank: {}", r.body["team_chat"]));
    seen
}

fn every_route_keeps_each_secret_with_its_owner(
    app: &TestApp,
    _clock: &slowfuse::clock::FixedClock,
) {
    let table = slowfuse::web::route_table();
    let expectations = expectations();
    let listed: BTreeSet<(String, String)> = table
        .iter()
        .map(|r| (r.method.to_string(), r.pattern.clone()))
        .collect();
    assert_eq!(listed.len(), table.len(), "a route is listed twice");
    let expected: BTreeSet<(String, String)> = expectations.keys().cloned().collect();
    assert_eq!(
        listed.difference(&expected).collect::<Vec<_>>(),
        Vec::<&(String, String)>::new(),
        "routes the sweep has no expectation for (add them to `expectations`)"
    );
    assert_eq!(
        expected.difference(&listed).collect::<Vec<_>>(),
        Vec::<&(String, String)>::new(),
        "expectations for routes that are gone"
    );

    let world = build_world(app);
    let before = snapshot(app, &world);
    let csrfs: Vec<String> = world.askers.iter().map(Asker::csrf).collect();
    let mut wrong = Vec::new();
    for route in &table {
        let key = (route.method.to_string(), route.pattern.clone());
        let expect = &expectations[&key];
        assert!(
            segments_match(&route.pattern, expect.target),
            "{key:?}: the sweep asks {} instead",
            expect.target
        );
        for (i, role) in ROLES.iter().enumerate() {
            let want = expect.statuses[i];
            if want == SKIP {
                continue;
            }
            let asker = &world.askers[i];
            let (status, body) = send(
                &world,
                asker,
                route.method.as_str(),
                expect.target,
                &expect.body,
                Some(&csrfs[i]),
            );
            if status != want {
                wrong.push(format!(
                    "{} {} as {role:?}: {status}, expected {want}: {}",
                    route.method,
                    route.pattern,
                    body.chars().take(200).collect::<String>()
                ));
            }
            // The site's own files (built into the binary) name the page's classes.
            let leaked = if route.pattern.starts_with("/static/") {
                Vec::new()
            } else {
                let sent = match &expect.body {
                    Body::Form(fields) => format!("{}{fields:?}", expect.target),
                    Body::Json(j) => format!("{}{j}", expect.target),
                    Body::Empty => expect.target.to_string(),
                };
                leaks(&world, &body, *role, &world.fill(&sent))
            };
            assert!(
                leaked.is_empty(),
                "{} {} as {role:?} shows the player's {leaked:?}",
                route.method,
                route.pattern
            );
            // Whoever may not use a route at all is refused: a visitor on an account's route.
            if *role == Role::Visitor
                && route.access != Access::Public
                && route.access != Access::Operator
            {
                assert!(
                    [303, 401].contains(&status),
                    "{} {} lets a visitor in: {status}",
                    route.method,
                    route.pattern
                );
            }
        }
    }
    // Every read of a game asked of every game of the world: the secrets stay where they are.
    for route in table.iter().filter(|r| r.method == "GET") {
        let expect = &expectations[&(route.method.to_string(), route.pattern.clone())];
        let Some(game) = ["{g}", "{m}", "{b}", "{f}"]
            .into_iter()
            .find(|g| expect.target.contains(g))
        else {
            continue;
        };
        for other in ["{g}", "{m}", "{b}", "{f}"] {
            let target = expect.target.replace(game, other);
            for (i, role) in ROLES.iter().enumerate() {
                let (status, body) =
                    send(&world, &world.askers[i], "GET", &target, &expect.body, None);
                assert!(status < 500, "GET {target} as {role:?}: {status} {body}");
                let leaked = leaks(&world, &body, *role, &world.fill(&target));
                assert!(
                    leaked.is_empty(),
                    "GET {target} as {role:?} shows {leaked:?}"
                );
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "unexpected answers:\n{}",
        wrong.join("\n")
    );
    assert_eq!(
        before,
        snapshot(app, &world),
        "a refused request changed something"
    );
    // A partner reads the team chat (the check above is not blind).
    let r = app.get(&world.fill("/api/v1/games/{b}"), Some(&world.frank_token));
    assert!(r.body.to_string().contains(TEAM_CHAT), "{}", r.body);
    let r = app.get(
        &world.fill("/api/v1/games/{m}/bombs"),
        world.askers[2].token.as_deref(),
    );
    assert!(bombs_shown(&r.body.to_string(), &BLACK_BOMBS), "{}", r.body);
}

/// Whether `target` (a sweep address) is an instance of `pattern` (a table pattern): the
/// same segments, each placeholder of the pattern filled by a non-empty one, the rest equal.
fn segments_match(pattern: &str, target: &str) -> bool {
    let target = target.split('?').next().unwrap();
    if let Some(prefix) = pattern.strip_suffix("{path:.*}") {
        return target.starts_with(prefix) && target.len() > prefix.len();
    }
    let p: Vec<&str> = pattern.split('/').collect();
    let t: Vec<&str> = target.split('/').collect();
    p.len() == t.len()
        && p.iter().zip(&t).all(|(p, t)| match p.split_once('{') {
            // `{id}`, `{id}.pgn`: what follows the placeholder must follow it in the target.
            Some((head, rest)) => {
                let tail = rest.split_once('}').map_or("", |x| x.1);
                t.starts_with(head) && t.ends_with(tail) && t.len() > head.len() + tail.len()
            }
            None => p == t,
        })
}

fn page_forms_are_refused_without_their_csrf_token(
    app: &TestApp,
    _clock: &slowfuse::clock::FixedClock,
) {
    let world = build_world(app);
    let before = snapshot(app, &world);
    let expectations = expectations();
    let player = &world.askers[3];
    let mut checked = 0;
    for route in slowfuse::web::route_table() {
        let changes = route.method != "GET";
        if !changes || route.pattern.starts_with("/api/") {
            continue;
        }
        let expect = &expectations[&(route.method.to_string(), route.pattern.clone())];
        // The one-click unsubscribe of RFC 8058 is posted by mail clients: its signed token
        // is its proof, not a session.
        if route.pattern == "/unsubscribe" {
            continue;
        }
        for csrf in [None, Some("forged-token")] {
            let (status, body) = send(
                &world,
                player,
                route.method.as_str(),
                expect.target,
                &expect.body,
                csrf,
            );
            assert!(
                status == 403 || (csrf.is_none() && status == 400),
                "{} {} with CSRF token {csrf:?}: {status} {}",
                route.method,
                route.pattern,
                body.chars().take(200).collect::<String>()
            );
            checked += 1;
        }
    }
    assert!(checked >= 40, "only {checked} forms checked");
    assert_eq!(
        before,
        snapshot(app, &world),
        "a forged form changed something"
    );
}

fn a_login_renews_the_session_and_a_logout_ends_it(
    app: &TestApp,
    _clock: &slowfuse::clock::FixedClock,
) {
    app.user("alice");
    let client = reqwest::blocking::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let base = &app.base;
    // A visitor's session (the login form needs one): its cookie is set here.
    let res = client.get(format!("{base}/login")).send().unwrap();
    let before = cookie_of(&res).expect("the login form sets a session cookie");
    let csrf = hidden_value(&res.text().unwrap(), "csrf_token").unwrap();
    let res = client
        .post(format!("{base}/login"))
        .header("cookie", format!("slowfuse={before}"))
        .form(&[
            ("csrf_token", csrf.as_str()),
            ("username", "alice"),
            ("password", "correct horse battery"),
        ])
        .send()
        .unwrap();
    assert_eq!(res.status(), 303);
    let after = cookie_of(&res).expect("the login sets a new cookie");
    assert_ne!(
        before, after,
        "the session id stays the same across the login"
    );
    // The visitor's cookie does not log in.
    let account = |cookie: &str| {
        client
            .get(format!("{base}/account"))
            .header("cookie", format!("slowfuse={cookie}"))
            .send()
            .unwrap()
    };
    assert_eq!(
        account(&before).status(),
        303,
        "the cookie from before the login"
    );
    let res = account(&after);
    assert_eq!(res.status(), 200);
    let page = res.text().unwrap();
    assert!(page.contains("alice"));
    let csrf = hidden_value(&page, "csrf_token").unwrap();
    // A second browser logged in as alice too.
    let other = app.logged_in("alice");
    assert_eq!(other.get("/account").status, 200);

    let res = client
        .post(format!("{base}/logout"))
        .header("cookie", format!("slowfuse={after}"))
        .form(&[("csrf_token", csrf.as_str())])
        .send()
        .unwrap();
    assert_eq!(res.status(), 303);
    // The old cookie, replayed from a fresh client, no longer logs in; nor does the other
    // browser's (a logout ends every session of the account).
    let res = account(&after);
    assert_eq!(
        res.status(),
        303,
        "the cookie from before the logout still logs in"
    );
    assert!(
        res.headers()
            .get("location")
            .unwrap()
            .to_str()
            .unwrap()
            .starts_with("/login")
    );
    assert_eq!(other.get("/account").status, 303);
    // Logging in again works.
    assert_eq!(app.logged_in("alice").get("/account").status, 200);
}

fn cookie_of(res: &reqwest::blocking::Response) -> Option<String> {
    res.headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find_map(|v| v.strip_prefix("slowfuse="))
        .map(|v| v.split(';').next().unwrap().to_string())
        .filter(|v| !v.is_empty())
}

/// Failed logins spread over two instances on one PostgreSQL database are counted together.
#[test]
fn the_login_throttle_holds_across_two_instances() {
    let Some(first) = common::spawn_app(Backend::Postgres) else {
        return;
    };
    let second = common::spawn_app_on(&first.database_url);
    first.user("alice");
    let wrong = |app: &TestApp| {
        let browser = app.browser();
        let csrf = browser.csrf("/login");
        browser
            .post(
                "/login",
                &[
                    ("csrf_token", &csrf),
                    ("username", "alice"),
                    ("password", "not her password"),
                ],
            )
            .status
    };
    // The limit per name is 5: three failures here, two there.
    for app in [&first, &second, &first, &second, &first] {
        assert_eq!(wrong(app), 401);
    }
    for app in [&second, &first] {
        assert_eq!(
            wrong(app),
            429,
            "the sixth failure is throttled on either instance"
        );
        let r = app.post(
            "/api/v1/tokens",
            None,
            json!({"username": "alice", "password": "correct horse battery"}),
        );
        assert_eq!(r.status, 429, "even the right password waits: {}", r.body);
    }
}
