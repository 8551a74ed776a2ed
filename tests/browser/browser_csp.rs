//! Every kind of page under the site's Content-Security-Policy, in a real headless Chromium:
//! each page is visited (its tabs opened, its scripts made to act) and Chromium's console must
//! hold no refusal under the policy and no script error. A page that breaks the policy on
//! purpose first proves that such a refusal is seen.

use crate::common;
use crate::webdriver;

use common::{Backend, Options, TestApp, spawn_app_with_env};
use serde_json::json;
use webdriver::{Player, Session, chromedriver};

/// The policy every response carries (`src/web/headers.rs`).
const POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/// The worker runs every second with a small engine budget, so a finished game's analysis is
/// there within seconds.
fn app() -> Option<TestApp> {
    spawn_app_with_env(
        Backend::Sqlite,
        Options {
            worker_interval: Some(1),
            ..Options::default()
        },
        vec![("SLOWFUSE__ANALYSIS__NODES".into(), "20000".into())],
    )
}

/// The console lines of the page(s) shown since the last look that tell of a refusal under
/// the policy or a script that failed.
fn complaints(window: &Session) -> Vec<String> {
    window
        .browser_log()
        .into_iter()
        .filter(|line| {
            let lower = line.to_lowercase();
            lower.contains("content security policy") || lower.contains("uncaught")
        })
        .collect()
}

/// Opens `path`, waits for `ready` (a selector the page's scripts or markup show), and checks
/// the console.
fn visit(player: &Player, path: &str, ready: &str) {
    player.open(path);
    player.window.wait_for(ready);
    assert_clean(player, path);
}

fn assert_clean(player: &Player, what: &str) {
    let found = complaints(&player.window);
    assert!(found.is_empty(), "{what}: {found:#?}");
}

#[test]
fn every_page_keeps_the_policy_and_its_scripts_work_in_chromium() {
    let Some(app) = app() else {
        return;
    };
    let Some(chromedriver) = chromedriver() else {
        return;
    };
    // Every response carries the policy and its companions: pages, JSON, styles, errors.
    let (alice, bob) = (app.user("alice"), app.user("bob"));
    let running = app.game("standard", &alice, &bob);
    app.play_all(running, &alice, &bob, &["e2e4", "e7e5"]);
    for path in [
        "/".to_string(),
        format!("/api/v1/games/{running}"),
        "/static/site.css".to_string(),
        "/no-such-page".to_string(),
    ] {
        let res = app
            .client
            .get(format!("{}{path}", app.base))
            .send()
            .expect("request");
        let header = |name: &str| {
            res.headers()
                .get(name)
                .and_then(|v| v.to_str().ok())
                .unwrap_or_default()
                .to_string()
        };
        assert_eq!(header("content-security-policy"), POLICY, "{path}");
        assert_eq!(header("x-content-type-options"), "nosniff", "{path}");
        assert_eq!(header("x-frame-options"), "DENY", "{path}");
        assert_eq!(header("referrer-policy"), "same-origin", "{path}");
    }

    // A finished game (fool's mate) with its engine analysis asked for; a bughouse match; a
    // minesweeper game in its setup.
    let finished = app.game("standard", &alice, &bob);
    app.play_all(finished, &alice, &bob, &["f2f3", "e7e5", "g2g4", "d8h4"]);
    let r = app.post(
        &format!("/api/v1/games/{finished}/analysis/engine"),
        Some(&alice),
        json!({}),
    );
    assert_eq!(r.status, 202, "{}", r.body);
    let (carol, dave) = (app.user("carol"), app.user("dave"));
    let bughouse = app.bughouse_match([&alice, &bob, &carol, &dave]);
    let mines = app.game_from(
        &alice,
        &bob,
        json!({"variant": "minesweeper", "minesweeper": "chosen", "color": "white", "days_per_move": 3, "setup_hours": 24}),
    );

    let driver = webdriver::Driver::start(&chromedriver);
    let player = Player::new("alice", &driver, &app);

    // The detector sees a refusal: an inline style and an inline script put into a page.
    visit(&player, "/", "main");
    player.window.execute(
        "document.body.insertAdjacentHTML('beforeend', '<p style=\"color: red\">styled</p>');\
         var s = document.createElement('script'); s.textContent = 'window.ran = 1;';\
         document.body.appendChild(s);",
        json!([]),
    );
    let seen = player.window.wait_until("the refusals logged", || {
        let found = complaints(&player.window);
        (found.len() >= 2).then_some(found)
    });
    assert!(
        seen.iter().any(|l| l.contains("style-src"))
            && seen.iter().any(|l| l.contains("script-src")),
        "{seen:#?}"
    );
    assert_eq!(
        player.window.execute("return window.ran === 1;", json!([])),
        json!(false),
        "the inline script did not run"
    );

    // A visitor's pages.
    visit(&player, "/signup", "#username");
    visit(&player, "/login", "#password");
    visit(&player, "/variants", "main h1");
    visit(&player, "/help/game", "main h1");
    visit(&player, "/search", "form.search-form");
    visit(&player, "/users/alice", "main h1");
    visit(&player, &format!("/games/{running}"), "#board");
    visit(&player, "/no-such-page", "body");
    visit(&player, "/games/999999", "main h1");

    // A player's pages.
    player.open("/login");
    player.find("#username").type_text("alice");
    player.find("#password").type_text("correct horse battery");
    player
        .find(r#"form[action="/login"] button[type="submit"]"#)
        .click();
    player.window.wait_for(r#"form[action="/logout"]"#);
    assert_clean(&player, "logging in");
    visit(&player, "/", "main");
    visit(&player, "/challenges", "#variant");
    visit(&player, "/account", "main h1");
    visit(&player, "/import", "#import-form");
    visit(&player, "/games", "main h1");
    visit(&player, "/search?player=alice", ".mini-card");

    // The running game: every tab opens, and a click move waits for its confirmation.
    visit(
        &player,
        &format!("/games/{running}"),
        r#".board[data-movable="true"]"#,
    );
    // (The Analysis Board tab opens its overlay over the others: it comes below.)
    for tab in [
        "overview", "material", "tags", "variant", "book", "engine", "share", "help",
    ] {
        player.find(&format!("#tab-{tab}")).click();
        player
            .window
            .wait_for(&format!(r#"#tab-{tab}[aria-selected="true"]"#));
    }
    player.find("#tab-overview").click();
    player.find(r#".sq[data-square="g1"]"#).click();
    player.window.wait_for(r#".sq.selected[data-square="g1"]"#);
    player.find(r#".sq[data-square="f3"]"#).click();
    player
        .window
        .wait_for_text("#confirm-question", "Play Nf3?");
    player.find("#confirm-move").click();
    player.window.wait_for_text(".flash", "You played Nf3.");
    assert_clean(&player, "a move played by clicking");
    // The toolbar moves through the game without a reload.
    player.find(r#".movelist a[href="?ply=1"]"#).click();
    player.window.wait_for_text("#nav-ply", "ply 1 of 3");
    assert_clean(&player, "the toolbar");

    // The finished game: its engine analysis, and the analysis board.
    visit(&player, &format!("/games/{finished}"), "#board");
    player.find("#tab-engine").click();
    player
        .window
        .wait_for(r#"#panel-engine[data-status="done"]"#);
    player.window.wait_for(".eval-graph");
    assert_clean(&player, "the engine analysis");
    player.find("#tab-analysis").click();
    player
        .window
        .wait_for("#analysis-overlay:not([hidden]) #analysis-board .sq");
    player.window.wait_until("the analysis loaded", || {
        let status = player.find("#analysis-status").text();
        (!status.contains("Loading")).then_some(())
    });
    assert_clean(&player, "the analysis board");

    // The bughouse match and the minesweeper setup.
    visit(&player, &format!("/games/{bughouse}"), ".match-board.mine");
    visit(&player, &format!("/games/{mines}"), "#bombs-form");
    for square in ["a3", "b3"] {
        player
            .find(&format!(r#"label.bomb-spot[data-square="{square}"]"#))
            .click();
    }
    player.window.wait_for_text("#bomb-counter", "2 of 8");
    assert_clean(&player, "ticking bombs");
}
