//! The front door: a player's dashboard, the visitors' showcase, the variants page, and the
//! small boards of the home page, My games and the search, as a browser without JavaScript
//! receives them.

use crate::common;

use chrono::Duration;
use common::{Browser, TestApp, hidden_value};
use serde_json::json;
use slowfuse::clock::FixedClock;

on_both_databases_at_t0!(
    the_dashboard_puts_the_most_urgent_move_first_then_challenges_opponents_and_results,
    a_new_player_is_told_what_to_do_next,
    visitors_see_games_in_progress_the_variants_and_how_to_start,
    small_boards_show_the_position_on_my_games_search_and_home,
    variants_and_their_own_endings_are_named_as_people_say_them,
);

/// A browser logged in as `name` (made through the API), through the login form.
fn logged_in(app: &TestApp, name: &str) -> Browser {
    let browser = app.browser();
    let csrf = browser.csrf("/login");
    let r = browser.post(
        "/login",
        &[
            ("csrf_token", &csrf),
            ("username", name),
            ("password", "correct horse battery"),
            ("next", "/"),
        ],
    );
    assert_eq!(r.status, 303, "log in {name}: {}", r.body);
    browser
}

/// A challenge of `variant` that `white` makes as White with `days` per move and `black`
/// accepts.
fn game(app: &TestApp, white: &str, black: &str, variant: &str, days: i64) -> i64 {
    app.game_from(
        white,
        black,
        json!({"variant": variant, "color": "white", "days_per_move": days, "opponent": null}),
    )
}

/// The HTML of the small board linking to game `id`, if the page has one.
fn mini_board(body: &str, id: i64) -> Option<String> {
    let re = regex::Regex::new(&format!(
        r#"<a class="mini-card[^"]*" href="/games/{id}"[^>]*>.*?</a>"#
    ))
    .unwrap();
    re.find(body).map(|m| m.as_str().to_string())
}

/// The part of a page from the element with `id` to the end of its section.
fn section<'a>(body: &'a str, id: &str) -> &'a str {
    let start = body
        .find(&format!(r#"id="{id}""#))
        .unwrap_or_else(|| panic!("no #{id} in {body}"));
    let rest = &body[start..];
    &rest[..rest.find("</section>").unwrap_or(rest.len())]
}

/// The game ids of the small boards in `html`, in order.
fn board_ids(html: &str) -> Vec<i64> {
    let re = regex::Regex::new(r#"data-mini-game="(\d+)""#).unwrap();
    re.captures_iter(html)
        .map(|c| c[1].parse().unwrap())
        .collect()
}

/// The piece image on `square` of a small board, e.g. `wP`, if any.
fn piece_on(board: &str, square: &str) -> Option<String> {
    let re = regex::Regex::new(&format!(
        r#"data-at="{square}">(?:<img src="/static/pieces/(?:\w+/)?(\w\w)\.svg")?"#
    ))
    .unwrap();
    let found = re
        .captures(board)
        .unwrap_or_else(|| panic!("{square} is not drawn: {board}"));
    found.get(1).map(|p| p.as_str().to_string())
}

fn resign(app: &TestApp, game: i64, token: &str, ply: i64) {
    let r = app.post(
        &format!("/api/v1/games/{game}/actions"),
        Some(token),
        json!({"action": "resign", "ply": ply, "message": null}),
    );
    assert_eq!(r.status, 200, "resign: {}", r.body);
}

fn the_dashboard_puts_the_most_urgent_move_first_then_challenges_opponents_and_results(
    app: &TestApp,
    clock: &FixedClock,
) {
    let (alice, bob, carol) = (app.user("alice"), app.user("bob"), app.user("carol"));
    // Three games awaiting alice's first move: their order by deadline (one day, two, three)
    // is neither the order they were made in nor its reverse.
    let slow = game(app, &alice, &bob, "atomic", 3);
    clock.advance(Duration::hours(1));
    let urgent = game(app, &alice, &bob, "standard", 1);
    clock.advance(Duration::hours(1));
    let middle = game(app, &alice, &carol, "crazyhouse", 2);
    // A game awaiting bob's move, with alice as Black.
    let theirs = game(app, &bob, &alice, "atomic", 3);
    // Two finished games: bob resigns one, alice the other.
    let won = game(app, &alice, &bob, "atomic", 3);
    app.play_all(won, &alice, &bob, &["e4", "e5"]);
    resign(app, won, &bob, 2);
    let lost = game(app, &alice, &carol, "standard", 3);
    app.play_all(lost, &alice, &carol, &["d4"]);
    resign(app, lost, &alice, 1);
    // Carol challenges alice by name.
    let r = app.post(
        "/api/v1/challenges",
        Some(&carol),
        json!({"variant": "kingofthehill", "color": "black", "days_per_move": 5, "opponent": "alice"}),
    );
    assert_eq!(r.status, 201, "{}", r.body);

    let browser = logged_in(app, "alice");
    let home = browser.get("/");
    assert_eq!(home.status, 200);
    let my_turn = section(&home.body, "my-turn");
    assert_eq!(board_ids(my_turn), [urgent, middle, slow], "{my_turn}");
    let first = mini_board(&home.body, urgent).unwrap();
    assert!(
        first.contains(r#"aria-label="vs bob, Standard, 23 h 0 min left""#),
        "{first}"
    );
    assert!(first.contains(r#"<span class="mini-title">vs bob</span>"#));
    assert!(first.contains(r#"<span class="mini-detail">23 h 0 min left</span>"#));
    let waiting = section(&home.body, "their-turn");
    assert_eq!(board_ids(waiting), [theirs], "{waiting}");
    assert!(
        mini_board(waiting, theirs)
            .unwrap()
            .contains(r#"aria-label="vs bob, Atomic, their move"#)
    );
    // Finished games are results, not boards.
    assert!(mini_board(&home.body, won).is_none());
    let results = section(&home.body, "recent-results");
    let line = |id: i64| {
        let at = results
            .find(&format!(r#"href="/games/{id}""#))
            .unwrap_or_else(|| panic!("game {id} in the results: {results}"));
        let start = results[..at].rfind("<li>").unwrap();
        results[start..at].to_string()
    };
    assert!(
        line(won).contains(r#"class="outcome outcome-won">won<"#),
        "{results}"
    );
    assert!(
        line(lost).contains(r#"class="outcome outcome-lost">lost<"#),
        "{results}"
    );
    assert!(results.contains("vs carol"));
    assert!(results.contains("1-0, resignation"), "{results}");
    // The challenge addressed to alice, with its accept form; accepting it opens the game.
    let for_me = section(&home.body, "for-me");
    assert!(
        for_me.contains(
            "<strong>carol</strong> challenges you: King of the Hill, casual, 5 days per move; you play White."
        ),
        "{for_me}"
    );
    let accept = regex::Regex::new(r#"action="(/challenges/\d+/accept)""#).unwrap();
    let action = accept.captures(for_me).expect("an accept button")[1].to_string();
    let csrf = hidden_value(for_me, "csrf_token").expect("the form's CSRF token");
    let r = browser.post(&action, &[("csrf_token", &csrf)]);
    assert_eq!(r.status, 303, "{}", r.body);
    assert!(r.location.unwrap().starts_with("/games/"));
    let home = browser.get("/");
    assert!(
        section(&home.body, "for-me").contains("Nobody has challenged you by name"),
        "the accepted challenge is gone"
    );
    // Without the token the form is refused.
    let other = app.post(
        "/api/v1/challenges",
        Some(&bob),
        json!({"variant": "atomic", "color": "white", "days_per_move": 3, "opponent": "alice"}),
    );
    let id = other.body["id"].as_i64().unwrap();
    let r = browser.post(&format!("/challenges/{id}/accept"), &[("csrf_token", "x")]);
    assert_eq!(r.status, 403);
}

fn a_new_player_is_told_what_to_do_next(app: &TestApp, _clock: &FixedClock) {
    app.user("dave");
    let home = logged_in(app, "dave").get("/");
    assert!(
        home.body.contains("No game is waiting for your move."),
        "{}",
        home.body
    );
    assert!(
        section(&home.body, "my-turn-empty")
            .contains(r#"<a href="/challenges">Create a challenge</a>"#)
    );
    assert!(home.body.contains("No finished game yet."));
    assert!(!home.body.contains("data-mini-game"));
}

fn visitors_see_games_in_progress_the_variants_and_how_to_start(app: &TestApp, clock: &FixedClock) {
    let (alice, bob) = (app.user("alice"), app.user("bob"));
    let running = game(app, &alice, &bob, "atomic", 3);
    app.play(running, &alice, "e4", 0);
    clock.advance(Duration::hours(1));
    let finished = game(app, &alice, &bob, "standard", 3);
    resign(app, finished, &alice, 0);
    let private = app.game_from(
        &alice,
        &bob,
        json!({"variant": "atomic", "color": "white", "days_per_move": 3, "opponent": null, "private": true}),
    );

    let visitor = app.browser();
    let home = visitor.get("/");
    assert_eq!(home.status, 200);
    let live = section(&home.body, "live-games");
    assert_eq!(board_ids(live), [running], "{live}");
    assert!(
        mini_board(live, private).is_none(),
        "private games are not featured"
    );
    let board = mini_board(live, running).unwrap();
    assert!(
        board.contains(r#"aria-label="alice – bob, Atomic, 1 move · bob to move""#),
        "{board}"
    );
    assert_eq!(piece_on(&board, "e4").as_deref(), Some("wP"));
    assert_eq!(piece_on(&board, "e2"), None);
    assert!(
        board.contains(r#"class="ms l last" data-at="e2""#),
        "{board}"
    );
    assert!(
        board.contains(r#"class="ms l last" data-at="e4""#),
        "{board}"
    );
    // One link per board, nothing else to focus, no square the game board's scripts would take.
    assert!(!home.body.contains("data-square"));
    assert!(!home.body.contains("tabindex"));
    assert_eq!(board.matches("<a ").count(), 1);
    // Every variant, with a line and a link to its rules, which are there.
    let variants = section(&home.body, "variant-list");
    for (anchor, name) in [
        ("standard", "Standard"),
        ("atomic", "Atomic"),
        ("crazyhouse", "Crazyhouse"),
        ("kingofthehill", "King of the Hill"),
        ("racingkings", "Racing Kings"),
    ] {
        assert!(
            variants.contains(&format!(r#"<a href="/variants#{anchor}">{name}</a> — "#)),
            "{variants}"
        );
    }
    let rules = visitor.get("/variants");
    assert_eq!(rules.status, 200);
    let atomic = section(&rules.body, "atomic");
    assert!(
        atomic.contains("<strong>Captures explode.</strong>"),
        "{atomic}"
    );
    assert!(section(&rules.body, "kingofthehill").contains("centre squares"));
    // How to start, and the open challenges still listed.
    let how = section(&home.body, "how-heading");
    assert!(how.contains(r#"<a href="/signup">Sign up</a>"#));
    assert!(how.contains("one move a day") && how.contains("email when it is your turn"));
    let r = app.post(
        "/api/v1/challenges",
        Some(&bob),
        json!({"variant": "horde", "color": "white", "days_per_move": 7, "opponent": null}),
    );
    assert_eq!(r.status, 201, "{}", r.body);
    let home = visitor.get("/");
    assert!(section(&home.body, "open-heading").contains("<td>Horde · casual</td>"));
}

fn small_boards_show_the_position_on_my_games_search_and_home(app: &TestApp, _clock: &FixedClock) {
    let (alice, bob) = (app.user("alice"), app.user("bob"));
    let g = game(app, &alice, &bob, "atomic", 3);
    app.play(g, &alice, "e4", 0);
    let done = game(app, &alice, &bob, "standard", 3);
    app.play_all(done, &alice, &bob, &["f3", "e5", "g4", "Qh4#"]);

    // Bob's move: on his My games, from Black's side.
    let bob_browser = logged_in(app, "bob");
    let mine = bob_browser.get("/games");
    let board = mini_board(section(&mine.body, "my-turn"), g).expect("a small board");
    assert!(board.contains(r#"data-orientation="black""#), "{board}");
    let first_square = regex::Regex::new(r#"data-at="(\w\d)""#).unwrap();
    assert_eq!(&first_square.captures(&board).unwrap()[1], "h1");
    assert_eq!(piece_on(&board, "e4").as_deref(), Some("wP"));
    assert_eq!(piece_on(&board, "e8").as_deref(), Some("bK"));
    assert_eq!(piece_on(&board, "e2"), None);
    assert!(
        mine.body.contains(r#"class="list""#),
        "the table of all games stays"
    );
    assert!(
        mine.body
            .contains(r#"<a href="/search?player=bob">All my games in the game database</a>"#),
        "older games are found in the search"
    );
    assert!(
        mine.body.contains(&format!("#{done}")),
        "the finished game is listed"
    );

    // Search results: the position now, and a finished game's final position.
    let found = app.browser().get("/search?player=alice");
    assert_eq!(found.status, 200);
    let running = mini_board(&found.body, g).expect("a board for the running game");
    assert_eq!(piece_on(&running, "e4").as_deref(), Some("wP"));
    let mated = mini_board(&found.body, done).expect("a board for the finished game");
    assert_eq!(piece_on(&mated, "h4").as_deref(), Some("bQ"));
    assert_eq!(piece_on(&mated, "g4").as_deref(), Some("wP"));
    assert!(
        mated.contains(r#"class="ms d last" data-at="h4""#),
        "{mated}"
    );
    assert!(mated.contains("0-1"), "{mated}");

    // The viewer's board theme and piece set.
    let r = app.post_method(
        "PUT",
        "/api/v1/me/preferences",
        Some(&bob),
        json!({"board_theme": "brown", "piece_set": "letters"}),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let home = bob_browser.get("/");
    let board = mini_board(section(&home.body, "my-turn"), g).unwrap();
    assert!(board.contains(r#"data-theme="brown""#), "{board}");
    assert!(board.contains(r#"data-at="e4"><img src="/static/pieces/letters/wP.svg""#));
    // A visitor sees the defaults.
    let visitor = app.browser().get("/");
    let board = mini_board(&visitor.body, g).unwrap();
    assert!(board.contains(r#"data-theme="green""#));
    assert!(board.contains(r#"data-at="e4"><img src="/static/pieces/wP.svg""#));
}

fn variants_and_their_own_endings_are_named_as_people_say_them(app: &TestApp, _clock: &FixedClock) {
    let (alice, bob) = (app.user("alice"), app.user("bob"));
    // King of the Hill: White's king walks to d4, a centre square, and wins.
    let hill = game(app, &alice, &bob, "kingofthehill", 3);
    app.play_all(
        hill,
        &alice,
        &bob,
        &["e3", "e6", "Ke2", "Ke7", "Kd3", "Kd6", "Kd4"],
    );
    let sweeper = game(app, &alice, &bob, "minesweeper", 3);

    // The game page's status says what happened.
    let (_, page) = app.get_text(&format!("/games/{hill}"));
    assert!(
        page.contains("1-0 alice wins — King reached the centre"),
        "{page}"
    );
    assert!(!page.contains("Variant goal"), "{page}");
    // So do the dashboard's results, the search and the PGN.
    let browser = logged_in(app, "alice");
    let home = browser.get("/").body;
    assert!(
        home.contains("King of the Hill · 1-0, king reached the centre"),
        "{home}"
    );
    let found = app.browser().get("/search?player=alice").body;
    assert!(found.contains("1-0 (king reached the centre)"), "{found}");
    let (_, pgn) = app.get_text(&format!("/games/{hill}.pgn"));
    assert!(
        pgn.contains(r#"[Termination "King reached the centre"]"#),
        "{pgn}"
    );

    // My games and the profile name each variant as the game page does.
    let mine = browser.get("/games").body;
    let profile = app.browser().get("/users/alice").body;
    for (page, what) in [(&mine, "my games"), (&profile, "the profile")] {
        for name in ["King of the Hill", "Minesweeper"] {
            assert!(
                page.contains(&format!("<td>{name}</td>")),
                "{name} on {what}: {page}"
            );
        }
        for stored in ["kingofthehill", "minesweeper"] {
            assert!(
                !page.contains(&format!("<td>{stored}</td>")),
                "{stored} on {what}: {page}"
            );
        }
    }
    assert!(sweeper > hill);
}
