//! Acting in a game: move, resign, offer / accept / decline / claim a draw. Each action is
//! one transaction that locks the game, checks the page's ply, and stores the change.

use std::sync::Arc;

use chrono::NaiveDateTime;
use slowfuse_rules::{ClaimError, GameKind, MoveError};

use crate::db::{DbConnection, lock_game};
use crate::game::clock::time_control_of;
use crate::game::rules::remember_replay;
use crate::game::store::{set_bank, set_deadline};
use crate::game::{
    CorruptGame, GameRecord, RecordCache, Seat, load_game, load_game_cached, read_game_cached,
};
use crate::usecases::conditional::{ConditionalMoveError, follow_lines, set_lines};
use crate::usecases::draw_offers::{DrawAction, DrawError, DrawStep, offer_draw, take_draw_step};
use crate::usecases::finish::finish_game;
use crate::usecases::messages::{self, GameEvent, Kind};
use crate::usecases::minesweeper::{self, MinesAction, MinesError};
use crate::usecases::submit::{
    PreparedMove, SubmitError, claim_and_store, prepare_move, store_in_one_statement, submit_move,
};
use crate::usecases::takeback::{TakebackError, take_back};

/// What a player does, apart from the message that may go with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    Move(String),
    /// A move and, unless it ended the game, a draw offer with it.
    MoveAndOfferDraw(String),
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
}

impl Action {
    /// Reads an action name from a form or the API; `Move` takes the move text.
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
            _ => return None,
        })
    }
}

/// One request to act: who, where, at which ply (as the page showed it), what, and a message.
#[derive(Clone, Debug)]
pub struct ActionRequest {
    pub game_id: i64,
    pub user_id: i64,
    pub ply: i32,
    pub action: Action,
    pub message: Option<String>,
}

/// Why an action was refused; the game is unchanged.
#[derive(Debug, thiserror::Error)]
pub enum PlayError {
    #[error("game not found")]
    NotFound,
    #[error("you are not playing in this game")]
    NotAPlayer,
    #[error("it is not your turn")]
    NotYourTurn,
    #[error("the game is over")]
    GameOver,
    #[error(
        "the game has moved on since your page was drawn (you acted at ply {sent}, it is now ply {current}): look at the new position and try again"
    )]
    Stale { sent: i32, current: i32 },
    #[error("{0}")]
    Move(MoveError),
    #[error("{0}")]
    Claim(ClaimError),
    #[error("{0}")]
    Conditional(slowfuse_rules::ConditionalError),
    #[error("your time ran out: the game is being ended")]
    TimeUp,
    #[error("your opponent still has time")]
    NotOverdue,
    #[error("give between 1 and {MAX_GIFT_DAYS} days, in a game with a clock")]
    BadGift,
    #[error(transparent)]
    Draw(#[from] DrawError),
    #[error("your opponent has offered a draw: accept or decline it rather than offer one")]
    TheirOfferStands,
    #[error(transparent)]
    Message(#[from] crate::usecases::messages::MessageError),
    #[error("the message is too long: at most {0} characters")]
    MessageTooLong(usize),
    #[error("type a move in the move box (SAN such as Nf3 or UCI such as g1f3)")]
    EmptyMove,
    #[error("that is too long to be a move: write SAN such as Nf3 or UCI such as g1f3")]
    MoveTooLong,
    #[error(
        "this is a bughouse match: say which board you play on (\"board\": \"a\" or \"b\") and send that board's ply"
    )]
    IsMatch,
    #[error(transparent)]
    Minesweeper(#[from] MinesError),
    #[error(transparent)]
    Takeback(#[from] TakebackError),
    #[error(transparent)]
    Corrupt(#[from] CorruptGame),
    #[error(transparent)]
    Db(#[from] diesel::result::Error),
}

impl From<SubmitError> for PlayError {
    fn from(e: SubmitError) -> Self {
        match e {
            SubmitError::NotYourTurn => PlayError::NotYourTurn,
            SubmitError::Move(e) => PlayError::Move(e),
            SubmitError::Corrupt(e) => PlayError::Corrupt(e),
            SubmitError::Db(e) => PlayError::Db(e),
        }
    }
}

impl From<ConditionalMoveError> for PlayError {
    fn from(e: ConditionalMoveError) -> Self {
        match e {
            ConditionalMoveError::Lines(e) => PlayError::Conditional(e),
            ConditionalMoveError::NoOwnMove => PlayError::EmptyMove,
            ConditionalMoveError::Submit(e) => e.into(),
            ConditionalMoveError::Corrupt(e) => PlayError::Corrupt(e),
            ConditionalMoveError::Db(e) => PlayError::Db(e),
        }
    }
}

/// The most days one gift of time may add.
pub const MAX_GIFT_DAYS: i64 = 30;

/// The longest text read as a move (`exf8=Q+!?` and the like fit easily).
const MAX_MOVE_CHARS: usize = 16;

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
    if let Action::Move(m) | Action::MoveAndOfferDraw(m) = &req.action {
        if m.trim().is_empty() {
            return Err(PlayError::EmptyMove);
        }
        if m.trim().chars().count() > MAX_MOVE_CHARS {
            return Err(PlayError::MoveTooLong);
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

/// Who acts (their seat) in the game as read, and whether the player to move is overdue;
/// refused when they do not play, the game is over, the page was stale or time is up.
fn check_turn(
    record: &GameRecord,
    req: &ActionRequest,
    now: NaiveDateTime,
) -> Result<(Seat, bool), PlayError> {
    if record.kind == GameKind::Bughouse {
        return Err(PlayError::IsMatch);
    }
    let me = record.seat_of(req.user_id).ok_or(PlayError::NotAPlayer)?;
    if record.status == crate::game::GameStatus::Setup {
        return Err(PlayError::Minesweeper(MinesError::InSetup));
    }
    if !record.is_started() {
        return Err(PlayError::GameOver);
    }
    if req.ply != record.game.ply {
        return Err(PlayError::Stale {
            sent: req.ply,
            current: record.game.ply,
        });
    }
    let overdue = record.first_board().deadline_at.is_some_and(|d| d <= now);
    if overdue && (record.game.auto_flag || record.game.ply < 2) {
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
    if record.kind == GameKind::Minesweeper {
        let action = minesweeper_action(&req.action)?;
        return Ok(minesweeper::perform(
            conn,
            now,
            &record,
            req.user_id,
            req.ply,
            &action,
        )?);
    }
    let (me, overdue) = check_turn(&record, req, now)?;
    let game = record.chess_game()?;
    perform(conn, now, &record, &game, me, req, message, overdue)
}

/// The minesweeper action of a request; what minesweeper does not offer is refused.
fn minesweeper_action(action: &Action) -> Result<MinesAction, PlayError> {
    let not_offered = |what| PlayError::Minesweeper(MinesError::NotOffered(what));
    Ok(match action {
        Action::Move(m) => MinesAction::Move(m.clone()),
        Action::MoveAndOfferDraw(_) => return Err(not_offered("a move with a draw offer")),
        Action::Resign => MinesAction::Resign,
        Action::OfferDraw => MinesAction::OfferDraw,
        Action::AcceptDraw => MinesAction::AcceptDraw,
        Action::DeclineDraw => MinesAction::DeclineDraw,
        Action::WithdrawDraw => MinesAction::WithdrawDraw,
        Action::ClaimDraw => MinesAction::ClaimDraw,
        Action::ClaimTimeout => MinesAction::ClaimTimeout,
        Action::ConditionalMove(_) => return Err(not_offered("conditional moves")),
        Action::GiveTime(_) => return Err(not_offered("giving time")),
        Action::Takeback => return Err(not_offered("taking moves back")),
        Action::Comment => return Err(not_offered("this")),
    })
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
        .filter(|kept| kept.kind != GameKind::Minesweeper)
        .and_then(|kept| judge_move(kept, now, req, input).ok());
    let (record, prepared) = match judged {
        Some(judged) => judged,
        None => {
            // One snapshot: the row, the boards and the moves as of one moment.
            let record =
                read_game_cached(conn, records, req.game_id)?.ok_or(PlayError::NotFound)?;
            if record.kind == GameKind::Minesweeper {
                // Its rules read the secret rows: judged and stored with the game locked.
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
/// game after it, for a player who confirms moves before they are sent.
pub fn preview_move(
    conn: &mut DbConnection,
    records: &RecordCache,
    now: NaiveDateTime,
    max_message_chars: usize,
    req: &ActionRequest,
) -> Result<(GameRecord, slowfuse_rules::Game), PlayError> {
    let (Action::Move(input) | Action::MoveAndOfferDraw(input)) = &req.action else {
        return Err(PlayError::EmptyMove);
    };
    if input.trim().is_empty() {
        return Err(PlayError::EmptyMove);
    }
    if input.trim().chars().count() > MAX_MOVE_CHARS {
        return Err(PlayError::MoveTooLong);
    }
    let message = req.message.as_deref().map(str::trim).unwrap_or_default();
    if message.chars().count() > max_message_chars {
        return Err(PlayError::MessageTooLong(max_message_chars));
    }
    let record = read_game_cached(conn, records, req.game_id)?.ok_or(PlayError::NotFound)?;
    let (me, _) = check_turn(&record, req, now)?;
    if record.kind == GameKind::Minesweeper {
        return Err(PlayError::Minesweeper(MinesError::NotOffered(
            "showing a move before it is sent",
        )));
    }
    let game = Arc::unwrap_or_clone(record.chess_game()?);
    let prepared = prepare_move(now, &record, game, me, input)?;
    Ok((record, prepared.after))
}

/// Carries out a checked action of `me` on the locked game.
#[allow(clippy::too_many_arguments)]
fn perform(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    record: &GameRecord,
    game: &slowfuse_rules::Game,
    me: Seat,
    req: &ActionRequest,
    message: Option<&str>,
    overdue: bool,
) -> Result<(), PlayError> {
    let theirs = Some(!me.color);
    let offer = record.board(me.board).and_then(|b| b.draw_offer);
    let user = req.user_id;
    match &req.action {
        Action::Move(input) => {
            submit_move(conn, now, record, game.clone(), me, user, input, message)?;
            follow_lines(conn, now, record.game.id)?;
        }
        Action::MoveAndOfferDraw(_) if offer == theirs => {
            // Their offer stands: the answer to it is to accept or decline, not a new offer.
            return Err(PlayError::TheirOfferStands);
        }
        Action::MoveAndOfferDraw(input) => {
            let after = submit_move(conn, now, record, game.clone(), me, user, input, message)?;
            if !after.is_over() {
                offer_draw(conn, now, record, (me, user), record.game.ply + 1)?;
            }
            follow_lines(conn, now, record.game.id)?;
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
            set_lines(conn, now, record, game, me, user, text, message)?;
            follow_lines(conn, now, record.game.id)?;
        }
        Action::Resign => {
            let ended = game.resign(me.color).map_err(|_| PlayError::GameOver)?;
            add_message(conn, now, record, user, message)?;
            end_with(conn, now, record, &ended)?;
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
                let ended = game.agree_draw().map_err(|_| PlayError::GameOver)?;
                end_with(conn, now, record, &ended)?;
            }
        }
        Action::Comment => unreachable!("comments are handled before the game checks"),
        Action::ClaimTimeout => {
            if record.turn() == me.color || !overdue {
                return Err(PlayError::NotOverdue);
            }
            let ended = game.flag(record.turn()).map_err(|_| PlayError::GameOver)?;
            add_message(conn, now, record, user, message)?;
            end_with(conn, now, record, &ended)?;
        }
        Action::ClaimDraw => {
            if record.turn() != me.color {
                return Err(PlayError::NotYourTurn);
            }
            let ended = game.claim_draw().map_err(PlayError::Claim)?;
            add_message(conn, now, record, user, message)?;
            end_with(conn, now, record, &ended)?;
        }
    }
    Ok(())
}

/// Finishes the game as the rules ended it.
fn end_with(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    record: &GameRecord,
    ended: &slowfuse_rules::Game,
) -> Result<(), PlayError> {
    if let Some(outcome) = ended.outcome() {
        finish_game(conn, now, record.game.id, &outcome)?;
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
