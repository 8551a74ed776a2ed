//! HTTP benchmark: move submissions and game-page requests per second against the real server on SQLite and PostgreSQL, for short and long games, beside the bare web stack, the bare rules and (optionally) another build of the server.
//!
//! Run with `cargo bench --bench http` (see `docs/benchmarks.md`). Settings, all optional:
//! `SLOWFUSE_BENCH_SECONDS` (per measurement, default 5), `SLOWFUSE_BENCH_CLIENTS` (concurrent
//! keep-alive clients, default 8), `SLOWFUSE_BENCH_POSTGRES` or else `SLOWFUSE_TEST_POSTGRES`
//! (a PostgreSQL server URL whose role may create databases), `SLOWFUSE_BENCH_BINARY` (another
//! build's `slowfuse` binary, measured row by row beside this one) with
//! `SLOWFUSE_BENCH_BINARY_LABEL` (its name in the rows, default `other`), any
//! `SLOWFUSE__SECTION__KEY` server setting, and `RUST_LOG=error` to see the server's own
//! errors. When `wrk` is on the `PATH`, it measures the same GET URLs too.

use std::collections::BTreeMap;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
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
use slowfuse_rules::{Game, PlayedMove, STANDARD_START_FEN, Variant};

/// A quiet 40-ply line (no capture, no check, no position five times), legal in standard and
/// atomic chess alike; the short move rows and the 40-ply page play it from the start.
const LINE: [&str; 40] = [
    "e2e3", "e7e6", "g1f3", "g8f6", "b1c3", "b8c6", "a2a3", "a7a6", "h2h3", "h7h6", "b2b3", "b7b6",
    "g2g3", "g7g6", "f1g2", "f8g7", "c1b2", "c8b7", "d2d3", "d7d6", "e1g1", "e8g8", "d1d2", "d8d7",
    "a1e1", "a8e8", "f3h4", "f6h5", "c3e2", "c6e7", "g1h1", "g8h8", "f1g1", "f8g8", "e1f1", "e8f8",
    "d2c1", "d7c8", "c1d2", "c8d7",
];

/// The variant of the benchmark games: the flagship.
const VARIANT: &str = "atomic";

/// Length of the generated long line. The long move row brings its games to `LONG_FROM`
/// before the window, which then plays on towards `LONG_PLIES`.
const LONG_PLIES: usize = 600;
const LONG_FROM: usize = 300;

/// Lengths of the games (beginnings of the long line) whose page and JSON are measured beside
/// the 40-ply one; the first and the last are compared at the end.
const PAGE_PLIES: [usize; 3] = [20, 100, 300];

/// In the long line a pawn may move once the last pawn move is `PAWN_ALLOWED` plies back, and
/// must (when one can) from `PAWN_DUE` plies: the pawns, which cannot pass each other without
/// captures, then last the whole line, and the 75-move rule (150 plies) never ends it.
const PAWN_ALLOWED: u32 = 30;
const PAWN_DUE: u32 = 120;

/// The route of the move rows.
const MOVES: &str = "POST /api/v1/games/{id}/moves";

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
    let builds = Build::from_env();
    let lines = Lines::new();
    print_header(&config, &lines, &builds);
    let rules = rules_baselines(&config, &lines);
    let mut report = Report::default();
    for (name, postgres) in [("SQLite", None), ("PostgreSQL", postgres_server())] {
        if name == "PostgreSQL" && postgres.is_none() {
            println!("PostgreSQL skipped: set SLOWFUSE_BENCH_POSTGRES to a server URL\n");
            continue;
        }
        let at = chrono::Utc::now().format("%H:%M:%S");
        eprintln!("{at} benchmarking on {name}…");
        measure_database(
            name,
            postgres.as_deref(),
            (&builds, &lines),
            config,
            &mut report,
        );
    }
    eprintln!("{} done", chrono::Utc::now().format("%H:%M:%S"));
    report.print(&rules);
    report.print_game_lengths(&builds, config.clients);
    report.print_builds(&builds);
    println!("load average at the end: {}", load_average());
}

/// Starts each build's server on a fresh database, sets each up, then measures every row on
/// each build in turn (the other build first), so that both see the same moments of the run.
fn measure_database(
    db: &'static str,
    postgres: Option<&str>,
    (builds, lines): (&[Build], &Lines),
    config: BenchConfig,
    report: &mut Report,
) {
    let servers: Vec<Server> = builds
        .iter()
        .enumerate()
        .map(|(index, build)| Server::spawn(postgres, build, index))
        .collect();
    let runs: Vec<Run> = servers
        .iter()
        .zip(builds)
        .map(|(server, build)| Run {
            addr: server.addr,
            db,
            build: &build.label,
            config,
            lines,
        })
        .collect();
    let setups: Vec<Setup> = runs.iter().map(Run::set_up).collect();
    for step in steps(config.clients) {
        for (run, setup) in runs.iter().zip(&setups) {
            run.measure(step, setup, report);
        }
    }
}

fn postgres_server() -> Option<String> {
    ["SLOWFUSE_BENCH_POSTGRES", "SLOWFUSE_TEST_POSTGRES"]
        .iter()
        .filter_map(|name| std::env::var(name).ok())
        .find(|url| !url.is_empty())
}

// ---------------------------------------------------------------------------------------------
// The lines the games follow

/// The moves of the benchmark games, in SAN as players type them.
struct Lines {
    /// `LINE`, 40 plies.
    short: Vec<String>,
    /// The generated quiet line, `LONG_PLIES` plies.
    long: Vec<String>,
    /// The same in UCI, for the rules rows.
    long_ucis: Vec<String>,
    /// How the long line was made and what it holds, in words.
    long_facts: String,
}

impl Lines {
    fn new() -> Lines {
        let (seed, long_ucis) = (1..=1000)
            .find_map(|seed| Some((seed, quiet_walk(seed)?)))
            .expect("a seed up to 1000 yields a quiet line of LONG_PLIES plies");
        let (long, facts) = check_long_line(&long_ucis);
        Lines {
            short: line_sans(),
            long,
            long_ucis,
            long_facts: format!("seed {seed}, {facts}"),
        }
    }
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

/// A tiny linear congruential generator (Knuth's MMIX constants): the same choices on every
/// machine and in every run.
struct Lcg(u64);

impl Lcg {
    /// A number below `n`, which must not be 0, from the high bits of the next state.
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

/// Walks from the atomic start through quiet moves chosen by an `Lcg` seeded with `seed`,
/// skipping any move that would end the game; `None` if it reaches a position where no
/// candidate keeps the game going before `LONG_PLIES`.
fn quiet_walk(seed: u64) -> Option<Vec<String>> {
    let mut lcg = Lcg(seed);
    let mut game = Game::new(Variant::Atomic);
    while game.moves().len() < LONG_PLIES {
        let candidates = quiet_candidates(&game);
        let first = lcg.below(candidates.len().max(1));
        let mut tries = candidates.iter().cycle().skip(first).take(candidates.len());
        game = tries.find_map(|m| game.play_uci(&m.uci).ok().filter(|next| !next.is_over()))?;
    }
    Some(game.moves().iter().map(|m| m.uci.clone()).collect())
}

/// The moves the walk may take now: no capture and no check; pawn moves only from
/// `PAWN_ALLOWED` plies after the last one, and only they from `PAWN_DUE` on (if there is one).
fn quiet_candidates(game: &Game) -> Vec<PlayedMove> {
    let (pawn, piece): (Vec<PlayedMove>, Vec<PlayedMove>) = game
        .legal_moves()
        .into_iter()
        .filter(|m| !m.san.contains(['x', '+', '#']))
        .partition(|m| is_pawn_move(&m.san));
    let since_pawn = game.halfmove_clock();
    if since_pawn >= PAWN_DUE && !pawn.is_empty() {
        pawn
    } else if since_pawn >= PAWN_ALLOWED {
        [piece, pawn].concat()
    } else {
        piece
    }
}

/// A pawn move's SAN starts with its file; a piece's, and castling, with a capital.
fn is_pawn_move(san: &str) -> bool {
    san.starts_with(|c: char| c.is_ascii_lowercase())
}

/// Plays the long line ply by ply and checks what the benchmark relies on: legal, quiet (no
/// capture, no check), never over, no position five times, a pawn move within every 150
/// plies, and the same when replayed at once as the server does; returns its SAN and those
/// facts in words.
fn check_long_line(ucis: &[String]) -> (Vec<String>, String) {
    assert_eq!(ucis.len(), LONG_PLIES);
    let mut game = Game::new(Variant::Atomic);
    let (mut most_repeated, mut longest_pawnless, mut pawn_moves) = (1, 0, 0);
    for uci in ucis {
        game = game.play_uci(uci).expect("the long line is legal");
        let san = &game.moves().last().expect("a move was played").san;
        assert!(!game.is_over(), "the long line ends the game at {uci}");
        assert!(!san.contains(['x', '+', '#']), "the long line has {san}");
        most_repeated = most_repeated.max(game.repetition_count());
        longest_pawnless = longest_pawnless.max(game.halfmove_clock());
        pawn_moves += usize::from(is_pawn_move(san));
    }
    assert!(most_repeated < 5, "a position occurs {most_repeated} times");
    assert!(
        longest_pawnless < 150,
        "{longest_pawnless} plies without a pawn move"
    );
    let replayed = Game::replay(Variant::Atomic, STANDARD_START_FEN, ucis).expect("replayable");
    assert_eq!(replayed.moves(), game.moves());
    assert!(!replayed.is_over());
    let sans = game.moves().iter().map(|m| m.san.clone()).collect();
    let repeated = match most_repeated {
        1 => "no position twice".to_string(),
        n => format!("no position more than {n} times"),
    };
    let facts = format!(
        "{pawn_moves} pawn moves, at most {longest_pawnless} plies without one, {repeated}"
    );
    (sans, facts)
}

// ---------------------------------------------------------------------------------------------
// The servers under test

/// A build of the server to measure.
struct Build {
    /// Its name in the rows: `this`, or the other build's label.
    label: String,
    /// The binary to start as a child process; `None`: this build, inside the benchmark.
    binary: Option<PathBuf>,
}

impl Build {
    /// The builds to measure, in the order each row is measured. With `SLOWFUSE_BENCH_BINARY`,
    /// that binary (labelled by `SLOWFUSE_BENCH_BINARY_LABEL`, else `other`) and then this
    /// build's own binary, both as child processes so that they run alike; without it, this
    /// build alone, inside the benchmark's process.
    fn from_env() -> Vec<Build> {
        let this = |binary| Build {
            label: "this".into(),
            binary,
        };
        let Some(other) = std::env::var_os("SLOWFUSE_BENCH_BINARY").filter(|p| !p.is_empty())
        else {
            return vec![this(None)];
        };
        let other = PathBuf::from(other);
        assert!(
            other.is_file(),
            "SLOWFUSE_BENCH_BINARY: no file at {}",
            other.display()
        );
        let label = std::env::var("SLOWFUSE_BENCH_BINARY_LABEL")
            .ok()
            .filter(|l| !l.is_empty() && l != "this")
            .unwrap_or_else(|| "other".into());
        let own = PathBuf::from(env!("CARGO_BIN_EXE_slowfuse"));
        vec![
            Build {
                label,
                binary: Some(other),
            },
            this(Some(own)),
        ]
    }

    fn describe(&self) -> String {
        match &self.binary {
            None => format!("`{}`: in the benchmark's process", self.label),
            Some(path) => format!("`{}`: {}", self.label, path.display()),
        }
    }
}

/// One build's server, serving on a port of its own against a fresh database, until dropped.
struct Server {
    addr: SocketAddr,
    // Fields drop in order: the process ends before its database and directory go.
    _child: Option<ChildServer>,
    _database: Option<PgDatabase>,
    _dir: tempfile::TempDir,
}

/// A PostgreSQL database made for this run and dropped at its end.
struct PgDatabase {
    server: String,
    name: String,
}

impl PgDatabase {
    /// Creates an empty database named `name`; returns it with its URL.
    fn create(server: &str, name: String) -> (PgDatabase, String) {
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
    /// Starts `build` with its built-in defaults (plus any `SLOWFUSE__*` from the
    /// environment) against a fresh SQLite file or PostgreSQL database (the `index`-th of
    /// this run).
    fn spawn(postgres: Option<&str>, build: &Build, index: usize) -> Server {
        let dir = tempfile::tempdir().expect("temp dir");
        let (database, url) = match postgres {
            Some(server) => {
                let name = format!("slowfuse_bench_{}_{index}", std::process::id());
                let (db, url) = PgDatabase::create(server, name);
                (Some(db), url)
            }
            None => (
                None,
                format!("sqlite://{}", dir.path().join("bench.db").display()),
            ),
        };
        let (child, addr) = match &build.binary {
            None => {
                let env = server_env(url, dir.path(), "127.0.0.1:0".into());
                (None, serve_in_process(dir.path(), env))
            }
            Some(binary) => {
                let addr = free_local_addr();
                let env = server_env(url, dir.path(), addr.to_string());
                let child = ChildServer::start(binary, dir.path(), env, addr);
                (Some(child), addr)
            }
        };
        Server {
            addr,
            _child: child,
            _database: database,
            _dir: dir,
        }
    }
}

/// The server's environment: the `SLOWFUSE__*` settings of ours, then the database, the
/// address and the data directory of this run.
fn server_env(url: String, dir: &Path, bind: String) -> Vec<(String, String)> {
    let mut env: Vec<(String, String)> = std::env::vars()
        .filter(|(k, _)| k.starts_with("SLOWFUSE__"))
        .collect();
    env.push(("DATABASE_URL".into(), url));
    env.push(("SLOWFUSE__SERVER__BIND".into(), bind));
    let data_dir = dir.display().to_string();
    env.push(("SLOWFUSE__SERVER__DATA_DIR".into(), data_dir));
    env
}

/// Runs this build's application on a thread of this process, exactly as the tests do;
/// returns where it listens.
fn serve_in_process(dir: &Path, env: Vec<(String, String)>) -> SocketAddr {
    // The temp dir holds no TOML: only the built-in defaults and the environment apply.
    let settings = Settings::load_from(dir, env).expect("settings");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        actix_web::rt::System::new().block_on(async move {
            let app = Application::build(settings, Arc::new(SystemClock), Arc::new(SystemRandom))
                .expect("build app");
            tx.send(app.port()).expect("report the port");
            let _ = app.run_until_stopped().await;
        })
    });
    let port = rx.recv().expect("the app started");
    SocketAddr::from(([127, 0, 0, 1], port))
}

/// A local address no one listens on now (the system's choice of a free port).
fn free_local_addr() -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a free port");
    listener.local_addr().expect("its address")
}

/// A `slowfuse serve` process, ended when dropped.
struct ChildServer {
    process: Child,
    binary: PathBuf,
}

impl ChildServer {
    /// Starts `binary serve` with `env` over ours, reading settings from `dir` (which holds no
    /// TOML) and logging as this benchmark does; returns once it answers on `addr`.
    fn start(binary: &Path, dir: &Path, env: Vec<(String, String)>, addr: SocketAddr) -> Self {
        let log = std::env::var("RUST_LOG").unwrap_or_else(|_| "off".into());
        let process = Command::new(binary)
            .arg("--config-dir")
            .arg(dir)
            .arg("serve")
            .current_dir(dir)
            .envs(env)
            .env("RUST_LOG", log)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("start {}: {e}", binary.display()));
        let mut server = ChildServer {
            process,
            binary: binary.to_path_buf(),
        };
        server.wait_until_answering(addr);
        server
    }

    /// Asks for the style sheet until it comes (the server migrates its database first).
    fn wait_until_answering(&mut self, addr: SocketAddr) {
        let started = Instant::now();
        let name = self.binary.display().to_string();
        loop {
            if let Some(status) = self.process.try_wait().expect("the child's status") {
                panic!("{name} ended ({status}) before answering on {addr}");
            }
            if Http::new(addr)
                .send("GET", "/static/site.css", None, None)
                .status
                == 200
            {
                return;
            }
            let waited = started.elapsed();
            assert!(
                waited < Duration::from_secs(60),
                "{name}: no answer in {waited:?}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for ChildServer {
    fn drop(&mut self) {
        if let Err(e) = self
            .process
            .kill()
            .and_then(|()| self.process.wait().map(drop))
        {
            eprintln!(
                "could not end {} ({}): {e}",
                self.binary.display(),
                self.process.id()
            );
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
    build: String,
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
            let at = format!("{} {} {what}", run.db, run.build);
            eprintln!("  {at}: first failure: {}", truncate(e, 300));
        }
        Row {
            database: run.db,
            build: run.build.to_string(),
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
    /// What each GET answered.
    responses: Vec<Response>,
    /// Notes on the runs (games made during a window, and the like).
    notes: Vec<String>,
}

/// The size of one GET's answer, and whether it set a cookie.
struct Response {
    database: &'static str,
    build: String,
    what: String,
    bytes: usize,
    sets_cookie: bool,
}

/// Setup requests answered 500 and retried, by route, with the first answer: the server
/// should never do that, so the report says so.
static SETUP_FAILURES: Mutex<BTreeMap<String, (u64, String)>> = Mutex::new(BTreeMap::new());

// ---------------------------------------------------------------------------------------------
// Driving the server

/// One build's measurements on one database: where its server is and how to load it.
struct Run<'a> {
    addr: SocketAddr,
    db: &'static str,
    build: &'a str,
    config: BenchConfig,
    lines: &'a Lines,
}

/// What a run makes before it measures.
struct Setup {
    /// Each client's two players.
    pairs: Vec<Pair>,
    /// Moves per second seen in the warm-up, to size the move rows.
    rate: f64,
    /// A game holding the whole 40-ply line.
    short_game: i64,
    /// Games holding the first plies of the long line, by their number (`PAGE_PLIES`).
    long_games: BTreeMap<usize, i64>,
}

/// One measurement, made on every build in turn before the next.
#[derive(Clone, Copy)]
enum Step {
    /// The 40-ply line, by this many clients.
    ShortMoves(usize),
    /// Plies `LONG_FROM` and on of the long line, by all clients.
    LongMoves,
    /// A GET, by all clients.
    Get(Resource),
}

/// What the GET rows ask for.
#[derive(Clone, Copy)]
enum Resource {
    /// A game's HTML page: the 40-ply game (`None`) or that many plies of the long line.
    Page(Option<usize>),
    /// The same game as JSON.
    Json(Option<usize>),
    /// The style sheet: the web stack alone.
    StyleSheet,
}

impl Resource {
    /// The row's label: the request, and the game's length when it is not the 40-ply one.
    fn what(self) -> String {
        let plies = |n: Option<usize>| n.map(|n| format!(", {n} plies")).unwrap_or_default();
        match self {
            Resource::Page(n) => format!("GET /games/{{id}} (page){}", plies(n)),
            Resource::Json(n) => format!("GET /api/v1/games/{{id}}{}", plies(n)),
            Resource::StyleSheet => "GET /static/site.css".into(),
        }
    }

    fn path(self, setup: &Setup) -> String {
        let game = |n: Option<usize>| n.map_or(setup.short_game, |n| setup.long_games[&n]);
        match self {
            Resource::Page(n) => format!("/games/{}", game(n)),
            Resource::Json(n) => format!("/api/v1/games/{}", game(n)),
            Resource::StyleSheet => "/static/site.css".into(),
        }
    }

    /// wrk checks our client on the rows measured since the first run, not on every length.
    fn with_wrk(self) -> bool {
        !matches!(self, Resource::Page(Some(_)) | Resource::Json(Some(_)))
    }
}

/// Every measurement of a run, in order.
fn steps(clients: usize) -> Vec<Step> {
    let mut steps = vec![Step::ShortMoves(1)];
    if clients > 1 {
        steps.push(Step::ShortMoves(clients));
    }
    steps.push(Step::LongMoves);
    steps.push(Step::Get(Resource::Page(None)));
    steps.push(Step::Get(Resource::Json(None)));
    steps.extend(PAGE_PLIES.map(|n| Step::Get(Resource::Page(Some(n)))));
    steps.extend(PAGE_PLIES.map(|n| Step::Get(Resource::Json(Some(n)))));
    steps.push(Step::Get(Resource::StyleSheet));
    steps
}

/// The moves a move row plays in each of its games: `sans[plies]`, the plies before them
/// having been played before the window.
#[derive(Clone, Copy)]
struct Stretch<'a> {
    sans: &'a [String],
    from: usize,
}

impl Stretch<'_> {
    fn plies(&self) -> Range<usize> {
        self.from..self.sans.len()
    }

    fn what(&self) -> String {
        moves_label(self.from, self.sans.len())
    }
}

/// A move row's label: the route, and the plies when they do not start at the beginning.
fn moves_label(from: usize, to: usize) -> String {
    if from == 0 {
        return MOVES.into();
    }
    format!("{MOVES}, plies {from}–{to}")
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

/// Plays `plies` of `sans` in `game` until they are through or `deadline` passes; a refused
/// move is retried twice, then the game is given up. Returns whether all were played.
fn play_line(
    http: &mut Http,
    pair: &Pair,
    (game, sans, plies): (i64, &[String], Range<usize>),
    deadline: Option<Instant>,
    tally: &mut Tally,
) -> bool {
    let path = format!("/api/v1/games/{game}/moves");
    let (mut ply, mut failures) = (plies.start, 0);
    while ply < plies.end {
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

/// Starts a game between the pair and plays the first `plies` of `sans` in it (untimed).
fn game_at_ply(http: &mut Http, pair: &Pair, sans: &[String], plies: usize) -> i64 {
    let game = new_game(http, pair);
    let mut tally = Tally::default();
    let done = play_line(http, pair, (game, sans, 0..plies), None, &mut tally);
    assert!(done, "game {game} to ply {plies}: {:?}", tally.first_error);
    game
}

impl Run<'_> {
    /// Makes the players and the games to read, checking that the long ones hold what they
    /// should and go on.
    fn set_up(&self) -> Setup {
        let (pairs, short_game, rate) = self.warm_up();
        let mut http = Http::new(self.addr);
        let long_games: BTreeMap<usize, i64> = PAGE_PLIES
            .iter()
            .map(|&n| (n, game_at_ply(&mut http, &pairs[0], &self.lines.long, n)))
            .collect();
        for (&plies, game) in &long_games {
            let reply = http.send("GET", &format!("/api/v1/games/{game}"), None, None);
            let json = reply.json();
            let (ply, status) = (json["ply"].as_u64(), json["status"].as_str());
            assert_eq!(
                (ply, status),
                (Some(plies as u64), Some("started")),
                "{} {}: game {game} after {plies} plies: {}",
                self.db,
                self.build,
                truncate(&reply.text(), 300)
            );
        }
        Setup {
            pairs,
            rate,
            short_game,
            long_games,
        }
    }

    /// Makes each client's two users and plays one game of the 40-ply line through; returns
    /// the pairs, that game of the first client, and the moves per second seen (to size the
    /// move rows).
    fn warm_up(&self) -> (Vec<Pair>, i64, f64) {
        let sans = &self.lines.short[..];
        let results: Vec<(Pair, i64, Duration)> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..self.config.clients)
                .map(|i| {
                    s.spawn(move || {
                        let mut http = Http::new(self.addr);
                        let pair = Pair {
                            white: user_token(&mut http, &format!("white{i}")),
                            black: user_token(&mut http, &format!("black{i}")),
                        };
                        let started = Instant::now();
                        let game = game_at_ply(&mut http, &pair, sans, sans.len());
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
        let moves = results.len() * sans.len();
        let rate = moves as f64 / slowest.as_secs_f64().max(1e-3);
        let page_game = results[0].1;
        (results.into_iter().map(|r| r.0).collect(), page_game, rate)
    }

    /// Measures one step and adds its rows to the report.
    fn measure(&self, step: Step, setup: &Setup, report: &mut Report) {
        if !wanted(&step_label(step)) {
            return;
        }
        // Games for twice the warm-up rate (one client alone may reach most of it, as SQLite
        // serialises writers); more are made on the fly if they run out.
        let expected_rate = 2.0 * setup.rate;
        let (pairs, stretch) = match step {
            Step::Get(resource) => return self.measure_get(resource, setup, report),
            Step::ShortMoves(clients) => {
                let sans = &self.lines.short;
                (&setup.pairs[..clients], Stretch { sans, from: 0 })
            }
            Step::LongMoves => {
                let sans = &self.lines.long;
                (
                    &setup.pairs[..],
                    Stretch {
                        sans,
                        from: LONG_FROM,
                    },
                )
            }
        };
        let row = self.submit_moves(pairs, stretch, expected_rate, report);
        report.rows.push(row);
    }

    /// One GET row, and wrk's beside it where it applies.
    fn measure_get(&self, resource: Resource, setup: &Setup, report: &mut Report) {
        let (what, path) = (resource.what(), resource.path(setup));
        if !wanted(&what) {
            return;
        }
        let reply = Http::new(self.addr).send("GET", &path, None, None);
        let at = format!("{} {}", self.db, self.build);
        assert_eq!(reply.status, 200, "{at}: GET {path}: {}", reply.text());
        report.responses.push(Response {
            database: self.db,
            build: self.build.to_string(),
            what: what.clone(),
            bytes: reply.body.len(),
            sets_cookie: reply.sets_cookie,
        });
        report.rows.push(self.hammer(&what, &path));
        if resource.with_wrk() {
            report.rows.extend(self.wrk(&what, &path));
        }
    }

    /// Move submissions: each pair's client plays the stretch in its own games for the
    /// window, moving on to the next game (brought to the stretch's first ply beforehand)
    /// whenever one is through.
    fn submit_moves(
        &self,
        pairs: &[Pair],
        stretch: Stretch,
        expected_rate: f64,
        report: &mut Report,
    ) -> Row {
        let moves_needed = expected_rate * self.config.seconds;
        let per_game = stretch.plies().len() * pairs.len();
        let games_each = (moves_needed / per_game as f64).ceil() as usize;
        let barrier = Barrier::new(pairs.len() + 1);
        let (tally, made, elapsed) = std::thread::scope(|s| {
            let handles: Vec<_> = pairs
                .iter()
                .map(|pair| {
                    let barrier = &barrier;
                    s.spawn(move || {
                        let mut http = Http::new(self.addr);
                        let games: Vec<i64> = (0..=games_each)
                            .map(|_| game_at_ply(&mut http, pair, stretch.sans, stretch.from))
                            .collect();
                        barrier.wait();
                        self.play_until(&mut http, pair, stretch, games)
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
        let what = stretch.what();
        if made > 0 {
            let (db, build, from) = (self.db, self.build, stretch.from);
            let note = format!(
                "{db}, {build}, {what}: {made} games were made during the window \
                 (2 requests each, and {from} moves to reach ply {from})"
            );
            report.notes.push(note);
        }
        Row::from_tally(self, &what, pairs.len(), tally, elapsed)
    }

    /// Plays the prepared games one after another for the window; returns what was seen and
    /// how many games had to be made during it.
    fn play_until(
        &self,
        http: &mut Http,
        pair: &Pair,
        stretch: Stretch,
        games: Vec<i64>,
    ) -> (Tally, usize) {
        let deadline = Instant::now() + self.config.window();
        let mut tally = Tally::default();
        let mut games = games.into_iter();
        let mut made = 0;
        while Instant::now() < deadline {
            let game = games.next().unwrap_or_else(|| {
                made += 1;
                game_at_ply(http, pair, stretch.sans, stretch.from)
            });
            let line = (game, stretch.sans, stretch.plies());
            play_line(http, pair, line, Some(deadline), &mut tally);
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
            build: self.build.to_string(),
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

/// Time to replay the lines with the rules crate (as a request without the replay cache
/// would), and the 40-ply line on bare shakmaty.
fn rules_baselines(config: &BenchConfig, lines: &Lines) -> Vec<(String, Duration)> {
    let budget = Duration::from_secs_f64((config.seconds / 5.0).clamp(0.2, 2.0));
    let short: Vec<String> = LINE.iter().map(|u| u.to_string()).collect();
    let mut cases: Vec<(Variant, &[String], String)> = [
        (Variant::Atomic, 40),
        (Variant::Atomic, 20),
        (Variant::Standard, 40),
    ]
    .into_iter()
    .map(|(variant, plies)| (variant, &short[..plies], format!("{plies} plies")))
    .collect();
    for plies in PAGE_PLIES {
        let moves = &lines.long_ucis[..plies];
        cases.push((
            Variant::Atomic,
            moves,
            format!("{plies} plies of the long line"),
        ));
    }
    let mut rows = Vec::new();
    for (variant, moves, length) in cases {
        let time = mean_time(budget, || {
            let game = Game::replay(variant, STANDARD_START_FEN, std::hint::black_box(moves));
            std::hint::black_box(game.expect("legal"));
        });
        let what = format!("slowfuse_rules `Game::replay`, {variant:?}, {length}");
        rows.push((what, time));
    }
    rows.extend(shakmaty_baselines(budget));
    rows
}

/// The 40-ply line on bare shakmaty positions, without and with writing SAN.
fn shakmaty_baselines(budget: Duration) -> Vec<(String, Duration)> {
    let ucis: Vec<UciMove> = LINE.iter().map(|u| u.parse().expect("UCI")).collect();
    let mut rows = Vec::new();
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

fn print_header(config: &BenchConfig, lines: &Lines, builds: &[Build]) {
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
        "- {} s per measurement, {} concurrent keep-alive clients",
        config.seconds, config.clients
    );
    println!(
        "- {VARIANT} games: a fixed quiet {}-ply line; a quiet {LONG_PLIES}-ply line made from a \
         seeded random walk ({})",
        LINE.len(),
        lines.long_facts
    );
    println!("- this build: {}", git_describe());
    let described: Vec<String> = builds.iter().map(Build::describe).collect();
    println!(
        "- builds, each row measured on them in this order: {}",
        described.join("; ")
    );
    println!(
        "- wrk: {}\n",
        if wrk { "installed" } else { "not installed" }
    );
}

/// `git describe` of the working tree the benchmark was built from, if git can tell.
fn git_describe() -> String {
    Command::new("git")
        .args(["describe", "--always", "--dirty"])
        .output()
        .ok()
        .filter(|out| out.status.success())
        .map(|out| String::from_utf8_lossy(&out.stdout).trim().to_string())
        .unwrap_or_else(|| "unknown (no git)".into())
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|t| t.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".into())
}

/// `a ÷ b` with two decimals, or a dash when either is missing.
fn fraction(a: Option<f64>, b: Option<f64>) -> String {
    match (a, b) {
        (Some(a), Some(b)) if b > 0.0 => format!("{:.2}", a / b),
        _ => "–".into(),
    }
}

impl Report {
    fn print(&self, rules: &[(String, Duration)]) {
        println!(
            "| database | build | request | client | per second | mean ms | p50 ms | p99 ms | failures |"
        );
        println!("|---|---|---|---|---:|---:|---:|---:|---|");
        for r in &self.rows {
            println!(
                "| {} | {} | {} | {} | {:.0} | {:.2} | {:.2} | {:.2} | {} |",
                r.database,
                r.build,
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
        self.print_responses();
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

    /// Each answer's size once, with the runs that saw it unless that was every run.
    fn print_responses(&self) {
        let mut runs: Vec<(&str, &str)> = Vec::new();
        let mut sizes: Vec<(&str, usize, bool, Vec<String>)> = Vec::new();
        for r in &self.responses {
            let run = (r.database, r.build.as_str());
            if !runs.contains(&run) {
                runs.push(run);
            }
            let key = (r.what.as_str(), r.bytes, r.sets_cookie);
            let seen = format!("{} {}", r.database, r.build);
            match sizes.iter_mut().find(|s| (s.0, s.1, s.2) == key) {
                Some(size) => size.3.push(seen),
                None => sizes.push((key.0, key.1, key.2, vec![seen])),
            }
        }
        for (what, bytes, sets_cookie, seen) in sizes {
            let cookie = if sets_cookie { ", sets a cookie" } else { "" };
            let only = if seen.len() == runs.len() {
                String::new()
            } else {
                format!(" ({})", seen.join(", "))
            };
            println!("- {what}: {bytes} bytes{cookie}{only}");
        }
    }

    /// The rate of one row, if it was measured.
    fn rate(&self, database: &str, build: &str, what: &str, client: &str) -> Option<f64> {
        self.rows
            .iter()
            .find(|r| {
                (
                    r.database,
                    r.build.as_str(),
                    r.what.as_str(),
                    r.client.as_str(),
                ) == (database, build, what, client)
            })
            .map(|r| r.per_second)
    }

    fn databases(&self) -> Vec<&'static str> {
        let mut databases: Vec<&'static str> = self.rows.iter().map(|r| r.database).collect();
        databases.dedup();
        databases
    }

    /// Per database and build: the long game's rates as a fraction of the short one's.
    fn print_game_lengths(&self, builds: &[Build], clients: usize) {
        let client = format!("bench ×{clients}");
        let (short, long) = (PAGE_PLIES[0], PAGE_PLIES[PAGE_PLIES.len() - 1]);
        let long_moves = moves_label(LONG_FROM, LONG_PLIES);
        println!(
            "Long games against short ones, {client}: the rate for the long game as a fraction \
             of the rate for the short one (the aim: 0.80 or more)\n"
        );
        println!(
            "| database | build | page, {long} ÷ {short} plies | JSON, {long} ÷ {short} plies \
             | moves at plies {LONG_FROM}–{LONG_PLIES} ÷ 0–{} |",
            LINE.len()
        );
        println!("|---|---|---:|---:|---:|");
        for db in self.databases() {
            for build in builds {
                let rate = |what: String| self.rate(db, &build.label, &what, &client);
                let ratio = |long: Resource, short: Resource| {
                    fraction(rate(long.what()), rate(short.what()))
                };
                let page = ratio(Resource::Page(Some(long)), Resource::Page(Some(short)));
                let json = ratio(Resource::Json(Some(long)), Resource::Json(Some(short)));
                let moves = fraction(rate(long_moves.clone()), rate(MOVES.into()));
                println!("| {db} | {} | {page} | {json} | {moves} |", build.label);
            }
        }
        println!();
    }

    /// With two builds: every row of this build as a fraction of the same row of the other.
    fn print_builds(&self, builds: &[Build]) {
        let [other, this] = builds else {
            return;
        };
        let (other, this) = (&other.label, &this.label);
        println!(
            "This build against the other: the rate of `{this}` as a fraction of the rate of \
             `{other}` on the same row (above 1: `{this}` is faster)\n"
        );
        println!("| database | request | client | {this} ÷ {other} |");
        println!("|---|---|---|---:|");
        for r in self.rows.iter().filter(|r| &r.build == this) {
            let before = self.rate(r.database, other, &r.what, &r.client);
            let ratio = fraction(Some(r.per_second), before);
            println!("| {} | {} | {} | {ratio} |", r.database, r.what, r.client);
        }
        println!();
    }
}

/// Whether a row is measured: all of them, or with `SLOWFUSE_BENCH_ROWS=TEXT` only those whose
/// label holds TEXT (to look at one row, e.g. under a profiler).
fn wanted(label: &str) -> bool {
    std::env::var("SLOWFUSE_BENCH_ROWS").map_or(true, |only| label.contains(&only))
}

/// The label of a step's rows, for [`wanted`].
fn step_label(step: Step) -> String {
    match step {
        Step::Get(resource) => resource.what(),
        Step::ShortMoves(_) => "POST /api/v1/games/{id}/moves".to_string(),
        Step::LongMoves => format!("POST /api/v1/games/{{id}}/moves, plies {LONG_FROM}+"),
    }
}
