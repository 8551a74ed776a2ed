//! The game as a player with JavaScript on sees it, in a real headless Chromium: forms, drag-and-drop, click-click.

use crate::common;
use crate::webdriver;

use common::TestApp;
use webdriver::{DESKTOP, Driver, Element, PHONE, Player, chromedriver, screenshot};

on_both_databases!(
    two_players_play_atomic_with_mouse_and_keyboard_in_chromium,
    moving_through_a_game_flipping_and_animating_without_reloading_in_chromium,
    the_share_tabs_pictures_follow_the_ply_shown_in_chromium,
    the_next_move_button_plays_the_blast_as_the_arrow_key_does_in_chromium,
    crazyhouse_pieces_in_hand_are_dragged_or_clicked_onto_the_board_in_chromium,
    board_settings_and_confirming_moves_in_chromium,
    the_analysis_board_keeps_variations_across_a_reload_for_its_owner_only_in_chromium,
    without_javascript_no_button_that_needs_it_is_shown_in_chromium,
    a_refused_tag_opens_on_the_tags_tab_and_the_analysis_tab_opens_its_board_in_chromium,
);

impl Player<'_> {
    /// Opens the game page at the current position and waits until the board takes moves.
    fn open_game_to_move(&self, game: &str) {
        self.open(game);
        self.window.wait_for(r#".board[data-movable="true"]"#);
    }

    fn square(&self, name: &str) -> Element<'_> {
        self.find(&format!(r#".sq[data-square="{name}"]"#))
    }

    /// The piece code (`wN`, …) drawn on a square, if any.
    fn piece_on(&self, square: &str) -> Option<String> {
        self.window
            .find_all(&format!(r#".sq[data-square="{square}"] .piece"#))
            .first()
            .and_then(|p| p.attribute("data-piece"))
    }

    fn status(&self) -> String {
        self.find("#game-status").text()
    }

    /// Drags the piece on `from` to `to` with the mouse.
    fn drag(&self, from: &str, to: &str) {
        self.window.drag(&self.square(from), &self.square(to));
    }

    /// Clicks the piece on `from` (which board.js marks as selected), then the square `to`.
    fn click_click(&self, from: &str, to: &str) {
        self.square(from).click();
        self.window
            .wait_for(&format!(r#".sq.selected[data-square="{from}"]"#));
        self.square(to).click();
    }

    /// Types a move (and a message) into the action bar and presses Continue.
    fn type_move(&self, mv: &str, message: &str) {
        let input = self.find("#move-input");
        input.clear();
        input.type_text(mv);
        if !message.is_empty() {
            self.find("#message-input").type_text(message);
        }
        self.find(r#"#action-form button[type="submit"]"#).click();
    }

    /// Confirms the move the page shows (moves wait for `Confirm move` by default).
    fn confirm(&self, san: &str) {
        self.window
            .wait_for_text("#confirm-question", &format!("Play {san}?"));
        self.find("#confirm-move").click();
    }

    /// Confirms the move, waits for the reloaded page's "You played …" message and checks the
    /// piece landed.
    fn expect_played(&self, san: &str, piece: &str, from: &str, to: &str) {
        self.confirm(san);
        self.window
            .wait_for_text(".flash", &format!("You played {san}."));
        assert_eq!(self.piece_on(to).as_deref(), Some(piece), "{san}: {to}");
        assert_eq!(self.piece_on(from), None, "{san}: {from} is left empty");
    }
}

/// Alice challenges bob to atomic as White on /challenges; bob accepts. Returns the game's path.
fn challenge_and_accept(alice: &Player, bob: &Player) -> String {
    alice.open("/challenges");
    alice.find(r#"#variant option[value="atomic"]"#).click();
    alice.find(r#"#color option[value="white"]"#).click();
    alice.find("#opponent").type_text("bob");
    alice
        .find(r#"form[action="/challenges"] button[type="submit"]"#)
        .click();
    alice.window.wait_for_text(".flash", "Challenge created.");

    bob.open("/challenges");
    let row = bob.find("table.list tbody tr").text();
    assert!(
        row.contains("alice") && row.contains("Atomic") && row.contains("white"),
        "{row}"
    );
    bob.find(r#"form[action$="/accept"] button[type="submit"]"#)
        .click();
    let url = bob.window.wait_until("the game page", || {
        Some(bob.window.url()).filter(|u| u.contains("/games/"))
    });
    let game = url
        .strip_prefix(&bob.base)
        .expect("a page of the app")
        .to_string();
    bob.window.wait_for_text("#game-status", "alice to move");
    alice.open(&game);
    assert_eq!(alice.status(), "alice to move");
    assert!(alice.find(".player.white").text().contains("alice (you)"));
    game
}

fn two_players_play_atomic_with_mouse_and_keyboard_in_chromium(app: &TestApp) {
    let Some(chromedriver) = chromedriver() else {
        return;
    };
    let driver = Driver::start(&chromedriver);
    let alice = Player::new("alice", &driver, app);
    let bob = Player::new("bob", &driver, app);
    alice.sign_up();
    bob.sign_up();
    // The sign-up form took the browser's time zone for the times in mails.
    alice.open("/account");
    assert_eq!(
        alice.find("#time-zone").property("value"),
        webdriver::BROWSER_TIME_ZONE
    );
    let game = challenge_and_accept(&alice, &bob);

    // 1. Nf3 by drag-and-drop, 1... Nf6 typed with a message.
    alice.open_game_to_move(&game);
    alice.drag("g1", "f3");
    alice.expect_played("Nf3", "wN", "g1", "f3");
    bob.open_game_to_move(&game);
    bob.type_move("Nf6", "Good luck!");
    bob.expect_played("Nf6", "bN", "g8", "f6");

    // 2. Ne5 by clicking the knight, then its square.
    alice.open_game_to_move(&game);
    alice.click_click("f3", "e5");
    alice.expect_played("Ne5", "wN", "f3", "e5");

    // Bob types an illegal king move: told why, nothing changes, the typed move is kept.
    bob.open_game_to_move(&game);
    bob.type_move("Ke7", "");
    bob.window
        .wait_for_text("#action-error", "Ke7 is not a legal move here");
    assert_eq!(bob.find("#move-input").property("value"), "Ke7");
    assert_eq!(bob.status(), "bob to move");
    assert_eq!(bob.piece_on("e8").as_deref(), Some("bK"));
    assert_eq!(bob.piece_on("e7").as_deref(), Some("bP"));
    assert_eq!(bob.window.find_all(".movelist a").len(), 3);

    // 2... e6 dragged from that error page, which replaces the typed move.
    bob.drag("e7", "e6");
    bob.expect_played("e6", "bP", "e7", "e6");

    // 3. Nxf7 typed: the capture explodes the black king.
    alice.open_game_to_move(&game);
    alice.window.set_viewport_size(PHONE.0, PHONE.1);
    screenshot(&alice.window, "game-phone.png");
    alice.window.set_viewport_size(DESKTOP.0, DESKTOP.1);
    alice.type_move("Nxf7", "");
    // Before it is sent, the board shows the blast: the squares it clears, the pieces gone.
    alice
        .window
        .wait_for_text("#confirm-question", "Play Nxf7#?");
    let mut cleared: Vec<String> = alice
        .window
        .find_all(".sq.exploded")
        .iter()
        .filter_map(|sq| sq.attribute("data-square"))
        .collect();
    cleared.sort();
    assert_eq!(cleared, ["e8", "f6", "f7", "f8"]);
    assert_eq!(alice.piece_on("e8"), None, "the king is shown blown up");
    bob.open(&game);
    assert_eq!(
        bob.status(),
        "alice to move",
        "nothing is sent before the confirmation"
    );
    assert_eq!(bob.piece_on("e8").as_deref(), Some("bK"));
    alice.find("#confirm-move").click();
    // The server writes the king explosion as mate.
    alice.window.wait_for_text(".flash", "You played Nxf7#.");
    screenshot(&alice.window, "game-desktop.png");
    for player in [&alice, &bob] {
        player.open(&game);
        assert_eq!(player.status(), "1-0 alice wins — King exploded");
        // e8 is drawn (`square` panics otherwise) and empty: the black king exploded.
        player.square("e8");
        assert_eq!(player.piece_on("e8"), None, "the black king exploded");
        assert_eq!(player.piece_on("f7"), None, "the capturing knight too");
        assert!(player.window.find_all("#action-form").is_empty());
    }

    // The PGN behind the Share tab's link, fetched by the browser.
    alice.find(r#"[role="tab"]#tab-share"#).click();
    let link = alice.find(&format!(r#"a[href="{game}.pgn"]"#));
    assert_eq!(link.text(), "PGN");
    let pgn = alice.window.execute_async(
        "const done = arguments[arguments.length - 1];
         fetch(arguments[0]).then(r => r.text()).then(done, e => done('failed: ' + e));",
        serde_json::json!([link.property("href")]),
    );
    let pgn = pgn.as_str().unwrap_or_default();
    assert!(pgn.contains("3. Nxf7"), "{pgn}");
    assert!(pgn.contains(r#"[Result "1-0"]"#), "{pgn}");
}

/// WebDriver key codes.
const ARROW_LEFT: &str = "\u{E012}";
const ARROW_RIGHT: &str = "\u{E014}";
const HOME: &str = "\u{E011}";
const END: &str = "\u{E010}";
const ARROW_UP: &str = "\u{E013}";
const ARROW_DOWN: &str = "\u{E015}";
const ENTER: &str = "\u{E007}";

impl Player<'_> {
    /// The toolbar button (or link drawn as one) with this accessible name.
    fn toolbar(&self, name: &str) -> Element<'_> {
        self.find(&format!(r#"#nav-toolbar [aria-label="{name}"]"#))
    }

    /// Waits until the toolbar says ply `ply` is shown.
    fn wait_for_ply(&self, ply: u32, last: u32) {
        self.window
            .wait_for_text("#nav-ply", &format!("ply {ply} of {last}"));
    }

    /// The squares cleared by an explosion at the ply shown, in board order.
    fn exploded(&self) -> Vec<String> {
        let mut found: Vec<String> = self
            .window
            .find_all(".sq.exploded")
            .iter()
            .filter_map(|sq| sq.attribute("data-square"))
            .collect();
        found.sort();
        found
    }

    fn first_square(&self) -> String {
        self.find(".board .sq")
            .attribute("data-square")
            .unwrap_or_default()
    }

    /// Presses a key with the focus on no control.
    fn key(&self, key: &str) {
        self.window.execute(
            "document.activeElement && document.activeElement.blur();",
            serde_json::json!([]),
        );
        self.window.press_key(key);
    }
}

fn moving_through_a_game_flipping_and_animating_without_reloading_in_chromium(app: &TestApp) {
    let Some(chromedriver) = chromedriver() else {
        return;
    };
    let driver = Driver::start(&chromedriver);
    let alice = Player::new("alice", &driver, app);
    alice.sign_up();
    let alice_token = {
        let r = app.post(
            "/api/v1/tokens",
            None,
            serde_json::json!({"username": "alice", "password": "correct horse battery"}),
        );
        r.body["token"].as_str().expect("a token").to_string()
    };
    let bob = app.user("bob");
    let id = app.game("atomic", &alice_token, &bob);
    app.play_all(id, &alice_token, &bob, &["Nf3", "Nf6", "Ne5", "e6", "Nxf7"]);
    let game = format!("/games/{id}");

    // A visitor's window: the page opens on the blast, its cleared squares marked.
    let visitor = Player::new("visitor", &driver, app);
    visitor.open(&game);
    visitor.wait_for_ply(5, 5);
    assert_eq!(visitor.exploded(), ["e8", "f6", "f7", "f8"]);
    for name in ["Settings", "Animate", "Stop animation"] {
        assert!(
            visitor.toolbar(name).property("hidden") == false,
            "{name} shown with JavaScript"
        );
    }
    // Marks the page: a reload would lose it.
    visitor
        .window
        .execute("window.kept = 'this page';", serde_json::json!([]));
    let same_page = || {
        visitor
            .window
            .execute("return window.kept || 'reloaded';", serde_json::json!([]))
            == "this page"
    };

    // Move to start, then a step forward with the arrow key: the move is marked at that ply.
    visitor.toolbar("Move to start").click();
    visitor.wait_for_ply(0, 5);
    assert_eq!(visitor.piece_on("g1").as_deref(), Some("wN"));
    assert!(visitor.exploded().is_empty());
    assert!(
        visitor.window.url().ends_with("?ply=0"),
        "{}",
        visitor.window.url()
    );
    visitor.key(ARROW_RIGHT);
    visitor.wait_for_ply(1, 5);
    assert_eq!(visitor.piece_on("f3").as_deref(), Some("wN"));
    assert_eq!(visitor.piece_on("g1"), None);
    assert!(
        visitor
            .square("g1")
            .attribute("class")
            .unwrap_or_default()
            .contains("last")
    );
    visitor.toolbar("Next move").click();
    visitor.wait_for_ply(2, 5);
    visitor.toolbar("Previous move").click();
    visitor.wait_for_ply(1, 5);
    visitor.key(END);
    visitor.wait_for_ply(5, 5);
    assert_eq!(visitor.exploded(), ["e8", "f6", "f7", "f8"]);
    visitor.key(ARROW_LEFT);
    visitor.wait_for_ply(4, 5);
    assert_eq!(
        visitor.piece_on("e8").as_deref(),
        Some("bK"),
        "before the blast"
    );
    visitor.key(HOME);
    visitor.wait_for_ply(0, 5);

    // A move in the list shows its position.
    visitor.find(r#".movelist a[href="?ply=3"]"#).click();
    visitor.wait_for_ply(3, 5);
    assert_eq!(visitor.piece_on("e5").as_deref(), Some("wN"));
    assert!(
        visitor
            .find(r#".movelist a[href="?ply=3"]"#)
            .attribute("class")
            .unwrap_or_default()
            .contains("current")
    );

    // Flip by the button and back by the key.
    assert_eq!(visitor.first_square(), "a8");
    visitor.toolbar("Flip").click();
    visitor
        .window
        .wait_for(r#".board[data-orientation="black"]"#);
    assert_eq!(visitor.first_square(), "h1");
    assert_eq!(
        visitor.piece_on("e5").as_deref(),
        Some("wN"),
        "the same position"
    );
    visitor.key("f");
    visitor
        .window
        .wait_for(r#".board[data-orientation="white"]"#);
    assert_eq!(visitor.first_square(), "a8");

    // Animate plays on to the end; Stop animation is offered only meanwhile.
    assert_eq!(visitor.toolbar("Stop animation").property("disabled"), true);
    visitor.toolbar("Animate").click();
    assert_eq!(
        visitor.toolbar("Stop animation").property("disabled"),
        false
    );
    visitor.wait_for_ply(5, 5);
    visitor.window.wait_until("the animation to end", || {
        (visitor.toolbar("Stop animation").property("disabled") == true).then_some(())
    });
    assert_eq!(visitor.exploded(), ["e8", "f6", "f7", "f8"]);
    // Stopped at once, it stays where it stopped.
    visitor.toolbar("Animate").click();
    visitor.toolbar("Stop animation").click();
    let stopped = visitor.find("#nav-ply").text();
    std::thread::sleep(std::time::Duration::from_millis(1600));
    assert_eq!(visitor.find("#nav-ply").text(), stopped);
    assert_ne!(stopped, "ply 5 of 5", "it started again from the start");
    assert!(same_page(), "every step was taken without reloading");

    // The information tabs: one panel at a time, by click and by the arrow keys.
    visitor.key(END);
    visitor.wait_for_ply(5, 5);
    let tabs: Vec<String> = visitor
        .window
        .find_all(r#"#info-tabs [role="tab"]"#)
        .iter()
        .map(Element::text)
        .collect();
    assert_eq!(
        tabs,
        [
            "Game Overview",
            "Hide Comments",
            "Material Balance",
            "Tags",
            "Variant Information",
            "Opening Book",
            "Analysis Board",
            "Engine Analysis",
            "Share",
            "Help"
        ]
    );
    let shown_panels = || -> Vec<String> {
        visitor
            .window
            .find_all(r#"[role="tabpanel"]"#)
            .iter()
            .filter(|p| p.property("hidden") == false)
            .filter_map(|p| p.attribute("id"))
            .collect()
    };
    assert_eq!(shown_panels(), ["panel-overview"]);
    for (tab, panel, says) in [
        ("Material Balance", "panel-material", "Material: White +"),
        ("Variant Information", "panel-variant", "Captures explode."),
        (
            "Analysis Board",
            "panel-analysis",
            "Log in to keep your own analysis",
        ),
        (
            "Engine Analysis",
            "panel-engine",
            "No engine analysis of this game yet.",
        ),
        (
            "Help",
            "panel-help",
            "Move to start, Previous move, Next move, Last move",
        ),
    ] {
        visitor
            .find(&format!(r#"#info-tabs [aria-controls="{panel}"]"#))
            .click();
        visitor.window.wait_for_text(&format!("#{panel}"), says);
        assert_eq!(shown_panels(), [panel], "{tab} alone");
    }
    visitor.find("#tab-overview").click();
    visitor.window.press_key(ARROW_RIGHT); // onto Hide Comments, which is a toggle
    assert_eq!(shown_panels(), ["panel-overview"]);
    visitor.window.press_key(ARROW_RIGHT);
    assert_eq!(shown_panels(), ["panel-material"]);
    assert_eq!(
        visitor.find("#nav-ply").text(),
        "ply 5 of 5",
        "arrows in the tabs leave the board alone"
    );
    // Opening Book: the finished game itself is in the book, move by move as the board moves.
    visitor.find("#tab-book").click();
    visitor.toolbar("Move to start").click();
    visitor.wait_for_ply(0, 5);
    visitor
        .window
        .wait_for_text("#book-games", "1 finished game reached this position.");
    let row = visitor.find(r#".book-table tr[data-uci="g1f3"]"#).text();
    assert_eq!(
        row, "Nf3 1 1 0 0",
        "move, games, White wins, draws, Black wins"
    );
    visitor.key(ARROW_RIGHT);
    visitor.wait_for_ply(1, 5);
    visitor
        .window
        .wait_for(r#".book-table tr[data-uci="g8f6"]"#);
    // Those games, in the game database.
    let search = visitor
        .find("#book-search")
        .attribute("href")
        .unwrap_or_default();
    assert!(
        search.starts_with("/search?variant=atomic&status=finished&position="),
        "{search}"
    );
    let (status, page) = app.get_text(&search);
    assert_eq!(status, 200);
    assert!(page.contains(&format!(r#"href="/games/{id}""#)), "{page}");

    // Share: the FEN of the position shown, copied.
    visitor.find("#tab-share").click();
    visitor.toolbar("Move to start").click();
    visitor.wait_for_ply(0, 5);
    assert_eq!(
        visitor.find("#share-fen").property("value"),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    );
    visitor
        .find(r#".copy-button[data-copy="share-fen"]"#)
        .click();
    visitor.window.wait_for_text("#copy-status", "Copied");
    assert!(same_page());

    // The player to move: pieces stay put at an earlier ply, and move again at the last.
    let id = app.game("standard", &alice_token, &bob);
    app.play_all(id, &alice_token, &bob, &["e4", "e5"]);
    let game = format!("/games/{id}");
    alice.open_game_to_move(&game);
    alice.key(ARROW_LEFT);
    alice.wait_for_ply(1, 2);
    alice.window.wait_for(r#".board[data-movable="false"]"#);
    alice.drag("g1", "f3");
    assert_eq!(
        alice.piece_on("g1").as_deref(),
        Some("wN"),
        "no move from an earlier ply"
    );
    alice.key(ARROW_RIGHT);
    alice.wait_for_ply(2, 2);
    alice.window.wait_for(r#".board[data-movable="true"]"#);
    // A piece held shows where it may go; a move the rules refuse is not sent.
    alice.square("g1").click();
    alice.window.wait_for(r#".sq.selected[data-square="g1"]"#);
    let mut targets: Vec<String> = alice
        .window
        .find_all(".sq.legal")
        .iter()
        .filter_map(|sq| sq.attribute("data-square"))
        .collect();
    targets.sort();
    assert_eq!(targets, ["e2", "f3", "h3"]);
    alice.square("g4").click();
    assert!(
        alice.window.find_all(".sq.legal, .sq.selected").is_empty(),
        "put down"
    );
    alice.drag("g1", "g4");
    assert_eq!(
        alice.piece_on("g1").as_deref(),
        Some("wN"),
        "the knight went back"
    );
    assert!(
        alice.window.find_all(".flash").is_empty(),
        "nothing was sent"
    );
    // Keyboard alone: into the board (its one tabbable square, a8), arrows to g1, Enter, arrows
    // to f3, Enter. Squares are named for screen readers.
    assert_eq!(
        alice.square("e4").attribute("aria-label").as_deref(),
        Some("e4, white pawn")
    );
    assert_eq!(
        alice.square("e3").attribute("aria-label").as_deref(),
        Some("e3, empty")
    );
    let entry = alice.find(r#".board .sq[tabindex="0"]"#);
    assert_eq!(entry.attribute("data-square").as_deref(), Some("a8"));
    alice.window.execute(
        "document.querySelector('.board .sq[tabindex=\"0\"]').focus();",
        serde_json::json!([]),
    );
    for _ in 0..7 {
        alice.window.press_key(ARROW_DOWN);
    }
    for _ in 0..6 {
        alice.window.press_key(ARROW_RIGHT);
    }
    alice.window.press_key(ENTER);
    alice.window.wait_for(r#".sq.selected[data-square="g1"]"#);
    assert_eq!(
        alice.find("#nav-ply").text(),
        "ply 2 of 2",
        "arrows on the board stay there"
    );
    alice.window.press_key(ARROW_UP);
    alice.window.press_key(ARROW_UP);
    alice.window.press_key(ARROW_LEFT);
    alice.window.press_key(ENTER);
    alice.expect_played("Nf3", "wN", "g1", "f3");
}

/// An atomic game whose fifth ply, Nxf7, blows up e8, f6, f7 and f8; its page's address.
fn atomic_blast_game(app: &TestApp) -> String {
    let alice = app.user("alice");
    let bob = app.user("bob");
    let id = app.game("atomic", &alice, &bob);
    app.play_all(id, &alice, &bob, &["Nf3", "Nf6", "Ne5", "e6", "Nxf7"]);
    format!("/games/{id}")
}

fn the_share_tabs_pictures_follow_the_ply_shown_in_chromium(app: &TestApp) {
    let Some(chromedriver) = chromedriver() else {
        return;
    };
    let driver = Driver::start(&chromedriver);
    let game = atomic_blast_game(app);
    let visitor = Player::new("visitor", &driver, app);
    visitor.open(&game);
    visitor.wait_for_ply(5, 5);
    // The `ply` of a Share link's address, and the address itself.
    let link = |id: &str| -> (String, String) {
        let href = visitor
            .find(&format!("#{id}"))
            .attribute("href")
            .unwrap_or_default();
        let ply = regex::Regex::new(r"[?&]ply=(\d+)")
            .unwrap()
            .captures(&href)
            .map(|c| c[1].to_string())
            .unwrap_or_default();
        (ply, href)
    };
    for id in ["svg-link", "png-link", "fen-link"] {
        assert_eq!(link(id).0, "5", "{id}: {}", link(id).1);
    }

    visitor.find("#tab-share").click();
    for (button, ply) in [
        ("Previous move", 4),
        ("Previous move", 3),
        ("Move to start", 0),
        ("Next move", 1),
    ] {
        visitor.toolbar(button).click();
        visitor.wait_for_ply(ply, 5);
        for id in ["svg-link", "png-link", "fen-link"] {
            let (shown, href) = link(id);
            assert_eq!(shown, ply.to_string(), "{id} after {button}: {href}");
        }
        let (_, svg) = link("svg-link");
        assert!(
            svg.starts_with(&format!("{game}.svg?")) && svg.contains("theme="),
            "the picture's other options kept: {svg}"
        );
        // The FEN field is the position shown, as the server gives it.
        let (status, fen) = app.get_text(&format!("{game}.fen?ply={ply}"));
        assert_eq!(status, 200);
        assert_eq!(visitor.find("#share-fen").property("value"), fen.trim());
        assert_eq!(app.get_text(&svg).0, 200, "{svg}");
    }
}

fn the_next_move_button_plays_the_blast_as_the_arrow_key_does_in_chromium(app: &TestApp) {
    let Some(chromedriver) = chromedriver() else {
        return;
    };
    let driver = Driver::start(&chromedriver);
    let game = atomic_blast_game(app);
    let visitor = Player::new("visitor", &driver, app);
    visitor.open(&game);
    visitor.wait_for_ply(5, 5);
    // Every square that takes the blast's class from now on, however briefly.
    visitor.window.execute(
        "window.blasted = [];
         new MutationObserver(function (changes) {
           changes.forEach(function (c) {
             var sq = c.target;
             if (sq.classList.contains('blast') && window.blasted.indexOf(sq.dataset.square) < 0) {
               window.blasted.push(sq.dataset.square);
             }
           });
         }).observe(document.getElementById('board'),
                    { subtree: true, attributes: true, attributeFilter: ['class'] });",
        serde_json::json!([]),
    );
    let blasted = || -> Vec<String> {
        let found = visitor.window.execute(
            "return window.blasted.slice().sort();",
            serde_json::json!([]),
        );
        serde_json::from_value(found).unwrap_or_default()
    };
    for (how, forward) in [
        ("the arrow key", &(|| visitor.key(ARROW_RIGHT)) as &dyn Fn()),
        (
            "Next move",
            &(|| visitor.toolbar("Next move").click()) as &dyn Fn(),
        ),
    ] {
        visitor.toolbar("Previous move").click();
        visitor.wait_for_ply(4, 5);
        assert!(visitor.exploded().is_empty(), "before the blast");
        visitor
            .window
            .execute("window.blasted = [];", serde_json::json!([]));
        forward();
        visitor.wait_for_ply(5, 5);
        assert_eq!(visitor.exploded(), ["e8", "f6", "f7", "f8"], "{how}");
        visitor
            .window
            .wait_until(&format!("the blast played by {how}"), || {
                (blasted() == ["e8", "f6", "f7", "f8"]).then_some(())
            });
    }
}

/// Signs `player` up in the browser and gives back an API token for them.
fn browser_user_with_token(app: &TestApp, player: &Player) -> String {
    player.sign_up();
    let r = app.post(
        "/api/v1/tokens",
        None,
        serde_json::json!({"username": player.name, "password": "correct horse battery"}),
    );
    r.body["token"].as_str().expect("a token").to_string()
}

fn crazyhouse_pieces_in_hand_are_dragged_or_clicked_onto_the_board_in_chromium(app: &TestApp) {
    let Some(chromedriver) = chromedriver() else {
        return;
    };
    let driver = Driver::start(&chromedriver);
    let alice = Player::new("alice", &driver, app);
    let bob = Player::new("bob", &driver, app);
    let alice_token = browser_user_with_token(app, &alice);
    let bob_token = browser_user_with_token(app, &bob);
    let id = app.game("crazyhouse", &alice_token, &bob_token);
    app.play_all(id, &alice_token, &bob_token, &["e4", "d5", "exd5", "Qxd5"]);
    let game = format!("/games/{id}");

    // Each side holds the pawn it took, drawn as a piece beside the board; yours below it.
    alice.open_game_to_move(&game);
    let white_pawn = r#".pocket-piece[data-pocket="white"][data-piece="wP"]"#;
    let black_pawn = r#".pocket-piece[data-pocket="black"][data-piece="bP"]"#;
    assert_eq!(
        alice.find(white_pawn).attribute("data-count").as_deref(),
        Some("1")
    );
    assert_eq!(
        alice.find(black_pawn).attribute("data-count").as_deref(),
        Some("1")
    );
    let below_board = alice.window.execute(
        "const b = document.getElementById('board');
         const w = document.querySelector('.pocket[data-pocket-of=\"white\"]');
         return !!(b.compareDocumentPosition(w) & Node.DOCUMENT_POSITION_FOLLOWING);",
        serde_json::json!([]),
    );
    assert_eq!(below_board, true, "White's pocket under White's board");

    // Alice drags her pawn from the pocket onto e4.
    alice
        .window
        .drag(&alice.find(white_pawn), &alice.square("e4"));
    alice.confirm("P@e4");
    alice.window.wait_for_text(".flash", "You played P@e4.");
    assert_eq!(alice.piece_on("e4").as_deref(), Some("wP"));
    assert!(
        alice.window.find_all(white_pawn).is_empty(),
        "the pocket is empty now"
    );

    // Bob clicks his pawn in hand, then an empty square.
    bob.open_game_to_move(&game);
    assert_eq!(
        bob.find(".board .sq").attribute("data-square").as_deref(),
        Some("h1"),
        "Black's side"
    );
    bob.find(black_pawn).click();
    bob.window.wait_for(&format!("{black_pawn}.selected"));
    bob.square("c6").click();
    bob.confirm("P@c6");
    bob.window.wait_for_text(".flash", "You played P@c6.");
    assert_eq!(bob.piece_on("c6").as_deref(), Some("bP"));

    // Moving back through the game fills the pockets again.
    bob.key(ARROW_LEFT);
    bob.wait_for_ply(5, 6);
    bob.window.wait_for(black_pawn);
    assert!(bob.window.find_all(white_pawn).is_empty());
    bob.key(HOME);
    bob.wait_for_ply(0, 6);
    assert!(
        bob.window.find_all(".pocket-piece").is_empty(),
        "nothing in hand at the start"
    );
}

impl Player<'_> {
    /// Picks `value` in the select box `css`, as a user does (the change event fires).
    fn choose(&self, css: &str, value: &str) {
        self.find(&format!(r#"{css} option[value="{value}"]"#))
            .click();
    }

    fn board_attribute(&self, name: &str) -> String {
        self.find("#board").attribute(name).unwrap_or_default()
    }

    /// Waits until the settings panel says the last change is stored.
    fn wait_saved(&self) {
        self.window.wait_for_text("#settings-status", "Saved");
        self.window.execute(
            "document.getElementById('settings-status').textContent = '';",
            serde_json::json!([]),
        );
    }
}

fn board_settings_and_confirming_moves_in_chromium(app: &TestApp) {
    let Some(chromedriver) = chromedriver() else {
        return;
    };
    let driver = Driver::start(&chromedriver);
    let alice = Player::new("alice", &driver, app);
    let alice_token = browser_user_with_token(app, &alice);
    let bob = app.user("bob");
    let first = app.game("standard", &alice_token, &bob);
    let second = app.game("standard", &alice_token, &bob);
    let game = format!("/games/{first}");

    // A dragged move waits for confirmation; Cancel move leaves the game as it was.
    alice.open_game_to_move(&game);
    alice.drag("e2", "e4");
    alice.window.wait_for_text("#confirm-question", "Play e4?");
    screenshot(&alice.window, "confirm-move.png");
    assert_eq!(
        alice.piece_on("e4").as_deref(),
        Some("wP"),
        "shown on the board"
    );
    assert_eq!(alice.find("#cancel-move").text(), "Cancel move");
    alice.find("#cancel-move").click();
    alice.window.wait_for(r#".board[data-movable="true"]"#);
    assert_eq!(alice.piece_on("e2").as_deref(), Some("wP"));
    assert!(
        alice.window.find_all("#no-moves").len() == 1,
        "no move was played"
    );

    // Settings: theme, pieces and the 3D view change the board at once and are saved.
    alice.toolbar("Settings").click();
    alice.window.wait_for("#board-settings:not([hidden])");
    alice.choose("#setting-theme", "high-contrast");
    alice.wait_saved();
    assert_eq!(alice.board_attribute("data-theme"), "high-contrast");
    alice.choose("#setting-pieces", "flat");
    alice.wait_saved();
    let src = alice
        .find(r#".sq[data-square="e2"] .piece"#)
        .attribute("src")
        .unwrap_or_default();
    assert!(src.contains("/pieces/flat/wP.svg"), "{src}");
    alice.find("#setting-3d").click();
    alice.wait_saved();
    assert!(alice.board_attribute("class").contains("board-3d"));
    screenshot(&alice.window, "board-settings.png");
    alice.window.set_viewport_size(PHONE.0, PHONE.1);
    screenshot(&alice.window, "board-settings-phone.png");
    alice.window.set_viewport_size(DESKTOP.0, DESKTOP.1);
    alice.find("#setting-confirm").click();
    alice.wait_saved();
    alice.find("#setting-next").click();
    alice.wait_saved();
    let stored = app.get("/api/v1/me/preferences", Some(&alice_token)).body;
    assert_eq!(stored["board_theme"], "high-contrast");
    assert_eq!(stored["piece_set"], "flat");
    assert_eq!(stored["board_3d"], true);
    assert_eq!(stored["confirm_moves"], false);
    assert_eq!(stored["next_game_after_move"], true);

    // Kept across pages; a move now goes at once, then on to the next game awaiting one.
    alice.open_game_to_move(&game);
    assert_eq!(alice.board_attribute("data-theme"), "high-contrast");
    assert!(alice.board_attribute("class").contains("board-3d"));
    alice.drag("e2", "e4");
    alice.window.wait_for_text(".flash", "You played e4.");
    alice.window.wait_until("the next game", || {
        alice
            .window
            .url()
            .ends_with(&format!("/games/{second}"))
            .then_some(())
    });

    // Resigning asks first; "Keep playing" changes nothing.
    alice.window.wait_for(r#".board[data-movable="true"]"#);
    alice.choose("#action-select", "resign");
    alice.find(r#"#action-form button[type="submit"]"#).click();
    alice
        .window
        .wait_for_text("#resign-question", "Resign this game?");
    alice.find("#cancel-resign").click();
    // Back on the game page (the question page has no action form).
    alice.window.wait_for("#action-form");
    alice.window.wait_for_text("#game-status", "alice to move");

    // A visitor's settings stay in their browser.
    let visitor = Player::new("visitor", &driver, app);
    visitor.open(&game);
    visitor.toolbar("Settings").click();
    visitor.choose("#setting-theme", "brown");
    assert_eq!(visitor.board_attribute("data-theme"), "brown");
    visitor.open(&game);
    visitor
        .window
        .wait_until("the theme kept in the browser", || {
            (visitor.board_attribute("data-theme") == "brown").then_some(())
        });
}

impl Player<'_> {
    /// Opens the Analysis Board tab and its overlay, and waits until the tree is loaded.
    fn open_analysis(&self) {
        // The tab opens the overlay itself.
        self.find("#tab-analysis").click();
        self.window
            .wait_for("#analysis-overlay:not([hidden]) #analysis-board .sq");
        self.window.wait_until("the analysis loaded", || {
            let status = self.find("#analysis-status").text();
            (!status.starts_with("Loading")).then_some(())
        });
    }

    fn analysis_square(&self, name: &str) -> Element<'_> {
        self.find(&format!(r#"#analysis-board [data-sq="{name}"]"#))
    }

    /// Waits until the analysis says it is stored, then clears the word for the next wait.
    fn wait_analysis_saved(&self) {
        self.window.wait_for_text("#analysis-status", "Saved");
        self.window.execute(
            "document.getElementById('analysis-status').textContent = '';",
            serde_json::json!([]),
        );
    }

    fn analysis_moves(&self) -> String {
        self.find("#analysis-moves").text()
    }
}

fn the_analysis_board_keeps_variations_across_a_reload_for_its_owner_only_in_chromium(
    app: &TestApp,
) {
    let Some(chromedriver) = chromedriver() else {
        return;
    };
    let driver = Driver::start(&chromedriver);
    let alice = Player::new("alice", &driver, app);
    let bob = Player::new("bob", &driver, app);
    let alice_token = browser_user_with_token(app, &alice);
    let bob_token = browser_user_with_token(app, &bob);
    let id = app.game("atomic", &alice_token, &bob_token);
    app.play_all(id, &alice_token, &bob_token, &["e4", "e5"]);
    let game = format!("/games/{id}");

    // During her game, alice drags a knight on the analysis board: the game's moves lead to it.
    alice.open_game_to_move(&game);
    alice.open_analysis();
    assert_eq!(
        alice.find("#analysis-fen").property("value"),
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    );
    alice
        .window
        .drag(&alice.analysis_square("g1"), &alice.analysis_square("f3"));
    alice.wait_analysis_saved();
    assert!(
        alice.analysis_moves().contains("1. e4 e5 2. Nf3"),
        "{}",
        alice.analysis_moves()
    );

    // Back one move and click-click another: a variation beside the main line.
    alice.find("#analysis-back").click();
    alice.analysis_square("d2").click();
    alice
        .window
        .wait_for(r#"#analysis-board [data-sq="d2"].selected"#);
    alice
        .window
        .wait_for(r#"#analysis-board [data-sq="d4"].legal"#);
    alice.analysis_square("d4").click();
    alice.wait_analysis_saved();
    alice.window.wait_for_text(".an-variation", "2. d4");
    // Black's reply in the variation, then taken back.
    alice.analysis_square("e5").click();
    alice
        .window
        .wait_for(r#"#analysis-board [data-sq="e5"].selected"#);
    alice.analysis_square("d4").click();
    alice.wait_analysis_saved();
    alice.window.wait_for_text(".an-variation", "exd4");
    alice.find("#analysis-takeback").click();
    alice.wait_analysis_saved();
    assert!(!alice.find(".an-variation").text().contains("exd4"));
    assert_eq!(
        alice.find("#analysis-fen").property("value"),
        "rnbqkbnr/pppp1ppp/8/4p3/3PP3/8/PPP2PPP/RNBQKBNR b KQkq - 0 2"
    );
    screenshot(&alice.window, "analysis-board.png");
    // On a phone the board fills the width and the moves follow under it.
    alice.window.set_viewport_size(PHONE.0, PHONE.1);
    let fits = alice.window.execute(
        "const b = document.getElementById('analysis-board').getBoundingClientRect();
         return b.left >= 0 && b.right <= window.innerWidth && b.width > 300;",
        serde_json::json!([]),
    );
    assert_eq!(fits, true, "the analysis board fits a phone's width");
    screenshot(&alice.window, "analysis-board-phone.png");
    alice.window.set_viewport_size(DESKTOP.0, DESKTOP.1);
    alice.find("#analysis-close").click();
    assert_eq!(
        alice.piece_on("f3"),
        None,
        "the game's own board is untouched"
    );

    // After a reload (or on another device) the tree is there, the variation beside the line.
    alice.open(&game);
    alice.open_analysis();
    let moves = alice.analysis_moves();
    assert!(
        moves.contains("2. Nf3") && moves.contains("2. d4"),
        "{moves}"
    );

    // The opponent: his own empty analysis, and nothing of hers anywhere he looks.
    bob.open(&game);
    bob.open_analysis();
    assert!(bob.window.find_all(".an-variation").is_empty());
    assert!(
        !bob.analysis_moves().contains("Nf3"),
        "{}",
        bob.analysis_moves()
    );
    let r = app.get(&format!("/api/v1/games/{id}/analysis"), Some(&bob_token));
    assert_eq!(r.body["pgn"], "");
    let r = app.get(&format!("/api/v1/games/{id}"), Some(&bob_token));
    assert!(!r.body.to_string().contains("Nf3"));
}

/// The buttons that work only with JavaScript, by their selectors on the game page.
const SCRIPTED_BUTTONS: [&str; 6] = [
    "#nav-settings",
    "#nav-animate",
    "#nav-stop",
    "#analysis-open",
    r#"[data-copy="share-fen"]"#,
    r#"[data-copy="share-link"]"#,
];

fn without_javascript_no_button_that_needs_it_is_shown_in_chromium(app: &TestApp) {
    let Some(chromedriver) = chromedriver() else {
        return;
    };
    let driver = Driver::start(&chromedriver);
    let alice = app.user("alice");
    let bob = app.user("bob");
    let id = app.game("atomic", &alice, &bob);
    app.play_all(id, &alice, &bob, &["Nf3", "Nf6", "Ne5", "e6", "Nxf7"]);
    let game = format!("/games/{id}");
    for dark in [false, true] {
        let window = driver.session_without_javascript(DESKTOP.0, DESKTOP.1);
        window.set_viewport_size(DESKTOP.0, DESKTOP.1);
        window.set_dark(dark);
        // A logged-in reader (the analysis board is offered to them), signed up by the form.
        window.goto(&format!("{}/signup", app.base));
        let name = if dark { "dora" } else { "carol" };
        window.find("#username").type_text(name);
        window
            .find("#email")
            .type_text(&format!("{name}@example.com"));
        window.find("#password").type_text("correct horse battery");
        window
            .find(r#"form[action="/signup"] button[type="submit"]"#)
            .click();
        window.wait_for_text(".flash", &format!("Welcome, {name}!"));
        window.goto(&format!("{}{game}", app.base));
        window.wait_for("#nav-toolbar");
        for css in SCRIPTED_BUTTONS {
            let found = window.find_all(css);
            assert_eq!(found.len(), 1, "{css} is on the page");
            assert!(!found[0].displayed(), "{css} shown without JavaScript");
        }
        // The toolbar's links still work without a script: Move to start is one.
        assert!(
            window
                .find(r#"#nav-toolbar a[aria-label="Move to start"]"#)
                .displayed()
        );
        let name = if dark {
            "game-no-js-dark.png"
        } else {
            "game-no-js.png"
        };
        screenshot(&window, name);
    }
    // With JavaScript, a visitor's window shows them (Stop animation once animating).
    let window = driver.session(DESKTOP.0, DESKTOP.1);
    window.goto(&format!("{}{game}", app.base));
    window.wait_for(r#"#nav-settings:not([hidden])"#);
    for css in [
        "#nav-settings",
        "#nav-animate",
        r#"[data-copy="share-fen"]"#,
    ] {
        assert!(
            window.find(css).attribute("hidden").is_none(),
            "{css} shown with JavaScript"
        );
    }
}

fn a_refused_tag_opens_on_the_tags_tab_and_the_analysis_tab_opens_its_board_in_chromium(
    app: &TestApp,
) {
    let Some(chromedriver) = chromedriver() else {
        return;
    };
    let driver = Driver::start(&chromedriver);
    let carol = Player::new("carol", &driver, app);
    carol.sign_up();
    let alice = app.user("alice");
    let bob = app.user("bob");
    let id = app.game("atomic", &alice, &bob);
    carol.open(&format!("/games/{id}"));
    carol.find("#tab-tags").click();
    let input = carol.find(r#"form.tag-form input[name="tag"]"#);
    input.type_text("two words");
    carol.find(r#"form.tag-form button[type="submit"]"#).click();
    // The page drawn again with the refusal opens on the Tags tab, its message in view.
    carol.window.wait_for(r#"#tab-tags[aria-selected="true"]"#);
    assert!(carol.find("#tag-error").displayed(), "the refusal is shown");
    assert!(
        !carol.find("#panel-overview").displayed(),
        "not Game Overview"
    );
    // One click on the Analysis Board tab opens the board itself; the page behind it is inert
    // until it closes.
    carol.find("#tab-analysis").click();
    carol
        .window
        .wait_for("#analysis-overlay:not([hidden]) #analysis-board .sq");
    let inert = |what: &str| {
        carol.window.execute(
            &format!("return document.querySelector('{what}').inert;"),
            serde_json::json!([]),
        )
    };
    assert_eq!(inert(".game-layout"), true);
    assert_eq!(inert(".site-header"), true);
    assert_eq!(inert("#analysis-overlay"), false);
    carol.window.press_key("\u{E00C}"); // Escape
    carol.window.wait_for("#analysis-overlay[hidden]");
    assert_eq!(inert(".game-layout"), false);
}
