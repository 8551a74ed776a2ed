//! Exports of a stored game, for pages, the API, mail and the command line: its PGN and its FEN.

mod fen;
mod pgn;
pub mod svg;

pub use fen::{BoardAt, NoSuchPly, boards_at, fen_at, position_fen};
pub use pgn::{pgn_of, pgn_of_games};
