//! Errors as users see them: one status and message per use-case error, a 500's causes logged.

use std::error::Error;

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, ResponseError};
use askama::Template;

use crate::export::NoSuchPly;
use crate::game::CorruptGame;
use crate::usecases::accounts::{LoginError, SignUpError};
use crate::usecases::challenges::ChallengeError;
use crate::usecases::email_settings::{ResendError, SettingsError};
use crate::usecases::leave::LeaveError;
use crate::usecases::messages::MessageError;
use crate::usecases::play::PlayError;
use crate::usecases::search::SearchError;
use crate::usecases::tags::TagError;

/// The cause of an internal error, kept for the log.
pub type Cause = Box<dyn Error + Send + Sync>;

/// The message a 500 shows, on a page and in the API alike.
const INTERNAL_MESSAGE: &str = "internal error";

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
    if status.is_server_error() {
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
    #[error("{}", INTERNAL_MESSAGE)]
    Internal(#[source] Cause),
}

impl WebError {
    /// The server's failure: 500 with a plain message; `cause` is logged when it is rendered.
    pub fn internal(cause: impl Into<Cause>) -> WebError {
        WebError::Internal(cause.into())
    }
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
    pub fn internal(cause: impl Into<Cause>) -> ApiError {
        ApiError {
            status: StatusCode::INTERNAL_SERVER_ERROR,
            message: INTERNAL_MESSAGE.to_string(),
            cause: Some(cause.into()),
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
        HttpResponse::build(self.status).json(serde_json::json!({ "error": self.message }))
    }
}

impl<E: UseCaseError> From<E> for ApiError {
    fn from(e: E) -> Self {
        let status = e.status();
        if status.is_server_error() {
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

// Each use case's statuses, in one place. A new variant must be placed here: no wildcards.

impl UseCaseError for PlayError {
    fn status(&self) -> StatusCode {
        match self {
            PlayError::NotFound => StatusCode::NOT_FOUND,
            PlayError::NotAPlayer | PlayError::NotYourTurn => StatusCode::FORBIDDEN,
            PlayError::GameOver
            | PlayError::Stale { .. }
            | PlayError::DrawAlreadyOffered
            | PlayError::TimeUp => StatusCode::CONFLICT,
            PlayError::Move(_)
            | PlayError::Claim(_)
            | PlayError::NoDrawOffer
            | PlayError::NoOwnDrawOffer
            | PlayError::Conditional(_)
            | PlayError::NotOverdue
            | PlayError::BadGift
            | PlayError::MessageTooLong(_)
            | PlayError::EmptyMove
            | PlayError::MoveTooLong => StatusCode::UNPROCESSABLE_ENTITY,
            PlayError::Message(m) => m.status(),
            PlayError::Corrupt(_) | PlayError::Db(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl UseCaseError for MessageError {
    fn status(&self) -> StatusCode {
        match self {
            MessageError::NotFound => StatusCode::NOT_FOUND,
            MessageError::NotAPlayer
            | MessageError::PrivateGame
            | MessageError::PlayerKibitz
            | MessageError::NotesForPlayers => StatusCode::FORBIDDEN,
            MessageError::Empty(_) | MessageError::TooLong { .. } => {
                StatusCode::UNPROCESSABLE_ENTITY
            }
            MessageError::Db(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl UseCaseError for ChallengeError {
    fn status(&self) -> StatusCode {
        match self {
            ChallengeError::NotFound => StatusCode::NOT_FOUND,
            ChallengeError::NotOpen => StatusCode::CONFLICT,
            ChallengeError::OwnChallenge | ChallengeError::NotForYou | ChallengeError::NotYours => {
                StatusCode::FORBIDDEN
            }
            ChallengeError::UnknownVariant(_)
            | ChallengeError::BadColor
            | ChallengeError::BadTime(_)
            | ChallengeError::NoSuchOpponent(_)
            | ChallengeError::RatedNeedsClock
            | ChallengeError::SelfChallenge => StatusCode::UNPROCESSABLE_ENTITY,
            ChallengeError::Db(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl UseCaseError for SignUpError {
    fn status(&self) -> StatusCode {
        match self {
            SignUpError::UsernameTaken(_) => StatusCode::CONFLICT,
            SignUpError::InvalidUsername(_)
            | SignUpError::InvalidEmail(_)
            | SignUpError::WeakPassword(_) => StatusCode::UNPROCESSABLE_ENTITY,
            SignUpError::Db(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl UseCaseError for LoginError {
    fn status(&self) -> StatusCode {
        match self {
            LoginError::WrongCredentials => StatusCode::UNAUTHORIZED,
            LoginError::Throttled(_) => StatusCode::TOO_MANY_REQUESTS,
            LoginError::Db(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl UseCaseError for LeaveError {
    fn status(&self) -> StatusCode {
        match self {
            LeaveError::NotCancellable => StatusCode::NOT_FOUND,
            LeaveError::InThePast
            | LeaveError::BadLength(_)
            | LeaveError::Overlap
            | LeaveError::OverAllowance { .. } => StatusCode::UNPROCESSABLE_ENTITY,
            LeaveError::Db(_) | LeaveError::Corrupt(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl UseCaseError for TagError {
    fn status(&self) -> StatusCode {
        match self {
            TagError::NoGame | TagError::NotTagged(_) => StatusCode::NOT_FOUND,
            TagError::Invalid(_) | TagError::TooMany => StatusCode::UNPROCESSABLE_ENTITY,
            TagError::Db(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    fn message(&self) -> String {
        match self {
            TagError::NoGame => "game not found".to_string(),
            other => other.to_string(),
        }
    }
}

impl UseCaseError for SearchError {
    fn status(&self) -> StatusCode {
        match self {
            SearchError::TooLong
            | SearchError::Unreadable(_)
            | SearchError::BadName(_)
            | SearchError::SameNames
            | SearchError::BadColor
            | SearchError::UnknownVariant(..)
            | SearchError::BadResult
            | SearchError::BadStatus
            | SearchError::BadRated
            | SearchError::BadSort
            | SearchError::BadPage
            | SearchError::BadPerPage
            | SearchError::BadDate(..)
            | SearchError::EmptyRange(..)
            | SearchError::TagsNeedLogin
            | SearchError::TooManyTags => StatusCode::UNPROCESSABLE_ENTITY,
            SearchError::Tag(e) => e.status(),
        }
    }
}

impl UseCaseError for SettingsError {
    fn status(&self) -> StatusCode {
        match self {
            SettingsError::NoDigest(_) | SettingsError::Hour | SettingsError::TimeZone(_) => {
                StatusCode::UNPROCESSABLE_ENTITY
            }
            SettingsError::Db(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

/// The account page shows a refusal as a flash message, whatever its status.
impl UseCaseError for ResendError {
    fn status(&self) -> StatusCode {
        match self {
            ResendError::AlreadyVerified => StatusCode::CONFLICT,
            ResendError::TooSoon => StatusCode::TOO_MANY_REQUESTS,
            ResendError::NoUser => StatusCode::NOT_FOUND,
            ResendError::Db(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use actix_web::body::MessageBody;

    use super::*;

    /// Keeps every logged line, so a test can read what an error logged.
    struct Capture(Mutex<Vec<String>>);

    impl log::Log for Capture {
        fn enabled(&self, _: &log::Metadata) -> bool {
            true
        }
        fn log(&self, record: &log::Record) {
            self.0.lock().unwrap().push(record.args().to_string());
        }
        fn flush(&self) {}
    }

    static CAPTURE: Capture = Capture(Mutex::new(Vec::new()));

    /// The lines logged so far (by any test) that contain `needle`.
    fn logged_with(needle: &str) -> Vec<String> {
        let lines = CAPTURE.0.lock().unwrap();
        lines
            .iter()
            .filter(|l| l.contains(needle))
            .cloned()
            .collect()
    }

    fn capture_logs() {
        let _ = log::set_logger(&CAPTURE);
        log::set_max_level(log::LevelFilter::Error);
    }

    /// A database failure under a stored game, two causes deep.
    #[derive(Debug, thiserror::Error)]
    #[error("disk {0} is full")]
    struct DiskFull(&'static str);

    #[derive(Debug, thiserror::Error)]
    #[error("could not write the move")]
    struct WriteFailed(#[source] DiskFull);

    fn body_text(response: HttpResponse) -> String {
        let bytes = response.into_body().try_into_bytes().ok().unwrap();
        String::from_utf8(bytes.to_vec()).unwrap()
    }

    #[test]
    fn a_page_500_logs_the_cause_chain_and_shows_a_plain_message() {
        capture_logs();
        let e = WebError::internal(WriteFailed(DiskFull("page-7")));
        let response = e.error_response();
        assert_eq!(response.status(), StatusCode::INTERNAL_SERVER_ERROR);
        let body = body_text(response);
        assert!(body.contains("internal error"), "{body}");
        assert!(
            !body.contains("could not write") && !body.contains("page-7"),
            "{body}"
        );
        assert_eq!(
            logged_with("page-7"),
            ["internal error: could not write the move: disk page-7 is full"]
        );
    }

    #[test]
    fn an_api_500_from_a_use_case_logs_the_cause_chain_and_shows_a_plain_message() {
        capture_logs();
        let corrupt = CorruptGame {
            game_id: 7,
            reason: "move 12 (api-7) is illegal".into(),
        };
        let e = ApiError::from(PlayError::Corrupt(corrupt));
        let response = e.error_response();
        assert_eq!(response.status(), StatusCode::INTERNAL_SERVER_ERROR);
        assert_eq!(body_text(response), r#"{"error":"internal error"}"#);
        assert_eq!(
            logged_with("api-7"),
            ["internal error: game 7 does not replay: move 12 (api-7) is illegal"]
        );
    }

    #[test]
    fn a_refusal_keeps_its_status_and_message_and_logs_nothing() {
        capture_logs();
        let e = ApiError::from(TagError::Invalid("no spaces-9".into()));
        let response = e.error_response();
        assert_eq!(response.status(), StatusCode::UNPROCESSABLE_ENTITY);
        assert!(body_text(response).contains("no spaces-9"));
        assert!(logged_with("no spaces-9").is_empty());
        let refused = refusal(PlayError::Stale {
            sent: 4,
            current: 5,
        })
        .unwrap();
        assert_eq!(refused.status, StatusCode::CONFLICT);
        assert!(refused.message.contains("ply 4"), "{}", refused.message);
        assert!(refusal(PlayError::Db(diesel::result::Error::NotFound)).is_err());
    }
}
