//! Many writers at once on each database: clients changing their preferences (two at a time for
//! one account), making challenges, tagging, kibitzing, writing notes and playing the computer,
//! while the worker's passes and the computer's loop run beside them. No request may answer a
//! 5xx for the database being busy, and every write acknowledged is there afterwards.

use crate::common;

use std::sync::Mutex;

use common::{Backend, Options, spawn_app_with};
use serde_json::json;

/// Clients per account, accounts, and rounds each client makes: bounded, whatever the speed.
const ACCOUNTS: usize = 6;
const CLIENTS_PER_ACCOUNT: usize = 2;
const ROUNDS: usize = 25;

#[test]
fn sqlite_writers_at_once_never_meet_a_busy_database() {
    writers_at_once(Backend::Sqlite);
}

#[test]
fn postgres_writers_at_once_never_meet_a_busy_database() {
    writers_at_once(Backend::Postgres);
}

fn writers_at_once(backend: Backend) {
    let options = Options {
        worker_interval: Some(1),
        ..Options::default()
    };
    let Some(app) = spawn_app_with(backend, options) else {
        return;
    };
    let tokens: Vec<String> = (0..ACCOUNTS)
        .map(|i| app.user(&format!("busy{i}")))
        .collect();
    let names: Vec<String> = (0..ACCOUNTS).map(|i| format!("busy{i}")).collect();
    // One game between the first two accounts: everyone tags it and kibitzes in it.
    let shared = app.game("atomic", &tokens[0], &tokens[1]);
    // Each account plays the computer: the computer's loop answers while the others write.
    let computer_games: Vec<i64> = tokens
        .iter()
        .map(|t| {
            let r = app.post(
                "/api/v1/computer-games",
                Some(t),
                json!({"variant": "standard", "color": "white", "level": "easy"}),
            );
            assert_eq!(r.status, 201, "{}", r.body);
            r.body["game_id"].as_i64().unwrap()
        })
        .collect();
    let failures = Mutex::new(Vec::<String>::new());
    let themes = ["blue", "brown", "grey", "purple"];
    let acknowledged_tags = Mutex::new(Vec::<(usize, String)>::new());
    let stop = std::sync::atomic::AtomicBool::new(false);
    std::thread::scope(|s| {
        // The worker's passes, as often as they can go, for as long as the clients write.
        let worker = app.state.worker();
        let stop_ref = &stop;
        let failures_ref = &failures;
        s.spawn(move || {
            let rt = actix_web::rt::System::new();
            let mut passes = 0;
            while !stop_ref.load(std::sync::atomic::Ordering::Relaxed) && passes < 2_000 {
                if let Err(e) = rt.block_on(slowfuse::worker::run_once(&worker)) {
                    failures_ref
                        .lock()
                        .unwrap()
                        .push(format!("worker pass: {e:#}"));
                }
                if let Err(e) = rt.block_on(slowfuse::worker::play_computer_once(&worker)) {
                    failures_ref
                        .lock()
                        .unwrap()
                        .push(format!("computer pass: {e:#}"));
                }
                passes += 1;
            }
        });
        let mut clients = Vec::new();
        for account in 0..ACCOUNTS {
            for client in 0..CLIENTS_PER_ACCOUNT {
                let (app, token) = (&app, tokens[account].clone());
                let (failures, acknowledged_tags) = (&failures, &acknowledged_tags);
                let (names, computer_game) = (&names, computer_games[account]);
                clients.push(s.spawn(move || {
                    let check = |what: &str, status: u16, body: &str| {
                        if status >= 500 {
                            failures
                                .lock()
                                .unwrap()
                                .push(format!("{what}: {status} {body}"));
                        }
                    };
                    for round in 0..ROUNDS {
                        let theme = themes[(round + client) % themes.len()];
                        let r = app.post_method(
                            "PUT",
                            "/api/v1/me/preferences",
                            Some(&token),
                            json!({"board_theme": theme, "board_3d": round % 2 == 0}),
                        );
                        check("preferences", r.status, &r.body.to_string());
                        let opponent = &names[(account + 1) % ACCOUNTS];
                        let r = app.post(
                            "/api/v1/challenges",
                            Some(&token),
                            json!({"variant": "atomic", "color": "white", "days_per_move": 3, "opponent": opponent}),
                        );
                        check("challenge", r.status, &r.body.to_string());
                        let tag = format!("t{client}r{round}");
                        let r = app.post_method(
                            "PUT",
                            &format!("/api/v1/games/{shared}/tags/{tag}"),
                            Some(&token),
                            json!({}),
                        );
                        check("tag", r.status, &r.body.to_string());
                        if r.status < 300 {
                            acknowledged_tags.lock().unwrap().push((account, tag));
                        }
                        let r = app.post(
                            &format!("/api/v1/games/{shared}/actions"),
                            Some(&token),
                            json!({"action": "kibitz", "message": format!("round {round}")}),
                        );
                        check("kibitz", r.status, &r.body.to_string());
                        let r = app.post_method(
                            "PUT",
                            &format!("/api/v1/games/{computer_game}/notes"),
                            Some(&token),
                            json!({"text": format!("note {client} {round}")}),
                        );
                        check("notes", r.status, &r.body.to_string());
                        // A move when it is this account's turn (the other client of the account
                        // may have moved first: a 4xx then, never a 5xx).
                        let game = app.get(&format!("/api/v1/games/{computer_game}"), Some(&token));
                        check("game", game.status, &game.body.to_string());
                        if let Some(mv) = first_legal_move(&game.body) {
                            let ply = game.body["ply"].as_i64().unwrap_or_default();
                            let r = app.play(computer_game, &token, &mv, ply);
                            check("move", r.status, &r.body.to_string());
                        }
                    }
                }));
            }
        }
        for c in clients {
            c.join().expect("client");
        }
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
    });
    let failures = failures.into_inner().unwrap();
    assert!(
        failures.is_empty(),
        "{} failures: {failures:#?}",
        failures.len()
    );
    // Every tag acknowledged is stored.
    for (account, tag) in acknowledged_tags.into_inner().unwrap() {
        let r = app.get(
            &format!("/api/v1/games/{shared}/tags"),
            Some(&tokens[account]),
        );
        assert!(
            r.body.to_string().contains(&tag),
            "tag {tag} of busy{account} acknowledged but not stored: {}",
            r.body
        );
    }
    // Each account's preferences are one of the themes its clients asked for.
    for token in &tokens {
        let r = app.get("/api/v1/me/preferences", Some(token));
        assert_eq!(r.status, 200);
        let theme = r.body["board_theme"].as_str().unwrap_or_default();
        assert!(themes.contains(&theme), "{}", r.body);
    }
}

/// A legal move in a running standard game as its JSON shows it, when White (the account
/// playing the computer) is to move: the first of the position's legal moves.
fn first_legal_move(game: &serde_json::Value) -> Option<String> {
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Chess, Position};
    if game["status"].as_str() != Some("started") || game["turn"].as_str() != Some("white") {
        return None;
    }
    let fen: Fen = game["fen"].as_str()?.parse().ok()?;
    let pos: Chess = fen.into_position(CastlingMode::Standard).ok()?;
    let mv = *pos.legal_moves().first()?;
    Some(mv.to_uci(CastlingMode::Standard).to_string())
}
