//! Exports of a stored game, for pages, the API, mail and the command line: its PGN and its FEN.

mod fen;
mod pgn;
pub mod svg;

pub use fen::{NoSuchPly, fen_at};
pub use pgn::{minesweeper_pgn, pgn_of, pgn_of_games};
