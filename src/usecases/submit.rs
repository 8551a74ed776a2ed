//! Submitting one move for a seat: the turn check, the rules' verdict and the clocks worked
//! out first (`prepare_move`, no database), then the rows, the end when the rules say so and
//! the "your move" mail (`store_prepared`). Used for typed moves and for the conditional
//! replies the server plays.

use chrono::NaiveDateTime;
use diesel::{OptionalExtension, QueryResult, RunQueryDsl};
use slowfuse_rules::{Game, MoveError, leave_within};

use crate::db::DbConnection;
use crate::game::clock::{deadline, epoch, time_control_of};
use crate::game::store::{
    AfterMove, Claimed, MoveToStore, board_after, claim_game_for_move, claim_of, set_bank,
    store_move, store_move_on_board,
};
use crate::game::{CorruptGame, GameRecord, Seat};
use crate::models::Move;
use crate::usecases::finish::finish_game;
use crate::usecases::move_statement::MoveInOneStatement;
use crate::usecases::notify::{CancelWaitingYourTurn, QueueYourTurn};

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

/// A move the rules accepted, with everything its rows need.
pub struct PreparedMove {
    pub seat: Seat,
    /// The game after the move.
    pub after: Game,
    fen: String,
    board_ply: i32,
    mover_bank: Option<i64>,
    opponent_deadline: Option<NaiveDateTime>,
    game_deadline: Option<NaiveDateTime>,
    draw_offer: Option<Seat>,
}

/// Lets the rules judge `input` for `seat` in `game` (the record's game as the rules see it)
/// and works out the mover's bank, the opponent's deadline and the standing draw offer.
pub fn prepare_move(
    now: NaiveDateTime,
    record: &GameRecord,
    mut game: Game,
    seat: Seat,
    input: &str,
) -> Result<PreparedMove, SubmitError> {
    let board = record.board(seat.board).ok_or(SubmitError::NotYourTurn)?;
    if game.turn() != seat.color {
        return Err(SubmitError::NotYourTurn);
    }
    game.play_in_place(input.trim())
        .map_err(SubmitError::Move)?;
    let after = game;
    let (opponent_deadline, game_deadline) = deadlines_after_move(record, seat, now);
    Ok(PreparedMove {
        seat,
        fen: after.fen(),
        board_ply: board.ply + 1,
        mover_bank: bank_after_move(record, seat, now),
        opponent_deadline,
        game_deadline,
        // A standing offer from the opponent lapses when I move; my own offer stands.
        draw_offer: board.draw_offer.filter(|c| *c == seat.color).map(|_| seat),
        after,
    })
}

/// After `seat` moves now: the deadline of the opponent on its board, and the game's (the
/// earliest of its boards': this one's new, the others' as read).
pub(crate) fn deadlines_after_move(
    record: &GameRecord,
    seat: Seat,
    now: NaiveDateTime,
) -> (Option<NaiveDateTime>, Option<NaiveDateTime>) {
    let opponent = record.player(seat.opponent());
    let opponent_bank = opponent.and_then(|p| p.time_left_seconds);
    let opponent_leave = opponent.map_or(&[][..], |p| p.leave.as_slice());
    let tc = time_control_of(&record.game);
    let opponent_deadline = deadline(tc, now, opponent_bank, opponent_leave);
    let game_deadline = record
        .boards
        .iter()
        .filter(|b| b.board != seat.board)
        .filter_map(|b| b.deadline_at)
        .chain(opponent_deadline)
        .min();
    (opponent_deadline, game_deadline)
}

/// What storing a move wrote: the move's row as stored, and whether the move ended the game.
pub struct StoredMove {
    pub row: Move,
    pub ended_game: bool,
}

impl PreparedMove {
    /// The board and the game row after this move on `record`.
    fn rows_after<'a>(&'a self, record: &GameRecord) -> AfterMove<'a> {
        AfterMove {
            fen: &self.fen,
            board_ply: self.board_ply,
            game_ply: record.game.ply + 1,
            turn: self.after.turn(),
            deadline: self.opponent_deadline,
            game_deadline: self.game_deadline,
            draw_offer: self.draw_offer,
        }
    }

    /// The move's row, played on `record` by `user_id` with `comment`.
    fn row_to_store<'a>(
        &'a self,
        record: &GameRecord,
        user_id: i64,
        comment: Option<&'a str>,
    ) -> MoveToStore<'a> {
        MoveToStore {
            game_id: record.game.id,
            seat: self.seat,
            user_id,
            ply: self.board_ply - 1,
            played: self.after.moves().last().expect("a move was played"),
            fen_after: &self.fen,
            comment,
        }
    }

    /// Who is to move on this board after this move, known from the record's seats (no need
    /// to read it back).
    fn player_to_move(&self, record: &GameRecord) -> Option<i64> {
        let seat = Seat {
            board: self.seat.board,
            color: self.after.turn(),
        };
        record.player(seat).map(|p| p.user_id)
    }

    /// The record as its rows read after this move, which ended nothing, was stored on
    /// `record` by [`claim_and_store`] (so its revision counted once), made from both.
    /// Nothing may have been written since.
    pub fn record_after(
        &self,
        record: GameRecord,
        now: NaiveDateTime,
        stored: StoredMove,
    ) -> GameRecord {
        let after = self.rows_after(&record);
        let mover = (self.seat, self.mover_bank);
        record.with_move_stored(now, mover, stored.row, &after)
    }
}

/// Stores a prepared move with its comment: the move row, the board, the mover's bank, the end
/// of the game when the rules say, and the opponent's "your move". The game is locked.
pub fn store_prepared(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    record: &GameRecord,
    prepared: &PreparedMove,
    user_id: i64,
    comment: Option<&str>,
) -> Result<StoredMove, SubmitError> {
    store_rows(
        conn,
        now,
        record,
        prepared,
        (user_id, comment),
        GameRow::ToWrite,
    )
}

/// Stores a prepared move as [`store_prepared`] does if the game is still as `record` read it:
/// the game claimed by its revision and its row written in one statement
/// (`store::claim_game_for_move`). `None`, and nothing written, when it changed meanwhile.
pub fn claim_and_store(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    record: &GameRecord,
    prepared: &PreparedMove,
    user_id: i64,
    comment: Option<&str>,
) -> Result<Option<(Claimed, StoredMove)>, SubmitError> {
    let read = (record.game.id, record.game.revision);
    let Some(claimed) = claim_game_for_move(conn, now, read, &prepared.rows_after(record))? else {
        return Ok(None);
    };
    let stored = store_rows(
        conn,
        now,
        record,
        prepared,
        (user_id, comment),
        GameRow::Written,
    )?;
    Ok(Some((claimed, stored)))
}

/// Stores a prepared move as [`claim_and_store`] does, in one statement that is its own
/// transaction (`usecases::move_statement`), when the database is PostgreSQL and the move
/// ends nothing: the move's row. `None`, and nothing written, when the move is not one for it,
/// the game changed since `record` was read, or the game holds conditional lines: the caller
/// then stores the move in a transaction, which follows the lines.
pub fn store_in_one_statement(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    record: &GameRecord,
    prepared: &PreparedMove,
    user_id: i64,
    comment: Option<&str>,
) -> QueryResult<Option<StoredMove>> {
    let DbConnection::Pg(pg) = conn else {
        return Ok(None);
    };
    if prepared.after.outcome().is_some() {
        return Ok(None);
    }
    let Some(opponent) = prepared.player_to_move(record) else {
        return Ok(None);
    };
    let (game_id, seat) = (record.game.id, prepared.seat);
    let after = prepared.rows_after(record);
    let statement = MoveInOneStatement {
        claim: claim_of(now, (game_id, record.game.revision), &after),
        stored: prepared.row_to_store(record, user_id, comment),
        played_at: now,
        board: board_after(now, game_id, seat, &after),
        mover_bank: prepared.mover_bank,
        cancel: CancelWaitingYourTurn {
            game_id,
            board: seat.board,
        },
        queue: QueueYourTurn::new(now, (game_id, after.game_ply), opponent),
    };
    let row = statement.get_result::<Move>(pg).optional()?;
    Ok(row.map(|row| {
        crate::db::note_move_committed();
        StoredMove {
            row,
            ended_game: false,
        }
    }))
}

/// Whether the game row after the move is still to be written.
#[derive(Clone, Copy, PartialEq, Eq)]
enum GameRow {
    ToWrite,
    Written,
}

fn store_rows(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    record: &GameRecord,
    prepared: &PreparedMove,
    (user_id, comment): (i64, Option<&str>),
    game_row: GameRow,
) -> Result<StoredMove, SubmitError> {
    let seat = prepared.seat;
    // A clock of days per move gives the mover the same bank back: nothing to write then.
    let bank_before = record.player(seat).and_then(|p| p.time_left_seconds);
    if bank_before != prepared.mover_bank {
        set_bank(conn, record.game.id, seat, prepared.mover_bank)?;
    }
    let to_store = prepared.row_to_store(record, user_id, comment);
    let after = prepared.rows_after(record);
    let row = match game_row {
        GameRow::ToWrite => store_move(conn, now, &to_store, &after)?,
        GameRow::Written => store_move_on_board(conn, now, &to_store, &after)?,
    };
    let outcome = prepared.after.outcome();
    if let Some(outcome) = &outcome {
        finish_game(conn, now, record.game.id, outcome)?;
    }
    let to_move = match outcome {
        Some(_) => None,
        None => prepared.player_to_move(record),
    };
    let after = (record.game.id, seat.board, record.game.ply + 1);
    crate::usecases::notify::your_turn_of(conn, now, after, to_move)?;
    Ok(StoredMove {
        row,
        ended_game: outcome.is_some(),
    })
}

/// Prepares and stores a move in one go (the game is locked).
#[allow(clippy::too_many_arguments)]
pub fn submit_move(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    record: &GameRecord,
    game: Game,
    seat: Seat,
    user_id: i64,
    input: &str,
    comment: Option<&str>,
) -> Result<Game, SubmitError> {
    let prepared = prepare_move(now, record, game, seat, input)?;
    store_prepared(conn, now, record, &prepared, user_id, comment)?;
    Ok(prepared.after)
}

/// The mover's bank after this move: it runs only once both sides have made their first
/// move, and time on leave is not spent.
pub(crate) fn bank_after_move(record: &GameRecord, seat: Seat, now: NaiveDateTime) -> Option<i64> {
    let player = record.player(seat)?;
    let bank = player.time_left_seconds?;
    let board = record.board(seat.board)?;
    if board.ply < 2 {
        return Some(bank);
    }
    let turn_start = board.last_move_at.unwrap_or(record.game.created_at);
    let on_leave = leave_within(epoch(turn_start), epoch(now), &player.leave);
    let spent = (now - turn_start).num_seconds() - on_leave;
    Some(time_control_of(&record.game).bank_after_move(bank, spent))
}
