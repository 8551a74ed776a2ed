//! Exports of stored games, for pages, the API, mail and the command line: a game's PGN, FEN
//! and picture, and the PGN of many games at once.

pub mod bulk;
mod fen;
mod pgn;
pub mod svg;

pub use fen::{BoardAt, NoSuchPly, boards_at, fen_at, position_fen};
pub use pgn::{pgn_of, pgn_of_games};
