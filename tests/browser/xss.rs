//! The XSS sweep: a list of hostile texts (`PAYLOADS`, each of which does something a test can
//! see when it runs: `window.__xss` set, an element `#xss-fired`, the title `XSS`, an image
//! `/xss-img` asked for) written into every text a user can enter, then every page and mail
//! that shows them read twice: as HTML source (the payload only ever escaped, no tag or
//! attribute of it, no `javascript:` link, no inline script), because the site's
//! Content-Security-Policy would stop an injected script in the browser and so hide the bug;
//! and in Chromium, where nothing may fire and the console may hold no refusal under the policy
//! (a refused inline script or handler means one got into the page).
//!
//! Texts covered: usernames (refused: only letters and digits of any script, `_`, `-`), the email
//! address (a quoted local part may hold any of it), comments (with a move, alone, with a draw
//! offer, a declined offer and a resignation), kibitz, private notes, tags (refused), the team chat
//! of a bughouse match, a refused move, conditional line, gift of time and bughouse move (each kept
//! in the form), PGN import (Event, Site, White, Black, Annotator, a tag of its own, a comment in
//! the movetext, a bad move echoed as the reason it was skipped), the analysis board's tree
//! (comments in it), search parameters, the time-zone field, and addresses (paths and queries
//! echoed by error pages, `?next=` of the login).
//!
//! Pages and answers read: the game page (a player's, a spectator's and a visitor's; every tab
//! and the analysis board in Chromium), the refused-action pages, the bughouse match page, the
//! import summary and the imported game, search results and refusals, the profile, the home
//! page, My games, challenges, the account page, error pages; the game JSON, notes, analysis
//! and search JSON (valid JSON, `application/json`, the text as data); the PGN downloads (never
//! served as HTML); and the HTML part of the "your move", draw offered, draw declined and game
//! over mails from a real SMTP server.

use crate::common;
use crate::webdriver;

use std::sync::Arc;

use common::smtp::{Mail, PUBLIC_URL, SmtpSink, mail_app_settings};
use common::{Backend, Browser, Options, TestApp, spawn_app_with_env};
use regex::Regex;
use serde_json::{Value, json};
use slowfuse::clock::FixedClock;
use webdriver::{Player, chromedriver};

/// The hostile texts. Each one, were it taken as markup or script, would set `window.__xss`,
/// add `#xss-fired`, set the title to `XSS` or load `/xss-img`; or it is a text that must come
/// back as written (entities, lookalikes, template syntax).
const PAYLOADS: &[&str] = &[
    "<script>window.__xss=1</script>",
    "<img src=/xss-img onerror=window.__xss=2>",
    "<svg onload=window.__xss=3>",
    "\"><img src=/xss-img id=xss-fired onerror=window.__xss=4>",
    "'><svg id=xss-fired onload=window.__xss=5>",
    "\" autofocus onfocus=\"window.__xss=6",
    "' autofocus onfocus='window.__xss=7",
    "javascript:window.__xss=8",
    "</textarea><script>window.__xss=9</script>",
    "</title><script>window.__xss=10</script>",
    "{{constructor.constructor('window.__xss=11')()}}",
    "<a href=\"javascript:window.__xss=12\" id=xss-fired>xss</a>",
    "[xss](javascript:window.__xss=13)",
    "<iframe srcdoc=\"<script>parent.__xss=14</script>\"></iframe>",
    "<details open ontoggle=window.__xss=15>",
    "&lt;script&gt;window.__xss=16&lt;/script&gt;",
    "\u{FF1C}script\u{FF1E}window.__xss=17\u{FF1C}/script\u{FF1E}",
    "%3Cscript%3Ewindow.__xss=18%3C/script%3E",
    "\\u003cscript\\u003ewindow.__xss=19\\u003c/script\\u003e",
    "<scr<script>ipt>window.__xss=20</script>",
    "<img src=/xss-img onerror=\"document.title='XSS'\">",
    "<noscript><p title=\"</noscript><img src=/xss-img onerror=window.__xss=21>\">",
    "<style>body{display:none}</style><b id=xss-fired>xss</b>",
    "<!-- xss",
];

/// An email address that is valid (a quoted local part) and holds markup.
const EMAIL: &str = "\"<svg onload=window.__xss=22>\"@example.com";

/// Every payload in one text, for the fields that hold one text (a note, a form's box).
fn all() -> String {
    PAYLOADS.join(" ")
}

/// The payloads a PGN tag value or `{…}` comment can hold as written.
fn pgn_safe() -> Vec<&'static str> {
    PAYLOADS
        .iter()
        .copied()
        .filter(|p| !p.contains(['"', '\\', '{', '}']))
        .collect()
}

/// The text of HTML with its character references read (`&#60;`, `&lt;`, `&#x3c;`, …): what
/// a reader sees of an escaped text.
fn unescaped(html: &str) -> String {
    let reference = Regex::new(r"&(#[0-9]+|#[xX][0-9a-fA-F]+|lt|gt|amp|quot|apos);").unwrap();
    reference
        .replace_all(html, |c: &regex::Captures| {
            let name = &c[1];
            let code = match name {
                "lt" => Some('<'),
                "gt" => Some('>'),
                "amp" => Some('&'),
                "quot" => Some('"'),
                "apos" => Some('\''),
                _ if name[1..].starts_with(['x', 'X']) => u32::from_str_radix(&name[2..], 16)
                    .ok()
                    .and_then(char::from_u32),
                _ => name[1..].parse().ok().and_then(char::from_u32),
            };
            code.map_or_else(|| c[0].to_string(), String::from)
        })
        .into_owned()
}

/// Every byte but letters and digits percent-encoded, for paths and queries.
fn pct(text: &str) -> String {
    text.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() {
                char::from(b).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

/// Fails when HTML (a page or a mail's HTML part) holds a payload as markup: a payload with a
/// character that markup gives meaning to found as written; a tag (its quoted attribute values
/// set aside) naming `xss` or carrying an event handler; a `javascript:` link, source or form
/// target; a script that is not one of the site's files.
fn assert_inert(what: &str, html: &str) {
    for p in PAYLOADS {
        if p.contains(['<', '>', '"', '\'', '&']) {
            assert!(
                !html.contains(p),
                "{what}: the payload {p:?} is in the HTML unescaped"
            );
        }
    }
    let tags = Regex::new(r"<[A-Za-z!/?][^>]*>").unwrap();
    let quoted = Regex::new(r#""[^"]*""#).unwrap();
    let handler = Regex::new(r"(?i)\son[a-z]+\s*=").unwrap();
    let js_link =
        Regex::new(r#"(?i)\s(href|src|action|formaction|srcdoc|data)\s*=\s*["']?\s*javascript:"#)
            .unwrap();
    for tag in tags.find_iter(html).map(|m| m.as_str()) {
        let bare = quoted.replace_all(tag, "\"\"").to_lowercase();
        assert!(
            !bare.contains("xss"),
            "{what}: a payload's markup became a tag: {tag}"
        );
        assert!(
            !handler.is_match(&bare),
            "{what}: a tag with an event handler: {tag}"
        );
        assert!(!js_link.is_match(tag), "{what}: a javascript: link: {tag}");
        if bare.starts_with("<script") {
            assert!(
                tag.contains(r#"src="/static/"#),
                "{what}: an inline script: {tag}"
            );
        }
    }
}

/// Fails unless the HTML shows `text` (escaped: [`assert_inert`] sees to that), so that the
/// check looked at a page that holds it.
fn assert_shows(what: &str, html: &str, text: &str) {
    assert!(
        unescaped(html).contains(text),
        "{what}: {text:?} is not shown (escaped) on the page:\n{}",
        main_of(html)
    );
}

/// The page's `<main>` (or the start of the text), for a failure's message.
fn main_of(html: &str) -> &str {
    let start = html.find("<main").unwrap_or(0);
    let end = html[start..]
        .char_indices()
        .nth(6000)
        .map_or(html.len(), |(i, _)| start + i);
    &html[start..end]
}

/// A test's world: the app (no background worker; mail sent by explicit passes) on a clock
/// the test moves, and its SMTP server.
struct Env {
    app: TestApp,
    sink: SmtpSink,
    clock: Arc<FixedClock>,
}

fn setup(backend: Backend) -> Option<Env> {
    let mut sink = SmtpSink::reserve()?;
    sink.start();
    let clock = Arc::new(FixedClock::new(chrono::Utc::now().naive_utc()));
    let app = spawn_app_with_env(
        backend,
        Options {
            clock: Some(clock.clone()),
            ..Options::default()
        },
        mail_app_settings(sink.port_for_app()),
    )?;
    Some(Env { app, sink, clock })
}

impl Env {
    /// Lets held mails become due and runs one pass of the worker's mail job.
    fn send_mail(&self) {
        self.clock.advance(chrono::Duration::seconds(121));
        actix_web::rt::System::new()
            .block_on(slowfuse::worker::send_mail_once(&self.app.state.worker()))
            .expect("mail pass");
    }

    /// Signs a user up and follows the confirmation link, so that mail reaches them.
    fn verified_user(&self, name: &str) -> String {
        let token = self.app.user(name);
        self.send_mail();
        let mail = self
            .sink
            .mails()
            .into_iter()
            .rev()
            .find(|m| m.is_to(name) && m.subject().contains("Confirm"))
            .expect("a confirmation mail");
        let link = mail.link("/verify-email?token=");
        let path = link.strip_prefix(PUBLIC_URL).unwrap();
        let (status, page) = self.app.get_text(path);
        assert_eq!(status, 200, "{page}");
        token
    }

    /// An action through the API, which must succeed.
    fn act(&self, game: i64, token: &str, body: Value) {
        let r = self
            .app
            .post(&format!("/api/v1/games/{game}/actions"), Some(token), body);
        assert_eq!(r.status, 200, "{}", r.body);
    }
}

/// A response's status, `Content-Type` and body.
fn fetch(client: &reqwest::blocking::Client, url: &str) -> (u16, String, String) {
    let res = client.get(url).send().expect("request");
    let status = res.status().as_u16();
    let kind = res
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string();
    (status, kind, res.text().unwrap_or_default())
}

/// A JSON answer: `application/json` that parses.
fn json_answer(app: &TestApp, path: &str, token: &str) -> Value {
    let res = app
        .client
        .get(format!("{}{path}", app.base))
        .bearer_auth(token)
        .send()
        .expect("request");
    assert_eq!(res.status().as_u16(), 200, "{path}");
    let kind = res.headers()["content-type"].to_str().unwrap().to_string();
    assert!(kind.starts_with("application/json"), "{path}: {kind}");
    serde_json::from_str(&res.text().unwrap()).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// What the payloads were written into.
struct World {
    /// alice (White) v bob, finished by bob's resignation: comments, kibitz, notes, tags, draw
    /// messages, the analysis tree.
    game: i64,
    /// alice v bob, running, untouched: the refused actions.
    running: i64,
    /// alice and dave (team A) v bob and carol: the team chat.
    bughouse: i64,
    /// The game imported from a PGN full of payloads.
    imported: i64,
    /// The names of the imported game's players.
    white: &'static str,
    black: &'static str,
    alice: String,
}

/// Writes a payload into every text a user can enter (checking the refusals on the way).
fn plant(env: &Env) -> World {
    let app = &env.app;
    // Usernames: none of the payloads' characters is allowed, in the API or the form.
    for p in PAYLOADS {
        let r = app.post(
            "/api/v1/accounts",
            None,
            json!({"username": p, "email": "x@example.com", "password": "correct horse battery"}),
        );
        assert_eq!(r.status, 422, "username {p:?}: {}", r.body);
    }
    // The email address: a quoted local part may hold markup (RFC 5322 allows it); it is
    // shown on the owner's account page (see `check_sources`).
    let r = app.post(
        "/api/v1/accounts",
        None,
        json!({"username": "mallory", "email": EMAIL, "password": "correct horse battery"}),
    );
    assert_eq!(r.status, 201, "{}", r.body);
    let alice = env.verified_user("alice");
    let bob = env.verified_user("bob");
    let (carol, dave) = (app.user("carol"), app.user("dave"));

    let game = app.game("standard", &alice, &bob);
    let r = app.post(
        &format!("/api/v1/games/{game}/moves"),
        Some(&alice),
        json!({"move": "e4", "ply": 0, "comment": all()}),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    env.send_mail(); // bob's "your move", with alice's comment
    for p in PAYLOADS {
        env.act(
            game,
            &alice,
            json!({"action": "comment", "ply": 1, "message": p}),
        );
        env.act(
            game,
            &carol,
            json!({"action": "kibitz", "ply": 1, "message": p}),
        );
    }
    env.act(
        game,
        &bob,
        json!({"action": "offer_draw", "ply": 1, "message": all()}),
    );
    env.send_mail(); // alice's "draw offered", with bob's message
    env.act(
        game,
        &alice,
        json!({"action": "decline_draw", "ply": 1, "message": all()}),
    );
    env.send_mail(); // bob's "draw declined", with alice's message
    let r = app.post_method(
        "PUT",
        &format!("/api/v1/games/{game}/notes"),
        Some(&alice),
        json!({"text": all()}),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    // Tags: one word of letters, digits, `-`, `_`; every payload refused, nothing stored.
    let r = app.post_method(
        "PUT",
        &format!("/api/v1/games/{game}/tags/tactics"),
        Some(&alice),
        json!({}),
    );
    assert_eq!(r.status, 201, "{}", r.body);
    for p in PAYLOADS {
        let r = app.post_method(
            "PUT",
            &format!("/api/v1/games/{game}/tags/{}", pct(p)),
            Some(&alice),
            json!({}),
        );
        assert!((400..500).contains(&r.status), "tag {p:?}: {}", r.body);
    }
    let r = app.get(&format!("/api/v1/games/{game}/tags"), Some(&alice));
    assert_eq!(r.body["tags"], json!(["tactics"]));
    // The analysis board's tree, with a payload in each comment.
    let safe = pgn_safe();
    let tree = format!(
        "1. e4 {{{}}} e5 {{{}}} (1... c5 {{{}}}) 2. Nf3 {{{}}} *",
        safe[0],
        safe[1],
        safe[2],
        safe[3..].join(" ")
    );
    let r = app.post_method(
        "PUT",
        &format!("/api/v1/games/{game}/analysis"),
        Some(&alice),
        json!({"pgn": tree}),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    env.act(
        game,
        &bob,
        json!({"action": "resign", "ply": 1, "message": all()}),
    );
    env.send_mail(); // game over

    let running = app.game("standard", &alice, &bob);
    let bughouse = app.bughouse_match([&alice, &bob, &carol, &dave]);
    for p in PAYLOADS {
        env.act(
            bughouse,
            &alice,
            json!({"action": "team_chat", "message": p}),
        );
    }

    let (white, black) = (PAYLOADS[0], PAYLOADS[1]);
    let others = safe[2..].join(" ");
    let pgn = format!(
        "[Event \"{others}\"]\n[Site \"{others}\"]\n[Date \"2020.01.01\"]\n[Round \"1\"]\n\
         [White \"{white}\"]\n[Black \"{black}\"]\n[Result \"0-1\"]\n[Annotator \"{others}\"]\n\
         [XssNote \"{others}\"]\n\n1. f3 {{{others}}} e5 2. g4 Qh4# 0-1\n\n\
         [White \"x\"]\n[Black \"y\"]\n[Result \"1-0\"]\n\n1. e5 1-0\n"
    );
    let browser = app.logged_in("alice");
    let csrf = browser.csrf("/import");
    let page = browser.post("/import", &[("csrf_token", &csrf), ("pgn", &pgn)]);
    assert_eq!(page.status, 200, "{}", page.body);
    assert_inert("the import summary", &page.body);
    assert_shows("the import summary", &page.body, white);
    assert!(
        page.body.contains("Imported 1, skipped 1"),
        "{}",
        main_of(&page.body)
    );
    let imported = Regex::new(r#"href="/games/(\d+)""#)
        .unwrap()
        .captures(&page.body)
        .expect("a link to the imported game")[1]
        .parse()
        .unwrap();
    World {
        game,
        running,
        bughouse,
        imported,
        white,
        black,
        alice,
    }
}

/// Reads every page, answer and mail that shows the payloads as a program would: HTML escaped,
/// JSON as data, PGN never as HTML.
fn check_sources(env: &Env, w: &World) {
    let app = &env.app;
    let (g, imported) = (w.game, w.imported);
    let alice = app.logged_in("alice");
    let carol = app.logged_in("carol");
    let visitor = app.browser();
    let page = |who: &Browser, path: &str| {
        let p = who.get(path);
        assert_eq!(p.status, 200, "{path}: {}", p.body);
        assert_inert(path, &p.body);
        p.body
    };

    // The finished game for a player, a spectator, a visitor: every comment and kibitz.
    for (who, name) in [
        (&alice, "alice"),
        (&carol, "carol"),
        (&visitor, "a visitor"),
    ] {
        for path in [format!("/games/{g}"), format!("/games/{g}?ply=1&flip=1")] {
            let body = page(who, &path);
            for p in PAYLOADS {
                assert_shows(&format!("{path} for {name}"), &body, p);
            }
        }
    }
    let body = page(&alice, &format!("/games/{g}"));
    assert_shows("alice's note", &body, &all());
    page(&alice, &format!("/games/{g}?comments=hide"));
    page(&alice, &format!("/games/{g}?comments=show"));

    // Refused actions keep what was typed, escaped.
    let r = w.running;
    for (action, mv) in [
        ("move", all()),
        ("conditional_move", all()),
        ("give_time", all()),
        ("move", PAYLOADS[3].to_string()),
    ] {
        let csrf = alice.csrf(&format!("/games/{r}"));
        let p = alice.post(
            &format!("/games/{r}"),
            &[
                ("csrf_token", &csrf),
                ("ply", "0"),
                ("action", action),
                ("move", &mv),
                ("message", &all()),
            ],
        );
        assert!((400..500).contains(&p.status), "{action}: {}", p.status);
        assert_inert(&format!("a refused {action}"), &p.body);
        assert_shows(&format!("a refused {action}"), &p.body, &mv);
    }
    for (path, field) in [
        (format!("/games/{r}/kibitz"), "text"),
        (format!("/games/{r}/tags"), "tag"),
    ] {
        let csrf = carol.csrf(&format!("/games/{r}"));
        let p = carol.post(&path, &[("csrf_token", &csrf), (field, &all())]);
        let p = carol.follow(p);
        assert_inert(&path, &p.body);
    }

    // The bughouse match: alice reads the team chat; a refused move is kept.
    let m = w.bughouse;
    let body = page(&alice, &format!("/games/{m}"));
    for p in PAYLOADS {
        assert_shows("the team chat", &body, p);
    }
    let csrf = alice.csrf(&format!("/games/{m}"));
    let p = alice.post(
        &format!("/games/{m}/match"),
        &[
            ("csrf_token", &csrf),
            ("action", "move"),
            ("board", "a"),
            ("ply", "0"),
            ("move", PAYLOADS[3]),
            ("message", &all()),
        ],
    );
    assert_inert("a refused bughouse move", &p.body);

    // The imported game, and the search that finds it by a PGN name.
    for who in [&alice, &visitor] {
        let body = page(who, &format!("/games/{imported}"));
        assert_shows("the imported game", &body, w.white);
        assert_shows("the imported game", &body, w.black);
    }
    // Names are searched as usernames are written: a payload is refused, escaped.
    let refused = alice.get(&format!("/search?player={}", pct(w.white)));
    assert_eq!(refused.status, 422);
    assert_inert("a refused search", &refused.body);
    assert_shows("a refused search", &refused.body, w.white);
    let body = page(&alice, "/search?status=finished");
    assert_shows("the search's results", &body, w.white);
    assert!(body.contains(&format!("/games/{imported}")), "found");
    for p in PAYLOADS {
        let q = pct(p);
        let path = format!(
            "/search?player={q}&opponent={q}&variant={q}&result={q}&started_from={q}&tags={q}"
        );
        let got = alice.get(&path);
        assert_inert(&path, &got.body);
    }

    // The lists, the profile, the account.
    for path in [
        "/",
        "/games",
        "/challenges",
        "/account",
        "/users/alice",
        "/import",
    ] {
        page(&alice, path);
    }
    page(&visitor, "/");
    page(&visitor, "/users/alice");
    // Signing up with a payload as the name: refused, the name kept escaped.
    let csrf = visitor.csrf("/signup");
    let p = visitor.post(
        "/signup",
        &[
            ("csrf_token", &csrf),
            ("username", PAYLOADS[3]),
            ("email", EMAIL),
            ("password", "correct horse battery"),
        ],
    );
    assert!((400..500).contains(&p.status), "{}", p.status);
    assert_inert("the refused sign-up", &p.body);
    assert_shows("the refused sign-up", &p.body, PAYLOADS[3]);
    // The address with markup, on its owner's account page and in the API.
    let mallory = app.logged_in("mallory");
    let body = page(&mallory, "/account");
    assert_shows("the account page", &body, EMAIL);
    let r = app.post(
        "/api/v1/tokens",
        None,
        json!({"username": "mallory", "password": "correct horse battery"}),
    );
    let token = r.body["token"].as_str().unwrap();
    let settings = json_answer(app, "/api/v1/me/notifications", token);
    assert_eq!(settings["email"], json!(EMAIL));
    // The time zone is chosen from a list; another value is refused, escaped.
    let csrf = alice.csrf("/account");
    let p = alice.post(
        "/account/notifications",
        &[("csrf_token", &csrf), ("time_zone", &all())],
    );
    let p = alice.follow(p);
    assert_inert("the refused time zone", &p.body);

    // Addresses echoed by error pages: HTML ones escaped, the others not HTML.
    let probe = PAYLOADS[3];
    let q = pct(probe);
    for path in [
        format!("/games/{q}"),
        format!("/users/{q}"),
        format!("/{q}"),
        format!("/games/{g}?ply={q}"),
        format!("/games/{g}.svg?theme={q}"),
        format!("/games/{g}.png?pieces={q}"),
        format!("/games/{g}.fen?ply={q}"),
        format!("/unsubscribe?token={q}"),
        format!("/verify-email?token={q}"),
        format!("/login?next={q}"),
        format!("/search?page={q}"),
        format!("/static/{q}"),
        format!("/api/v1/games/{q}"),
        format!("/api/v1/users/{q}"),
    ] {
        let (status, kind, body) = fetch(&visitor.client, &format!("{}{path}", app.base));
        if kind.starts_with("text/html") {
            assert_inert(&path, &body);
        } else if kind.starts_with("application/json") {
            serde_json::from_str::<Value>(&body).unwrap_or_else(|e| panic!("{path}: {e}"));
        } else {
            assert!(
                !body.contains(probe) || !kind.contains("html"),
                "{path}: {status} {kind}"
            );
        }
    }

    // A login's `next` never leads off the site, not even through a tab browsers drop.
    for next in [
        "/\t/evil.example",
        "javascript:window.__xss=1",
        "//evil.example",
    ] {
        let who = app.browser();
        let csrf = who.csrf(&format!("/login?next={}", pct(next)));
        let p = who.post(
            "/login",
            &[
                ("csrf_token", &csrf),
                ("username", "carol"),
                ("password", "correct horse battery"),
                ("next", next),
            ],
        );
        assert_eq!(
            (p.status, p.location.as_deref()),
            (303, Some("/")),
            "{next:?}"
        );
    }

    // JSON: the text as data.
    let game = json_answer(app, &format!("/api/v1/games/{g}"), &w.alice);
    let texts: Vec<&str> = game["comments"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| c["text"].as_str())
        .collect();
    for p in PAYLOADS {
        assert!(texts.contains(p), "the game JSON holds {p:?} as written");
    }
    let note = json_answer(app, &format!("/api/v1/games/{g}/notes"), &w.alice);
    assert_eq!(note["text"], json!(all()));
    let analysis = json_answer(app, &format!("/api/v1/games/{g}/analysis"), &w.alice);
    assert!(analysis["pgn"].as_str().unwrap().contains(pgn_safe()[0]));
    let chat = json_answer(app, &format!("/api/v1/games/{m}"), &w.alice);
    let chat: Vec<&str> = chat["team_chat"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| c["text"].as_str())
        .collect();
    assert_eq!(chat, PAYLOADS);
    let found = json_answer(app, "/api/v1/search?status=finished", &w.alice);
    let listed = found["games"].as_array().unwrap().iter();
    let listed: Vec<_> = listed.filter(|g| g["id"] == json!(imported)).collect();
    assert_eq!(listed[0]["white"], json!(w.white));
    let (_, kind, body) = fetch(
        &alice.client,
        &format!("{}/games/{g}/analysis.json", app.base),
    );
    assert!(kind.starts_with("application/json"), "{kind}");
    serde_json::from_str::<Value>(&body).expect("the analysis JSON");

    // PGN: the text as written, never served as HTML.
    for path in [
        format!("/games/{g}.pgn"),
        format!("/games/{imported}.pgn"),
        "/search.pgn?status=finished".to_string(),
    ] {
        let (status, kind, body) = fetch(&visitor.client, &format!("{}{path}", app.base));
        assert_eq!(status, 200, "{path}");
        assert!(
            kind.starts_with("application/x-chess-pgn"),
            "{path}: {kind}"
        );
        assert!(body.contains(pgn_safe()[0]), "{path}: {body}");
    }

    check_mails(env);
}

/// The HTML part of every mail escapes what the players wrote; the text part holds it as written.
fn check_mails(env: &Env) {
    let mails: Vec<Mail> = env.sink.mails();
    let mut seen = Vec::new();
    for mail in &mails {
        let subject = mail.subject();
        assert_inert(&format!("the mail {subject:?}"), mail.html());
        if mail.text().contains(&all()) {
            assert_shows(&format!("the mail {subject:?}"), mail.html(), &all());
            seen.push(subject);
        }
    }
    let told = |word: &str| seen.iter().any(|s| s.to_lowercase().contains(word));
    assert!(
        told("your move") && told("draw offered") && told("declined"),
        "mails with the players' messages: {seen:#?}"
    );
    let subjects: Vec<String> = mails.iter().map(Mail::subject).collect();
    assert!(
        subjects.iter().any(|s| s.contains("(resignation)")),
        "a game-over mail: {subjects:#?}"
    );
}

#[test]
fn postgres_pages_answers_and_mails_escape_every_payload() {
    let Some(env) = setup(Backend::Postgres) else {
        return;
    };
    let world = plant(&env);
    check_sources(&env, &world);
}

#[test]
fn sqlite_pages_answers_and_mails_escape_every_payload_and_chromium_runs_none() {
    let Some(env) = setup(Backend::Sqlite) else {
        return;
    };
    let world = plant(&env);
    check_sources(&env, &world);
    let Some(chromedriver) = chromedriver() else {
        return;
    };
    let driver = webdriver::Driver::start(&chromedriver);
    in_chromium(&Player::new("alice", &driver, &env.app), &world);
}

/// Fails when anything a payload does has happened on the page shown, or the console tells of
/// a script or style refused under the policy, a script error, or a load of `/xss-img`.
fn assert_nothing_fired(player: &Player, what: &str) {
    let state = player.window.execute(
        "return {xss: window.__xss === undefined ? null : String(window.__xss),\
                 fired: document.querySelectorAll('#xss-fired').length,\
                 title: document.title};",
        json!([]),
    );
    assert_eq!(state["xss"], Value::Null, "{what}: a payload ran");
    assert_eq!(
        state["fired"],
        json!(0),
        "{what}: a payload's element is in the page"
    );
    assert_ne!(
        state["title"],
        json!("XSS"),
        "{what}: a payload set the title"
    );
    let image_load = Regex::new(r"https?://[^/ ]+/xss-img").unwrap();
    let complaints: Vec<String> = player
        .window
        .browser_log()
        .into_iter()
        .filter(|line| {
            let lower = line.to_lowercase();
            lower.contains("content security policy")
                || lower.contains("uncaught")
                || image_load.is_match(line)
        })
        .collect();
    assert!(complaints.is_empty(), "{what}: {complaints:#?}");
}

fn visit(player: &Player, path: &str, ready: &str) {
    player.open(path);
    player.window.wait_for(ready);
    assert_nothing_fired(player, path);
}

/// Every page with the payloads in Chromium: as alice (a player of each game), then as a visitor.
fn in_chromium(player: &Player, w: &World) {
    let (g, imported) = (w.game, w.imported);
    player.open("/login");
    player.find("#username").type_text("alice");
    player.find("#password").type_text("correct horse battery");
    player
        .find(r#"form[action="/login"] button[type="submit"]"#)
        .click();
    player.window.wait_for(r#"form[action="/logout"]"#);

    visit(player, &format!("/games/{g}"), "#board");
    let shown = player.window.execute(
        "return Array.from(document.querySelectorAll('.movelist .comment')).map(e => e.textContent).join('\\n');",
        json!([]),
    );
    assert!(
        shown.as_str().unwrap().contains(PAYLOADS[0]),
        "the comments read as text: {shown}"
    );
    for tab in [
        "overview", "material", "tags", "variant", "book", "engine", "share", "help", "analysis",
    ] {
        player.find(&format!("#tab-{tab}")).click();
        player
            .window
            .wait_for(&format!(r#"#tab-{tab}[aria-selected="true"]"#));
    }
    assert_nothing_fired(player, "the game's tabs");
    // The Analysis Board tab, clicked last, opened the overlay.
    player
        .window
        .wait_until("the analysis tree's comments", || {
            let shown = player.window.execute(
            "return Array.from(document.querySelectorAll('.an-comment')).map(e => e.textContent);",
            json!([]),
        );
            shown
                .as_array()
                .is_some_and(|c| c.iter().any(|t| t.as_str() == Some(pgn_safe()[0])))
                .then_some(())
        });
    assert_nothing_fired(player, "the analysis board");
    // The toolbar moves through the game without a reload.
    player.open(&format!("/games/{g}?ply=0"));
    player.window.wait_for("#board");
    player.find("#nav-last").click();
    player.window.wait_for_text("#nav-ply", "ply 1 of 1");
    assert_nothing_fired(player, "the toolbar");

    // A refused move keeps what was typed.
    visit(player, &format!("/games/{}", w.running), "#move-input");
    player.window.execute(
        "document.getElementById('move-input').value = arguments[0];\
         document.getElementById('message-input').value = arguments[0];\
         document.getElementById('confirm-field').value = 'no';\
         document.getElementById('action-form').submit();",
        json!([all()]),
    );
    player.window.wait_for("#action-error");
    assert_eq!(
        player.find("#move-input").property("value"),
        json!(all()),
        "the move box keeps the text as typed"
    );
    assert_nothing_fired(player, "a refused move");

    visit(
        player,
        &format!("/games/{}", w.bughouse),
        ".match-board.mine",
    );
    visit(player, "/import", "#import-form");
    player.window.execute(
        "document.getElementById('pgn').value = arguments[0];\
         document.getElementById('import-form').submit();",
        json!([format!(
            "[White \"{}\"]\n[Black \"z\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n",
            pgn_safe()[3]
        )]),
    );
    player.window.wait_for_text("main h2", "Imported");
    assert_nothing_fired(player, "the import summary");
    visit(player, &format!("/games/{imported}"), "#board");
    visit(player, "/search?status=finished", ".mini-card");
    visit(
        player,
        &format!("/search?player={0}&started_from={0}", pct(PAYLOADS[3])),
        "main",
    );
    for path in ["/", "/games", "/challenges", "/account", "/users/alice"] {
        visit(player, path, "main");
    }
    visit(player, &format!("/games/{}", pct(PAYLOADS[3])), "body");
    visit(player, &format!("/login?next={}", pct(PAYLOADS[3])), "body");

    player.find(r#"form[action="/logout"] button"#).click();
    player.window.wait_for(r#"a[href^="/login"]"#);
    visit(player, &format!("/games/{g}"), "#board");
    visit(player, &format!("/games/{imported}"), "#board");
    visit(player, "/", "main");
}
