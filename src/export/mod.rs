//! Exports of stored games, for pages, the API, mail and the command line: a game's PGN, its
//! FEN and its pictures (SVG, PNG, animated GIF), and the PGN of many games at once.

mod bands;
pub mod bulk;
mod fen;
mod pgn;
pub mod raster;
pub mod svg;

pub use bands::{captions, two_player_captions};
pub use fen::{BoardAt, NoSuchPly, board_of_game, boards_at, fen_at, position_fen};
pub use pgn::{pgn_of, pgn_of_games};
