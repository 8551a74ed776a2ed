//! Acting in a bughouse match: a move or drop on one's own board, resigning, offering,
//! accepting, declining and withdrawing a draw, and the team chat. Each action locks the
//! match, checks the board's ply as the player saw it, and stores the change; the first board
//! to end ends the match for all four.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use slowfuse_rules::bughouse::{Board, BughouseError, BughouseOutcome, Seat as BughouseSeat, Team};
use slowfuse_rules::{BughouseGame, GameKind};

use crate::db::{DbConnection, lock_game};
use crate::game::store::{AfterMove, MoveToStore, set_bank, store_move};
use crate::game::{CorruptGame, GameRecord, Seat, from_bughouse, load_game};
use crate::models::NewTeamChatLine;
use crate::schema::{team_chat, users};
use crate::usecases::draw_offers::{DrawAction, DrawError, DrawStep, take_draw_step};
use crate::usecases::submit::{bank_after_move, deadlines_after_move};

/// What a player of a match does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MatchAction {
    /// A move or a drop (`P@e4`) on the player's board, in SAN or UCI.
    Move(String),
    /// Resigns for the team: the match is lost for both partners.
    Resign,
    /// Offers the opponent on the same board a draw of the whole match.
    OfferDraw,
    /// Accepts the standing offer of the opponent on the same board: the match is drawn.
    AcceptDraw,
    DeclineDraw,
    /// Takes back one's own standing offer.
    WithdrawDraw,
    /// A line to the partner, read by the team only.
    TeamChat(String),
}

/// One request to act in a match: who, on which board at which of its plies (as the player
/// saw it), and what.
#[derive(Clone, Debug)]
pub struct MatchRequest {
    pub game_id: i64,
    pub user_id: i64,
    /// The board the player says they play on (checked against their seat).
    pub board: Option<Board>,
    /// That board's ply as the player saw it (not needed for team chat).
    pub ply: Option<i32>,
    pub action: MatchAction,
}

/// Why an action was refused; the match is unchanged.
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    #[error("game not found")]
    NotFound,
    #[error("you are not playing in this match")]
    NotAPlayer,
    #[error("you play on board {mine}, not board {asked}")]
    NotYourBoard { mine: String, asked: String },
    #[error("say which board you play on: \"board\": \"a\" or \"b\"")]
    NoBoard,
    #[error("send \"ply\": your board's ply as you last saw it")]
    NoPly,
    #[error("it is not your turn on board {0}")]
    NotYourTurn(String),
    #[error("the match is over")]
    GameOver,
    #[error(
        "board {board} has moved on since you looked (you acted at its ply {sent}, it is now ply {current}): look at the new position and try again"
    )]
    Stale {
        board: String,
        sent: i32,
        current: i32,
    },
    #[error("{0}")]
    Rules(BughouseError),
    #[error("type a move, e.g. Nf3 or a drop such as P@e4")]
    EmptyMove,
    #[error(
        "that is too long to be a move: write SAN such as Nf3, UCI such as g1f3 or a drop such as P@e4"
    )]
    MoveTooLong,
    #[error("write a message for your partner")]
    EmptyMessage,
    #[error("the message is too long: at most {0} characters")]
    MessageTooLong(usize),
    #[error(transparent)]
    Draw(#[from] DrawError),
    #[error(transparent)]
    Corrupt(#[from] CorruptGame),
    #[error(transparent)]
    Db(#[from] diesel::result::Error),
}

/// The longest text read as a move.
const MAX_MOVE_CHARS: usize = 16;

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

/// Performs one action in a match and returns the match as stored afterwards.
pub fn act_in_match(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    max_message_chars: usize,
    req: &MatchRequest,
) -> Result<GameRecord, MatchError> {
    match &req.action {
        MatchAction::Move(m) if m.trim().is_empty() => return Err(MatchError::EmptyMove),
        MatchAction::Move(m) if m.trim().chars().count() > MAX_MOVE_CHARS => {
            return Err(MatchError::MoveTooLong);
        }
        MatchAction::TeamChat(text) if text.trim().is_empty() => {
            return Err(MatchError::EmptyMessage);
        }
        MatchAction::TeamChat(text) if text.trim().chars().count() > max_message_chars => {
            return Err(MatchError::MessageTooLong(max_message_chars));
        }
        _ => {}
    }
    crate::db::write_transaction(conn, |conn| {
        if !lock_game(conn, req.game_id)? {
            return Err(MatchError::NotFound);
        }
        let record = load_game(conn, req.game_id)?.ok_or(MatchError::NotFound)?;
        if record.kind != GameKind::Bughouse {
            return Err(MatchError::NotFound);
        }
        let seat = record
            .seat_of(req.user_id)
            .and_then(Seat::bughouse)
            .ok_or(MatchError::NotAPlayer)?;
        if let MatchAction::TeamChat(text) = &req.action {
            // Partners may talk during the match and after it.
            write_team_chat(
                conn,
                now,
                req.game_id,
                seat.team(),
                req.user_id,
                text.trim(),
            )?;
        } else {
            perform(conn, now, &record, seat, req)?;
        }
        load_game(conn, req.game_id)?.ok_or(MatchError::NotFound)
    })
}

/// Checks the board and its ply, then carries out a move, resignation or draw action.
fn perform(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    record: &GameRecord,
    seat: BughouseSeat,
    req: &MatchRequest,
) -> Result<(), MatchError> {
    let asked = req.board.ok_or(MatchError::NoBoard)?;
    if asked != seat.board() {
        return Err(MatchError::NotYourBoard {
            mine: board_letter(seat.board()).to_string(),
            asked: board_letter(asked).to_string(),
        });
    }
    if !record.is_started() {
        return Err(MatchError::GameOver);
    }
    let stored = from_bughouse(seat);
    let board = record
        .board(stored.board)
        .ok_or_else(|| record.corrupt("a match needs two boards"))?;
    let sent = req.ply.ok_or(MatchError::NoPly)?;
    if sent != board.ply {
        return Err(MatchError::Stale {
            board: board_letter(asked).to_string(),
            sent,
            current: board.ply,
        });
    }
    let game = match_game(record)?;
    match &req.action {
        MatchAction::Move(input) => play_move(conn, now, record, &game, seat, req.user_id, input)?,
        MatchAction::Resign => {
            let after = game.resign(seat).map_err(MatchError::Rules)?;
            finish_match(conn, now, record, &outcome_of(&after)?)?;
        }
        MatchAction::OfferDraw
        | MatchAction::AcceptDraw
        | MatchAction::DeclineDraw
        | MatchAction::WithdrawDraw => {
            let action = match &req.action {
                MatchAction::OfferDraw => DrawAction::Offer,
                MatchAction::AcceptDraw => DrawAction::Accept,
                MatchAction::DeclineDraw => DrawAction::Decline,
                _ => DrawAction::Withdraw,
            };
            let step = take_draw_step(conn, now, record, (stored, req.user_id), action)?;
            if step == DrawStep::Agreed {
                let after = game.agree_draw().map_err(MatchError::Rules)?;
                finish_match(conn, now, record, &outcome_of(&after)?)?;
            }
        }
        MatchAction::TeamChat(_) => unreachable!("team chat is written before"),
    }
    Ok(())
}

fn outcome_of(game: &BughouseGame) -> Result<BughouseOutcome, MatchError> {
    game.outcome().ok_or(MatchError::GameOver)
}

/// Plays `input` for `seat` on its board: the rules judge it, then the move row, the board,
/// the mover's bank and the opponent's deadline are written; the match ends when the rules
/// say so.
fn play_move(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    record: &GameRecord,
    game: &BughouseGame,
    seat: BughouseSeat,
    user_id: i64,
    input: &str,
) -> Result<(), MatchError> {
    let stored = from_bughouse(seat);
    let after = game.play_as(seat, input.trim()).map_err(|e| match e {
        BughouseError::NotYourTurn { .. } => {
            MatchError::NotYourTurn(board_letter(seat.board()).to_string())
        }
        other => MatchError::Rules(other),
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
            comment: None,
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

/// Ends the match for all four: the row, the players' ratings in `bughouse`, and the "game
/// over" mails.
pub fn finish_match(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    record: &GameRecord,
    outcome: &BughouseOutcome,
) -> QueryResult<()> {
    crate::game::store::write_result(
        conn,
        now,
        record.game.id,
        outcome.result(),
        outcome.reason.as_str(),
    )?;
    crate::usecases::ratings::record_team_result(conn, now, record.game.id, outcome.winner)?;
    crate::usecases::notify::game_over(conn, now, record.game.id)?;
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

fn write_team_chat(
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

/// Ends an overdue match, with the match locked (the worker's part of
/// [`crate::usecases::clocks::expire_overdue_games`]): the seat to move on the board whose
/// deadline passed first loses on time, or, when that board's first moves were not made, the
/// match is called off. `Some(true)` when called off, `Some(false)` when lost on time, `None`
/// when no board is overdue.
pub fn expire_match(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    record: &GameRecord,
) -> Result<Option<bool>, MatchError> {
    let overdue: Vec<_> = record
        .boards
        .iter()
        .filter(|b| b.deadline_at.is_some_and(|d| d <= now))
        .collect();
    let Some(board) = overdue.iter().min_by_key(|b| b.deadline_at) else {
        return Ok(None);
    };
    if overdue.iter().any(|b| b.ply < 2) {
        crate::game::store::write_abort(conn, now, record.game.id)?;
        return Ok(Some(true));
    }
    if !record.game.auto_flag {
        return Ok(None);
    }
    let seat = Seat {
        board: board.board,
        color: board.turn,
    }
    .bughouse()
    .ok_or_else(|| record.corrupt("a board of a match is a or b"))?;
    let game = match_game(record)?;
    let after = game.flag(seat).map_err(MatchError::Rules)?;
    finish_match(conn, now, record, &outcome_of(&after)?)?;
    Ok(Some(false))
}
