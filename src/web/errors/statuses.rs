//! Each use case's error as users see it: its status and message, one `impl` per enum.

use actix_web::http::StatusCode;

use super::UseCaseError;
use crate::passwords::HashError;
use crate::usecases::accounts::{LoginError, SignUpError};
use crate::usecases::analysis::AnalysisError;
use crate::usecases::challenges::ChallengeError;
use crate::usecases::computer::ComputerError;
use crate::usecases::draw_offers::DrawError;
use crate::usecases::email_settings::{ResendError, SettingsError};
use crate::usecases::engine_analysis::EngineAnalysisError;
use crate::usecases::import::ImportError;
use crate::usecases::leave::LeaveError;
use crate::usecases::messages::MessageError;
use crate::usecases::minesweeper::MinesError;
use crate::usecases::new_game::NewGameError;
use crate::usecases::play::PlayError;
use crate::usecases::preferences::PreferencesError;
use crate::usecases::search::SearchError;
use crate::usecases::tags::TagError;
use crate::usecases::takeback::TakebackError;

/// Too many password hashes at once is 503 (try again: `Retry-After`); a hashing thread gone
/// is the server's fault.
fn hash_status(e: &HashError) -> StatusCode {
    match e {
        HashError::Busy => StatusCode::SERVICE_UNAVAILABLE,
        HashError::Stopped => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

// Each use case's statuses, in one place. A new variant must be placed here: no wildcards.

impl UseCaseError for PlayError {
    fn status(&self) -> StatusCode {
        match self {
            PlayError::NotFound => StatusCode::NOT_FOUND,
            PlayError::NoBoard | PlayError::OneBoard | PlayError::NoPly(_) => {
                StatusCode::BAD_REQUEST
            }
            PlayError::NotAPlayer(_)
            | PlayError::NotYourBoard { .. }
            | PlayError::NotYourTurn(_) => StatusCode::FORBIDDEN,
            PlayError::GameOver(_)
            | PlayError::Stale { .. }
            | PlayError::InSetup
            | PlayError::TheirOfferStands
            | PlayError::TimeUp => StatusCode::CONFLICT,
            PlayError::Draw(e) => e.status(),
            PlayError::Move(_)
            | PlayError::MatchMove(_)
            | PlayError::NotOffered { .. }
            | PlayError::Claim(_)
            | PlayError::Conditional(_)
            | PlayError::NotOverdue
            | PlayError::BadGift
            | PlayError::MessageTooLong(_)
            | PlayError::EmptyMessage
            | PlayError::EmptyMove(_)
            | PlayError::MoveTooLong(_) => StatusCode::UNPROCESSABLE_ENTITY,
            PlayError::Message(m) => m.status(),
            PlayError::Takeback(TakebackError::Db(_)) => StatusCode::INTERNAL_SERVER_ERROR,
            PlayError::Takeback(TakebackError::NotOffered | TakebackError::NothingToTakeBack) => {
                StatusCode::UNPROCESSABLE_ENTITY
            }
            PlayError::Corrupt(_) | PlayError::Db(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

/// A draw-offer step refused, the same in every kind of game.
impl UseCaseError for DrawError {
    fn status(&self) -> StatusCode {
        match self {
            DrawError::AlreadyOffered => StatusCode::CONFLICT,
            DrawError::NoOffer | DrawError::NoOwnOffer => StatusCode::UNPROCESSABLE_ENTITY,
            DrawError::Db(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl UseCaseError for MinesError {
    fn status(&self) -> StatusCode {
        match self {
            MinesError::NotFound => StatusCode::NOT_FOUND,
            MinesError::NotAPlayer | MinesError::Hidden => StatusCode::FORBIDDEN,
            MinesError::SetupOver => StatusCode::CONFLICT,
            MinesError::Bombs(_) => StatusCode::UNPROCESSABLE_ENTITY,
            MinesError::Corrupt(_) | MinesError::Db(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl UseCaseError for AnalysisError {
    fn status(&self) -> StatusCode {
        match self {
            AnalysisError::NotFound => StatusCode::NOT_FOUND,
            AnalysisError::Unsupported(_)
            | AnalysisError::TooLarge
            | AnalysisError::Unreadable(_) => StatusCode::UNPROCESSABLE_ENTITY,
            AnalysisError::Corrupt(_) | AnalysisError::Db(_) => StatusCode::INTERNAL_SERVER_ERROR,
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
            ChallengeError::NotOpen
            | ChallengeError::AlreadySeated
            | ChallengeError::SeatTaken(_)
            | ChallengeError::Full => StatusCode::CONFLICT,
            ChallengeError::OwnChallenge | ChallengeError::NotForYou | ChallengeError::NotYours => {
                StatusCode::FORBIDDEN
            }
            ChallengeError::UnknownVariant(_)
            | ChallengeError::BadColor
            | ChallengeError::BadTime(_)
            | ChallengeError::NoSuchOpponent(_)
            | ChallengeError::RatedNeedsClock
            | ChallengeError::SelfChallenge
            | ChallengeError::BadSeat
            | ChallengeError::InviteToOwnSeat(_)
            | ChallengeError::InvitedTwice
            | ChallengeError::BadMinesweeperOptions(_)
            | ChallengeError::BadSetupHours => StatusCode::UNPROCESSABLE_ENTITY,
            ChallengeError::NewGame(e) => e.status(),
            ChallengeError::Db(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl UseCaseError for NewGameError {
    fn status(&self) -> StatusCode {
        match self {
            NewGameError::SeatCount { .. }
            | NewGameError::NoSuchSeat { .. }
            | NewGameError::SeatTwice(_)
            | NewGameError::PlayerTwice
            | NewGameError::RatedNeedsClock
            | NewGameError::OptionsForAnotherKind
            | NewGameError::BadSetupHours => StatusCode::UNPROCESSABLE_ENTITY,
            NewGameError::Db(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl UseCaseError for ComputerError {
    fn status(&self) -> StatusCode {
        match self {
            ComputerError::UnknownLevel
            | ComputerError::UnknownVariant
            | ComputerError::BadColor
            | ComputerError::Rated => StatusCode::UNPROCESSABLE_ENTITY,
            ComputerError::NoAccount(_) => StatusCode::SERVICE_UNAVAILABLE,
            ComputerError::Challenge(e) => e.status(),
            ComputerError::NewGame(e) => e.status(),
            ComputerError::Play(e) => e.status(),
            ComputerError::Minesweeper(e) => e.status(),
            ComputerError::Corrupt(_) | ComputerError::Db(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl UseCaseError for SignUpError {
    fn status(&self) -> StatusCode {
        match self {
            SignUpError::UsernameTaken(_) | SignUpError::UsernameLookalike { .. } => {
                StatusCode::CONFLICT
            }
            SignUpError::InvalidUsername(_)
            | SignUpError::InvalidEmail(_)
            | SignUpError::WeakPassword(_) => StatusCode::UNPROCESSABLE_ENTITY,
            SignUpError::Hash(e) => hash_status(e),
            SignUpError::Db(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl UseCaseError for LoginError {
    fn status(&self) -> StatusCode {
        match self {
            LoginError::WrongCredentials => StatusCode::UNAUTHORIZED,
            LoginError::Throttled(_) => StatusCode::TOO_MANY_REQUESTS,
            LoginError::Hash(e) => hash_status(e),
            LoginError::Db(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl UseCaseError for LeaveError {
    fn status(&self) -> StatusCode {
        match self {
            LeaveError::NotCancellable | LeaveError::NotRunning => StatusCode::NOT_FOUND,
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

impl UseCaseError for ImportError {
    fn status(&self) -> StatusCode {
        match self {
            ImportError::UnknownUser(_) => StatusCode::NOT_FOUND,
            ImportError::Db(_) => StatusCode::INTERNAL_SERVER_ERROR,
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
            | SearchError::TooManyTags
            | SearchError::BadPosition(_) => StatusCode::UNPROCESSABLE_ENTITY,
            SearchError::Tag(e) => e.status(),
        }
    }
}

impl UseCaseError for PreferencesError {
    fn status(&self) -> StatusCode {
        match self {
            PreferencesError::UnknownTheme(_)
            | PreferencesError::UnknownPieceSet(_)
            | PreferencesError::AnimationMs => StatusCode::UNPROCESSABLE_ENTITY,
            PreferencesError::Db(_) => StatusCode::INTERNAL_SERVER_ERROR,
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

impl UseCaseError for EngineAnalysisError {
    fn status(&self) -> StatusCode {
        match self {
            EngineAnalysisError::NotFound => StatusCode::NOT_FOUND,
            EngineAnalysisError::NotOver => StatusCode::CONFLICT,
            EngineAnalysisError::Aborted | EngineAnalysisError::Unsupported(_) => {
                StatusCode::UNPROCESSABLE_ENTITY
            }
            EngineAnalysisError::Db(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}
