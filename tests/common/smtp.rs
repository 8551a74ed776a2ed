//! A real SMTP server for tests (Debian's python3-aiosmtpd, started by `tests/smtp_sink.py`):
//! it writes each mail it accepts to a directory, and the tests read them back.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

use serde_json::Value;

/// The settings that send a server's mail to a sink listening on `port` (plain SMTP on this
/// host, given up after 5 s), as `SLOWFUSE__…` pairs.
pub fn mail_settings(port: u16) -> Vec<(&'static str, String)> {
    vec![
        ("SLOWFUSE__MAIL__TRANSPORT", "smtp".to_string()),
        ("SLOWFUSE__MAIL__SMTP_HOST", "127.0.0.1".to_string()),
        ("SLOWFUSE__MAIL__SMTP_PORT", port.to_string()),
        ("SLOWFUSE__MAIL__SMTP_TLS", "none".to_string()),
        ("SLOWFUSE__MAIL__TIMEOUT_SECONDS", "5".to_string()),
    ]
}

/// The settings of an app in the process of a mail test: its mail to `port` and the public
/// URL its links start with, as the app's environment.
pub fn mail_app_settings(port: u16) -> Vec<(String, String)> {
    let mut settings = vec![(
        "SLOWFUSE__SERVER__PUBLIC_URL".to_string(),
        PUBLIC_URL.to_string(),
    )];
    settings.extend(
        mail_settings(port)
            .into_iter()
            .map(|(k, v)| (k.to_string(), v)),
    );
    settings
}

/// The public URL the mail tests' servers are configured with (links in mails start with it).
pub const PUBLIC_URL: &str = "http://chess.example.org";

pub fn aiosmtpd_available() -> bool {
    Command::new("/usr/bin/python3")
        .args(["-c", "import aiosmtpd"])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// The SMTP server of one test: aiosmtpd writing each mail it accepts to a directory.
pub struct SmtpSink {
    dir: tempfile::TempDir,
    port: u16,
    child: Option<Child>,
    /// Whether the app knows the port yet (the sink has listened on it once).
    port_in_use: bool,
}

impl SmtpSink {
    /// A free port for a sink not yet running; `None` (the test skips) without aiosmtpd,
    /// except under CI, where the test fails instead.
    pub fn reserve() -> Option<SmtpSink> {
        if !aiosmtpd_available() {
            assert!(
                !super::under_ci(),
                "the mail tests need python3-aiosmtpd (apt-get install python3-aiosmtpd)"
            );
            eprintln!("SKIPPED: install python3-aiosmtpd to run the mail tests");
            return None;
        }
        Some(SmtpSink {
            dir: tempfile::tempdir().expect("temp dir"),
            port: free_port(),
            child: None,
            port_in_use: false,
        })
    }

    /// The port, given to the app: from now on the sink must listen on this one.
    pub fn port_for_app(&mut self) -> u16 {
        self.port_in_use = true;
        self.port
    }

    /// Starts the server on the reserved port and waits until it listens. The port was free
    /// when reserved, but another test may take it meanwhile: until the app has been given the
    /// port, a sink that cannot bind it tries another.
    pub fn start(&mut self) {
        assert!(self.child.is_none(), "the sink is already running");
        let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/smtp_sink.py");
        for _ in 0..5 {
            let mut child = Command::new("/usr/bin/python3")
                .arg(script)
                .arg(self.dir.path())
                .arg(self.port.to_string())
                .stdout(Stdio::piped())
                .spawn()
                .expect("start the SMTP sink");
            let mut line = String::new();
            BufReader::new(child.stdout.take().expect("stdout"))
                .read_line(&mut line)
                .expect("the sink's first line");
            if line.trim() == format!("PORT {}", self.port) {
                self.child = Some(child);
                self.port_in_use = true;
                return;
            }
            let _ = child.wait();
            assert!(
                !self.port_in_use,
                "the sink cannot listen on port {} again",
                self.port
            );
            self.port = free_port();
        }
        panic!("the sink found no port to listen on");
    }

    /// Stops the server (an SMTP outage).
    pub fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Every mail received so far, in the order received.
    pub fn mails(&self) -> Vec<Mail> {
        let mut names: Vec<_> = std::fs::read_dir(self.dir.path())
            .expect("sink dir")
            .filter_map(|e| e.ok())
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        names.sort();
        names
            .iter()
            .map(|p| Mail(serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap()))
            .collect()
    }
}

impl Drop for SmtpSink {
    fn drop(&mut self) {
        self.stop();
    }
}

/// One received mail, as Python's email package read it.
#[derive(Debug)]
pub struct Mail(pub Value);

impl Mail {
    pub fn header(&self, name: &str) -> String {
        self.0["headers"][name.to_lowercase()][0]
            .as_str()
            .unwrap_or_else(|| panic!("no {name} header in {}", self.0["headers"]))
            .to_string()
    }
    pub fn has_header(&self, name: &str) -> bool {
        !self.0["headers"][name.to_lowercase()].is_null()
    }
    pub fn rcpt_tos(&self) -> Vec<String> {
        let to = self.0["rcpt_tos"].as_array().unwrap();
        to.iter().map(|a| a.as_str().unwrap().to_string()).collect()
    }
    pub fn is_to(&self, name: &str) -> bool {
        self.rcpt_tos() == vec![format!("{name}@example.com")]
    }
    pub fn subject(&self) -> String {
        self.header("subject")
    }
    pub fn text(&self) -> &str {
        self.0["text"].as_str().expect("a text/plain part")
    }
    pub fn html(&self) -> &str {
        self.0["html"].as_str().expect("a text/html part")
    }
    /// The first link in the text part that starts with the public URL and `path`.
    pub fn link(&self, path: &str) -> String {
        let start = format!("{PUBLIC_URL}{path}");
        self.text()
            .split_whitespace()
            .find(|w| w.starts_with(&start))
            .unwrap_or_else(|| panic!("no link to {start} in:\n{}", self.text()))
            .to_string()
    }
    /// The URL inside `List-Unsubscribe: <…>`.
    pub fn unsubscribe_url(&self) -> String {
        let h = self.header("list-unsubscribe");
        h.trim_start_matches('<').trim_end_matches('>').to_string()
    }
}

/// A port nobody listens on now.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port()
}
