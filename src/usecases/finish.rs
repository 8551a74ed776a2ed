//! Ending a game with a result: the row, the ratings, the opening book and the "game over" mail,
//! in the caller's transaction. Every ending goes through here: a move that ends the game, an action, the
//! worker's flag.

use chrono::NaiveDateTime;
use diesel::QueryResult;
use slowfuse_rules::Outcome;

use crate::db::DbConnection;
use crate::game::store::write_finish;

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
