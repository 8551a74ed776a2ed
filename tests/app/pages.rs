//! The web pages as a player without JavaScript uses them: forms, redirects, messages.

use crate::common;

use common::{Browser, TestApp, hidden_value};

on_both_databases!(
    two_players_play_atomic_to_an_explosion_in_the_browser,
    forms_refuse_bad_input_and_keep_what_was_typed,
    login_logout_and_pages_that_need_a_login,
    share_link_challenge_and_next_game,
    conditional_moves_leave_and_gifts_of_time_from_the_forms,
    every_ply_shows_its_marks_and_the_board_flips_without_javascript,
    confirming_a_move_and_board_settings_without_javascript,
    a_move_answered_by_conditional_lines_names_both,
    a_typed_move_is_never_dropped_and_only_possible_actions_are_offered,
    an_address_that_cannot_be_read_gets_the_sites_error_page,
    unknown_addresses_get_the_sites_404_page_and_every_page_answers_head,
    one_day_is_one_day_and_leave_is_told_in_one_sentence,
    keep_playing_brings_back_the_message_typed_with_resign,
    usernames_in_any_script_sign_up_and_are_reachable,
    a_name_in_another_case_form_or_look_alike_letters_is_taken,
    a_unicode_name_logs_in_in_any_case,
);

/// Plays a move from the game page's form, using the ply the page shows.
fn play(browser: &Browser, game: &str, mv: &str, message: &str) -> common::Page {
    let page = browser.get(game);
    let ply = hidden_value(&page.body, "ply").expect("the action form");
    let csrf = hidden_value(&page.body, "csrf_token").unwrap();
    browser.post(
        game,
        &[
            ("csrf_token", &csrf),
            ("ply", &ply),
            ("action", "move"),
            ("move", mv),
            ("message", message),
        ],
    )
}

fn start_game(app: &TestApp) -> (Browser, Browser, String) {
    let alice = app.browser();
    let bob = app.browser();
    let welcome = alice.follow(alice.sign_up("alice"));
    assert!(welcome.body.contains("Welcome, alice!"), "{}", welcome.body);
    assert_eq!(bob.sign_up("bob").status, 303);
    let csrf = alice.csrf("/challenges");
    let r = alice.post(
        "/challenges",
        &[
            ("csrf_token", &csrf),
            ("variant", "atomic"),
            ("color", "white"),
            ("days_per_move", "3"),
            ("kind", "open"),
            ("opponent", "bob"),
        ],
    );
    assert_eq!(r.status, 303, "{}", r.body);
    let list = bob.get("/challenges");
    assert!(
        list.body.contains("<td>Atomic · casual</td>"),
        "the variant as people write it: {}",
        list.body
    );
    let action = regex::Regex::new(r#"action="(/challenges/\d+/accept)""#).unwrap();
    let accept = action
        .captures(&list.body)
        .expect("an accept button for bob")[1]
        .to_string();
    let csrf = hidden_value(&list.body, "csrf_token").unwrap();
    let r = bob.post(&accept, &[("csrf_token", &csrf)]);
    assert_eq!(r.status, 303);
    let game = r.location.expect("redirect to the game");
    assert!(game.starts_with("/games/"), "{game}");
    (alice, bob, game)
}

fn two_players_play_atomic_to_an_explosion_in_the_browser(app: &TestApp) {
    let (alice, bob, game) = start_game(app);
    let page = alice.get(&game);
    assert!(page.body.contains("alice to move"), "{}", page.body);
    assert!(page.body.contains(r#"data-piece="wN""#));
    // The rules of the variant are on the page, folded: atomic's own, then the shared ones.
    let info_at = page
        .body
        .find(r#"id="panel-variant""#)
        .expect("variant information");
    let info = &page.body[info_at..];
    assert!(info.contains("Variant information: Atomic"));
    assert!(info.contains("<strong>Captures explode.</strong>"));
    assert!(info.contains("Draws that must be claimed"));
    assert!(
        !info.contains("Orthodox chess under FIDE"),
        "not another variant's rules"
    );
    for (who, mv) in [
        (&alice, "Nf3"),
        (&bob, "Nf6"),
        (&alice, "g1f3x"),
        (&alice, "Ne5"),
        (&bob, "e6"),
    ] {
        let r = play(who, &game, mv, "");
        if mv == "g1f3x" {
            assert_eq!(r.status, 422, "an unreadable move is refused on the page");
            continue;
        }
        assert_eq!(r.status, 303, "{mv}: {}", r.body);
        let next = who.follow(r);
        assert!(
            next.body.contains(&format!("You played {mv}.")),
            "{}",
            next.body
        );
    }
    let r = alice.follow(play(
        &alice,
        &game,
        "Nxf7",
        "<script>alert('boom')</script>",
    ));
    // The blast took White's knight and Black's f7 pawn, f6 knight, f8 bishop and king.
    assert!(
        r.body
            .contains("Material: White +4 (White has ♗ ♙ more, Black nothing)"),
        "{}",
        r.body
    );
    assert!(
        r.body.contains("1-0 alice wins — King exploded"),
        "{}",
        r.body
    );
    assert!(
        !r.body.contains("<script>alert"),
        "a message is shown as text"
    );
    assert!(
        r.body.contains("&#60;script&#62;") || r.body.contains("&lt;script&gt;"),
        "{}",
        r.body
    );
    // The exploded king and its neighbours are gone from the board.
    let e8 = regex::Regex::new(r#"data-square="e8"[^>]*>(<img)?"#).unwrap();
    let drawn = e8.captures(&r.body).expect("e8 is drawn");
    assert!(drawn.get(1).is_none(), "the black king exploded");
    assert!(
        !r.body.contains(r#"id="action-form""#),
        "no action bar once the game is over"
    );
    // Anyone can look, without logging in.
    let stranger = app.browser();
    let seen = stranger.get(&game);
    assert_eq!(seen.status, 200);
    assert!(seen.body.contains("King exploded"));
    assert!(!seen.body.contains(r#"id="action-form""#));
    let pgn = stranger.get(&format!("{game}.pgn"));
    assert!(pgn.body.contains("3. Nxf7"), "{}", pgn.body);
    assert!(pgn.body.contains("[Result \"1-0\"]"));
    // Earlier positions can be viewed.
    let start = stranger.get(&format!("{game}?ply=0"));
    let king_on_e8 = regex::Regex::new(
        r#"data-square="e8"[^>]*><img class="piece" src="/static/pieces/bK.svg""#,
    )
    .unwrap();
    assert!(king_on_e8.is_match(&start.body), "{}", start.body);
}

fn forms_refuse_bad_input_and_keep_what_was_typed(app: &TestApp) {
    let (alice, bob, game) = start_game(app);
    // Not your turn.
    let r = play(&bob, &game, "e5", "hello");
    assert_eq!(r.status, 403);
    assert!(r.body.contains("it is not your turn"));
    // Illegal: message shown, typed move and message kept.
    let r = play(&alice, &game, "Ke2", "my message");
    assert_eq!(r.status, 422);
    assert!(
        r.body.contains("Ke2 is not a legal move here"),
        "{}",
        r.body
    );
    assert!(r.body.contains(r#"value="Ke2""#));
    assert!(r.body.contains(r#"value="my message""#));
    // A stale page: drawn before the opponent's move.
    let stale = alice.get(&game);
    assert_eq!(play(&alice, &game, "e4", "").status, 303);
    assert_eq!(play(&bob, &game, "e5", "").status, 303);
    let ply = hidden_value(&stale.body, "ply").unwrap();
    let csrf = hidden_value(&stale.body, "csrf_token").unwrap();
    let r = alice.post(
        &game,
        &[
            ("csrf_token", &csrf),
            ("ply", &ply),
            ("action", "move"),
            ("move", "d4"),
            ("message", ""),
        ],
    );
    assert_eq!(r.status, 409);
    assert!(r.body.contains("moved on"), "{}", r.body);
    // No or a wrong CSRF token: refused, nothing stored.
    let page = alice.get(&game);
    let ply = hidden_value(&page.body, "ply").unwrap();
    let r = alice.post(
        &game,
        &[
            ("csrf_token", "forged"),
            ("ply", &ply),
            ("action", "move"),
            ("move", "d4"),
        ],
    );
    assert_eq!(r.status, 403);
    assert!(alice.get(&game).body.contains("alice to move"));
    // Someone else's session cannot act for alice.
    let mallory = app.browser();
    mallory.sign_up("mallory");
    assert!(
        !mallory.get(&game).body.contains(r#"id="action-form""#),
        "no action bar for non-players"
    );
    let csrf = mallory.csrf("/");
    let r = mallory.post(
        &game,
        &[
            ("csrf_token", &csrf),
            ("ply", &ply),
            ("action", "move"),
            ("move", "d4"),
        ],
    );
    assert_eq!(r.status, 403, "{}", r.body);
    assert!(r.body.contains("not playing in this game"));
    // Resignation through the dropdown, asked first and then confirmed.
    let page = alice.get(&game);
    let ply = hidden_value(&page.body, "ply").unwrap();
    let csrf = hidden_value(&page.body, "csrf_token").unwrap();
    let resign = |confirm: &str| {
        alice.post(
            &game,
            &[
                ("csrf_token", &csrf),
                ("ply", &ply),
                ("action", "resign"),
                ("move", ""),
                ("message", "gg"),
                ("confirm", confirm),
            ],
        )
    };
    let asked = resign("ask");
    assert_eq!(asked.status, 200);
    assert!(asked.body.contains("Resign this game?"), "{}", asked.body);
    let r = alice.follow(resign("done"));
    assert!(r.body.contains("You resigned."), "{}", r.body);
    assert!(
        r.body.contains("0-1 bob wins — Resignation") || r.body.contains("0-1 bob wins"),
        "{}",
        r.body
    );
}

fn login_logout_and_pages_that_need_a_login(app: &TestApp) {
    let alice = app.browser();
    alice.sign_up("alice");
    let csrf = alice.csrf("/");
    assert_eq!(alice.post("/logout", &[("csrf_token", &csrf)]).status, 303);
    let r = alice.get("/games");
    assert_eq!(r.status, 303);
    assert_eq!(r.location.as_deref(), Some("/login?next=%2Fgames"));
    let csrf = alice.csrf("/login?next=/games");
    let r = alice.post(
        "/login",
        &[
            ("csrf_token", &csrf),
            ("username", "alice"),
            ("password", "wrong one"),
            ("next", "/games"),
        ],
    );
    assert_eq!(r.status, 401);
    assert!(r.body.contains("wrong username or password"));
    let r = alice.post(
        "/login",
        &[
            ("csrf_token", &csrf),
            ("username", "alice"),
            ("password", "correct horse battery"),
            ("next", "/games"),
        ],
    );
    assert_eq!(r.status, 303);
    assert_eq!(r.location.as_deref(), Some("/games"));
    // An outside address is never a redirect target.
    let csrf = alice.csrf("/login");
    let r = alice.post(
        "/login",
        &[
            ("csrf_token", &csrf),
            ("username", "alice"),
            ("password", "correct horse battery"),
            ("next", "//evil.example"),
        ],
    );
    assert_eq!(r.location.as_deref(), Some("/"));
    // Sign-up errors are explained on the form.
    let bob = app.browser();
    let csrf = bob.csrf("/signup");
    let r = bob.post(
        "/signup",
        &[
            ("csrf_token", &csrf),
            ("username", "ALICE"),
            ("email", "x@example.com"),
            ("password", "correct horse battery"),
        ],
    );
    assert_eq!(r.status, 409);
    assert!(r.body.contains("already taken"));
    let r = bob.post(
        "/signup",
        &[
            ("csrf_token", &csrf),
            ("username", "bob"),
            ("email", "x@example.com"),
            ("password", "short"),
        ],
    );
    assert_eq!(r.status, 422);
    assert!(r.body.contains("too short"));
    // A token from the account page works on the API.
    let csrf = alice.csrf("/account");
    let r = alice.post(
        "/account/tokens",
        &[("csrf_token", &csrf), ("label", "bot")],
    );
    let token = regex::Regex::new(r#"<code id="new-token">([^<]+)</code>"#)
        .unwrap()
        .captures(&r.body)
        .unwrap()[1]
        .to_string();
    assert_eq!(app.get("/api/v1/me/queue", Some(&token)).status, 200);
}

fn share_link_challenge_and_next_game(app: &TestApp) {
    let alice = app.browser();
    let bob = app.browser();
    alice.sign_up("alice");
    bob.sign_up("bob");
    let csrf = alice.csrf("/challenges");
    let r = alice.post(
        "/challenges",
        &[
            ("csrf_token", &csrf),
            ("variant", "standard"),
            ("color", "black"),
            ("days_per_move", "7"),
            ("kind", "link"),
            ("opponent", ""),
        ],
    );
    assert_eq!(r.status, 201);
    let link = regex::Regex::new(r#"id="share-link" href="[^"]*(/challenges/link/[^"]+)""#)
        .unwrap()
        .captures(&r.body)
        .unwrap()[1]
        .to_string();
    // The link challenge is not listed for others; its author finds the link on the list
    // after any reload, not only in the flash.
    assert!(!bob.get("/challenges").body.contains("/accept"));
    assert!(!bob.get("/challenges").body.contains(&link));
    for _ in 0..2 {
        let listed = alice.get("/challenges").body;
        assert!(listed.contains(&format!(r#"href="{link}""#)), "{listed}");
    }
    // A visitor with the link signs up from it and comes back to it.
    let carol = app.browser();
    let invite = carol.get(&link).body;
    let signup = format!("/signup?next={link}");
    assert!(invite.contains(&format!(r#"href="{signup}""#)), "{invite}");
    let form = carol.get(&signup).body;
    assert_eq!(hidden_value(&form, "next").as_deref(), Some(link.as_str()));
    let csrf = hidden_value(&form, "csrf_token").unwrap();
    let r = carol.post(
        "/signup",
        &[
            ("csrf_token", &csrf),
            ("username", "carol"),
            ("email", "carol@example.com"),
            ("password", "correct horse battery"),
            ("next", &link),
        ],
    );
    assert_eq!(r.status, 303, "{}", r.body);
    assert_eq!(r.location.as_deref(), Some(link.as_str()));
    let page = bob.get(&link);
    assert!(page.body.contains("alice challenges you"), "{}", page.body);
    let csrf = hidden_value(&page.body, "csrf_token").unwrap();
    let token = hidden_value(&page.body, "token").unwrap();
    let action = regex::Regex::new(r#"action="(/challenges/\d+/accept)""#)
        .unwrap()
        .captures(&page.body)
        .unwrap()[1]
        .to_string();
    let r = bob.post(&action, &[("csrf_token", &csrf), ("token", &token)]);
    assert_eq!(r.status, 303);
    let game = r.location.unwrap();
    // Bob is White: Next Game takes him there; alice has nothing waiting.
    let r = bob.get("/next");
    assert_eq!(r.location.as_deref(), Some(game.as_str()));
    let r = alice.follow(alice.get("/next"));
    assert!(
        r.body.contains("No other game is waiting for your move."),
        "{}",
        r.body
    );
    let mine = bob.get("/games");
    assert!(mine.body.contains("your move"), "{}", mine.body);
}

#[test]
fn static_files_are_served_from_the_binary_with_caching() {
    let app = common::spawn_app(common::Backend::Sqlite).unwrap();
    let browser = app.browser();
    let res = browser
        .client
        .get(format!("{}/static/pieces/wK.svg", app.base))
        .send()
        .unwrap();
    assert_eq!(res.status().as_u16(), 200);
    assert_eq!(res.headers()["content-type"], "image/svg+xml");
    let tag = res.headers()["etag"].to_str().unwrap().to_string();
    assert!(res.text().unwrap().contains("<svg"));
    let again = browser
        .client
        .get(format!("{}/static/pieces/wK.svg", app.base))
        .header("If-None-Match", &tag)
        .send()
        .unwrap();
    assert_eq!(again.status().as_u16(), 304);
    assert_eq!(browser.get("/static/../Cargo.toml").status, 404);
    assert_eq!(browser.get("/static/nothing.css").status, 404);
}

/// Submits the action form of the game page with any action and text.
fn act(browser: &Browser, game: &str, action: &str, text: &str) -> common::Page {
    let page = browser.get(game);
    let ply = hidden_value(&page.body, "ply").expect("the action form");
    let csrf = hidden_value(&page.body, "csrf_token").unwrap();
    browser.post(
        game,
        &[
            ("csrf_token", &csrf),
            ("ply", &ply),
            ("action", action),
            ("move", text),
            ("message", ""),
        ],
    )
}

fn conditional_moves_leave_and_gifts_of_time_from_the_forms(app: &TestApp) {
    let (alice, bob, game) = start_game(app);
    // Bob, waiting, enters lines through the action bar.
    let r = bob.follow(act(&bob, &game, "conditional_move", "e4 e5 Nf3 Nc6; d4 d5"));
    assert!(
        r.body.contains("Your conditional moves are saved"),
        "{}",
        r.body
    );
    assert!(
        r.body.contains("e4 e5 Nf3 Nc6; d4 d5"),
        "the author sees the lines"
    );
    assert!(
        !alice.get(&game).body.contains("Nf3 Nc6"),
        "the opponent does not"
    );
    let r = bob.follow(act(&bob, &game, "conditional_move", "e4 Ke7"));
    assert!(r.body.contains("line 1, move 2 (Ke7)"), "{}", r.body);
    // Alice plays e4: bob's e5 comes at once.
    let r = alice.follow(play(&alice, &game, "e4", ""));
    assert!(r.body.contains(">e5</a>"), "{}", r.body);
    assert!(r.body.contains("alice to move"));
    // Clearing the remaining lines.
    let page = bob.get(&game);
    assert!(page.body.contains("Nf3 Nc6"));
    let csrf = hidden_value(&page.body, "csrf_token").unwrap();
    let r = bob.follow(bob.post(
        &format!("{game}/conditional/clear"),
        &[("csrf_token", &csrf)],
    ));
    assert!(r.body.contains("Your conditional moves are cleared."));
    assert!(!r.body.contains("Nf3 Nc6"));
    // A gift of time from the form.
    let r = bob.follow(act(&bob, &game, "give_time", "2"));
    assert!(
        r.body.contains("You gave your opponent 2 more days."),
        "{}",
        r.body
    );
    // Leave booked on the account page shows on the game page.
    let csrf = alice.csrf("/account");
    let today = chrono::Utc::now()
        .date_naive()
        .format("%Y-%m-%d")
        .to_string();
    let r = alice.follow(alice.post(
        "/account/leave",
        &[("csrf_token", &csrf), ("start", &today), ("days", "3")],
    ));
    assert!(r.body.contains("Leave booked: 3 days"), "{}", r.body);
    assert!(r.body.contains("25</strong> of 28 days left"), "{}", r.body);
    let r = alice.post(
        "/account/leave",
        &[("csrf_token", &csrf), ("start", "yesterday"), ("days", "3")],
    );
    assert_eq!(r.status, 422);
    assert!(r.body.contains("a date like"));
    assert!(bob.get(&game).body.contains("alice is on leave until"));
    // Alice is told of her own leave as "you".
    let own = alice.get(&game).body;
    assert!(own.contains("You are on leave until"), "{own}");
    assert!(!own.contains("alice is on leave"));
    // New leave starts tomorrow unless chosen otherwise; leave under way can end now.
    let account = alice.get("/account").body;
    let tomorrow = (chrono::Utc::now().date_naive() + chrono::Duration::days(1))
        .format("%Y-%m-%d")
        .to_string();
    assert!(
        account.contains(&format!(r#"name="start" type="date" value="{tomorrow}""#)),
        "{account}"
    );
    let end = regex::Regex::new(r#"action="(/account/leave/\d+/end)""#)
        .unwrap()
        .captures(&account)
        .expect("an End now button for leave under way")[1]
        .to_string();
    let r = alice.follow(alice.post(&end, &[("csrf_token", &csrf)]));
    assert!(r.body.contains("Your leave has ended"), "{}", r.body);
    assert!(
        r.body.contains("27</strong> of 28 days left"),
        "today counts: {}",
        r.body
    );
    assert!(!bob.get(&game).body.contains("alice is on leave"));
}

#[test]
fn public_pages_set_no_cookie_for_visitors() {
    let app = common::spawn_app(common::Backend::Sqlite).unwrap();
    let a = app.user("alice");
    let b = app.user("bob");
    let g = app.game("atomic", &a, &b);
    let visitor = app.browser();
    for path in [
        format!("/games/{g}"),
        "/".to_string(),
        "/challenges".to_string(),
    ] {
        let res = visitor
            .client
            .get(format!("{}{path}", app.base))
            .send()
            .unwrap();
        assert_eq!(res.status().as_u16(), 200);
        assert!(
            res.headers().get("set-cookie").is_none(),
            "{path} sets a cookie for a visitor"
        );
    }
    // A visitor sees no empty action bar; a game without moves says so.
    let page = visitor.get(&format!("/games/{g}")).body;
    assert!(!page.contains("action-bar"), "{page}");
    assert!(page.contains("No moves yet."), "{page}");
    assert!(!page.contains("class=\"movelist\""), "{page}");
    // The login form does need a session for its CSRF token.
    let res = visitor
        .client
        .get(format!("{}/login", app.base))
        .send()
        .unwrap();
    assert!(res.headers().get("set-cookie").is_some());
}

#[test]
fn simultaneous_sign_ups_all_succeed_on_sqlite() {
    let app = common::spawn_app(common::Backend::Sqlite).unwrap();
    let statuses: Vec<u16> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..16)
            .map(|i| {
                let app = &app;
                s.spawn(move || {
                    app.post(
                        "/api/v1/accounts",
                        None,
                        serde_json::json!({"username": format!("player{i}"), "email": format!("p{i}@example.com"), "password": "correct horse battery"}),
                    )
                    .status
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert!(statuses.iter().all(|s| *s == 201), "{statuses:?}");
}

/// The class list of the square `name` on a drawn board.
fn square_classes(html: &str, name: &str) -> String {
    let pattern = format!(r#"class="sq ([^"]*)" data-square="{name}""#);
    regex::Regex::new(&pattern)
        .unwrap()
        .captures(html)
        .unwrap_or_else(|| panic!("square {name} drawn"))[1]
        .to_string()
}

/// The squares in the order the board draws them.
fn drawn_order(html: &str) -> Vec<String> {
    regex::Regex::new(r#"data-square="([a-h][1-8])""#)
        .unwrap()
        .captures_iter(html)
        .map(|c| c[1].to_string())
        .collect()
}

fn every_ply_shows_its_marks_and_the_board_flips_without_javascript(app: &TestApp) {
    let alice = app.user("alice");
    let bob = app.user("bob");
    let id = app.game("atomic", &alice, &bob);
    app.play_all(id, &alice, &bob, &["Nf3", "Nf6", "Ne5", "e6", "Nxf7"]);
    let game = format!("/games/{id}");

    // At the blast: the knight's move marked, and every square the explosion cleared.
    let (status, page) = app.get_text(&game);
    assert_eq!(status, 200);
    for square in ["f6", "f7", "e8", "f8"] {
        assert!(
            square_classes(&page, square).contains("exploded"),
            "{square} cleared"
        );
    }
    for square in ["e6", "g7", "e5"] {
        assert!(
            !square_classes(&page, square).contains("exploded"),
            "{square} stands"
        );
    }
    assert!(square_classes(&page, "e5").contains("last"));

    // An earlier ply shows its own move, and no blast.
    let (_, third) = app.get_text(&format!("{game}?ply=3"));
    assert!(
        square_classes(&third, "f3").contains("last"),
        "Ne5 came from f3"
    );
    assert!(square_classes(&third, "e5").contains("last"));
    let blasted = regex::Regex::new(r#"class="sq [^"]*exploded"#).unwrap();
    assert!(!blasted.is_match(&third), "no blast before the capture");

    // The toolbar names its buttons; without JavaScript they are links that keep the side shown.
    for name in [
        "Settings",
        "Move to start",
        "Previous move",
        "Next move",
        "Last move",
        "Flip",
        "Animate",
        "Stop animation",
    ] {
        assert!(third.contains(&format!(r#"aria-label="{name}""#)), "{name}");
    }
    let unescaped = |html: &str| html.replace("&#38;", "&").replace("&amp;", "&");
    assert!(unescaped(&third).contains(&format!(
        r#"aria-label="Flip" title="Flip" href="/games/{id}?ply=3&flip=1""#
    )));
    assert_eq!(drawn_order(&third)[0], "a8", "a visitor sees White's side");
    let (_, flipped) = app.get_text(&format!("{game}?ply=3&flip=1"));
    assert_eq!(drawn_order(&flipped)[0], "h1", "flipped: Black's side");
    assert!(
        unescaped(&flipped).contains(&format!(
            r#"title="Previous move" href="/games/{id}?ply=2&flip=1""#
        )),
        "Previous move stays flipped"
    );

    // Without JavaScript every tab's panel is on the page, the tabs linking to them.
    for (tab, panel) in [
        ("Game Overview", "panel-overview"),
        ("Material Balance", "panel-material"),
        ("Tags", "panel-tags"),
        ("Variant Information", "panel-variant"),
        ("Opening Book", "panel-book"),
        ("Engine Analysis", "panel-engine"),
        ("Share", "panel-share"),
        ("Help", "panel-help"),
    ] {
        assert!(
            third.contains(&format!(
                r##"role="tab" id="tab-{}" href="#{panel}""##,
                &panel[6..]
            )),
            "{tab}"
        );
        assert!(
            third.contains(&format!(r#"role="tabpanel" id="{panel}""#)),
            "{panel}"
        );
        assert!(third.contains(&format!(">{tab}</a>")), "{tab}");
    }
    assert!(third.contains(">Hide Comments</a>"));
    // A finished game: no engine analysis yet, said plainly. The Share tab's FEN is the ply shown.
    assert!(third.contains("No engine analysis of this game yet."));
    assert!(third.contains("rnbqkb1r/pppppppp/5n2/4N3/8/8/PPPPPPPP/RNBQKB1R b KQkq - 3 2"));
    let (status, help) = app.get_text("/help/game");
    assert_eq!(status, 200);
    assert!(help.contains("Move to start, Previous move, Next move, Last move"));

    // The positions the page moves through without reloading.
    let plies = app.get(&format!("{game}/plies.json"), None);
    assert_eq!(plies.status, 200);
    assert_eq!(plies.body["last_ply"], 5);
    assert_eq!(
        plies.body["plies"][0]["board"],
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"
    );
    assert_eq!(
        plies.body["plies"][3]["last"],
        serde_json::json!(["f3", "e5"])
    );
    assert_eq!(
        plies.body["plies"][5]["exploded"],
        serde_json::json!(["f6", "f7", "e8", "f8"])
    );
    assert_eq!(plies.body["plies"][5]["san"], "Nxf7#");
    assert_eq!(
        app.get(&format!("/games/{}/plies.json", id + 100), None)
            .status,
        404
    );

    // A browser holding the current copy is told it is unchanged.
    let url = format!("{}{game}/plies.json", app.base);
    let first = app.client.get(&url).send().unwrap();
    let etag = first.headers()["etag"].to_str().unwrap().to_string();
    let again = app
        .client
        .get(&url)
        .header("If-None-Match", &etag)
        .send()
        .unwrap();
    assert_eq!(again.status().as_u16(), 304);
}

fn confirming_a_move_and_board_settings_without_javascript(app: &TestApp) {
    let (alice, bob, game) = start_game(app);
    // The form asks for a confirmation by default: the move is shown, not played.
    let page = alice.get(&game);
    assert!(
        page.body
            .contains(r#"name="confirm" id="confirm-field" value="ask""#)
    );
    let csrf = hidden_value(&page.body, "csrf_token").unwrap();
    let ask = |mv: &str| {
        alice.post(
            &game,
            &[
                ("csrf_token", &csrf),
                ("ply", "0"),
                ("action", "move"),
                ("move", mv),
                ("message", "Have fun"),
                ("confirm", "ask"),
            ],
        )
    };
    let shown = ask("Nf3");
    assert_eq!(shown.status, 200);
    assert!(
        shown.body.contains("Play <strong>Nf3</strong>?"),
        "{}",
        shown.body
    );
    assert!(
        shown.body.contains(">Confirm move</button>")
            && shown.body.contains(">Cancel move</button>")
    );
    assert!(
        shown.body.contains(r#"value="Have fun""#),
        "the message is kept"
    );
    assert!(
        bob.get(&game).body.contains("No moves yet."),
        "nothing was played"
    );
    // An illegal move is refused as ever, before any confirmation.
    let refused = ask("Ke2");
    assert_eq!(refused.status, 422);
    assert!(
        refused.body.contains("Ke2 is not a legal move here"),
        "{}",
        refused.body
    );
    // Confirming plays it.
    let confirmed = alice.post(
        &game,
        &[
            ("csrf_token", &csrf),
            ("ply", "0"),
            ("action", "move"),
            ("move", "g1f3"),
            ("message", "Have fun"),
            ("confirm", "done"),
        ],
    );
    assert_eq!(confirmed.status, 303);
    assert!(alice.follow(confirmed).body.contains("You played Nf3."));

    // The account page's board settings, saved without JavaScript; a bad value changes nothing.
    let account = alice.get("/account");
    assert!(account.body.contains(r#"id="preferences-form""#));
    let csrf = hidden_value(&account.body, "csrf_token").unwrap();
    let save = |theme: &str| {
        alice.post(
            "/account/preferences",
            &[
                ("csrf_token", &csrf),
                ("back", "/account#board"),
                ("board_theme", theme),
                ("piece_set", "letters"),
                ("animation_ms", "300"),
                ("coordinates", "on"),
            ],
        )
    };
    let saved = save("purple");
    assert_eq!(saved.status, 303);
    assert_eq!(saved.location.as_deref(), Some("/account#board"));
    let page = alice.get(&game).body;
    assert!(page.contains(r#"data-theme="purple""#));
    assert!(page.contains(r#"src="/static/pieces/letters/wK.svg""#));
    assert!(
        page.contains(r#"name="confirm" id="confirm-field" value="no""#),
        "unticked: off"
    );
    let refused = save("tartan");
    assert_eq!(refused.status, 303);
    assert!(alice.follow(refused).body.contains("unknown board theme"));
    assert!(alice.get(&game).body.contains(r#"data-theme="purple""#));
    // Without the form's token nothing is saved.
    let forged = alice.post(
        "/account/preferences",
        &[
            ("csrf_token", "forged"),
            ("board_theme", "blue"),
            ("piece_set", "classic"),
            ("animation_ms", "700"),
        ],
    );
    assert_ne!(forged.status, 303);
    assert!(alice.get(&game).body.contains(r#"data-theme="purple""#));
    // Resigning always asks first; only the answer ends the game.
    let page = bob.get(&game);
    let csrf_bob = hidden_value(&page.body, "csrf_token").unwrap();
    let resign = |confirm: &str| {
        bob.post(
            &game,
            &[
                ("csrf_token", &csrf_bob),
                ("ply", "1"),
                ("action", "resign"),
                ("message", "Well played"),
                ("confirm", confirm),
            ],
        )
    };
    let asked = resign("ask");
    assert_eq!(asked.status, 200);
    assert!(asked.body.contains("Resign this game?"), "{}", asked.body);
    assert!(asked.body.contains(r#"value="Well played""#));
    assert!(
        alice.get(&game).body.contains("bob to move"),
        "still running"
    );
    let done = resign("done");
    assert_eq!(done.status, 303);
    assert!(bob.follow(done).body.contains("You resigned."));
}

fn a_move_answered_by_conditional_lines_names_both(app: &TestApp) {
    let (alice, bob, game) = start_game(app);
    // Bob waits with a conditional line: if 1. e4 then 1... Nc6.
    let page = bob.get(&game);
    let csrf = hidden_value(&page.body, "csrf_token").unwrap();
    let set = bob.post(
        &game,
        &[
            ("csrf_token", &csrf),
            ("ply", "0"),
            ("action", "conditional_move"),
            ("move", "e4 Nc6"),
            ("message", ""),
        ],
    );
    assert_eq!(set.status, 303);
    let played = play(&alice, &game, "e4", "");
    assert_eq!(played.status, 303);
    let page = alice.follow(played).body;
    assert!(
        page.contains("You played e4; bob&#39;s conditional moves answered at once: Nc6.")
            || page.contains("You played e4; bob&#x27;s conditional moves answered at once: Nc6."),
        "{page}"
    );
    assert!(!page.contains("You played Nc6"));
}

/// The values of the action dropdown on a page.
fn action_values(html: &str) -> Vec<String> {
    let select = &html[html
        .find(r#"id="action-select""#)
        .expect("the action dropdown")..];
    let select = &select[..select.find("</select>").unwrap()];
    regex::Regex::new(r#"<option value="([a-z_]+)""#)
        .unwrap()
        .captures_iter(select)
        .map(|c| c[1].to_string())
        .collect()
}

fn a_typed_move_is_never_dropped_and_only_possible_actions_are_offered(app: &TestApp) {
    let (alice, bob, game) = start_game(app);
    // Alice to move: no draw to claim, nothing to answer.
    let page = alice.get(&game).body;
    assert_eq!(
        action_values(&page),
        [
            "move",
            "move_offer_draw",
            "conditional_move",
            "offer_draw",
            "comment",
            "resign"
        ]
    );
    // Bob waits: he may only prepare, offer, comment or resign.
    let waiting = bob.get(&game).body;
    assert_eq!(
        action_values(&waiting),
        ["conditional_move", "offer_draw", "comment", "resign"]
    );
    assert!(waiting.contains(r#"<option value="conditional_move" selected>"#));
    // A move typed with "Offer draw" is not thrown away: refused, kept, nothing done.
    let csrf = hidden_value(&page, "csrf_token").unwrap();
    let send = |action: &str, mv: &str| {
        alice.post(
            &game,
            &[
                ("csrf_token", &csrf),
                ("ply", "0"),
                ("action", action),
                ("move", mv),
                ("message", "fancy a draw?"),
            ],
        )
    };
    for action in ["offer_draw", "comment"] {
        let refused = send(action, "Nf3");
        assert_eq!(refused.status, 422, "{action}");
        assert!(
            refused.body.contains("You typed the move Nf3"),
            "{}",
            refused.body
        );
        assert!(refused.body.contains(r#"value="Nf3""#));
        assert!(refused.body.contains(r#"value="fancy a draw?""#));
    }
    assert!(bob.get(&game).body.contains("No moves yet."));
    assert!(!bob.get(&game).body.contains("offers a draw"));
    // "Move and offer draw" does both.
    let done = send("move_offer_draw", "Nf3");
    assert_eq!(done.status, 303);
    assert!(
        alice
            .follow(done)
            .body
            .contains("You played Nf3 and offered a draw.")
    );
    let seen = bob.get(&game).body;
    assert!(seen.contains("alice offers a draw."), "{seen}");
    assert!(action_values(&seen).contains(&"accept_draw".to_string()));
    assert!(!action_values(&seen).contains(&"move_offer_draw".to_string()));
}

fn an_address_that_cannot_be_read_gets_the_sites_error_page(app: &TestApp) {
    let browser = app.browser();
    browser.sign_up("alice");
    // A game id cut short is no game to skip: Next Game still goes on (to my games here).
    let page = browser.get("/next?after=abc");
    assert_eq!(page.status, 303, "{}", page.body);
    assert_eq!(page.location.as_deref(), Some("/games"));
    let page = browser.get("/next?after=1&after=2");
    assert_eq!(page.status, 400);
    assert!(page.body.contains("<!DOCTYPE html>"), "{}", page.body);
    assert!(
        page.body.contains("this address is not understood"),
        "{}",
        page.body
    );
    assert!(
        !page.body.to_lowercase().contains("deserialize"),
        "the parser's words stay out: {}",
        page.body
    );
    assert!(
        page.body.contains(r#"href="/static/site.css""#),
        "styled like the site"
    );
}

/// A request written out byte for byte (the HTTP client would tidy `..` away): the status line
/// and the body.
fn raw_get(base: &str, path: &str) -> (String, String) {
    use std::io::{Read, Write};
    let host = base.trim_start_matches("http://");
    let mut stream = std::net::TcpStream::connect(host).expect("connect");
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let status = answer.lines().next().unwrap_or_default().to_string();
    let body = answer
        .split("\r\n\r\n")
        .nth(1)
        .unwrap_or_default()
        .to_string();
    (status, body)
}

fn unknown_addresses_get_the_sites_404_page_and_every_page_answers_head(app: &TestApp) {
    let alice = app.user("alice");
    let bob = app.user("bob");
    let game = app.game("atomic", &alice, &bob);
    // The game page has its heading, for screen readers' outline (WCAG 1.3.1).
    let (_, page) = app.get_text(&format!("/games/{game}"));
    assert!(
        page.contains(&format!(r#"<h1 class="visually-hidden" id="game-heading">alice v bob (Atomic), game {game}</h1>"#)),
        "{page}"
    );
    let browser = app.browser();
    for path in [
        "/challenges/99999",
        "/computer-games",
        "/no/such/page",
        "/games/abc",
        "/games/99999",
    ] {
        let page = browser.get(path);
        assert_eq!(page.status, 404, "{path}");
        assert!(
            page.body.contains("<h1>Error 404</h1>"),
            "{path}: {}",
            page.body
        );
        assert!(
            page.body.contains(r#"href="/static/site.css""#),
            "{path}: the site's page"
        );
    }
    let (status, body) = raw_get(&app.api.base, "/static/../x");
    assert!(status.contains(" 404 "), "{status}");
    assert!(body.contains("Error 404"), "{body}");
    // The API keeps answering in JSON.
    let r = app.get("/api/v1/no-such-route", None);
    assert_eq!(r.status, 404);
    assert_eq!(r.body["error"], "no such API route");
    // Uptime and link checkers ask with HEAD: the GET's status, no body.
    for (path, status) in [
        ("/".to_string(), 200),
        ("/health".to_string(), 200),
        (format!("/games/{game}"), 200),
        (format!("/api/v1/games/{game}"), 200),
        (format!("/games/{game}.pgn"), 200),
        ("/static/site.css".to_string(), 200),
        ("/no/such/page".to_string(), 404),
    ] {
        let res = app
            .api
            .client
            .head(format!("{}{path}", app.api.base))
            .send()
            .expect("HEAD");
        assert_eq!(res.status().as_u16(), status, "HEAD {path}");
        assert_eq!(res.text().unwrap_or_default(), "", "HEAD {path}: no body");
    }
}

fn one_day_is_one_day_and_leave_is_told_in_one_sentence(app: &TestApp) {
    let (alice, bob, game) = start_game(app);
    assert_eq!(play(&alice, &game, "e4", "").status, 303);
    assert_eq!(play(&bob, &game, "e5", "").status, 303);
    // The gift form counts its days, and a gift of one day says so.
    let page = bob.get(&game).body;
    assert!(
        page.contains(r#"<option value="1">1 day</option>"#),
        "{page}"
    );
    let r = bob.follow(act(&bob, &game, "give_time", "1"));
    assert!(
        r.body.contains("You gave your opponent 1 more day."),
        "{}",
        r.body
    );
    assert!(!r.body.contains("1 more days"));
    assert!(r.body.contains("gave alice 1 day"), "the move list too");
    // One day of leave, from today.
    let csrf = alice.csrf("/account");
    let today = chrono::Utc::now()
        .date_naive()
        .format("%Y-%m-%d")
        .to_string();
    let r = alice.follow(alice.post(
        "/account/leave",
        &[("csrf_token", &csrf), ("start", &today), ("days", "1")],
    ));
    assert!(
        r.body
            .contains(&format!("Leave booked: 1 day from {today}.")),
        "{}",
        r.body
    );
    // The game page tells it once, in one sentence, to each reader.
    let own = alice.get(&game).body;
    let mine = regex::Regex::new(
        r"<p[^>]*>You are on leave until \d{4}-\d\d-\d\d \d\d:\d\d UTC: your clock stands still\.</p>",
    )
    .unwrap();
    assert!(mine.is_match(&own), "{own}");
    assert!(!own.contains("Leave taken"), "{own}");
    let theirs = bob.get(&game).body;
    let told = regex::Regex::new(
        r"<p[^>]*>alice is on leave until \d{4}-\d\d-\d\d \d\d:\d\d UTC: their clock stands still\.</p>",
    )
    .unwrap();
    assert!(told.is_match(&theirs), "{theirs}");
    assert!(!theirs.contains("Leave taken"), "{theirs}");
}

/// The form around the button `button_id`: its method, address and hidden fields.
fn form_around(html: &str, button_id: &str) -> (String, String, Vec<(String, String)>) {
    let button = html
        .find(&format!(r#"id="{button_id}""#))
        .unwrap_or_else(|| panic!("no {button_id} in {html}"));
    let form = &html[html[..button].rfind("<form").expect("a form")..button];
    let attribute = |name: &str| {
        regex::Regex::new(&format!(r#"{name}="([^"]*)""#))
            .unwrap()
            .captures(form)
            .map(|c| c[1].to_string())
            .unwrap_or_default()
    };
    let hidden = regex::Regex::new(r#"<input type="hidden" name="([^"]+)" value="([^"]*)">"#)
        .unwrap()
        .captures_iter(form)
        .map(|c| (c[1].to_string(), c[2].to_string()))
        .collect();
    (attribute("method"), attribute("action"), hidden)
}

fn keep_playing_brings_back_the_message_typed_with_resign(app: &TestApp) {
    let (alice, _bob, game) = start_game(app);
    let page = alice.get(&game);
    let csrf = hidden_value(&page.body, "csrf_token").unwrap();
    let asked = alice.post(
        &game,
        &[
            ("csrf_token", &csrf),
            ("ply", "0"),
            ("action", "resign"),
            ("move", ""),
            ("message", "Good game so far"),
            ("confirm", "no"),
        ],
    );
    assert_eq!(asked.status, 200);
    assert!(asked.body.contains("Resign this game?"), "{}", asked.body);
    // Keep playing, as a browser without JavaScript sends its form.
    let (method, action, fields) = form_around(&asked.body, "cancel-resign");
    let fields: Vec<(&str, &str)> = fields
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    let back = if method.eq_ignore_ascii_case("post") {
        alice.follow(alice.post(&action, &fields))
    } else {
        alice.get(&action)
    };
    assert_eq!(back.status, 200, "{}", back.body);
    assert!(back.body.contains(r#"id="action-form""#), "{}", back.body);
    assert!(!back.body.contains("Resign this game?"));
    assert!(
        back.body
            .contains(r#"id="message-input" name="message" value="Good game so far""#),
        "the message is still in its box: {}",
        back.body
    );
    assert!(
        !back.body.contains(r#"<option value="resign" selected>"#),
        "the action is chosen afresh"
    );
    assert!(back.body.contains("alice to move"), "the game runs on");
}

/// Signs up through the API with an address of its own; the reply.
fn api_sign_up(app: &TestApp, name: &str, email: &str) -> common::Reply {
    app.post(
        "/api/v1/accounts",
        None,
        serde_json::json!({"username": name, "email": email, "password": "correct horse battery"}),
    )
}

/// Signs up through the form with an address of its own; the answer.
fn page_sign_up(browser: &Browser, name: &str, email: &str) -> common::Page {
    let csrf = browser.csrf("/signup");
    browser.post(
        "/signup",
        &[
            ("csrf_token", &csrf),
            ("username", name),
            ("email", email),
            ("password", "correct horse battery"),
        ],
    )
}

/// A token for `name` (as typed) with the shared password; the reply.
fn api_token(app: &TestApp, name: &str) -> common::Reply {
    app.post(
        "/api/v1/tokens",
        None,
        serde_json::json!({"username": name, "password": "correct horse battery"}),
    )
}

/// A GET with the raw reply, for its headers.
fn get_raw(app: &TestApp, path: &str) -> reqwest::blocking::Response {
    app.api
        .client
        .get(format!("{}{path}", app.api.base))
        .send()
        .expect("GET")
}

/// The name of the account a token logs in: the creator of an open challenge it makes.
fn whose(app: &TestApp, token: &str) -> String {
    let r = app.post(
        "/api/v1/challenges",
        Some(token),
        serde_json::json!({"variant": "atomic", "color": "white", "days_per_move": 3}),
    );
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.body["id"].clone();
    let list = app.get("/api/v1/challenges", Some(token));
    let mine = list
        .body
        .as_array()
        .and_then(|l| l.iter().find(|c| c["id"] == id));
    let creator = mine.expect("the challenge made")["creator"].clone();
    creator.as_str().unwrap().to_string()
}

const ZOE: &str = "Zo%C3%AB";
const LI: &str = "%E6%9D%8E%E9%9B%B7%E9%9B%B7";

fn usernames_in_any_script_sign_up_and_are_reachable(app: &TestApp) {
    // Through the API, typed decomposed: stored in NFC.
    let r = api_sign_up(app, "Zoe\u{308}", "zoe@example.com");
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(r.body["username"], "Zo\u{eb}");
    // Through the sign-up page.
    let li = app.browser();
    let welcome = li.follow(page_sign_up(&li, "李雷雷", "li@example.com"));
    assert!(
        welcome.body.contains("Welcome, 李雷雷!"),
        "{}",
        welcome.body
    );
    // Both profiles, on the pages and the API, by the name in any case or form.
    for (path, name) in [
        (format!("/users/{ZOE}"), "Zoë"),
        ("/users/ZO%C3%8B".to_string(), "Zoë"),
        ("/users/Zoe%CC%88".to_string(), "Zoë"),
        (format!("/users/{LI}"), "李雷雷"),
    ] {
        let page = li.get(&path);
        assert_eq!(page.status, 200, "{path}: {}", page.body);
        assert!(
            page.body.contains(&format!("<h1>{name}")),
            "{path}: {}",
            page.body
        );
        let api = app.get(&format!("/api/v1{path}"), None);
        assert_eq!(api.status, 200, "{path}: {}", api.body);
        assert_eq!(api.body["username"], name);
    }
    // A game between them: every link to a name is percent-encoded.
    let zoe = api_token(app, "Zoë");
    assert_eq!(zoe.status, 201, "{}", zoe.body);
    let zoe = zoe.body["token"].as_str().unwrap().to_string();
    let lee = api_token(app, "李雷雷").body["token"]
        .as_str()
        .unwrap()
        .to_string();
    let game = app.game("standard", &zoe, &lee);
    let r = app.play(game, &zoe, "e4", 0);
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["white"], "Zoë");
    let page = li.get(&format!("/games/{game}"));
    assert!(
        page.body.contains(&format!(r#"<a href="/users/{ZOE}">"#)),
        "{}",
        page.body
    );
    assert!(
        page.body.contains(&format!(r#"<a href="/users/{LI}">"#)),
        "{}",
        page.body
    );
    let profile = li.get(&format!("/users/{LI}"));
    for link in [
        format!(r#"<a href="/users/{ZOE}">"#),
        format!(r#"href="/search?player={LI}""#),
        format!(r#"href="/users/{LI}/games.pgn""#),
    ] {
        assert!(profile.body.contains(&link), "{link}: {}", profile.body);
    }
    let mine = li.get("/games");
    assert!(
        mine.body
            .contains(&format!(r#"href="/search?player={LI}""#)),
        "{}",
        mine.body
    );
    // The links lead somewhere: the search and the PGN of all the player's games.
    let found = li.get(&format!("/search?player={ZOE}"));
    assert_eq!(found.status, 200, "{}", found.body);
    assert!(
        found.body.contains(&format!("/games/{game}")),
        "{}",
        found.body
    );
    let pgn = get_raw(app, &format!("/users/{LI}/games.pgn"));
    assert_eq!(pgn.status().as_u16(), 200);
    let disposition = pgn.headers()["content-disposition"].to_str().unwrap();
    // The name in UTF-8 for the browsers, and an ASCII stand-in for older readers.
    assert!(
        disposition.starts_with(r#"attachment; filename="slowfuse-___.pgn"; filename*=UTF-8''"#)
            && disposition.ends_with("%E6%9D%8E%E9%9B%B7%E9%9B%B7.pgn"),
        "{disposition}"
    );
    let pgn = pgn.text().unwrap();
    assert!(pgn.contains(r#"[White "Zoë"]"#), "{pgn}");
    assert!(pgn.contains(r#"[Black "李雷雷"]"#), "{pgn}");
    // A challenge names its opponent the same way.
    let r = app.post(
        "/api/v1/challenges",
        Some(&lee),
        serde_json::json!({"variant": "atomic", "color": "white", "days_per_move": 3, "opponent": "ZOË"}),
    );
    assert_eq!(r.status, 201, "{}", r.body);
}

fn a_name_in_another_case_form_or_look_alike_letters_is_taken(app: &TestApp) {
    for (name, email) in [
        ("Zoë", "zoe@example.com"),
        ("cope", "cope@example.com"),
        ("paypal", "paypal@example.com"),
    ] {
        let r = api_sign_up(app, name, email);
        assert_eq!(r.status, 201, "{name}: {}", r.body);
    }
    // Another case or normal form of a name: taken, as "ALICE" is for "alice".
    for name in ["zoë", "ZOË", "Zoe\u{308}", "zoe\u{308}"] {
        let r = api_sign_up(app, name, "other@example.com");
        assert_eq!(r.status, 409, "{name}: {}", r.body);
        let error = r.body["error"].as_str().unwrap();
        assert!(error.contains("is already taken"), "{name}: {error}");
    }
    // Letters that look alike: Cyrillic for Latin, a digit for a letter.
    for (name, taken) in [("соре", "cope"), ("СОРЕ", "cope"), ("paypa1", "paypal")] {
        let r = api_sign_up(app, name, "other@example.com");
        assert_eq!(r.status, 409, "{name}: {}", r.body);
        assert_eq!(
            r.body["error"],
            format!(
                "the username \"{name}\" is already taken: it reads the same as \"{taken}\" \
                 (names are compared ignoring case, accents written apart and letters that look \
                 alike)"
            )
        );
    }
    // A Latin name with one Cyrillic letter is refused for mixing the scripts.
    let r = api_sign_up(app, "p\u{430}ypal2", "other@example.com");
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(
        r.body["error"]
            .as_str()
            .unwrap()
            .starts_with("a username may not mix scripts whose letters look alike"),
        "{}",
        r.body
    );
    // What is refused says what is allowed.
    let r = api_sign_up(app, "Zoë Smith", "other@example.com");
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(
        r.body["error"],
        "a username may hold only letters and digits of any script in current use, _ and -: \" \" \
         (U+0020) is none of these"
    );
    // The sign-up page says the same, what was typed kept.
    let browser = app.browser();
    let r = page_sign_up(&browser, "ZOË", "other@example.com");
    assert_eq!(r.status, 409, "{}", r.body);
    assert!(r.body.contains("is already taken"), "{}", r.body);
    assert!(r.body.contains(r#"value="ZOË""#), "{}", r.body);
    let r = page_sign_up(&browser, "Zoe\u{308}", "other@example.com");
    assert_eq!(r.status, 409, "{}", r.body);
    assert!(r.body.contains("is already taken"), "{}", r.body);
    let r = page_sign_up(&browser, "соре", "other@example.com");
    assert_eq!(r.status, 409, "{}", r.body);
    assert!(r.body.contains("it reads the same as"), "{}", r.body);
    let r = page_sign_up(&browser, "p\u{430}ypal2", "other@example.com");
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(r.body.contains("may not mix scripts"), "{}", r.body);
    // Nothing of the refused was stored: one account per name.
    for (path, name) in [
        ("/api/v1/users/ZOE%CC%88", "Zoë"),
        ("/api/v1/users/%D1%81%D0%BE%D1%80%D0%B5", "cope"),
    ] {
        let r = app.get(path, None);
        assert_eq!(r.status, 200, "{path}: {}", r.body);
        assert_eq!(r.body["username"], name);
    }
}

fn a_unicode_name_logs_in_in_any_case(app: &TestApp) {
    assert_eq!(api_sign_up(app, "Zoë", "zoe@example.com").status, 201);
    assert_eq!(api_sign_up(app, "cope", "cope@example.com").status, 201);
    // A token for any case or normal form of the name, or a look-alike spelling of it.
    for (typed, name) in [
        ("Zoë", "Zoë"),
        ("zoë", "Zoë"),
        ("ZOË", "Zoë"),
        ("zoe\u{308}", "Zoë"),
        ("COPE", "cope"),
        ("соре", "cope"),
    ] {
        let r = api_token(app, typed);
        assert_eq!(r.status, 201, "{typed}: {}", r.body);
        assert_eq!(
            whose(app, r.body["token"].as_str().unwrap()),
            name,
            "{typed}"
        );
    }
    // The login page too, where the greeting names the account as it is written.
    let browser = app.browser();
    let csrf = browser.csrf("/login");
    let r = browser.post(
        "/login",
        &[
            ("csrf_token", &csrf),
            ("username", "ZOË"),
            ("password", "correct horse battery"),
            ("next", "/account"),
        ],
    );
    assert_eq!(r.status, 303, "{}", r.body);
    let account = browser.follow(r);
    assert!(
        account.body.contains(r#"<a href="/account">Zoë</a>"#),
        "{}",
        account.body
    );
    // A wrong password is refused whatever the spelling.
    let r = app.post(
        "/api/v1/tokens",
        None,
        serde_json::json!({"username": "ZOË", "password": "wrong horse battery"}),
    );
    assert_eq!(r.status, 401, "{}", r.body);
}
