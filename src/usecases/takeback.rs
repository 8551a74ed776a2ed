//! Taking moves back in a casual game against the computer: the player's last move and the
//! computer's answer to it (or the player's move alone while the computer has not answered).
//! Offered nowhere else: a rated game, or one against a person, keeps every move.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use crate::db::DbConnection;
use crate::game::clock::{deadline, time_control_of};
use crate::game::store::take_back_moves;
use crate::game::{GameRecord, Seat};
use crate::schema::{computer_players, moves};

/// Why nothing was taken back; the game is unchanged.
#[derive(Debug, thiserror::Error)]
pub enum TakebackError {
    #[error("moves can be taken back only in casual games against the computer")]
    NotOffered,
    #[error("you have no move to take back yet")]
    NothingToTakeBack,
    #[error(transparent)]
    Db(#[from] diesel::result::Error),
}

/// Whether `user_id` is one of the computer's accounts.
pub fn is_computer(conn: &mut DbConnection, user_id: i64) -> QueryResult<bool> {
    let found: i64 = computer_players::table
        .filter(computer_players::user_id.eq(user_id))
        .count()
        .get_result(conn)?;
    Ok(found > 0)
}

/// Takes back `me`'s last move in the locked, running game `record` (checked by the caller:
/// `me` plays in it and the page was not stale), and the computer's reply when it came.
/// Returns how many plies were taken back.
pub fn take_back(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    record: &GameRecord,
    me: Seat,
) -> Result<i32, TakebackError> {
    let opponent = record
        .player(me.opponent())
        .ok_or(TakebackError::NotOffered)?;
    if record.game.rated || !is_computer(conn, opponent.user_id)? {
        return Err(TakebackError::NotOffered);
    }
    let board = record.first_board();
    // On my turn the computer has answered: its move goes too.
    let plies = if board.turn == me.color { 2 } else { 1 };
    if board.ply < plies {
        return Err(TakebackError::NothingToTakeBack);
    }
    let to_ply = board.ply - plies;
    let fen: String = if to_ply == 0 {
        record.game.initial_fen.clone()
    } else {
        moves::table
            .filter(moves::game_id.eq(record.game.id))
            .filter(moves::board.eq(0))
            .filter(moves::ply.eq(to_ply - 1))
            .select(moves::fen_after)
            .get_result(conn)?
    };
    let mine = record.player(me);
    let my_deadline = deadline(
        time_control_of(&record.game),
        now,
        mine.and_then(|p| p.time_left_seconds),
        mine.map_or(&[][..], |p| p.leave.as_slice()),
    );
    take_back_moves(
        conn,
        now,
        record.game.id,
        to_ply,
        (&fen, me.color),
        my_deadline,
    )?;
    Ok(plies)
}
