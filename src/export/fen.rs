//! A stored game's position as FEN: now, at the start, or after any ply.

use crate::game::GameRecord;

/// A ply the game does not have: its plies run from 0 (the start) to `last`.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
#[error("ply must be a number from 0 to {last}")]
pub struct NoSuchPly {
    pub last: i32,
}

/// The FEN after `ply` half-moves (0: the starting position), or the current one for `None`.
pub fn fen_at(record: &GameRecord, ply: Option<i32>) -> Result<String, NoSuchPly> {
    match ply {
        None => Ok(record.first_board().fen.clone()),
        Some(0) => Ok(record.game.initial_fen.clone()),
        Some(ply) => record
            .moves
            .iter()
            .find(|m| m.ply + 1 == ply)
            .map(|m| m.fen_after.clone())
            .ok_or(NoSuchPly {
                last: record.game.ply,
            }),
    }
}
