//! The servers under test: this build in the benchmark's process or as a child process, another build beside it, each on a fresh SQLite file or PostgreSQL database.

use std::net::{SocketAddr, TcpListener};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use diesel::Connection;
use diesel::connection::SimpleConnection;
use slowfuse::clock::SystemClock;
use slowfuse::config::Settings;
use slowfuse::random::SystemRandom;
use slowfuse::startup::Application;

use crate::client::Http;

/// A build of the server to measure.
pub struct Build {
    /// Its name in the rows: `this`, or the other build's label.
    pub label: String,
    /// The binary to start as a child process; `None`: this build, inside the benchmark.
    pub binary: Option<PathBuf>,
}

impl Build {
    /// The builds to measure, in the order each row is measured. With `SLOWFUSE_BENCH_BINARY`,
    /// that binary (labelled by `SLOWFUSE_BENCH_BINARY_LABEL`, else `other`) and then this
    /// build's own binary, both as child processes so that they run alike; without it, this
    /// build alone, inside the benchmark's process.
    pub fn from_env() -> Vec<Build> {
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

    pub fn describe(&self) -> String {
        match &self.binary {
            None => format!("`{}`: in the benchmark's process", self.label),
            Some(path) => format!("`{}`: {}", self.label, path.display()),
        }
    }
}

/// One build's server, serving on a port of its own against a fresh database, until dropped.
pub struct Server {
    pub addr: SocketAddr,
    // Fields drop in order: the process ends before its database and directory go.
    pub _child: Option<ChildServer>,
    pub _database: Option<PgDatabase>,
    pub _dir: tempfile::TempDir,
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

/// Runs this build's application on a thread of this process, exactly as the tests do;
/// returns where it listens.
pub fn serve_in_process(dir: &Path, env: Vec<(String, String)>) -> SocketAddr {
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
pub fn free_local_addr() -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a free port");
    listener.local_addr().expect("its address")
}

/// A `slowfuse serve` process, ended when dropped.
pub struct ChildServer {
    pub process: Child,
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
