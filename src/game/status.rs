//! A game's status: its stable names as stored and shown in the API.

use std::fmt;
use std::str::FromStr;

/// Where a game stands. The names (`as_str`) are stored in `games.status` and shown in the
/// API; they never change.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameStatus {
    /// Seated but not yet playing: minesweeper players are placing their bombs.
    Setup,
    /// Being played.
    Started,
    /// Over, with a result.
    Finished,
    /// Called off without a result (the first moves were not made in time).
    Aborted,
}

impl GameStatus {
    /// Every status, in the order a game goes through them.
    pub const ALL: [GameStatus; 4] = [
        GameStatus::Setup,
        GameStatus::Started,
        GameStatus::Finished,
        GameStatus::Aborted,
    ];

    /// The stored name.
    pub const fn as_str(self) -> &'static str {
        match self {
            GameStatus::Setup => "setup",
            GameStatus::Started => "started",
            GameStatus::Finished => "finished",
            GameStatus::Aborted => "aborted",
        }
    }

    /// Whether the game has not ended yet (setting up or playing).
    pub fn is_running(self) -> bool {
        matches!(self, GameStatus::Setup | GameStatus::Started)
    }
}

impl fmt::Display for GameStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A stored status name that is not one of [`GameStatus`]'s.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown game status {0:?}")]
pub struct UnknownStatus(pub String);

impl FromStr for GameStatus {
    type Err = UnknownStatus;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        GameStatus::ALL
            .into_iter()
            .find(|status| status.as_str() == s)
            .ok_or_else(|| UnknownStatus(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back() {
        for status in GameStatus::ALL {
            assert_eq!(status.as_str().parse::<GameStatus>(), Ok(status));
        }
        assert!("playing".parse::<GameStatus>().is_err());
    }
}
