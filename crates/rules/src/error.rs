//! Error types of the rules crate, each with a message fit to show a player.

/// A move could not be played. The game it was tried on is unchanged.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum MoveError {
    /// The text is not a move in SAN or UCI; holds the text as written.
    #[error("cannot read \"{0}\" as a move (write SAN like Nf3 or UCI like g1f3)")]
    Unparsable(String),
    /// The text reads as a move but no legal move matches it; holds the text
    /// as written.
    #[error("{0} is not a legal move here")]
    Illegal(String),
    /// Antichess: a capture is possible, so one must be made; holds the text
    /// as written and the captures in SAN.
    #[error("{input} is not allowed: you must capture ({})", captures.join(" or "))]
    MustCapture {
        /// The move as written.
        input: String,
        /// Every legal capture, in SAN.
        captures: Vec<String>,
    },
    /// The text matches more than one legal move. Holds the whole
    /// explanation, naming the piece and one way to write the move
    /// unambiguously, e.g. `Nd2 is ambiguous: say which knight, e.g. Nbd2`.
    #[error("{0}")]
    Ambiguous(String),
    /// The game has already ended.
    #[error("the game is over")]
    GameOver,
}

/// An action that needs a running game was tried on a finished one.
#[derive(Debug, thiserror::Error, Clone, Copy, PartialEq, Eq)]
#[error("the game is over")]
pub struct GameOver;

/// A draw claim was refused.
#[derive(Debug, thiserror::Error, Clone, Copy, PartialEq, Eq)]
pub enum ClaimError {
    /// None of the claimable draws applies to the current position.
    #[error(
        "no draw can be claimed: the position has not occurred three times, \
         50 moves have not passed without a capture or pawn move, \
         and both sides can still win"
    )]
    NotDrawn,
    /// The kind of game has no draw by claim (bughouse: a draw is agreed).
    #[error("no draw can be claimed in this kind of game: offer one instead")]
    NoClaims,
    /// The game has already ended.
    #[error("the game is over")]
    GameOver,
}

/// A start position (FEN) was refused.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum SetupError {
    /// The text is not a well-formed FEN.
    #[error("malformed FEN at position {position}: {problem}")]
    Malformed {
        /// 1-based character position in the FEN where the problem starts.
        position: usize,
        /// What is wrong there.
        problem: String,
    },
    /// The FEN is well formed but the position cannot be played.
    #[error("illegal position: {0}")]
    Illegal(String),
}

/// A stored game could not be rebuilt.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum ReplayError {
    /// The stored start position was refused.
    #[error("bad start position: {0}")]
    Setup(#[from] SetupError),
    /// A stored move could not be replayed.
    #[error("move {ply} ({uci}) cannot be replayed: {error}")]
    Move {
        /// 1-based ply number of the failing move (1 = the first move).
        ply: u32,
        /// The stored move, as given.
        uci: String,
        /// Why it failed.
        error: MoveError,
    },
}
