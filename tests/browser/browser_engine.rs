//! The Engine Analysis tab in a real headless Chromium: a player asks for the analysis of a
//! finished game, watches its progress, and the tab fills itself in when the worker is done
//! (without a reload: what they typed meanwhile stays); clicking a judged move of the analysis
//! shows its position on the board.

use crate::common;
use crate::webdriver;

use common::{Backend, Options, TestApp, spawn_app_with_env};
use webdriver::{DESKTOP, Driver, PHONE, Player, chromedriver, screenshot};

/// The worker's own pass is ten minutes away: only the wake-up of the request starts the
/// analysis. A second a position, so the progress can be seen.
fn app(backend: Backend) -> Option<TestApp> {
    spawn_app_with_env(
        backend,
        Options {
            worker_interval: Some(600),
            ..Options::default()
        },
        vec![
            ("SLOWFUSE__ANALYSIS__NODES".into(), "50000000".into()),
            (
                "SLOWFUSE__ANALYSIS__SECONDS_PER_POSITION".into(),
                "1".into(),
            ),
            (
                "SLOWFUSE__ANALYSIS__AUTOMATIC_FOR_RATED".into(),
                "false".into(),
            ),
        ],
    )
}

#[test]
fn sqlite() {
    if let Some(app) = app(Backend::Sqlite) {
        the_analysis_fills_the_tab_and_its_moves_show_their_positions(&app);
    }
}

#[test]
fn postgres() {
    if let Some(app) = app(Backend::Postgres) {
        the_analysis_fills_the_tab_and_its_moves_show_their_positions(&app);
    }
}

fn the_analysis_fills_the_tab_and_its_moves_show_their_positions(app: &TestApp) {
    let Some(chromedriver) = chromedriver() else {
        return;
    };
    let (w, b) = (app.user("alice"), app.user("bob"));
    let g = app.game("standard", &w, &b);
    // White's queen takes a pawn on f7 and is taken by the king; a few more moves, and
    // White resigns.
    let moves = [
        "e2e4", "e7e5", "d1h5", "b8c6", "h5f7", "e8f7", "g1f3", "g8f6", "f1c4", "d7d5",
    ];
    app.play_all(g, &w, &b, &moves);
    let r = app.post(
        &format!("/api/v1/games/{g}/actions"),
        Some(&w),
        serde_json::json!({"action": "resign", "ply": 10}),
    );
    assert_eq!(r.status, 200, "{}", r.body);

    let driver = Driver::start(&chromedriver);
    let alice = Player::new("alice", &driver, app);
    alice.open("/login");
    alice.find("#username").type_text("alice");
    alice.find("#password").type_text("correct horse battery");
    alice
        .find(r#"form[action="/login"] button[type="submit"]"#)
        .click();
    alice.window.wait_for(r#"form[action="/logout"]"#);
    alice.open(&format!("/games/{g}"));
    alice.find("#tab-engine").click();
    alice.window.wait_for("#engine-ask");
    alice.find("#engine-ask").click();
    // Back on the tab, with its progress while the worker judges 11 positions.
    alice.window.wait_for("#engine-progress");
    alice
        .window
        .wait_for_text("#engine-analysis", "positions judged");
    // Typed in another tab while waiting: must survive the tab's redrawing.
    alice.find("#tab-overview").click();
    alice
        .find("#notes-text")
        .type_text("the queen went too early");
    alice
        .window
        .wait_for(r#"#panel-engine[data-status="done"]"#);
    assert_eq!(
        alice.find("#notes-text").property("value"),
        serde_json::json!("the queen went too early"),
        "what was typed is kept"
    );
    alice.find("#tab-engine").click();
    alice.window.wait_for(".eval-graph");
    assert!(
        alice.window.find_all("#engine-progress").is_empty(),
        "the progress bar gives way to the analysis"
    );
    // Giving the queen for a pawn is a blunder.
    let row = alice.find("#engine-ply-5").text();
    assert!(row.contains("Qxf7+??") && row.contains("blunder"), "{row}");
    screenshot(&alice.window, "engine-analysis-desktop.png");
    alice.window.set_dark(true);
    screenshot(&alice.window, "engine-analysis-dark.png");
    alice.window.set_dark(false);

    // The move's link shows its position through the toolbar, without loading the page.
    alice
        .window
        .execute("window.__samePage = true;", serde_json::json!([]));
    alice.find("#engine-ply-5 a").click();
    alice.window.wait_for_text("#nav-ply", "ply 5 of 10");
    assert_eq!(
        alice
            .window
            .execute("return window.__samePage === true;", serde_json::json!([])),
        serde_json::json!(true),
        "no page load"
    );
    assert_eq!(
        alice
            .find("#engine-ply-5")
            .attribute("aria-current")
            .as_deref(),
        Some("true")
    );
    // A click on the graph does the same for another ply.
    alice.find(r#".eval-graph a[data-ply="4"]"#).click();
    alice.window.wait_for_text("#nav-ply", "ply 4 of 10");

    alice.window.set_viewport_size(PHONE.0, PHONE.1);
    alice.open(&format!("/games/{g}#panel-engine"));
    alice.window.wait_for(".eval-graph");
    screenshot(&alice.window, "engine-analysis-phone.png");
    alice.window.set_viewport_size(DESKTOP.0, DESKTOP.1);
}
