//! Ending a game with a result: the row, the ratings, the opening book and the "game over" mail,
//! in the caller's transaction. Every ending goes through here: a move that ends the game, an
//! action, the worker's flag; [`end_game`] takes the game as the rules ended it, of any kind.

use chrono::NaiveDateTime;
use diesel::QueryResult;
use slowfuse_rules::bughouse::BughouseOutcome;
use slowfuse_rules::{GameRules, Outcome};

use crate::db::DbConnection;
use crate::game::store::write_finish;
use crate::game::{GameRecord, RulesGame};

/// Ends the game as the rules ended it (nothing when they did not): a two-player or
/// minesweeper game by its outcome, a bughouse match for all four.
pub fn end_game(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    record: &GameRecord,
    ended: &RulesGame,
) -> QueryResult<()> {
    match ended {
        RulesGame::Chess(game) => match GameRules::outcome(game) {
            Some(outcome) => finish_game(conn, now, record.game.id, &outcome),
            None => Ok(()),
        },
        RulesGame::Minesweeper(game) => match GameRules::outcome(game) {
            Some(outcome) => finish_game(conn, now, record.game.id, &outcome),
            None => Ok(()),
        },
        RulesGame::Bughouse(game) => match GameRules::outcome(game) {
            Some(outcome) => finish_match(conn, now, record, &outcome),
            None => Ok(()),
        },
    }
}

/// Ends the game: writes the result, rates it, adds it to the opening book, and records the
/// "game over" event.
pub fn finish_game(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    game_id: i64,
    outcome: &Outcome,
) -> QueryResult<()> {
    write_finish(conn, now, game_id, outcome)?;
    crate::usecases::ratings::record_result(conn, now, game_id, outcome)?;
    crate::usecases::book::index_finished_game(conn, game_id)?;
    crate::usecases::notify::game_over(conn, now, game_id)?;
    Ok(())
}

/// Ends a bughouse match for all four: the row (the result from team A's side), the players'
/// ratings in `bughouse`, and the "game over" mails.
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
