//! A small WebDriver client for the browser tests: starts chromedriver and drives headless Chromium.
#![allow(dead_code)]

pub mod axe;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use base64::Engine;
use reqwest::Method;
use serde_json::{Value, json};

/// The key under which WebDriver wraps an element reference.
const ELEMENT_KEY: &str = "element-6066-11e4-a52e-4f735466cecf";
/// The browser the sessions run.
const CHROMIUM: &str = "/usr/bin/chromium";
/// How long `wait_until` polls before failing.
const WAIT: Duration = Duration::from_secs(15);

/// Where chromedriver is installed: `/usr/bin/chromedriver` or the first one on `PATH`.
pub fn chromedriver_path() -> Option<PathBuf> {
    let fixed = Path::new("/usr/bin/chromedriver");
    if fixed.is_file() {
        return Some(fixed.to_path_buf());
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join("chromedriver"))
        .find(|candidate| candidate.is_file())
}

/// chromedriver's path; `None` (the test skips) when it is not installed, except in CI, where
/// a browser test must run.
pub fn chromedriver() -> Option<PathBuf> {
    let found = chromedriver_path();
    if found.is_none() {
        assert!(
            !crate::common::under_ci(),
            "chromedriver not installed; CI must run the browser test (apt-get install chromium chromium-driver)"
        );
        eprintln!("SKIPPED: chromedriver not installed");
    }
    found
}

/// Writes `docs/screenshots/{name}` when `SLOWFUSE_SCREENSHOTS=1`, so normal runs leave the
/// tree alone.
pub fn screenshot(window: &Session, name: &str) {
    if std::env::var("SLOWFUSE_SCREENSHOTS").as_deref() == Ok("1") {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/screenshots");
        window.screenshot(&dir.join(name));
    }
}

/// The window of a desktop browser and of a phone, in CSS pixels.
pub const DESKTOP: (u32, u32) = (1200, 900);
pub const PHONE: (u32, u32) = (390, 844);

/// One player's browser window on the app (a desktop window).
pub struct Player<'d> {
    pub name: &'static str,
    pub window: Session<'d>,
    pub base: String,
}

impl<'d> Player<'d> {
    pub fn new(name: &'static str, driver: &'d Driver, app: &crate::common::TestApp) -> Self {
        let window = driver.session(DESKTOP.0, DESKTOP.1);
        window.set_viewport_size(DESKTOP.0, DESKTOP.1);
        Player {
            name,
            window,
            base: app.base.clone(),
        }
    }

    /// Opens a path of the app.
    pub fn open(&self, path: &str) {
        self.window.goto(&format!("{}{path}", self.base));
    }

    pub fn find(&self, css: &str) -> Element<'_> {
        self.window.find(css)
    }

    /// Fills in the sign-up form field by field and sends it.
    pub fn sign_up(&self) {
        self.open("/signup");
        self.find("#username").type_text(self.name);
        self.find("#email")
            .type_text(&format!("{}@example.com", self.name));
        self.find("#password").type_text("correct horse battery");
        self.find(r#"form[action="/signup"] button[type="submit"]"#)
            .click();
        self.window
            .wait_for_text(".flash", &format!("Welcome, {}!", self.name));
    }
}

/// A WebDriver error answer: its code (`no such element`, …) and message.
#[derive(Debug)]
pub struct WebDriverError {
    pub error: String,
    pub message: String,
}

/// A running chromedriver; killed (by its PID) when dropped.
pub struct Driver {
    child: Child,
    base: String,
    http: reqwest::blocking::Client,
}

/// The time zone the browsers of the tests live in.
pub const BROWSER_TIME_ZONE: &str = "America/Sao_Paulo";

impl Driver {
    /// Starts chromedriver on a port of its choosing and waits until it listens; a chromedriver
    /// that quits before it listens (seen on a loaded machine) is started again, twice at most.
    pub fn start(path: &Path) -> Driver {
        let mut last = String::new();
        for _ in 0..3 {
            match Driver::try_start(path) {
                Ok(driver) => return driver,
                Err(why) => last = why,
            }
        }
        panic!("chromedriver announces its port: {last}");
    }

    fn try_start(path: &Path) -> Result<Driver, String> {
        let mut child = Command::new(path)
            .arg("--port=0")
            // The browser's own time zone, which the sign-up form passes on to the account.
            .env("TZ", BROWSER_TIME_ZONE)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromedriver");
        let stdout = child.stdout.take().expect("chromedriver stdout");
        let (tx, rx) = std::sync::mpsc::channel();
        // Read the announced port, then keep draining so chromedriver never blocks on a full pipe.
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
        let mut driver = Driver {
            child,
            base: String::new(),
            http: reqwest::blocking::Client::builder()
                .timeout(Duration::from_secs(60))
                .build()
                .expect("HTTP client"),
        };
        let port = rx
            .recv_timeout(Duration::from_secs(20))
            .map_err(|e| e.to_string())?;
        driver.base = format!("http://127.0.0.1:{port}");
        Ok(driver)
    }

    fn command(
        &self,
        method: Method,
        path: &str,
        body: Option<Value>,
    ) -> Result<Value, WebDriverError> {
        let mut request = self.http.request(method, format!("{}{}", self.base, path));
        if let Some(body) = body {
            request = request.json(&body);
        }
        let response = request.send().map_err(|e| WebDriverError {
            error: "transport".into(),
            message: e.to_string(),
        })?;
        let ok = response.status().is_success();
        let mut answer: Value = response.json().map_err(|e| WebDriverError {
            error: "bad answer".into(),
            message: e.to_string(),
        })?;
        let value = answer["value"].take();
        if ok {
            Ok(value)
        } else {
            Err(WebDriverError {
                error: value["error"].as_str().unwrap_or("unknown").to_string(),
                message: value["message"].as_str().unwrap_or_default().to_string(),
            })
        }
    }

    /// Opens a headless Chromium with its own profile (so its own cookies) at this window size.
    pub fn session(&self, width: u32, height: u32) -> Session<'_> {
        self.session_with(width, height, true)
    }

    /// A window as [`Driver::session`] opens one, whose pages run no JavaScript (the browser's
    /// own setting, as a reader who switched it off has it).
    pub fn session_without_javascript(&self, width: u32, height: u32) -> Session<'_> {
        self.session_with(width, height, false)
    }

    fn session_with(&self, width: u32, height: u32, javascript: bool) -> Session<'_> {
        let profile = tempfile::tempdir().expect("profile dir");
        let args = vec![
            "--headless".to_string(),
            "--no-sandbox".to_string(),
            "--disable-gpu".to_string(),
            "--disable-dev-shm-usage".to_string(),
            "--disable-quic".to_string(),
            "--no-first-run".to_string(),
            "--disable-background-networking".to_string(),
            "--disable-component-update".to_string(),
            "--disable-sync".to_string(),
            format!("--user-data-dir={}", profile.path().display()),
            format!("--window-size={width},{height}"),
        ];
        let capabilities = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "pageLoadStrategy": "normal",
            "timeouts": {"implicit": 0, "pageLoad": 30_000, "script": 15_000},
            "goog:chromeOptions": {
                "binary": CHROMIUM,
                "args": args,
                "prefs": {"profile.managed_default_content_settings.javascript": if javascript { 1 } else { 2 }},
            },
            // The console is kept, so a test can read what the page logged (CSP violations).
            "goog:loggingPrefs": {"browser": "ALL"},
        }}});
        let value = self
            .command(Method::POST, "/session", Some(capabilities))
            .unwrap_or_else(|e| panic!("start a browser session: {e:?}"));
        let id = value["sessionId"]
            .as_str()
            .expect("a session id")
            .to_string();
        Session {
            driver: self,
            id,
            _profile: profile,
        }
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One browser window; closed (and its profile removed) when dropped.
pub struct Session<'d> {
    driver: &'d Driver,
    id: String,
    _profile: tempfile::TempDir,
}

/// An element found on the current page.
pub struct Element<'s> {
    session: &'s Session<'s>,
    id: String,
}

impl<'d> Session<'d> {
    fn try_command(
        &self,
        method: Method,
        path: &str,
        body: Option<Value>,
    ) -> Result<Value, WebDriverError> {
        self.driver
            .command(method, &format!("/session/{}{}", self.id, path), body)
    }

    fn command(&self, method: Method, path: &str, body: Option<Value>) -> Value {
        self.try_command(method, path, body)
            .unwrap_or_else(|e| panic!("WebDriver {path}: {e:?}"))
    }

    /// Opens a URL and waits for the page to load.
    pub fn goto(&self, url: &str) {
        self.command(Method::POST, "/url", Some(json!({ "url": url })));
    }

    /// The console messages logged since the last call (Chromium hands each out once), as
    /// `LEVEL: message` lines: the page's own logs, failed loads, and the browser's refusals
    /// under the Content-Security-Policy.
    pub fn browser_log(&self) -> Vec<String> {
        let entries = self.command(Method::POST, "/se/log", Some(json!({"type": "browser"})));
        entries
            .as_array()
            .map(|list| {
                list.iter()
                    .map(|e| {
                        format!(
                            "{}: {}",
                            e["level"].as_str().unwrap_or_default(),
                            e["message"].as_str().unwrap_or_default()
                        )
                    })
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The address of the current page.
    pub fn url(&self) -> String {
        self.command(Method::GET, "/url", None)
            .as_str()
            .unwrap_or_default()
            .to_string()
    }

    fn try_find_all(&self, css: &str) -> Result<Vec<Element<'_>>, WebDriverError> {
        let found = self.try_command(
            Method::POST,
            "/elements",
            Some(json!({"using": "css selector", "value": css})),
        )?;
        Ok(found
            .as_array()
            .map(|list| {
                list.iter()
                    .filter_map(|e| e[ELEMENT_KEY].as_str())
                    .map(|id| Element {
                        session: self,
                        id: id.to_string(),
                    })
                    .collect()
            })
            .unwrap_or_default())
    }

    /// Every element matching a CSS selector, now.
    pub fn find_all(&self, css: &str) -> Vec<Element<'_>> {
        self.try_find_all(css)
            .unwrap_or_else(|e| panic!("find {css}: {e:?}"))
    }

    /// The first element matching a CSS selector, now; panics when there is none.
    pub fn find(&self, css: &str) -> Element<'_> {
        self.find_all(css)
            .into_iter()
            .next()
            .unwrap_or_else(|| panic!("no element {css} on {}", self.url()))
    }

    /// Polls `check` until it gives a value; panics after a timeout, naming what was awaited.
    pub fn wait_until<T>(&self, what: &str, mut check: impl FnMut() -> Option<T>) -> T {
        let start = Instant::now();
        loop {
            if let Some(found) = check() {
                return found;
            }
            if start.elapsed() > WAIT {
                let text = self.body_text().unwrap_or_default();
                panic!(
                    "timed out waiting for {what} on {}; the page says:\n{text}",
                    self.url()
                );
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Waits until an element matching `css` holds `text` (a page being loaded counts as not yet).
    pub fn wait_for_text(&self, css: &str, text: &str) {
        self.wait_until(&format!("{css} saying {text:?}"), || {
            let found = self.try_find_all(css).ok()?;
            found
                .iter()
                .any(|e| e.try_text().is_ok_and(|t| t.contains(text)))
                .then_some(())
        });
    }

    /// Waits until an element matches `css`.
    pub fn wait_for(&self, css: &str) {
        self.wait_until(css, || {
            self.try_find_all(css)
                .ok()
                .filter(|found| !found.is_empty())
                .map(|_| ())
        });
    }

    fn body_text(&self) -> Option<String> {
        let body = self.try_find_all("body").ok()?.into_iter().next()?;
        body.try_text().ok()
    }

    /// Presses and releases one key wherever the focus is: a character, or a WebDriver key
    /// code such as `"\u{E012}"` (←).
    pub fn press_key(&self, key: &str) {
        let keys = json!([{"type": "keyDown", "value": key}, {"type": "keyUp", "value": key}]);
        self.command(
            Method::POST,
            "/actions",
            Some(json!({"actions": [{"type": "key", "id": "keyboard", "actions": keys}]})),
        );
    }

    /// Runs a script in the page and returns its result.
    pub fn execute(&self, script: &str, args: Value) -> Value {
        self.command(
            Method::POST,
            "/execute/sync",
            Some(json!({"script": script, "args": args})),
        )
    }

    /// Runs a script that calls its last argument with the result.
    pub fn execute_async(&self, script: &str, args: Value) -> Value {
        self.command(
            Method::POST,
            "/execute/async",
            Some(json!({"script": script, "args": args})),
        )
    }

    /// Presses the mouse on `from`, moves to `to` in small steps and releases it there.
    pub fn drag(&self, from: &Element, to: &Element) {
        let actions = json!({"actions": [{
            "type": "pointer",
            "id": "mouse",
            "parameters": {"pointerType": "mouse"},
            "actions": [
                {"type": "pointerMove", "duration": 0, "origin": from.reference(), "x": 0, "y": 0},
                {"type": "pointerDown", "button": 0},
                {"type": "pointerMove", "duration": 200, "origin": to.reference(), "x": 0, "y": 0},
                {"type": "pointerUp", "button": 0},
            ],
        }]});
        self.command(Method::POST, "/actions", Some(actions));
        self.command(Method::DELETE, "/actions", None);
    }

    /// Resizes the browser window.
    pub fn set_window_size(&self, width: i64, height: i64) {
        self.command(
            Method::POST,
            "/window/rect",
            Some(json!({"width": width, "height": height})),
        );
    }

    /// Sizes the window so that the page itself (what a screenshot shows) is `width` × `height`.
    pub fn set_viewport_size(&self, width: u32, height: u32) {
        let inner = || {
            let size = self.execute("return [window.innerWidth, window.innerHeight];", json!([]));
            (size[0].as_i64().unwrap_or(0), size[1].as_i64().unwrap_or(0))
        };
        let (w, h) = (i64::from(width), i64::from(height));
        self.set_window_size(w, h);
        // Headless Chromium keeps room for a (hidden) toolbar: add back what the page lost. On
        // a busy machine the window may take a moment to settle, so measure again until it has.
        for _ in 0..20 {
            let (iw, ih) = inner();
            if (iw, ih) == (w, h) {
                return;
            }
            let (ow, oh) = {
                let size =
                    self.execute("return [window.outerWidth, window.outerHeight];", json!([]));
                (size[0].as_i64().unwrap_or(w), size[1].as_i64().unwrap_or(h))
            };
            self.set_window_size(ow + w - iw, oh + h - ih);
            std::thread::sleep(Duration::from_millis(50));
        }
        assert_eq!(inner(), (w, h), "the page is {width}x{height}");
    }

    /// Shows the pages in the dark colour scheme (`prefers-color-scheme: dark`), or the light.
    pub fn set_dark(&self, dark: bool) {
        let scheme = if dark { "dark" } else { "light" };
        self.command(
            Method::POST,
            "/goog/cdp/execute",
            Some(json!({
                "cmd": "Emulation.setEmulatedMedia",
                "params": {"features": [{"name": "prefers-color-scheme", "value": scheme}]},
            })),
        );
    }

    /// Writes a PNG of the visible page (through a temporary file, so a reader never sees half).
    pub fn screenshot(&self, path: &Path) {
        let encoded = self.command(Method::GET, "/screenshot", None);
        let png = base64::engine::general_purpose::STANDARD
            .decode(encoded.as_str().expect("base64 screenshot"))
            .expect("decode screenshot");
        std::fs::create_dir_all(path.parent().expect("a directory")).expect("screenshot dir");
        let partial = path.with_extension(format!("{}.part", std::process::id()));
        std::fs::write(&partial, png).expect("write screenshot");
        std::fs::rename(&partial, path).expect("move screenshot in place");
    }
}

impl Drop for Session<'_> {
    fn drop(&mut self) {
        let _ = self
            .driver
            .command(Method::DELETE, &format!("/session/{}", self.id), None);
    }
}

impl Element<'_> {
    fn reference(&self) -> Value {
        json!({ ELEMENT_KEY: self.id })
    }

    fn path(&self, what: &str) -> String {
        format!("/element/{}/{what}", self.id)
    }

    /// Clicks the element's centre.
    pub fn click(&self) {
        self.session
            .command(Method::POST, &self.path("click"), Some(json!({})));
    }

    /// Empties an input.
    pub fn clear(&self) {
        self.session
            .command(Method::POST, &self.path("clear"), Some(json!({})));
    }

    /// Types text into the element, key by key.
    pub fn type_text(&self, text: &str) {
        self.session.command(
            Method::POST,
            &self.path("value"),
            Some(json!({ "text": text })),
        );
    }

    fn try_text(&self) -> Result<String, WebDriverError> {
        let value = self
            .session
            .try_command(Method::GET, &self.path("text"), None)?;
        Ok(value.as_str().unwrap_or_default().to_string())
    }

    /// The text the element shows.
    pub fn text(&self) -> String {
        self.try_text()
            .unwrap_or_else(|e| panic!("text of an element: {e:?}"))
    }

    /// An attribute as written in the HTML, if present.
    pub fn attribute(&self, name: &str) -> Option<String> {
        self.session
            .command(Method::GET, &self.path(&format!("attribute/{name}")), None)
            .as_str()
            .map(str::to_string)
    }

    /// Whether the element is shown (WebDriver's "is element displayed").
    pub fn displayed(&self) -> bool {
        self.session
            .command(Method::GET, &self.path("displayed"), None)
            .as_bool()
            .unwrap_or(false)
    }

    /// A DOM property, such as an input's current `value`.
    pub fn property(&self, name: &str) -> Value {
        self.session
            .command(Method::GET, &self.path(&format!("property/{name}")), None)
    }
}
