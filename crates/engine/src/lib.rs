//! The computer opponent of Slowfuse: a pure alpha-beta search with an evaluation for every variant.
//!
//! The engine reads no clock, starts no thread and does no I/O. The caller
//! gives a budget ([`Limits`]: nodes, plies, and optionally a `stop`
//! closure that it may tie to a deadline) and a seed; for a given position,
//! level, node budget and seed the answer is always the same.
//!
//! ```
//! use slowfuse_engine::{EnginePosition, Level, Limits, best_move};
//! use slowfuse_rules::Variant;
//!
//! // Scholar's mate is there to be played.
//! let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 4 4";
//! let position = EnginePosition::from_fen(Variant::Standard, fen)?;
//! let result = best_move(&position, Level::Hard, &Limits::nodes(20_000), 1)?;
//! assert_eq!(result.uci, "f3f7");
//! assert_eq!(result.mate, Some(1));
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```
//!
//! Minesweeper positions are made only from a player's view
//! ([`EnginePosition::from_minesweeper`]), so the engine cannot see a bomb
//! its side does not know of. A bughouse board is played as crazyhouse
//! ([`EnginePosition::from_bughouse`]).

#![warn(missing_docs)]

mod api;
mod eval;
mod judgement;
mod levels;
mod minesweeper;
mod ordering;
pub mod playout;
mod position;
pub mod puzzles;
mod rng;
mod search;
mod tt;

pub use api::{Analysis, EngineError, Limits, SearchResult, analyse, analyse_game, best_move};
pub use judgement::{Eval, Judgement, judge, winning_chances};
pub use levels::Level;
pub use position::{BadPosition, EnginePosition, Kind};
