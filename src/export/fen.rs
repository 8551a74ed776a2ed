//! A stored game's position as FEN: now, at the start, or after any ply.

use slowfuse_rules::Game;

use crate::game::GameRecord;

/// A ply the game does not have: its plies run from 0 (the start) to `last`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("ply must be a number from 0 to {last}")]
pub struct NoSuchPly {
    pub last: i32,
}

/// The FEN after `ply` half-moves (0: the starting position), or the current one for `None`;
/// `game` is the record's game as the rules see it.
pub fn fen_at(record: &GameRecord, game: &Game, ply: Option<i32>) -> Result<String, NoSuchPly> {
    let Some(ply) = ply else {
        return Ok(record.first_board().fen.clone());
    };
    let no_such = NoSuchPly {
        last: record.game.ply,
    };
    let ply = u32::try_from(ply).map_err(|_| no_such.clone())?;
    game.fen_at(ply).ok_or(no_such)
}
