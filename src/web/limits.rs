//! The largest body each kind of request may send, and the 413 answer when one is larger. A
//! body announced larger (`Content-Length`) is refused before a byte of it is read, and its
//! connection closed; one sent in chunks is kept only up to the limit, then refused (the rest
//! is discarded as it arrives). Nothing ever holds more than the limit of one request.

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::error::{InternalError, JsonPayloadError, PayloadError, UrlencodedError};
use actix_web::http::StatusCode;
use actix_web::http::header::CONTENT_LENGTH;
use actix_web::middleware::Next;
use actix_web::{HttpResponse, ResponseError, web};

use crate::web::errors::{ApiError, WebError};

/// A form of the pages (a move with its message, a comment, a challenge, the settings).
pub const FORM_LIMIT: usize = 32 * 1024;
/// A JSON body of the API.
pub const JSON_LIMIT: usize = 64 * 1024;
/// A body read as bytes or text by any other route.
pub const RAW_LIMIT: usize = 64 * 1024;
/// The largest PGN the import page takes at once.
pub const IMPORT_PGN_LIMIT: usize = 2 * 1024 * 1024;
/// The import form's body: the PGN URL-encoded (at most three bytes a character) and the token.
pub const IMPORT_FORM_LIMIT: usize = 3 * IMPORT_PGN_LIMIT + 4096;
/// The largest body any route takes: a request announcing more is refused before routing.
pub const MAX_BODY: usize = IMPORT_FORM_LIMIT;

/// "32 KB", "6 MB": a limit in words.
pub fn in_words(bytes: usize) -> String {
    if bytes >= 1024 * 1024 {
        format!("{} MB", bytes.div_ceil(1024 * 1024))
    } else {
        format!("{} KB", bytes.div_ceil(1024))
    }
}

/// What a refused body reads.
fn too_large(limit: usize) -> String {
    format!(
        "the request is larger than the {} this address accepts: nothing was read or changed",
        in_words(limit)
    )
}

/// The answer to a body refused for its size, with `Connection: close`. A body announced too
/// large is never read; a body sent in chunks is read only up to the limit, and what follows
/// is discarded as it arrives (never kept) until its end, then the connection closes.
pub fn refuse_and_close<E>(err: E, mut response: HttpResponse) -> actix_web::Error
where
    E: std::fmt::Debug + std::fmt::Display + 'static,
{
    response
        .head_mut()
        .set_connection_type(actix_web::http::ConnectionType::Close);
    InternalError::from_response(err, response).into()
}

/// What the import page reads when its PGN is above [`IMPORT_PGN_LIMIT`] (also when the body
/// is refused before routing).
pub fn import_too_large() -> String {
    format!(
        "The PGN is larger than {}: nothing was imported. Split the file and import the parts.",
        in_words(IMPORT_PGN_LIMIT)
    )
}

/// The pages' forms: at most [`FORM_LIMIT`]; larger is 413 on the error page, anything else
/// unreadable 400.
pub fn form_config() -> web::FormConfig {
    web::FormConfig::default()
        .limit(FORM_LIMIT)
        .error_handler(|err, _| {
            if form_overflowed(&err) {
                let page = WebError::TooLarge(too_large(FORM_LIMIT)).error_response();
                refuse_and_close(err, page)
            } else {
                WebError::BadRequest(format!("the form was not understood ({err})")).into()
            }
        })
}

/// Whether a form was refused for its size.
pub fn form_overflowed(err: &UrlencodedError) -> bool {
    matches!(
        err,
        UrlencodedError::Overflow { .. } | UrlencodedError::Payload(PayloadError::Overflow)
    )
}

/// JSON bodies: at most [`JSON_LIMIT`]; larger is 413, anything else unreadable 400, both as
/// `{"error": …}`.
pub fn json_config() -> web::JsonConfig {
    web::JsonConfig::default()
        .limit(JSON_LIMIT)
        .error_handler(|err, _| match &err {
            JsonPayloadError::Overflow { .. }
            | JsonPayloadError::OverflowKnownLength { .. }
            | JsonPayloadError::Payload(PayloadError::Overflow) => {
                let answer = ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, too_large(JSON_LIMIT))
                    .error_response();
                refuse_and_close(err, answer)
            }
            other => {
                ApiError::new(StatusCode::BAD_REQUEST, format!("bad JSON body: {other}")).into()
            }
        })
}

/// Bodies read as bytes or text: at most [`RAW_LIMIT`] (413, the connection closed).
pub fn payload_config() -> web::PayloadConfig {
    web::PayloadConfig::new(RAW_LIMIT)
}

/// Refuses, before routing and without reading it, a request announcing a body larger than
/// any route takes ([`MAX_BODY`]): 413, in JSON under `/api/`, else the error page, and the
/// connection closed.
pub async fn refuse_oversized(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<actix_web::body::EitherBody<impl MessageBody>>, actix_web::Error> {
    let announced = req
        .headers()
        .get(CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    if announced.is_some_and(|n| n > MAX_BODY as u64) {
        let message = if req.path() == "/import" {
            import_too_large()
        } else {
            too_large(MAX_BODY)
        };
        let mut response: HttpResponse = if req.path().starts_with("/api/") {
            ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, message).error_response()
        } else {
            WebError::TooLarge(message).error_response()
        };
        response
            .head_mut()
            .set_connection_type(actix_web::http::ConnectionType::Close);
        return Ok(req.into_response(response).map_into_right_body());
    }
    next.call(req).await.map(|r| r.map_into_left_body())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_read_in_words() {
        assert_eq!(in_words(FORM_LIMIT), "32 KB");
        assert_eq!(in_words(IMPORT_PGN_LIMIT), "2 MB");
        assert_eq!(in_words(MAX_BODY), "7 MB");
    }
}
