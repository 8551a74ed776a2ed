//! A minesweeper game as two players with JavaScript on see it, in real headless Chromium: the
//! challenge, bombs placed by clicking squares (with Random and Clear), the game starting when
//! both are placed, a count told to its player only, a blast seen by both, and the end showing
//! every bomb.

use crate::common;
use crate::webdriver;

use common::TestApp;
use webdriver::{Driver, PHONE, Player, chromedriver, screenshot};

on_both_databases!(
    two_players_play_minesweeper_from_bomb_placement_to_a_blast_and_the_end_in_chromium
);

impl Player<'_> {
    /// Ticks the squares of the setup board.
    fn tick(&self, squares: &[&str]) {
        for square in squares {
            self.find(&format!(r#"label.bomb-spot[data-square="{square}"]"#))
                .click();
        }
    }

    /// The squares the page marks as this reader's bombs.
    fn marked_bombs(&self) -> Vec<String> {
        let mut marked: Vec<String> = self
            .window
            .find_all(".sq.own-bomb, label.bomb-spot:has(.bomb-box:checked)")
            .iter()
            .filter_map(|e| e.attribute("data-square"))
            .collect();
        marked.sort();
        marked
    }

    fn type_mines_move(&self, mv: &str) {
        let input = self.find("#move-input");
        input.clear();
        input.type_text(mv);
        self.find(r#"#action-form button[type="submit"]"#).click();
        self.window
            .wait_for_text(".flash", &format!("You played {mv}."));
    }
}

fn two_players_play_minesweeper_from_bomb_placement_to_a_blast_and_the_end_in_chromium(
    app: &TestApp,
) {
    let Some(path) = chromedriver() else {
        return;
    };
    let driver = Driver::start(&path);
    let alice = Player::new("alice", &driver, app);
    let bob = Player::new("bob", &driver, app);
    alice.sign_up();
    bob.sign_up();

    alice.open("/challenges");
    alice
        .find(r#"#variant option[value="minesweeper"]"#)
        .click();
    alice.find(r#"#color option[value="white"]"#).click();
    alice.find("#opponent").type_text("bob");
    alice
        .find(r#"form[action="/challenges"] button[type="submit"]"#)
        .click();
    alice.window.wait_for_text(".flash", "Challenge created.");
    bob.open("/challenges");
    bob.find(r#"table.list form[action$="/accept"] button[type="submit"]"#)
        .click();
    let url = bob.window.wait_until("the game page", || {
        Some(bob.window.url()).filter(|u| u.contains("/games/"))
    });
    let game = url
        .strip_prefix(&bob.base)
        .expect("a page of the app")
        .to_string();
    bob.window.wait_for_text("#game-status", "Place your bombs");

    // alice ticks three squares and saves them, then lets the server place the other five.
    alice.open(&game);
    alice.tick(&["a3", "b3", "d3"]);
    assert_eq!(alice.find("#bomb-counter").text(), "3 of 8");
    screenshot(&alice.window, "minesweeper-setup.png");
    alice.find("#place-bombs").click();
    alice
        .window
        .wait_for_text(".flash", "place the rest before the setup ends");
    alice.find("#random-bombs").click();
    alice
        .window
        .wait_for_text(".flash", "Your bombs are placed");
    let hers = alice.marked_bombs();
    assert_eq!(hers.len(), 8, "{hers:?}");
    for kept in ["a3", "b3", "d3"] {
        assert!(hers.contains(&kept.to_string()), "{kept} kept: {hers:?}");
    }
    // bob sees none of them.
    bob.open(&game);
    assert!(bob.marked_bombs().is_empty());

    // bob ticks two, clears them, then places his eight: the game starts.
    bob.tick(&["a6", "b6"]);
    bob.find("#place-bombs").click();
    bob.window.wait_for_text(".flash", "place the rest");
    bob.find("#clear-bombs").click();
    bob.window.wait_for_text("#bomb-counter", "0 of 8");
    bob.tick(&["a6", "b6", "c6", "g6", "h6", "a5", "b5", "h5"]);
    bob.find("#place-bombs").click();
    bob.window.wait_for_text(".flash", "Your bombs are placed");
    bob.window.wait_for_text("#game-status", "alice to move");

    // 1. e4 d5 2. exd5: alice is told one bomb next to d5; bob is not.
    alice.open(&game);
    alice.type_mines_move("e4");
    bob.open(&game);
    bob.type_mines_move("d5");
    alice.open(&game);
    alice.type_mines_move("exd5");
    alice
        .window
        .wait_for_text("#mines-moves", "1 bomb next to d5");
    bob.open(&game);
    assert!(!bob.find("#mines-moves").text().contains("bomb next to"));
    bob.type_mines_move("Qxd5");
    alice.open(&game);
    alice.type_mines_move("Nc3");
    // bob's queen lands on alice's bomb on d3: it goes up with what stands around it.
    bob.open(&game);
    bob.type_mines_move("Qd3");
    bob.window.wait_for(r#".sq.blast-spent[data-square="d3"]"#);
    assert!(bob.find("#mines-moves").text().contains("blast on d3"));
    alice.open(&game);
    alice
        .window
        .wait_for(r#".sq.blast-spent[data-square="d3"]"#);
    screenshot(&alice.window, "minesweeper-desktop.png");
    alice.window.set_dark(true);
    alice.open(&game);
    screenshot(&alice.window, "minesweeper-dark.png");
    alice.window.set_dark(false);
    let phone = driver.session(PHONE.0, PHONE.1);
    phone.set_viewport_size(PHONE.0, PHONE.1);
    phone.goto(&format!("{}{game}", app.base));
    phone.wait_for(".mines-grid");
    let overflow = phone.execute(
        "return document.documentElement.scrollWidth - window.innerWidth;",
        serde_json::json!([]),
    );
    assert!(overflow.as_i64().unwrap_or(1) <= 0, "{overflow}");
    screenshot(&phone, "minesweeper-phone.png");

    // bob resigns after the question; now both see every bomb.
    bob.open(&game);
    bob.find(r#"#action-select option[value="resign"]"#).click();
    bob.find(r#"#action-form button[type="submit"]"#).click();
    bob.window.wait_for("#resign-question");
    bob.find("#confirm-resign").click();
    bob.window.wait_for_text("#game-status", "1-0");
    assert_eq!(
        bob.marked_bombs().len(),
        16,
        "after the end every bomb is shown"
    );
}
