//! The servers under test: this build's `slowfuse` binary and, when asked, another build's, each a
//! child process on a fresh SQLite file or PostgreSQL database; what each process uses of the
//! machine (CPU time, resident memory) read from `/proc`.

use std::net::{SocketAddr, TcpListener};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use diesel::Connection;
use diesel::connection::SimpleConnection;

use crate::client::Http;

/// A build of the server to measure.
pub struct Build {
    /// Its name in the rows: `this`, or the other build's label.
    pub label: String,
    /// The binary to start as a child process.
    pub binary: PathBuf,
}

impl Build {
    /// The builds to measure, in the order each row is measured. With `SLOWFUSE_BENCH_BINARY`,
    /// that binary (labelled by `SLOWFUSE_BENCH_BINARY_LABEL`, else `other`) and then this
    /// build's own binary (the one `cargo bench` builds beside the benchmark, same profile);
    /// without it, this build alone. Both run as child processes, alike.
    pub fn from_env() -> Vec<Build> {
        let this = Build {
            label: "this".into(),
            binary: PathBuf::from(env!("CARGO_BIN_EXE_slowfuse")),
        };
        let Some(other) = std::env::var_os("SLOWFUSE_BENCH_BINARY").filter(|p| !p.is_empty())
        else {
            return vec![this];
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
        vec![
            Build {
                label,
                binary: other,
            },
            this,
        ]
    }

    pub fn describe(&self) -> String {
        format!("`{}`: {}", self.label, self.binary.display())
    }
}

/// One build's server, serving on a port of its own against a fresh database, until dropped.
pub struct Server {
    pub addr: SocketAddr,
    /// The server process's id, to read its CPU time and memory.
    pub pid: u32,
    /// The PostgreSQL database's name, to find the server processes that serve it.
    pub database_name: Option<String>,
    /// The PostgreSQL database's URL.
    database_url: Option<String>,
    // Fields drop in order: the process ends before its database and directory go.
    _child: ChildServer,
    _database: Option<PgDatabase>,
    _dir: tempfile::TempDir,
}

/// A PostgreSQL database made for this run and dropped at its end.
pub struct PgDatabase {
    pub server: String,
    pub name: String,
}

impl PgDatabase {
    /// Creates an empty database named `name`; returns it with its URL.
    pub fn create(server: &str, name: String) -> (PgDatabase, String) {
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
    pub fn spawn(postgres: Option<&str>, build: &Build, index: usize) -> Server {
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
        let addr = free_local_addr();
        let database_url = database.as_ref().map(|_| url.clone());
        let env = server_env(url, dir.path(), addr.to_string());
        let child = ChildServer::start(&build.binary, dir.path(), env, addr);
        Server {
            addr,
            pid: child.process.id(),
            database_name: database.as_ref().map(|db| db.name.clone()),
            database_url,
            _child: child,
            _database: database,
            _dir: dir,
        }
    }

    /// On PostgreSQL, vacuums and analyses the database after the setup's writes, as the
    /// autovacuum daemon would in its own time: otherwise it may do so in the middle of a
    /// measurement (its CPU time counts as the database's).
    pub fn settle(&self) {
        let Some(url) = &self.database_url else {
            return;
        };
        let settled = diesel::PgConnection::establish(url)
            .map_err(|e| e.to_string())
            .and_then(|mut c| {
                c.batch_execute("VACUUM (ANALYZE)")
                    .map_err(|e| e.to_string())
            });
        if let Err(e) = settled {
            eprintln!("could not vacuum {url}: {e}");
        }
    }

    /// The CPU time the server process and, on PostgreSQL, the database's server processes
    /// have used so far.
    pub fn cpu_used(&self) -> CpuUsed {
        CpuUsed {
            server: process_cpu(self.pid).unwrap_or_default(),
            database: self.database_name.as_deref().map(database_cpu),
        }
    }

    /// The server process's resident memory now and at its peak.
    pub fn memory(&self) -> Memory {
        let status =
            std::fs::read_to_string(format!("/proc/{}/status", self.pid)).unwrap_or_default();
        let megabytes = |key: &str| {
            let line = status.lines().find(|l| l.starts_with(key))?;
            let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
            Some(kb / 1024.0)
        };
        Memory {
            resident_mb: megabytes("VmRSS:").unwrap_or(f64::NAN),
            peak_mb: megabytes("VmHWM:").unwrap_or(f64::NAN),
        }
    }
}

/// CPU time used, by the server process and by the database's server processes.
#[derive(Clone, Copy, Default)]
pub struct CpuUsed {
    pub server: Duration,
    pub database: Option<Duration>,
}

/// A process's resident memory now and at its peak, in MiB.
#[derive(Clone, Copy)]
pub struct Memory {
    pub resident_mb: f64,
    pub peak_mb: f64,
}

/// User and system CPU time of a process, from `/proc/PID/stat`.
fn process_cpu(pid: u32) -> Option<Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name in parentheses may hold spaces: count the fields after it.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(Duration::from_secs_f64(
        ticks as f64 / clock_ticks_per_second(),
    ))
}

/// The kernel's unit of `/proc` CPU times (`getconf CLK_TCK`, 100 on Linux almost always).
fn clock_ticks_per_second() -> f64 {
    static TICKS: std::sync::OnceLock<f64> = std::sync::OnceLock::new();
    *TICKS.get_or_init(|| {
        Command::new("getconf")
            .arg("CLK_TCK")
            .output()
            .ok()
            .and_then(|out| String::from_utf8_lossy(&out.stdout).trim().parse().ok())
            .unwrap_or(100.0)
    })
}

/// CPU time of the PostgreSQL server processes serving `database` now (their titles read
/// `postgres: [CLUSTER:] USER DATABASE HOST…`); connections that closed take theirs with them.
fn database_cpu(database: &str) -> Duration {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Duration::ZERO;
    };
    entries
        .filter_map(|entry| entry.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            let title = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
            let title = String::from_utf8_lossy(&title);
            title.starts_with("postgres:") && title.split_whitespace().any(|w| w == database)
        })
        .filter_map(process_cpu)
        .sum()
}

/// The server's environment: the `SLOWFUSE__*` settings of ours, then the database, the
/// address and the data directory of this run.
pub fn server_env(url: String, dir: &Path, bind: String) -> Vec<(String, String)> {
    let mut env: Vec<(String, String)> = std::env::vars()
        .filter(|(k, _)| k.starts_with("SLOWFUSE__"))
        .collect();
    env.push(("DATABASE_URL".into(), url));
    env.push(("SLOWFUSE__SERVER__BIND".into(), bind));
    let data_dir = dir.display().to_string();
    env.push(("SLOWFUSE__SERVER__DATA_DIR".into(), data_dir));
    env
}

/// A local address no one listens on now (the system's choice of a free port).
pub fn free_local_addr() -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a free port");
    listener.local_addr().expect("its address")
}

/// A `slowfuse serve` process, ended when dropped.
pub struct ChildServer {
    process: Child,
    pub binary: PathBuf,
}

impl ChildServer {
    /// Starts `binary serve` with `env` over ours, reading settings from `dir` (which holds no
    /// TOML) and logging as this benchmark does; returns once it answers on `addr`.
    pub fn start(binary: &Path, dir: &Path, env: Vec<(String, String)>, addr: SocketAddr) -> Self {
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
    pub fn wait_until_answering(&mut self, addr: SocketAddr) {
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
