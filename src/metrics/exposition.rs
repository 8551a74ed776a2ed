//! The Prometheus text exposition format (version 0.0.4) of an application's figures.

use std::collections::BTreeMap;
use std::fmt::Write;

use super::Metrics;
use super::requests::{BUCKETS, Method};

/// What a scrape reads besides the counters: the database's answer and the process.
#[derive(Debug, Default)]
pub struct Scrape {
    /// Mails queued and not yet sent; `None` when the database did not answer.
    pub outbox_depth: Option<i64>,
    /// Whether this instance runs the background worker.
    pub worker_enabled: bool,
    /// Seconds since the worker's last completed pass.
    pub worker_lag_seconds: Option<f64>,
    /// The process's resident memory, when the system tells.
    pub resident_bytes: Option<u64>,
    /// When the process started, in seconds since the Unix epoch.
    pub start_time_seconds: Option<f64>,
}

impl Scrape {
    /// The process's resident memory from `/proc/self/status` (Linux); `None` elsewhere.
    pub fn resident_memory() -> Option<u64> {
        let status = std::fs::read_to_string("/proc/self/status").ok()?;
        let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
        let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(kb * 1024)
    }
}

/// The whole exposition: `# HELP` and `# TYPE` before each family, one sample a line.
pub fn render(metrics: &Metrics, scrape: &Scrape) -> String {
    let mut out = String::with_capacity(8 * 1024);
    requests(&mut out, metrics);
    family(
        &mut out,
        "slowfuse_moves_total",
        "counter",
        "Moves stored by this instance since it started.",
    );
    sample(&mut out, "slowfuse_moves_total", "", metrics.moves() as f64);
    family(
        &mut out,
        "slowfuse_database_up",
        "gauge",
        "1 when the database answered this scrape, else 0.",
    );
    let up = if scrape.outbox_depth.is_some() {
        1.0
    } else {
        0.0
    };
    sample(&mut out, "slowfuse_database_up", "", up);
    if let Some(depth) = scrape.outbox_depth {
        family(
            &mut out,
            "slowfuse_outbox_depth",
            "gauge",
            "Mails queued in the outbox and not yet sent (pending or being sent).",
        );
        sample(&mut out, "slowfuse_outbox_depth", "", depth as f64);
    }
    worker(&mut out, metrics, scrape);
    process(&mut out, scrape);
    family(
        &mut out,
        "slowfuse_build_info",
        "gauge",
        "The running version, as a label.",
    );
    let version = format!("{{version=\"{}\"}}", env!("CARGO_PKG_VERSION"));
    sample(&mut out, "slowfuse_build_info", &version, 1.0);
    out
}

fn requests(out: &mut String, metrics: &Metrics) {
    let mut series = metrics.requests.snapshot();
    series.sort_by(|a, b| {
        (&a.key.route, a.key.method.as_str(), a.key.status).cmp(&(
            &b.key.route,
            b.key.method.as_str(),
            b.key.status,
        ))
    });
    let name = "slowfuse_http_requests_total";
    family(
        out,
        name,
        "counter",
        "HTTP requests answered, by method, route pattern and status.",
    );
    for s in &series {
        let labels = format!(
            "{{method=\"{}\",route=\"{}\",status=\"{}\"}}",
            s.key.method.as_str(),
            escape(&s.key.route),
            s.key.status
        );
        sample(out, name, &labels, s.count as f64);
    }
    // The histogram per method and route: the statuses' series added together.
    let mut by_route: BTreeMap<(&str, Method), ([u64; BUCKETS.len()], u64, f64)> = BTreeMap::new();
    for s in &series {
        let entry =
            by_route
                .entry((&s.key.route, s.key.method))
                .or_insert(([0; BUCKETS.len()], 0, 0.0));
        for (total, n) in entry.0.iter_mut().zip(s.cumulative) {
            *total += n;
        }
        entry.1 += s.count;
        entry.2 += s.sum_seconds;
    }
    let name = "slowfuse_http_request_duration_seconds";
    family(
        out,
        name,
        "histogram",
        "Time from a request's arrival to its answer's headers, by method and route pattern.",
    );
    for ((route, method), (cumulative, count, sum)) in &by_route {
        let labels = format!("method=\"{}\",route=\"{}\"", method.as_str(), escape(route));
        for (bound, n) in BUCKETS.iter().zip(cumulative) {
            let le = format!("{{{labels},le=\"{bound}\"}}");
            sample(out, &format!("{name}_bucket"), &le, *n as f64);
        }
        let inf = format!("{{{labels},le=\"+Inf\"}}");
        sample(out, &format!("{name}_bucket"), &inf, *count as f64);
        sample(out, &format!("{name}_sum"), &format!("{{{labels}}}"), *sum);
        sample(
            out,
            &format!("{name}_count"),
            &format!("{{{labels}}}"),
            *count as f64,
        );
    }
}

fn worker(out: &mut String, metrics: &Metrics, scrape: &Scrape) {
    family(
        out,
        "slowfuse_worker_enabled",
        "gauge",
        "1 when this instance runs the background worker.",
    );
    let enabled = if scrape.worker_enabled { 1.0 } else { 0.0 };
    sample(out, "slowfuse_worker_enabled", "", enabled);
    family(
        out,
        "slowfuse_worker_passes_total",
        "counter",
        "Passes of the background worker completed (overdue games, mail).",
    );
    let passes = metrics.worker.passes() as f64;
    sample(out, "slowfuse_worker_passes_total", "", passes);
    if let Some(lag) = scrape.worker_lag_seconds {
        family(
            out,
            "slowfuse_worker_lag_seconds",
            "gauge",
            "Seconds since the background worker last completed a pass.",
        );
        sample(out, "slowfuse_worker_lag_seconds", "", lag);
    }
}

fn process(out: &mut String, scrape: &Scrape) {
    if let Some(bytes) = scrape.resident_bytes {
        family(
            out,
            "process_resident_memory_bytes",
            "gauge",
            "Resident memory size in bytes.",
        );
        sample(out, "process_resident_memory_bytes", "", bytes as f64);
    }
    if let Some(start) = scrape.start_time_seconds {
        family(
            out,
            "process_start_time_seconds",
            "gauge",
            "Start time of the process since the Unix epoch in seconds.",
        );
        sample(out, "process_start_time_seconds", "", start);
    }
}

fn family(out: &mut String, name: &str, kind: &str, help: &str) {
    let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} {kind}");
}

fn sample(out: &mut String, name: &str, labels: &str, value: f64) {
    let _ = writeln!(out, "{name}{labels} {value}");
}

/// A label value as the format writes it: backslash, double quote and newline escaped.
fn escape(value: &str) -> String {
    value
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn the_text_has_every_family_and_a_cumulative_histogram() {
        let metrics = Metrics::default();
        let ms = Duration::from_millis;
        metrics
            .requests
            .record(Method::Get, "/games/{id}", 200, ms(2));
        metrics
            .requests
            .record(Method::Get, "/games/{id}", 404, ms(70));
        metrics.count_moves(3);
        let text = render(
            &metrics,
            &Scrape {
                outbox_depth: Some(4),
                worker_enabled: true,
                worker_lag_seconds: Some(1.5),
                ..Scrape::default()
            },
        );
        for line in [
            "slowfuse_http_requests_total{method=\"GET\",route=\"/games/{id}\",status=\"404\"} 1",
            "slowfuse_http_request_duration_seconds_bucket{method=\"GET\",route=\"/games/{id}\",le=\"0.005\"} 1",
            "slowfuse_http_request_duration_seconds_bucket{method=\"GET\",route=\"/games/{id}\",le=\"0.1\"} 2",
            "slowfuse_http_request_duration_seconds_bucket{method=\"GET\",route=\"/games/{id}\",le=\"+Inf\"} 2",
            "slowfuse_http_request_duration_seconds_count{method=\"GET\",route=\"/games/{id}\"} 2",
            "slowfuse_moves_total 3",
            "slowfuse_outbox_depth 4",
            "slowfuse_worker_lag_seconds 1.5",
            "# TYPE slowfuse_http_request_duration_seconds histogram",
        ] {
            assert!(text.lines().any(|l| l == line), "{line} missing in\n{text}");
        }
    }

    #[test]
    fn label_values_are_escaped() {
        assert_eq!(escape("a\"b\\c\nd"), "a\\\"b\\\\c\\nd");
    }
}
