//! The `slowfuse` binary run as its own process, as an operator runs it: for the tests that
//! kill it, stop it or run several of it. Settings come as `SLOWFUSE__SECTION__KEY` pairs.

use std::ffi::OsStr;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use super::Api;
use super::smtp::free_port;

/// One running `slowfuse serve` process.
pub struct ServerProcess {
    child: Child,
    pub port: u16,
    /// Its stderr (the log), written to this file.
    pub log: std::path::PathBuf,
}

impl ServerProcess {
    /// Starts the server on `database_url` with its data in `data_dir`, listening on `port`
    /// (a free one when `None`) with `settings` applied last, and waits until it answers.
    pub fn start<K: AsRef<OsStr>, V: AsRef<OsStr>>(
        database_url: &str,
        data_dir: &std::path::Path,
        port: Option<u16>,
        settings: &[(K, V)],
    ) -> ServerProcess {
        let port = port.unwrap_or_else(free_port);
        let log = data_dir.join(format!("server-{port}-{}.log", now_millis()));
        let config_dir = concat!(env!("CARGO_MANIFEST_DIR"), "/config");
        let mut command = Command::new(env!("CARGO_BIN_EXE_slowfuse"));
        command
            .args(["--config-dir", config_dir, "serve"])
            .env("DATABASE_URL", database_url)
            .env("SLOWFUSE__SERVER__BIND", format!("127.0.0.1:{port}"))
            .env("SLOWFUSE__SERVER__DATA_DIR", data_dir)
            .env("RUST_LOG", "warn")
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log).expect("the server's log file"));
        for (key, value) in settings {
            command.env(key, value);
        }
        let child = command.spawn().expect("start slowfuse");
        let mut server = ServerProcess { child, port, log };
        server.wait_until_answering();
        server
    }

    /// `http://127.0.0.1:PORT`.
    pub fn base(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// A new client of this server.
    pub fn api(&self) -> Api {
        Api::new(self.base())
    }

    fn wait_until_answering(&mut self) {
        let deadline = Instant::now() + Duration::from_secs(60);
        let client = reqwest::blocking::Client::new();
        loop {
            if let Some(status) = self.child.try_wait().expect("the server's status") {
                panic!(
                    "slowfuse exited at start ({status}):\n{}",
                    std::fs::read_to_string(&self.log).unwrap_or_default()
                );
            }
            if client
                .get(format!("{}/", self.base()))
                .timeout(Duration::from_secs(2))
                .send()
                .is_ok()
            {
                return;
            }
            assert!(Instant::now() < deadline, "slowfuse did not answer in 60 s");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// SIGKILL: the process ends at once, whatever it was doing.
    pub fn kill(mut self) {
        self.child.kill().expect("SIGKILL");
        self.child.wait().expect("reap the server");
    }

    /// SIGTERM, then waits for the process to end; its exit status and how long it took.
    pub fn terminate(mut self) -> (std::process::ExitStatus, Duration) {
        let started = Instant::now();
        let sent = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .expect("run kill");
        assert!(sent.success(), "kill -TERM failed");
        let status = self.child.wait().expect("reap the server");
        (status, started.elapsed())
    }

    /// The process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// A line of `/proc/PID/status` in kB (`VmRSS`: memory now; `VmHWM`: the peak so far).
    pub fn memory_kb(&self, field: &str) -> u64 {
        let pid = self.pid();
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("proc status");
        status
            .lines()
            .find_map(|l| l.strip_prefix(&format!("{field}:")))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap_or_else(|| panic!("{field} in /proc/{pid}/status"))
    }

    /// What the server logged so far.
    pub fn log_text(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

fn now_millis() -> u128 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis()
}
