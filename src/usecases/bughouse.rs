//! What only a bughouse match has: its boards named `a` and `b`, a move stored on one board
//! (the partner's pocket changes with it), and the team chat. Every action of a match goes
//! through the one action pipeline (`usecases::play::act`); this module holds the parts it
//! calls for a match.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use slowfuse_rules::BughouseGame;
use slowfuse_rules::bughouse::{Board, BughouseError, Seat as BughouseSeat, Team};

use crate::db::DbConnection;
use crate::game::store::{AfterMove, MoveToStore, set_bank, store_move};
use crate::game::{CorruptGame, GameRecord, Seat, from_bughouse};
use crate::models::NewTeamChatLine;
use crate::schema::{team_chat, users};
use crate::usecases::finish::finish_match;
use crate::usecases::play_error::PlayError;
use crate::usecases::submit::{bank_after_move, deadlines_after_move};

/// The letter of a board as the API writes it: `a` or `b`.
pub fn board_letter(board: Board) -> &'static str {
    match board {
        Board::A => "a",
        Board::B => "b",
    }
}

/// Reads `a` or `b` (either case).
pub fn parse_board(text: &str) -> Option<Board> {
    match text.trim() {
        "a" | "A" => Some(Board::A),
        "b" | "B" => Some(Board::B),
        _ => None,
    }
}

/// The stored board number of a bughouse board.
pub fn board_number(board: Board) -> i32 {
    match board {
        Board::A => 0,
        Board::B => 1,
    }
}

/// The match as the rules see it, with its stored off-board ending.
pub fn match_game(record: &GameRecord) -> Result<BughouseGame, CorruptGame> {
    record.bughouse_game()
}

/// Plays `input` for `seat` on its board: the rules judge it, then the move row, the board,
/// the mover's bank and the opponent's deadline are written; the match ends when the rules
/// say so.
pub(crate) fn store_match_move(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    record: &GameRecord,
    game: &BughouseGame,
    seat: BughouseSeat,
    (user_id, input, message): (i64, &str, Option<&str>),
) -> Result<(), PlayError> {
    let stored = from_bughouse(seat);
    let after = game.play_as(seat, input.trim()).map_err(|e| match e {
        BughouseError::NotYourTurn { .. } => PlayError::NotYourTurn(Some(seat.board())),
        BughouseError::GameOver => PlayError::GameOver(record.kind),
        other => PlayError::MatchMove(other),
    })?;
    let board = record
        .board(stored.board)
        .ok_or_else(|| record.corrupt("a match needs two boards"))?;
    let played = after.last_move().expect("a move was played");
    let played_move = slowfuse_rules::PlayedMove {
        uci: played.uci.clone(),
        san: played.san.clone(),
    };
    let fen = after.fen(seat.board());
    let (opponent_deadline, game_deadline) = deadlines_after_move(record, stored, now);
    let bank = bank_after_move(record, stored, now);
    set_bank(conn, record.game.id, stored, bank)?;
    store_move(
        conn,
        now,
        &MoveToStore {
            game_id: record.game.id,
            seat: stored,
            user_id,
            ply: board.ply,
            played: &played_move,
            fen_after: &fen,
            comment: message,
        },
        &AfterMove {
            fen: &fen,
            board_ply: board.ply + 1,
            game_ply: record.game.ply + 1,
            turn: after.turn(seat.board()),
            deadline: opponent_deadline,
            game_deadline,
            // A standing offer from the opponent lapses when I move; my own stands.
            draw_offer: board
                .draw_offer
                .filter(|c| *c == seat.color())
                .map(|_| stored),
        },
    )?;
    // The partner's board changed too: its FEN shows the new pocket.
    let other = seat.board().other();
    let other_fen = after.fen(other);
    crate::game::store::set_board_fen(conn, record.game.id, board_number(other), &other_fen)?;
    if let Some(outcome) = after.outcome() {
        finish_match(conn, now, record, &outcome)?;
    } else {
        crate::usecases::notify::your_turn(conn, now, record.game.id, stored.board)?;
    }
    Ok(())
}

/// A line of a team's chat as shown to that team.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TeamChatLine {
    pub author: String,
    pub text: String,
    pub written_at: NaiveDateTime,
}

fn team_name(team: Team) -> &'static str {
    match team {
        Team::A => "A",
        Team::B => "B",
    }
}

/// Writes a line of `team`'s chat.
pub(crate) fn write_team_chat(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    game_id: i64,
    team: Team,
    user_id: i64,
    text: &str,
) -> QueryResult<()> {
    diesel::insert_into(team_chat::table)
        .values(NewTeamChatLine {
            game_id,
            team: team_name(team),
            user_id,
            body: text,
            created_at: now,
        })
        .execute(conn)?;
    Ok(())
}

/// The team chat `viewer` may read in this match: their own team's lines when they play in
/// it, `None` for anyone else. The one reader of `team_chat`.
pub fn team_chat_for_player(
    conn: &mut DbConnection,
    record: &GameRecord,
    viewer: Option<i64>,
) -> QueryResult<Option<Vec<TeamChatLine>>> {
    let Some(team) = viewer
        .and_then(|id| record.seat_of(id))
        .and_then(Seat::bughouse)
        .map(BughouseSeat::team)
    else {
        return Ok(None);
    };
    let rows: Vec<(String, String, NaiveDateTime)> = team_chat::table
        .inner_join(users::table)
        .filter(team_chat::game_id.eq(record.game.id))
        .filter(team_chat::team.eq(team_name(team)))
        .order(team_chat::id.asc())
        .select((users::username, team_chat::body, team_chat::created_at))
        .load(conn)?;
    Ok(Some(
        rows.into_iter()
            .map(|(author, text, written_at)| TeamChatLine {
                author,
                text,
                written_at,
            })
            .collect(),
    ))
}
