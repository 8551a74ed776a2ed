//! The server killed or stopped in the middle of work, run as its own process (the real
//! binary) on SQLite and on PostgreSQL, with a real SMTP server. SIGKILL during a load of
//! moves, conditional replies and mails: after a restart every move that got a 200 is there,
//! no game is half-written (a conditional reply is stored with the move it answers, or
//! neither is), every game plays on, and every queued mail goes out, none twice except the one
//! a killed worker may have been handing over (with the same Message-ID, which mail programs
//! take as the same mail). SIGTERM: the request in flight is answered, the worker finishes the
//! mail it holds, and the process ends by itself.

use crate::common;

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::server::ServerProcess;
use common::smtp::{PUBLIC_URL, SmtpSink, mail_settings};
use common::{Api, Backend, fresh_postgres_database, postgres_url, random_line};
use serde_json::{Value, json};
use slowfuse_rules::{Game, Variant};

/// Games played at once; half of them with the second player's moves coming from
/// conditional lines.
const GAMES: usize = 6;
/// Plies of each game's line (a conditional line holds at most 40 moves).
const PLIES: usize = 40;

/// One test's database, data directory and SMTP server, which outlive the server processes.
struct World {
    dir: tempfile::TempDir,
    database_url: String,
    sink: SmtpSink,
    sink_port: u16,
}

fn world(backend: Backend) -> Option<World> {
    let mut sink = SmtpSink::reserve()?;
    let dir = tempfile::tempdir().expect("temp dir");
    let database_url = match backend {
        Backend::Sqlite => format!("sqlite://{}", dir.path().join("crash.db").display()),
        Backend::Postgres => fresh_postgres_database(&postgres_url()?),
    };
    let sink_port = sink.port_for_app();
    sink.start();
    Some(World {
        dir,
        database_url,
        sink,
        sink_port,
    })
}

impl World {
    /// Starts a server on the world's database: the worker every second, mail through the
    /// SMTP server at once (no coalescing), the same secret key at every start.
    fn start(&self, port: Option<u16>) -> ServerProcess {
        let mut settings = vec![
            ("SLOWFUSE__SERVER__PUBLIC_URL", PUBLIC_URL.to_string()),
            ("SLOWFUSE__SERVER__WORKERS", "2".to_string()),
            (
                "SLOWFUSE__SERVER__SECRET_KEY",
                "crash-test-secret-key-of-enough-length".to_string(),
            ),
            ("SLOWFUSE__DATABASE__POOL_SIZE", "8".to_string()),
            ("SLOWFUSE__WORKER__ENABLED", "true".to_string()),
            ("SLOWFUSE__WORKER__INTERVAL_SECONDS", "1".to_string()),
            ("SLOWFUSE__MAIL__COALESCE_SECONDS", "0".to_string()),
        ];
        settings.extend(mail_settings(self.sink_port));
        ServerProcess::start(&self.database_url, self.dir.path(), port, &settings)
    }

    fn db(&self) -> slowfuse::db::PooledDb {
        let pool = slowfuse::db::connect(&slowfuse::config::DatabaseSettings {
            url: self.database_url.clone(),
            pool_size: 1,
            sqlite_busy_timeout_ms: 5000,
        })
        .expect("the test's own connection");
        pool.get().expect("a connection")
    }

    /// The outbox rows by status.
    fn outbox(&self) -> BTreeMap<String, Vec<(i64, Option<String>)>> {
        use diesel::prelude::*;
        use slowfuse::schema::outbox;
        let rows: Vec<(i64, String, Option<String>)> = outbox::table
            .select((outbox::id, outbox::status, outbox::message_id))
            .load(&mut **self.db())
            .expect("read the outbox");
        let mut by_status: BTreeMap<String, Vec<_>> = BTreeMap::new();
        for (id, status, message_id) in rows {
            by_status.entry(status).or_default().push((id, message_id));
        }
        by_status
    }

    /// Waits until no mail is pending; a row a killed worker had claimed waits for its lease,
    /// which is ended here as time would end it. Returns the rows it found held by a lease.
    fn settle_mail(&self) -> Vec<i64> {
        use diesel::prelude::*;
        use slowfuse::schema::outbox;
        let held: Vec<i64> = self
            .outbox()
            .get("sending")
            .map(|rows| rows.iter().map(|r| r.0).collect())
            .unwrap_or_default();
        if !held.is_empty() {
            let past = chrono::Utc::now().naive_utc() - chrono::Duration::seconds(1);
            diesel::update(outbox::table.filter(outbox::id.eq_any(&held)))
                .set(outbox::next_attempt_at.eq(past))
                .execute(&mut **self.db())
                .expect("end the lease");
        }
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let rows = self.outbox();
            if !rows.contains_key("pending") && !rows.contains_key("sending") {
                return held;
            }
            assert!(Instant::now() < deadline, "mail still waiting: {rows:?}");
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    /// Every mail the SMTP server received, counted by Message-ID.
    fn received(&self) -> HashMap<String, usize> {
        let mut counts = HashMap::new();
        for mail in self.sink.mails() {
            *counts.entry(mail.header("message-id")).or_insert(0) += 1;
        }
        counts
    }
}

/// One game of the load: its players, its line, and whether Black answers by conditional
/// lines (then only White sends moves).
struct Played {
    id: i64,
    white: String,
    black: String,
    line: Vec<String>,
    conditional: bool,
}

/// Signs up two players per game (their confirmation mails go out and the links are
/// opened, so that the moves' mails are sent too) and starts the games.
fn set_up(world: &World, api: &Api) -> Vec<Played> {
    let mut games = Vec::new();
    let mut names = Vec::new();
    for g in 0..GAMES {
        let (w, b) = (format!("white{g}"), format!("black{g}"));
        let (white, black) = (api.user(&w), api.user(&b));
        names.extend([w.clone(), b.clone()]);
        let id = api.game("standard", &white, &black);
        games.push(Played {
            id,
            white,
            black,
            line: random_line(g as u64 + 1, PLIES),
            conditional: g % 2 == 1,
        });
    }
    world.settle_mail();
    let client = reqwest::blocking::Client::new();
    for name in &names {
        let mail = world
            .sink
            .mails()
            .into_iter()
            .find(|m| m.is_to(name) && m.subject().contains("Confirm"))
            .unwrap_or_else(|| panic!("{name}'s confirmation mail"));
        let path = mail.link("/verify-email?token=");
        let url = path.replacen(PUBLIC_URL, &api.base, 1);
        let status = client.get(url).send().expect("confirm").status();
        assert_eq!(status, 200, "confirming {name}");
    }
    for game in games.iter().filter(|g| g.conditional) {
        // Black's lines answer every White move of the line: White alone moves from now on.
        let r = api.post_method(
            "PUT",
            &format!("/api/v1/games/{}/conditional", game.id),
            Some(&game.black),
            json!({"lines": game.line.join(" "), "ply": 0, "comment": null}),
        );
        assert_eq!(r.status, 200, "conditional lines: {}", r.body);
    }
    games
}

/// What the load got acknowledged: for each game, the moves of the last 200 answer.
type Acknowledged = Arc<Mutex<HashMap<i64, Vec<String>>>>;

/// Plays every game from its line, one thread per game, until the server stops answering or
/// the lines run out; every 200 answer's moves are kept.
fn load(base: &str, games: &[Played], running: &Arc<AtomicBool>) -> Acknowledged {
    let acknowledged: Acknowledged = Arc::default();
    let threads: Vec<_> = games
        .iter()
        .map(|game| {
            let (base, acknowledged, running) =
                (base.to_string(), acknowledged.clone(), running.clone());
            let (id, line, conditional) = (game.id, game.line.clone(), game.conditional);
            let (white, black) = (game.white.clone(), game.black.clone());
            std::thread::spawn(move || {
                let client = reqwest::blocking::Client::builder()
                    .timeout(Duration::from_secs(30))
                    .build()
                    .unwrap();
                let mut ply = 0;
                while ply < line.len() && running.load(Ordering::SeqCst) {
                    let token = if ply.is_multiple_of(2) {
                        &white
                    } else {
                        &black
                    };
                    let answer = client
                        .post(format!("{base}/api/v1/games/{id}/moves"))
                        .bearer_auth(token)
                        .json(&json!({"move": line[ply], "ply": ply}))
                        .send()
                        .and_then(|r| r.error_for_status())
                        .and_then(|r| r.json::<Value>());
                    let Ok(game) = answer else {
                        // Killed or stopping: no answer is no acknowledgement.
                        return;
                    };
                    let moves: Vec<String> = game["moves"]
                        .as_array()
                        .expect("moves")
                        .iter()
                        .map(|m| m.as_str().unwrap().to_string())
                        .collect();
                    let expected = if conditional { ply + 2 } else { ply + 1 };
                    assert_eq!(
                        moves.len(),
                        expected,
                        "the answer to ply {ply} of game {id}"
                    );
                    ply = moves.len();
                    acknowledged.lock().unwrap().insert(id, moves);
                }
            })
        })
        .collect();
    std::thread::spawn(move || {
        for t in threads {
            let _ = t.join();
        }
    });
    acknowledged
}

/// After a restart: every acknowledged move is stored, conditional games hold their replies
/// (an even number of plies), and every game takes its next move.
fn check_games(api: &Api, games: &[Played], acknowledged: &HashMap<i64, Vec<String>>) {
    let mut acked_moves = 0;
    for game in games {
        let r = api.get(&format!("/api/v1/games/{}", game.id), Some(&game.white));
        assert_eq!(
            r.status, 200,
            "game {} after the restart: {}",
            game.id, r.body
        );
        let stored: Vec<&str> = r.body["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap())
            .collect();
        let ply = r.body["ply"].as_u64().unwrap() as usize;
        assert_eq!(stored.len(), ply, "game {}: ply and moves agree", game.id);
        assert_eq!(
            stored[..],
            game.line[..ply],
            "game {}: the moves are the line's",
            game.id
        );
        if let Some(acked) = acknowledged.get(&game.id) {
            acked_moves += acked.len();
            assert!(
                stored.len() >= acked.len() && stored[..acked.len()] == acked[..],
                "game {}: an acknowledged move is missing: {acked:?} against {stored:?}",
                game.id
            );
        }
        if game.conditional {
            assert!(
                ply.is_multiple_of(2),
                "game {}: a move without its reply",
                game.id
            );
        }
        if ply < game.line.len() {
            let token = if ply.is_multiple_of(2) {
                &game.white
            } else {
                &game.black
            };
            let r = api.play(game.id, token, &game.line[ply], ply as i64);
            assert_eq!(r.status, 200, "game {} plays on: {}", game.id, r.body);
        }
    }
    assert!(acked_moves > 0, "the load had some moves acknowledged");
}

/// Every mail the outbox holds as sent reached the SMTP server; a Message-ID came twice only
/// for a row a killed worker held.
fn check_mail(world: &World, held: &[i64]) {
    let rows = world.outbox();
    let received = world.received();
    let sent = rows.get("sent").cloned().unwrap_or_default();
    assert!(!sent.is_empty(), "mails were sent: {rows:?}");
    for (id, message_id) in &sent {
        let message_id = message_id
            .as_deref()
            .expect("a sent row keeps its Message-ID");
        let times = received.get(message_id).copied().unwrap_or(0);
        assert!(times >= 1, "outbox row {id} ({message_id}) never arrived");
        assert!(
            times == 1 || (times == 2 && held.contains(id)),
            "outbox row {id} ({message_id}) arrived {times} times (rows held at the kill: {held:?})"
        );
    }
    let sent_ids: Vec<&str> = sent.iter().filter_map(|r| r.1.as_deref()).collect();
    for message_id in received.keys() {
        assert!(
            sent_ids.contains(&message_id.as_str()),
            "{message_id} arrived but its row is not marked sent"
        );
    }
}

fn sigkill_in_the_middle_of_moves_replies_and_mail_loses_nothing(backend: Backend) {
    let Some(world) = world(backend) else { return };
    let server = world.start(None);
    let api = server.api();
    let games = set_up(&world, &api);
    let running = Arc::new(AtomicBool::new(true));
    let acknowledged = load(&server.base(), &games, &running);
    // Let the load and the worker's mail run, then kill the server where it stands.
    let started = Instant::now();
    while acknowledged
        .lock()
        .unwrap()
        .values()
        .map(Vec::len)
        .sum::<usize>()
        < 3 * GAMES
        && started.elapsed() < Duration::from_secs(60)
    {
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(300));
    let port = server.port;
    server.kill();
    running.store(false, Ordering::SeqCst);
    // Answers already on their way are counted; then the record is closed.
    std::thread::sleep(Duration::from_millis(200));
    let acknowledged = acknowledged.lock().unwrap().clone();

    let server = world.start(Some(port));
    let api = server.api();
    check_games(&api, &games, &acknowledged);
    let held = world.settle_mail();
    eprintln!(
        "acknowledged moves: {}, mail rows held at the kill: {held:?}",
        acknowledged.values().map(Vec::len).sum::<usize>()
    );
    check_mail(&world, &held);
}

/// A PGN of many finished games: an import that takes a while.
fn long_import() -> String {
    let mut pgn = String::new();
    for g in 0..1500u64 {
        let ucis = random_line(1000 + g, PLIES);
        let mut game = Game::new(Variant::Standard);
        let mut text = String::new();
        for (i, uci) in ucis.iter().enumerate() {
            game = game.play(uci).unwrap();
            if i % 2 == 0 {
                text.push_str(&format!("{}. ", i / 2 + 1));
            }
            text.push_str(&game.moves().last().unwrap().san);
            text.push(' ');
        }
        pgn.push_str(&format!(
            "[Event \"Club\"]\n[Site \"Here\"]\n[Date \"2026.01.01\"]\n[Round \"{g}\"]\n[White \"A{g}\"]\n[Black \"B{g}\"]\n[Result \"1/2-1/2\"]\n\n{text}1/2-1/2\n\n"
        ));
    }
    pgn
}

fn sigterm_answers_the_request_in_flight_and_finishes_the_workers_mail(backend: Backend) {
    let Some(world) = world(backend) else { return };
    let server = world.start(None);
    let api = server.api();
    let games = set_up(&world, &api);
    let importer = api.logged_in("white0");
    let csrf = importer.csrf("/import");
    let pgn = long_import();
    let sent = Instant::now();
    let in_flight = std::thread::spawn(move || {
        let page = importer.post("/import", &[("csrf_token", &csrf), ("pgn", &pgn)]);
        (page, sent.elapsed())
    });
    // Moves keep the worker's mail busy while the import runs.
    let running = Arc::new(AtomicBool::new(true));
    let acknowledged = load(&server.base(), &games, &running);
    std::thread::sleep(Duration::from_millis(300));
    let port = server.port;
    let term_at = sent.elapsed();
    let (status, took) = server.terminate();
    running.store(false, Ordering::SeqCst);
    assert!(
        status.success(),
        "SIGTERM ends the server cleanly: {status}"
    );
    assert!(took < Duration::from_secs(60), "stopped in {took:?}");
    let (page, answered_at) = in_flight.join().expect("the import's thread");
    eprintln!(
        "SIGTERM at {term_at:?}, the import answered at {answered_at:?}, stopped in {took:?}"
    );
    assert!(
        answered_at > term_at,
        "the import was still running when SIGTERM came (make it longer)"
    );
    assert_eq!(page.status, 200, "the import in flight was answered");
    assert!(
        page.body.contains("Imported 1500, skipped 0"),
        "the import in flight ran to its end: {}",
        page.body
    );
    std::thread::sleep(Duration::from_millis(200));
    let acknowledged = acknowledged.lock().unwrap().clone();
    // No mail is left held by the stopped worker.
    let rows = world.outbox();
    assert!(
        !rows.contains_key("sending"),
        "a mail was left half-sent: {rows:?}"
    );

    let server = world.start(Some(port));
    let api = server.api();
    check_games(&api, &games, &acknowledged);
    let held = world.settle_mail();
    assert!(held.is_empty(), "no lease to wait for after a clean stop");
    check_mail(&world, &held);
}

mod sqlite {
    use super::*;

    #[test]
    fn sigkill_in_the_middle_of_moves_replies_and_mail_loses_nothing() {
        super::sigkill_in_the_middle_of_moves_replies_and_mail_loses_nothing(Backend::Sqlite);
    }

    #[test]
    fn sigterm_answers_the_request_in_flight_and_finishes_the_workers_mail() {
        super::sigterm_answers_the_request_in_flight_and_finishes_the_workers_mail(Backend::Sqlite);
    }
}

mod postgres {
    use super::*;

    #[test]
    fn sigkill_in_the_middle_of_moves_replies_and_mail_loses_nothing() {
        super::sigkill_in_the_middle_of_moves_replies_and_mail_loses_nothing(Backend::Postgres);
    }

    #[test]
    fn sigterm_answers_the_request_in_flight_and_finishes_the_workers_mail() {
        super::sigterm_answers_the_request_in_flight_and_finishes_the_workers_mail(
            Backend::Postgres,
        );
    }
}
