//! The PGN of many games, written batch by batch: the downloads of a search and of a player's
//! games, and `slowfuse export`. Memory stays that of one batch however many games there are,
//! and a database connection is held only while a batch is read, never while its text waits
//! for a slow reader.

use crate::db::DbPool;
use crate::export::pgn_of_games;
use crate::usecases::search::{Search, matching_count, matching_ids_after};

/// Games in the first batch: small, so that the first bytes leave at once.
const FIRST_BATCH: i64 = 10;
/// Games in every later batch.
const BATCH: i64 = 200;

/// Why a bulk export stopped before its end.
#[derive(Debug, thiserror::Error)]
pub enum BulkError {
    #[error("no database connection: {0}")]
    Pool(#[from] diesel::r2d2::PoolError),
    #[error("the database failed: {0}")]
    Db(#[from] diesel::result::Error),
}

/// How many games an export of `search` will hold (for a progress bar).
pub fn count_search(pool: &DbPool, viewer: Option<i64>, search: &Search) -> Result<u64, BulkError> {
    let count = matching_count(&mut *pool.get()?, viewer, search)?;
    Ok(u64::try_from(count).unwrap_or(0))
}

/// Writes the PGN of every game `search` finds (as `viewer` may search), in its order, through
/// `send`: the text of one batch and how many games it holds. `send` answers whether to go on
/// (false: the reader went away). Returns the number of games sent.
pub fn stream_search_pgn(
    pool: &DbPool,
    viewer: Option<i64>,
    search: &Search,
    public_url: &str,
    mut send: impl FnMut(String, u64) -> bool,
) -> Result<u64, BulkError> {
    let mut after = None;
    let mut limit = FIRST_BATCH;
    let mut sent = 0;
    loop {
        let (text, games, last) = {
            let mut conn = pool.get()?;
            let (ids, last) = matching_ids_after(&mut conn, viewer, search, after, limit)?;
            let text = pgn_of_games(&mut conn, &ids, public_url)?;
            (text, ids.len() as u64, last)
        };
        let Some(last) = last else {
            return Ok(sent);
        };
        if !send(text, games) {
            return Ok(sent);
        }
        sent += games;
        after = Some(last);
        limit = BATCH;
    }
}
