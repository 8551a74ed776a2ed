//! Pure game rules of Slowfuse: variants, move input, outcomes, draw claims, FEN and PGN.
//!
//! The crate does no I/O and never reads the clock. A [`Game`] is an
//! immutable value: playing a move, resigning or claiming a draw returns a
//! new game and leaves the old one as it was. Legality comes from
//! shakmaty; Slowfuse adds the
//! correspondence rules on top (see [`Game`] for how games end). Variants:
//! see [`Variant`]; PGN is written by [`write_pgn`] and read (with
//! pgn-reader) by [`read_pgn`].
//! Bughouse, two linked crazyhouse boards, lives in [`bughouse`], with its
//! BPGN records. Minesweeper, with its hidden bombs and the views that keep
//! them secret, lives in [`minesweeper`]. [`GameKind`] names which of the three a variant
//! name is; [`GameRules`] is what all three do (play, resign, draw, flag, outcome, views).
//!
//! ```
//! use slowfuse_rules::{Game, Variant};
//!
//! let game = Game::new(Variant::Standard).play("e4")?.play("e7e5")?;
//! assert_eq!(game.moves()[1].san, "e5");
//! assert_eq!(game.fen(), "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
//! # Ok::<_, slowfuse_rules::MoveError>(())
//! ```

#![warn(missing_docs)]

mod analysis;
pub mod bughouse;
mod clock;
mod conditional;
mod error;
mod fen;
mod game;
mod game_rules;
mod input;
mod kind;
pub mod minesweeper;
mod outcome;
mod perft;
mod pgn;
mod pgn_read;
mod variant;

pub use analysis::{MoveTree, TreeError, TreeNode};
pub use bughouse::{
    BpgnHeaders, BughouseError, BughouseGame, BughouseOutcome, read_bpgn, write_bpgn,
};
pub use clock::{
    DAY_SECONDS, FISCHER_PRESETS, LeavePeriod, TimeControl, deadline_with_leave, leave_within,
};
pub use conditional::{ConditionalError, ConditionalLimits, ConditionalLines, Reply};
pub use error::{ClaimError, GameOver, MoveError, ReplayError, SetupError};
pub use fen::STANDARD_START_FEN;
pub use game::{
    BoardArray, Game, PlayedMove, PlyMarks, Pocket, Pockets, legal_moves_from_fen, square_index,
};
pub use game_rules::{GameRules, MinesweeperView, OffBoard};
pub use kind::GameKind;
pub use outcome::{EndReason, Outcome, UnknownEndReason};
pub use perft::{
    PerftOptions, perft_divide_from_fen, perft_from_fen, perft_from_fen_with,
    perft_from_fen_with_progress,
};
pub use pgn::{PgnHeaders, write_pgn};
pub use pgn_read::{PgnComment, PgnError, PgnGame, PgnGames, PgnReadOptions, read_pgn};
pub use shakmaty::{Color, Role};
pub use variant::{UnknownVariant, Variant};
