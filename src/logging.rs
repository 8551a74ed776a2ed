//! The server's log on standard error: lines for people, or one JSON object per line for a log
//! collector (`log.format`); every line written while a request is served carries its id.

use std::cell::RefCell;
use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::config::LogFormat;

/// The target of the access lines (one per answered request).
pub const ACCESS_TARGET: &str = "slowfuse::access";

static JSON: AtomicBool = AtomicBool::new(false);

/// The id of one request, as sent back in `X-Request-Id` and written in its log lines.
#[derive(Clone, Debug)]
pub struct RequestId(Arc<str>);

impl RequestId {
    /// Wraps an id already checked or made by the web layer.
    pub fn new(id: &str) -> RequestId {
        RequestId(id.into())
    }

    /// The id's text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

tokio::task_local! {
    /// The request a future of the HTTP server is serving.
    static REQUEST: RequestId;
}

thread_local! {
    /// The request a blocking job (database work on the thread pool) was started for.
    static THREAD_REQUEST: RefCell<Option<RequestId>> = const { RefCell::new(None) };
    /// The fields of the access line being written on this thread.
    static ACCESS: RefCell<AccessFields> = const { RefCell::new(AccessFields::new()) };
}

/// An access line's fields, in buffers kept per thread (no allocation once warm).
struct AccessFields {
    active: bool,
    method: String,
    path: String,
    status: u16,
    duration_ms: f64,
}

impl AccessFields {
    const fn new() -> AccessFields {
        AccessFields {
            active: false,
            method: String::new(),
            path: String::new(),
            status: 0,
            duration_ms: 0.0,
        }
    }
}

/// Starts logging at `RUST_LOG`'s level (default `info`), as text until [`set_format`].
pub fn init() {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("info"))
        .format(write_record)
        .init();
}

/// Chooses the format of the lines from now on.
pub fn set_format(format: LogFormat) {
    JSON.store(format == LogFormat::Json, Ordering::Relaxed);
}

/// Runs `fut` as the serving of request `id`: its log lines carry the id.
pub async fn in_request<F: Future>(id: RequestId, fut: F) -> F::Output {
    REQUEST.scope(id, fut).await
}

/// The request being served here (by this future, or the blocking job started for it).
pub fn current_request() -> Option<RequestId> {
    REQUEST
        .try_with(RequestId::clone)
        .ok()
        .or_else(|| THREAD_REQUEST.with_borrow(Clone::clone))
}

/// Runs blocking work `f` for request `id` (taken with [`current_request`] before the work
/// left the request's thread): its log lines carry the id.
pub fn with_request<T>(id: Option<RequestId>, f: impl FnOnce() -> T) -> T {
    struct Restore(Option<RequestId>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let before = self.0.take();
            THREAD_REQUEST.with_borrow_mut(|r| *r = before);
        }
    }
    let before = THREAD_REQUEST.with_borrow_mut(|r| std::mem::replace(r, id));
    let _restore = Restore(before);
    f()
}

/// Writes the access line of an answered request (info, target [`ACCESS_TARGET`]). The path
/// goes without its query string, which may hold a mail link's token.
pub fn access(method: &str, path: &str, status: u16, duration: std::time::Duration) {
    if !log::log_enabled!(target: ACCESS_TARGET, log::Level::Info) {
        return;
    }
    let duration_ms = duration.as_secs_f64() * 1000.0;
    ACCESS.with_borrow_mut(|a| {
        a.active = true;
        a.method.clear();
        a.method.push_str(method);
        a.path.clear();
        a.path.push_str(path);
        a.status = status;
        a.duration_ms = duration_ms;
    });
    log::info!(target: ACCESS_TARGET, "{method} {path} {status} {duration_ms:.1}ms");
    ACCESS.with_borrow_mut(|a| a.active = false);
}

/// env_logger's format: one line per record, text or JSON.
fn write_record(buf: &mut env_logger::fmt::Formatter, record: &log::Record) -> std::io::Result<()> {
    let time = chrono::Utc::now().format("%Y-%m-%dT%H:%M:%S%.3fZ");
    let id = current_request();
    if !JSON.load(Ordering::Relaxed) {
        write!(buf, "[{time} {:<5} {}", record.level(), record.target())?;
        if let Some(id) = &id {
            write!(buf, " {}", id.as_str())?;
        }
        return writeln!(buf, "] {}", record.args());
    }
    write!(
        buf,
        "{{\"time\":\"{time}\",\"level\":\"{}\",\"target\":",
        record.level()
    )?;
    json_string(buf, record.target())?;
    buf.write_all(b",\"message\":")?;
    match record.args().as_str() {
        Some(text) => json_string(buf, text)?,
        None => json_string(buf, &record.args().to_string())?,
    }
    if let Some(id) = &id {
        buf.write_all(b",\"request_id\":")?;
        json_string(buf, id.as_str())?;
    }
    if record.target() == ACCESS_TARGET {
        ACCESS.with_borrow(|a| -> std::io::Result<()> {
            if !a.active {
                return Ok(());
            }
            buf.write_all(b",\"method\":")?;
            json_string(buf, &a.method)?;
            buf.write_all(b",\"path\":")?;
            json_string(buf, &a.path)?;
            write!(
                buf,
                ",\"status\":{},\"duration_ms\":{:.3}",
                a.status, a.duration_ms
            )
        })?;
    }
    buf.write_all(b"}\n")
}

/// A JSON string literal, quoted and escaped.
fn json_string(out: &mut impl Write, text: &str) -> std::io::Result<()> {
    serde_json::to_writer(out, text).map_err(std::io::Error::other)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_id_follows_its_future_and_the_blocking_work_started_for_it() {
        let seen =
            actix_web::rt::System::new().block_on(in_request(RequestId::new("r-1"), async {
                let here = current_request().map(|r| r.as_str().to_string());
                let captured = current_request();
                let there = std::thread::spawn(move || {
                    with_request(captured, || {
                        current_request().map(|r| r.as_str().to_string())
                    })
                })
                .join()
                .unwrap();
                (here, there)
            }));
        assert_eq!(seen, (Some("r-1".into()), Some("r-1".into())));
        assert!(
            current_request().is_none(),
            "outside the request there is none"
        );
    }
}
