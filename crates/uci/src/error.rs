//! `UciError`: everything that can go wrong between us and the engine process.

use std::io;

/// Why starting an engine or analysing a position failed.
#[derive(Debug, thiserror::Error)]
pub enum UciError {
    /// The program could not be started (no such file, not executable, …).
    #[error("could not start the engine: {0}")]
    Spawn(#[source] io::Error),
    /// Talking to the running engine failed.
    #[error("could not talk to the engine: {0}")]
    Io(#[source] io::Error),
    /// The program said something a UCI engine would not, or not what was due (no `uciok`, a
    /// malformed line, an option it does not have).
    #[error("the engine broke the UCI protocol: {0}")]
    Protocol(String),
    /// No answer within the configured time; the engine was stopped (or, when it did not obey
    /// `stop` either, ended).
    #[error("the engine did not answer in time")]
    Timeout,
    /// The engine process has ended (or was ended after an earlier error).
    #[error("the engine process has ended")]
    Exited,
    /// The engine does not play this variant (or Chess960, named `chess960`).
    #[error("the engine does not support the variant {0:?}")]
    UnsupportedVariant(String),
    /// A FEN, move or option that cannot be sent on one UCI line (empty, a line break, a space
    /// inside a move, …); nothing was sent.
    #[error("cannot send this to the engine: {0}")]
    InvalidInput(String),
}
