//! What every request leaves behind for the operator: its id (`X-Request-Id`, taken from the
//! request when it is a sane short token, else made here), its access line in the log, and
//! its count and latency in the metrics, by route pattern.

use std::time::Instant;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{HeaderName, HeaderValue};
use actix_web::middleware::Next;
use actix_web::{Error, web};

use super::AppState;
use crate::logging::{self, RequestId};
use crate::metrics::Method;

/// The header that carries a request's id, both ways.
pub const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// The route label of a request no route matched (so that scanners' paths make no series).
const UNMATCHED: &str = "unmatched";

/// The middleware, outermost: it sees every request and the final status of its answer.
pub async fn observe(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, Error> {
    let started = Instant::now();
    let id = request_id(req.headers().get(&REQUEST_ID));
    let state = req.app_data::<web::Data<AppState>>().cloned();
    // Cheap copies (shared bytes): the request itself is the router's alone while it routes.
    let (method, uri) = (req.method().clone(), req.uri().clone());
    logging::in_request(id.clone(), async move {
        let result = next.call(req).await;
        let took = started.elapsed();
        let (status, route) = match &result {
            Ok(res) => (res.status(), res.request().match_pattern()),
            Err(e) => (e.as_response_error().status_code(), None),
        };
        if let Some(state) = &state {
            state.metrics.requests.record(
                Method::from_name(method.as_str()),
                route.as_deref().unwrap_or(UNMATCHED),
                status.as_u16(),
                took,
            );
        }
        logging::access(method.as_str(), uri.path(), status.as_u16(), took);
        let mut res = result?;
        if let Ok(value) = HeaderValue::from_str(id.as_str()) {
            res.headers_mut().insert(REQUEST_ID, value);
        }
        Ok(res)
    })
    .await
}

/// The request's own id when it is a sane short token (1 to 64 letters, digits, `-`, `_`,
/// `.`), so that a proxy's id follows the request through; otherwise a new one.
fn request_id(given: Option<&HeaderValue>) -> RequestId {
    let sane = given.and_then(|v| v.to_str().ok()).filter(|v| {
        (1..=64).contains(&v.len())
            && v.bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
    });
    match sane {
        Some(v) => RequestId::new(v),
        None => RequestId::new(&format!("{:016x}", rand::random::<u64>())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id_for(header: &str) -> String {
        request_id(Some(&HeaderValue::from_str(header).unwrap()))
            .as_str()
            .to_string()
    }

    #[test]
    fn a_sane_id_is_kept_and_anything_else_replaced() {
        assert_eq!(id_for("abc-123_x.y"), "abc-123_x.y");
        for bad in ["", "a b", "<script>", &"x".repeat(65), "ä"] {
            let made = id_for(bad);
            assert_eq!(made.len(), 16, "{bad:?} gives a new id");
            assert!(made.bytes().all(|b| b.is_ascii_hexdigit()));
        }
        assert_ne!(request_id(None).as_str(), request_id(None).as_str());
    }
}
