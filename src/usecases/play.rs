//! Acting in a game of any kind, through one pipeline: move, resign, offer / accept / decline /
//! withdraw / claim a draw, claim a timeout, give time, take back, comment, conditional moves
//! and a bughouse team's chat. Each action is one transaction that locks the game, checks the
//! player, their board and the page's ply, and stores the change. What differs between kinds
//! is in two places: which actions a kind offers ([`offered`]) and how a move is judged and
//! stored (one function per kind); the endings go through the rules' one trait
//! ([`slowfuse_rules::GameRules`], by way of [`RulesGame::end`]).

use std::sync::Arc;

use chrono::NaiveDateTime;
use slowfuse_rules::GameKind;
use slowfuse_rules::bughouse::Board;

use crate::db::{DbConnection, lock_game};
use crate::game::clock::time_control_of;
use crate::game::rules::{board_of, remember_replay};
use crate::game::store::{set_bank, set_deadline};
use crate::game::{
    Ending, EndingRefused, GameRecord, GameStatus, RecordCache, RulesGame, Seat, load_game,
    load_game_cached, read_game_cached, rules_game,
};
use crate::usecases::bughouse::{store_match_move, write_team_chat};
use crate::usecases::conditional::{follow_lines, set_lines};
use crate::usecases::draw_offers::{DrawAction, DrawStep, offer_draw, take_draw_step};
use crate::usecases::finish::end_game;
use crate::usecases::messages::{self, GameEvent, Kind};
use crate::usecases::minesweeper::store_mines_move;
pub use crate::usecases::play_error::{MAX_GIFT_DAYS, PlayError};
use crate::usecases::submit::{
    PreparedMove, claim_and_store, prepare_move, store_in_one_statement, submit_move,
};
use crate::usecases::takeback::take_back;

/// What a player does, apart from the message that may go with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// A move (or a drop, where the kind has pockets), in SAN or UCI.
    Move(String),
    /// A move and, unless it ended the game, a draw offer with it.
    MoveAndOfferDraw(String),
    /// Gives up (in bughouse, for the team).
    Resign,
    OfferDraw,
    AcceptDraw,
    DeclineDraw,
    ClaimDraw,
    ClaimTimeout,
    /// Take back one's own standing draw offer.
    WithdrawDraw,
    /// A comment on its own (the message), at any ply, also after the end.
    Comment,
    /// Lines of conditional moves, entered as text.
    ConditionalMove(String),
    /// Add this many days to the opponent's clock (the text as sent; checked when acting).
    GiveTime(String),
    /// Take back one's last move (and the computer's reply): casual games against the
    /// computer only.
    Takeback,
    /// A line to the partner, read by the team only (bughouse), during the match and after.
    TeamChat(String),
}

impl Action {
    /// Reads an action name from a form or the API; `Move` takes the move text, `TeamChat`
    /// the message.
    pub fn parse(name: &str, move_text: Option<&str>) -> Option<Action> {
        Some(match name {
            "move" => Action::Move(move_text.unwrap_or("").to_string()),
            "move_offer_draw" => Action::MoveAndOfferDraw(move_text.unwrap_or("").to_string()),
            "resign" => Action::Resign,
            "offer_draw" => Action::OfferDraw,
            "accept_draw" => Action::AcceptDraw,
            "decline_draw" => Action::DeclineDraw,
            "claim_draw" => Action::ClaimDraw,
            "claim_timeout" => Action::ClaimTimeout,
            "withdraw_draw" => Action::WithdrawDraw,
            "comment" => Action::Comment,
            "conditional_move" => Action::ConditionalMove(move_text.unwrap_or("").to_string()),
            "give_time" => Action::GiveTime(move_text.unwrap_or("").to_string()),
            "takeback" => Action::Takeback,
            "team_chat" => Action::TeamChat(move_text.unwrap_or("").to_string()),
            _ => return None,
        })
    }

    /// The name of the action as forms and the API write it.
    pub fn name(&self) -> &'static str {
        match self {
            Action::Move(_) => "move",
            Action::MoveAndOfferDraw(_) => "move_offer_draw",
            Action::Resign => "resign",
            Action::OfferDraw => "offer_draw",
            Action::AcceptDraw => "accept_draw",
            Action::DeclineDraw => "decline_draw",
            Action::ClaimDraw => "claim_draw",
            Action::ClaimTimeout => "claim_timeout",
            Action::WithdrawDraw => "withdraw_draw",
            Action::Comment => "comment",
            Action::ConditionalMove(_) => "conditional_move",
            Action::GiveTime(_) => "give_time",
            Action::Takeback => "takeback",
            Action::TeamChat(_) => "team_chat",
        }
    }
}

/// One request to act: who, where (the board, in bughouse), at which ply (as the page showed
/// it: the game's, or in bughouse the board's), what, and a message.
#[derive(Clone, Debug)]
pub struct ActionRequest {
    pub game_id: i64,
    pub user_id: i64,
    /// The board the player says they play on: needed in bughouse, refused elsewhere.
    pub board: Option<Board>,
    /// The ply as the player saw it (not needed for comments and team chat).
    pub ply: Option<i32>,
    pub action: Action,
    pub message: Option<String>,
}

impl ActionRequest {
    /// A request on a one-board game at `ply`.
    pub fn at_ply(game_id: i64, user_id: i64, ply: i32, action: Action) -> ActionRequest {
        ActionRequest {
            game_id,
            user_id,
            board: None,
            ply: Some(ply),
            action,
            message: None,
        }
    }
}

/// The longest text read as a move (`exf8=Q+!?` and the like fit easily).
const MAX_MOVE_CHARS: usize = 16;

/// Which actions a kind of game offers: the one place where the kinds differ in what a player
/// may do. Refused with [`PlayError::NotOffered`].
fn offered(kind: GameKind, action: &Action) -> Result<(), PlayError> {
    let missing = match (kind, action) {
        (GameKind::Chess(_), Action::TeamChat(_)) => Some("a team chat"),
        (GameKind::Chess(_), _) | (_, Action::Comment) => None,
        (
            GameKind::Bughouse | GameKind::Minesweeper,
            Action::Move(_)
            | Action::Resign
            | Action::OfferDraw
            | Action::AcceptDraw
            | Action::DeclineDraw
            | Action::WithdrawDraw
            | Action::ClaimTimeout,
        ) => None,
        (GameKind::Bughouse, Action::TeamChat(_)) => None,
        (GameKind::Minesweeper, Action::ClaimDraw) => None,
        (GameKind::Bughouse, Action::ClaimDraw) => Some("claiming a draw"),
        (GameKind::Minesweeper, Action::TeamChat(_)) => Some("a team chat"),
        (_, Action::MoveAndOfferDraw(_)) => Some("a move with a draw offer"),
        (_, Action::ConditionalMove(_)) => Some("conditional moves"),
        (_, Action::GiveTime(_)) => Some("giving time"),
        (_, Action::Takeback) => Some("taking moves back"),
    };
    match missing {
        Some(what) => Err(PlayError::NotOffered { what, kind }),
        None => Ok(()),
    }
}

/// Performs one action and returns the game as stored afterwards.
pub fn act(
    conn: &mut DbConnection,
    records: &RecordCache,
    now: NaiveDateTime,
    max_message_chars: usize,
    req: &ActionRequest,
) -> Result<GameRecord, PlayError> {
    if req.action == Action::Comment {
        // No ply check and no game-over check: a comment may come at any time.
        let text = req.message.as_deref().unwrap_or("");
        let (game, user) = (req.game_id, req.user_id);
        return Ok(messages::comment(
            conn,
            now,
            max_message_chars,
            game,
            user,
            text,
        )?);
    }
    let message = req
        .message
        .as_deref()
        .map(str::trim)
        .filter(|m| !m.is_empty());
    if message.is_some_and(|m| m.chars().count() > max_message_chars) {
        return Err(PlayError::MessageTooLong(max_message_chars));
    }
    if let Action::TeamChat(text) = &req.action {
        if text.trim().is_empty() {
            return Err(PlayError::EmptyMessage);
        }
        if text.trim().chars().count() > max_message_chars {
            return Err(PlayError::MessageTooLong(max_message_chars));
        }
    }
    if let Action::Move(input) = &req.action {
        return move_before_lock(conn, records, now, req, (input, message));
    }
    let answer = crate::db::write_transaction(conn, |conn| {
        act_locked(conn, now, req, message)?;
        load_game_cached(conn, records, req.game_id)?.ok_or(PlayError::NotFound)
    })?;
    records.keep_committed(&answer);
    Ok(answer)
}

/// The move text checked for length, as the kind words it.
fn check_move_text(kind: GameKind, input: &str) -> Result<(), PlayError> {
    if input.trim().is_empty() {
        return Err(PlayError::EmptyMove(kind));
    }
    if input.trim().chars().count() > MAX_MOVE_CHARS {
        return Err(PlayError::MoveTooLong(kind));
    }
    Ok(())
}

/// The seat of the player who acts, on the board they name (bughouse); refused when they do
/// not play here or name another board.
fn acting_seat(record: &GameRecord, req: &ActionRequest) -> Result<Seat, PlayError> {
    let me = record
        .seat_of(req.user_id)
        .ok_or(PlayError::NotAPlayer(record.kind))?;
    match (record.kind, req.board) {
        (GameKind::Bughouse, None) => Err(PlayError::NoBoard),
        (GameKind::Bughouse, Some(asked)) if asked != board_of(me.board) => {
            Err(PlayError::NotYourBoard {
                mine: board_of(me.board),
                asked,
            })
        }
        (GameKind::Bughouse, Some(_)) | (GameKind::Chess(_) | GameKind::Minesweeper, None) => {
            Ok(me)
        }
        (GameKind::Chess(_) | GameKind::Minesweeper, Some(_)) => Err(PlayError::OneBoard),
    }
}

/// Who acts (their seat) in the game as read, and whether the player to move on their board
/// is overdue; refused when the kind does not offer the action, they do not play, the game is
/// in its setup or over, the page was stale or time is up.
fn check_turn(
    record: &GameRecord,
    req: &ActionRequest,
    now: NaiveDateTime,
) -> Result<(Seat, bool), PlayError> {
    offered(record.kind, &req.action)?;
    if let Action::Move(m) | Action::MoveAndOfferDraw(m) = &req.action {
        check_move_text(record.kind, m)?;
    }
    let me = acting_seat(record, req)?;
    match record.status {
        GameStatus::Setup => return Err(PlayError::InSetup),
        GameStatus::Started => {}
        GameStatus::Finished | GameStatus::Aborted => {
            return Err(PlayError::GameOver(record.kind));
        }
    }
    let board = record
        .board(me.board)
        .ok_or_else(|| record.corrupt("a seat's board is missing"))?;
    let (named, current) = match record.kind {
        GameKind::Bughouse => (Some(board_of(me.board)), board.ply),
        GameKind::Chess(_) | GameKind::Minesweeper => (None, record.game.ply),
    };
    let sent = req.ply.ok_or(PlayError::NoPly(named))?;
    if sent != current {
        return Err(PlayError::Stale {
            board: named,
            sent,
            current,
        });
    }
    let overdue = board.deadline_at.is_some_and(|d| d <= now);
    if overdue && (record.game.auto_flag || board.ply < 2) {
        // The worker ends it; nothing may happen in a game whose time is up.
        return Err(PlayError::TimeUp);
    }
    Ok((me, overdue))
}

/// Any action with the game locked first, then read and checked.
fn act_locked(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    req: &ActionRequest,
    message: Option<&str>,
) -> Result<(), PlayError> {
    if !lock_game(conn, req.game_id)? {
        return Err(PlayError::NotFound);
    }
    let record = load_game(conn, req.game_id)?.ok_or(PlayError::NotFound)?;
    if let Action::TeamChat(text) = &req.action {
        // Partners may talk during the match and after it: no ply, no game-over check.
        offered(record.kind, &req.action)?;
        let me = acting_seat(
            &record,
            &ActionRequest {
                board: req
                    .board
                    .or_else(|| record.seat_of(req.user_id).map(|s| board_of(s.board))),
                ..req.clone()
            },
        )?;
        let team = me
            .bughouse()
            .ok_or_else(|| record.corrupt("a bughouse seat"))?
            .team();
        write_team_chat(conn, now, req.game_id, team, req.user_id, text.trim())?;
        return Ok(());
    }
    let (me, overdue) = check_turn(&record, req, now)?;
    let rules = rules_game(conn, &record)?;
    perform(conn, now, &record, &rules, me, req, message, overdue)
}

/// A move judged on the game as read, then stored if the game is still as read: its row
/// claimed by revision (`submit::claim_and_store`), else judged again with the game locked.
/// The game is first the record kept by the cache, unchecked: the claim checks it, and a
/// refusal is judged again on the game as read now, so no move is refused on a record that
/// was behind.
fn move_before_lock(
    conn: &mut DbConnection,
    records: &RecordCache,
    now: NaiveDateTime,
    req: &ActionRequest,
    (input, message): (&str, Option<&str>),
) -> Result<GameRecord, PlayError> {
    let judged = records
        .last_read(req.game_id)
        .filter(|kept| matches!(kept.kind, GameKind::Chess(_)))
        .and_then(|kept| judge_move(kept, now, req, input).ok());
    let (record, prepared) = match judged {
        Some(judged) => judged,
        None => {
            // One snapshot: the row, the boards and the moves as of one moment.
            let record =
                read_game_cached(conn, records, req.game_id)?.ok_or(PlayError::NotFound)?;
            if !matches!(record.kind, GameKind::Chess(_)) {
                // A match's move changes the partner's board, and minesweeper's rules read the
                // secret rows: judged and stored with the game locked.
                let answer = crate::db::write_transaction(conn, |conn| {
                    act_locked(conn, now, req, message)?;
                    load_game_cached(conn, records, req.game_id)?.ok_or(PlayError::NotFound)
                })?;
                records.keep_committed(&answer);
                return Ok(answer);
            }
            judge_move(record, now, req, input)?
        }
    };
    let (game_id, initial_fen) = (record.game.id, record.game.initial_fen.clone());
    // On PostgreSQL a move that ends nothing is one statement, its own transaction; else, or
    // when that statement stored nothing, a transaction (which follows conditional lines).
    if let Some(row) = store_in_one_statement(conn, now, &record, &prepared, req.user_id, message)?
    {
        records.forget(game_id);
        let answer = prepared.record_after(record, now, row);
        remember_replay(game_id, &initial_fen, prepared.after);
        records.keep_committed(&answer);
        return Ok(answer);
    }
    let mut stored = false;
    let answer = crate::db::write_transaction(conn, |conn| {
        let claimed = claim_and_store(conn, now, &record, &prepared, req.user_id, message)?;
        if let Some((claim, row)) = claimed {
            stored = true;
            // The claim told whether the game holds lines: without, none are followed.
            let followed = claim.holds_conditional_lines && follow_lines(conn, now, game_id)?;
            if !followed && !row.ended_game {
                // Nothing but the move was written: the answer is the record and the move.
                // The cache lets go of its copy, so that the moves grow in place.
                records.forget(game_id);
                return Ok(prepared.record_after(record, now, row));
            }
            // Else read below, its moves grown from the copy the cache still keeps.
            drop(record);
        } else {
            drop(record);
            act_locked(conn, now, req, message)?;
        }
        // Read under the lock: the game as this move left it.
        load_game_cached(conn, records, req.game_id)?.ok_or(PlayError::NotFound)
    })?;
    if stored {
        remember_replay(game_id, &initial_fen, prepared.after);
    }
    records.keep_committed(&answer);
    Ok(answer)
}

/// The rules' judgement of a move on `record` (turn, legality, clocks; no database): the
/// record with the move prepared.
fn judge_move(
    record: GameRecord,
    now: NaiveDateTime,
    req: &ActionRequest,
    input: &str,
) -> Result<(GameRecord, PreparedMove), PlayError> {
    let (me, _) = check_turn(&record, req, now)?;
    // The game is taken from the replay cache, the move played on it, and put back once
    // stored: nothing of the game before the move is copied.
    let game = record.chess_game_to_play()?;
    let prepared = prepare_move(now, &record, game, me, input)?;
    Ok((record, prepared))
}

/// Whether `req` could be carried out now (a player of the running game, the page not stale),
/// checked as [`act`] checks it and without changing anything: asked before a resignation is
/// confirmed.
pub fn check_action(
    conn: &mut DbConnection,
    records: &RecordCache,
    now: NaiveDateTime,
    req: &ActionRequest,
) -> Result<(), PlayError> {
    let record = read_game_cached(conn, records, req.game_id)?.ok_or(PlayError::NotFound)?;
    check_turn(&record, req, now)?;
    Ok(())
}

/// A move judged as [`act`] would judge it, and not stored: the record it was judged on and the
/// game after it, for a player who confirms moves before they are sent (two-player games).
pub fn preview_move(
    conn: &mut DbConnection,
    records: &RecordCache,
    now: NaiveDateTime,
    max_message_chars: usize,
    req: &ActionRequest,
) -> Result<(GameRecord, slowfuse_rules::Game), PlayError> {
    let record = read_game_cached(conn, records, req.game_id)?.ok_or(PlayError::NotFound)?;
    let (Action::Move(input) | Action::MoveAndOfferDraw(input)) = &req.action else {
        return Err(PlayError::EmptyMove(record.kind));
    };
    let message = req.message.as_deref().map(str::trim).unwrap_or_default();
    if message.chars().count() > max_message_chars {
        return Err(PlayError::MessageTooLong(max_message_chars));
    }
    let (me, _) = check_turn(&record, req, now)?;
    if !matches!(record.kind, GameKind::Chess(_)) {
        return Err(PlayError::NotOffered {
            what: "showing a move before it is sent",
            kind: record.kind,
        });
    }
    let game = Arc::unwrap_or_clone(record.chess_game()?);
    let prepared = prepare_move(now, &record, game, me, input)?;
    Ok((record, prepared.after))
}

/// Judges and stores a move of `me` on the locked game, as its kind does it: the one place
/// where the kinds' moves differ.
#[allow(clippy::too_many_arguments)]
fn play_move(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    record: &GameRecord,
    rules: &RulesGame,
    me: Seat,
    user: i64,
    input: &str,
    message: Option<&str>,
) -> Result<bool, PlayError> {
    match rules {
        RulesGame::Chess(game) => {
            let after = submit_move(conn, now, record, game.clone(), me, user, input, message)?;
            follow_lines(conn, now, record.game.id)?;
            Ok(after.is_over())
        }
        RulesGame::Bughouse(game) => {
            let seat = me
                .bughouse()
                .ok_or_else(|| record.corrupt("a seat of a match is on board a or b"))?;
            store_match_move(conn, now, record, game, seat, (user, input, message))?;
            Ok(false)
        }
        RulesGame::Minesweeper(game) => {
            store_mines_move(conn, now, record, game, me, (user, input, message))?;
            Ok(false)
        }
    }
}

/// Carries out a checked action of `me` on the locked game, of any kind.
#[allow(clippy::too_many_arguments)]
fn perform(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    record: &GameRecord,
    rules: &RulesGame,
    me: Seat,
    req: &ActionRequest,
    message: Option<&str>,
    overdue: bool,
) -> Result<(), PlayError> {
    let theirs = Some(!me.color);
    let offer = record.board(me.board).and_then(|b| b.draw_offer);
    let user = req.user_id;
    let end = |conn: &mut DbConnection, how: Ending| -> Result<(), PlayError> {
        let ended = rules.end(how).map_err(|e| match e {
            EndingRefused::Claim(c) => PlayError::Claim(c),
            EndingRefused::Over | EndingRefused::NoSuchSeat => PlayError::GameOver(record.kind),
        })?;
        end_game(conn, now, record, &ended)?;
        Ok(())
    };
    match &req.action {
        Action::Move(input) => {
            play_move(conn, now, record, rules, me, user, input, message)?;
        }
        Action::MoveAndOfferDraw(_) if offer == theirs => {
            // Their offer stands: the answer to it is to accept or decline, not a new offer.
            return Err(PlayError::TheirOfferStands);
        }
        Action::MoveAndOfferDraw(input) => {
            let ended = play_move(conn, now, record, rules, me, user, input, message)?;
            if !ended {
                offer_draw(conn, now, record, (me, user), record.game.ply + 1)?;
            }
        }
        Action::GiveTime(days) => {
            let days = give_time(conn, now, record, me.opponent(), days)?;
            let to = record
                .player(me.opponent())
                .map_or_else(|| "the opponent".to_string(), |p| p.username.clone());
            add_event(conn, now, record, user, GameEvent::TimeGiven { days, to })?;
            add_message(conn, now, record, user, message)?;
        }
        Action::Takeback => {
            take_back(conn, now, record, me)?;
        }
        Action::ConditionalMove(text) => {
            let game = rules
                .chess()
                .ok_or_else(|| record.corrupt("conditional moves need one board"))?;
            set_lines(conn, now, record, game, me, user, text, message)?;
            follow_lines(conn, now, record.game.id)?;
        }
        Action::Resign => {
            add_message(conn, now, record, user, message)?;
            end(conn, Ending::Resign(me))?;
        }
        Action::OfferDraw | Action::AcceptDraw | Action::DeclineDraw | Action::WithdrawDraw => {
            let step = match &req.action {
                Action::OfferDraw => DrawAction::Offer,
                Action::AcceptDraw => DrawAction::Accept,
                Action::DeclineDraw => DrawAction::Decline,
                _ => DrawAction::Withdraw,
            };
            let step = take_draw_step(conn, now, record, (me, user), step)?;
            add_message(conn, now, record, user, message)?;
            if step == DrawStep::Agreed {
                end(conn, Ending::Agree)?;
            }
        }
        Action::Comment | Action::TeamChat(_) => {
            unreachable!("comments and team chat are written before the game checks")
        }
        Action::ClaimTimeout => {
            // The player to move on my board is overdue, and it is not me.
            let to_move = Seat {
                board: me.board,
                color: record.board(me.board).map_or(me.color, |b| b.turn),
            };
            if to_move == me || !overdue {
                return Err(PlayError::NotOverdue);
            }
            add_message(conn, now, record, user, message)?;
            end(conn, Ending::Flag(to_move))?;
        }
        Action::ClaimDraw => {
            if !rules.lets_move(me) {
                return Err(PlayError::NotYourTurn(None));
            }
            add_message(conn, now, record, user, message)?;
            end(conn, Ending::Claim)?;
        }
    }
    Ok(())
}

/// Adds days to `receiver`'s bank, and to their deadline when they are to move; returns the
/// days given.
fn give_time(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    record: &GameRecord,
    receiver: Seat,
    days: &str,
) -> Result<i64, PlayError> {
    let days: i64 = days.trim().parse().map_err(|_| PlayError::BadGift)?;
    if !(1..=MAX_GIFT_DAYS).contains(&days) || !time_control_of(&record.game).is_timed() {
        return Err(PlayError::BadGift);
    }
    let extra = days * slowfuse_rules::DAY_SECONDS;
    let bank = record.player(receiver).and_then(|p| p.time_left_seconds);
    set_bank(conn, record.game.id, receiver, bank.map(|b| b + extra))?;
    if record.seat_to_move() == receiver {
        let later = record
            .game
            .deadline_at
            .map(|d| d + chrono::Duration::seconds(extra));
        set_deadline(conn, now, record.game.id, receiver.board, later)?;
    }
    Ok(days)
}

fn add_message(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    record: &GameRecord,
    user_id: i64,
    body: Option<&str>,
) -> Result<(), PlayError> {
    if let Some(body) = body {
        messages::insert_at(
            conn,
            now,
            record.game.id,
            (user_id, record.game.ply),
            Kind::Comment,
            body,
        )?;
    }
    Ok(())
}

/// Keeps what a player did now, at the game's ply, for the move list.
fn add_event(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    record: &GameRecord,
    user_id: i64,
    event: GameEvent,
) -> Result<(), PlayError> {
    messages::record_event(
        conn,
        now,
        record.game.id,
        (user_id, record.game.ply),
        &event,
    )?;
    Ok(())
}
