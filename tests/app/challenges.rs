//! What accepting a challenge leaves to chance follows the app's injected randomness.

use crate::common;

use std::sync::Arc;

use common::{Backend, Options, TestApp, spawn_app_with};
use serde_json::{Value, json};
use slowfuse::random::FixedRandom;

/// An app on SQLite whose every coin shows `coin` and whose every number drawn is `number`.
fn app_drawing(coin: bool, number: u32) -> TestApp {
    spawn_app_with(
        Backend::Sqlite,
        Options {
            random: Some(Arc::new(FixedRandom::new(coin, number))),
            ..Options::default()
        },
    )
    .expect("SQLite is always available")
}

/// Alice challenges with `body`, Bob accepts; the game as the API shows it.
fn accepted_game(app: &TestApp, body: Value) -> Value {
    let (alice, bob) = (app.user("alice"), app.user("bob"));
    let r = app.post("/api/v1/challenges", Some(&alice), body);
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.body["id"].as_i64().unwrap();
    let r = app.post(
        &format!("/api/v1/challenges/{id}/accept"),
        Some(&bob),
        json!({}),
    );
    assert_eq!(r.status, 201, "{}", r.body);
    let game = r.body["game_id"].as_i64().unwrap();
    let r = app.get(&format!("/api/v1/games/{game}"), None);
    assert_eq!(r.status, 200, "{}", r.body);
    r.body
}

#[test]
fn the_coin_decides_the_colours_of_a_random_challenge() {
    let random =
        json!({"variant": "standard", "color": "random", "days_per_move": 3, "opponent": null});
    for (coin, white, black) in [(true, "alice", "bob"), (false, "bob", "alice")] {
        let game = accepted_game(&app_drawing(coin, 0), random.clone());
        assert_eq!(game["white"], white, "coin {coin}: {game}");
        assert_eq!(game["black"], black, "coin {coin}: {game}");
    }
}

#[test]
fn a_chosen_colour_ignores_the_coin() {
    let black =
        json!({"variant": "standard", "color": "black", "days_per_move": 3, "opponent": null});
    let game = accepted_game(&app_drawing(true, 0), black);
    assert_eq!(game["black"], "alice", "{game}");
}

#[test]
fn the_number_drawn_picks_the_chess960_start() {
    let chess960 =
        json!({"variant": "chess960", "color": "white", "days_per_move": 3, "opponent": null});
    let mut starts = Vec::new();
    for number in [0, 518, 959] {
        let game = accepted_game(&app_drawing(true, number), chess960.clone());
        let expected = slowfuse_rules::Game::chess960(number as u16).unwrap().fen();
        assert_eq!(game["initial_fen"], expected.as_str(), "start {number}");
        starts.push(expected);
    }
    starts.dedup();
    assert_eq!(starts.len(), 3, "three numbers, three different starts");
}
