//! A minimal keep-alive HTTP/1.1 client, light enough not to steal much of the server's CPU, and the tally of what its requests saw.

use std::collections::BTreeMap;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::Barrier;
use std::time::{Duration, Instant};

use serde_json::Value;

/// One response: status, whether it set a cookie, body.
pub struct Reply {
    pub status: u16,
    pub sets_cookie: bool,
    pub body: Vec<u8>,
}

impl Reply {
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or(Value::Null)
    }

    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).trim().to_string()
    }
}

/// A keep-alive connection, one request at a time, as a browser tab or an API client.
pub struct Http {
    pub addr: SocketAddr,
    pub conn: Option<BufReader<TcpStream>>,
}

impl Http {
    pub fn new(addr: SocketAddr) -> Http {
        Http { addr, conn: None }
    }

    /// Sends one request, reconnecting once if the server closed the connection; a
    /// transport failure is reported as status 0.
    pub fn send(
        &mut self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<&Value>,
    ) -> Reply {
        let body = body.map(Value::to_string).unwrap_or_default();
        let mut request = format!("{method} {path} HTTP/1.1\r\nHost: {}\r\n", self.addr);
        if let Some(token) = token {
            request.push_str(&format!("Authorization: Bearer {token}\r\n"));
        }
        if method == "POST" {
            request.push_str("Content-Type: application/json\r\n");
            request.push_str(&format!("Content-Length: {}\r\n", body.len()));
        }
        request.push_str("\r\n");
        request.push_str(&body);
        for _ in 0..2 {
            match self.exchange(request.as_bytes()) {
                Ok(reply) => return reply,
                Err(_) => self.conn = None,
            }
        }
        let body = b"connection failed".to_vec();
        Reply {
            status: 0,
            sets_cookie: false,
            body,
        }
    }

    pub fn exchange(&mut self, request: &[u8]) -> io::Result<Reply> {
        if self.conn.is_none() {
            let stream = TcpStream::connect(self.addr)?;
            stream.set_nodelay(true)?;
            self.conn = Some(BufReader::with_capacity(64 * 1024, stream));
        }
        let conn = self.conn.as_mut().expect("connected");
        conn.get_mut().write_all(request)?;
        let (reply, keep_alive) = read_reply(conn)?;
        if !keep_alive {
            self.conn = None;
        }
        Ok(reply)
    }
}

/// Reads a status line, headers and a body sized by `Content-Length` or chunked; says
/// whether the connection stays open.
pub fn read_reply(conn: &mut BufReader<TcpStream>) -> io::Result<(Reply, bool)> {
    let mut line = String::new();
    if conn.read_line(&mut line)? == 0 {
        return Err(io::ErrorKind::UnexpectedEof.into());
    }
    let status = line.split(' ').nth(1).and_then(|s| s.parse().ok());
    let (mut length, mut chunked, mut keep_alive, mut sets_cookie) = (None, false, true, false);
    loop {
        line.clear();
        conn.read_line(&mut line)?;
        let Some((name, value)) = line.trim_end().split_once(':') else {
            break;
        };
        let value = value.trim().to_ascii_lowercase();
        match name.to_ascii_lowercase().as_str() {
            "content-length" => length = value.parse::<usize>().ok(),
            "transfer-encoding" => chunked = value.contains("chunked"),
            "connection" => keep_alive = !value.contains("close"),
            "set-cookie" => sets_cookie = true,
            _ => {}
        }
    }
    let mut body = Vec::new();
    if chunked {
        read_chunks(conn, &mut body)?;
    } else if let Some(n) = length {
        body.resize(n, 0);
        conn.read_exact(&mut body)?;
    } else {
        conn.read_to_end(&mut body)?;
        keep_alive = false;
    }
    let status = status.unwrap_or(0);
    let reply = Reply {
        status,
        sets_cookie,
        body,
    };
    Ok((reply, keep_alive))
}

pub fn read_chunks(conn: &mut BufReader<TcpStream>, body: &mut Vec<u8>) -> io::Result<()> {
    let mut line = String::new();
    loop {
        line.clear();
        conn.read_line(&mut line)?;
        let size = line.trim().split(';').next().unwrap_or("");
        let size = usize::from_str_radix(size, 16).map_err(io::Error::other)?;
        if size == 0 {
            // Skip any trailers, up to the empty line.
            while {
                line.clear();
                conn.read_line(&mut line)? > 0 && !line.trim().is_empty()
            } {}
            return Ok(());
        }
        let start = body.len();
        body.resize(start + size, 0);
        conn.read_exact(&mut body[start..])?;
        line.clear();
        conn.read_line(&mut line)?;
    }
}

// ---------------------------------------------------------------------------------------------
// Counting

/// What one or more clients saw: successes with their latencies, failures by status.
#[derive(Default)]
pub struct Tally {
    pub latencies_us: Vec<u32>,
    pub errors: BTreeMap<u16, u64>,
    pub first_error: Option<String>,
}

impl Tally {
    /// Counts one reply; true when it has the expected status.
    pub fn record(&mut self, reply: &Reply, started: Instant, ok_status: u16) -> bool {
        if reply.status == ok_status {
            self.record_success(started);
            return true;
        }
        self.record_failure(reply.status, format!("{} {}", reply.status, reply.text()));
        false
    }

    /// Counts one success that began at `started`.
    pub fn record_success(&mut self, started: Instant) {
        let us = started.elapsed().as_micros().min(u128::from(u32::MAX)) as u32;
        self.latencies_us.push(us);
    }

    /// Counts one failure, keeping the first one's words.
    pub fn record_failure(&mut self, status: u16, words: String) {
        *self.errors.entry(status).or_default() += 1;
        if self.first_error.is_none() {
            self.first_error = Some(words);
        }
    }

    pub fn merge(&mut self, other: Tally) {
        self.latencies_us.extend(other.latencies_us);
        for (status, n) in other.errors {
            *self.errors.entry(status).or_default() += n;
        }
        self.first_error = self.first_error.take().or(other.first_error);
    }

    pub fn errors_text(&self) -> String {
        if self.errors.is_empty() {
            return "0".into();
        }
        let parts: Vec<String> = self
            .errors
            .iter()
            .map(|(s, n)| format!("{n}×{s}"))
            .collect();
        parts.join(", ")
    }
}

/// Runs `client(i, ready)` on `clients` threads at once: each prepares, waits on `ready`, then
/// loads the server and returns its tally. The clock starts when all are ready; returns the
/// tallies merged and the time until the last one ended.
pub fn run_clients(
    clients: usize,
    client: impl Fn(usize, &Barrier) -> Tally + Sync,
) -> (Tally, Duration) {
    let ready = Barrier::new(clients + 1);
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..clients)
            .map(|i| {
                let (client, ready) = (&client, &ready);
                s.spawn(move || client(i, ready))
            })
            .collect();
        ready.wait();
        let started = Instant::now();
        let mut all = Tally::default();
        for h in handles {
            all.merge(h.join().expect("a client"));
        }
        (all, started.elapsed())
    })
}
