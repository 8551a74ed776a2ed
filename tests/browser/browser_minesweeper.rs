//! A minesweeper game as two players with JavaScript on see it, in real headless Chromium: the
//! challenge, bombs placed by clicking squares (with Random and Clear), the game starting when
//! both are placed, a count told to its player only, a blast seen by both, and the end showing
//! every bomb. Then the game page's parts on a minesweeper board: a move dragged and one
//! clicked, the clocks and the time left, the toolbar stepping through the plies with only what
//! each reader may know, Next Game, and the page without JavaScript.

use crate::common;
use crate::webdriver;

use common::TestApp;
use serde_json::json;
use webdriver::{DESKTOP, Driver, Element, PHONE, Player, chromedriver, screenshot};

on_both_databases!(
    two_players_play_minesweeper_from_bomb_placement_to_a_blast_and_the_end_in_chromium,
    a_minesweeper_game_is_played_and_stepped_through_on_the_game_pages_board_in_chromium,
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

    fn mines_square(&self, name: &str) -> Element<'_> {
        self.find(&format!(r#"#board .sq[data-square="{name}"]"#))
    }

    /// The squares of the board (as navigate.js and mines.js draw them) whose class holds
    /// `mark`.
    fn squares_marked(&self, mark: &str) -> Vec<String> {
        let mut marked: Vec<String> = self
            .window
            .find_all(&format!("#board .sq.{mark}"))
            .iter()
            .filter_map(|e| e.attribute("data-square"))
            .collect();
        marked.sort();
        marked
    }

    /// The count drawn on a square, if any.
    fn count_on(&self, square: &str) -> Option<String> {
        self.window
            .find_all(&format!(
                r#"#board .sq[data-square="{square}"] .mine-count"#
            ))
            .first()
            .map(|c| c.text())
    }

    /// Presses a toolbar button and waits until the ply it leads to is shown.
    fn step(&self, button: &str, ply: u32, last: u32) {
        self.find(button).click();
        self.window
            .wait_for_text("#nav-ply", &format!("ply {ply} of {last}"));
    }

    /// Waits until the blast the page opened with has played out (for a still picture).
    fn settled(&self) {
        self.window.wait_until("the blast to play out", || {
            self.window
                .find_all("#board .sq.blast")
                .is_empty()
                .then_some(())
        });
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
    alice.window.set_viewport_size(PHONE.0, PHONE.1);
    alice.window.set_dark(true);
    let overflow = alice.window.execute(
        "return document.documentElement.scrollWidth - window.innerWidth;",
        serde_json::json!([]),
    );
    assert!(overflow.as_i64().unwrap_or(1) <= 0, "{overflow}");
    screenshot(&alice.window, "minesweeper-setup-phone-dark.png");
    alice.window.set_dark(false);
    alice.window.set_viewport_size(DESKTOP.0, DESKTOP.1);
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

/// A token for a user signed up in the browser.
fn token_of(app: &TestApp, name: &str) -> String {
    let r = app.post(
        "/api/v1/tokens",
        None,
        json!({"username": name, "password": "correct horse battery"}),
    );
    assert_eq!(r.status, 201, "{}", r.body);
    r.body["token"].as_str().unwrap().to_string()
}

fn a_minesweeper_game_is_played_and_stepped_through_on_the_game_pages_board_in_chromium(
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
    let (a, b) = (token_of(app, "alice"), token_of(app, "bob"));
    let challenge = |options: &str| {
        app.game_from(
            &a,
            &b,
            json!({"variant": "minesweeper", "minesweeper": options, "color": "white", "days_per_move": 3, "setup_hours": 24}),
        )
    };
    let g = challenge("chosen");
    let white = ["a3", "b3", "d3", "g3", "h3", "a4", "b4", "h4"];
    let black = ["a6", "b6", "c6", "g6", "h6", "a5", "b5", "h5"];
    for (token, squares) in [(&a, white), (&b, black)] {
        let r = app.post_method(
            "PUT",
            &format!("/api/v1/games/{g}/bombs"),
            Some(token),
            json!({ "squares": squares }),
        );
        assert_eq!(r.status, 200, "{}", r.body);
    }
    // A second game, its bombs placed at random: alice moves first there too.
    let other = challenge("random");
    let game = format!("/games/{g}");

    // alice sees both clocks and her time left, and drags 1. e4.
    alice.open(&game);
    alice.window.wait_for(r#"#board[data-movable="true"]"#);
    assert!(alice.find("#white-clock").text().contains("days"));
    assert!(
        alice
            .find("#time-left")
            .text()
            .starts_with("Time left for alice: ")
    );
    alice
        .window
        .drag(&alice.mines_square("e2"), &alice.mines_square("e4"));
    alice.window.wait_for_text(".flash", "You played e4.");
    assert!(alice.find("#black-clock").text().contains("days"));
    assert_eq!(app.play(g, &b, "d5", 1).status, 200);
    // 2. exd5 by clicking the pawn, then its square: alice is told one bomb next to d5.
    alice.open(&game);
    alice.window.wait_for(r#"#board[data-movable="true"]"#);
    alice.mines_square("e4").click();
    alice
        .window
        .wait_for(r#"#board .sq.selected[data-square="e4"]"#);
    alice.mines_square("d5").click();
    alice.window.wait_for_text(".flash", "You played exd5.");
    assert_eq!(alice.count_on("d5").as_deref(), Some("1"));
    for (ply, mv) in [(3, "Qxd5"), (5, "Qd3")] {
        assert_eq!(app.play(g, &b, mv, ply).status, 200, "{mv}");
        if ply == 3 {
            assert_eq!(app.play(g, &a, "Nc3", 4).status, 200);
        }
    }

    // The blast on d3 is seen by both; the toolbar steps back before it and forward again,
    // each position with its blasts, alice's bombs and her count.
    alice.open(&game);
    alice
        .window
        .wait_for(r#"#board .sq.blast-spent[data-square="d3"]"#);
    let hers: Vec<String> = {
        let mut v: Vec<String> = white.iter().map(|s| s.to_string()).collect();
        v.sort();
        v
    };
    assert_eq!(alice.squares_marked("own-bomb"), hers);
    alice.settled();
    screenshot(&alice.window, "minesweeper-desktop.png");
    alice.step("#nav-prev", 5, 6);
    assert!(alice.squares_marked("blast-spent").is_empty());
    assert_eq!(alice.squares_marked("own-bomb"), hers);
    let queen = r#"#board .sq[data-square="d5"] .piece[data-piece="bQ"]"#;
    alice.window.wait_for(queen);
    alice.step("#nav-start", 0, 6);
    assert_eq!(alice.count_on("d5"), None);
    alice
        .window
        .wait_for(r#"#board .sq[data-square="e2"] .piece[data-piece="wP"]"#);
    alice.step("#nav-next", 1, 6);
    alice.step("#nav-next", 2, 6);
    assert_eq!(alice.count_on("d5"), None);
    alice.step("#nav-next", 3, 6);
    assert_eq!(alice.count_on("d5").as_deref(), Some("1"));
    alice.step("#nav-last", 6, 6);
    assert_eq!(alice.squares_marked("blast-spent"), ["d3"]);
    assert!(alice.window.url().ends_with(&format!("{game}?ply=6")));

    // bob steps through the same plies and never sees alice's bombs or her count.
    bob.open(&game);
    bob.window.wait_for("#nav-toolbar");
    let his: Vec<String> = {
        let mut v: Vec<String> = black.iter().map(|s| s.to_string()).collect();
        v.sort();
        v
    };
    bob.step("#nav-start", 0, 6);
    for ply in 1..=6 {
        bob.step("#nav-next", ply, 6);
        assert_eq!(bob.squares_marked("own-bomb"), his, "ply {ply}");
        assert!(
            bob.window.find_all("#board .mine-count").is_empty(),
            "ply {ply}"
        );
        let blasts = bob.squares_marked("blast-spent");
        assert_eq!(blasts.is_empty(), ply < 6, "ply {ply}: {blasts:?}");
    }

    // Next Game takes alice from this game, where she is to move, to the other one.
    alice.open(&game);
    alice.find("#next-game").click();
    let url = alice.window.wait_until("the other game", || {
        Some(alice.window.url()).filter(|u| u.ends_with(&format!("/games/{other}")))
    });
    assert!(url.ends_with(&format!("/games/{other}")));

    alice.open(&game);
    alice.window.set_dark(true);
    alice.open(&game);
    alice.window.wait_for("#nav-toolbar");
    alice.settled();
    screenshot(&alice.window, "minesweeper-dark.png");
    alice.window.set_dark(false);
    let phone = driver.session(PHONE.0, PHONE.1);
    phone.set_viewport_size(PHONE.0, PHONE.1);
    phone.goto(&format!("{}{game}", app.base));
    phone.wait_for("#nav-toolbar");
    let overflow = phone.execute(
        "return document.documentElement.scrollWidth - window.innerWidth;",
        serde_json::json!([]),
    );
    assert!(overflow.as_i64().unwrap_or(1) <= 0, "{overflow}");
    screenshot(&phone, "minesweeper-phone.png");

    // Without JavaScript the toolbar's links draw each ply on the server, and alice's move box
    // plays.
    let plain = driver.session_without_javascript(PHONE.0, PHONE.1);
    plain.set_viewport_size(PHONE.0, PHONE.1);
    plain.goto(&format!("{}{game}", app.base));
    plain.find("#nav-prev").click();
    plain.wait_until("ply 5", || {
        Some(plain.url()).filter(|u| u.ends_with(&format!("{game}?ply=5")))
    });
    assert!(plain.find_all("#board .sq.blast-spent").is_empty());
    plain.goto(&format!("{}/login?next={game}", app.base));
    plain.find("#username").type_text("alice");
    plain.find("#password").type_text("correct horse battery");
    plain
        .find(r#"form[action="/login"] button[type="submit"]"#)
        .click();
    plain.wait_for("#move-input");
    screenshot(&plain, "minesweeper-phone-nojs.png");
    plain.find("#move-input").type_text("Nf3");
    plain.find(r#"#action-form button[type="submit"]"#).click();
    plain.wait_for_text(".flash", "You played Nf3.");
}
