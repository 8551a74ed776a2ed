//! Headless Chromium driven through chromedriver (WebDriver over HTTP), holding the engine's page.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::{Value, json};

/// A running chromedriver with one headless Chromium session; both end (by the session's
/// deletion and chromedriver's PID) when this is dropped.
pub struct Browser {
    driver: Child,
    session: String,
    base: String,
    http: reqwest::blocking::Client,
    profile: TempDir,
    /// The browser's version, as the session reports it.
    pub version: String,
}

impl Browser {
    /// Starts chromedriver, then a headless Chromium session.
    pub fn start(chromedriver: &Path, chromium: &Path) -> Result<Browser, String> {
        let (driver, port) = spawn_chromedriver(chromedriver)?;
        let profile = TempDir::new("slowfuse-yardstick-profile")?;
        let mut browser = Browser {
            driver,
            session: String::new(),
            base: format!("http://127.0.0.1:{port}"),
            http: reqwest::blocking::Client::builder()
                .timeout(Duration::from_secs(700))
                .build()
                .map_err(|e| e.to_string())?,
            profile,
            version: String::new(),
        };
        let args = [
            "--headless".to_string(),
            "--no-sandbox".to_string(),
            "--disable-gpu".to_string(),
            "--disable-dev-shm-usage".to_string(),
            "--no-first-run".to_string(),
            "--disable-background-networking".to_string(),
            "--disable-component-update".to_string(),
            format!("--user-data-dir={}", browser.profile.0.display()),
        ];
        let capabilities = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "timeouts": {"implicit": 0, "pageLoad": 60_000, "script": 600_000},
            "goog:chromeOptions": {"binary": chromium, "args": args},
        }}});
        let value = browser.command("POST", "/session", capabilities)?;
        browser.session = value["sessionId"]
            .as_str()
            .ok_or("no session id")?
            .to_string();
        browser.version = value["capabilities"]["browserVersion"]
            .as_str()
            .unwrap_or("?")
            .to_string();
        Ok(browser)
    }

    fn command(&self, method: &str, path: &str, body: Value) -> Result<Value, String> {
        let url = format!("{}{path}", self.base);
        let request = match method {
            "POST" => self.http.post(url).json(&body),
            _ => self.http.delete(url),
        };
        let response = request
            .send()
            .map_err(|e| format!("WebDriver {path}: {e}"))?;
        let ok = response.status().is_success();
        let mut answer: Value = response
            .json()
            .map_err(|e| format!("WebDriver {path}: {e}"))?;
        let value = answer["value"].take();
        if ok {
            Ok(value)
        } else {
            Err(format!("WebDriver {path}: {value}"))
        }
    }

    /// Opens a URL and waits for the page to load.
    pub fn open(&self, url: &str) -> Result<(), String> {
        let path = format!("/session/{}/url", self.session);
        self.command("POST", &path, json!({ "url": url })).map(drop)
    }

    /// Runs a script in the page that calls its last argument with the result.
    pub fn run_async(&self, script: &str, args: Value) -> Result<Value, String> {
        let path = format!("/session/{}/execute/async", self.session);
        self.command("POST", &path, json!({"script": script, "args": args}))
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let path = format!("/session/{}", self.session);
            let _ = self.command("DELETE", &path, Value::Null);
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

/// Starts chromedriver on a port of its choosing; the process and the port it announces.
fn spawn_chromedriver(path: &Path) -> Result<(Child, u16), String> {
    let mut driver = Command::new(path)
        .arg("--port=0")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("start chromedriver: {e}"))?;
    let stdout = driver.stdout.take().ok_or("chromedriver's output")?;
    let (tx, rx) = std::sync::mpsc::channel();
    // Read the port it announces, then keep draining so that it never blocks on the pipe.
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if let Some(port) = line
                .split("started successfully on port ")
                .nth(1)
                .and_then(|rest| rest.trim_end_matches('.').trim().parse::<u16>().ok())
            {
                let _ = tx.send(port);
            }
        }
    });
    match rx.recv_timeout(Duration::from_secs(30)) {
        Ok(port) => Ok((driver, port)),
        Err(_) => {
            let _ = driver.kill();
            let _ = driver.wait();
            Err("chromedriver did not announce its port".into())
        }
    }
}

/// A directory of its own under the system's temporary directory, removed when dropped.
struct TempDir(std::path::PathBuf);

impl TempDir {
    fn new(prefix: &str) -> Result<TempDir, String> {
        let path = std::env::temp_dir().join(format!("{prefix}-{}", std::process::id()));
        std::fs::create_dir_all(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(TempDir(path))
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Fairy-Stockfish in the page, spoken to in UCI.
pub struct Fairy<'b> {
    browser: &'b Browser,
    /// The engine's name, as its `id name` line gives it.
    pub name: String,
}

impl<'b> Fairy<'b> {
    /// Opens the page at `url`, waits for the engine, and sets it up for atomic on one thread with
    /// its classical evaluation (no network file is loaded).
    pub fn load(browser: &'b Browser, url: &str) -> Result<Fairy<'b>, String> {
        browser.open(url)?;
        let wait = "const done = arguments[arguments.length - 1];
            const poll = () => window.yardstick ? done(true) : setTimeout(poll, 50);
            poll();";
        browser.run_async(wait, json!([]))?;
        let mut fairy = Fairy {
            browser,
            name: String::new(),
        };
        let hello = fairy.uci(&["uci"], "uciok")?;
        fairy.name = hello
            .iter()
            .find_map(|line| line.strip_prefix("id name "))
            .unwrap_or("?")
            .to_string();
        fairy.uci(
            &[
                "setoption name UCI_Variant value atomic",
                "setoption name Use NNUE value false",
                "setoption name Threads value 1",
                "setoption name Hash value 16",
                "ucinewgame",
                "isready",
            ],
            "readyok",
        )?;
        Ok(fairy)
    }

    /// Sends commands; the engine's lines up to the first that starts with `until`.
    pub fn uci(&self, commands: &[&str], until: &str) -> Result<Vec<String>, String> {
        let script = "const done = arguments[arguments.length - 1];
            window.yardstick.uci(arguments[0], arguments[1]).then(done);";
        let lines = self.browser.run_async(script, json!([commands, until]))?;
        Ok(lines
            .as_array()
            .map(|all| {
                all.iter()
                    .filter_map(|l| l.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default())
    }

    /// The network file the engine would ask for, if any (none is given here).
    pub fn recommended_nnue(&self) -> Option<String> {
        let script = "const done = arguments[arguments.length - 1];
            done(window.yardstick.recommendedNnue() ?? null);";
        let value = self.browser.run_async(script, json!([])).ok()?;
        value.as_str().map(str::to_string)
    }

    /// The engine's move after `moves` from the start, searching `nodes` nodes.
    pub fn best_move(&self, moves: &[String], nodes: u64) -> Result<String, String> {
        let position = if moves.is_empty() {
            "position startpos".to_string()
        } else {
            format!("position startpos moves {}", moves.join(" "))
        };
        let go = format!("go nodes {nodes}");
        let lines = self.uci(&[&position, &go], "bestmove")?;
        let last = lines.last().map(String::as_str).unwrap_or_default();
        last.split_whitespace()
            .nth(1)
            .map(str::to_string)
            .ok_or_else(|| format!("no move in {last:?}"))
    }
}
