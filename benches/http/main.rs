//! HTTP benchmark: move submissions and game-page requests per second against the real server
//! on SQLite and PostgreSQL, for short and long games, by 1, 16 and 64 clients, beside the bare
//! limits of what it is built on (a SQLite commit loop, `pgbench -N`, an actix-web hello-world
//! answering the same bytes, the bare rules), with the server's CPU time and memory, and
//! (optionally) beside another build of the server.
//!
//! Run with `cargo bench --bench http` (see `docs/benchmarks.md`). Settings, all optional:
//! `SLOWFUSE_BENCH_SECONDS` (per measurement, default 5), `SLOWFUSE_BENCH_CLIENTS` (the numbers
//! of concurrent keep-alive clients, default `1,16,64`), `SLOWFUSE_BENCH_POSTGRES` or else
//! `SLOWFUSE_TEST_POSTGRES` (a PostgreSQL server URL whose role may create databases),
//! `SLOWFUSE_BENCH_BINARY` (another build's `slowfuse` binary, measured row by row beside this
//! one) with `SLOWFUSE_BENCH_BINARY_LABEL` (its name in the rows, default `other`),
//! `SLOWFUSE_BENCH_ROWS` (only the rows whose label holds this text), any
//! `SLOWFUSE__SECTION__KEY` server setting, and `RUST_LOG=error` to see the server's own
//! errors. When `wrk` is on the `PATH`, it measures some GET URLs too; when `pgbench` is, it
//! gives the PostgreSQL moves their limit.

mod bare;
mod client;
mod lines;
mod report;
mod rules;
mod servers;

use std::collections::{BTreeMap, HashMap};
use std::net::SocketAddr;
use std::ops::Range;
use std::process::Command;
use std::sync::Barrier;
use std::time::{Duration, Instant};

use actix_web::web::Bytes;
use serde_json::{Value, json};

use bare::{BareCommits, HelloWorld};
use client::{Http, Tally, run_clients};
use lines::Lines;
use report::{Report, Response, Row, SETUP_FAILURES, Usage, load_average, print_header, truncate};
use rules::rules_baselines;
use servers::{Build, CpuUsed, Server};

/// A quiet 40-ply line (no capture, no check, no position five times), legal in standard and
/// atomic chess alike; the short move rows and the 40-ply page play it from the start.
pub const LINE: [&str; 40] = [
    "e2e3", "e7e6", "g1f3", "g8f6", "b1c3", "b8c6", "a2a3", "a7a6", "h2h3", "h7h6", "b2b3", "b7b6",
    "g2g3", "g7g6", "f1g2", "f8g7", "c1b2", "c8b7", "d2d3", "d7d6", "e1g1", "e8g8", "d1d2", "d8d7",
    "a1e1", "a8e8", "f3h4", "f6h5", "c3e2", "c6e7", "g1h1", "g8h8", "f1g1", "f8g8", "e1f1", "e8f8",
    "d2c1", "d7c8", "c1d2", "c8d7",
];

/// The variant of the benchmark games: the flagship.
pub const VARIANT: &str = "atomic";

/// Length of the generated long line. The long move row brings its games to `LONG_FROM`
/// before the window, which then plays on towards `LONG_PLIES`.
pub const LONG_PLIES: usize = 600;
pub const LONG_FROM: usize = 300;

/// Lengths of the games (beginnings of the long line) whose page and JSON are measured beside
/// the 40-ply one; the first and the last are compared at the end.
pub const PAGE_PLIES: [usize; 3] = [20, 100, 300];

/// In the long line a pawn may move once the last pawn move is `PAWN_ALLOWED` plies back, and
/// must (when one can) from `PAWN_DUE` plies: the pawns, which cannot pass each other without
/// captures, then last the whole line, and the 75-move rule (150 plies) never ends it.
pub const PAWN_ALLOWED: u32 = 30;
pub const PAWN_DUE: u32 = 120;

/// The `build` of the hello-world's rows.
pub const HELLO_WORLD: &str = "hello-world";

/// When the servers' memory is read, in order.
pub const MEMORY_STAGES: [&str; 4] = [
    "just started",
    "after setup",
    "after the moves",
    "after the reads",
];

/// The route of the move rows.
pub const MOVES: &str = "POST /api/v1/games/{id}/moves";

/// How long and how hard to measure.
#[derive(Clone, Copy)]
pub struct BenchConfig {
    pub seconds: f64,
    /// The numbers of concurrent clients to measure with, from fewest to most.
    pub clients: &'static [usize],
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
        let clients = std::env::var("SLOWFUSE_BENCH_CLIENTS").unwrap_or_else(|_| "1,16,64".into());
        let mut clients: Vec<usize> = clients
            .split(',')
            .map(|n| match n.trim().parse::<usize>() {
                Ok(n) if n > 0 => n,
                _ => panic!("SLOWFUSE_BENCH_CLIENTS: {n:?} is not a number of clients"),
            })
            .collect();
        clients.sort_unstable();
        clients.dedup();
        BenchConfig {
            seconds: number("SLOWFUSE_BENCH_SECONDS", 5.0),
            clients: clients.leak(),
        }
    }

    /// The most clients measured with: the long moves and the comparisons of game lengths.
    pub fn most_clients(&self) -> usize {
        self.clients.last().copied().unwrap_or(1)
    }

    /// The numbers of clients the reads are measured with: all but one client, unless that is
    /// all there is (one reader says little about a server of many cores).
    fn reading_clients(&self) -> Vec<usize> {
        let many: Vec<usize> = self.clients.iter().copied().filter(|&n| n > 1).collect();
        if many.is_empty() {
            self.clients.to_vec()
        } else {
            many
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
    report.print_game_lengths(&builds, config.most_clients());
    report.print_limits(&config);
    report.print_memory();
    report.print_builds(&builds);
    println!("load average at the end: {}", load_average());
}

/// Starts each build's server on a fresh database, sets each up, then measures every row on
/// each build in turn (the other build first), so that both see the same moments of the run;
/// the bare limits once per row, between.
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
            server,
            db,
            build: &build.label,
            config,
            lines,
        })
        .collect();
    let note_memory = |report: &mut Report, stage: &'static str| {
        for run in &runs {
            let memory = run.server.memory();
            report
                .memory
                .push((db, run.build.to_string(), stage, memory));
        }
    };
    note_memory(report, MEMORY_STAGES[0]);
    let setups: Vec<Setup> = runs.iter().map(Run::set_up).collect();
    servers.iter().for_each(Server::settle);
    note_memory(report, MEMORY_STAGES[1]);
    let steps = steps(&config);
    let hello = steps
        .iter()
        .any(|step| matches!(step, Step::HelloWorld(r, _) if wanted(&r.what())))
        .then(|| HelloWorld::start(runs[0].bodies(&setups[0], &steps)));
    let mut bare = BareCommits::new(db, postgres);
    let mut moves_noted = false;
    for step in steps {
        if !moves_noted && matches!(step, Step::Get(..) | Step::HelloWorld(..)) {
            note_memory(report, MEMORY_STAGES[2]);
            moves_noted = true;
        }
        match step {
            Step::BareCommits(clients) => {
                if wanted(&step_label(step)) {
                    report.rows.extend(bare.measure(clients, config.window()));
                }
            }
            Step::HelloWorld(resource, clients) => {
                if let Some(hello) = hello.as_ref().filter(|_| wanted(&resource.what())) {
                    let path = format!("/{}", resource.slug());
                    let (tally, elapsed) = hammer(hello.addr, clients, config.window(), &path);
                    let build = (db, HELLO_WORLD);
                    let what = resource.what();
                    report
                        .rows
                        .push(Row::measured(build, &what, clients, tally, elapsed));
                }
            }
            step => {
                for (run, setup) in runs.iter().zip(&setups) {
                    run.measure(step, setup, report);
                }
            }
        }
    }
    note_memory(report, MEMORY_STAGES[3]);
}

fn postgres_server() -> Option<String> {
    ["SLOWFUSE_BENCH_POSTGRES", "SLOWFUSE_TEST_POSTGRES"]
        .iter()
        .filter_map(|name| std::env::var(name).ok())
        .find(|url| !url.is_empty())
}

// ---------------------------------------------------------------------------------------------
// Driving the server

/// One build's measurements on one database: its server and how to load it.
pub struct Run<'a> {
    pub server: &'a Server,
    pub db: &'static str,
    pub build: &'a str,
    pub config: BenchConfig,
    pub lines: &'a Lines,
}

/// What a run makes before it measures.
pub struct Setup {
    /// Each client's two players.
    pairs: Vec<Pair>,
    /// Moves per second seen in the warm-up, to size the move rows.
    rate: f64,
    /// A game holding the whole 40-ply line.
    short_game: i64,
    /// Games holding the first plies of the long line, by their number (`PAGE_PLIES`).
    long_games: BTreeMap<usize, i64>,
}

/// One measurement, made on every build in turn before the next (the bare ones once).
#[derive(Clone, Copy)]
enum Step {
    /// The 40-ply line, by this many clients.
    ShortMoves(usize),
    /// The bare database's commits, by this many clients.
    BareCommits(usize),
    /// Plies `LONG_FROM` and on of the long line, by the most clients.
    LongMoves,
    /// A GET, by this many clients.
    Get(Resource, usize),
    /// The same bytes from the actix-web hello-world, by this many clients.
    HelloWorld(Resource, usize),
}

/// What the GET rows ask for.
#[derive(Clone, Copy)]
pub enum Resource {
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

    /// Its path on the hello-world.
    fn slug(self) -> String {
        match self {
            Resource::Page(n) => format!("page-{}", n.unwrap_or(LINE.len())),
            Resource::Json(n) => format!("json-{}", n.unwrap_or(LINE.len())),
            Resource::StyleSheet => "css".into(),
        }
    }

    /// The content type the server answers it with.
    fn content_type(self) -> &'static str {
        match self {
            Resource::Page(_) => "text/html; charset=utf-8",
            Resource::Json(_) => "application/json",
            Resource::StyleSheet => "text/css; charset=utf-8",
        }
    }

    /// wrk checks our client on the rows measured since the first run, not on every length.
    fn with_wrk(self) -> bool {
        !matches!(self, Resource::Page(Some(_)) | Resource::Json(Some(_)))
    }
}

/// Every measurement of a run, in order: the moves by each number of clients with the bare
/// commits beside them, the long game's moves, then each read by each number of readers with
/// the hello-world beside it.
fn steps(config: &BenchConfig) -> Vec<Step> {
    let mut steps = Vec::new();
    for &clients in config.clients {
        steps.push(Step::ShortMoves(clients));
        steps.push(Step::BareCommits(clients));
    }
    steps.push(Step::LongMoves);
    let mut resources = vec![Resource::Page(None), Resource::Json(None)];
    resources.extend(PAGE_PLIES.map(|n| Resource::Page(Some(n))));
    resources.extend(PAGE_PLIES.map(|n| Resource::Json(Some(n))));
    resources.push(Resource::StyleSheet);
    for clients in config.reading_clients() {
        for &resource in &resources {
            steps.push(Step::Get(resource, clients));
            steps.push(Step::HelloWorld(resource, clients));
        }
    }
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
pub fn moves_label(from: usize, to: usize) -> String {
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
        let mut http = Http::new(self.server.addr);
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
            let handles: Vec<_> = (0..self.config.most_clients())
                .map(|i| {
                    s.spawn(move || {
                        let mut http = Http::new(self.server.addr);
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
            Step::Get(resource, clients) => {
                return self.measure_get(resource, clients, setup, report);
            }
            Step::BareCommits(_) | Step::HelloWorld(..) => return,
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
    fn measure_get(&self, resource: Resource, clients: usize, setup: &Setup, report: &mut Report) {
        let (what, path) = (resource.what(), resource.path(setup));
        if !wanted(&what) {
            return;
        }
        let reply = Http::new(self.server.addr).send("GET", &path, None, None);
        let at = format!("{} {}", self.db, self.build);
        assert_eq!(reply.status, 200, "{at}: GET {path}: {}", reply.text());
        let seen = report.responses.iter().any(|r| {
            (r.database, r.build.as_str(), r.what.as_str()) == (self.db, self.build, &what)
        });
        if !seen {
            report.responses.push(Response {
                database: self.db,
                build: self.build.to_string(),
                what: what.clone(),
                bytes: reply.body.len(),
                sets_cookie: reply.sets_cookie,
            });
        }
        report.rows.push(self.hammer(&what, &path, clients));
        if resource.with_wrk() {
            report.rows.extend(self.wrk(&what, &path, clients));
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
        let (tally, made, elapsed, before) = std::thread::scope(|s| {
            let handles: Vec<_> = pairs
                .iter()
                .map(|pair| {
                    let barrier = &barrier;
                    s.spawn(move || {
                        let mut http = Http::new(self.server.addr);
                        let games: Vec<i64> = (0..=games_each)
                            .map(|_| game_at_ply(&mut http, pair, stretch.sans, stretch.from))
                            .collect();
                        barrier.wait();
                        self.play_until(&mut http, pair, stretch, games)
                    })
                })
                .collect();
            barrier.wait();
            let before = self.server.cpu_used();
            let started = Instant::now();
            let mut all = Tally::default();
            let mut made = 0;
            for h in handles {
                let (tally, n) = h.join().expect("mover");
                all.merge(tally);
                made += n;
            }
            (all, made, started.elapsed(), before)
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
        self.row_with_usage(&what, pairs.len(), tally, elapsed, before)
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

    /// GETs one path from `clients` clients, back to back, for the window.
    fn hammer(&self, what: &str, path: &str, clients: usize) -> Row {
        let before = self.server.cpu_used();
        let (tally, elapsed) = hammer(self.server.addr, clients, self.config.window(), path);
        self.row_with_usage(what, clients, tally, elapsed, before)
    }

    /// A row of this run's server, with what the server used since `before`.
    fn row_with_usage(
        &self,
        what: &str,
        clients: usize,
        tally: Tally,
        elapsed: Duration,
        before: CpuUsed,
    ) -> Row {
        let after = self.server.cpu_used();
        let requests = tally.latencies_us.len();
        let usage = Usage::new(before, after, requests, self.server.memory());
        let mut row = Row::from_tally(self, what, clients, tally, elapsed);
        row.usage = Some(usage);
        row
    }

    /// The bytes the server answers for every resource a hello-world row asks for, by their
    /// paths on the hello-world.
    fn bodies(&self, setup: &Setup, steps: &[Step]) -> HashMap<String, (&'static str, Bytes)> {
        let mut http = Http::new(self.server.addr);
        steps
            .iter()
            .filter_map(|step| match step {
                Step::HelloWorld(resource, _) => Some(*resource),
                _ => None,
            })
            .map(|resource| {
                let reply = http.send("GET", &resource.path(setup), None, None);
                assert_eq!(reply.status, 200, "GET {}", resource.what());
                let answer = (resource.content_type(), Bytes::from(reply.body));
                (format!("/{}", resource.slug()), answer)
            })
            .collect()
    }

    /// The same GET with `wrk` (two threads, as many connections as clients), if installed.
    fn wrk(&self, what: &str, path: &str, clients: usize) -> Option<Row> {
        let seconds = self.config.seconds.round().max(1.0) as u64;
        let output = Command::new("wrk")
            .arg(format!("-t{}", clients.min(2)))
            .arg(format!("-c{clients}"))
            .arg(format!("-d{seconds}s"))
            .arg("--latency")
            .arg(format!("http://{}{path}", self.server.addr))
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
            usage: None,
        })
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
        Step::Get(resource, _) | Step::HelloWorld(resource, _) => resource.what(),
        Step::ShortMoves(_) | Step::BareCommits(_) => "POST /api/v1/games/{id}/moves".to_string(),
        Step::LongMoves => format!("POST /api/v1/games/{{id}}/moves, plies {LONG_FROM}+"),
    }
}

/// GETs `path` from `clients` keep-alive clients at `addr`, back to back for `window` after
/// twenty requests each to warm up; returns what they saw and how long they took.
fn hammer(addr: SocketAddr, clients: usize, window: Duration, path: &str) -> (Tally, Duration) {
    run_clients(clients, |_, ready| {
        let mut http = Http::new(addr);
        for _ in 0..20 {
            http.send("GET", path, None, None);
        }
        ready.wait();
        let deadline = Instant::now() + window;
        let mut tally = Tally::default();
        while Instant::now() < deadline {
            let started = Instant::now();
            let reply = http.send("GET", path, None, None);
            tally.record(&reply, started, 200);
        }
        tally
    })
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
