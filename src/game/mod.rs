//! The game record, apart from the act of playing it: loading a game with its seats, its
//! status, the rules' view of it, clocks as stored, and the row writes of a move or an end.
//! The bottom of the application: it imports no use case, page or mail module.

pub mod cache;
pub mod clock;
pub mod imported;
pub mod record;
pub mod rules;
pub mod seat;
pub mod statements;
pub mod status;
pub mod store;

pub use cache::{RecordCache, load_game_cached, read_game_cached};
pub use imported::ImportedPlayers;
pub use record::{
    BoardState, CorruptGame, GameRecord, LeaveTaken, Message, PlayerNames, SeatedPlayer,
    leave_taken, load_game, player_names, read_game,
};
pub use rules::{Ending, EndingRefused, RulesError, RulesGame, rules_game};
pub use seat::{Seat, color_name, from_bughouse, parse_bughouse_seat, parse_color};
pub use status::GameStatus;
