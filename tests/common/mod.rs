//! Test harness: spawns the real application on port 0 against a fresh SQLite file or a
//! fresh PostgreSQL database, and offers small HTTP helpers.
#![allow(dead_code)]

pub mod migrations;
pub mod readers;
pub mod server;
pub mod smtp;

use std::sync::Arc;

use diesel::connection::SimpleConnection;
use diesel::{Connection, RunQueryDsl};
use serde_json::{Value, json};
use slowfuse::clock::SystemClock;
use slowfuse::config::Settings;
use slowfuse::random::SystemRandom;
use slowfuse::startup::Application;

/// Which database a test runs against.
#[derive(Clone, Copy, Debug)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// An HTTP client of one running server (in this process or another), with a cookie jar.
pub struct Api {
    pub base: String,
    pub client: reqwest::blocking::Client,
}

impl Api {
    /// A client of the server at `base` (`http://127.0.0.1:PORT`) that follows no redirect.
    pub fn new(base: String) -> Api {
        let client = reqwest::blocking::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .cookie_store(true)
            .build()
            .unwrap();
        Api { base, client }
    }
}

/// A running application and what a test needs to talk to it.
pub struct TestApp {
    /// Its HTTP client; the helpers below are reached through it.
    pub api: Api,
    /// The app's own state: its pool and clock, for calling use cases directly.
    pub state: slowfuse::web::AppState,
    /// The app's database, for the binary's commands that a test runs beside it.
    pub database_url: String,
    /// Stops the server when the test is done with it: the tests of one binary share a
    /// process, which would otherwise keep every app and its connections to the end.
    server: actix_web::dev::ServerHandle,
    /// The PostgreSQL database this app made, dropped with it (a second instance on the same
    /// database owns none).
    owned_database: Option<(String, String)>,
    _dir: tempfile::TempDir,
}

impl Drop for TestApp {
    fn drop(&mut self) {
        let server = self.server.clone();
        actix_web::rt::System::new().block_on(server.stop(false));
        if let Some((admin_url, name)) = self.owned_database.take()
            && let Ok(mut admin) = diesel::PgConnection::establish(&admin_url)
        {
            let _ = admin.batch_execute(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"));
        }
    }
}

/// How to start the app.
#[derive(Default)]
pub struct Options {
    /// The clock the app reads; the system clock when `None`.
    pub clock: Option<Arc<dyn slowfuse::clock::Clock>>,
    /// What the app draws at random (colours, Chess960 starts); the system's when `None`.
    pub random: Option<Arc<dyn slowfuse::random::Random>>,
    /// Run the background worker every this many seconds; no worker when `None`.
    pub worker_interval: Option<u64>,
}

/// Whether the tests run under CI (`CI` set, and not empty, `false` or `0`): there, a test
/// that lacks what it needs fails instead of skipping.
pub fn under_ci() -> bool {
    std::env::var("CI")
        .is_ok_and(|v| !matches!(v.trim().to_ascii_lowercase().as_str(), "" | "0" | "false"))
}

/// The PostgreSQL server URL for tests, if configured. `None` means the PostgreSQL tests skip,
/// except under CI, where a missing URL fails the test instead.
pub fn postgres_url() -> Option<String> {
    let url = std::env::var("SLOWFUSE_TEST_POSTGRES")
        .ok()
        .filter(|u| !u.is_empty());
    if url.is_none() {
        assert!(
            !under_ci(),
            "CI must run the PostgreSQL tests: set SLOWFUSE_TEST_POSTGRES to a server URL \
             (a role that may create databases), as .ci/run does"
        );
        eprintln!("SKIPPED: set SLOWFUSE_TEST_POSTGRES to run the PostgreSQL tests");
    }
    url
}

/// Makes an empty database on the test PostgreSQL server and returns its URL. The first call
/// of a test process drops the databases that earlier test processes left (see
/// [`drop_leftover_databases`]).
pub fn fresh_postgres_database(server: &str) -> String {
    let name = format!("slowfuse_test_{}", rand_suffix());
    let mut admin = diesel::PgConnection::establish(server).expect("connect to test postgres");
    static SWEPT: std::sync::Once = std::sync::Once::new();
    SWEPT.call_once(|| drop_leftover_databases(&mut admin));
    admin
        .batch_execute(&format!("CREATE DATABASE {name}"))
        .expect("create test database");
    // Replace the database name (the last path segment) in the URL.
    let (head, tail) = server
        .rsplit_once('/')
        .expect("postgres URL with a database name");
    let query = tail
        .split_once('?')
        .map(|(_, q)| format!("?{q}"))
        .unwrap_or_default();
    format!("{head}/{name}{query}")
}

/// The database name of a PostgreSQL URL (its last path segment, without the query).
fn database_name(url: &str) -> Option<String> {
    let (_, tail) = url.rsplit_once('/')?;
    Some(tail.split('?').next()?.to_string())
}

/// Drops the test databases whose process has ended: their names carry the id of the process
/// that made them (`slowfuse_test_<pid>_<n>`), and a test leaves its database behind when it
/// ends. Without this every run of the suite would leave a hundred or more on the server.
/// Databases of running processes (another suite at work on the same server) are kept.
fn drop_leftover_databases(admin: &mut diesel::PgConnection) {
    #[derive(diesel::QueryableByName)]
    struct Name {
        #[diesel(sql_type = diesel::sql_types::Text)]
        datname: String,
    }
    let names: Vec<Name> = diesel::sql_query(
        "SELECT datname FROM pg_database WHERE datname LIKE 'slowfuse\\_test\\_%'",
    )
    .load(admin)
    .unwrap_or_default();
    for Name { datname } in names {
        let pid = datname
            .split('_')
            .nth(2)
            .and_then(|p| p.parse::<u32>().ok());
        let Some(pid) = pid else { continue };
        if pid == std::process::id() || std::path::Path::new(&format!("/proc/{pid}")).exists() {
            continue;
        }
        let drop = format!("DROP DATABASE IF EXISTS {datname} WITH (FORCE)");
        if let Err(e) = admin.batch_execute(&drop) {
            eprintln!("could not drop the leftover test database {datname}: {e}");
        }
    }
}

fn rand_suffix() -> String {
    use std::time::{SystemTime, UNIX_EPOCH};
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    format!("{}_{}", std::process::id(), nanos % 1_000_000_000_000)
}

/// Spawns the app; `None` when the backend is not available here (PostgreSQL not configured,
/// outside CI: see [`postgres_url`]).
pub fn spawn_app(backend: Backend) -> Option<TestApp> {
    spawn_app_with(backend, Options::default())
}

/// Spawns the app with a chosen clock and worker.
pub fn spawn_app_with(backend: Backend, options: Options) -> Option<TestApp> {
    spawn_app_with_env(backend, options, Vec::new())
}

/// Spawns the app with a chosen clock and worker, and settings of its own
/// (`SLOWFUSE__SECTION__KEY` pairs, applied last).
pub fn spawn_app_with_env(
    backend: Backend,
    options: Options,
    settings_env: Vec<(String, String)>,
) -> Option<TestApp> {
    let dir = tempfile::tempdir().expect("temp dir");
    let database_url = match backend {
        Backend::Sqlite => format!("sqlite://{}", dir.path().join("test.db").display()),
        Backend::Postgres => match postgres_url() {
            Some(server) => fresh_postgres_database(&server),
            None => return None,
        },
    };
    let mut env = vec![
        ("DATABASE_URL".to_string(), database_url.clone()),
        (
            "SLOWFUSE__SERVER__BIND".to_string(),
            "127.0.0.1:0".to_string(),
        ),
        (
            "SLOWFUSE__SERVER__DATA_DIR".to_string(),
            dir.path().display().to_string(),
        ),
        ("SLOWFUSE__SERVER__WORKERS".to_string(), "2".to_string()),
        ("SLOWFUSE__DATABASE__POOL_SIZE".to_string(), "4".to_string()),
        (
            "SLOWFUSE__WORKER__ENABLED".to_string(),
            options.worker_interval.is_some().to_string(),
        ),
        (
            "SLOWFUSE__WORKER__INTERVAL_SECONDS".to_string(),
            options.worker_interval.unwrap_or(60).to_string(),
        ),
    ];
    env.extend(settings_env);
    let owned = match backend {
        Backend::Postgres => postgres_url().zip(database_name(&database_url)),
        Backend::Sqlite => None,
    };
    let mut app = start(dir, database_url, env, options);
    app.owned_database = owned;
    Some(app)
}

/// A second instance of the app on the database of a running one (its own port and data
/// directory, no worker), as a load balancer's second server.
pub fn spawn_app_on(database_url: &str) -> TestApp {
    spawn_app_on_with(database_url, Options::default())
}

/// A second instance as [`spawn_app_on`] starts one, with a chosen clock (its worker stays off).
pub fn spawn_app_on_with(database_url: &str, options: Options) -> TestApp {
    let dir = tempfile::tempdir().expect("temp dir");
    let env = vec![
        ("DATABASE_URL".to_string(), database_url.to_string()),
        (
            "SLOWFUSE__SERVER__BIND".to_string(),
            "127.0.0.1:0".to_string(),
        ),
        (
            "SLOWFUSE__SERVER__DATA_DIR".to_string(),
            dir.path().display().to_string(),
        ),
        ("SLOWFUSE__SERVER__WORKERS".to_string(), "2".to_string()),
        ("SLOWFUSE__DATABASE__POOL_SIZE".to_string(), "4".to_string()),
        ("SLOWFUSE__WORKER__ENABLED".to_string(), "false".to_string()),
    ];
    start(dir, database_url.to_string(), env, options)
}

/// Starts the app with these settings on its own thread.
fn start(
    dir: tempfile::TempDir,
    database_url: String,
    env: Vec<(String, String)>,
    options: Options,
) -> TestApp {
    let clock: Arc<dyn slowfuse::clock::Clock> =
        options.clock.unwrap_or_else(|| Arc::new(SystemClock));
    let random: Arc<dyn slowfuse::random::Random> =
        options.random.unwrap_or_else(|| Arc::new(SystemRandom));
    let config_dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("config");
    let settings = Settings::load_from(&config_dir, env).expect("settings");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        actix_web::rt::System::new().block_on(async move {
            let app = Application::build(settings, clock, random).expect("build app");
            tx.send((app.port(), app.state.clone(), app.server_handle()))
                .unwrap();
            let _ = app.run_until_stopped().await;
        })
    });
    let (port, state, server) = rx.recv().expect("app started");
    TestApp {
        api: Api::new(format!("http://127.0.0.1:{port}")),
        state,
        database_url,
        server,
        owned_database: None,
        _dir: dir,
    }
}

/// A response's status and JSON body.
pub struct Reply {
    pub status: u16,
    pub body: Value,
}

impl std::ops::Deref for TestApp {
    type Target = Api;

    fn deref(&self) -> &Api {
        &self.api
    }
}

impl Api {
    /// POSTs JSON to an API path, with a bearer token when given.
    pub fn post(&self, path: &str, token: Option<&str>, body: Value) -> Reply {
        let mut req = self
            .client
            .post(format!("{}{}", self.base, path))
            .json(&body);
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        let res = req.send().expect("request");
        let status = res.status().as_u16();
        Reply {
            status,
            body: res.json().unwrap_or(Value::Null),
        }
    }

    /// Sends JSON with any method to an API path, with a bearer token when given.
    pub fn post_method(&self, method: &str, path: &str, token: Option<&str>, body: Value) -> Reply {
        let method = reqwest::Method::from_bytes(method.as_bytes()).expect("HTTP method");
        let mut req = self
            .client
            .request(method, format!("{}{}", self.base, path))
            .json(&body);
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        let res = req.send().expect("request");
        let status = res.status().as_u16();
        Reply {
            status,
            body: res.json().unwrap_or(Value::Null),
        }
    }

    /// GETs an API path.
    pub fn get(&self, path: &str, token: Option<&str>) -> Reply {
        let mut req = self.client.get(format!("{}{}", self.base, path));
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        let res = req.send().expect("request");
        let status = res.status().as_u16();
        Reply {
            status,
            body: res.json().unwrap_or(Value::Null),
        }
    }

    /// GETs a path as text.
    pub fn get_text(&self, path: &str) -> (u16, String) {
        let res = self
            .client
            .get(format!("{}{}", self.base, path))
            .send()
            .expect("request");
        (res.status().as_u16(), res.text().unwrap_or_default())
    }

    /// Signs up a user through the API and returns a token for them.
    pub fn user(&self, name: &str) -> String {
        let r = self.post(
            "/api/v1/accounts",
            None,
            json!({"username": name, "email": format!("{name}@example.com"), "password": "correct horse battery"}),
        );
        assert_eq!(r.status, 201, "sign up {name}: {}", r.body);
        let r = self.post(
            "/api/v1/tokens",
            None,
            json!({"username": name, "password": "correct horse battery"}),
        );
        assert_eq!(r.status, 201, "token for {name}: {}", r.body);
        r.body["token"].as_str().unwrap().to_string()
    }

    /// Starts a game of `variant` with `white` against `black`; returns its id.
    pub fn game(&self, variant: &str, white: &str, black: &str) -> i64 {
        self.game_from(
            white,
            black,
            json!({"variant": variant, "color": "white", "days_per_move": 3, "opponent": null}),
        )
    }

    /// A game from the challenge `body` that `white` makes (its colour must be white) and
    /// `black` accepts; both must succeed.
    pub fn game_from(&self, white: &str, black: &str, body: Value) -> i64 {
        let r = self.post("/api/v1/challenges", Some(white), body);
        assert_eq!(r.status, 201, "{}", r.body);
        let id = r.body["id"].as_i64().unwrap();
        let r = self.post(
            &format!("/api/v1/challenges/{id}/accept"),
            Some(black),
            json!({}),
        );
        assert_eq!(r.status, 201, "{}", r.body);
        r.body["game_id"].as_i64().unwrap()
    }

    /// A casual bughouse match, 3 days a move, of the players with these tokens in seats A1,
    /// B1, B2 and A2, started by the fourth seat taken; its game id.
    pub fn bughouse_match(&self, [a1, b1, b2, a2]: [&str; 4]) -> i64 {
        let r = self.post(
            "/api/v1/challenges",
            Some(a1),
            json!({"variant": "bughouse", "seat": "A1", "days_per_move": 3}),
        );
        assert_eq!(r.status, 201, "{}", r.body);
        let id = r.body["id"].as_i64().unwrap();
        let mut game = None;
        for (token, seat) in [(b1, "B1"), (b2, "B2"), (a2, "A2")] {
            let r = self.post(
                &format!("/api/v1/challenges/{id}/accept"),
                Some(token),
                json!({ "seat": seat }),
            );
            assert!(r.status < 300, "{seat}: {}", r.body);
            game = r.body["game_id"].as_i64();
        }
        game.expect("the fourth seat starts the match")
    }

    /// Plays a move through the API at the given ply.
    pub fn play(&self, game: i64, token: &str, mv: &str, ply: i64) -> Reply {
        self.post(
            &format!("/api/v1/games/{game}/moves"),
            Some(token),
            json!({"move": mv, "ply": ply, "comment": null}),
        )
    }

    /// Plays a sequence of moves alternating between two tokens, starting at ply 0; each must succeed.
    pub fn play_all(&self, game: i64, white: &str, black: &str, moves: &[&str]) -> Reply {
        let mut last = None;
        for (ply, mv) in moves.iter().enumerate() {
            let token = if ply % 2 == 0 { white } else { black };
            let r = self.play(game, token, mv, ply as i64);
            assert_eq!(r.status, 200, "move {mv} at ply {ply}: {}", r.body);
            last = Some(r);
        }
        last.expect("at least one move")
    }
}

/// Declares each listed test once per backend: `sqlite::NAME` and `postgres::NAME`.
#[macro_export]
macro_rules! on_both_databases {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(#[test] fn $name() { if let Some(app) = $crate::common::spawn_app($crate::common::Backend::Sqlite) { super::$name(&app) } })*
        }
        mod postgres {
            $(#[test] fn $name() { if let Some(app) = $crate::common::spawn_app($crate::common::Backend::Postgres) { super::$name(&app) } })*
        }
    };
}

/// A browser-like client with its own cookies, for the HTML pages.
pub struct Browser {
    pub base: String,
    pub client: reqwest::blocking::Client,
}

/// A page response: status, `Location` header (for redirects) and body.
pub struct Page {
    pub status: u16,
    pub location: Option<String>,
    pub body: String,
}

impl Api {
    /// A new browser with an empty cookie jar.
    pub fn browser(&self) -> Browser {
        Browser {
            base: self.base.clone(),
            client: reqwest::blocking::Client::builder()
                .redirect(reqwest::redirect::Policy::none())
                .cookie_store(true)
                .build()
                .unwrap(),
        }
    }
}

impl Api {
    /// A browser logged in as `name` (signed up through the API, password
    /// "correct horse battery").
    pub fn logged_in(&self, name: &str) -> Browser {
        let browser = self.browser();
        let csrf = browser.csrf("/login");
        let page = browser.post(
            "/login",
            &[
                ("csrf_token", &csrf),
                ("username", name),
                ("password", "correct horse battery"),
                ("next", "/"),
            ],
        );
        assert_eq!(page.status, 303, "log in {name}: {}", page.body);
        browser
    }
}

impl Browser {
    fn page(res: reqwest::blocking::Response) -> Page {
        let status = res.status().as_u16();
        let location = res
            .headers()
            .get("location")
            .map(|l| l.to_str().unwrap().to_string());
        Page {
            status,
            location,
            body: res.text().unwrap_or_default(),
        }
    }

    /// GETs a page.
    pub fn get(&self, path: &str) -> Page {
        Self::page(
            self.client
                .get(format!("{}{}", self.base, path))
                .send()
                .expect("GET"),
        )
    }

    /// GETs a page, following one redirect if there is one.
    pub fn follow(&self, page: Page) -> Page {
        match page.location {
            Some(loc) if (300..400).contains(&page.status) => self.get(&loc),
            _ => page,
        }
    }

    /// The CSRF token in the first form of a page.
    pub fn csrf(&self, path: &str) -> String {
        let body = self.get(path).body;
        hidden_value(&body, "csrf_token").expect("a form with a CSRF token")
    }

    /// POSTs a form.
    pub fn post(&self, path: &str, fields: &[(&str, &str)]) -> Page {
        Self::page(
            self.client
                .post(format!("{}{}", self.base, path))
                .form(fields)
                .send()
                .expect("POST"),
        )
    }

    /// Signs up through the form and stays logged in.
    pub fn sign_up(&self, name: &str) -> Page {
        let csrf = self.csrf("/signup");
        let email = format!("{name}@example.com");
        self.post(
            "/signup",
            &[
                ("csrf_token", &csrf),
                ("username", name),
                ("email", &email),
                ("password", "correct horse battery"),
            ],
        )
    }
}

/// The value of the first hidden input with this name.
pub fn hidden_value(html: &str, name: &str) -> Option<String> {
    let re = regex::Regex::new(&format!(r#"name="{name}" value="([^"]*)""#)).unwrap();
    re.captures(html).map(|c| c[1].to_string())
}

/// The moment the clock-driven tests start: 1 March 2026, 12:00 UTC.
pub fn t0() -> chrono::NaiveDateTime {
    chrono::NaiveDate::from_ymd_opt(2026, 3, 1)
        .unwrap()
        .and_hms_opt(12, 0, 0)
        .unwrap()
}

/// The app on `backend` with a clock standing at [`t0`] that the test moves; no worker.
pub fn app_at_t0(backend: Backend) -> Option<(TestApp, Arc<slowfuse::clock::FixedClock>)> {
    let clock = Arc::new(slowfuse::clock::FixedClock::new(t0()));
    let app = spawn_app_with(
        backend,
        Options {
            clock: Some(clock.clone()),
            ..Options::default()
        },
    )?;
    Some((app, clock))
}

/// Declares each listed test `fn NAME(app: &TestApp, clock: &FixedClock)` once per backend,
/// each on an app whose clock starts at [`t0`]. Give module names to use it twice in a file.
#[macro_export]
macro_rules! on_both_databases_at_t0 {
    ($sqlite:ident, $postgres:ident: $($name:ident),* $(,)?) => {
        mod $sqlite {
            $(#[test] fn $name() { if let Some((app, clock)) = $crate::common::app_at_t0($crate::common::Backend::Sqlite) { super::$name(&app, &clock) } })*
        }
        mod $postgres {
            $(#[test] fn $name() { if let Some((app, clock)) = $crate::common::app_at_t0($crate::common::Backend::Postgres) { super::$name(&app, &clock) } })*
        }
    };
    ($($name:ident),* $(,)?) => {
        $crate::on_both_databases_at_t0!(sqlite, postgres: $($name),*);
    };
}

/// A legal standard-chess line of `plies` moves in UCI, from a seeded walk that never ends
/// the game.
pub fn random_line(seed: u64, plies: usize) -> Vec<String> {
    use slowfuse_rules::{Game, Variant};
    let mut state = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    let mut game = Game::new(Variant::Standard);
    let mut ucis = Vec::new();
    while ucis.len() < plies {
        let moves = game.legal_moves();
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let start = usize::try_from(state >> 33).unwrap() % moves.len();
        // The first move from a random start that leaves the game going.
        let next = (0..moves.len())
            .map(|i| &moves[(start + i) % moves.len()])
            .find_map(|m| game.play(&m.uci).ok().filter(|g| !g.is_over()))
            .expect("a move that does not end the game");
        ucis.push(next.moves().last().unwrap().uci.clone());
        game = next;
    }
    ucis
}
