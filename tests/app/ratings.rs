//! Glicko-2 ratings per variant, end to end on SQLite and (when configured) PostgreSQL: rated
//! games move both players' ratings in their variant only; casual, aborted and too-short games
//! move nothing; the profile page and `GET /api/v1/users/{name}` show the numbers.

use crate::common;

use chrono::Duration;
use common::TestApp;
use serde_json::{Value, json};
use slowfuse::clock::FixedClock;

on_both_databases_at_t0!(
    rated_atomic_explosion_moves_atomic_ratings_and_not_standard,
    casual_game_changes_no_rating,
    draw_by_agreement_between_equals_keeps_ratings_and_shrinks_deviation,
    aborted_and_too_short_games_are_not_rated,
    loss_on_time_from_the_worker_is_rated,
    profile_page_shows_ratings_history_and_games,
    rated_challenge_from_the_form_gives_a_rated_game,
    unknown_user_is_not_found,
);

/// A game from a challenge `white` makes and `black` accepts; `rated` as given.
fn game(app: &TestApp, variant: &str, white: &str, black: &str, rated: bool) -> i64 {
    app.game_from(
        white,
        black,
        json!({"variant": variant, "color": "white", "days_per_move": 3, "rated": rated}),
    )
}

fn profile(app: &TestApp, name: &str) -> Value {
    let r = app.get(&format!("/api/v1/users/{name}"), None);
    assert_eq!(r.status, 200, "{}", r.body);
    r.body
}

fn rating(app: &TestApp, name: &str, variant: &str) -> Value {
    profile(app, name)["ratings"][variant].clone()
}

fn num(v: &Value) -> i64 {
    v.as_i64().unwrap_or_else(|| panic!("not a number: {v}"))
}

/// White blows up Black's king on move 3 (atomic) or mates on move 4 (standard).
const ATOMIC_WHITE_WINS: &[&str] = &["Nf3", "Nf6", "Ne5", "e6", "Nxf7"];
const STANDARD_BLACK_WINS: &[&str] = &["f3", "e5", "g4", "Qh4#"];

fn rated_atomic_explosion_moves_atomic_ratings_and_not_standard(app: &TestApp, _: &FixedClock) {
    let a = app.user("alice");
    let b = app.user("bob");
    // First a rated standard game, which Black (bob) wins.
    let s = game(app, "standard", &a, &b, true);
    let r = app.play_all(s, &a, &b, STANDARD_BLACK_WINS);
    assert_eq!(r.body["result"], "0-1");
    let alice_standard = rating(app, "alice", "standard");
    let bob_standard = rating(app, "bob", "standard");
    assert!(num(&alice_standard["rating"]) < 1500, "{alice_standard}");
    assert!(num(&bob_standard["rating"]) > 1500, "{bob_standard}");
    assert!(
        profile(app, "alice")["ratings"].get("atomic").is_none(),
        "no atomic rating before an atomic game"
    );

    // Then a rated atomic game, which White (alice) wins by explosion.
    let g = game(app, "atomic", &a, &b, true);
    let r = app.play_all(g, &a, &b, ATOMIC_WHITE_WINS);
    assert_eq!(r.body["termination"], "explosion");
    let alice = rating(app, "alice", "atomic");
    let bob = rating(app, "bob", "atomic");
    assert!(num(&alice["rating"]) > 1500, "{alice}");
    assert!(num(&bob["rating"]) < 1500, "{bob}");
    assert_eq!(
        num(&alice["rating"]) - 1500,
        1500 - num(&bob["rating"]),
        "two newcomers move by the same amount"
    );
    assert!(num(&alice["deviation"]) < 350);
    assert_eq!(alice["games"], 1);
    assert_eq!(alice["provisional"], true);
    // Atomic is its own rating: the standard ones are exactly as before.
    assert_eq!(rating(app, "alice", "standard"), alice_standard);
    assert_eq!(rating(app, "bob", "standard"), bob_standard);

    // History: one row per rated game, newest first, per variant.
    let p = profile(app, "bob");
    let atomic = p["history"]["atomic"].as_array().unwrap();
    assert_eq!(atomic.len(), 1);
    assert_eq!(atomic[0]["game_id"], g);
    assert_eq!(atomic[0]["opponent"], "alice");
    assert_eq!(atomic[0]["score"], 0.0);
    assert_eq!(atomic[0]["rating_before"], 1500);
    assert_eq!(atomic[0]["rating_after"], bob["rating"]);
    assert_eq!(p["history"]["standard"][0]["game_id"], s);
    assert_eq!(p["history"]["standard"][0]["score"], 1.0);
    assert!(
        p.get("email").is_none() && !p.to_string().contains("@example.com"),
        "no email on a public profile: {p}"
    );
}

fn casual_game_changes_no_rating(app: &TestApp, _: &FixedClock) {
    let a = app.user("alice");
    let b = app.user("bob");
    let g = game(app, "atomic", &a, &b, false);
    let r = app.play_all(g, &a, &b, ATOMIC_WHITE_WINS);
    assert_eq!(r.body["result"], "1-0");
    for name in ["alice", "bob"] {
        let p = profile(app, name);
        assert_eq!(p["ratings"], json!({}), "{p}");
        assert_eq!(p["history"], json!({}), "{p}");
        assert_eq!(p["recent_games"][0]["id"], g);
        assert_eq!(p["recent_games"][0]["rated"], false);
    }
}

fn draw_by_agreement_between_equals_keeps_ratings_and_shrinks_deviation(
    app: &TestApp,
    _: &FixedClock,
) {
    let a = app.user("alice");
    let b = app.user("bob");
    let g = game(app, "standard", &a, &b, true);
    app.play_all(g, &a, &b, &["e4", "e5"]);
    let act = |who: &str, action: &str| {
        let r = app.post(
            &format!("/api/v1/games/{g}/actions"),
            Some(who),
            json!({"action": action, "ply": 2}),
        );
        assert_eq!(r.status, 200, "{action}: {}", r.body);
        r.body
    };
    act(&a, "offer_draw");
    let end = act(&b, "accept_draw");
    assert_eq!(end["result"], "1/2-1/2");
    let alice = rating(app, "alice", "standard");
    let bob = rating(app, "bob", "standard");
    assert_eq!(alice["rating"], 1500, "{alice}");
    assert_eq!(bob["rating"], 1500, "{bob}");
    assert!(num(&alice["deviation"]) < 350 - 10, "{alice}");
    assert_eq!(alice["deviation"], bob["deviation"]);
    assert_eq!(alice["games"], 1);
    assert_eq!(
        profile(app, "alice")["history"]["standard"][0]["score"],
        0.5
    );
}

fn aborted_and_too_short_games_are_not_rated(app: &TestApp, clock: &FixedClock) {
    let a = app.user("alice");
    let b = app.user("bob");
    // Aborted by the worker: Black never made a first move.
    let aborted = game(app, "atomic", &a, &b, true);
    app.play(aborted, &a, "e4", 0);
    clock.advance(Duration::days(4));
    let done = actix_web::rt::System::new()
        .block_on(slowfuse::worker::run_once(&app.state.worker()))
        .unwrap();
    assert!(!done.is_empty(), "the worker ended the game");
    assert_eq!(
        app.get(&format!("/api/v1/games/{aborted}"), None).body["status"],
        "aborted"
    );
    // Resigned before either side had made a move: over, but not rated.
    let short = game(app, "atomic", &a, &b, true);
    let r = app.post(
        &format!("/api/v1/games/{short}/actions"),
        Some(&b),
        json!({"action": "resign", "ply": 0}),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["result"], "1-0");
    for name in ["alice", "bob"] {
        let p = profile(app, name);
        assert_eq!(p["ratings"], json!({}), "{p}");
        assert_eq!(p["history"], json!({}), "{p}");
    }
}

fn loss_on_time_from_the_worker_is_rated(app: &TestApp, clock: &FixedClock) {
    let a = app.user("alice");
    let b = app.user("bob");
    let g = game(app, "atomic", &a, &b, true);
    app.play_all(g, &a, &b, &["e4", "e5"]);
    clock.advance(Duration::days(4));
    actix_web::rt::System::new()
        .block_on(slowfuse::worker::run_once(&app.state.worker()))
        .unwrap();
    let game = app.get(&format!("/api/v1/games/{g}"), None).body;
    assert_eq!(game["termination"], "time");
    assert_eq!(game["result"], "0-1");
    assert!(num(&rating(app, "alice", "atomic")["rating"]) < 1500);
    assert!(num(&rating(app, "bob", "atomic")["rating"]) > 1500);
    // Running the worker again rates nothing twice.
    actix_web::rt::System::new()
        .block_on(slowfuse::worker::run_once(&app.state.worker()))
        .unwrap();
    assert_eq!(rating(app, "bob", "atomic")["games"], 1);
}

fn profile_page_shows_ratings_history_and_games(app: &TestApp, _: &FixedClock) {
    let a = app.user("alice");
    let b = app.user("bob");
    let g = game(app, "atomic", &a, &b, true);
    app.play_all(g, &a, &b, ATOMIC_WHITE_WINS);
    let casual = game(app, "standard", &a, &b, false);
    let alice = rating(app, "alice", "atomic");
    let shown = format!("{}?", num(&alice["rating"]));

    // Anyone, logged in or not, may look; the name is read in any case.
    let (status, page) = app.get_text("/users/ALICE");
    assert_eq!(status, 200);
    assert!(page.contains("<h1>alice</h1>"), "{page}");
    assert!(page.contains("Member since 2026-03-01"), "{page}");
    assert!(page.contains("Atomic"), "{page}");
    assert!(
        page.contains(r#"id="rating-atomic" title="provisional"#) && page.contains(&shown),
        "the rating {shown} with its provisional mark: {page}"
    );
    assert!(page.contains(&format!("±{}", num(&alice["deviation"]))));
    assert!(page.contains(r#"id="history-atomic""#));
    assert!(page.contains(&format!("1500 → {}", num(&alice["rating"]))));
    assert!(page.contains(&format!("+{}", num(&alice["rating"]) - 1500)));
    assert!(page.contains(r#"<a href="/users/bob">bob</a>"#));
    assert!(page.contains(&format!(r#"<a href="/games/{g}">#{g}</a>"#)));
    assert!(page.contains(&format!(r#"<a href="/games/{casual}">#{casual}</a>"#)));
    assert!(page.contains("in progress") && page.contains("casual"));
    assert!(!page.contains("standard rating history") && !page.contains("Standard rating"));
    assert!(
        !page.contains("@example.com"),
        "no email on the public page"
    );
    // Bob lost: his page shows the drop.
    let (_, bob_page) = app.get_text("/users/bob");
    let bob = rating(app, "bob", "atomic");
    assert!(
        bob_page.contains(&format!("−{}", 1500 - num(&bob["rating"]))),
        "{bob_page}"
    );
    assert!(bob_page.contains("lost"));
    // A newcomer has no ratings yet.
    app.user("carol");
    let (status, carol) = app.get_text("/users/carol");
    assert_eq!(status, 200);
    assert!(carol.contains("No rated games yet.") && carol.contains("No games yet."));
    // The game page links the players to their profiles.
    let (_, game_page) = app.get_text(&format!("/games/{g}"));
    assert!(
        game_page.contains(r#"<a href="/users/alice">alice</a>"#),
        "{game_page}"
    );
    assert!(game_page.contains(r#"<a href="/users/bob">bob</a>"#));
}

fn rated_challenge_from_the_form_gives_a_rated_game(app: &TestApp, _: &FixedClock) {
    let alice = app.browser();
    alice.sign_up("alice");
    let form = alice.get("/challenges").body;
    assert!(
        form.contains(r#"<select id="rated" name="rated">"#),
        "{form}"
    );
    let csrf = alice.csrf("/challenges");
    let fields = |rated: &'static str| {
        [
            ("csrf_token", csrf.clone()),
            ("variant", "atomic".into()),
            ("color", "white".into()),
            ("time_control", "days".into()),
            ("days_per_move", "3".into()),
            ("kind", "open".into()),
            ("opponent", String::new()),
            ("rated", rated.into()),
        ]
    };
    for rated in ["rated", "casual"] {
        let f = fields(rated);
        let pairs: Vec<(&str, &str)> = f.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let r = alice.post("/challenges", &pairs);
        assert_eq!(r.status, 303, "{}", r.body);
    }
    let listed = alice.get("/challenges").body;
    assert!(
        listed.contains("Atomic · rated") && listed.contains("Atomic · casual"),
        "{listed}"
    );
    let b = app.user("bob");
    let list = app.get("/api/v1/challenges", Some(&b)).body;
    let list = list.as_array().unwrap();
    assert_eq!(list.len(), 2, "{list:?}");
    let rated_flags: Vec<bool> = list.iter().map(|c| c["rated"].as_bool().unwrap()).collect();
    assert!(rated_flags.contains(&true) && rated_flags.contains(&false));
    // Bob accepts the rated one and loses at once: alice's atomic rating rises.
    let rated = list.iter().find(|c| c["rated"] == true).unwrap();
    let r = app.post(
        &format!("/api/v1/challenges/{}/accept", rated["id"]),
        Some(&b),
        json!({}),
    );
    assert_eq!(r.status, 201, "{}", r.body);
    let g = r.body["game_id"].as_i64().unwrap();
    let a = app.post(
        "/api/v1/tokens",
        None,
        json!({"username": "alice", "password": "correct horse battery"}),
    );
    let a = a.body["token"].as_str().unwrap().to_string();
    app.play_all(g, &a, &b, ATOMIC_WHITE_WINS);
    assert!(num(&rating(app, "alice", "atomic")["rating"]) > 1500);
}

fn unknown_user_is_not_found(app: &TestApp, _: &FixedClock) {
    let r = app.get("/api/v1/users/nobody", None);
    assert_eq!(r.status, 404);
    assert_eq!(r.body["error"], "no such user");
    let (status, page) = app.get_text("/users/nobody");
    assert_eq!(status, 404);
    assert!(page.to_lowercase().contains("not found"), "{page}");
}
