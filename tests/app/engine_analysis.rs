//! Engine analysis of finished games: refused while the game runs, queued once, judged by the
//! worker position by position (each written once even with two workers at once, taken over
//! when a worker's lease runs out), rated games queued by themselves when the setting says so,
//! and the Engine Analysis tab: the button, the progress, the graph and the judged moves.

use crate::common;

use std::sync::Arc;

use common::{Backend, Options, TestApp, spawn_app_with_env};
use serde_json::{Value, json};
use slowfuse::clock::{Clock, FixedClock};
use slowfuse::usecases::engine_analysis::{self, Engine, PositionFigures};

/// The app with a small node budget a position (the tests' games are short and sharp) and
/// rated games left alone unless a test asks.
fn spawn(backend: Backend, automatic: bool, clock: Option<Arc<FixedClock>>) -> Option<TestApp> {
    spawn_app_with_env(
        backend,
        Options {
            clock: clock.map(|c| c as Arc<dyn slowfuse::clock::Clock>),
            ..Options::default()
        },
        vec![
            ("SLOWFUSE__ANALYSIS__NODES".into(), "20000".into()),
            (
                "SLOWFUSE__ANALYSIS__AUTOMATIC_FOR_RATED".into(),
                automatic.to_string(),
            ),
        ],
    )
}

macro_rules! engine_tests {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(#[test] fn $name() { if let Some(app) = super::spawn(super::Backend::Sqlite, false, None) { super::$name(&app) } })*
        }
        mod postgres {
            $(#[test] fn $name() { if let Some(app) = super::spawn(super::Backend::Postgres, false, None) { super::$name(&app) } })*
        }
    };
}

engine_tests!(
    asking_is_refused_while_the_game_runs_and_queues_once_after_it,
    the_worker_judges_every_position_and_finds_the_blunder,
    two_workers_at_once_write_each_position_once,
    games_without_an_analysis_are_refused_clearly,
    the_engine_tab_asks_shows_progress_then_the_graph_and_the_moves,
    the_engines_line_on_the_tab_names_its_first_move_once,
);

/// Fool's mate: White's second move is a blunder, Black mates at once.
const FOOLS_MATE: [&str; 4] = ["f2f3", "e7e5", "g2g4", "d8h4"];

fn analysis_path(g: i64) -> String {
    format!("/api/v1/games/{g}/analysis/engine")
}

/// One pass of the analysis worker, as the server runs it.
fn analysis_pass(app: &TestApp, worker: &str) -> Vec<i64> {
    actix_web::rt::System::new()
        .block_on(slowfuse::analysis_worker::analyse_waiting(
            &app.state.worker(),
            worker,
        ))
        .expect("analysis pass")
}

/// A finished game of fool's mate between two new players; (game, white's token).
fn finished_game(app: &TestApp, white: &str, black: &str) -> (i64, String) {
    let (w, b) = (app.user(white), app.user(black));
    let g = app.game("standard", &w, &b);
    app.play_all(g, &w, &b, &FOOLS_MATE);
    (g, w)
}

fn asking_is_refused_while_the_game_runs_and_queues_once_after_it(app: &TestApp) {
    let (w, b) = (app.user("alice"), app.user("bob"));
    let g = app.game("standard", &w, &b);
    app.play_all(g, &w, &b, &FOOLS_MATE[..2]);
    let r = app.post(&analysis_path(g), Some(&w), json!({}));
    assert_eq!(r.status, 409, "{}", r.body);
    assert!(
        r.body["error"].as_str().unwrap().contains("in progress"),
        "{}",
        r.body
    );
    assert_eq!(app.get(&analysis_path(g), None).status, 409);
    // The page says so too, and offers no button.
    let (_, html) = app.get_text(&format!("/games/{g}"));
    assert!(html.contains("Engines are not allowed while the game is in progress"));
    assert!(!html.contains(r#"id="engine-ask""#), "no button");

    app.play(g, &w, "g2g4", 2);
    app.play(g, &b, "d8h4", 3);
    let r = app.get(&analysis_path(g), None);
    assert_eq!(r.status, 404, "nobody asked yet: {}", r.body);
    assert_eq!(
        app.post(&analysis_path(g), None, json!({})).status,
        401,
        "asking needs an account"
    );
    let r = app.post(&analysis_path(g), Some(&b), json!({}));
    assert_eq!(r.status, 202, "{}", r.body);
    assert_eq!(r.body["status"], "queued");
    let r = app.post(&analysis_path(g), Some(&w), json!({}));
    assert_eq!(r.status, 202, "asking twice is harmless: {}", r.body);
    assert_eq!(r.body["status"], "queued");
    let r = app.get(&analysis_path(g), None);
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["status"], "queued");
    assert_eq!(r.body["progress"], 0);
    assert_eq!(r.body["positions"], 5);
    assert_eq!(r.body["plies"], json!([]));
}

fn the_worker_judges_every_position_and_finds_the_blunder(app: &TestApp) {
    let (g, w) = finished_game(app, "carol", "dave");
    assert_eq!(app.post(&analysis_path(g), Some(&w), json!({})).status, 202);
    assert_eq!(analysis_pass(app, "w1"), vec![g]);
    let r = app.get(&analysis_path(g), None);
    assert_eq!(r.status, 200, "{}", r.body);
    let a = &r.body;
    assert_eq!(a["status"], "done");
    assert_eq!(a["progress"], 100);
    let plies = a["plies"].as_array().unwrap();
    let numbers: Vec<i64> = plies.iter().map(|p| p["ply"].as_i64().unwrap()).collect();
    assert_eq!(
        numbers,
        vec![0, 1, 2, 3, 4],
        "the start and one after every move"
    );
    // After g4, Black mates in one: the engine sees it and calls g4 a blunder.
    assert_eq!(plies[3]["mate"], -1, "{}", plies[3]);
    assert_eq!(plies[3]["best_uci"], "d8h4");
    assert_eq!(plies[3]["best_san"], "Qh4#");
    assert_eq!(plies[3]["judgement"], "blunder");
    // Before it, White had better: the engine's choice is not g4.
    assert_ne!(plies[2]["best_uci"], "g2g4");
    assert!(!plies[2]["best_line"].as_array().unwrap().is_empty());
    // Black's mate is the engine's own move: never marked.
    assert_eq!(plies[4]["judgement"], Value::Null);
    // The game is over after the mate: Black has won.
    assert_eq!(plies[4]["mate"], 0);
    assert!(plies[4]["eval_cp"].as_i64().unwrap() < 0);
    assert_eq!(plies[4]["best_uci"], Value::Null);
    assert_eq!(a["engine"], "Slowfuse");
    assert_eq!(a["nodes"], 20000);
    // Nothing is left to do: a second pass finds no work.
    assert!(analysis_pass(app, "w1").is_empty());
}

fn two_workers_at_once_write_each_position_once(app: &TestApp) {
    let (g, w) = finished_game(app, "erin", "frank");
    let (g2, w2) = finished_game(app, "gina", "hank");
    for (game, token) in [(g, &w), (g2, &w2)] {
        assert_eq!(
            app.post(&analysis_path(game), Some(token), json!({}))
                .status,
            202
        );
    }
    let (a, b) = std::thread::scope(|s| {
        let a = s.spawn(|| analysis_pass(app, "first"));
        let b = s.spawn(|| analysis_pass(app, "second"));
        (a.join().unwrap(), b.join().unwrap())
    });
    let mut all: Vec<i64> = a.iter().chain(&b).copied().collect();
    all.sort_unstable();
    assert_eq!(
        all,
        vec![g, g2],
        "each game analysed by one worker: {a:?} {b:?}"
    );
    for game in [g, g2] {
        let r = app.get(&analysis_path(game), None);
        assert_eq!(r.body["status"], "done");
        assert_eq!(r.body["plies"].as_array().unwrap().len(), 5);
    }
}

fn games_without_an_analysis_are_refused_clearly(app: &TestApp) {
    let token = app.user("ivy");
    assert_eq!(
        app.post(&analysis_path(999_999), Some(&token), json!({}))
            .status,
        404
    );
    assert_eq!(app.get(&analysis_path(999_999), None).status, 404);
    // A bughouse match has two boards and pieces passing between them.
    let others: Vec<String> = ["joan", "kim", "lee"].iter().map(|n| app.user(n)).collect();
    let m = app.bughouse_match([&token, &others[0], &others[1], &others[2]]);
    let r = app.post(
        &format!("/api/v1/games/{m}/actions"),
        Some(&token),
        json!({"action": "resign", "board": "a", "ply": 0}),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let r = app.post(&analysis_path(m), Some(&token), json!({}));
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(
        r.body["error"].as_str().unwrap().contains("bughouse"),
        "{}",
        r.body
    );
}

fn the_engine_tab_asks_shows_progress_then_the_graph_and_the_moves(app: &TestApp) {
    let (g, _) = finished_game(app, "mia", "ned");
    let path = format!("/games/{g}");
    // A visitor is asked to log in; no button.
    let (_, html) = app.get_text(&path);
    assert!(html.contains("Log in</a> to ask for one"), "{html}");
    assert!(!html.contains(r#"id="engine-ask""#), "no button");

    let browser = app.logged_in("mia");
    let page = browser.get(&path);
    assert!(page.body.contains(r#"id="engine-ask""#), "the button");
    // Without the form's token nothing is queued.
    let refused = browser.post(
        &format!("{path}/engine-analysis"),
        &[("csrf_token", "forged")],
    );
    assert!(refused.status >= 400, "{}", refused.status);
    assert_eq!(app.get(&analysis_path(g), None).status, 404);

    let csrf = browser.csrf(&path);
    let sent = browser.post(&format!("{path}/engine-analysis"), &[("csrf_token", &csrf)]);
    assert_eq!(sent.status, 303);
    assert_eq!(
        sent.location.as_deref(),
        Some(format!("{path}#panel-engine").as_str())
    );
    let page = browser.get(&path);
    assert!(
        page.body.contains("Engine analysis queued"),
        "the flash says so"
    );
    assert!(
        page.body.contains(r#"id="engine-progress""#),
        "a progress bar while it waits"
    );
    assert!(page.body.contains("0</span> of 5 positions judged"));
    assert!(
        !page.body.contains(r#"id="engine-ask""#),
        "no second request"
    );

    analysis_pass(app, "page-worker");
    let page = browser.get(&path);
    assert!(!page.body.contains(r#"id="engine-progress""#));
    assert!(
        page.body.contains(r#"class="eval-graph""#),
        "the graph is drawn"
    );
    for ply in 0..=4 {
        assert!(
            page.body
                .contains(&format!(r##"href="?ply={ply}#panel-engine""##)),
            "the graph and the moves link ply {ply}"
        );
    }
    // g4 is marked a blunder, with the engine's better choice beside it.
    let row = row_of(&page.body, 3);
    assert!(row.contains("2. g4??"), "{row}");
    assert!(row.contains("blunder"), "{row}");
    // The summary counts White's blunder and none for Black.
    assert!(
        page.body
            .contains("White (mia)</th><td>0</td><td>0</td><td>1</td>"),
        "{}",
        page.body
    );
    assert!(
        page.body
            .contains("Black (ned)</th><td>0</td><td>0</td><td>0</td>")
    );
    // Everyone who may see the game sees it, logged in or not.
    let (_, visitor) = app.get_text(&path);
    assert!(visitor.contains(r#"class="eval-graph""#));
}

/// The tab shows the engine's better move, then the rest of its line after it: the line's
/// first move is that better move, and is not written twice.
fn the_engines_line_on_the_tab_names_its_first_move_once(app: &TestApp) {
    let (g, w) = finished_game(app, "olga", "piet");
    assert_eq!(app.post(&analysis_path(g), Some(&w), json!({})).status, 202);
    assert_eq!(analysis_pass(app, "line-worker"), vec![g]);
    let a = app.get(&analysis_path(g), None).body;
    // Before g4 (ply 2) the engine preferred another move, with a line beginning with it.
    let before = &a["plies"][2];
    let best = before["best_san"]
        .as_str()
        .expect("a better move")
        .to_string();
    let line: Vec<String> = before["best_line_san"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect();
    assert_eq!(line.first(), Some(&best), "{before}");
    let (_, html) = app.get_text(&format!("/games/{g}"));
    let row = row_of(&html, 3);
    let rest = line[1..].join(" ");
    let shown = if rest.is_empty() {
        format!("<td>{best}</td>")
    } else {
        format!(r#"<td>{best} <span class="hint">{rest}</span></td>"#)
    };
    assert!(row.contains(&shown), "{shown} in {row}");
}

/// The analysis table's row of `ply`.
fn row_of(html: &str, ply: i64) -> String {
    let start = html
        .find(&format!(r#"id="engine-ply-{ply}""#))
        .unwrap_or_else(|| panic!("no row for ply {ply}"));
    let end = html[start..].find("</tr>").unwrap() + start;
    html[start..end].to_string()
}

// ---------- with a clock the test moves ----------

mod leases {
    use super::*;

    fn spawn_at_t0(backend: Backend, automatic: bool) -> Option<(TestApp, Arc<FixedClock>)> {
        let clock = Arc::new(FixedClock::new(common::t0()));
        Some((spawn(backend, automatic, Some(clock.clone()))?, clock))
    }

    macro_rules! clocked {
        ($($name:ident: $automatic:expr),* $(,)?) => {
            mod sqlite {
                $(#[test] fn $name() { if let Some((app, clock)) = super::spawn_at_t0(super::Backend::Sqlite, $automatic) { super::$name(&app, &clock) } })*
            }
            mod postgres {
                $(#[test] fn $name() { if let Some((app, clock)) = super::spawn_at_t0(super::Backend::Postgres, $automatic) { super::$name(&app, &clock) } })*
            }
        };
    }

    clocked!(
        a_worker_that_dies_leaves_its_positions_to_the_next: false,
        rated_games_are_analysed_as_they_end_when_the_setting_says_so: true,
        without_the_setting_rated_games_wait_to_be_asked_for: false,
    );

    fn a_worker_that_dies_leaves_its_positions_to_the_next(app: &TestApp, clock: &FixedClock) {
        let (g, w) = finished_game(app, "olga", "pete");
        assert_eq!(app.post(&analysis_path(g), Some(&w), json!({})).status, 202);
        // A worker takes the job, judges the start, and dies.
        let mut conn = app.state.pool.get().unwrap();
        let job = engine_analysis::claim_next(&mut conn, clock.now(), "doomed")
            .unwrap()
            .expect("the queued analysis");
        assert_eq!((job.game_id, job.done_positions), (g, 0));
        let start = PositionFigures {
            ply: 0,
            eval_cp: 12,
            mate: None,
            best_uci: Some("e2e4".into()),
            best_san: Some("e4".into()),
            best_line: vec!["e2e4".into()],
            best_line_san: vec!["e4".into()],
            depth: 3,
            nodes: 99,
        };
        let engine = Engine {
            name: "Slowfuse",
            nodes: 20_000,
        };
        assert!(
            engine_analysis::record_position(&mut conn, clock.now(), "doomed", g, &engine, &start)
                .unwrap()
        );
        drop(conn);
        let r = app.get(&analysis_path(g), None);
        assert_eq!(r.body["status"], "running");
        assert_eq!(r.body["progress"], 20, "one of five positions");
        // Within its lease nobody else takes it.
        assert!(analysis_pass(app, "rescuer").is_empty());
        // After the lease, the next worker goes on from where it stopped.
        clock.advance(chrono::Duration::seconds(
            engine_analysis::LEASE_SECONDS + 1,
        ));
        assert_eq!(analysis_pass(app, "rescuer"), vec![g]);
        let r = app.get(&analysis_path(g), None);
        assert_eq!(r.body["status"], "done");
        let plies = r.body["plies"].as_array().unwrap();
        assert_eq!(plies.len(), 5);
        assert_eq!(plies[0]["nodes"], 99, "the dead worker's position is kept");
        // The dead worker, back, cannot write over the new one's work.
        let mut conn = app.state.pool.get().unwrap();
        assert!(
            !engine_analysis::record_position(&mut conn, clock.now(), "doomed", g, &engine, &start)
                .unwrap()
        );
    }

    fn rated(app: &TestApp, white: &str, black: &str) -> i64 {
        let (w, b) = (app.user(white), app.user(black));
        let g = app.game_from(
            &w,
            &b,
            json!({"variant": "atomic", "color": "white", "days_per_move": 3, "rated": true}),
        );
        // Atomic: the knight's capture on f7 blows up Black's king.
        app.play_all(g, &w, &b, &["g1f3", "g8f6", "f3e5", "e7e6", "e5f7"]);
        g
    }

    fn rated_games_are_analysed_as_they_end_when_the_setting_says_so(
        app: &TestApp,
        _clock: &FixedClock,
    ) {
        let g = rated(app, "quinn", "rosa");
        assert_eq!(
            app.get(&format!("/api/v1/games/{g}"), None).body["status"],
            "finished"
        );
        assert_eq!(analysis_pass(app, "auto"), vec![g]);
        let r = app.get(&analysis_path(g), None);
        assert_eq!(r.body["status"], "done", "{}", r.body);
        assert_eq!(r.body["plies"].as_array().unwrap().len(), 6);
        // The explosion ends the game: White has won.
        assert!(r.body["plies"][5]["eval_cp"].as_i64().unwrap() > 0);
    }

    fn without_the_setting_rated_games_wait_to_be_asked_for(app: &TestApp, _clock: &FixedClock) {
        let g = rated(app, "sam", "tess");
        assert!(analysis_pass(app, "auto").is_empty());
        assert_eq!(app.get(&analysis_path(g), None).status, 404);
    }
}

// ---------- with an external UCI engine ----------

mod external {
    use super::*;

    /// Debian's Stockfish (`/usr/games/stockfish`); `None` (skip) when not installed, except
    /// under CI, where the test fails.
    fn stockfish() -> Option<String> {
        let path = std::path::Path::new("/usr/games/stockfish");
        if path.is_file() {
            return Some(path.display().to_string());
        }
        assert!(
            !common::under_ci(),
            "stockfish not installed; CI must run this test (apt-get install stockfish)"
        );
        eprintln!("SKIPPED: stockfish not installed");
        None
    }

    fn spawn_with_engine(backend: Backend, path: &str) -> Option<TestApp> {
        spawn_app_with_env(
            backend,
            Options::default(),
            vec![
                ("SLOWFUSE__ANALYSIS__NODES".into(), "20000".into()),
                ("SLOWFUSE__ANALYSIS__UCI_PATH".into(), path.into()),
                ("SLOWFUSE__ANALYSIS__UCI_NODES".into(), "50000".into()),
                (
                    "SLOWFUSE__ANALYSIS__AUTOMATIC_FOR_RATED".into(),
                    "false".into(),
                ),
            ],
        )
    }

    macro_rules! with_stockfish {
        ($($name:ident),* $(,)?) => {
            mod sqlite {
                $(#[test] fn $name() {
                    let Some(path) = super::stockfish() else { return };
                    if let Some(app) = super::spawn_with_engine(super::Backend::Sqlite, &path) { super::$name(&app) }
                })*
            }
            mod postgres {
                $(#[test] fn $name() {
                    let Some(path) = super::stockfish() else { return };
                    if let Some(app) = super::spawn_with_engine(super::Backend::Postgres, &path) { super::$name(&app) }
                })*
            }
        };
    }

    with_stockfish!(the_configured_engine_analyses_its_variants_and_ours_the_others,);

    fn the_configured_engine_analyses_its_variants_and_ours_the_others(app: &TestApp) {
        let (g, w) = finished_game(app, "uma", "vic");
        assert_eq!(app.post(&analysis_path(g), Some(&w), json!({})).status, 202);
        // Atomic is not among the variants Stockfish is named for: ours judges it.
        let (w2, b2) = (app.user("wes"), app.user("xia"));
        let atomic = app.game("atomic", &w2, &b2);
        app.play_all(atomic, &w2, &b2, &["g1f3", "g8f6", "f3e5", "e7e6", "e5f7"]);
        assert_eq!(
            app.post(&analysis_path(atomic), Some(&w2), json!({}))
                .status,
            202
        );
        let mut done = analysis_pass(app, "uci");
        done.sort_unstable();
        assert_eq!(done, vec![g, atomic]);

        let a = app.get(&analysis_path(g), None).body;
        assert_eq!(a["status"], "done", "{a}");
        assert!(
            a["engine"].as_str().unwrap().starts_with("Stockfish"),
            "{a}"
        );
        assert_eq!(a["nodes"], 50000);
        let plies = a["plies"].as_array().unwrap();
        assert_eq!(plies.len(), 5);
        assert_eq!(plies[3]["mate"], -1, "{}", plies[3]);
        assert_eq!(plies[3]["best_san"], "Qh4#");
        assert_eq!(plies[3]["judgement"], "blunder");
        assert_eq!(
            plies[4]["mate"], 0,
            "the mate on the board is read by our rules"
        );

        let a = app.get(&analysis_path(atomic), None).body;
        assert_eq!(a["status"], "done", "{a}");
        assert_eq!(a["engine"], "Slowfuse");
    }

    #[test]
    fn an_engine_that_does_not_start_leaves_the_analysis_to_ours() {
        let Some(app) = spawn_with_engine(Backend::Sqlite, "/nonexistent/engine") else {
            return;
        };
        let (g, w) = finished_game(&app, "yves", "zoe");
        assert_eq!(app.post(&analysis_path(g), Some(&w), json!({})).status, 202);
        assert_eq!(analysis_pass(&app, "uci"), vec![g]);
        let a = app.get(&analysis_path(g), None).body;
        assert_eq!(a["status"], "done");
        assert_eq!(a["engine"], "Slowfuse");
        assert_eq!(a["plies"][3]["judgement"], "blunder");
    }
}
