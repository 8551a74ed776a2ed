//! A bughouse match as four players with JavaScript on see it, in real headless Chromium: the
//! challenge made and its seats taken on the challenges page, moves on both boards, a piece a
//! partner's capture put in hand dragged from the pocket onto the board, the team chat between
//! partners, and a resignation ending the match for all four.

use crate::common;
use crate::webdriver;

use common::TestApp;
use webdriver::{Driver, Element, PHONE, Player, chromedriver, screenshot};

on_both_databases!(four_players_play_a_bughouse_match_from_challenge_to_result_in_chromium);

impl Player<'_> {
    /// Takes the only seat offered in the challenge list (the first row with one).
    fn take_seat(&self, seat: &str) {
        self.open("/challenges");
        self.find(&format!(
            r#"table.list select[name="seat"] option[value="{seat}"]"#
        ))
        .click();
        self.find(r#"table.list form[action$="/accept"] button[type="submit"]"#)
            .click();
    }

    /// Opens the match and waits until this player's board takes a move.
    fn open_to_move(&self, game: &str, board: &str) {
        self.open(game);
        self.window
            .wait_for(&format!(r#"#grid-{board}[data-can-move="true"]"#));
    }

    fn board_square(&self, board: &str, name: &str) -> Element<'_> {
        self.find(&format!(r#"#grid-{board} .sq[data-square="{name}"]"#))
    }

    fn piece_on_board(&self, board: &str, square: &str) -> Option<String> {
        self.window
            .find_all(&format!(
                r#"#grid-{board} .sq[data-square="{square}"] .piece"#
            ))
            .first()
            .and_then(|p| p.attribute("data-piece"))
    }

    /// Drags the piece on `from` to `to` on `board` and waits for the page after the move.
    fn drag_on(&self, board: &str, from: &str, to: &str) {
        self.window.drag(
            &self.board_square(board, from),
            &self.board_square(board, to),
        );
        self.window.wait_for_text(".flash", "Move played.");
    }

    /// Types a move into the board's move box and presses Continue.
    fn type_move_on(&self, board: &str, mv: &str) {
        let input = self.find(&format!("#move-input-{board}"));
        input.clear();
        input.type_text(mv);
        self.find(&format!("#continue-{board}")).click();
        self.window.wait_for_text(".flash", "Move played.");
    }
}

fn four_players_play_a_bughouse_match_from_challenge_to_result_in_chromium(app: &TestApp) {
    let Some(path) = chromedriver() else {
        return;
    };
    let driver = Driver::start(&path);
    let alice = Player::new("alice", &driver, app);
    let bob = Player::new("bob", &driver, app);
    let carol = Player::new("carol", &driver, app);
    let dave = Player::new("dave", &driver, app);
    for p in [&alice, &bob, &carol, &dave] {
        p.sign_up();
    }

    // The form shows only what applies: nothing of bughouse or minesweeper for atomic, the
    // days or the Fischer preset as the clock says.
    alice.open("/challenges");
    assert!(!alice.find("#bughouse-fields").displayed());
    assert!(!alice.find("#minesweeper-fields").displayed());
    assert!(alice.find("#color").displayed() && alice.find("#days_per_move").displayed());
    assert!(!alice.find("#preset").displayed());
    alice
        .find(r#"#time_control option[value="fischer"]"#)
        .click();
    assert!(alice.find("#preset").displayed() && !alice.find("#days_per_move").displayed());
    alice.find(r#"#time_control option[value="days"]"#).click();
    alice
        .find(r#"#variant option[value="minesweeper"]"#)
        .click();
    assert!(alice.find("#minesweeper-fields").displayed());
    // alice makes the challenge as A1 and keeps B1 for bob.
    alice.find(r#"#variant option[value="bughouse"]"#).click();
    assert!(
        alice.find("#bughouse-fields").displayed()
            && !alice.find("#minesweeper-fields").displayed()
    );
    assert!(
        !alice.find("#color").displayed(),
        "the seat says the colour"
    );
    alice.find(r#"#seat option[value="A1"]"#).click();
    alice.find("#invite_b1").type_text("bob");
    alice
        .find(r#"form[action="/challenges"] button[type="submit"]"#)
        .click();
    alice
        .window
        .wait_for_text(".flash", "the match starts when all four seats are taken");
    let row = alice.find("table.list tbody tr").text();
    assert!(
        row.contains("A1 alice") && row.contains("B1 bob (invited)"),
        "{row}"
    );

    // carol cannot take bob's seat: the list offers her B2 and A2 only.
    carol.open("/challenges");
    let offered: Vec<String> = carol
        .window
        .find_all(r#"table.list select[name="seat"] option"#)
        .iter()
        .filter_map(|o| o.attribute("value"))
        .collect();
    assert_eq!(offered, ["B2", "A2"]);
    bob.take_seat("B1");
    bob.window.wait_for_text(".flash", "You have a seat");
    carol.take_seat("B2");
    carol.window.wait_for_text(".flash", "You have a seat");
    dave.take_seat("A2");
    let url = dave.window.wait_until("the match page", || {
        Some(dave.window.url()).filter(|u| u.contains("/games/"))
    });
    let game = url
        .strip_prefix(&dave.base)
        .expect("a page of the app")
        .to_string();
    dave.window
        .wait_for_text("#match-status", "Board a: alice (A1) to move");

    // Both boards move at once: alice drags on board a, carol types on board b.
    alice.open_to_move(&game, "a");
    alice.drag_on("a", "e2", "e4");
    assert_eq!(alice.piece_on_board("a", "e4").as_deref(), Some("wP"));
    carol.open_to_move(&game, "b");
    carol.type_move_on("b", "e4");
    bob.open_to_move(&game, "a");
    bob.drag_on("a", "d7", "d5");
    // alice takes on d5: the pawn goes to her partner dave's hand on board b.
    alice.open_to_move(&game, "a");
    alice.drag_on("a", "e4", "d5");

    dave.open_to_move(&game, "b");
    let pawn_in_hand = r#"#board-b .pocket-piece[data-pocket="black"][data-piece="bP"]"#;
    assert_eq!(
        dave.find(pawn_in_hand).attribute("data-count").as_deref(),
        Some("1")
    );
    // dave's own board is drawn first, from Black's side; his partner's beside it.
    let first = dave.find(".match-board").attribute("id");
    assert_eq!(first.as_deref(), Some("board-b"));
    assert_eq!(
        dave.find("#grid-b .sq").attribute("data-square").as_deref(),
        Some("h1")
    );
    screenshot(&dave.window, "bughouse-desktop.png");
    dave.window
        .drag(&dave.find(pawn_in_hand), &dave.board_square("b", "d5"));
    dave.window.wait_for_text(".flash", "Move played.");
    assert_eq!(dave.piece_on_board("b", "d5").as_deref(), Some("bP"));
    assert!(
        dave.window.find_all(pawn_in_hand).is_empty(),
        "the hand is empty again"
    );

    // Team chat: dave to alice; the other team never sees it.
    dave.find("#team-chat-input").type_text("send me a knight");
    dave.find("#team-chat-send").click();
    dave.window
        .wait_for_text("#team-chat-lines", "dave: send me a knight");
    alice.open(&game);
    alice
        .window
        .wait_for_text("#team-chat-lines", "dave: send me a knight");
    bob.open(&game);
    assert!(!bob.find("body").text().contains("send me a knight"));
    dave.window.set_dark(true);
    dave.open(&game);
    screenshot(&dave.window, "bughouse-dark.png");
    dave.window.set_dark(false);

    // On a phone the boards stack, nothing reaches past the right edge.
    let phone = driver.session(PHONE.0, PHONE.1);
    phone.set_viewport_size(PHONE.0, PHONE.1);
    phone.goto(&format!("{}{game}", app.base));
    phone.wait_for("#grid-a");
    let overflow = phone.execute(
        "return document.documentElement.scrollWidth - window.innerWidth;",
        serde_json::json!([]),
    );
    assert!(overflow.as_i64().unwrap_or(1) <= 0, "{overflow}");
    screenshot(&phone, "bughouse-phone.png");

    // bob resigns for team B, after the question.
    bob.open_to_move(&game, "a");
    bob.find(r#"#match-action option[value="resign"]"#).click();
    bob.find("#continue-a").click();
    bob.window.wait_for("#resign-question");
    bob.find("#confirm-resign").click();
    bob.window.wait_for_text(".flash", "You resigned");
    for p in [&alice, &carol, &dave] {
        p.open(&game);
        p.window.wait_for_text(
            "#match-status",
            "team A (alice & dave) wins: Resignation (1-0).",
        );
        assert!(
            p.window.find_all(".match-form").is_empty(),
            "{}: no more moves",
            p.name
        );
    }
}
