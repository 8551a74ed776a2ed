//! Acting in a game: move, resign, offer / accept / decline / claim a draw. Each action is
//! one transaction that locks the game, checks the page's ply, and stores the change.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use slowfuse_rules::{ClaimError, Color, MoveError, Outcome};

use crate::db::{DbConnection, lock_game};
use crate::models::{NewGameMessage, NewMove};
use crate::schema::{game_messages, game_players, games, moves};
use crate::usecases::clocks::{deadline, time_control_of};
use crate::usecases::conditional::{follow_lines, set_lines};
use crate::usecases::games::{CorruptGame, GameRecord, color_name, load_game};
use crate::usecases::leave::{epoch, leave_periods};
use crate::usecases::messages;
use slowfuse_rules::leave_within;

/// What a player does, apart from the message that may go with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    Move(String),
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
}

impl Action {
    /// Reads an action name from a form or the API; `Move` takes the move text.
    pub fn parse(name: &str, move_text: Option<&str>) -> Option<Action> {
        Some(match name {
            "move" => Action::Move(move_text.unwrap_or("").to_string()),
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
    #[error("there is no draw offer from your opponent to answer")]
    NoDrawOffer,
    #[error("you have already offered a draw")]
    DrawAlreadyOffered,
    #[error("you have no standing draw offer to withdraw")]
    NoOwnDrawOffer,
    #[error(transparent)]
    Message(#[from] crate::usecases::messages::MessageError),
    #[error("the message is too long: at most {0} characters")]
    MessageTooLong(usize),
    #[error("type a move in the move box (SAN such as Nf3 or UCI such as g1f3)")]
    EmptyMove,
    #[error("that is too long to be a move: write SAN such as Nf3 or UCI such as g1f3")]
    MoveTooLong,
    #[error(transparent)]
    Corrupt(#[from] CorruptGame),
    #[error(transparent)]
    Db(#[from] diesel::result::Error),
}

/// The most days one gift of time may add.
pub const MAX_GIFT_DAYS: i64 = 30;

/// The longest text read as a move (`exf8=Q+!?` and the like fit easily).
const MAX_MOVE_CHARS: usize = 16;

/// Performs one action and returns the game as stored afterwards.
pub fn act(
    conn: &mut DbConnection,
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
    if let Action::Move(m) = &req.action {
        if m.trim().is_empty() {
            return Err(PlayError::EmptyMove);
        }
        if m.trim().chars().count() > MAX_MOVE_CHARS {
            return Err(PlayError::MoveTooLong);
        }
    }
    crate::db::write_transaction(conn, |conn| {
        if !lock_game(conn, req.game_id)? {
            return Err(PlayError::NotFound);
        }
        let record = load_game(conn, req.game_id)?.ok_or(PlayError::NotFound)?;
        let me = record.color_of(req.user_id).ok_or(PlayError::NotAPlayer)?;
        if !record.is_started() {
            return Err(PlayError::GameOver);
        }
        if req.ply != record.game.ply {
            return Err(PlayError::Stale {
                sent: req.ply,
                current: record.game.ply,
            });
        }
        let overdue = record.game.deadline_at.is_some_and(|d| d <= now);
        if overdue && (record.game.auto_flag || record.game.ply < 2) {
            // The worker ends it; nothing may happen in a game whose time is up.
            return Err(PlayError::TimeUp);
        }
        let game = record.rules_game()?;
        match &req.action {
            Action::Move(input) => {
                submit_move(conn, now, &record, game, me, req.user_id, input, message)?;
                follow_lines(conn, now, record.game.id)?;
            }
            Action::GiveTime(days) => {
                give_time(conn, now, &record, !me, days)?;
                add_message(conn, now, &record, req.user_id, message)?;
            }
            Action::ConditionalMove(text) => {
                set_lines(conn, now, &record, game, me, req.user_id, text, message)?;
                follow_lines(conn, now, record.game.id)?;
            }
            Action::Resign => {
                let ended = game.resign(me).map_err(|_| PlayError::GameOver)?;
                add_message(conn, now, &record, req.user_id, message)?;
                write_finish(conn, now, record.game.id, ended.outcome())?;
            }
            Action::OfferDraw => {
                if record.game.draw_offer.as_deref() == Some(color_name(me)) {
                    return Err(PlayError::DrawAlreadyOffered);
                }
                if record.game.draw_offer.as_deref() == Some(color_name(!me)) {
                    // Offering while the opponent's offer stands is agreeing.
                    agree_draw(conn, now, &record, &game)?;
                } else {
                    set_draw_offer(conn, now, record.game.id, Some(color_name(me)))?;
                    crate::usecases::notify::draw_offered(conn, now, &record, me)?;
                }
                add_message(conn, now, &record, req.user_id, message)?;
            }
            Action::AcceptDraw => {
                if record.game.draw_offer.as_deref() != Some(color_name(!me)) {
                    return Err(PlayError::NoDrawOffer);
                }
                add_message(conn, now, &record, req.user_id, message)?;
                agree_draw(conn, now, &record, &game)?;
            }
            Action::DeclineDraw => {
                if record.game.draw_offer.as_deref() != Some(color_name(!me)) {
                    return Err(PlayError::NoDrawOffer);
                }
                add_message(conn, now, &record, req.user_id, message)?;
                set_draw_offer(conn, now, record.game.id, None)?;
                crate::usecases::notify::draw_declined(conn, now, &record, me)?;
            }
            Action::WithdrawDraw => {
                if record.game.draw_offer.as_deref() != Some(color_name(me)) {
                    return Err(PlayError::NoOwnDrawOffer);
                }
                add_message(conn, now, &record, req.user_id, message)?;
                set_draw_offer(conn, now, record.game.id, None)?;
            }
            Action::Comment => unreachable!("comments are handled before the game checks"),
            Action::ClaimTimeout => {
                if record.turn() == me || !overdue {
                    return Err(PlayError::NotOverdue);
                }
                let ended = game.flag(record.turn()).map_err(|_| PlayError::GameOver)?;
                add_message(conn, now, &record, req.user_id, message)?;
                write_finish(conn, now, record.game.id, ended.outcome())?;
            }
            Action::ClaimDraw => {
                if record.turn() != me {
                    return Err(PlayError::NotYourTurn);
                }
                let ended = game.claim_draw().map_err(PlayError::Claim)?;
                add_message(conn, now, &record, req.user_id, message)?;
                write_finish(conn, now, record.game.id, ended.outcome())?;
            }
        }
        load_game(conn, req.game_id)?.ok_or(PlayError::NotFound)
    })
}

/// Plays a move: stores it with its comment, advances the game, ends it when the rules say.
#[allow(clippy::too_many_arguments)]
pub(crate) fn submit_move(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    record: &GameRecord,
    game: slowfuse_rules::Game,
    me: Color,
    user_id: i64,
    input: &str,
    comment: Option<&str>,
) -> Result<(), PlayError> {
    if record.turn() != me {
        return Err(PlayError::NotYourTurn);
    }
    let after = game.play(input.trim()).map_err(PlayError::Move)?;
    let played = after
        .moves()
        .last()
        .expect("a move was just played")
        .clone();
    let fen = after.fen();
    diesel::insert_into(moves::table)
        .values(NewMove {
            game_id: record.game.id,
            board: 0,
            ply: record.game.ply,
            uci: &played.uci,
            san: &played.san,
            fen_after: &fen,
            player_id: Some(user_id),
            comment,
            played_at: now,
        })
        .execute(conn)?;
    let new_ply = record.game.ply + 1;
    // The mover's bank: it runs only once both sides have made their first move.
    let tc = time_control_of(&record.game);
    let bank = record.player(me).and_then(|p| p.time_left_seconds);
    let new_bank = match bank {
        Some(b) if record.game.ply >= 2 => {
            // Time on leave is not spent.
            let turn_start = record.game.last_move_at.unwrap_or(record.game.created_at);
            let on_leave = leave_within(
                epoch(turn_start),
                epoch(now),
                &leave_periods(conn, user_id)?,
            );
            Some(tc.bank_after_move(b, (now - turn_start).num_seconds() - on_leave))
        }
        other => other,
    };
    diesel::update(
        game_players::table
            .filter(game_players::game_id.eq(record.game.id))
            .filter(game_players::color.eq(color_name(me))),
    )
    .set(game_players::time_left_seconds.eq(new_bank))
    .execute(conn)?;
    let opponent_bank = record.player(!me).and_then(|p| p.time_left_seconds);
    let opponent_leave = match record.player(!me) {
        Some(p) => leave_periods(conn, p.user_id)?,
        None => Vec::new(),
    };
    let deadline = deadline(tc, now, opponent_bank, &opponent_leave);
    // A standing offer from the opponent lapses when I move; my own offer stands.
    let draw_offer = record
        .game
        .draw_offer
        .clone()
        .filter(|c| c.as_str() == color_name(me));
    diesel::update(games::table.find(record.game.id))
        .set((
            games::fen.eq(&fen),
            games::ply.eq(new_ply),
            games::turn.eq(color_name(after.turn())),
            games::last_move_at.eq(Some(now)),
            games::updated_at.eq(now),
            games::deadline_at.eq(deadline),
            games::draw_offer.eq(draw_offer),
        ))
        .execute(conn)?;
    if let Some(outcome) = after.outcome() {
        write_finish(conn, now, record.game.id, Some(outcome))?;
    }
    crate::usecases::notify::your_turn(conn, now, record.game.id)?;
    Ok(())
}

/// Adds days to `receiver`'s bank, and to their deadline when they are to move.
fn give_time(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    record: &GameRecord,
    receiver: Color,
    days: &str,
) -> Result<(), PlayError> {
    let days: i64 = days.trim().parse().map_err(|_| PlayError::BadGift)?;
    if !(1..=MAX_GIFT_DAYS).contains(&days) || !time_control_of(&record.game).is_timed() {
        return Err(PlayError::BadGift);
    }
    let extra = days * slowfuse_rules::DAY_SECONDS;
    let bank = record.player(receiver).and_then(|p| p.time_left_seconds);
    diesel::update(
        game_players::table
            .filter(game_players::game_id.eq(record.game.id))
            .filter(game_players::color.eq(color_name(receiver))),
    )
    .set(game_players::time_left_seconds.eq(bank.map(|b| b + extra)))
    .execute(conn)?;
    if record.turn() == receiver {
        let later = record
            .game
            .deadline_at
            .map(|d| d + chrono::Duration::seconds(extra));
        diesel::update(games::table.find(record.game.id))
            .set((games::deadline_at.eq(later), games::updated_at.eq(now)))
            .execute(conn)?;
    }
    Ok(())
}

fn agree_draw(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    record: &GameRecord,
    game: &slowfuse_rules::Game,
) -> Result<(), PlayError> {
    let ended = game.agree_draw().map_err(|_| PlayError::GameOver)?;
    write_finish(conn, now, record.game.id, ended.outcome())
}

fn set_draw_offer(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    game_id: i64,
    offer: Option<&str>,
) -> Result<(), PlayError> {
    diesel::update(games::table.find(game_id))
        .set((games::draw_offer.eq(offer), games::updated_at.eq(now)))
        .execute(conn)?;
    Ok(())
}

fn add_message(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    record: &GameRecord,
    user_id: i64,
    body: Option<&str>,
) -> Result<(), PlayError> {
    if let Some(body) = body {
        diesel::insert_into(game_messages::table)
            .values(NewGameMessage {
                game_id: record.game.id,
                user_id,
                ply: record.game.ply,
                kind: "comment",
                body,
                created_at: now,
            })
            .execute(conn)?;
    }
    Ok(())
}

/// Writes the end of a game: result, termination, no deadline, no offer.
pub fn write_finish(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    game_id: i64,
    outcome: Option<Outcome>,
) -> Result<(), PlayError> {
    let Some(outcome) = outcome else {
        return Ok(());
    };
    diesel::update(games::table.find(game_id))
        .set((
            games::status.eq("finished"),
            games::result.eq(outcome.result()),
            games::termination.eq(Some(outcome.reason.as_str())),
            games::finished_at.eq(Some(now)),
            games::deadline_at.eq(None::<NaiveDateTime>),
            games::draw_offer.eq(None::<String>),
            games::updated_at.eq(now),
        ))
        .execute(conn)?;
    crate::usecases::ratings::record_result(conn, now, game_id, &outcome)?;
    crate::usecases::notify::game_over(conn, now, game_id)?;
    Ok(())
}
