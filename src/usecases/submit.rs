//! Submitting one move for a seat: the turn check, the rules' verdict, the clocks, the rows,
//! the end when the rules say so and the "your move" mail. Used for typed moves and for the
//! conditional replies the server plays.

use chrono::NaiveDateTime;
use slowfuse_rules::{Game, MoveError, leave_within};

use crate::db::DbConnection;
use crate::game::clock::{deadline, epoch, time_control_of};
use crate::game::store::{AfterMove, MoveToStore, set_bank, store_move};
use crate::game::{CorruptGame, GameRecord, Seat};
use crate::usecases::finish::finish_game;

/// Why a move was not stored; nothing changed.
#[derive(Debug, thiserror::Error)]
pub enum SubmitError {
    #[error("it is not your turn")]
    NotYourTurn,
    #[error("{0}")]
    Move(MoveError),
    #[error(transparent)]
    Corrupt(#[from] CorruptGame),
    #[error(transparent)]
    Db(#[from] diesel::result::Error),
}

/// Plays `input` for `seat` in `game` (the record's game as the rules see it): stores the
/// move with its comment, the mover's bank and the opponent's deadline, ends the game when
/// the rules say, and records the opponent's "your move".
#[allow(clippy::too_many_arguments)]
pub fn submit_move(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    record: &GameRecord,
    game: &Game,
    seat: Seat,
    user_id: i64,
    input: &str,
    comment: Option<&str>,
) -> Result<Game, SubmitError> {
    if game.turn() != seat.color {
        return Err(SubmitError::NotYourTurn);
    }
    let after = game.play(input.trim()).map_err(SubmitError::Move)?;
    let played = after.moves().last().expect("a move was just played");
    let fen = after.fen();
    set_bank(
        conn,
        record.game.id,
        seat,
        bank_after_move(record, seat, now),
    )?;
    let opponent = record.player(seat.opponent());
    let opponent_bank = opponent.and_then(|p| p.time_left_seconds);
    let opponent_leave = opponent.map_or(&[][..], |p| p.leave.as_slice());
    let tc = time_control_of(&record.game);
    // A standing offer from the opponent lapses when I move; my own offer stands.
    let board = record.board(seat.board).ok_or(SubmitError::NotYourTurn)?;
    let draw_offer = board.draw_offer.filter(|c| *c == seat.color).map(|_| seat);
    store_move(
        conn,
        now,
        &MoveToStore {
            game_id: record.game.id,
            seat,
            user_id,
            ply: record.game.ply,
            played,
            fen_after: &fen,
            comment,
        },
        &AfterMove {
            fen: &fen,
            ply: record.game.ply + 1,
            turn: after.turn(),
            deadline: deadline(tc, now, opponent_bank, opponent_leave),
            draw_offer,
        },
    )?;
    if let Some(outcome) = after.outcome() {
        finish_game(conn, now, record.game.id, &outcome)?;
    }
    crate::usecases::notify::your_turn(conn, now, record.game.id)?;
    Ok(after)
}

/// The mover's bank after this move: it runs only once both sides have made their first
/// move, and time on leave is not spent.
fn bank_after_move(record: &GameRecord, seat: Seat, now: NaiveDateTime) -> Option<i64> {
    let player = record.player(seat)?;
    let bank = player.time_left_seconds?;
    if record.game.ply < 2 {
        return Some(bank);
    }
    let turn_start = record
        .first_board()
        .last_move_at
        .unwrap_or(record.game.created_at);
    let on_leave = leave_within(epoch(turn_start), epoch(now), &player.leave);
    let spent = (now - turn_start).num_seconds() - on_leave;
    Some(time_control_of(&record.game).bank_after_move(bank, spent))
}
