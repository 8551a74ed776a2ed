//! Errors as the browser and API clients see them: a status, a clear message, the cause logged.

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, ResponseError};
use askama::Template;

use crate::export::NoSuchPly;
use crate::game::CorruptGame;
use crate::usecases::accounts::{LoginError, SignUpError};
use crate::usecases::challenges::ChallengeError;
use crate::usecases::email_settings::SettingsError;
use crate::usecases::messages::MessageError;
use crate::usecases::play::PlayError;

/// A failure while serving a page.
#[derive(Debug, thiserror::Error)]
pub enum WebError {
    #[error("page not found")]
    NotFound,
    #[error("{0}")]
    Forbidden(String),
    #[error("{0}")]
    BadRequest(String),
    #[error("internal error")]
    Internal(String),
}

impl From<diesel::result::Error> for WebError {
    fn from(e: diesel::result::Error) -> Self {
        WebError::Internal(e.to_string())
    }
}

/// A stored game that does not replay is the server's fault: 500, the cause logged.
impl From<CorruptGame> for WebError {
    fn from(e: CorruptGame) -> Self {
        WebError::Internal(e.to_string())
    }
}

impl From<NoSuchPly> for WebError {
    fn from(e: NoSuchPly) -> Self {
        WebError::BadRequest(e.to_string())
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
            log::error!("internal error: {cause}");
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

/// A failure of a JSON API call: a status and `{"error": "..."}`.
#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub message: String,
}

impl ApiError {
    /// An error with a status and a message for the client.
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
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
        HttpResponse::build(self.status).json(serde_json::json!({ "error": self.message }))
    }
}

impl From<WebError> for ApiError {
    fn from(e: WebError) -> Self {
        if let WebError::Internal(cause) = &e {
            log::error!("internal error: {cause}");
        }
        ApiError::new(e.status_code(), e.to_string())
    }
}

impl From<diesel::result::Error> for ApiError {
    fn from(e: diesel::result::Error) -> Self {
        WebError::from(e).into()
    }
}

/// The status code an action's refusal gets, on the API and on the game page.
pub fn play_status(e: &PlayError) -> StatusCode {
    match e {
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
        PlayError::Message(m) => message_status(m),
        PlayError::Corrupt(_) | PlayError::Db(_) => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

/// The status code a refused comment, kibitz or note gets.
pub fn message_status(e: &MessageError) -> StatusCode {
    match e {
        MessageError::NotFound => StatusCode::NOT_FOUND,
        MessageError::NotAPlayer
        | MessageError::PrivateGame
        | MessageError::PlayerKibitz
        | MessageError::NotesForPlayers => StatusCode::FORBIDDEN,
        MessageError::Empty(_) | MessageError::TooLong { .. } => StatusCode::UNPROCESSABLE_ENTITY,
        MessageError::Db(_) => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

impl From<MessageError> for ApiError {
    fn from(e: MessageError) -> Self {
        PlayError::Message(e).into()
    }
}

impl From<PlayError> for ApiError {
    fn from(e: PlayError) -> Self {
        let status = play_status(&e);
        if status == StatusCode::INTERNAL_SERVER_ERROR {
            log::error!("action failed: {e}");
            return ApiError::new(status, "internal error");
        }
        ApiError::new(status, e.to_string())
    }
}

/// The status code a challenge error gets.
pub fn challenge_status(e: &ChallengeError) -> StatusCode {
    match e {
        ChallengeError::NotFound => StatusCode::NOT_FOUND,
        ChallengeError::NotOpen => StatusCode::CONFLICT,
        ChallengeError::OwnChallenge | ChallengeError::NotForYou | ChallengeError::NotYours => {
            StatusCode::FORBIDDEN
        }
        ChallengeError::Db(_) => StatusCode::INTERNAL_SERVER_ERROR,
        _ => StatusCode::UNPROCESSABLE_ENTITY,
    }
}

impl From<ChallengeError> for ApiError {
    fn from(e: ChallengeError) -> Self {
        let status = challenge_status(&e);
        if status == StatusCode::INTERNAL_SERVER_ERROR {
            log::error!("challenge failed: {e}");
            return ApiError::new(status, "internal error");
        }
        ApiError::new(status, e.to_string())
    }
}

impl From<SettingsError> for ApiError {
    fn from(e: SettingsError) -> Self {
        match e {
            SettingsError::Db(db) => db.into(),
            other => ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, other.to_string()),
        }
    }
}

impl From<SettingsError> for WebError {
    fn from(e: SettingsError) -> Self {
        match e {
            SettingsError::Db(db) => db.into(),
            other => WebError::BadRequest(other.to_string()),
        }
    }
}

impl From<SignUpError> for ApiError {
    fn from(e: SignUpError) -> Self {
        match e {
            SignUpError::Db(db) => db.into(),
            SignUpError::UsernameTaken(_) => ApiError::new(StatusCode::CONFLICT, e.to_string()),
            other => ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, other.to_string()),
        }
    }
}

impl From<LoginError> for ApiError {
    fn from(e: LoginError) -> Self {
        match e {
            LoginError::Db(db) => db.into(),
            LoginError::Throttled(_) => ApiError::new(StatusCode::TOO_MANY_REQUESTS, e.to_string()),
            LoginError::WrongCredentials => ApiError::new(StatusCode::UNAUTHORIZED, e.to_string()),
        }
    }
}

/// The status code a refused tag edit gets.
pub fn tag_status(e: &crate::usecases::tags::TagError) -> StatusCode {
    use crate::usecases::tags::TagError;
    match e {
        TagError::NoGame | TagError::NotTagged(_) => StatusCode::NOT_FOUND,
        TagError::Invalid(_) | TagError::TooMany => StatusCode::UNPROCESSABLE_ENTITY,
        TagError::Db(_) => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

impl From<crate::usecases::tags::TagError> for ApiError {
    fn from(e: crate::usecases::tags::TagError) -> Self {
        use crate::usecases::tags::TagError;
        match e {
            TagError::Db(db) => db.into(),
            TagError::NoGame => ApiError::new(StatusCode::NOT_FOUND, "game not found"),
            other => ApiError::new(tag_status(&other), other.to_string()),
        }
    }
}

impl From<crate::usecases::search::SearchError> for ApiError {
    fn from(e: crate::usecases::search::SearchError) -> Self {
        ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, e.to_string())
    }
}
