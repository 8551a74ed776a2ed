//! Conditional moves in storage: each player's hidden lines for a game, entered in advance
//! and played by the server as the opponent's moves come in. Only their author reads them.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use slowfuse_rules::{ConditionalError, ConditionalLimits, ConditionalLines, Reply};

use crate::db::DbConnection;
use crate::game::{CorruptGame, GameRecord, Seat, load_game};
use crate::models::NewGameMessage;
use crate::schema::{conditional_moves, game_messages};
use crate::usecases::submit::{SubmitError, submit_move};

/// Why lines were not set or followed; nothing changed.
#[derive(Debug, thiserror::Error)]
pub enum ConditionalMoveError {
    #[error("{0}")]
    Lines(ConditionalError),
    #[error("type a move in the move box (SAN such as Nf3 or UCI such as g1f3)")]
    NoOwnMove,
    #[error(transparent)]
    Submit(#[from] SubmitError),
    #[error(transparent)]
    Corrupt(#[from] CorruptGame),
    #[error(transparent)]
    Db(#[from] diesel::result::Error),
}

/// The most a chain of automatic replies may run in one go (a safety bound; lines are
/// limited to far fewer moves).
const MAX_CHAIN: usize = 200;

/// Sets `author`'s lines in a game, replacing any. When the author is to move, the move
/// every line starts with is played at once and the rest kept.
#[allow(clippy::too_many_arguments)]
pub fn set_lines(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    record: &GameRecord,
    game: &slowfuse_rules::Game,
    author: Seat,
    user_id: i64,
    text: &str,
    comment: Option<&str>,
) -> Result<(), ConditionalMoveError> {
    let lines = ConditionalLines::parse(game, author.color, text, ConditionalLimits::default())
        .map_err(ConditionalMoveError::Lines)?;
    clear_lines(conn, record.game.id, user_id)?;
    let (lines, base_ply) = if game.turn() == author.color {
        let (first, rest) = lines.own_move().ok_or(ConditionalMoveError::NoOwnMove)?;
        submit_move(
            conn,
            now,
            record,
            game.clone(),
            author,
            user_id,
            &first,
            comment,
        )?;
        (rest, record.game.ply + 1)
    } else {
        (lines, record.game.ply)
    };
    if !lines.is_empty() {
        store_lines(
            conn,
            now,
            record.game.id,
            user_id,
            base_ply,
            &lines.to_storage(),
        )?;
    }
    Ok(())
}

fn store_lines(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    game_id: i64,
    user_id: i64,
    base_ply: i32,
    stored: &str,
) -> QueryResult<()> {
    diesel::insert_into(conditional_moves::table)
        .values((
            conditional_moves::game_id.eq(game_id),
            conditional_moves::user_id.eq(user_id),
            conditional_moves::base_ply.eq(base_ply),
            conditional_moves::lines.eq(stored),
            conditional_moves::created_at.eq(now),
            conditional_moves::updated_at.eq(now),
        ))
        .execute(conn)?;
    Ok(())
}

/// Deletes a player's lines in a game.
pub fn clear_lines(conn: &mut DbConnection, game_id: i64, user_id: i64) -> QueryResult<usize> {
    diesel::delete(
        conditional_moves::table
            .filter(conditional_moves::game_id.eq(game_id))
            .filter(conditional_moves::user_id.eq(user_id)),
    )
    .execute(conn)
}

fn stored_lines(
    conn: &mut DbConnection,
    game_id: i64,
    user_id: i64,
) -> QueryResult<Option<(i32, String)>> {
    conditional_moves::table
        .filter(conditional_moves::game_id.eq(game_id))
        .filter(conditional_moves::user_id.eq(user_id))
        .select((conditional_moves::base_ply, conditional_moves::lines))
        .get_result(conn)
        .optional()
}

/// A player's own lines, in SAN, as of the current position; `None` when they have none.
/// Callers must only ever pass the requesting user's own id.
pub fn my_lines(
    conn: &mut DbConnection,
    record: &GameRecord,
    user_id: i64,
) -> Result<Option<String>, ConditionalMoveError> {
    let Some(author) = record.seat_of(user_id) else {
        return Ok(None);
    };
    let Some((base_ply, stored)) = stored_lines(conn, record.game.id, user_id)? else {
        return Ok(None);
    };
    if base_ply != record.game.ply {
        return Ok(None);
    }
    let game = record.chess_game()?;
    Ok(ConditionalLines::from_storage(&game, author.color, &stored)
        .ok()
        .map(|l| l.to_text()))
}

/// After a move: while the player to move has lines answering the last move, plays their
/// reply, then looks at the other player's lines, and so on. Lines that the game left
/// behind are dropped; a reply that cannot be played drops its lines with a notice to
/// their author. False when the game held no lines, so nothing was written.
pub fn follow_lines(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    game_id: i64,
) -> Result<bool, ConditionalMoveError> {
    for round in 0..MAX_CHAIN {
        // Most games hold no lines: one small query spares reading the whole game.
        let lines_in_game: i64 = conditional_moves::table
            .filter(conditional_moves::game_id.eq(game_id))
            .count()
            .get_result(conn)?;
        if lines_in_game == 0 {
            return Ok(round > 0);
        }
        let Some(record) = load_game(conn, game_id)? else {
            return Ok(true);
        };
        if !record.is_started() || record.game.ply == 0 {
            return Ok(true);
        }
        let author = record.seat_to_move();
        let Some(player) = record.player(author).cloned() else {
            return Ok(true);
        };
        let Some((base_ply, stored)) = stored_lines(conn, game_id, player.user_id)? else {
            return Ok(true);
        };
        clear_lines(conn, game_id, player.user_id)?;
        let last = record
            .moves
            .last()
            .map(|m| m.uci.clone())
            .unwrap_or_default();
        if base_ply != record.game.ply - 1 {
            return Ok(true);
        }
        let lines = ConditionalLines::from_storage_unchecked(&stored);
        let (reply, rest) = match lines.answer(&last) {
            Reply::Play { uci, rest } => (uci, rest),
            Reply::Exhausted | Reply::Deviation => return Ok(true),
        };
        let game = record.chess_game_to_play()?;
        match submit_move(
            conn,
            now,
            &record,
            game,
            author,
            player.user_id,
            &reply,
            None,
        ) {
            Ok(after) => {
                crate::game::rules::remember_replay(game_id, &record.game.initial_fen, after);
            }
            Err(SubmitError::Move(e)) => {
                let body = format!(
                    "Your conditional move {reply} could not be played ({e}); your remaining lines in this game were dropped."
                );
                notify_author(conn, now, &record, player.user_id, &body)?;
                return Ok(true);
            }
            Err(other) => return Err(other.into()),
        }
        if !rest.is_empty() {
            store_lines(
                conn,
                now,
                game_id,
                player.user_id,
                record.game.ply + 1,
                &rest.to_storage(),
            )?;
        }
    }
    Ok(true)
}

fn notify_author(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    record: &GameRecord,
    user_id: i64,
    body: &str,
) -> QueryResult<()> {
    diesel::insert_into(game_messages::table)
        .values(NewGameMessage {
            game_id: record.game.id,
            user_id,
            ply: record.game.ply,
            kind: "notice",
            body,
            created_at: now,
        })
        .execute(conn)?;
    Ok(())
}
