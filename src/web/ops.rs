//! The operator's routes: `/health` (database reachable, worker alive) for load balancers and
//! container checks, `/metrics` (Prometheus text format) for a scraper on this host or one
//! holding `metrics.token`. Neither touches the session: no cookie is ever set.

use crate::web::route_table::{Access, Routes};
use std::time::Duration;

use actix_web::http::StatusCode;
use actix_web::http::header::{self, CacheControl, CacheDirective};
use actix_web::{HttpRequest, HttpResponse, web};
use serde_json::json;

use super::AppState;
use crate::metrics::{self, Scrape};

/// The longest `/health` and `/metrics` wait for a database connection.
const DB_WAIT: Duration = Duration::from_secs(3);

/// Registers `/health` and `/metrics`.
pub fn routes(r: &mut Routes) {
    r.get("/health", Access::Public, health)
        .get("/metrics", Access::Operator, metrics_text);
}

/// 200 when the database answers and the worker (if this instance runs it) completed a pass
/// lately; 503 naming what fails otherwise.
async fn health(state: web::Data<AppState>) -> HttpResponse {
    let pool = state.pool.clone();
    let database_ok = web::block(move || crate::db::ping(&pool, DB_WAIT))
        .await
        .is_ok_and(|r| r.is_ok());
    let worker = &state.settings.worker;
    let lag = state.metrics.worker.lag_seconds(state.now());
    let worker_state = if !worker.enabled {
        "disabled"
    } else if lag.is_some_and(|l| l <= metrics::worker_stale_after_seconds(worker.interval_seconds))
    {
        "ok"
    } else {
        "stalled"
    };
    let healthy = database_ok && worker_state != "stalled";
    let status = if healthy {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    HttpResponse::build(status)
        .insert_header(CacheControl(vec![CacheDirective::NoStore]))
        .json(json!({
            "status": if healthy { "ok" } else { "unavailable" },
            "database": if database_ok { "ok" } else { "unreachable" },
            "worker": worker_state,
            "worker_lag_seconds": if worker.enabled { lag } else { None },
            "version": env!("CARGO_PKG_VERSION"),
        }))
}

/// The metrics in the Prometheus text format 0.0.4, to those allowed (see [`refusal`]).
async fn metrics_text(req: HttpRequest, state: web::Data<AppState>) -> HttpResponse {
    if let Some(refusal) = refusal(&req, &state.settings.metrics.token) {
        return refusal;
    }
    let pool = state.pool.clone();
    let outbox_depth = web::block(move || {
        let mut conn = pool.get_timeout(DB_WAIT).ok()?;
        crate::usecases::outbox::depth(&mut conn).ok()
    })
    .await
    .ok()
    .flatten();
    let worker = &state.settings.worker;
    let scrape = Scrape {
        outbox_depth,
        worker_enabled: worker.enabled,
        worker_lag_seconds: state
            .metrics
            .worker
            .lag_seconds(state.now())
            .filter(|_| worker.enabled),
        resident_bytes: Scrape::resident_memory(),
        start_time_seconds: Some(metrics::process_start_seconds()),
    };
    HttpResponse::Ok()
        .insert_header(CacheControl(vec![CacheDirective::NoStore]))
        .content_type("text/plain; version=0.0.4; charset=utf-8")
        .body(metrics::render(&state.metrics, &scrape))
}

/// Who may read the metrics, and the answer to anyone else. With `metrics.token` set: its
/// bearer, from anywhere (401 otherwise). Without: a loopback peer whose request did not come
/// through a proxy (403 otherwise), since a proxy on this host would make the whole internet
/// look like loopback.
fn refusal(req: &HttpRequest, token: &str) -> Option<HttpResponse> {
    let token = token.trim();
    if !token.is_empty() {
        let given = req
            .headers()
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "))
            .unwrap_or("");
        return (!same_secret(given.trim(), token)).then(|| {
            HttpResponse::Unauthorized()
                .insert_header((header::WWW_AUTHENTICATE, "Bearer realm=\"metrics\""))
                .body("metrics need the bearer token of metrics.token\n")
        });
    }
    let loopback = req.peer_addr().is_some_and(|a| a.ip().is_loopback());
    let proxied = req.headers().contains_key(header::FORWARDED)
        || req.headers().contains_key("x-forwarded-for");
    (!loopback || proxied).then(|| {
        HttpResponse::Forbidden().body(
            "metrics are served to this host only; set metrics.token to read them from elsewhere\n",
        )
    })
}

/// Compares two secrets in time that does not depend on where they differ.
fn same_secret(given: &str, expected: &str) -> bool {
    use sha2::{Digest, Sha256};
    let (a, b) = (
        Sha256::digest(given.as_bytes()),
        Sha256::digest(expected.as_bytes()),
    );
    a.iter()
        .zip(b.iter())
        .fold(0u8, |acc, (x, y)| acc | (x ^ y))
        == 0
}
