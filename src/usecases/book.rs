//! The opening book: for every finished game of a two-player variant, the move played from each
//! position it reached within its first [`BOOK_PLIES`] plies, with the game's result; a game
//! that came back to a position counts there once, with the move it played the first time, so
//! a position's games are games, not visits (the search by position counts the same). Written by
//! [`index_finished_game`] in the transaction that ends a game (so a running game is never in
//! it), read by [`book_position`] for a position of a variant: the moves played from it, how
//! often, and how those games ended.

use diesel::dsl::count_star;
use diesel::prelude::*;

use crate::db::DbConnection;
use crate::game::{GameStatus, load_game};
use crate::openings::position_key;
use crate::schema::{book_moves, games};

/// How deep into each game the book reaches: the first 30 moves of each side.
pub const BOOK_PLIES: u32 = 60;

/// One move of the book from a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookMove {
    pub uci: String,
    pub san: String,
    /// Finished games in which it was played here, and how they ended.
    pub games: i64,
    pub white: i64,
    pub draws: i64,
    pub black: i64,
}

/// What the book knows of one position: the games that passed through it and the moves played,
/// the most played first.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BookPosition {
    pub games: i64,
    pub moves: Vec<BookMove>,
}

/// Writes the book rows of game `game_id` if it is finished; the number of rows written. A game
/// the rules cannot replay is left out (and logged): the book never stops a game from ending.
pub fn index_finished_game(conn: &mut DbConnection, game_id: i64) -> QueryResult<usize> {
    let Some(record) = load_game(conn, game_id)? else {
        return Ok(0);
    };
    if record.game.status != GameStatus::Finished.as_str() {
        return Ok(0);
    }
    let game = match record.chess_game() {
        Ok(game) => game,
        Err(e) => {
            // Bughouse and minesweeper have their own records; a damaged game is logged.
            log::debug!("game {game_id} not in the opening book: {e}");
            return Ok(0);
        }
    };
    index_game(
        conn,
        game_id,
        &record.game.variant,
        &record.game.result,
        &game,
    )
}

/// Writes the book rows of a finished game already replayed by the rules (`game`, of stored
/// variant `variant`, ended with `result`); the number of rows written. An imported game is
/// indexed so, in its import's transaction.
pub fn index_game(
    conn: &mut DbConnection,
    game_id: i64,
    variant: &str,
    result: &str,
    game: &slowfuse_rules::Game,
) -> QueryResult<usize> {
    let mut seen = std::collections::HashSet::new();
    let rows: Vec<_> = game
        .moves()
        .iter()
        .take(BOOK_PLIES as usize)
        .enumerate()
        .filter_map(|(ply, played)| {
            let position = position_key(&game.fen_at(u32::try_from(ply).ok()?)?);
            if !seen.insert(position.clone()) {
                return None;
            }
            Some((
                book_moves::variant.eq(variant.to_string()),
                book_moves::position.eq(position),
                book_moves::game_id.eq(game_id),
                book_moves::ply.eq(i32::try_from(ply).ok()?),
                book_moves::uci.eq(played.uci.clone()),
                book_moves::san.eq(played.san.clone()),
                book_moves::result.eq(result.to_string()),
            ))
        })
        .collect();
    if rows.is_empty() {
        return Ok(0);
    }
    diesel::delete(book_moves::table.filter(book_moves::game_id.eq(game_id))).execute(conn)?;
    // All rows in one statement, on each backend's own connection (the connection that serves
    // both has no multi-row insert): an import writes thousands of games.
    crate::on_backend!(conn, |c| diesel::insert_into(book_moves::table)
        .values(&rows)
        .execute(c))
}

/// Indexes the finished games that are not in the book yet (those finished before it existed),
/// each in its own transaction; the number of games indexed.
pub fn index_missing_games(conn: &mut DbConnection) -> QueryResult<usize> {
    let missing: Vec<i64> = games::table
        .filter(games::status.eq(GameStatus::Finished.as_str()))
        .filter(diesel::dsl::not(diesel::dsl::exists(
            book_moves::table.filter(book_moves::game_id.eq(games::id)),
        )))
        .select(games::id)
        .order(games::id.asc())
        .load(conn)?;
    let mut indexed = 0;
    for id in missing {
        let written = crate::db::write_transaction(conn, |conn| index_finished_game(conn, id));
        match written {
            Ok(n) if n > 0 => indexed += 1,
            Ok(_) => {}
            // Another instance indexed it at the same moment.
            Err(diesel::result::Error::DatabaseError(
                diesel::result::DatabaseErrorKind::UniqueViolation,
                _,
            )) => {}
            Err(e) => return Err(e),
        }
    }
    Ok(indexed)
}

/// The book's moves from the position `fen` of `variant`.
pub fn book_position(
    conn: &mut DbConnection,
    variant: &str,
    fen: &str,
) -> QueryResult<BookPosition> {
    let counted: Vec<(String, String, String, i64)> = book_moves::table
        .filter(book_moves::variant.eq(variant))
        .filter(book_moves::position.eq(position_key(fen)))
        .group_by((book_moves::uci, book_moves::san, book_moves::result))
        .select((
            book_moves::uci,
            book_moves::san,
            book_moves::result,
            count_star(),
        ))
        .load(conn)?;
    let mut moves: Vec<BookMove> = Vec::new();
    for (uci, san, result, n) in counted {
        let at = match moves.iter().position(|m| m.uci == uci) {
            Some(at) => at,
            None => {
                moves.push(BookMove {
                    uci,
                    san,
                    games: 0,
                    white: 0,
                    draws: 0,
                    black: 0,
                });
                moves.len() - 1
            }
        };
        let entry = &mut moves[at];
        entry.games += n;
        match result.as_str() {
            "1-0" => entry.white += n,
            "0-1" => entry.black += n,
            _ => entry.draws += n,
        }
    }
    moves.sort_by(|a, b| b.games.cmp(&a.games).then_with(|| a.san.cmp(&b.san)));
    Ok(BookPosition {
        games: moves.iter().map(|m| m.games).sum(),
        moves,
    })
}
