//! Errors of minesweeper games, each with a message fit to show a player.

use shakmaty::{Color, Square};

use crate::error::MoveError;

/// A move was refused. The game it was tried on is unchanged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// The bombs are still being placed.
    #[error("the bombs are still being placed: play starts when the setup ends")]
    InSetup,
    /// The other player is to move.
    #[error("it is not your turn")]
    NotYourTurn,
    /// The text is not a legal move (or the game is over): see [`MoveError`].
    #[error(transparent)]
    Move(#[from] MoveError),
}

/// A bomb placement (or the end of the setup) was refused. The game is
/// unchanged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BombError {
    /// The setup phase has ended (or the game is over).
    #[error("the setup is over: bombs can no longer be placed")]
    SetupOver,
    /// The options place every bomb at random.
    #[error("in this game the bombs are placed at random: nobody chooses them")]
    NotChosen,
    /// More bombs than a player may place.
    #[error("{given} bombs given, but you place at most {max}")]
    TooMany {
        /// How many were given.
        given: usize,
        /// The most allowed.
        max: usize,
    },
    /// The same square was given twice.
    #[error("{0} is given twice: each of your bombs needs its own square")]
    Duplicate(Square),
    /// A square outside the player's region.
    #[error("a bomb cannot lie on {square}: yours must be on {region}")]
    OutsideRegion {
        /// The square given.
        square: Square,
        /// Where the player's bombs may lie, e.g. `"ranks 1–4"`.
        region: String,
    },
    /// Text that is not a list of squares.
    #[error("cannot read \"{text}\" (at position {position}) as a square like e4")]
    Unreadable {
        /// 1-based character position of the word in the input.
        position: usize,
        /// The word as written.
        text: String,
    },
}

/// A stored game could not be rebuilt.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RestoreError {
    /// A player's secret state is not in the stored form.
    #[error("{color}'s secret state, position {position}: {problem}")]
    Secret {
        /// Whose row.
        color: Color,
        /// 1-based character position of the problem.
        position: usize,
        /// What is wrong there.
        problem: String,
    },
    /// A player's bombs break the rules of the options.
    #[error("{color}'s bombs: {error}")]
    Bombs {
        /// Whose row.
        color: Color,
        /// What is wrong with them.
        error: BombError,
    },
    /// Moves were stored although the bombs are not all placed.
    #[error("moves are stored but the bombs are not all placed")]
    Incomplete,
    /// A stored move cannot be replayed.
    #[error("move {ply} ({uci}) cannot be replayed: {error}")]
    Move {
        /// 1-based ply of the failing move.
        ply: u32,
        /// The stored move.
        uci: String,
        /// Why it failed.
        error: PlayError,
    },
    /// The counts stored for a player differ from those the replay told.
    #[error("the counts stored for {color} differ from the replayed game")]
    Counts {
        /// Whose row.
        color: Color,
    },
}

/// The full record (with every bomb) was asked for before the game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the game is not over: the bombs are revealed only when it ends")]
pub struct NotOver;
