//! The front door in a real headless Chromium: the small boards of the home page fit a phone
//! without scrolling sideways, and a click on one opens its game.

use crate::common;
use crate::webdriver;

use common::TestApp;
use serde_json::json;
use webdriver::{Driver, Session, chromedriver, screenshot};

on_both_databases!(small_boards_fit_a_phone_and_open_their_game_in_chromium);

const DESKTOP: (u32, u32) = (1280, 900);
const PHONE: (u32, u32) = (375, 812);

/// How far the page reaches past the window's right edge, and the widest small board's right
/// edge, in CSS pixels.
fn overflow(window: &Session) -> (i64, f64) {
    let measured = window.execute(
        "const right = Math.max(0, ...Array.from(document.querySelectorAll('.mini-card'))
             .map(e => e.getBoundingClientRect().right));
         return [document.documentElement.scrollWidth - window.innerWidth, right - window.innerWidth];",
        json!([]),
    );
    (
        measured[0].as_i64().unwrap_or(i64::MAX),
        measured[1].as_f64().unwrap_or(f64::MAX),
    )
}

fn small_boards_fit_a_phone_and_open_their_game_in_chromium(app: &TestApp) {
    let Some(chromedriver) = chromedriver() else {
        return;
    };
    let (alice, bob, carol) = (app.user("alice"), app.user("bob"), app.user("carol"));
    let body = |variant: &str, days: i64| json!({"variant": variant, "color": "white", "days_per_move": days, "opponent": null});
    let atomic = app.game_from(&alice, &bob, body("atomic", 3));
    app.play_all(atomic, &alice, &bob, &["e4", "e5"]);
    let crazyhouse = app.game_from(&alice, &carol, body("crazyhouse", 1));
    app.play_all(crazyhouse, &alice, &carol, &["d4", "d5", "Nf3", "Nf6"]);
    let standard = app.game_from(&bob, &alice, body("standard", 5));
    app.play(standard, &bob, "c4", 0);
    app.game_from(&carol, &alice, body("kingofthehill", 2));

    let driver = Driver::start(&chromedriver);
    let window = driver.session(DESKTOP.0, DESKTOP.1);
    window.set_viewport_size(DESKTOP.0, DESKTOP.1);
    window.goto(&format!("{}/", app.base));
    window.wait_for("#live-games .mini-card");
    screenshot(&window, "home-visitor.png");

    window.goto(&format!("{}/login", app.base));
    window.find("#username").type_text("alice");
    window.find("#password").type_text("correct horse battery");
    window
        .find(r#"form[action="/login"] button[type="submit"]"#)
        .click();
    window.wait_for("#my-turn .mini-card");
    assert_eq!(window.find_all("#my-turn .mini-card").len(), 3);
    assert_eq!(window.find_all("#their-turn .mini-card").len(), 1);
    screenshot(&window, "home-dashboard.png");

    window.set_viewport_size(PHONE.0, PHONE.1);
    window.goto(&format!("{}/", app.base));
    window.wait_for("#my-turn .mini-card");
    let (page_overflow, board_overflow) = overflow(&window);
    assert!(
        page_overflow <= 0,
        "the page scrolls sideways by {page_overflow}px"
    );
    assert!(
        board_overflow <= 0.0,
        "a small board sticks out by {board_overflow}px"
    );
    // Two boards side by side, each a square, big enough to read.
    let size = window.execute(
        "const b = document.querySelector('#my-turn .mini-board').getBoundingClientRect();
         return [b.width, b.height];",
        json!([]),
    );
    let (w, h) = (size[0].as_f64().unwrap(), size[1].as_f64().unwrap());
    assert!((w - h).abs() < 1.0 && w >= 120.0, "{w}x{h}");
    screenshot(&window, "home-phone.png");

    // The most urgent game comes first: the crazyhouse game has one day per move.
    let first = window.find("#my-turn .mini-card");
    assert_eq!(
        first.attribute("href").as_deref(),
        Some(format!("/games/{crazyhouse}").as_str())
    );
    assert!(
        first
            .attribute("aria-label")
            .unwrap_or_default()
            .starts_with("vs carol, Crazyhouse, ")
    );
    first.click();
    window.wait_until("the game page", || {
        Some(window.url()).filter(|u| u.ends_with(&format!("/games/{crazyhouse}")))
    });
    window.wait_for(r#".board .sq[data-square="f6"]"#);
    assert_eq!(
        window
            .find(r#".sq[data-square="f6"] .piece"#)
            .attribute("data-piece")
            .as_deref(),
        Some("bN")
    );
}
