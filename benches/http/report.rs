//! The rows measured and the Markdown report printed at the end: results, answer sizes, long games against short ones, this build against another.

use std::collections::BTreeMap;
use std::process::Command;
use std::sync::Mutex;
use std::time::Duration;

use crate::bare::{PGBENCH, SQLITE_COMMIT};
use crate::client::Tally;
use crate::lines::Lines;
use crate::servers::{Build, CpuUsed, Memory};
use crate::{
    BenchConfig, HELLO_WORLD, LINE, LONG_FROM, LONG_PLIES, MEMORY_STAGES, MOVES, PAGE_PLIES,
    Resource, Run, VARIANT, moves_label,
};

/// One line of the results table.
pub struct Row {
    pub database: &'static str,
    pub build: String,
    pub what: String,
    pub client: String,
    pub per_second: f64,
    pub mean_ms: f64,
    pub p50_ms: f64,
    pub p99_ms: f64,
    pub failures: String,
    /// What the row's window cost the machine, for the rows of a server under test.
    pub usage: Option<Usage>,
}

/// What a server used during one row's window, per successful request, and its resident
/// memory at the end of the window.
#[derive(Clone, Copy)]
pub struct Usage {
    pub server_cpu_us: f64,
    /// PostgreSQL's server processes for this database (none on SQLite: it is in the server).
    pub database_cpu_us: Option<f64>,
    pub resident_mb: f64,
}

impl Usage {
    /// The CPU used between `before` and `after` spread over `requests`, and `memory`.
    pub fn new(before: CpuUsed, after: CpuUsed, requests: usize, memory: Memory) -> Usage {
        let per_request = |used: Duration| used.as_secs_f64() * 1e6 / requests.max(1) as f64;
        let database = match (before.database, after.database) {
            (Some(before), Some(after)) => Some(per_request(after.saturating_sub(before))),
            _ => None,
        };
        Usage {
            server_cpu_us: per_request(after.server.saturating_sub(before.server)),
            database_cpu_us: database,
            resident_mb: memory.resident_mb,
        }
    }
}

impl Row {
    /// The row of a server under test: our client's tally over `elapsed`.
    pub fn from_tally(
        run: &Run,
        what: &str,
        clients: usize,
        tally: Tally,
        elapsed: Duration,
    ) -> Row {
        let mut row = Row::measured((run.db, run.build), what, clients, tally, elapsed);
        row.client = format!("bench ×{clients}");
        row
    }

    /// A row of `(database, build)`: quantiles and failures of `tally` over `elapsed`.
    pub fn measured(
        (database, build): (&'static str, &str),
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
            let at = format!("{database} {build} {what}");
            eprintln!("  {at}: first failure: {}", truncate(e, 300));
        }
        Row {
            database,
            build: build.to_string(),
            what: what.to_string(),
            client: format!("×{clients}"),
            per_second: lat.len() as f64 / elapsed.as_secs_f64(),
            mean_ms: mean / 1000.0,
            p50_ms: quantile(0.50),
            p99_ms: quantile(0.99),
            failures: tally.errors_text(),
            usage: None,
        }
    }
}

pub fn truncate(text: &str, max: usize) -> String {
    text.chars().take(max).collect()
}

/// Everything measured, printed at the end.
#[derive(Default)]
pub struct Report {
    pub rows: Vec<Row>,
    /// What each GET answered.
    pub responses: Vec<Response>,
    /// Notes on the runs (games made during a window, and the like).
    pub notes: Vec<String>,
    /// The servers' memory: database, build, stage (one of `MEMORY_STAGES`), reading.
    pub memory: Vec<(&'static str, String, &'static str, Memory)>,
}

/// The size of one GET's answer, and whether it set a cookie.
pub struct Response {
    pub database: &'static str,
    pub build: String,
    pub what: String,
    pub bytes: usize,
    pub sets_cookie: bool,
}

/// Setup requests answered 500 and retried, by route, with the first answer: the server
/// should never do that, so the report says so.
pub static SETUP_FAILURES: Mutex<BTreeMap<String, (u64, String)>> = Mutex::new(BTreeMap::new());

// ---------------------------------------------------------------------------------------------
// Report

pub fn print_header(config: &BenchConfig, lines: &Lines, builds: &[Build]) {
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
        config.seconds,
        config
            .clients
            .iter()
            .map(usize::to_string)
            .collect::<Vec<_>>()
            .join(", ")
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
pub fn git_describe() -> String {
    Command::new("git")
        .args(["describe", "--always", "--dirty"])
        .output()
        .ok()
        .filter(|out| out.status.success())
        .map(|out| String::from_utf8_lossy(&out.stdout).trim().to_string())
        .unwrap_or_else(|| "unknown (no git)".into())
}

pub fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|t| t.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".into())
}

/// `a ÷ b` with two decimals, or a dash when either is missing.
pub fn fraction(a: Option<f64>, b: Option<f64>) -> String {
    match (a, b) {
        (Some(a), Some(b)) if b > 0.0 => format!("{:.2}", a / b),
        _ => "–".into(),
    }
}

impl Report {
    pub fn print(&self, rules: &[(String, Duration)]) {
        println!(
            "| database | build | request | client | per second | mean ms | p50 ms | p99 ms | failures \
             | server CPU µs/req | PostgreSQL CPU µs/req | server RSS MiB |"
        );
        println!("|---|---|---|---|---:|---:|---:|---:|---|---:|---:|---:|");
        for r in &self.rows {
            let usage = match r.usage {
                None => "– | – | –".to_string(),
                Some(u) => {
                    let db = u
                        .database_cpu_us
                        .map_or("–".into(), |us| format!("{us:.0}"));
                    format!("{:.0} | {db} | {:.1}", u.server_cpu_us, u.resident_mb)
                }
            };
            println!(
                "| {} | {} | {} | {} | {:.0} | {:.2} | {:.2} | {:.2} | {} | {usage} |",
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
    pub fn print_responses(&self) {
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

    /// One row, if it was measured.
    fn row(&self, database: &str, build: &str, what: &str, client: &str) -> Option<&Row> {
        self.rows.iter().find(|r| {
            (
                r.database,
                r.build.as_str(),
                r.what.as_str(),
                r.client.as_str(),
            ) == (database, build, what, client)
        })
    }

    /// Moves beside the bare commits, and reads beside the hello-world, by each number of
    /// clients, for every build.
    pub fn print_limits(&self, config: &BenchConfig) {
        let builds: Vec<&str> = self
            .rows
            .iter()
            .map(|r| r.build.as_str())
            .filter(|b| !["bare", HELLO_WORLD].contains(b))
            .fold(Vec::new(), |mut all, b| {
                if !all.contains(&b) {
                    all.push(b);
                }
                all
            });
        println!(
            "Moves beside the bare database: a move's rate as a fraction of the bare commit \
             loop's (SQLite) or `pgbench -N`'s (PostgreSQL) with as many clients (the aim: 0.50 \
             or more, and p99 under 50 ms with {} clients)\n",
            config.most_clients()
        );
        println!(
            "| database | build | clients | moves /s | p50 ms | p99 ms | bare /s | bare p50 ms \
             | bare p99 ms | moves ÷ bare |"
        );
        println!("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|");
        for db in self.databases() {
            let bare_what = if db == "SQLite" {
                SQLITE_COMMIT
            } else {
                PGBENCH
            };
            for build in &builds {
                for &clients in config.clients {
                    let Some(moves) = self.row(db, build, MOVES, &format!("bench ×{clients}"))
                    else {
                        continue;
                    };
                    let bare = self.row(db, "bare", bare_what, &format!("×{clients}"));
                    let cell = |f: fn(&Row) -> f64, digits: usize| {
                        bare.map_or("–".into(), |b| format!("{:.*}", digits, f(b)))
                    };
                    println!(
                        "| {db} | {build} | {clients} | {:.0} | {:.2} | {:.2} | {} | {} | {} | {} |",
                        moves.per_second,
                        moves.p50_ms,
                        moves.p99_ms,
                        cell(|r| r.per_second, 0),
                        cell(|r| r.p50_ms, 2),
                        cell(|r| r.p99_ms, 2),
                        fraction(Some(moves.per_second), bare.map(|b| b.per_second)),
                    );
                }
            }
        }
        println!(
            "\nReads beside the web stack: a GET's rate as a fraction of an actix-web \
             hello-world's answering the same bytes with as many clients (the aim: 0.25 or \
             more)\n"
        );
        println!("| database | build | request | clients | per second | hello-world /s | ÷ |");
        println!("|---|---|---|---:|---:|---:|---:|");
        for r in &self.rows {
            let Some(clients) = r.client.strip_prefix("bench ×") else {
                continue;
            };
            if r.what.starts_with("POST") || !builds.contains(&r.build.as_str()) {
                continue;
            }
            let hello = self.row(r.database, HELLO_WORLD, &r.what, &format!("×{clients}"));
            let hello_rate = hello.map(|h| h.per_second);
            println!(
                "| {} | {} | {} | {clients} | {:.0} | {} | {} |",
                r.database,
                r.build,
                r.what,
                r.per_second,
                hello_rate.map_or("–".into(), |h| format!("{h:.0}")),
                fraction(Some(r.per_second), hello_rate)
            );
        }
        println!();
    }

    /// The servers' resident memory at each stage, and at its peak.
    pub fn print_memory(&self) {
        println!("The servers' resident memory, MiB (peak: the most it held up to that stage)\n");
        println!(
            "| database | build | {} | peak |",
            MEMORY_STAGES.join(" | ")
        );
        println!("|---|---|{}---:|", "---:|".repeat(MEMORY_STAGES.len()));
        let mut seen: Vec<(&str, &str)> = Vec::new();
        for (db, build, _, _) in &self.memory {
            if !seen.contains(&(db, build.as_str())) {
                seen.push((db, build));
            }
        }
        for (db, build) in seen {
            let stages = self
                .memory
                .iter()
                .filter(|m| (m.0, m.1.as_str()) == (db, build));
            let mut cells = Vec::new();
            let mut peak = f64::NAN;
            for stage in MEMORY_STAGES {
                let memory = stages.clone().find(|m| m.2 == stage).map(|m| m.3);
                cells.push(memory.map_or("–".into(), |m| format!("{:.1}", m.resident_mb)));
                if let Some(m) = memory {
                    peak = m.peak_mb;
                }
            }
            println!("| {db} | {build} | {} | {peak:.1} |", cells.join(" | "));
        }
        println!();
    }

    /// The rate of one row, if it was measured.
    pub fn rate(&self, database: &str, build: &str, what: &str, client: &str) -> Option<f64> {
        self.row(database, build, what, client)
            .map(|r| r.per_second)
    }

    pub fn databases(&self) -> Vec<&'static str> {
        let mut databases: Vec<&'static str> = self.rows.iter().map(|r| r.database).collect();
        databases.dedup();
        databases
    }

    /// Per database and build: the long game's rates as a fraction of the short one's.
    pub fn print_game_lengths(&self, builds: &[Build], clients: usize) {
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
    pub fn print_builds(&self, builds: &[Build]) {
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
