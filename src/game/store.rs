//! Writing the game record: a move and the game row after it, banks, deadlines, draw offers,
//! the end of a game. Rows only: the use cases above decide, check and notify.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use slowfuse_rules::{Color, GameKind, Outcome, PlayedMove, TimeControl};

use super::clock::to_columns;
use super::seat::{Seat, color_name};
use super::statements::{BoardAfterMove, ClaimGameForMove};
use super::status::GameStatus;
use crate::db::DbConnection;
use crate::models::Move;
use crate::schema::{game_boards, game_players, games, moves};

/// A move about to be stored: who played what, at which ply, and the position after it.
pub struct MoveToStore<'a> {
    pub game_id: i64,
    pub seat: Seat,
    pub user_id: i64,
    /// The ply the move is played at (0 for the first move).
    pub ply: i32,
    pub played: &'a PlayedMove,
    pub fen_after: &'a str,
    pub comment: Option<&'a str>,
}

/// The board after a move.
pub struct AfterMove<'a> {
    pub fen: &'a str,
    /// Moves made on the board.
    pub board_ply: i32,
    /// Moves made on all boards.
    pub game_ply: i32,
    pub turn: Color,
    pub deadline: Option<NaiveDateTime>,
    /// The earliest deadline of all the game's boards after the move.
    pub game_deadline: Option<NaiveDateTime>,
    /// The draw offer that still stands (the mover's own; the opponent's lapses).
    pub draw_offer: Option<Seat>,
}

/// Inserts the move row (unique on game, board and ply: a second line of defence against a
/// double submission) and advances the board and the game row; the move's row as stored.
pub fn store_move(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    m: &MoveToStore<'_>,
    after: &AfterMove<'_>,
) -> QueryResult<Move> {
    let stored = store_move_on_board(conn, now, m, after)?;
    crate::on_backend!(conn, |c| diesel::update(games::table.find(m.game_id))
        .set((
            games::ply.eq(after.game_ply),
            games::updated_at.eq(now),
            games::deadline_at.eq(after.game_deadline),
        ))
        .execute(c))?;
    Ok(stored)
}

/// Takes the write lock on the game as [`crate::db::lock_game`] does, only if its revision is
/// still `read_revision`, and writes the game row after the move in the same statement (the
/// row [`store_move`] writes); `None`, and nothing written, when the game changed meanwhile.
/// The move's own rows then follow with [`store_move_on_board`].
pub fn claim_game_for_move(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    (game_id, read_revision): (i64, i64),
    after: &AfterMove<'_>,
) -> QueryResult<Option<Claimed>> {
    let claim = claim_of(now, (game_id, read_revision), after);
    let holds = crate::on_backend!(conn, |c| claim.get_result::<bool>(c).optional())?;
    Ok(holds.map(|holds_conditional_lines| Claimed {
        holds_conditional_lines,
    }))
}

/// The claim of a game read at `read_revision`, with its row after the move.
pub fn claim_of(
    now: NaiveDateTime,
    (game_id, read_revision): (i64, i64),
    after: &AfterMove<'_>,
) -> ClaimGameForMove {
    ClaimGameForMove {
        game_id,
        read_revision,
        ply: after.game_ply,
        updated_at: now,
        deadline_at: after.game_deadline,
    }
}

/// The row of the board moved on, after the move.
pub fn board_after<'a>(
    now: NaiveDateTime,
    game_id: i64,
    seat: Seat,
    after: &AfterMove<'a>,
) -> BoardAfterMove<'a> {
    BoardAfterMove {
        game_id,
        board: seat.board,
        fen: after.fen,
        ply: after.board_ply,
        turn: color_name(after.turn),
        last_move_at: Some(now),
        deadline_at: after.deadline,
        low_time_at: low_time_look(now, after.deadline),
        draw_offer: after.draw_offer.map(Seat::color_name),
    }
}

/// A game claimed for a move, and what the claim learnt of it.
#[derive(Clone, Copy, Debug)]
pub struct Claimed {
    /// Whether the game holds conditional lines (asked under the claim: lines written since
    /// would have changed the revision).
    pub holds_conditional_lines: bool,
}

/// The move's row and its board after it, the game row left to the caller: [`store_move`],
/// or [`claim_game_for_move`] before it.
pub fn store_move_on_board(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    m: &MoveToStore<'_>,
    after: &AfterMove<'_>,
) -> QueryResult<Move> {
    // Every column bound, none left to its default: the statement has one shape, so both
    // databases keep it prepared (an `Option` field of an insertable struct is written as
    // `DEFAULT` when `None`, which they would prepare again at every move).
    let row = (
        moves::game_id.eq(m.game_id),
        moves::board.eq(m.seat.board),
        moves::ply.eq(m.ply),
        moves::uci.eq(&m.played.uci),
        moves::san.eq(&m.played.san),
        moves::fen_after.eq(m.fen_after),
        moves::player_id.eq(Some(m.user_id)),
        moves::comment.eq(m.comment),
        moves::played_at.eq(now),
    );
    let stored = crate::on_backend!(conn, |c| diesel::insert_into(moves::table)
        .values(row)
        .returning(Move::as_returning())
        .get_result(c))?;
    crate::db::note_move_stored();
    let board = board_after(now, m.game_id, m.seat, after);
    crate::on_backend!(conn, |c| board.execute(c))?;
    Ok(stored)
}

/// When the time-running-low scan is to look at a board whose deadline is written `now`: at
/// its next pass, which works out the turn's thresholds (`usecases::notify::low_time`); never,
/// without a deadline. Every writer of a board's deadline writes this with it.
pub fn low_time_look(now: NaiveDateTime, deadline: Option<NaiveDateTime>) -> Option<NaiveDateTime> {
    deadline.map(|_| now)
}

/// One board's row.
fn board_row(
    game_id: i64,
    board: i32,
) -> diesel::dsl::Filter<
    diesel::dsl::Filter<game_boards::table, diesel::dsl::Eq<game_boards::game_id, i64>>,
    diesel::dsl::Eq<game_boards::board, i32>,
> {
    game_boards::table
        .filter(game_boards::game_id.eq(game_id))
        .filter(game_boards::board.eq(board))
}

/// Sets the game's deadline to the earliest of its boards' (the worker looks for overdue
/// games by it, and the lists sort by it).
fn refresh_game_deadline(conn: &mut DbConnection, game_id: i64) -> QueryResult<()> {
    let earliest: Option<NaiveDateTime> = game_boards::table
        .filter(game_boards::game_id.eq(game_id))
        .select(diesel::dsl::min(game_boards::deadline_at))
        .get_result(conn)?;
    diesel::update(games::table.find(game_id))
        .set(games::deadline_at.eq(earliest))
        .execute(conn)?;
    Ok(())
}

/// Sets one board's position without a move on it: in bughouse a capture on the other board
/// changes this board's pockets.
pub fn set_board_fen(
    conn: &mut DbConnection,
    game_id: i64,
    board: i32,
    fen: &str,
) -> QueryResult<()> {
    diesel::update(board_row(game_id, board))
        .set(game_boards::fen.eq(fen))
        .execute(conn)?;
    Ok(())
}

/// Writes a player's secret row (minesweeper bombs and the counts told to them): the one
/// writer of `game_players.secret_state`, as [`super::rules::read_secret_state`] is its one
/// reader.
pub fn write_secret_state(
    conn: &mut DbConnection,
    game_id: i64,
    color: Color,
    state: &str,
) -> QueryResult<()> {
    diesel::update(
        game_players::table
            .filter(game_players::game_id.eq(game_id))
            .filter(game_players::color.eq(color_name(color))),
    )
    .set(game_players::secret_state.eq(Some(state)))
    .execute(conn)?;
    Ok(())
}

/// Ends a minesweeper game's setup: the game is played from now on.
pub fn write_started(conn: &mut DbConnection, now: NaiveDateTime, game_id: i64) -> QueryResult<()> {
    diesel::update(games::table.find(game_id))
        .set((
            games::status.eq(GameStatus::Started.as_str()),
            games::updated_at.eq(now),
        ))
        .execute(conn)?;
    Ok(())
}

/// Sets one seat's time bank.
pub fn set_bank(
    conn: &mut DbConnection,
    game_id: i64,
    seat: Seat,
    bank: Option<i64>,
) -> QueryResult<()> {
    diesel::update(
        game_players::table
            .filter(game_players::game_id.eq(game_id))
            .filter(game_players::board.eq(seat.board))
            .filter(game_players::color.eq(seat.color_name())),
    )
    .set(game_players::time_left_seconds.eq(bank))
    .execute(conn)?;
    Ok(())
}

/// Sets the deadline of the player to move on one board.
pub fn set_deadline(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    game_id: i64,
    board: i32,
    deadline: Option<NaiveDateTime>,
) -> QueryResult<()> {
    diesel::update(board_row(game_id, board))
        .set((
            game_boards::deadline_at.eq(deadline),
            game_boards::low_time_at.eq(low_time_look(now, deadline)),
        ))
        .execute(conn)?;
    diesel::update(games::table.find(game_id))
        .set(games::updated_at.eq(now))
        .execute(conn)?;
    refresh_game_deadline(conn, game_id)
}

/// Sets or clears the standing draw offer on one board.
pub fn set_draw_offer(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    game_id: i64,
    board: i32,
    offer: Option<Seat>,
) -> QueryResult<()> {
    diesel::update(board_row(game_id, board))
        .set(game_boards::draw_offer.eq(offer.map(Seat::color_name)))
        .execute(conn)?;
    diesel::update(games::table.find(game_id))
        .set(games::updated_at.eq(now))
        .execute(conn)?;
    Ok(())
}

/// A game that ended has no deadline and no draw offer on any board.
fn clear_boards(conn: &mut DbConnection, game_id: i64) -> QueryResult<()> {
    diesel::update(game_boards::table.filter(game_boards::game_id.eq(game_id)))
        .set((
            game_boards::deadline_at.eq(None::<NaiveDateTime>),
            game_boards::low_time_at.eq(None::<NaiveDateTime>),
            game_boards::draw_offer.eq(None::<String>),
        ))
        .execute(conn)?;
    Ok(())
}

/// Writes the end of a game: result, termination, no deadline, no offer.
pub fn write_finish(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    game_id: i64,
    outcome: &Outcome,
) -> QueryResult<()> {
    write_result(
        conn,
        now,
        game_id,
        outcome.result(),
        outcome.reason.as_str(),
    )
}

/// Writes the end of a game or match as its result (`1-0`, `0-1`, `1/2-1/2`; in bughouse from
/// team A's side) and the termination's stable name; no deadline, no offer.
pub fn write_result(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    game_id: i64,
    result: &str,
    termination: &str,
) -> QueryResult<()> {
    diesel::update(games::table.find(game_id))
        .set((
            games::status.eq(GameStatus::Finished.as_str()),
            games::result.eq(result),
            games::termination.eq(Some(termination)),
            games::finished_at.eq(Some(now)),
            games::deadline_at.eq(None::<NaiveDateTime>),
            games::updated_at.eq(now),
        ))
        .execute(conn)?;
    clear_boards(conn, game_id)
}

/// Calls a game off without a result.
pub fn write_abort(conn: &mut DbConnection, now: NaiveDateTime, game_id: i64) -> QueryResult<()> {
    diesel::update(games::table.find(game_id))
        .set((
            games::status.eq(GameStatus::Aborted.as_str()),
            games::finished_at.eq(Some(now)),
            games::deadline_at.eq(None::<NaiveDateTime>),
            games::updated_at.eq(now),
        ))
        .execute(conn)?;
    clear_boards(conn, game_id)
}

/// How a new game begins: its kind and terms (variant options, clock, rating, privacy), its
/// start position, status and first deadline (the game's, the earliest of its boards').
pub struct GameStart<'a> {
    pub kind: GameKind,
    /// The variant's options as stored (`{}` when it has none).
    pub variant_options: &'a str,
    pub initial_fen: &'a str,
    pub status: GameStatus,
    pub time: TimeControl,
    pub rated: bool,
    /// False: a private game, its comments for the players only.
    pub public: bool,
    /// False: a player out of time loses only when the opponent claims it.
    pub auto_flag: bool,
    pub deadline: Option<NaiveDateTime>,
}

/// Inserts a new game's row as it begins; returns its id.
pub fn insert_game(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    start: &GameStart<'_>,
) -> QueryResult<i64> {
    let (time_control, days_per_move, initial_seconds, increment_seconds, cap_seconds) =
        to_columns(start.time);
    let new_game = crate::models::NewGame {
        variant: start.kind.as_str(),
        variant_options: start.variant_options,
        initial_fen: start.initial_fen,
        status: start.status.as_str(),
        result: "*",
        time_control,
        days_per_move,
        initial_seconds,
        increment_seconds,
        cap_seconds,
        auto_flag: start.auto_flag,
        deadline_at: start.deadline,
        rated: start.rated,
        is_public: start.public,
        created_at: now,
        updated_at: now,
    };
    crate::on_backend!(conn, |c| diesel::insert_into(games::table)
        .values(&new_game)
        .returning(games::id)
        .get_result(c))
}

/// Seats a player in a new game with their starting bank.
pub fn insert_player(
    conn: &mut DbConnection,
    game_id: i64,
    user_id: i64,
    seat: Seat,
    bank: Option<i64>,
) -> QueryResult<()> {
    diesel::insert_into(game_players::table)
        .values(crate::models::NewGamePlayer {
            game_id,
            user_id,
            board: seat.board,
            color: seat.color_name(),
            time_left_seconds: bank,
        })
        .execute(conn)?;
    Ok(())
}

/// The first rows of a new game's board: its start position, White to move, and the first
/// player's deadline.
pub fn create_board(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    game_id: i64,
    board: i32,
    fen: &str,
    deadline: Option<NaiveDateTime>,
) -> QueryResult<()> {
    diesel::insert_into(game_boards::table)
        .values(crate::models::NewGameBoard {
            game_id,
            board,
            fen,
            turn: color_name(Color::White),
            deadline_at: deadline,
            low_time_at: low_time_look(now, deadline),
        })
        .execute(conn)?;
    Ok(())
}

/// Takes the last moves of board 0 back: the move rows from `to_ply` on are deleted and the
/// board and the game row set to the position before them, with `turn` to move until
/// `deadline` and no draw offer standing.
pub fn take_back_moves(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    game_id: i64,
    to_ply: i32,
    (fen, turn): (&str, Color),
    deadline: Option<NaiveDateTime>,
) -> QueryResult<()> {
    diesel::delete(
        moves::table
            .filter(moves::game_id.eq(game_id))
            .filter(moves::board.eq(0))
            .filter(moves::ply.ge(to_ply)),
    )
    .execute(conn)?;
    diesel::update(board_row(game_id, 0))
        .set((
            game_boards::fen.eq(fen),
            game_boards::ply.eq(to_ply),
            game_boards::turn.eq(color_name(turn)),
            game_boards::last_move_at.eq(Some(now)),
            game_boards::deadline_at.eq(deadline),
            game_boards::low_time_at.eq(low_time_look(now, deadline)),
            game_boards::draw_offer.eq(None::<&str>),
        ))
        .execute(conn)?;
    diesel::update(games::table.find(game_id))
        .set((
            games::ply.eq(to_ply),
            games::updated_at.eq(now),
            games::deadline_at.eq(deadline),
        ))
        .execute(conn)?;
    Ok(())
}
