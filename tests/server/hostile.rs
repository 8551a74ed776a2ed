//! Hostile input against the real server process (`slowfuse serve`, spawned on a free port):
//! bodies larger than a route takes refused with 413 without being read whole, and a flood of
//! sign-ups and logins that keeps the server's memory bounded, answers other requests
//! meanwhile, and refuses the excess with 503 having changed nothing.

use crate::common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

use common::server::ServerProcess;
use common::{Backend, fresh_postgres_database, postgres_url};
use serde_json::{Value, json};

/// A `slowfuse serve` process on its own database and port, without the worker; killed
/// when dropped.
struct Server {
    process: ServerProcess,
    base: String,
    port: u16,
    _dir: tempfile::TempDir,
}

impl Server {
    /// Starts the server on `backend` with settings of its own (`SLOWFUSE__…` pairs) and waits
    /// until it answers; `None` when the backend is not available here.
    fn start(backend: Backend, settings: &[(&str, &str)]) -> Option<Server> {
        let dir = tempfile::tempdir().expect("temp dir");
        let database_url = match backend {
            Backend::Sqlite => format!("sqlite://{}", dir.path().join("test.db").display()),
            Backend::Postgres => fresh_postgres_database(&postgres_url()?),
        };
        let mut all = vec![
            ("SLOWFUSE__SERVER__WORKERS", "2"),
            ("SLOWFUSE__WORKER__ENABLED", "false"),
        ];
        all.extend_from_slice(settings);
        let process = ServerProcess::start(&database_url, dir.path(), None, &all);
        Some(Server {
            base: process.base(),
            port: process.port,
            process,
            _dir: dir,
        })
    }

    /// A line of `/proc/PID/status` in kB (`VmRSS`: memory now; `VmHWM`: the peak so far).
    fn memory_kb(&self, field: &str) -> u64 {
        self.process.memory_kb(field)
    }
}

/// Sends `head` (the request line and headers, without the blank line) and `body` on a new
/// connection, and reads the answer until the server closes it or 15 seconds pass.
fn raw_request(port: u16, head: &str, body: &[u8]) -> (String, Duration) {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(15)))
        .expect("timeout");
    let started = Instant::now();
    stream
        .write_all(format!("{head}\r\n\r\n").as_bytes())
        .expect("send the head");
    stream.write_all(body).expect("send the body");
    (read_answer(&mut stream), started.elapsed())
}

/// The answer's head and body as far as they came: up to the end of the body (when it says
/// its length), the close of the connection, or the read timeout.
fn read_answer(stream: &mut TcpStream) -> String {
    let mut answer = Vec::new();
    let mut buf = [0u8; 8192];
    loop {
        match stream.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => answer.extend_from_slice(&buf[..n]),
        }
        let text = String::from_utf8_lossy(&answer);
        if let Some((head, body)) = text.split_once("\r\n\r\n") {
            let length = head
                .lines()
                .find_map(|l| {
                    l.to_ascii_lowercase()
                        .strip_prefix("content-length:")
                        .map(|v| v.trim().to_string())
                })
                .and_then(|v| v.parse::<usize>().ok());
            if length.is_some_and(|n| body.len() >= n) {
                break;
            }
        }
    }
    String::from_utf8_lossy(&answer).into_owned()
}

#[test]
fn oversized_bodies_are_refused_before_they_are_read_whole() {
    let Some(server) = Server::start(Backend::Sqlite, &[]) else {
        return;
    };
    let before = server.memory_kb("VmRSS");

    // 50 MB announced, a few bytes sent: 413 at once, on a page form and in the API, and on a
    // route that reads no body at all.
    for (path, kind) in [
        ("/signup", "application/x-www-form-urlencoded"),
        ("/api/v1/accounts", "application/json"),
        ("/", "text/plain"),
    ] {
        let (answer, took) = raw_request(
            server.port,
            &format!(
                "POST {path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: {kind}\r\nContent-Length: 52428800"
            ),
            b"username=",
        );
        println!("{path}: 50 MB announced, answered in {took:?}");
        assert!(answer.starts_with("HTTP/1.1 413"), "{path}: {answer}");
        assert!(
            answer
                .contains("larger than the 7 MB this address accepts: nothing was read or changed"),
            "{path}: {answer}"
        );
        if path.starts_with("/api/") {
            assert!(answer.contains(r#"{"error":"#), "{answer}");
        }
        assert!(took < Duration::from_secs(10), "{path}: {took:?}");
    }

    // Within the largest limit but over a form's (1 MB to the login form): its own 413, again
    // without waiting for the body.
    let (answer, _) = raw_request(
        server.port,
        "POST /login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1048576",
        b"username=alice",
    );
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    assert!(
        answer.contains("larger than the 32 KB this address accepts"),
        "{answer}"
    );
    let (answer, _) = raw_request(
        server.port,
        "POST /api/v1/accounts HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1048576",
        b"{\"username\":",
    );
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    assert!(
        answer.contains("larger than the 64 KB this address accepts"),
        "{answer}"
    );

    // 10 MB in chunks to a form, and no end of the body: refused once the form's limit is
    // passed (the answer comes though the body never ends), nothing of it kept.
    let mut stream = TcpStream::connect(("127.0.0.1", server.port)).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(15)))
        .expect("timeout");
    stream
        .write_all(
            b"POST /login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n",
        )
        .expect("send the head");
    let chunk = vec![b'a'; 64 * 1024];
    let mut sent = 0;
    while sent < 10 * 1024 * 1024 {
        let ok = stream
            .write_all(format!("{:x}\r\n", chunk.len()).as_bytes())
            .and_then(|_| stream.write_all(&chunk))
            .and_then(|_| stream.write_all(b"\r\n"));
        if ok.is_err() {
            break;
        }
        sent += chunk.len();
    }
    let answer = read_answer(&mut stream);
    println!("chunked: {} MB sent before the answer was read", sent >> 20);
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    assert!(
        answer.contains("larger than the 32 KB this address accepts"),
        "{answer}"
    );
    assert!(
        answer.to_ascii_lowercase().contains("connection: close"),
        "{answer}"
    );

    // The server did not grow by anything like the bodies' size, and still answers.
    let after = server.memory_kb("VmRSS");
    println!("VmRSS before {before} kB, after {after} kB");
    assert!(
        after < before + 12 * 1024,
        "grew from {before} kB to {after} kB"
    );
    let res = reqwest::blocking::get(format!("{}/", server.base)).expect("the home page");
    assert_eq!(res.status(), 200);
}

/// How one request of the flood ended.
struct Outcome {
    name: String,
    signup: bool,
    status: u16,
    retry_after: Option<String>,
    body: Value,
}

/// The flood: sign-ups and logins far beyond what the server hashes at once.
const FLOOD: usize = 300;
/// The peak memory the flood may bring the server to.
const PEAK_LIMIT_KB: u64 = 200 * 1024;

fn flood_keeps_memory_bounded_and_the_site_answering(backend: Backend) {
    let Some(server) = Server::start(
        backend,
        &[
            ("SLOWFUSE__AUTH__PASSWORD_HASHES_AT_ONCE", "2"),
            ("SLOWFUSE__AUTH__PASSWORD_QUEUE", "16"),
            ("SLOWFUSE__AUTH__PASSWORD_WAIT_SECONDS", "10"),
            // Every request comes from 127.0.0.1: the address's throttle must not decide.
            ("SLOWFUSE__AUTH__MAX_FAILED_LOGINS_PER_ADDRESS", "100000"),
        ],
    ) else {
        return;
    };
    let client = reqwest::blocking::Client::builder()
        .timeout(Duration::from_secs(120))
        .build()
        .expect("client");
    let post = |path: &str, body: Value| {
        let res = client
            .post(format!("{}{path}", server.base))
            .json(&body)
            .send()
            .expect("request");
        let status = res.status().as_u16();
        let retry_after = res
            .headers()
            .get("retry-after")
            .and_then(|v| v.to_str().ok())
            .map(str::to_string);
        (
            status,
            retry_after,
            res.json::<Value>().unwrap_or(Value::Null),
        )
    };
    let password = "correct horse battery";
    let mut tokens = Vec::new();
    for name in ["alice", "bob"] {
        let (status, _, body) = post(
            "/api/v1/accounts",
            json!({"username": name, "email": format!("{name}@example.com"), "password": password}),
        );
        assert_eq!(status, 201, "{body}");
        let (status, _, body) = post(
            "/api/v1/tokens",
            json!({"username": name, "password": password}),
        );
        assert_eq!(status, 201, "{body}");
        tokens.push(body["token"].as_str().expect("token").to_string());
    }
    let res = client
        .post(format!("{}/api/v1/challenges", server.base))
        .bearer_auth(&tokens[0])
        .json(&json!({"variant": "atomic", "color": "white", "days_per_move": 3}))
        .send()
        .expect("challenge");
    let challenge: Value = res.json().expect("challenge JSON");
    let res = client
        .post(format!(
            "{}/api/v1/challenges/{}/accept",
            server.base, challenge["id"]
        ))
        .bearer_auth(&tokens[1])
        .json(&json!({}))
        .send()
        .expect("accept");
    let game = res.json::<Value>().expect("game JSON")["game_id"]
        .as_i64()
        .expect("a game");
    let idle = server.memory_kb("VmRSS");

    // Other requests while the flood runs: the home page and the game's JSON.
    let flooding = Arc::new(AtomicBool::new(true));
    let prober = {
        let (client, base, flooding) = (client.clone(), server.base.clone(), Arc::clone(&flooding));
        std::thread::spawn(move || {
            let mut answered = Vec::new();
            let mut failed = 0;
            while flooding.load(Ordering::SeqCst) {
                for path in ["/".to_string(), format!("/api/v1/games/{game}")] {
                    let started = Instant::now();
                    match client.get(format!("{base}{path}")).send() {
                        Ok(r) if r.status().is_success() => answered.push(started.elapsed()),
                        _ => failed += 1,
                    }
                }
                std::thread::sleep(Duration::from_millis(20));
            }
            (answered, failed)
        })
    };

    let start = Arc::new(Barrier::new(FLOOD));
    let started = Instant::now();
    let threads: Vec<_> = (0..FLOOD)
        .map(|i| {
            let (client, base, start) = (client.clone(), server.base.clone(), Arc::clone(&start));
            std::thread::spawn(move || {
                // Two in three sign up; the rest log in as alice.
                let signup = i % 3 != 0;
                let name = if signup { format!("flood{i}") } else { "alice".to_string() };
                let (path, body) = if signup {
                    (
                        "/api/v1/accounts",
                        json!({"username": name, "email": format!("{name}@example.com"), "password": password}),
                    )
                } else {
                    ("/api/v1/tokens", json!({"username": name, "password": password}))
                };
                start.wait();
                let res = client
                    .post(format!("{base}{path}"))
                    .json(&body)
                    .send()
                    .expect("a flood request is answered");
                Outcome {
                    name,
                    signup,
                    status: res.status().as_u16(),
                    retry_after: res
                        .headers()
                        .get("retry-after")
                        .and_then(|v| v.to_str().ok())
                        .map(str::to_string),
                    body: res.json().unwrap_or(Value::Null),
                }
            })
        })
        .collect();
    let outcomes: Vec<Outcome> = threads
        .into_iter()
        .map(|t| t.join().expect("a flood thread"))
        .collect();
    let flood_time = started.elapsed();
    flooding.store(false, Ordering::SeqCst);
    let (mut answered, failed) = prober.join().expect("the prober");
    let peak = server.memory_kb("VmHWM");

    let count = |signup: bool, status: u16| {
        outcomes
            .iter()
            .filter(|o| o.signup == signup && o.status == status)
            .count()
    };
    answered.sort();
    println!(
        "{backend:?}: {FLOOD} at once in {flood_time:?}: sign-ups {} made, {} refused; logins {} made, {} refused",
        count(true, 201),
        count(true, 503),
        count(false, 201),
        count(false, 503)
    );
    println!(
        "{backend:?}: other requests answered {} (median {:?}, slowest {:?}), failed {failed}",
        answered.len(),
        answered.get(answered.len() / 2),
        answered.last()
    );
    println!("{backend:?}: VmRSS idle {idle} kB, VmHWM (peak) {peak} kB");

    // Every request was either served or refused as too busy, with a time to come back.
    for o in &outcomes {
        match o.status {
            201 => {}
            503 => {
                assert_eq!(o.retry_after.as_deref(), Some("5"), "{}", o.name);
                assert_eq!(
                    o.body["error"], "Too many sign-ins at once; try again in a moment",
                    "{}",
                    o.name
                );
            }
            other => panic!("{}: {other} {}", o.name, o.body),
        }
    }
    assert!(
        count(true, 201) > 0 && count(false, 201) > 0,
        "some were served"
    );
    assert!(
        count(true, 503) + count(false, 503) > 0,
        "the excess was refused"
    );
    assert!(
        !answered.is_empty(),
        "the site answered other requests during the flood"
    );
    assert!(peak < PEAK_LIMIT_KB, "peak memory {peak} kB");

    // Each account made logs in; each sign-up refused made nothing.
    for o in outcomes.iter().filter(|o| o.signup) {
        let (status, _, body) = post(
            "/api/v1/tokens",
            json!({"username": o.name, "password": password}),
        );
        let expected = if o.status == 201 { 201 } else { 401 };
        assert_eq!(
            status, expected,
            "{} (sign-up {}): {body}",
            o.name, o.status
        );
    }
    // A name refused is still free.
    if let Some(refused) = outcomes.iter().find(|o| o.signup && o.status == 503) {
        let (status, _, body) = post(
            "/api/v1/accounts",
            json!({"username": refused.name, "email": "again@example.com", "password": password}),
        );
        assert_eq!(status, 201, "{body}");
    }
}

#[test]
fn a_flood_of_sign_ups_and_logins_keeps_memory_bounded_on_sqlite() {
    flood_keeps_memory_bounded_and_the_site_answering(Backend::Sqlite);
}

#[test]
fn a_flood_of_sign_ups_and_logins_keeps_memory_bounded_on_postgres() {
    flood_keeps_memory_bounded_and_the_site_answering(Backend::Postgres);
}
