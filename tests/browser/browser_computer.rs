//! Playing the computer in a real headless Chromium: the home page's form opens the game, a
//! move typed in the move box and confirmed comes back with the computer's reply on the page.

use crate::common;
use crate::webdriver;

use common::{Backend, Options, TestApp, spawn_app_with};
use webdriver::{Driver, chromedriver};

/// The worker runs only every ten minutes: the reply can come only from the wake-up.
fn app(backend: Backend) -> Option<TestApp> {
    let options = Options {
        worker_interval: Some(600),
        ..Options::default()
    };
    spawn_app_with(backend, options)
}

#[test]
fn sqlite() {
    if let Some(app) = app(Backend::Sqlite) {
        a_player_moves_and_sees_the_computers_reply(&app);
    }
}

#[test]
fn postgres() {
    if let Some(app) = app(Backend::Postgres) {
        a_player_moves_and_sees_the_computers_reply(&app);
    }
}

fn a_player_moves_and_sees_the_computers_reply(app: &TestApp) {
    let Some(chromedriver) = chromedriver() else {
        return;
    };
    app.user("alice");
    let driver = Driver::start(&chromedriver);
    let window = driver.session(1280, 900);
    window.goto(&format!("{}/login", app.base));
    window.find("#username").type_text("alice");
    window.find("#password").type_text("correct horse battery");
    window
        .find(r#"form[action="/login"] button[type="submit"]"#)
        .click();
    window.wait_for("#play-computer");
    window.execute(
        "document.querySelector('#computer-color').value = 'white';
         document.querySelector('#computer-level').value = 'medium';",
        serde_json::json!([]),
    );
    window
        .find("#play-computer button[type=\"submit\"]")
        .click();
    window.wait_for("#move-input");
    assert!(window.url().contains("/games/"), "{}", window.url());
    window.wait_for_text(".player.black .name", "Computer (Medium)");
    window.find("#move-input").type_text("e4");
    window.find("#action-form button[type=\"submit\"]").click();
    // Moves are confirmed by default.
    window.wait_for("#confirm-move");
    window.find("#confirm-move").click();
    window.wait_until("the computer's reply in the move list", || {
        (window.find_all(".movelist a").len() == 2).then_some(())
    });
    window.wait_for(r#"#action-select option[value="takeback"]"#);
}
