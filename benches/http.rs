//! HTTP benchmark: move submissions and game-page requests per second against the real server on SQLite and PostgreSQL, beside the bare web stack and the bare rules.
//!
//! Run with `cargo bench --bench http` (see `docs/benchmarks.md`). Settings, all optional:
//! `SLOWFUSE_BENCH_SECONDS` (per measurement, default 5), `SLOWFUSE_BENCH_CLIENTS` (concurrent
//! keep-alive clients, default 8), `SLOWFUSE_BENCH_POSTGRES` or else `SLOWFUSE_TEST_POSTGRES`
//! (a PostgreSQL server URL whose role may create databases), any `SLOWFUSE__SECTION__KEY`
//! server setting, and `RUST_LOG=error` to see the server's own errors. When `wrk` is on the
//! `PATH`, it measures the same GET URLs too.

use std::collections::BTreeMap;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::Command;
use std::sync::{Arc, Barrier, Mutex};
use std::time::{Duration, Instant};

use diesel::Connection;
use diesel::connection::SimpleConnection;
use serde_json::{Value, json};
use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::variant::Atomic;
use shakmaty::{Chess, Position};
use slowfuse::clock::SystemClock;
use slowfuse::config::Settings;
use slowfuse::random::SystemRandom;
use slowfuse::startup::Application;
use slowfuse_rules::{Game, STANDARD_START_FEN, Variant};

/// A quiet 40-ply line (no capture, no check, no position five times), legal in standard and
/// atomic chess alike; every benchmark game plays it from the start.
const LINE: [&str; 40] = [
    "e2e3", "e7e6", "g1f3", "g8f6", "b1c3", "b8c6", "a2a3", "a7a6", "h2h3", "h7h6", "b2b3", "b7b6",
    "g2g3", "g7g6", "f1g2", "f8g7", "c1b2", "c8b7", "d2d3", "d7d6", "e1g1", "e8g8", "d1d2", "d8d7",
    "a1e1", "a8e8", "f3h4", "f6h5", "c3e2", "c6e7", "g1h1", "g8h8", "f1g1", "f8g8", "e1f1", "e8f8",
    "d2c1", "d7c8", "c1d2", "c8d7",
];

/// The variant of the benchmark games: the flagship.
const VARIANT: &str = "atomic";

/// How long and how hard to measure.
#[derive(Clone, Copy)]
struct BenchConfig {
    seconds: f64,
    clients: usize,
}

impl BenchConfig {
    fn from_env() -> BenchConfig {
        let number = |name: &str, default: f64| {
            std::env::var(name)
                .ok()
                .and_then(|v| v.parse::<f64>().ok())
                .filter(|v| *v > 0.0)
                .unwrap_or(default)
        };
        BenchConfig {
            seconds: number("SLOWFUSE_BENCH_SECONDS", 5.0),
            clients: number("SLOWFUSE_BENCH_CLIENTS", 8.0).max(1.0) as usize,
        }
    }

    fn window(&self) -> Duration {
        Duration::from_secs_f64(self.seconds)
    }
}

fn main() {
    if !std::env::args().any(|a| a == "--bench") {
        println!("http benchmark: run it with `cargo bench --bench http`");
        return;
    }
    // Quiet unless asked: `RUST_LOG=error` shows the cause of any 500.
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("off")).init();
    let config = BenchConfig::from_env();
    let sans = line_sans();
    print_header(&config);
    let rules = rules_baselines(&config);
    let mut report = Report::default();
    for (name, postgres) in [("SQLite", None), ("PostgreSQL", postgres_server())] {
        if name == "PostgreSQL" && postgres.is_none() {
            println!("PostgreSQL skipped: set SLOWFUSE_BENCH_POSTGRES to a server URL\n");
            continue;
        }
        let at = chrono::Utc::now().format("%H:%M:%S");
        eprintln!("{at} benchmarking on {name}…");
        let server = Server::spawn(postgres.as_deref());
        let run = Run {
            addr: server.addr,
            db: name,
            config,
            sans: &sans,
        };
        run.measure(&mut report);
    }
    eprintln!("{} done", chrono::Utc::now().format("%H:%M:%S"));
    report.print(&rules);
    println!("load average at the end: {}", load_average());
}

/// The line in SAN, as a player types it; checks that the line is what `LINE` promises.
fn line_sans() -> Vec<String> {
    let ucis: Vec<String> = LINE.iter().map(|u| u.to_string()).collect();
    let mut sans = Vec::new();
    for variant in [Variant::Standard, Variant::Atomic] {
        let game = Game::replay(variant, STANDARD_START_FEN, &ucis).expect("the line is legal");
        assert!(!game.is_over(), "the line must not end the game");
        sans = game.moves().iter().map(|m| m.san.clone()).collect();
        assert!(
            sans.iter().all(|san| !san.contains(['x', '+', '#'])),
            "the line must be quiet"
        );
    }
    sans
}

fn postgres_server() -> Option<String> {
    ["SLOWFUSE_BENCH_POSTGRES", "SLOWFUSE_TEST_POSTGRES"]
        .iter()
        .filter_map(|name| std::env::var(name).ok())
        .find(|url| !url.is_empty())
}

// ---------------------------------------------------------------------------------------------
// The server under test

/// The real application, serving in this process on a port of its own.
struct Server {
    addr: SocketAddr,
    _database: Option<PgDatabase>,
    _dir: tempfile::TempDir,
}

/// A PostgreSQL database made for this run and dropped at its end.
struct PgDatabase {
    server: String,
    name: String,
}

impl PgDatabase {
    /// Creates an empty database; returns it with its URL.
    fn create(server: &str) -> (PgDatabase, String) {
        let name = format!("slowfuse_bench_{}", std::process::id());
        let mut admin = diesel::PgConnection::establish(server).expect("connect to PostgreSQL");
        // Two calls: neither statement may run inside a (multi-statement) transaction.
        admin
            .batch_execute(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
            .expect("drop a leftover benchmark database");
        admin
            .batch_execute(&format!("CREATE DATABASE {name}"))
            .expect("create the benchmark database");
        let (head, tail) = server.rsplit_once('/').expect("a URL ending in /dbname");
        let query = tail.split_once('?').map(|(_, q)| format!("?{q}"));
        let url = format!("{head}/{name}{}", query.unwrap_or_default());
        let server = server.to_string();
        (PgDatabase { server, name }, url)
    }
}

impl Drop for PgDatabase {
    fn drop(&mut self) {
        // FORCE closes the pool's connections, which outlive the measurements.
        let sql = format!("DROP DATABASE IF EXISTS {} WITH (FORCE)", self.name);
        let dropped = diesel::PgConnection::establish(&self.server)
            .map_err(|e| e.to_string())
            .and_then(|mut admin| admin.batch_execute(&sql).map_err(|e| e.to_string()));
        if let Err(e) = dropped {
            eprintln!("could not drop database {}: {e}", self.name);
        }
    }
}

impl Server {
    /// Starts the app with its built-in defaults (plus any `SLOWFUSE__*` from the
    /// environment) on 127.0.0.1:0, against a fresh SQLite file or PostgreSQL database.
    fn spawn(postgres: Option<&str>) -> Server {
        let dir = tempfile::tempdir().expect("temp dir");
        let (database, url) = match postgres {
            Some(server) => {
                let (db, url) = PgDatabase::create(server);
                (Some(db), url)
            }
            None => (
                None,
                format!("sqlite://{}", dir.path().join("bench.db").display()),
            ),
        };
        let mut env: Vec<(String, String)> = std::env::vars()
            .filter(|(k, _)| k.starts_with("SLOWFUSE__"))
            .collect();
        env.push(("DATABASE_URL".into(), url));
        env.push(("SLOWFUSE__SERVER__BIND".into(), "127.0.0.1:0".into()));
        let data_dir = dir.path().display().to_string();
        env.push(("SLOWFUSE__SERVER__DATA_DIR".into(), data_dir));
        // The temp dir holds no TOML: only the built-in defaults and the environment apply.
        let settings = Settings::load_from(dir.path(), env).expect("settings");
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            actix_web::rt::System::new().block_on(async move {
                let app =
                    Application::build(settings, Arc::new(SystemClock), Arc::new(SystemRandom))
                        .expect("build app");
                tx.send(app.port()).expect("report the port");
                let _ = app.run_until_stopped().await;
            })
        });
        let port = rx.recv().expect("the app started");
        Server {
            addr: SocketAddr::from(([127, 0, 0, 1], port)),
            _database: database,
            _dir: dir,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// A minimal keep-alive HTTP/1.1 client: light enough not to steal much of the server's CPU.

/// One response: status, whether it set a cookie, body.
struct Reply {
    status: u16,
    sets_cookie: bool,
    body: Vec<u8>,
}

impl Reply {
    fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or(Value::Null)
    }

    fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).trim().to_string()
    }
}

/// A keep-alive connection, one request at a time, as a browser tab or an API client.
struct Http {
    addr: SocketAddr,
    conn: Option<BufReader<TcpStream>>,
}

impl Http {
    fn new(addr: SocketAddr) -> Http {
        Http { addr, conn: None }
    }

    /// Sends one request, reconnecting once if the server closed the connection; a
    /// transport failure is reported as status 0.
    fn send(
        &mut self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<&Value>,
    ) -> Reply {
        let body = body.map(Value::to_string).unwrap_or_default();
        let mut request = format!("{method} {path} HTTP/1.1\r\nHost: {}\r\n", self.addr);
        if let Some(token) = token {
            request.push_str(&format!("Authorization: Bearer {token}\r\n"));
        }
        if method == "POST" {
            request.push_str("Content-Type: application/json\r\n");
            request.push_str(&format!("Content-Length: {}\r\n", body.len()));
        }
        request.push_str("\r\n");
        request.push_str(&body);
        for _ in 0..2 {
            match self.exchange(request.as_bytes()) {
                Ok(reply) => return reply,
                Err(_) => self.conn = None,
            }
        }
        let body = b"connection failed".to_vec();
        Reply {
            status: 0,
            sets_cookie: false,
            body,
        }
    }

    fn exchange(&mut self, request: &[u8]) -> io::Result<Reply> {
        if self.conn.is_none() {
            let stream = TcpStream::connect(self.addr)?;
            stream.set_nodelay(true)?;
            self.conn = Some(BufReader::with_capacity(64 * 1024, stream));
        }
        let conn = self.conn.as_mut().expect("connected");
        conn.get_mut().write_all(request)?;
        let (reply, keep_alive) = read_reply(conn)?;
        if !keep_alive {
            self.conn = None;
        }
        Ok(reply)
    }
}

/// Reads a status line, headers and a body sized by `Content-Length` or chunked; says
/// whether the connection stays open.
fn read_reply(conn: &mut BufReader<TcpStream>) -> io::Result<(Reply, bool)> {
    let mut line = String::new();
    if conn.read_line(&mut line)? == 0 {
        return Err(io::ErrorKind::UnexpectedEof.into());
    }
    let status = line.split(' ').nth(1).and_then(|s| s.parse().ok());
    let (mut length, mut chunked, mut keep_alive, mut sets_cookie) = (None, false, true, false);
    loop {
        line.clear();
        conn.read_line(&mut line)?;
        let Some((name, value)) = line.trim_end().split_once(':') else {
            break;
        };
        let value = value.trim().to_ascii_lowercase();
        match name.to_ascii_lowercase().as_str() {
            "content-length" => length = value.parse::<usize>().ok(),
            "transfer-encoding" => chunked = value.contains("chunked"),
            "connection" => keep_alive = !value.contains("close"),
            "set-cookie" => sets_cookie = true,
            _ => {}
        }
    }
    let mut body = Vec::new();
    if chunked {
        read_chunks(conn, &mut body)?;
    } else if let Some(n) = length {
        body.resize(n, 0);
        conn.read_exact(&mut body)?;
    } else {
        conn.read_to_end(&mut body)?;
        keep_alive = false;
    }
    let status = status.unwrap_or(0);
    let reply = Reply {
        status,
        sets_cookie,
        body,
    };
    Ok((reply, keep_alive))
}

fn read_chunks(conn: &mut BufReader<TcpStream>, body: &mut Vec<u8>) -> io::Result<()> {
    let mut line = String::new();
    loop {
        line.clear();
        conn.read_line(&mut line)?;
        let size = line.trim().split(';').next().unwrap_or("");
        let size = usize::from_str_radix(size, 16).map_err(io::Error::other)?;
        if size == 0 {
            // Skip any trailers, up to the empty line.
            while {
                line.clear();
                conn.read_line(&mut line)? > 0 && !line.trim().is_empty()
            } {}
            return Ok(());
        }
        let start = body.len();
        body.resize(start + size, 0);
        conn.read_exact(&mut body[start..])?;
        line.clear();
        conn.read_line(&mut line)?;
    }
}

// ---------------------------------------------------------------------------------------------
// Counting

/// What one or more clients saw: successes with their latencies, failures by status.
#[derive(Default)]
struct Tally {
    latencies_us: Vec<u32>,
    errors: BTreeMap<u16, u64>,
    first_error: Option<String>,
}

impl Tally {
    /// Counts one reply; true when it has the expected status.
    fn record(&mut self, reply: &Reply, started: Instant, ok_status: u16) -> bool {
        if reply.status == ok_status {
            let us = started.elapsed().as_micros().min(u128::from(u32::MAX)) as u32;
            self.latencies_us.push(us);
            return true;
        }
        *self.errors.entry(reply.status).or_default() += 1;
        if self.first_error.is_none() {
            self.first_error = Some(format!("{} {}", reply.status, reply.text()));
        }
        false
    }

    fn merge(&mut self, other: Tally) {
        self.latencies_us.extend(other.latencies_us);
        for (status, n) in other.errors {
            *self.errors.entry(status).or_default() += n;
        }
        self.first_error = self.first_error.take().or(other.first_error);
    }

    fn errors_text(&self) -> String {
        if self.errors.is_empty() {
            return "0".into();
        }
        let parts: Vec<String> = self
            .errors
            .iter()
            .map(|(s, n)| format!("{n}×{s}"))
            .collect();
        parts.join(", ")
    }
}

/// One line of the results table.
struct Row {
    database: &'static str,
    what: String,
    client: String,
    per_second: f64,
    mean_ms: f64,
    p50_ms: f64,
    p99_ms: f64,
    failures: String,
}

impl Row {
    fn from_tally(
        run: &Run,
        what: &str,
        clients: usize,
        mut tally: Tally,
        elapsed: Duration,
    ) -> Row {
        let lat = &mut tally.latencies_us;
        lat.sort_unstable();
        let quantile = |q: f64| {
            let index = ((lat.len() as f64 * q) as usize).min(lat.len().saturating_sub(1));
            lat.get(index).map_or(0.0, |&us| f64::from(us) / 1000.0)
        };
        let mean = lat.iter().map(|&us| f64::from(us)).sum::<f64>() / lat.len().max(1) as f64;
        if let Some(e) = &tally.first_error {
            eprintln!("  {} {what}: first failure: {}", run.db, truncate(e, 300));
        }
        Row {
            database: run.db,
            what: what.to_string(),
            client: format!("bench ×{clients}"),
            per_second: lat.len() as f64 / elapsed.as_secs_f64(),
            mean_ms: mean / 1000.0,
            p50_ms: quantile(0.50),
            p99_ms: quantile(0.99),
            failures: tally.errors_text(),
        }
    }
}

fn truncate(text: &str, max: usize) -> String {
    text.chars().take(max).collect()
}

/// Everything measured, printed at the end.
#[derive(Default)]
struct Report {
    rows: Vec<Row>,
    /// What each GET answered: database, request, bytes, whether it set a cookie.
    responses: Vec<(&'static str, String, usize, bool)>,
    /// Notes on the runs (games made during a window, and the like).
    notes: Vec<String>,
}

/// Setup requests answered 500 and retried, by route, with the first answer: the server
/// should never do that, so the report says so.
static SETUP_FAILURES: Mutex<BTreeMap<String, (u64, String)>> = Mutex::new(BTreeMap::new());

// ---------------------------------------------------------------------------------------------
// Driving the server

/// One database's measurements: where the server is and how to load it.
struct Run<'a> {
    addr: SocketAddr,
    db: &'static str,
    config: BenchConfig,
    sans: &'a [String],
}

/// The two players of one client thread: their API tokens.
struct Pair {
    white: String,
    black: String,
}

/// POSTs a setup request that must answer 201, retrying on a 500 (which is recorded).
fn post_created(http: &mut Http, path: &str, token: Option<&str>, body: &Value) -> Value {
    for _ in 0..10 {
        let reply = http.send("POST", path, token, Some(body));
        match reply.status {
            201 => return reply.json(),
            500 => {
                let route: String = path
                    .split('/')
                    .map(|part| match part.parse::<i64>() {
                        Ok(_) => "{id}",
                        Err(_) => part,
                    })
                    .collect::<Vec<_>>()
                    .join("/");
                let mut failures = SETUP_FAILURES.lock().expect("not poisoned");
                let entry = failures.entry(format!("POST {route}")).or_default();
                entry.0 += 1;
                if entry.1.is_empty() {
                    entry.1 = reply.text();
                }
            }
            status => panic!("POST {path}: {status} {}", reply.text()),
        }
    }
    panic!("POST {path}: 500 ten times in a row")
}

/// Signs a user up and returns an API token for them.
fn user_token(http: &mut Http, name: &str) -> String {
    let password = "correct horse battery staple";
    let email = format!("{name}@example.com");
    let account = json!({"username": name, "email": email, "password": password});
    post_created(http, "/api/v1/accounts", None, &account);
    let login = json!({"username": name, "password": password, "label": "bench"});
    let token = post_created(http, "/api/v1/tokens", None, &login);
    token["token"].as_str().expect("a token").to_string()
}

/// Starts a game between the pair (white challenges, black accepts); returns its id.
fn new_game(http: &mut Http, pair: &Pair) -> i64 {
    let challenge = json!({"variant": VARIANT, "color": "white", "days_per_move": 3});
    let created = post_created(http, "/api/v1/challenges", Some(&pair.white), &challenge);
    let id = created["id"].as_i64().expect("challenge id");
    let path = format!("/api/v1/challenges/{id}/accept");
    let accepted = post_created(http, &path, Some(&pair.black), &json!({}));
    accepted["game_id"].as_i64().expect("game id")
}

/// Plays the line in `game` until it ends or `deadline` passes; a refused move is retried
/// twice, then the game is given up. Returns whether the whole line was played.
fn play_line(
    http: &mut Http,
    pair: &Pair,
    (game, sans): (i64, &[String]),
    deadline: Option<Instant>,
    tally: &mut Tally,
) -> bool {
    let path = format!("/api/v1/games/{game}/moves");
    let (mut ply, mut failures) = (0, 0);
    while ply < sans.len() {
        if deadline.is_some_and(|d| Instant::now() >= d) {
            return false;
        }
        let token = if ply % 2 == 0 {
            &pair.white
        } else {
            &pair.black
        };
        let body = json!({"move": sans[ply], "ply": ply, "comment": null});
        let started = Instant::now();
        let reply = http.send("POST", &path, Some(token), Some(&body));
        if tally.record(&reply, started, 200) {
            ply += 1;
        } else {
            failures += 1;
            if failures >= 3 {
                return false;
            }
        }
    }
    true
}

impl Run<'_> {
    /// Everything measured against one running server.
    fn measure(&self, report: &mut Report) {
        let (pairs, page_game, rate) = self.warm_up();
        let clients = self.config.clients;
        for pairs in [&pairs[..1], &pairs[..]] {
            // Games for twice the warm-up rate (one client alone may reach most of it, as
            // SQLite serialises writers); more are made on the fly if they run out.
            let row = self.submit_moves(pairs, 2.0 * rate, report);
            report.rows.push(row);
            if clients == 1 {
                break;
            }
        }
        let targets = [
            (format!("/games/{page_game}"), "GET /games/{id} (page)"),
            (
                format!("/api/v1/games/{page_game}"),
                "GET /api/v1/games/{id}",
            ),
            ("/static/site.css".to_string(), "GET /static/site.css"),
        ];
        for (path, what) in targets {
            let reply = Http::new(self.addr).send("GET", &path, None, None);
            assert_eq!(reply.status, 200, "GET {path}: {}", reply.text());
            let facts = (
                self.db,
                what.to_string(),
                reply.body.len(),
                reply.sets_cookie,
            );
            report.responses.push(facts);
            report.rows.push(self.hammer(what, &path));
            report.rows.extend(self.wrk(what, &path));
        }
    }

    /// Makes each client's two users and plays one game through; returns the pairs, a game
    /// with the whole line on it, and the moves per second seen (to size the real runs).
    fn warm_up(&self) -> (Vec<Pair>, i64, f64) {
        let results: Vec<(Pair, i64, Duration)> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..self.config.clients)
                .map(|i| {
                    s.spawn(move || {
                        let mut http = Http::new(self.addr);
                        let pair = Pair {
                            white: user_token(&mut http, &format!("white{i}")),
                            black: user_token(&mut http, &format!("black{i}")),
                        };
                        let game = new_game(&mut http, &pair);
                        let started = Instant::now();
                        let mut tally = Tally::default();
                        let done = play_line(&mut http, &pair, (game, self.sans), None, &mut tally);
                        assert!(done, "warm-up game {game}: {:?}", tally.first_error);
                        (pair, game, started.elapsed())
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("warm-up"))
                .collect()
        });
        let slowest = results.iter().map(|r| r.2).max().unwrap_or_default();
        let moves = results.len() * self.sans.len();
        let rate = moves as f64 / slowest.as_secs_f64().max(1e-3);
        let page_game = results[0].1;
        (results.into_iter().map(|r| r.0).collect(), page_game, rate)
    }

    /// Move submissions: each pair's client plays the line in its own games for the window,
    /// moving on to a new game (made beforehand) whenever one is through.
    fn submit_moves(&self, pairs: &[Pair], expected_rate: f64, report: &mut Report) -> Row {
        let moves_needed = expected_rate * self.config.seconds;
        let games_each = (moves_needed / (self.sans.len() * pairs.len()) as f64).ceil() as usize;
        let barrier = Barrier::new(pairs.len() + 1);
        let (tally, made, elapsed) = std::thread::scope(|s| {
            let handles: Vec<_> = pairs
                .iter()
                .map(|pair| {
                    let barrier = &barrier;
                    s.spawn(move || {
                        let mut http = Http::new(self.addr);
                        let games: Vec<i64> = (0..=games_each)
                            .map(|_| new_game(&mut http, pair))
                            .collect();
                        barrier.wait();
                        self.play_until(&mut http, pair, games)
                    })
                })
                .collect();
            barrier.wait();
            let started = Instant::now();
            let mut all = Tally::default();
            let mut made = 0;
            for h in handles {
                let (tally, n) = h.join().expect("mover");
                all.merge(tally);
                made += n;
            }
            (all, made, started.elapsed())
        });
        if made > 0 {
            let note = format!(
                "{}: {made} games were made during a move window (2 requests each)",
                self.db
            );
            report.notes.push(note);
        }
        let what = "POST /api/v1/games/{id}/moves";
        Row::from_tally(self, what, pairs.len(), tally, elapsed)
    }

    /// Plays the prepared games one after another for the window; returns what was seen and
    /// how many games had to be made during it.
    fn play_until(&self, http: &mut Http, pair: &Pair, games: Vec<i64>) -> (Tally, usize) {
        let deadline = Instant::now() + self.config.window();
        let mut tally = Tally::default();
        let mut games = games.into_iter();
        let mut made = 0;
        while Instant::now() < deadline {
            let game = games.next().unwrap_or_else(|| {
                made += 1;
                new_game(http, pair)
            });
            play_line(http, pair, (game, self.sans), Some(deadline), &mut tally);
        }
        (tally, made)
    }

    /// GETs one path from every client, back to back, for the window.
    fn hammer(&self, what: &str, path: &str) -> Row {
        let clients = self.config.clients;
        let barrier = Barrier::new(clients + 1);
        let (tally, elapsed) = std::thread::scope(|s| {
            let handles: Vec<_> = (0..clients)
                .map(|_| {
                    let barrier = &barrier;
                    s.spawn(move || {
                        let mut http = Http::new(self.addr);
                        for _ in 0..20 {
                            http.send("GET", path, None, None);
                        }
                        barrier.wait();
                        let deadline = Instant::now() + self.config.window();
                        let mut tally = Tally::default();
                        while Instant::now() < deadline {
                            let started = Instant::now();
                            let reply = http.send("GET", path, None, None);
                            tally.record(&reply, started, 200);
                        }
                        tally
                    })
                })
                .collect();
            barrier.wait();
            let started = Instant::now();
            let mut all = Tally::default();
            for h in handles {
                all.merge(h.join().expect("reader"));
            }
            (all, started.elapsed())
        });
        Row::from_tally(self, what, clients, tally, elapsed)
    }

    /// The same GET with `wrk` (two threads, as many connections as clients), if installed.
    fn wrk(&self, what: &str, path: &str) -> Option<Row> {
        let clients = self.config.clients;
        let seconds = self.config.seconds.round().max(1.0) as u64;
        let output = Command::new("wrk")
            .arg(format!("-t{}", clients.min(2)))
            .arg(format!("-c{clients}"))
            .arg(format!("-d{seconds}s"))
            .arg("--latency")
            .arg(format!("http://{}{path}", self.addr))
            .output()
            .ok()?;
        let text = String::from_utf8_lossy(&output.stdout);
        let field = |prefix: &str| {
            text.lines()
                .map(str::trim)
                .find_map(|l| l.strip_prefix(prefix).map(|rest| rest.trim().to_string()))
        };
        let ms = |prefix: &str| {
            field(prefix)
                .and_then(|v| wrk_ms(v.split_whitespace().next()?))
                .unwrap_or(f64::NAN)
        };
        let Some(per_second) = field("Requests/sec:").and_then(|v| v.parse().ok()) else {
            eprintln!("  wrk printed nothing usable:\n{text}");
            return None;
        };
        let mut failures = Vec::new();
        if let Some(n) = field("Non-2xx or 3xx responses:") {
            failures.push(format!("{n}×non-2xx"));
        }
        if let Some(socket) = field("Socket errors:") {
            failures.push(format!("socket {socket}"));
        }
        Some(Row {
            database: self.db,
            what: what.to_string(),
            client: format!("wrk ×{clients}"),
            per_second,
            mean_ms: ms("Latency "),
            p50_ms: ms("50%"),
            p99_ms: ms("99%"),
            failures: if failures.is_empty() {
                "0".into()
            } else {
                failures.join(", ")
            },
        })
    }
}

/// Reads one of wrk's durations (`850.00us`, `1.23ms`, `1.02s`) as milliseconds.
fn wrk_ms(text: &str) -> Option<f64> {
    let split = text.find(|c: char| c.is_ascii_alphabetic())?;
    let (number, unit) = text.split_at(split);
    let number: f64 = number.parse().ok()?;
    Some(match unit {
        "us" => number / 1000.0,
        "ms" => number,
        "s" => number * 1000.0,
        "m" => number * 60_000.0,
        _ => return None,
    })
}

// ---------------------------------------------------------------------------------------------
// The bare rules, for comparison

/// Mean time of one call of `f`, calling it for about `budget`.
fn mean_time(budget: Duration, mut f: impl FnMut()) -> Duration {
    let started = Instant::now();
    let mut calls = 0u32;
    while calls < 10 || started.elapsed() < budget {
        f();
        calls += 1;
    }
    started.elapsed() / calls
}

/// Plays UCI moves on a bare shakmaty position (legality checked by `to_move`); with `san`,
/// also writes each move's SAN with its check suffix, as the rules crate stores it.
fn shakmaty_replay<P: Position + Default>(ucis: &[UciMove], san: bool) -> P {
    let mut pos = P::default();
    for uci in ucis {
        let m = uci.to_move(&pos).expect("legal");
        if san {
            std::hint::black_box(SanPlus::from_move_and_play_unchecked(&mut pos, m).to_string());
        } else {
            pos.play_unchecked(m);
        }
    }
    pos
}

/// Time to replay the line: with the rules crate (as every game request does) and bare.
fn rules_baselines(config: &BenchConfig) -> Vec<(String, Duration)> {
    let budget = Duration::from_secs_f64((config.seconds / 5.0).clamp(0.2, 2.0));
    let strings: Vec<String> = LINE.iter().map(|u| u.to_string()).collect();
    let ucis: Vec<UciMove> = LINE.iter().map(|u| u.parse().expect("UCI")).collect();
    let mut rows = Vec::new();
    for (variant, plies) in [
        (Variant::Atomic, 40),
        (Variant::Atomic, 20),
        (Variant::Standard, 40),
    ] {
        let moves = &strings[..plies];
        let time = mean_time(budget, || {
            let game = Game::replay(variant, STANDARD_START_FEN, std::hint::black_box(moves));
            std::hint::black_box(game.expect("legal"));
        });
        let what = format!("slowfuse_rules `Game::replay`, {variant:?}, {plies} plies");
        rows.push((what, time));
    }
    for san in [false, true] {
        let how = if san { "+ SAN" } else { "" };
        let atomic = mean_time(budget, || {
            std::hint::black_box(shakmaty_replay::<Atomic>(&ucis, san));
        });
        rows.push((
            format!("shakmaty `Atomic`, UCI `to_move` + play {how}"),
            atomic,
        ));
        let chess = mean_time(budget, || {
            std::hint::black_box(shakmaty_replay::<Chess>(&ucis, san));
        });
        rows.push((
            format!("shakmaty `Chess`, UCI `to_move` + play {how}"),
            chess,
        ));
    }
    rows
}

// ---------------------------------------------------------------------------------------------
// Report

fn print_header(config: &BenchConfig) {
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|t| {
            let line = t.lines().find(|l| l.starts_with("model name"))?;
            Some(line.split_once(':')?.1.trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".into());
    let wrk = Command::new("wrk").arg("--version").output().is_ok();
    println!("# Slowfuse HTTP benchmark\n");
    println!(
        "- date: {}",
        chrono::Utc::now().format("%Y-%m-%d %H:%M UTC")
    );
    println!(
        "- machine: {cores} cores, {cpu}; load average at the start: {}",
        load_average()
    );
    println!(
        "- {} s per measurement, {} concurrent keep-alive clients, {VARIANT} games of one 40-ply line",
        config.seconds, config.clients
    );
    println!(
        "- wrk: {}\n",
        if wrk { "installed" } else { "not installed" }
    );
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|t| t.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".into())
}

impl Report {
    fn print(&self, rules: &[(String, Duration)]) {
        println!(
            "| database | request | client | per second | mean ms | p50 ms | p99 ms | failures |"
        );
        println!("|---|---|---|---:|---:|---:|---:|---|");
        for r in &self.rows {
            println!(
                "| {} | {} | {} | {:.0} | {:.2} | {:.2} | {:.2} | {} |",
                r.database,
                r.what,
                r.client,
                r.per_second,
                r.mean_ms,
                r.p50_ms,
                r.p99_ms,
                r.failures
            );
        }
        println!("\n| rules only: replay the line | µs per replay | replays per second |");
        println!("|---|---:|---:|");
        for (what, time) in rules {
            let us = time.as_secs_f64() * 1e6;
            println!("| {what} | {us:.1} | {:.0} |", 1e6 / us);
        }
        println!();
        for (db, what, bytes, cookie) in &self.responses {
            let cookie = if *cookie { ", sets a cookie" } else { "" };
            println!("- {db} {what}: {bytes} bytes{cookie}");
        }
        for note in &self.notes {
            println!("- {note}");
        }
        let failures = SETUP_FAILURES.lock().expect("not poisoned");
        for (route, (n, first)) in failures.iter() {
            let first = truncate(first, 200);
            println!("- setup: {route} answered 500 {n} times (retried; first: {first})");
        }
        println!();
    }
}
