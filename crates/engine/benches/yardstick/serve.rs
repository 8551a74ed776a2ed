//! A tiny HTTP server on the loopback interface for the yardstick's page and the engine's files.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};

/// The page that loads the engine: our own few lines, served as `/`.
///
/// It imports the package's module, creates the engine as its type declarations say, and
/// keeps it as `window.yardstick` with an `uci(commands, until)` helper that resolves with the
/// engine's lines up to the first that starts with `until`.
const PAGE: &str = r#"<!doctype html>
<meta charset="utf-8">
<title>yardstick</title>
<script type="module">
import createEngine from "./fsf_14.js";
const engine = await createEngine();
let waiting = null;
const lines = [];
engine.listen = (line) => {
  lines.push(line);
  if (waiting && line.startsWith(waiting.until)) {
    const done = waiting.done;
    waiting = null;
    done(lines.splice(0));
  }
};
engine.onError = (message) => lines.push("error: " + message);
window.yardstick = {
  uci(commands, until) {
    return new Promise((done) => {
      lines.length = 0;
      waiting = { until, done };
      for (const command of commands) engine.uci(command);
    });
  },
  recommendedNnue: () => engine.getRecommendedNnue(),
};
</script>
"#;

/// Starts serving `/` (the page) and the files of `root` on `127.0.0.1`, on a port of the
/// system's choosing, from a thread of its own; returns the base URL.
pub fn start(root: &Path) -> std::io::Result<String> {
    let listener = TcpListener::bind("127.0.0.1:0")?;
    let base = format!("http://{}", listener.local_addr()?);
    let root = root.to_path_buf();
    std::thread::spawn(move || {
        for stream in listener.incoming().map_while(Result::ok) {
            let root = root.clone();
            std::thread::spawn(move || {
                let _ = answer(stream, &root);
            });
        }
    });
    Ok(base)
}

/// Answers one request (a GET; the connection then closes), with the headers that let the
/// page share memory with its workers (threaded WebAssembly needs a cross-origin-isolated page).
fn answer(mut stream: TcpStream, root: &Path) -> std::io::Result<()> {
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut request_line = String::new();
    reader.read_line(&mut request_line)?;
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header)? == 0 || header.trim().is_empty() {
            break;
        }
    }
    let path = request_line.split_whitespace().nth(1).unwrap_or("/");
    let path = path.split('?').next().unwrap_or(path);
    let (status, kind, body) = match file(root, path) {
        Some(found) => ("200 OK", content_type(&found.0), found.1),
        None => ("404 Not Found", "text/plain", b"not found".to_vec()),
    };
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\n\
         Cross-Origin-Opener-Policy: same-origin\r\n\
         Cross-Origin-Embedder-Policy: require-corp\r\n\
         Cross-Origin-Resource-Policy: same-origin\r\n\
         Cache-Control: no-store\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes())?;
    stream.write_all(&body)?;
    stream.flush()
}

/// The page for `/`, else a file directly inside `root` (no sub-folders, no `..`).
fn file(root: &Path, path: &str) -> Option<(PathBuf, Vec<u8>)> {
    if path == "/" {
        return Some((PathBuf::from("index.html"), PAGE.as_bytes().to_vec()));
    }
    let name = path.strip_prefix('/')?;
    if name.is_empty() || name.contains('/') || name.contains("..") {
        return None;
    }
    let found = root.join(name);
    let bytes = std::fs::read(&found).ok()?;
    Some((found, bytes))
}

fn content_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()) {
        Some("html") => "text/html; charset=utf-8",
        Some("js") => "text/javascript",
        Some("wasm") => "application/wasm",
        _ => "application/octet-stream",
    }
}
