//! Every kind of page and state, in light and dark, checked by axe-core in a real headless
//! Chromium against WCAG 2.2 levels A and AA; and the pages that must reflow at 320 CSS pixels
//! (WCAG 1.4.10) measured there. The test lists every rule broken, where, and by which elements.

use crate::common;
use crate::webdriver;

use common::{Backend, Options, TestApp, spawn_app_with_env};
use serde_json::json;
use webdriver::axe::{Violation, audit, axe_script};
use webdriver::{Player, chromedriver};

/// The worker runs every second with a small engine budget, so a finished game's engine
/// analysis is there within seconds.
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

/// The games the pages show: one of each kind and state.
struct World {
    running: i64,
    finished: i64,
    crazyhouse: i64,
    bughouse: i64,
    mines_setup: i64,
    mines_play: i64,
}

fn world(app: &TestApp) -> World {
    let (alice, bob) = (app.user("alice"), app.user("bob"));
    let (carol, dave) = (app.user("carol"), app.user("dave"));
    // A running game, alice to move.
    let running = app.game("atomic", &alice, &bob);
    app.play_all(running, &alice, &bob, &["e2e4", "e7e5", "g1f3", "b8c6"]);
    // A finished one (fool's mate) whose engine analysis is asked for.
    let finished = app.game("standard", &alice, &bob);
    app.play_all(finished, &alice, &bob, &["f2f3", "e7e5", "g2g4", "d8h4"]);
    let r = app.post(
        &format!("/api/v1/games/{finished}/analysis/engine"),
        Some(&alice),
        json!({}),
    );
    assert_eq!(r.status, 202, "{}", r.body);
    // Pieces in hand on both sides, alice to move.
    let crazyhouse = app.game("crazyhouse", &alice, &carol);
    app.play_all(
        crazyhouse,
        &alice,
        &carol,
        &["e2e4", "d7d5", "e4d5", "d8d5"],
    );
    let bughouse = app.bughouse_match([&alice, &bob, &carol, &dave]);
    let chosen = json!({"variant": "minesweeper", "minesweeper": "chosen", "color": "white", "days_per_move": 3, "setup_hours": 24});
    let mines_setup = app.game_from(&alice, &bob, chosen.clone());
    let mines_play = app.game_from(&alice, &dave, chosen);
    for (token, squares) in [
        (
            &alice,
            json!(["a3", "b3", "c3", "d3", "f3", "g3", "h3", "h4"]),
        ),
        (
            &dave,
            json!(["a6", "b6", "c6", "g6", "h6", "a5", "b5", "h5"]),
        ),
    ] {
        let r = app.post_method(
            "PUT",
            &format!("/api/v1/games/{mines_play}/bombs"),
            Some(token),
            json!({ "squares": squares }),
        );
        assert_eq!(r.status, 200, "{}", r.body);
    }
    // alice is told how many bombs lie next to d5.
    app.play_all(mines_play, &alice, &dave, &["e2e4", "d7d5", "e4d5", "d8d5"]);
    // A challenge to alice, and an open one of hers.
    let r = app.post(
        "/api/v1/challenges",
        Some(&bob),
        json!({"variant": "chess960", "color": "black", "days_per_move": 2, "opponent": "alice"}),
    );
    assert_eq!(r.status, 201, "{}", r.body);
    let r = app.post(
        "/api/v1/challenges",
        Some(&alice),
        json!({"variant": "standard", "color": "white", "days_per_move": 5, "opponent": null}),
    );
    assert_eq!(r.status, 201, "{}", r.body);
    World {
        running,
        finished,
        crazyhouse,
        bughouse,
        mines_setup,
        mines_play,
    }
}

/// What axe found, page state by page state.
struct Findings<'a> {
    script: String,
    player: &'a Player<'a>,
    found: Vec<(String, Violation)>,
    audited: usize,
}

impl Findings<'_> {
    /// Audits the page as it stands, in the light colour scheme and then in the dark.
    fn audit(&mut self, state: &str) {
        for dark in [false, true] {
            self.player.window.set_dark(dark);
            let scheme = if dark { "dark" } else { "light" };
            let label = format!("{state} ({scheme}, {})", self.player.window.url());
            for violation in audit(&self.player.window, &self.script) {
                self.found.push((label.clone(), violation));
            }
            self.audited += 1;
        }
        self.player.window.set_dark(false);
    }

    /// Opens `path`, waits for `ready`, and audits it.
    fn visit(&mut self, path: &str, ready: &str) {
        self.player.open(path);
        self.player.window.wait_for(ready);
        self.audit(path);
    }

    fn report(&self) -> String {
        self.found
            .iter()
            .map(|(state, v)| {
                format!(
                    "{} [{}] {} — on {state}\n    {}",
                    v.rule,
                    v.impact,
                    v.help,
                    v.nodes.join("\n    ")
                )
            })
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// The board `grid` is one stop of the Tab key (one square focusable), and from its first
/// square → goes to the second and ↓ to the one below that.
fn arrows_walk_the_grid(player: &Player, grid: &str) {
    let at = || {
        player
            .window
            .execute(
                "const cells = Array.from(document.querySelectorAll(arguments[0] + ' [role=gridcell]'));
                 return [cells.indexOf(document.activeElement),
                         cells.filter(c => c.tabIndex === 0).length, cells.length];",
                json!([grid]),
            )
            .as_array()
            .map(|v| v.iter().map(|n| n.as_i64().unwrap_or(-2)).collect::<Vec<_>>())
            .unwrap_or_default()
    };
    player.window.execute(
        &format!("document.querySelector('{grid} [tabindex=\"0\"]').focus();"),
        json!([]),
    );
    assert_eq!(at(), [0, 1, 64], "{grid}: the first square has the focus");
    player.window.press_key("\u{E014}");
    assert_eq!(at(), [1, 1, 64], "{grid}: → goes to the next square");
    player.window.press_key("\u{E015}");
    assert_eq!(at(), [9, 1, 64], "{grid}: ↓ goes to the square below");
}

fn log_in(player: &Player) {
    player.open("/login");
    player.find("#username").type_text(player.name);
    player.find("#password").type_text("correct horse battery");
    player
        .find(r#"form[action="/login"] button[type="submit"]"#)
        .click();
    player.window.wait_for(r#"form[action="/logout"]"#);
}

#[test]
fn every_page_and_state_passes_axe_in_light_and_dark_in_chromium() {
    let Some(app) = app() else {
        return;
    };
    let Some(chromedriver) = chromedriver() else {
        return;
    };
    let Some(script) = axe_script() else {
        return;
    };
    let w = world(&app);
    let driver = webdriver::Driver::start(&chromedriver);
    let player = Player::new("alice", &driver, &app);
    let mut axe = Findings {
        script,
        player: &player,
        found: Vec::new(),
        audited: 0,
    };

    // A visitor's pages, the error pages among them.
    axe.visit("/", "#live-games .mini-card");
    axe.visit("/signup", "#username");
    axe.visit("/login", "#password");
    axe.visit("/variants", "main h1");
    axe.visit("/help/game", "main h1");
    axe.visit("/search", "form.search-form");
    axe.visit("/search?player=alice", ".mini-card");
    axe.visit("/users/alice", "main h1");
    axe.visit(&format!("/games/{}", w.running), "#board .sq");
    axe.visit(&format!("/games/{}", w.bughouse), ".match-board");
    axe.visit("/no-such-page", "main h1");
    axe.visit("/games/999999", "main h1");
    axe.visit("/next?after=abc", "main h1");
    // A refused log-in.
    player.open("/login");
    player.find("#username").type_text("alice");
    player.find("#password").type_text("wrong password");
    player
        .find(r#"form[action="/login"] button[type="submit"]"#)
        .click();
    player.window.wait_for(".flash-error");
    axe.audit("a refused log-in");

    // A player's pages.
    log_in(&player);
    axe.visit("/", "#my-turn .mini-card");
    axe.visit("/challenges", "#variant");
    axe.visit("/games", "main h1");
    axe.visit("/account", "main h1");
    axe.visit("/import", "#import-form");
    axe.visit("/users/alice", "main h1");

    // The running game on each of its tabs, then a move waiting for its confirmation.
    let running = format!("/games/{}", w.running);
    axe.visit(&running, r#".board[data-movable="true"]"#);
    // Every tab with a panel, as the page lists them (the Analysis Board's overlay is below).
    let tabs: Vec<String> = player
        .window
        .find_all("#info-tabs [role=tab][aria-controls]")
        .iter()
        .filter_map(|t| t.attribute("id"))
        .filter(|id| id != "tab-overview" && id != "tab-analysis")
        .collect();
    assert!(tabs.len() >= 7, "{tabs:?}");
    for tab in &tabs {
        player.find(&format!("#{tab}")).click();
        player
            .window
            .wait_for(&format!(r#"#{tab}[aria-selected="true"]"#));
        axe.audit(&format!("{running}, {tab}"));
    }
    player.find("#tab-overview").click();
    player.find(r#".sq[data-square="f1"]"#).click();
    player.window.wait_for(r#".sq.selected[data-square="f1"]"#);
    player.find(r#".sq[data-square="c4"]"#).click();
    player
        .window
        .wait_for_text("#confirm-question", "Play Bc4?");
    axe.audit(&format!("{running}, a move to confirm"));

    // The finished game: its engine analysis, and the analysis board open over the page.
    let finished = format!("/games/{}", w.finished);
    axe.visit(&finished, "#board .sq");
    player.find("#tab-engine").click();
    player
        .window
        .wait_for(r#"#panel-engine[data-status="done"]"#);
    player.window.wait_for(".eval-graph");
    player.find("#engine-moves a").click();
    player.window.wait_for("#engine-moves [aria-current]");
    axe.audit(&format!("{finished}, engine analysis"));
    player.find("#tab-analysis").click();
    player
        .window
        .wait_for("#analysis-overlay:not([hidden]) #analysis-board .sq");
    player.window.wait_until("the analysis loaded", || {
        let status = player.find("#analysis-status").text();
        (!status.contains("Loading")).then_some(())
    });
    player.find("#analysis-back").click();
    axe.audit(&format!("{finished}, analysis board"));

    // Pieces in hand; the bughouse match; minesweeper in its setup and in play.
    axe.visit(&format!("/games/{}", w.crazyhouse), ".pocket-piece");
    axe.visit(&format!("/games/{}", w.bughouse), ".match-board.mine");
    for grid in ["#grid-a", "#grid-b"] {
        arrows_walk_the_grid(&player, grid);
    }
    axe.visit(&format!("/games/{}", w.mines_setup), "#bombs-form");
    player.find(r#"label.bomb-spot[data-square="c3"]"#).click();
    player.window.wait_for_text("#bomb-counter", "1 of 8");
    axe.audit("minesweeper setup, a bomb ticked");
    axe.visit(&format!("/games/{}", w.mines_play), ".mine-count");
    arrows_walk_the_grid(&player, "#board");

    assert!(axe.audited >= 70, "{} states audited", axe.audited);
    assert!(
        axe.found.is_empty(),
        "{} WCAG A/AA violations:\n{}",
        axe.found.len(),
        axe.report()
    );
}

/// How far the page reaches past the window's right edge, in CSS pixels, and the outermost
/// elements that reach past it.
fn sideways(player: &Player) -> (i64, String) {
    let found = player.window.execute(
        "const root = document.documentElement;
         const wide = Array.from(document.body.querySelectorAll('*'))
             .filter(e => e.getBoundingClientRect().right > root.clientWidth + 0.5)
             .filter(e => !e.parentElement || e.parentElement.getBoundingClientRect().right <= root.clientWidth + 0.5)
             .map(e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (e.className && e.className.baseVal === undefined ? '.' + e.className.trim().replace(/\\s+/g, '.') : '')
                  + ' to ' + Math.round(e.getBoundingClientRect().right) + 'px');
         return [root.scrollWidth - root.clientWidth, wide.slice(0, 8).join(', ')];",
        json!([]),
    );
    (
        found[0].as_i64().unwrap_or(i64::MAX),
        found[1].as_str().unwrap_or_default().to_string(),
    )
}

#[test]
fn pages_reflow_at_320_css_pixels_without_scrolling_sideways_in_chromium() {
    let Some(app) = app() else {
        return;
    };
    let Some(chromedriver) = chromedriver() else {
        return;
    };
    let w = world(&app);
    let driver = webdriver::Driver::start(&chromedriver);
    let player = Player::new("alice", &driver, &app);
    log_in(&player);
    player.window.set_viewport_size(320, 640);
    let mut wide = Vec::new();
    for (path, ready) in [
        ("/variants".to_string(), "main h1"),
        (format!("/games/{}", w.mines_setup), "#bombs-form"),
        (format!("/games/{}", w.mines_play), ".mine-count"),
        (format!("/games/{}", w.running), "#board .sq"),
        (format!("/games/{}", w.crazyhouse), ".pocket-piece"),
        (format!("/games/{}", w.bughouse), ".match-board"),
        ("/".to_string(), "main"),
        ("/challenges".to_string(), "#variant"),
        ("/search?player=alice".to_string(), ".mini-card"),
        ("/users/alice".to_string(), "main h1"),
        ("/help/game".to_string(), "main h1"),
        ("/account".to_string(), "main h1"),
    ] {
        player.open(&path);
        player.window.wait_for(ready);
        let (by, what) = sideways(&player);
        if by > 0 {
            wide.push(format!("{path} scrolls sideways by {by}px: {what}"));
        }
    }
    assert!(wide.is_empty(), "at 320px: {wide:#?}");
}
