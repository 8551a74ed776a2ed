//! Playing the computer: games started through the API and the home page's form, the
//! computer's answers through the worker's pass (legal, once per turn even with two passes at
//! once, bombs placed in a minesweeper setup), and taking moves back.

use crate::common;

use std::time::{Duration, Instant};

use common::{Backend, Options, TestApp, spawn_app_with, spawn_app_with_env};
use serde_json::{Value, json};
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Position};
use slowfuse::usecases::computer::ComputerAction;

on_both_databases!(
    every_level_answers_a_move_with_a_legal_one_within_seconds,
    the_computer_opens_when_the_player_takes_black,
    two_passes_at_once_play_each_turn_once,
    takeback_undoes_the_players_move_and_the_computers_reply,
    takeback_is_refused_against_people_and_in_rated_games,
    bad_requests_are_refused_with_a_clear_message,
    a_minesweeper_game_against_the_computer_gets_past_the_setup,
    the_home_page_form_starts_a_game_against_the_computer,
    the_computer_fills_the_empty_seats_of_a_bughouse_match,
    lists_and_answers_name_the_computer_by_its_level,
    the_match_and_minesweeper_pages_name_the_computer_by_its_level,
    the_computer_declines_a_draw_when_even_and_accepts_when_worse,
    a_challenge_to_the_computer_is_taken_at_once_with_or_without_a_clock,
    the_challenges_page_seats_the_computer_in_a_bughouse_match,
    a_game_against_the_computer_stands_on_no_challenge_and_plays_on,
);

/// One pass of the computer's job, as the worker runs it.
fn computer_pass(app: &TestApp) -> Vec<(i64, ComputerAction)> {
    actix_web::rt::System::new()
        .block_on(slowfuse::worker::play_computer_once(&app.state.worker()))
        .expect("computer pass")
}

fn new_game(app: &TestApp, token: &str, body: Value) -> i64 {
    let r = app.post("/api/v1/computer-games", Some(token), body);
    assert_eq!(r.status, 201, "{}", r.body);
    r.body["game_id"].as_i64().expect("game_id")
}

fn game_json(app: &TestApp, g: i64) -> Value {
    app.get(&format!("/api/v1/games/{g}"), None).body
}

/// The moves of a standard game, replayed: each one legal where it was played.
fn assert_legal(moves: &Value) {
    let mut pos = Chess::default();
    for m in moves.as_array().expect("moves") {
        let uci: UciMove = m.as_str().unwrap().parse().expect("UCI");
        let mv = uci.to_move(&pos).expect("a legal move");
        pos.play_unchecked(mv);
    }
}

fn every_level_answers_a_move_with_a_legal_one_within_seconds(app: &TestApp) {
    let alice = app.user("alice");
    for level in ["easy", "medium", "hard"] {
        let g = new_game(
            app,
            &alice,
            json!({"variant": "standard", "color": "white", "level": level}),
        );
        let j = game_json(app, g);
        assert_eq!(j["status"], "started");
        assert_eq!(j["rated"], false);
        assert_eq!(j["white"], "alice");
        assert_eq!(j["black"], format!("computer-{level}"));
        assert!(
            computer_pass(app).is_empty(),
            "the computer waits for White"
        );
        assert_eq!(app.play(g, &alice, "e4", 0).status, 200);
        let started = Instant::now();
        let done = computer_pass(app);
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "{level} answered in {:?}",
            started.elapsed()
        );
        assert!(
            matches!(done.as_slice(), [(id, ComputerAction::Moved(_))] if *id == g),
            "{done:?}"
        );
        let j = game_json(app, g);
        assert_eq!(j["ply"], 2, "{level}: {j}");
        assert_eq!(j["turn"], "white");
        assert_legal(&j["moves"]);
        // And on: the player's next move is answered as well.
        assert_eq!(app.play(g, &alice, "d4", 2).status, 200);
        computer_pass(app);
        let j = game_json(app, g);
        assert_eq!(j["ply"], 4);
        assert_legal(&j["moves"]);
    }
}

fn the_computer_opens_when_the_player_takes_black(app: &TestApp) {
    let bob = app.user("bob");
    let g = new_game(
        app,
        &bob,
        json!({"variant": "atomic", "color": "black", "level": "medium"}),
    );
    assert_eq!(game_json(app, g)["white"], "computer-medium");
    computer_pass(app);
    let j = game_json(app, g);
    assert_eq!(j["ply"], 1);
    assert_eq!(j["turn"], "black");
    // Hard opens as well.
    let again = new_game(
        app,
        &bob,
        json!({"variant": "atomic", "color": "black", "level": "hard"}),
    );
    computer_pass(app);
    assert_eq!(game_json(app, again)["ply"], 1);
}

fn two_passes_at_once_play_each_turn_once(app: &TestApp) {
    let carol = app.user("carol");
    let games: Vec<i64> = (0..3)
        .map(|_| {
            let g = new_game(
                app,
                &carol,
                json!({"variant": "standard", "color": "white", "level": "easy"}),
            );
            assert_eq!(app.play(g, &carol, "e4", 0).status, 200);
            g
        })
        .collect();
    let (one, two) = std::thread::scope(|s| {
        let a = s.spawn(|| computer_pass(app));
        let b = s.spawn(|| computer_pass(app));
        (a.join().unwrap(), b.join().unwrap())
    });
    assert_eq!(
        one.len() + two.len(),
        3,
        "one move per game: {one:?} {two:?}"
    );
    for g in games {
        let j = game_json(app, g);
        assert_eq!(j["ply"], 2, "exactly one reply: {j}");
        assert_eq!(j["moves"].as_array().unwrap().len(), 2);
    }
    assert!(computer_pass(app).is_empty(), "nothing left to do");
}

fn takeback(app: &TestApp, g: i64, token: &str, ply: i64) -> common::Reply {
    app.post(
        &format!("/api/v1/games/{g}/actions"),
        Some(token),
        json!({"action": "takeback", "ply": ply}),
    )
}

fn takeback_undoes_the_players_move_and_the_computers_reply(app: &TestApp) {
    let dan = app.user("dan");
    let g = new_game(
        app,
        &dan,
        json!({"variant": "standard", "color": "white", "level": "easy"}),
    );
    assert_eq!(
        takeback(app, g, &dan, 0).status,
        422,
        "nothing to take back"
    );
    app.play_all(g, &dan, "", &["e4"]);
    computer_pass(app);
    assert_eq!(game_json(app, g)["ply"], 2);
    let stale = takeback(app, g, &dan, 1);
    assert_eq!(stale.status, 409, "a stale ply: {}", stale.body);
    let r = takeback(app, g, &dan, 2);
    assert_eq!(r.status, 200, "{}", r.body);
    let j = game_json(app, g);
    assert_eq!(j["ply"], 0);
    assert_eq!(j["turn"], "white");
    assert_eq!(j["moves"], json!([]));
    assert_eq!(
        j["fen"],
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    );
    // The computer has not answered yet: only the player's own move goes.
    assert_eq!(app.play(g, &dan, "d4", 0).status, 200);
    let r = takeback(app, g, &dan, 1);
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(game_json(app, g)["ply"], 0);
    assert!(computer_pass(app).is_empty(), "White to move: the player");
    // Play goes on from there.
    assert_eq!(app.play(g, &dan, "Nf3", 0).status, 200);
    computer_pass(app);
    let j = game_json(app, g);
    assert_eq!(j["ply"], 2);
    assert_eq!(j["sans"][0], "Nf3");
}

fn takeback_is_refused_against_people_and_in_rated_games(app: &TestApp) {
    let (erin, fred) = (app.user("erin"), app.user("fred"));
    let casual = app.game("standard", &erin, &fred);
    app.play_all(casual, &erin, &fred, &["e4", "e5"]);
    let r = takeback(app, casual, &erin, 2);
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(
        r.body["error"].as_str().unwrap_or("").contains("computer"),
        "{}",
        r.body
    );
    let rated = app.game_from(
        &erin,
        &fred,
        json!({"variant": "standard", "color": "white", "days_per_move": 3, "rated": true}),
    );
    app.play_all(rated, &erin, &fred, &["d4"]);
    assert_eq!(takeback(app, rated, &erin, 1).status, 422);
    assert_eq!(game_json(app, casual)["ply"], 2, "nothing taken back");
    assert_eq!(game_json(app, rated)["ply"], 1, "nothing taken back");
}

fn bad_requests_are_refused_with_a_clear_message(app: &TestApp) {
    let gail = app.user("gail");
    let path = "/api/v1/computer-games";
    let r = app.post(
        path,
        Some(&gail),
        json!({"variant": "standard", "color": "white", "level": "grandmaster"}),
    );
    assert_eq!(r.status, 422);
    assert!(
        r.body["error"]
            .as_str()
            .unwrap()
            .contains("easy, medium or hard"),
        "{}",
        r.body
    );
    let r = app.post(
        path,
        Some(&gail),
        json!({"variant": "shogi", "color": "white", "level": "easy"}),
    );
    assert_eq!(r.status, 422, "{}", r.body);
    let r = app.post(
        path,
        Some(&gail),
        json!({"variant": "standard", "color": "green", "level": "easy"}),
    );
    assert_eq!(r.status, 422, "{}", r.body);
    let r = app.post(
        path,
        None,
        json!({"variant": "standard", "color": "white", "level": "easy"}),
    );
    assert_eq!(r.status, 401);
    // The computer's accounts cannot be logged into.
    let r = app.post(
        "/api/v1/tokens",
        None,
        json!({"username": "computer-easy", "password": "!"}),
    );
    assert_eq!(r.status, 401, "{}", r.body);
}

fn a_minesweeper_game_against_the_computer_gets_past_the_setup(app: &TestApp) {
    let hal = app.user("hal");
    let g = new_game(
        app,
        &hal,
        json!({"variant": "minesweeper", "color": "white", "level": "medium"}),
    );
    assert_eq!(game_json(app, g)["phase"], "setup");
    let done = computer_pass(app);
    assert_eq!(done, vec![(g, ComputerAction::PlacedBombs)]);
    assert!(computer_pass(app).is_empty(), "its bombs are placed once");
    assert_eq!(
        game_json(app, g)["phase"],
        "setup",
        "the player's are missing"
    );
    let r = app.post_method(
        "PUT",
        &format!("/api/v1/games/{g}/bombs"),
        Some(&hal),
        json!({"squares": ["a3", "b3", "d3", "g3", "h3", "a4", "b4", "h4"]}),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(game_json(app, g)["phase"], "play");
    let r = app.play(g, &hal, "e4", 0);
    assert_eq!(r.status, 200, "{}", r.body);
    let done = computer_pass(app);
    assert!(
        matches!(done.as_slice(), [(id, ComputerAction::Moved(_))] if *id == g),
        "{done:?}"
    );
    assert_eq!(game_json(app, g)["ply"], 2);
}

fn the_home_page_form_starts_a_game_against_the_computer(app: &TestApp) {
    app.user("ivy");
    let browser = app.logged_in("ivy");
    let home = browser.get("/");
    assert!(home.body.contains("Play the computer"), "{}", home.body);
    let csrf = browser.csrf("/");
    let fields = [
        ("variant", "standard"),
        ("color", "black"),
        ("level", "easy"),
    ];
    let mut forged = fields.to_vec();
    forged.push(("csrf_token", "forged"));
    assert_eq!(browser.post("/computer-games", &forged).status, 403);
    let mut sent = fields.to_vec();
    sent.push(("csrf_token", &csrf));
    let page = browser.post("/computer-games", &sent);
    assert_eq!(page.status, 303, "{}", page.body);
    let location = page.location.expect("the game's page");
    let g: i64 = location
        .strip_prefix("/games/")
        .and_then(|id| id.parse().ok())
        .unwrap_or_else(|| panic!("{location}"));
    let shown = browser.get(&location);
    assert_eq!(shown.status, 200);
    assert!(shown.body.contains("Computer (Easy)"), "{}", shown.body);
    computer_pass(app);
    assert_eq!(game_json(app, g)["ply"], 1, "the computer opened as White");
    // A visitor is sent to log in first.
    let visitor = app.browser();
    let csrf = visitor.csrf("/");
    let mut sent = fields.to_vec();
    sent.push(("csrf_token", &csrf));
    let page = visitor.post("/computer-games", &sent);
    assert_eq!(page.status, 303);
    assert!(page.location.unwrap().starts_with("/login"));
}

/// With the worker running at a long interval, only the wake-up after the player's move can
/// bring the computer's reply within seconds.
mod with_worker {
    use super::*;

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
            a_move_on_the_game_page_comes_back_with_the_computers_reply(&app);
        }
    }

    #[test]
    fn postgres() {
        if let Some(app) = app(Backend::Postgres) {
            a_move_on_the_game_page_comes_back_with_the_computers_reply(&app);
        }
    }
}

fn a_move_on_the_game_page_comes_back_with_the_computers_reply(app: &TestApp) {
    let jo = app.user("joan");
    let g = new_game(
        app,
        &jo,
        json!({"variant": "crazyhouse", "color": "white", "level": "hard"}),
    );
    let browser = app.logged_in("joan");
    let path = format!("/games/{g}");
    let csrf = browser.csrf(&path);
    let page = browser.post(
        &path,
        &[
            ("csrf_token", &csrf),
            ("ply", "0"),
            ("action", "move"),
            ("move", "e4"),
        ],
    );
    assert_eq!(page.status, 303, "{}", page.body);
    let j = game_json(app, g);
    assert_eq!(j["ply"], 2, "the reply is there when the page opens: {j}");
    let shown = browser.get(&path);
    let reply = j["sans"][1].as_str().unwrap();
    assert!(shown.body.contains(reply), "{reply} on the page");
    assert!(shown.body.contains("Computer (Hard)"), "{}", shown.body);
    // Taking back from the page's actions: both moves go, the player is to move again.
    assert!(shown.body.contains(r#"value="takeback""#));
    let csrf = browser.csrf(&path);
    let page = browser.post(
        &path,
        &[("csrf_token", &csrf), ("ply", "2"), ("action", "takeback")],
    );
    assert_eq!(page.status, 303, "{}", page.body);
    assert_eq!(game_json(app, g)["ply"], 0);
    assert!(
        !browser.get(&path).body.contains(r#"value="takeback""#),
        "nothing left to take back"
    );
}

/// Two instances on one PostgreSQL database, each running the worker every second: every turn
/// of the computer is played once, whichever instance the player's move reached.
#[test]
fn two_instances_on_one_postgres_database_answer_each_move_once() {
    let every_second = || Options {
        worker_interval: Some(1),
        ..Options::default()
    };
    let Some(one) = spawn_app_with(Backend::Postgres, every_second()) else {
        return;
    };
    let same_database = vec![("DATABASE_URL".to_string(), one.database_url.clone())];
    let two = spawn_app_with_env(Backend::Postgres, every_second(), same_database)
        .expect("a second instance");
    let kim = one.user("kim");
    let games: Vec<i64> = (0..4)
        .map(|i| {
            let g = new_game(
                &one,
                &kim,
                json!({"variant": "standard", "color": "white", "level": "medium"}),
            );
            // Half the moves reach the other instance.
            let app = if i % 2 == 0 { &one } else { &two };
            assert_eq!(app.play(g, &kim, "e4", 0).status, 200);
            g
        })
        .collect();
    let answered = |g: i64| game_json(&one, g)["ply"] == 2;
    let started = Instant::now();
    while !games.iter().all(|&g| answered(g)) {
        assert!(
            started.elapsed() < Duration::from_secs(15),
            "every move answered within seconds"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    // Both instances keep passing: nothing more is played.
    std::thread::sleep(Duration::from_millis(2500));
    for g in games {
        let j = game_json(&two, g);
        assert_eq!(j["ply"], 2, "{j}");
        assert_eq!(j["moves"].as_array().unwrap().len(), 2);
        assert_eq!(j["turn"], "white");
    }
}

fn the_computer_fills_the_empty_seats_of_a_bughouse_match(app: &TestApp) {
    let lou = app.user("lou");
    let r = app.post(
        "/api/v1/challenges",
        Some(&lou),
        json!({"variant": "bughouse", "seat": "A1", "time_control": "none", "fill_with_computer": "easy"}),
    );
    assert_eq!(r.status, 201, "{}", r.body);
    let g = r.body["game_id"]
        .as_i64()
        .expect("the match starts at once");
    let plies = |board: &str| {
        game_json(app, g)["boards"][board]["ply"]
            .as_i64()
            .unwrap_or(-1)
    };
    // Board b: the computer plays both sides, one move each ahead of lou's board at most,
    // however many passes come while lou thinks.
    for _ in 0..6 {
        computer_pass(app);
    }
    assert_eq!((plies("a"), plies("b")), (0, 2), "board b waits for lou");
    // Board a: it answers lou; board b goes on as far again.
    let r = app.post(
        &format!("/api/v1/games/{g}/moves"),
        Some(&lou),
        json!({"move": "e4", "ply": 0, "board": "a"}),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    for _ in 0..6 {
        computer_pass(app);
    }
    assert_eq!((plies("a"), plies("b")), (2, 4), "{}", game_json(app, g));
}

fn lists_and_answers_name_the_computer_by_its_level(app: &TestApp) {
    let alice = app.user("alice");
    let g = new_game(
        app,
        &alice,
        json!({"variant": "atomic", "color": "white", "level": "easy"}),
    );
    let game = game_json(app, g);
    assert_eq!(
        game["black"], "computer-easy",
        "the account, for links and lookups"
    );
    assert_eq!(game["black_name"], "Computer (Easy)");
    assert_eq!(game["white_name"], "alice");
    let mine = app.get("/api/v1/me/games", Some(&alice)).body;
    assert_eq!(mine[0]["black_name"], "Computer (Easy)", "{mine}");
    let found = app.get("/api/v1/search?player=alice", None).body;
    assert_eq!(
        found["games"][0]["black_name"], "Computer (Easy)",
        "{found}"
    );
    let browser = app.logged_in("alice");
    for page in ["/games", "/", "/search?player=alice", "/users/alice"] {
        let body = browser.get(page).body;
        assert!(
            body.contains("Computer (Easy)"),
            "{page} names the computer"
        );
        assert!(
            !body.contains(">computer-easy<"),
            "{page} shows the account's name"
        );
    }
}

/// The events of a game as its JSON lists them, in order.
fn events(app: &TestApp, g: i64) -> Vec<String> {
    game_json(app, g)["comments"]
        .as_array()
        .expect("comments")
        .iter()
        .filter(|c| c["kind"] == "event")
        .map(|c| {
            format!(
                "{} {}",
                c["author"].as_str().unwrap_or("?"),
                c["text"].as_str().unwrap_or("?")
            )
        })
        .collect()
}

fn the_computer_declines_a_draw_when_even_and_accepts_when_worse(app: &TestApp) {
    use diesel::connection::SimpleConnection;
    let alice = app.user("alice");
    let g = new_game(
        app,
        &alice,
        json!({"variant": "standard", "color": "white", "level": "easy"}),
    );
    let offer = |game: i64| {
        let r = app.post(
            &format!("/api/v1/games/{game}/actions"),
            Some(&alice),
            json!({"action": "offer_draw", "ply": 0}),
        );
        assert_eq!(r.status, 200, "{}", r.body);
    };
    // The start: even, so it declines, though it is not its move.
    offer(g);
    assert_eq!(
        computer_pass(app),
        vec![(g, ComputerAction::AnsweredDraw(false))]
    );
    assert_eq!(
        events(app, g),
        [
            "alice offered a draw",
            "computer-easy declined the draw offer"
        ]
    );
    assert_eq!(game_json(app, g)["status"], "started");
    // A position where the computer (Black) has a bare king against four queens: it accepts.
    let lost = new_game(
        app,
        &alice,
        json!({"variant": "standard", "color": "white", "level": "easy"}),
    );
    let fen = "4k3/8/8/8/8/8/8/QQQQK3 w - - 0 1";
    app.state
        .pool
        .get()
        .expect("a connection")
        .batch_execute(&format!(
            "UPDATE games SET initial_fen = '{fen}', revision = revision + 1 WHERE id = {lost}; \
             UPDATE game_boards SET fen = '{fen}' WHERE game_id = {lost};"
        ))
        .expect("the position set up");
    offer(lost);
    assert_eq!(
        computer_pass(app),
        vec![(lost, ComputerAction::AnsweredDraw(true))]
    );
    let game = game_json(app, lost);
    assert_eq!(game["status"], "finished", "{game}");
    assert_eq!(game["result"], "1/2-1/2", "{game}");
}

/// A page's text as a reader sees it: without the addresses of its links and forms.
fn visible(html: &str) -> String {
    let mut out = String::new();
    let mut rest = html;
    while let Some(at) = rest.find("href=\"") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 6..];
        rest = after.find('"').map_or("", |end| &after[end + 1..]);
    }
    out.push_str(rest);
    out
}

fn the_match_and_minesweeper_pages_name_the_computer_by_its_level(app: &TestApp) {
    let alice = app.user("alice");
    let mines = new_game(
        app,
        &alice,
        json!({"variant": "minesweeper", "color": "white", "level": "easy"}),
    );
    let r = app.post(
        "/api/v1/challenges",
        Some(&alice),
        json!({"variant": "bughouse", "seat": "A1", "days_per_move": 3, "fill_with_computer": "easy"}),
    );
    assert_eq!(r.status, 201, "{}", r.body);
    let matched = r.body["game_id"]
        .as_i64()
        .expect("the computer filled the seats");
    let browser = app.logged_in("alice");
    for (path, seats) in [
        (format!("/games/{mines}"), 1),
        (format!("/games/{matched}"), 3),
    ] {
        let page = visible(&browser.get(&path).body);
        let title = page
            .split("<title>")
            .nth(1)
            .and_then(|t| t.split("</title>").next())
            .unwrap_or_default();
        assert!(title.contains("Computer (Easy)"), "{path}: {title}");
        assert!(
            !page.contains("computer-easy"),
            "{path} shows an account's name: {page}"
        );
        assert!(page.matches("Computer (Easy)").count() >= seats, "{path}");
    }
    let home = visible(&browser.get("/").body);
    assert!(
        !home.contains("computer-easy"),
        "the home page's cards: {home}"
    );
}

fn a_challenge_to_the_computer_is_taken_at_once_with_or_without_a_clock(app: &TestApp) {
    let moe = app.user("moe");
    // A day a move: the computer takes it at once, and the game has its clock.
    let r = app.post(
        "/api/v1/challenges",
        Some(&moe),
        json!({"variant": "crazyhouse", "color": "black", "days_per_move": 1, "opponent": "computer-medium"}),
    );
    assert_eq!(r.status, 201, "{}", r.body);
    let g = r.body["game_id"].as_i64().expect("the computer accepted");
    let j = game_json(app, g);
    assert_eq!(j["status"], "started");
    assert_eq!(j["white"], "computer-medium");
    assert_eq!(j["days_per_move"], 1);
    // It is White: its first move comes through the worker.
    computer_pass(app);
    assert_eq!(game_json(app, g)["ply"], 1, "the computer opened");
    // Rated: refused, nothing left waiting.
    let r = app.post(
        "/api/v1/challenges",
        Some(&moe),
        json!({"variant": "atomic", "color": "white", "days_per_move": 3, "rated": true, "opponent": "computer-hard"}),
    );
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(
        r.body["error"]
            .as_str()
            .unwrap()
            .contains("casual games only"),
        "{}",
        r.body
    );
    let open = app.get("/api/v1/challenges", Some(&moe)).body;
    assert_eq!(open.as_array().map(Vec::len), Some(0), "{open}");
    // The same from the challenges page: straight to the game.
    let browser = app.logged_in("moe");
    let csrf = browser.csrf("/challenges");
    let page = browser.post(
        "/challenges",
        &[
            ("csrf_token", &csrf),
            ("variant", "antichess"),
            ("color", "white"),
            ("time_control", "none"),
            ("opponent", "computer-easy"),
        ],
    );
    assert_eq!(page.status, 303, "{}", page.body);
    let to = page.location.expect("to the game");
    assert!(to.starts_with("/games/"), "{to}");
    let id: i64 = to.trim_start_matches("/games/").parse().unwrap();
    assert_eq!(game_json(app, id)["black"], "computer-easy");
    // The bughouse form's rated match with the computer: refused too.
    let r = app.post(
        "/api/v1/challenges",
        Some(&moe),
        json!({"variant": "bughouse", "seat": "A1", "rated": true, "fill_with_computer": "easy"}),
    );
    assert_eq!(r.status, 422, "{}", r.body);
}

fn the_challenges_page_seats_the_computer_in_a_bughouse_match(app: &TestApp) {
    app.user("nia");
    let browser = app.logged_in("nia");
    let page = browser.get("/challenges");
    assert!(page.body.contains(r#"id="fill_with_computer""#));
    let csrf = browser.csrf("/challenges");
    let page = browser.post(
        "/challenges",
        &[
            ("csrf_token", &csrf),
            ("variant", "bughouse"),
            ("color", "random"),
            ("seat", "B2"),
            ("time_control", "none"),
            ("fill_with_computer", "medium"),
        ],
    );
    assert_eq!(page.status, 303, "{}", page.body);
    let to = page.location.expect("to the match");
    let id: i64 = to.trim_start_matches("/games/").parse().expect("a game");
    let j = game_json(app, id);
    assert_eq!(j["status"], "started", "{j}");
    let match_page = browser.get(&to).body;
    assert!(
        match_page.contains("Computer (Medium)"),
        "the seats name the computer"
    );
}

/// How many challenges are stored, whatever their status.
fn stored_challenges(app: &TestApp) -> i64 {
    use diesel::prelude::*;
    let mut conn = app.state.pool.get().unwrap();
    slowfuse::schema::challenges::table
        .count()
        .get_result(&mut **conn)
        .unwrap()
}

fn a_game_against_the_computer_stands_on_no_challenge_and_plays_on(app: &TestApp) {
    let lea = app.user("lea");
    let g = new_game(
        app,
        &lea,
        json!({"variant": "standard", "color": "white", "level": "easy"}),
    );
    let mines = new_game(
        app,
        &lea,
        json!({"variant": "minesweeper", "color": "black", "level": "easy"}),
    );
    assert_eq!(stored_challenges(app), 0, "no challenge behind either game");
    let open = app.get("/api/v1/challenges", Some(&lea)).body;
    assert_eq!(open.as_array().map(Vec::len), Some(0), "{open}");
    // The game's terms are the computer's: casual, public, no clock, a draw for the asking.
    let j = game_json(app, g);
    assert_eq!(j["status"], "started");
    assert_eq!(j["rated"], false);
    assert_eq!(j["is_public"], true);
    assert_eq!(j["deadline_at"], Value::Null);
    assert_eq!(
        j["time_control"],
        json!({"kind": "none", "days_per_move": null, "initial_seconds": null,
               "increment_seconds": null, "cap_seconds": null, "auto_flag": true}),
    );
    let m = game_json(app, mines);
    assert_eq!(m["phase"], "setup", "{m}");
    assert_eq!(m["minesweeper"], "chosen", "{m}");
    assert!(m["setup_deadline_at"].is_string(), "{m}");
    assert_eq!(m["white"], "computer-easy");
    // The computer answers, and the pages show the game with it.
    assert_eq!(app.play(g, &lea, "e4", 0).status, 200);
    let done = computer_pass(app);
    assert!(
        done.contains(&(mines, ComputerAction::PlacedBombs)),
        "{done:?}"
    );
    assert!(
        done.iter()
            .any(|(id, a)| *id == g && matches!(a, ComputerAction::Moved(_))),
        "{done:?}"
    );
    let j = game_json(app, g);
    assert_eq!(j["ply"], 2, "{j}");
    let reply = j["sans"][1].as_str().expect("the computer's reply");
    let browser = app.logged_in("lea");
    let page = browser.get(&format!("/games/{g}"));
    assert_eq!(page.status, 200);
    assert!(page.body.contains(reply), "{reply} on the game page");
    assert!(page.body.contains("Computer (Easy)"), "{}", page.body);
    let page = browser.get(&format!("/games/{mines}"));
    assert_eq!(page.status, 200);
    assert!(page.body.contains("Computer (Easy)"), "{}", page.body);
    let home = browser.get("/").body;
    assert!(
        home.contains(&format!("/games/{g}")),
        "the home page's board"
    );
    let mine = browser.get("/games").body;
    for id in [g, mines] {
        assert!(
            mine.contains(&format!("/games/{id}")),
            "game {id} in my games"
        );
    }
    assert_eq!(stored_challenges(app), 0, "and none since");
}
