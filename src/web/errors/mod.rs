//! Errors as users see them: one status and message per use-case error, a 500's causes logged.

use std::error::Error;

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, ResponseError};
use askama::Template;

use crate::export::NoSuchPly;
use crate::game::CorruptGame;
use crate::usecases::email_settings::SettingsError;

/// The cause of an internal error, kept for the log.
pub type Cause = Box<dyn Error + Send + Sync>;

/// The message a 500 shows, on a page and in the API alike.
const INTERNAL_MESSAGE: &str = "internal error";

/// Seconds a 503 ("too busy now") asks the client to wait before trying again.
pub const RETRY_AFTER_SECONDS: u32 = 5;

/// Whether a status is the server's failure (its cause logged, a plain message shown) rather
/// than a refusal the user reads: every 5xx but 503, which says "too busy now, try again".
pub fn is_failure(status: StatusCode) -> bool {
    status.is_server_error() && status != StatusCode::SERVICE_UNAVAILABLE
}

/// Adds `Retry-After` to a 503.
pub fn with_retry_after(mut response: HttpResponse) -> HttpResponse {
    if response.status() == StatusCode::SERVICE_UNAVAILABLE {
        response.headers_mut().insert(
            actix_web::http::header::RETRY_AFTER,
            actix_web::http::header::HeaderValue::from(RETRY_AFTER_SECONDS),
        );
    }
    response
}

/// A use case's error as the web layer answers it, on the pages and in the API alike. Each
/// use-case enum implements it below, and nowhere else.
pub trait UseCaseError: Error + Send + Sync + 'static {
    /// 4xx for a refusal (403 not yours, 404 not there, 409 stale or over, 422 bad input),
    /// 500 for the server's own failure (database, a stored game that does not replay).
    fn status(&self) -> StatusCode;

    /// What the user or client reads for a refusal; a 500 shows [`INTERNAL_MESSAGE`] instead.
    fn message(&self) -> String {
        self.to_string()
    }
}

/// A use case's refusal as a page shows it in its own form: the status and the message.
#[derive(Debug)]
pub struct Refusal {
    pub status: StatusCode,
    pub message: String,
}

/// Splits a use case's error for a page that shows refusals in its form: a refusal comes back
/// to be drawn, the server's failure goes on to the error page (500, cause logged).
pub fn refusal<E: UseCaseError>(e: E) -> Result<Refusal, WebError> {
    let status = e.status();
    if is_failure(status) {
        return Err(WebError::internal(e));
    }
    Ok(Refusal {
        status,
        message: e.message(),
    })
}

/// A failure while serving a page.
#[derive(Debug, thiserror::Error)]
pub enum WebError {
    #[error("page not found")]
    NotFound,
    #[error("{0}")]
    Forbidden(String),
    #[error("{0}")]
    BadRequest(String),
    /// A body larger than the route takes (413).
    #[error("{0}")]
    TooLarge(String),
    #[error("{}", INTERNAL_MESSAGE)]
    Internal(#[source] Cause),
}

impl WebError {
    /// The server's failure: 500 with a plain message; `cause` is logged when it is rendered.
    /// Text the database would not store is the sender's bad input instead (400).
    pub fn internal(cause: impl Into<Cause>) -> WebError {
        let cause = cause.into();
        if is_unstorable_text(cause.as_ref()) {
            return WebError::BadRequest(UNSTORABLE_TEXT.to_string());
        }
        WebError::Internal(cause)
    }
}

/// What a sender reads when their text holds a NUL character.
const UNSTORABLE_TEXT: &str =
    "the text holds a NUL character (\\0), which cannot be stored or looked up: leave it out";

/// Whether a failure is PostgreSQL refusing a NUL character in text (its text type cannot hold
/// one, as a value to store or to look up). The statement failed and its transaction was
/// rolled back: nothing changed, and the fault is the input's, whatever field it came in.
/// Read from the message, as PostgreSQL words it (`invalid byte sequence for encoding "UTF8":
/// 0x00`): use-case errors pass database errors on transparently, so the message is what every
/// layer shows.
fn is_unstorable_text(cause: &(dyn Error + 'static)) -> bool {
    let mut next = Some(cause);
    while let Some(e) = next {
        let text = e.to_string();
        if text.contains("invalid byte sequence") && text.contains("0x00") {
            return true;
        }
        next = e.source();
    }
    false
}

impl From<diesel::result::Error> for WebError {
    fn from(e: diesel::result::Error) -> Self {
        WebError::internal(e)
    }
}

/// A stored game that does not replay is the server's fault: 500, the cause logged.
impl From<CorruptGame> for WebError {
    fn from(e: CorruptGame) -> Self {
        WebError::internal(e)
    }
}

impl From<NoSuchPly> for WebError {
    fn from(e: NoSuchPly) -> Self {
        WebError::BadRequest(e.to_string())
    }
}

/// The account page's notification form offers only valid choices, so a refused one was not
/// sent by its controls: a bad request (400) on the error page, where the API answers 422.
impl From<SettingsError> for WebError {
    fn from(e: SettingsError) -> Self {
        match refusal(e) {
            Ok(refused) => WebError::BadRequest(refused.message),
            Err(internal) => internal,
        }
    }
}

/// What a page says of a query string it cannot read: which value is wrong, in the reader's
/// words, never the parser's name for itself ("Query deserialize error").
pub fn query_refusal(err: &actix_web::error::QueryPayloadError) -> String {
    let detail = err
        .source()
        .map_or_else(|| err.to_string(), |e| e.to_string());
    format!(
        "this address is not understood ({detail}): check the link, or start again from the home page"
    )
}

/// The page shown for an error.
#[derive(Template)]
#[template(path = "error.html")]
struct ErrorPage<'a> {
    status: u16,
    message: &'a str,
}

impl ResponseError for WebError {
    fn status_code(&self) -> StatusCode {
        match self {
            WebError::NotFound => StatusCode::NOT_FOUND,
            WebError::Forbidden(_) => StatusCode::FORBIDDEN,
            WebError::BadRequest(_) => StatusCode::BAD_REQUEST,
            WebError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            WebError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    fn error_response(&self) -> HttpResponse {
        if let WebError::Internal(cause) = self {
            log_internal(cause.as_ref());
        }
        let message = self.to_string();
        let body = ErrorPage {
            status: self.status_code().as_u16(),
            message: &message,
        }
        .render()
        .unwrap_or_else(|_| message.clone());
        HttpResponse::build(self.status_code())
            .content_type("text/html; charset=utf-8")
            .body(body)
    }
}

/// A failure of a JSON API call: a status and `{"error": "..."}`; a 500 keeps its cause for
/// the log.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    message: String,
    cause: Option<Cause>,
}

impl ApiError {
    /// A refusal the handler decides itself (a body that does not parse, a missing token):
    /// a status and a message for the client.
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
            cause: None,
        }
    }

    /// The server's failure: 500 with a plain message; `cause` is logged when it is rendered.
    /// Text the database would not store is the client's bad input instead (422).
    pub fn internal(cause: impl Into<Cause>) -> ApiError {
        let cause = cause.into();
        if is_unstorable_text(cause.as_ref()) {
            return ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, UNSTORABLE_TEXT);
        }
        ApiError {
            status: StatusCode::INTERNAL_SERVER_ERROR,
            message: INTERNAL_MESSAGE.to_string(),
            cause: Some(cause),
        }
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        self.status
    }

    fn error_response(&self) -> HttpResponse {
        if let Some(cause) = &self.cause {
            log_internal(cause.as_ref());
        }
        with_retry_after(
            HttpResponse::build(self.status).json(serde_json::json!({ "error": self.message })),
        )
    }
}

impl<E: UseCaseError> From<E> for ApiError {
    fn from(e: E) -> Self {
        let status = e.status();
        if is_failure(status) {
            return ApiError::internal(e);
        }
        ApiError::new(status, e.message())
    }
}

impl From<WebError> for ApiError {
    fn from(e: WebError) -> Self {
        match e {
            WebError::Internal(cause) => ApiError::internal(cause),
            other => ApiError::new(other.status_code(), other.to_string()),
        }
    }
}

impl From<diesel::result::Error> for ApiError {
    fn from(e: diesel::result::Error) -> Self {
        ApiError::internal(e)
    }
}

/// An error and every cause under it, outermost first: `a: b: c`.
pub fn cause_chain(e: &(dyn Error + 'static)) -> String {
    let mut text = e.to_string();
    let mut next = e.source();
    while let Some(cause) = next {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        next = cause.source();
    }
    text
}

/// Logs a 500's cause chain, once, as the response is rendered.
fn log_internal(cause: &(dyn Error + 'static)) {
    log::error!("internal error: {}", cause_chain(cause));
}

mod statuses;

#[cfg(test)]
mod tests;
