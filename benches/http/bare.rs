//! The bare limits the server is measured beside, in the same run: a SQLite WAL commit loop at
//! the server's settings, `pgbench -N` on the same PostgreSQL server, and an actix-web
//! hello-world answering the very bytes the server answered.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::Path;
use std::process::Command;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use actix_web::web::{self, Bytes};
use actix_web::{App, HttpRequest, HttpResponse, HttpServer};
use diesel::connection::SimpleConnection;
use diesel::sql_types::{BigInt, Text};
use diesel::{Connection, RunQueryDsl, SqliteConnection};

use crate::client::{Http, Tally, run_clients};
use crate::report::Row;
use crate::servers::PgDatabase;

/// The label of the bare commit rows: what one transaction writes.
pub const SQLITE_COMMIT: &str = "bare SQLite WAL: BEGIN; UPDATE one row; INSERT one row; COMMIT";
/// The label of the `pgbench -N` rows.
pub const PGBENCH: &str = "pgbench -N (simple update: UPDATE, SELECT, INSERT)";

/// The bare commit rate of one database, by as many clients as a move row.
pub struct BareCommits<'a> {
    database: &'static str,
    postgres: Option<&'a str>,
    /// `pgbench`'s database, made at the first row and dropped with this.
    pgbench: Option<(PgDatabase, String)>,
}

impl<'a> BareCommits<'a> {
    pub fn new(database: &'static str, postgres: Option<&'a str>) -> BareCommits<'a> {
        BareCommits {
            database,
            postgres,
            pgbench: None,
        }
    }

    /// The bare row for `clients` over `window`: the SQLite loop, or `pgbench -N` on
    /// PostgreSQL (none when `pgbench` is not installed).
    pub fn measure(&mut self, clients: usize, window: Duration) -> Option<Row> {
        let Some(server) = self.postgres else {
            let (tally, elapsed) = sqlite_commit_loop(clients, window);
            let build = (self.database, "bare");
            return Some(Row::measured(build, SQLITE_COMMIT, clients, tally, elapsed));
        };
        if self.pgbench.is_none() {
            let name = format!("slowfuse_bench_{}_pgbench", std::process::id());
            let (database, url) = PgDatabase::create(server, name);
            let init = Command::new("pgbench")
                .args(["-i", "-q", "-s", "1", &url])
                .output();
            match init {
                Ok(out) if out.status.success() => {}
                Ok(out) => panic!(
                    "pgbench -i: {}",
                    String::from_utf8_lossy(&out.stderr).trim()
                ),
                Err(e) => {
                    eprintln!("  pgbench not run ({e}): install postgresql-contrib");
                    return None;
                }
            }
            self.pgbench = Some((database, url));
        }
        let (_, url) = self.pgbench.as_ref()?;
        let (tally, elapsed) = pgbench(url, clients, window)?;
        let build = (self.database, "bare");
        Some(Row::measured(build, PGBENCH, clients, tally, elapsed))
    }
}

/// What one transaction of the loop writes, as a move does: the game's row and a new row.
const COMMIT_SCHEMA: &str = "CREATE TABLE games (id INTEGER PRIMARY KEY, ply INTEGER NOT NULL);
    CREATE TABLE moves (id INTEGER PRIMARY KEY, game_id INTEGER NOT NULL, ply INTEGER NOT NULL,
        san TEXT NOT NULL);
    CREATE INDEX moves_game ON moves (game_id, ply);";

/// `clients` threads, each with a connection of its own to a fresh SQLite file in WAL mode at
/// the server's settings (`synchronous = NORMAL`, busy timeout 5 s), each committing
/// transactions that update its game's row and insert a move row, back to back for `window`.
/// As in the server, the writers of the process take turns on one mutex before they begin.
fn sqlite_commit_loop(clients: usize, window: Duration) -> (Tally, Duration) {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("bare.db");
    let mut first = sqlite_connection(&path);
    first
        .batch_execute(&format!("PRAGMA journal_mode = WAL; {COMMIT_SCHEMA}"))
        .expect("create the tables");
    let games: String = (0..clients).map(|i| format!("({i}, 0),")).collect();
    let insert = format!(
        "INSERT INTO games (id, ply) VALUES {};",
        games.trim_end_matches(',')
    );
    first.batch_execute(&insert).expect("the games");
    let turn = Mutex::new(());
    run_clients(clients, |game, ready| {
        let mut conn = sqlite_connection(&path);
        ready.wait();
        let deadline = Instant::now() + window;
        let mut tally = Tally::default();
        let mut ply = 0i64;
        while Instant::now() < deadline {
            let started = Instant::now();
            let my_turn = turn.lock().unwrap_or_else(|e| e.into_inner());
            let done = conn.transaction(|c| write_move(c, game as i64, ply));
            drop(my_turn);
            match done {
                Ok(()) => tally.record_success(started),
                Err(e) => tally.record_failure(0, e.to_string()),
            }
            ply += 1;
        }
        tally
    })
}

/// A connection at the server's SQLite settings.
fn sqlite_connection(path: &Path) -> SqliteConnection {
    let mut conn = SqliteConnection::establish(&path.display().to_string()).expect("open");
    conn.batch_execute(
        "PRAGMA busy_timeout = 5000; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;",
    )
    .expect("pragmas");
    conn
}

fn write_move(conn: &mut SqliteConnection, game: i64, ply: i64) -> diesel::QueryResult<()> {
    diesel::sql_query("UPDATE games SET ply = ? WHERE id = ?")
        .bind::<BigInt, _>(ply + 1)
        .bind::<BigInt, _>(game)
        .execute(conn)?;
    diesel::sql_query("INSERT INTO moves (game_id, ply, san) VALUES (?, ?, ?)")
        .bind::<BigInt, _>(game)
        .bind::<BigInt, _>(ply)
        .bind::<Text, _>("Nf3")
        .execute(conn)?;
    Ok(())
}

/// `pgbench -N` with `clients` connections (and up to two threads, one per core here) for
/// `window`, each transaction's latency read from its log; `None` if pgbench failed.
fn pgbench(url: &str, clients: usize, window: Duration) -> Option<(Tally, Duration)> {
    let logs = tempfile::tempdir().expect("temp dir");
    let prefix = logs.path().join("tx");
    let seconds = window.as_secs_f64().round().max(1.0);
    let threads = clients.min(2);
    let out = Command::new("pgbench")
        .args(["-N", "-n", "-l"])
        .arg(format!("--log-prefix={}", prefix.display()))
        .arg(format!("-c{clients}"))
        .arg(format!("-j{threads}"))
        .arg(format!("-T{seconds}"))
        .arg(url)
        .output()
        .ok()?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        eprintln!("  pgbench -N -c{clients} failed: {}", err.trim());
        return None;
    }
    let mut tally = Tally::default();
    for entry in std::fs::read_dir(logs.path()).ok()?.flatten() {
        let text = std::fs::read_to_string(entry.path()).unwrap_or_default();
        // Each line: client, transaction, latency in µs, script, epoch seconds, µs.
        for line in text.lines() {
            let latency = line.split_whitespace().nth(2).and_then(|l| l.parse().ok());
            if let Some(us) = latency {
                tally.latencies_us.push(us);
            }
        }
    }
    Some((tally, Duration::from_secs_f64(seconds)))
}

/// An actix-web server that answers each of a few paths with bytes and a content type given
/// at its start, and nothing else: the web stack's limit for an answer of that size.
pub struct HelloWorld {
    pub addr: SocketAddr,
    handle: actix_web::dev::ServerHandle,
}

impl HelloWorld {
    /// Starts it on a free local port with as many workers as the server under test (one per
    /// core), answering `bodies` (path → content type and bytes).
    pub fn start(bodies: HashMap<String, (&'static str, Bytes)>) -> HelloWorld {
        let bodies = web::Data::new(bodies);
        let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            actix_web::rt::System::new().block_on(async move {
                let server = HttpServer::new(move || {
                    App::new()
                        .app_data(bodies.clone())
                        .default_service(web::get().to(answer))
                })
                .workers(workers)
                .bind("127.0.0.1:0")
                .expect("bind");
                let addr = server.addrs()[0];
                let server = server.run();
                tx.send((addr, server.handle()))
                    .expect("report the address");
                let _ = server.await;
            })
        });
        let (addr, handle) = rx.recv().expect("the hello-world started");
        let mut http = Http::new(addr);
        assert_eq!(http.send("GET", "/", None, None).status, 404);
        HelloWorld { addr, handle }
    }
}

impl Drop for HelloWorld {
    fn drop(&mut self) {
        actix_web::rt::System::new().block_on(self.handle.stop(false));
    }
}

async fn answer(
    request: HttpRequest,
    bodies: web::Data<HashMap<String, (&'static str, Bytes)>>,
) -> HttpResponse {
    match bodies.get(request.path()) {
        Some((content_type, body)) => HttpResponse::Ok()
            .content_type(*content_type)
            .body(body.clone()),
        None => HttpResponse::NotFound().finish(),
    }
}
