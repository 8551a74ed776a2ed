//! The HTTP request series: one slot per (method, route pattern, status), found by hashing
//! into a fixed table and claimed once; after that a request costs a few atomic additions.

use std::hash::{Hash, Hasher};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// The latency histogram's upper bounds, in seconds (Prometheus' usual ones).
pub const BUCKETS: [f64; 11] = [
    0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
];

/// The same bounds in microseconds, for the comparison made per request.
const BUCKET_MICROS: [u64; 11] = [
    5_000, 10_000, 25_000, 50_000, 100_000, 250_000, 500_000, 1_000_000, 2_500_000, 5_000_000,
    10_000_000,
];

/// How many distinct series the table holds; the rest are counted under the route `other`.
const SLOTS: usize = 1024;

/// An HTTP method as a label (a fixed set: anything else is `OTHER`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Method {
    Get,
    Head,
    Post,
    Put,
    Patch,
    Delete,
    Options,
    Other,
}

impl Method {
    /// The label for a method by name.
    pub fn from_name(name: &str) -> Method {
        match name {
            "GET" => Method::Get,
            "HEAD" => Method::Head,
            "POST" => Method::Post,
            "PUT" => Method::Put,
            "PATCH" => Method::Patch,
            "DELETE" => Method::Delete,
            "OPTIONS" => Method::Options,
            _ => Method::Other,
        }
    }

    /// The label's text.
    pub fn as_str(self) -> &'static str {
        match self {
            Method::Get => "GET",
            Method::Head => "HEAD",
            Method::Post => "POST",
            Method::Put => "PUT",
            Method::Patch => "PATCH",
            Method::Delete => "DELETE",
            Method::Options => "OPTIONS",
            Method::Other => "OTHER",
        }
    }
}

/// What names a series.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct SeriesKey {
    pub method: Method,
    pub route: Box<str>,
    pub status: u16,
}

/// One series: its key once claimed, its count, its latency histogram (each bucket counts the
/// requests of its own range; the exposition adds them up) and the sum of latencies.
#[derive(Debug, Default)]
pub struct Series {
    key: OnceLock<SeriesKey>,
    count: AtomicU64,
    buckets: [AtomicU64; BUCKETS.len()],
    sum_micros: AtomicU64,
}

/// A series as read for the exposition.
pub struct SeriesSnapshot<'a> {
    pub key: &'a SeriesKey,
    pub count: u64,
    /// Requests at or below each bound of [`BUCKETS`] (cumulative).
    pub cumulative: [u64; BUCKETS.len()],
    pub sum_seconds: f64,
}

/// Every series of one application.
#[derive(Debug)]
pub struct RequestTable {
    slots: Box<[Series]>,
    /// Requests whose series found no free slot (a table full of distinct routes).
    overflow: Series,
}

impl Default for RequestTable {
    fn default() -> Self {
        let overflow = Series::default();
        let _ = overflow.key.set(SeriesKey {
            method: Method::Other,
            route: "other".into(),
            status: 0,
        });
        RequestTable {
            slots: (0..SLOTS).map(|_| Series::default()).collect(),
            overflow,
        }
    }
}

impl RequestTable {
    /// Counts one answered request. `route` is the pattern that matched (`/games/{id}`), never
    /// the raw path, so that ids do not make new series.
    pub fn record(&self, method: Method, route: &str, status: u16, took: Duration) {
        let series = self.series(method, route, status);
        let micros = u64::try_from(took.as_micros()).unwrap_or(u64::MAX);
        series.count.fetch_add(1, Ordering::Relaxed);
        series.sum_micros.fetch_add(micros, Ordering::Relaxed);
        if let Some(i) = BUCKET_MICROS.iter().position(|&b| micros <= b) {
            series.buckets[i].fetch_add(1, Ordering::Relaxed);
        }
    }

    /// The series of this key: found by open addressing, claimed on first use (the route
    /// is copied once, then).
    fn series(&self, method: Method, route: &str, status: u16) -> &Series {
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        (method, route, status).hash(&mut hasher);
        let start = hasher.finish() as usize;
        let same = |k: &SeriesKey| k.method == method && k.status == status && *k.route == *route;
        for probe in 0..SLOTS {
            let series = &self.slots[(start + probe) % SLOTS];
            let key = match series.key.get() {
                Some(key) => key,
                None => series.key.get_or_init(|| SeriesKey {
                    method,
                    route: route.into(),
                    status,
                }),
            };
            if same(key) {
                return series;
            }
        }
        &self.overflow
    }

    /// Every series that has counted a request, in no particular order.
    pub fn snapshot(&self) -> Vec<SeriesSnapshot<'_>> {
        self.slots
            .iter()
            .chain(std::iter::once(&self.overflow))
            .filter_map(|s| {
                let count = s.count.load(Ordering::Relaxed);
                let key = s.key.get().filter(|_| count > 0)?;
                let mut cumulative = [0; BUCKETS.len()];
                let mut running = 0;
                for (i, b) in s.buckets.iter().enumerate() {
                    running += b.load(Ordering::Relaxed);
                    cumulative[i] = running;
                }
                Some(SeriesSnapshot {
                    key,
                    count,
                    cumulative,
                    sum_seconds: s.sum_micros.load(Ordering::Relaxed) as f64 / 1e6,
                })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_are_counted_by_method_route_and_status_with_their_latency() {
        let table = RequestTable::default();
        let ms = Duration::from_millis;
        table.record(Method::Get, "/games/{id}", 200, ms(3));
        table.record(Method::Get, "/games/{id}", 200, ms(30));
        table.record(Method::Get, "/games/{id}", 404, ms(1));
        table.record(Method::Post, "/games/{id}", 200, ms(20_000));
        let snap = table.snapshot();
        assert_eq!(snap.len(), 3);
        let ok = snap
            .iter()
            .find(|s| s.key.method == Method::Get && s.key.status == 200)
            .unwrap();
        assert_eq!(ok.count, 2);
        assert_eq!(ok.cumulative[0], 1, "3 ms is within 5 ms");
        assert_eq!(ok.cumulative[3], 2, "30 ms is within 50 ms");
        assert!((ok.sum_seconds - 0.033).abs() < 1e-9);
        let slow = snap.iter().find(|s| s.key.method == Method::Post).unwrap();
        assert_eq!(
            slow.cumulative[BUCKETS.len() - 1],
            0,
            "20 s is above every bound"
        );
    }

    #[test]
    fn a_full_table_counts_the_rest_under_other() {
        let table = RequestTable::default();
        for i in 0..SLOTS + 5 {
            table.record(Method::Get, &format!("/r{i}"), 200, Duration::ZERO);
        }
        let snap = table.snapshot();
        assert_eq!(snap.len(), SLOTS + 1);
        let other = snap.iter().find(|s| &*s.key.route == "other").unwrap();
        assert_eq!(other.count, 5);
    }
}
