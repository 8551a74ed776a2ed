//! Data-at-scale benchmark: a database of 100,000 finished and 5,000 running games among 2,000
//! players, built on SQLite and PostgreSQL, and the time of the queries that grow with it
//! (search, the next-game queue, a profile, the opening book, the worker's pass), with the
//! plans of the statements they send.
//!
//! Run with `cargo bench --bench scale` (see `docs/benchmarks.md`, "Data at scale"). Settings,
//! all optional: `SLOWFUSE_SCALE_FINISHED` (default 100000), `SLOWFUSE_SCALE_RUNNING` (5000),
//! `SLOWFUSE_SCALE_USERS` (2000), `SLOWFUSE_SCALE_RUNS` (runs of each query, 200),
//! `SLOWFUSE_BENCH_POSTGRES` or else `SLOWFUSE_TEST_POSTGRES` (a PostgreSQL server URL whose
//! role may create databases; without one only SQLite is measured), `SLOWFUSE_SCALE_ONLY`
//! (`sqlite` or `postgres`), `SLOWFUSE_SCALE_PLANS=all` (every statement's plan, not only
//! those of the slow queries and the scans of big tables) and `SLOWFUSE_SCALE_KEEP=1` (keep
//! the databases built, for a closer look, and print where they are).

mod copy;
mod measure;
mod plans;
mod templates;

use chrono::{NaiveDateTime, Timelike};
use diesel::Connection;
use diesel::connection::SimpleConnection;
use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use slowfuse::config::DatabaseSettings;
use slowfuse::db::{DbConnection, DbPool};

use copy::{Copy, Players};
use templates::Templates;

/// Template games: this many finished and running ones, among this many players.
const TEMPLATE_FINISHED: usize = 200;
const TEMPLATE_RUNNING: usize = 50;
const TEMPLATE_USERS: usize = 20;

/// The sizes asked for.
#[derive(Clone, Copy)]
pub struct Sizes {
    pub finished: usize,
    pub running: usize,
    pub users: usize,
    pub runs: usize,
}

impl Sizes {
    fn from_env() -> Sizes {
        let number = |name: &str, default: usize| {
            std::env::var(name)
                .ok()
                .and_then(|v| v.parse::<usize>().ok())
                .filter(|v| *v > 0)
                .unwrap_or(default)
        };
        Sizes {
            finished: number("SLOWFUSE_SCALE_FINISHED", 100_000).max(TEMPLATE_FINISHED),
            running: number("SLOWFUSE_SCALE_RUNNING", 5_000).max(TEMPLATE_RUNNING),
            users: number("SLOWFUSE_SCALE_USERS", 2_000).max(TEMPLATE_USERS),
            runs: number("SLOWFUSE_SCALE_RUNS", 200),
        }
    }
}

fn main() {
    if !std::env::args().any(|a| a == "--bench") {
        println!("scale benchmark: run it with `cargo bench --bench scale`");
        return;
    }
    let sizes = Sizes::from_env();
    let only = std::env::var("SLOWFUSE_SCALE_ONLY").unwrap_or_default();
    let postgres = ["SLOWFUSE_BENCH_POSTGRES", "SLOWFUSE_TEST_POSTGRES"]
        .iter()
        .filter_map(|name| std::env::var(name).ok())
        .find(|url| !url.is_empty());
    print_header(&sizes);
    for (name, pg) in [("SQLite", false), ("PostgreSQL", true)] {
        // `sqlite`, or `postgres` (`postgresql`), in any case.
        let only_pg = match only.to_ascii_lowercase().as_str() {
            "" => None,
            "sqlite" => Some(false),
            _ => Some(true),
        };
        if only_pg.is_some_and(|only_pg| only_pg != pg) {
            continue;
        }
        let server = match (pg, &postgres) {
            (false, _) => None,
            (true, Some(url)) => Some(url.as_str()),
            (true, None) => {
                println!("PostgreSQL skipped: set SLOWFUSE_BENCH_POSTGRES to a server URL\n");
                continue;
            }
        };
        let dir = tempfile::tempdir().expect("a temporary directory");
        let database = Database::create(server, &dir);
        let pool = slowfuse::db::connect(&DatabaseSettings {
            url: database.url.clone(),
            pool_size: 4,
            sqlite_busy_timeout_ms: 5000,
        })
        .expect("open the pool");
        slowfuse::db::migrate(&mut pool.get().expect("a connection")).expect("migrate");
        let base = chrono::Utc::now()
            .naive_utc()
            .with_nanosecond(0)
            .expect("a whole second");
        eprintln!("{} {name}: building the database", clock());
        let started = std::time::Instant::now();
        let built = build(&pool, &database.url, base, sizes);
        let counts = measure::counts(&mut pool.get().expect("a connection"));
        println!(
            "### {name}\n\nbuilt in {:.0} s: {counts}\n",
            started.elapsed().as_secs_f64()
        );
        eprintln!("{} {name}: measuring", clock());
        measure::run(&pool, &database.url, base, &built, sizes.runs);
        if std::env::var_os("SLOWFUSE_SCALE_KEEP").is_some() {
            eprintln!("{name} kept: {} (built for {base})", database.url);
            if database.server.is_none() {
                let _ = dir.keep();
            }
            std::mem::forget(database);
        }
    }
    eprintln!("{} done", clock());
}

fn clock() -> String {
    chrono::Utc::now().format("%H:%M:%S").to_string()
}

fn print_header(sizes: &Sizes) {
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    let load: Vec<&str> = load.split_whitespace().take(3).collect();
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    println!(
        "- date: {} UTC\n- machine: {cores} cores; load average at the start: {}\n\
         - asked for: {} finished and {} running games, {} players; {} runs of each query\n",
        chrono::Utc::now().format("%Y-%m-%d %H:%M"),
        load.join(" "),
        sizes.finished,
        sizes.running,
        sizes.users,
        sizes.runs
    );
}

/// A fresh database: an SQLite file in a temporary directory, or a PostgreSQL database made
/// for the run and dropped at its end.
struct Database {
    url: String,
    server: Option<(String, String)>,
}

impl Database {
    fn create(server: Option<&str>, dir: &tempfile::TempDir) -> Database {
        let Some(server) = server else {
            let url = format!("sqlite://{}", dir.path().join("scale.db").display());
            return Database { url, server: None };
        };
        let name = format!("slowfuse_scale_{}", std::process::id());
        let mut admin = diesel::PgConnection::establish(server).expect("connect to PostgreSQL");
        admin
            .batch_execute(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
            .expect("drop a leftover database");
        admin
            .batch_execute(&format!("CREATE DATABASE {name}"))
            .expect("create the database");
        let (head, tail) = server.rsplit_once('/').expect("a URL ending in /dbname");
        let query = tail.split_once('?').map(|(_, q)| format!("?{q}"));
        let url = format!("{head}/{name}{}", query.unwrap_or_default());
        Database {
            url,
            server: Some((server.to_string(), name)),
        }
    }
}

impl Drop for Database {
    fn drop(&mut self) {
        if let Some((server, name)) = &self.server {
            let sql = format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)");
            let dropped = diesel::PgConnection::establish(server)
                .map_err(|e| e.to_string())
                .and_then(|mut admin| admin.batch_execute(&sql).map_err(|e| e.to_string()));
            if let Err(e) = dropped {
                eprintln!("could not drop database {name}: {e}");
            }
        }
    }
}

/// A connection of its own (not the pool's), for loading and for recording statements.
pub fn own_connection(url: &str) -> DbConnection {
    let url = url.strip_prefix("sqlite://").unwrap_or(url);
    let mut conn = DbConnection::establish(url).expect("connect");
    if let DbConnection::Sqlite(c) = &mut conn {
        c.batch_execute("PRAGMA busy_timeout = 5000; PRAGMA foreign_keys = ON;")
            .expect("pragmas");
    }
    conn
}

/// Progress on stderr: a bar on a terminal, otherwise a line at every tenth.
struct Progress {
    bar: ProgressBar,
    what: String,
}

impl Progress {
    fn new(len: u64, what: &str) -> Progress {
        let terminal = std::io::stderr().is_terminal();
        let target = if terminal {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::hidden()
        };
        let bar = ProgressBar::with_draw_target(Some(len), target);
        let style = ProgressStyle::with_template(&format!(
            "{{bar:40}} {{pos}}/{{len}} {what} ({{elapsed}}, {{eta}} left)"
        ))
        .expect("a progress template");
        bar.set_style(style);
        Progress {
            bar,
            what: what.to_string(),
        }
    }

    fn inc(&self) {
        self.bar.inc(1);
        let (pos, len) = (self.bar.position(), self.bar.length().unwrap_or(1).max(1));
        if !self.bar.is_hidden() {
            return;
        }
        if pos * 10 / len != (pos - 1) * 10 / len {
            eprintln!("{} {pos}/{len} {}", clock(), self.what);
        }
    }

    fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

/// What the measurements need to know about the database built.
pub struct Built {
    pub templates: Templates,
    pub players: Players,
}

/// Builds the whole database: templates through the use cases, then copies.
fn build(pool: &DbPool, url: &str, base: NaiveDateTime, sizes: Sizes) -> Built {
    let mut conn = pool.get().expect("a connection");
    let progress = Progress::new(
        (TEMPLATE_FINISHED + TEMPLATE_RUNNING) as u64,
        "template games",
    );
    let templates = templates::build(
        &mut conn,
        base,
        (TEMPLATE_USERS, TEMPLATE_FINISHED, TEMPLATE_RUNNING),
        &|| progress.inc(),
    );
    progress.finish();
    drop(conn);
    let mut conn = own_connection(url);
    if let DbConnection::Sqlite(c) = &mut conn {
        c.batch_execute("PRAGMA synchronous = OFF; PRAGMA cache_size = -200000;")
            .expect("loading pragmas");
    }
    // The worker would have sent the templates' mails long ago, and listed the held ones in
    // digests.
    conn.batch_execute(
        "UPDATE outbox SET status = 'sent', sent_at = created_at WHERE status = 'pending';
         UPDATE outbox SET status = 'digested' WHERE status = 'held';",
    )
    .expect("mark the templates' mails sent");
    let tables = copy::tables(&mut conn);
    let columns: Vec<(String, Vec<copy::Column>)> = tables
        .iter()
        .map(|t| (t.clone(), copy::columns(&mut conn, t)))
        .collect();
    let strides: Vec<(String, i64)> = tables
        .iter()
        .map(|t| {
            let has_id = columns
                .iter()
                .any(|(n, cols)| n == t && cols.iter().any(|c| c.name == "id"));
            let max = if has_id {
                copy::max_id(&mut conn, t, "id")
            } else {
                0
            };
            (t.clone(), max + 1)
        })
        .collect();
    let user_ids = &templates.users;
    let players = Players {
        first: user_ids[0],
        last: *user_ids.last().expect("players"),
        busy: user_ids[0],
        copies: (sizes.users / TEMPLATE_USERS) as i64,
        stride: copy::max_id(&mut conn, "users", "id") + 1,
    };
    copy_users(&mut conn, &columns, &strides, players);
    let dropped = copy::drop_bulk_indexes(&mut conn);
    copy_games(&mut conn, &columns, &strides, players, &templates, sizes);
    eprintln!("{} making the indexes again", clock());
    copy::restore_indexes(&mut conn, &dropped);
    copy::reset_sequences(&mut conn, &tables);
    eprintln!("{} analysing", clock());
    let analyse = if copy::is_pg(&conn) {
        "VACUUM ANALYZE"
    } else {
        "ANALYZE"
    };
    conn.batch_execute(analyse).expect("analyse");
    Built { templates, players }
}

fn stride_of(strides: &[(String, i64)], table: &str) -> i64 {
    strides
        .iter()
        .find(|(t, _)| t == table)
        .map_or(1, |(_, s)| *s)
}

fn has(columns: &[copy::Column], name: &str) -> bool {
    columns.iter().any(|c| c.name == name)
}

fn copy_users(
    conn: &mut DbConnection,
    columns: &[(String, Vec<copy::Column>)],
    strides: &[(String, i64)],
    players: Players,
) {
    let per_user: Vec<&(String, Vec<copy::Column>)> = columns
        .iter()
        .filter(|(t, cols)| {
            t == "users"
                || (has(cols, "user_id") && !has(cols, "game_id") && !has(cols, "challenge_id"))
        })
        .collect();
    let progress = Progress::new(players.copies as u64 - 1, "copies of the players");
    conn.transaction::<_, diesel::result::Error, _>(|conn| {
        // `users` first: the others refer to it.
        for m in 1..players.copies {
            for (table, cols) in per_user.iter().filter(|(t, _)| t == "users") {
                copy::user_rows(conn, table, cols, (m, players, stride_of(strides, table)));
            }
            for (table, cols) in per_user.iter().filter(|(t, _)| t != "users") {
                copy::user_rows(conn, table, cols, (m, players, stride_of(strides, table)));
            }
            progress.inc();
        }
        Ok(())
    })
    .expect("copy the players");
    progress.finish();
}

fn copy_games(
    conn: &mut DbConnection,
    columns: &[(String, Vec<copy::Column>)],
    strides: &[(String, i64)],
    players: Players,
    templates: &Templates,
    sizes: Sizes,
) {
    // `games` first, the others after it (a table's rows may refer to an earlier one's).
    let mut game_tables: Vec<&(String, Vec<copy::Column>)> = columns
        .iter()
        .filter(|(t, cols)| t == "games" || has(cols, "game_id"))
        .collect();
    game_tables.sort_by_key(|(t, _)| (t != "games", t != "engine_analyses", t.clone()));
    let game_stride = stride_of(strides, "games");
    let strides_fn = |t: &str| stride_of(strides, t);
    let finished_copies = sizes.finished.div_ceil(TEMPLATE_FINISHED) as i64;
    let running_copies = sizes.running.div_ceil(TEMPLATE_RUNNING) as i64;
    let copies = finished_copies.max(running_copies);
    let year = 365 * 86_400;
    let mut days = templates.running_days.clone();
    days.sort_unstable();
    days.dedup();
    let progress = Progress::new(copies as u64 - 1, "copies of the games");
    let (f0, f1) = templates.finished;
    let (r0, r1) = templates.running;
    for chunk in (1..copies).collect::<Vec<_>>().chunks(10) {
        conn.transaction::<_, diesel::result::Error, _>(|conn| {
            for &n in chunk {
                if n < finished_copies {
                    // Finished games spread back over a year.
                    let copy = Copy {
                        number: n,
                        strides: &strides_fn,
                        game_stride,
                        players,
                        shift_seconds: n * year / finished_copies,
                    };
                    let which = format!("id BETWEEN {f0} AND {f1}");
                    for (table, cols) in &game_tables {
                        copy.game_rows(conn, table, cols, &which);
                    }
                }
                if n < running_copies {
                    // Running games: each copy's last move earlier by up to 90% of the
                    // time for the move, so deadlines spread over the coming days.
                    for &d in &days {
                        let copy = Copy {
                            number: n,
                            strides: &strides_fn,
                            game_stride,
                            players,
                            shift_seconds: i64::from(d) * 86_400 * (n % 19) / 20,
                        };
                        let which = format!("id BETWEEN {r0} AND {r1} AND days_per_move = {d}");
                        for (table, cols) in &game_tables {
                            copy.game_rows(conn, table, cols, &which);
                        }
                    }
                }
                progress.inc();
            }
            Ok(())
        })
        .expect("copy the games");
    }
    progress.finish();
}
