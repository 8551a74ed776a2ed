//! Minesweeper games on the server, once `usecases::new_game` has created them: placing one's
//! bombs during the setup, ending an overdue setup at random, and storing a move of a game
//! whose rules keep secrets (every other action goes through the one action pipeline,
//! `usecases::play::act`). The bombs and counts live in the
//! players' secret rows, read through `game::rules` and written through `game::store` only;
//! what a reader is shown comes from the rules' views (`public_view`, `player_view`,
//! `full_record`), never from the rows.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use slowfuse_rules::minesweeper::{
    BombError, MinesweeperGame, PlayError as RulesPlayError, Square,
};
use slowfuse_rules::{Color, GameKind, PlayedMove};

use crate::db::{DbConnection, lock_game};
use crate::game::clock::deadline;
use crate::game::rules::RulesError;
use crate::game::store::{
    AfterMove, MoveToStore, set_bank, set_deadline, store_move, write_secret_state, write_started,
};
use crate::game::{CorruptGame, GameRecord, GameStatus, RulesGame, Seat, load_game, rules_game};
use crate::random::Random;
use crate::schema::games;
use crate::usecases::finish::finish_game;
use crate::usecases::play_error::PlayError;
use crate::usecases::submit::{bank_after_move, deadlines_after_move};

/// The longest setup a minesweeper challenge may ask for: two weeks.
pub const MAX_SETUP_HOURS: i32 = 14 * 24;
/// The setup of a minesweeper challenge that names none: two days.
pub const DEFAULT_SETUP_HOURS: i32 = 48;

/// Why a minesweeper request was refused; nothing changed.
#[derive(Debug, thiserror::Error)]
pub enum MinesError {
    #[error("game not found")]
    NotFound,
    #[error("you are not playing in this game")]
    NotAPlayer,
    #[error("in this game the bombs are hidden even from their owner")]
    Hidden,
    #[error("the setup is over: bombs can no longer be placed")]
    SetupOver,
    #[error("{0}")]
    Bombs(BombError),
    #[error(transparent)]
    Corrupt(#[from] CorruptGame),
    #[error(transparent)]
    Db(#[from] diesel::result::Error),
}

impl From<RulesError> for MinesError {
    fn from(e: RulesError) -> Self {
        match e {
            RulesError::Corrupt(c) => MinesError::Corrupt(c),
            RulesError::Db(d) => MinesError::Db(d),
        }
    }
}

/// The game as the rules see it, with its secret rows: for deciding, never for showing.
pub fn secret_game(
    conn: &mut DbConnection,
    record: &GameRecord,
) -> Result<MinesweeperGame, MinesError> {
    match rules_game(conn, record)? {
        RulesGame::Minesweeper(game) => Ok(game),
        _ => Err(MinesError::NotFound),
    }
}

/// A seed for the rules' placement generator (also for a new game's bombs placed at random,
/// `usecases::new_game`).
pub(crate) fn seed(random: &dyn Random) -> u64 {
    (u64::from(random.below(u32::MAX)) << 32) | u64::from(random.below(u32::MAX))
}

/// What a player's placement left: their bombs (a1 first) and whether all are placed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placed {
    pub squares: Vec<String>,
    pub complete: bool,
}

/// Replaces `user_id`'s bombs with `squares` during the setup. When both players' bombs are
/// all placed, play starts (White to move, on their clock).
pub fn place_bombs(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    game_id: i64,
    user_id: i64,
    squares: &[String],
) -> Result<Placed, MinesError> {
    let parsed = squares
        .iter()
        .enumerate()
        .map(|(i, text)| {
            Square::from_ascii(text.trim().as_bytes()).map_err(|_| {
                MinesError::Bombs(BombError::Unreadable {
                    position: i + 1,
                    text: text.chars().take(10).collect(),
                })
            })
        })
        .collect::<Result<Vec<Square>, MinesError>>()?;
    crate::db::write_transaction(conn, |conn| {
        let (record, color) = locked_player(conn, game_id, user_id)?;
        if record.status != GameStatus::Setup {
            return Err(MinesError::SetupOver);
        }
        let game = secret_game(conn, &record)?;
        let after = game.place_bombs(color, &parsed).map_err(|e| match e {
            BombError::SetupOver => MinesError::SetupOver,
            other => MinesError::Bombs(other),
        })?;
        write_secret_state(conn, game_id, color, &after.secret_state(color))?;
        if !after.in_setup() {
            start_play(conn, now, &record)?;
        }
        Ok(placed(&after, color))
    })
}

/// Places the rest of `user_id`'s bombs at random (all of them when none is placed).
pub fn place_rest_at_random(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    random: &dyn Random,
    game_id: i64,
    user_id: i64,
) -> Result<Placed, MinesError> {
    crate::db::write_transaction(conn, |conn| {
        let (record, color) = locked_player(conn, game_id, user_id)?;
        if record.status != GameStatus::Setup {
            return Err(MinesError::SetupOver);
        }
        let game = secret_game(conn, &record)?;
        if game.bombs_placed(color) >= game.options().bombs_of(Some(color)) {
            // All placed already (by an earlier request, or another instance): nothing to do.
            return Ok(placed(&game, color));
        }
        // The rules fill every missing bomb, keeping those placed; only this player's are
        // taken over, the other player's stay as they are.
        let filled = game
            .finish_setup(seed(random))
            .map_err(|_| MinesError::SetupOver)?;
        let chosen: Vec<Square> = filled
            .player_view(color)
            .own_bombs
            .unwrap_or_default()
            .iter()
            .map(|b| b.square)
            .collect();
        let after = game
            .place_bombs(color, &chosen)
            .map_err(MinesError::Bombs)?;
        write_secret_state(conn, game_id, color, &after.secret_state(color))?;
        if !after.in_setup() {
            start_play(conn, now, &record)?;
        }
        Ok(placed(&after, color))
    })
}

fn placed(game: &MinesweeperGame, color: Color) -> Placed {
    let bombs = game.player_view(color).own_bombs.unwrap_or_default();
    Placed {
        squares: bombs.iter().map(|b| b.square.to_string()).collect(),
        complete: game.bombs_placed(color) >= game.options().bombs_of(Some(color)),
    }
}

/// The bombs `user_id` may see of their own: 403-worthy for anyone else, and for an owner the
/// options keep them from.
pub fn own_bombs(
    conn: &mut DbConnection,
    game_id: i64,
    user_id: i64,
) -> Result<Vec<String>, MinesError> {
    let record = load_game(conn, game_id)?.ok_or(MinesError::NotFound)?;
    if record.kind != GameKind::Minesweeper {
        return Err(MinesError::NotFound);
    }
    let color = record.seat_of(user_id).ok_or(MinesError::NotAPlayer)?.color;
    let game = secret_game(conn, &record)?;
    let bombs = game
        .player_view(color)
        .own_bombs
        .ok_or(MinesError::Hidden)?;
    Ok(bombs.iter().map(|b| b.square.to_string()).collect())
}

/// The game locked and read, with the colour `user_id` plays in it.
fn locked_player(
    conn: &mut DbConnection,
    game_id: i64,
    user_id: i64,
) -> Result<(GameRecord, Color), MinesError> {
    if !lock_game(conn, game_id)? {
        return Err(MinesError::NotFound);
    }
    let record = load_game(conn, game_id)?.ok_or(MinesError::NotFound)?;
    if record.kind != GameKind::Minesweeper {
        return Err(MinesError::NotFound);
    }
    let color = record.seat_of(user_id).ok_or(MinesError::NotAPlayer)?.color;
    Ok((record, color))
}

/// The setup is over: the game is played from now, White on their clock.
fn start_play(conn: &mut DbConnection, now: NaiveDateTime, record: &GameRecord) -> QueryResult<()> {
    write_started(conn, now, record.game.id)?;
    let white = record.player(Seat::first_board(Color::White));
    let first = deadline(
        crate::game::clock::time_control_of(&record.game),
        now,
        white.and_then(|p| p.time_left_seconds),
        white.map_or(&[][..], |p| p.leave.as_slice()),
    );
    set_deadline(conn, now, record.game.id, 0, first)?;
    crate::usecases::notify::your_turn(conn, now, record.game.id, 0)?;
    Ok(())
}

/// Ends every setup whose deadline has passed: the missing bombs are placed at random and the
/// game starts. Each game in its own transaction with the game locked and read again, so that
/// several workers end each setup once. Returns the games started.
pub fn finish_overdue_setups(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    random: &dyn Random,
) -> Result<Vec<i64>, MinesError> {
    let candidates: Vec<i64> = games::table
        .filter(games::status.eq(GameStatus::Setup.as_str()))
        .filter(games::deadline_at.le(now))
        .order(games::deadline_at.asc())
        .select(games::id)
        .limit(500)
        .load(conn)?;
    let mut started = Vec::new();
    for id in candidates {
        let done = crate::db::write_transaction::<_, MinesError>(conn, |conn| {
            if !lock_game(conn, id)? {
                return Ok(false);
            }
            let Some(record) = load_game(conn, id)? else {
                return Ok(false);
            };
            finish_overdue_setup(conn, now, random, &record)
        })?;
        if done {
            started.push(id);
        }
    }
    Ok(started)
}

/// A game whose setup deadline passed gets its missing bombs at random and starts. True when
/// it did.
fn finish_overdue_setup(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    random: &dyn Random,
    record: &GameRecord,
) -> Result<bool, MinesError> {
    if record.status != GameStatus::Setup || record.game.deadline_at.is_none_or(|d| d > now) {
        return Ok(false);
    }
    let game = secret_game(conn, record)?;
    let after = game
        .finish_setup(seed(random))
        .map_err(|_| MinesError::SetupOver)?;
    for color in [Color::White, Color::Black] {
        write_secret_state(conn, record.game.id, color, &after.secret_state(color))?;
    }
    start_play(conn, now, record)?;
    Ok(true)
}

/// Plays `input` for `me`: the move row with its public SAN, the board's public FEN, the
/// mover's secret row (the count they were told), bank and deadlines; the end when the rules
/// say so.
pub(crate) fn store_mines_move(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    record: &GameRecord,
    game: &MinesweeperGame,
    me: Seat,
    (user_id, input, message): (i64, &str, Option<&str>),
) -> Result<(), PlayError> {
    let (after, events) = game.play(me.color, input.trim()).map_err(|e| match e {
        RulesPlayError::InSetup => PlayError::InSetup,
        RulesPlayError::NotYourTurn => PlayError::NotYourTurn(None),
        RulesPlayError::Move(m) => PlayError::Move(m),
    })?;
    let public = after.public_view();
    let last = public.moves.last().expect("a move was played");
    let played = PlayedMove {
        uci: last.uci.clone(),
        san: last.san.clone(),
    };
    let fen = after.fen();
    let (opponent_deadline, game_deadline) = deadlines_after_move(record, me, now);
    let board = record.first_board();
    set_bank(conn, record.game.id, me, bank_after_move(record, me, now))?;
    store_move(
        conn,
        now,
        &MoveToStore {
            game_id: record.game.id,
            seat: me,
            user_id,
            ply: board.ply,
            played: &played,
            fen_after: &fen,
            comment: message,
        },
        &AfterMove {
            fen: &fen,
            board_ply: board.ply + 1,
            game_ply: record.game.ply + 1,
            turn: after.turn(),
            deadline: opponent_deadline,
            game_deadline,
            draw_offer: board.draw_offer.filter(|c| *c == me.color).map(|_| me),
        },
    )?;
    write_secret_state(
        conn,
        record.game.id,
        me.color,
        &after.secret_state(me.color),
    )?;
    match events.outcome.or(after.outcome()) {
        Some(outcome) => finish_game(conn, now, record.game.id, &outcome)?,
        None => crate::usecases::notify::your_turn(conn, now, record.game.id, 0)?,
    }
    Ok(())
}
