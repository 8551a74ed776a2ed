//! The record cache: each game's moves as last read by this server, kept by the application
//! (one cache per database) and used again while the game's `revision` says nothing was
//! written since. Every write to a game takes its lock (`db::lock_game` or `db::claim_game`),
//! which counts the revision, so a page view or a move of a long game reads its row, boards,
//! players and messages but not its hundreds of moves. A game that only grew is brought up
//! to date by reading the moves stored since; anything else is read again in full.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use diesel::QueryResult;

use super::record::{CommentTimes, GameRecord, load_head, load_moves, load_moves_since};
use crate::db::{DbConnection, read_snapshot};
use crate::models::Move;

/// Games kept, at most; past that some are forgotten.
const MAX_GAMES: usize = 4096;

/// One game's moves as of one revision.
#[derive(Clone)]
struct Kept {
    revision: i64,
    moves: Arc<Vec<Move>>,
    comment_times: Arc<CommentTimes>,
}

/// The moves of recently read games, by game id. One per application, so one per database.
#[derive(Default)]
pub struct RecordCache {
    games: Mutex<HashMap<i64, Kept>>,
}

impl RecordCache {
    fn get(&self, game_id: i64) -> Option<Kept> {
        let games = self.games.lock().unwrap_or_else(|e| e.into_inner());
        games.get(&game_id).cloned()
    }

    /// Forgets every game: for a database whose rows were put back under the running
    /// application (the fuzz targets restore theirs before each input).
    pub fn clear(&self) {
        let mut games = self.games.lock().unwrap_or_else(|e| e.into_inner());
        games.clear();
    }

    fn forget(&self, game_id: i64) {
        let mut games = self.games.lock().unwrap_or_else(|e| e.into_inner());
        games.remove(&game_id);
    }

    fn keep(&self, game_id: i64, kept: Kept) {
        let mut games = self.games.lock().unwrap_or_else(|e| e.into_inner());
        if games.len() >= MAX_GAMES
            && !games.contains_key(&game_id)
            && let Some(&any) = games.keys().next()
        {
            games.remove(&any);
        }
        games.insert(game_id, kept);
    }
}

/// Reads a game as of one moment, as [`super::read_game`] does, taking its moves from the
/// cache when the game's revision is the one they were read at.
pub fn read_game_cached(
    conn: &mut DbConnection,
    cache: &RecordCache,
    game_id: i64,
) -> QueryResult<Option<GameRecord>> {
    read_snapshot(conn, |conn| load_game_cached(conn, cache, game_id))
}

/// Loads a game as [`super::load_game`] does, its moves from the cache where they hold: inside
/// a snapshot (or a transaction) of the caller's.
pub fn load_game_cached(
    conn: &mut DbConnection,
    cache: &RecordCache,
    game_id: i64,
) -> QueryResult<Option<GameRecord>> {
    let Some(mut record) = load_head(conn, game_id)? else {
        return Ok(None);
    };
    let kept = moves_now(conn, cache, &record)?;
    record.moves = kept.moves.clone();
    record.comment_times = kept.comment_times.clone();
    cache.keep(game_id, kept);
    Ok(Some(record))
}

/// The game's moves at the record's revision: the kept ones, the kept ones and those stored
/// since, or all of them read again.
fn moves_now(
    conn: &mut DbConnection,
    cache: &RecordCache,
    record: &GameRecord,
) -> QueryResult<Kept> {
    let (game_id, revision) = (record.game.id, record.game.revision);
    let stored = usize::try_from(record.game.ply).unwrap_or(0);
    match cache.get(game_id) {
        Some(kept) if kept.revision == revision && kept.moves.len() == stored => Ok(kept),
        Some(kept) if kept.moves.len() < stored => {
            let last = kept.moves.iter().map(|m| m.id).max().unwrap_or(0);
            let (new, new_times) = load_moves_since(conn, game_id, last)?;
            if kept.moves.len() + new.len() != stored {
                return read_all(conn, game_id, revision);
            }
            // Taken out of the cache, the list is usually this reader's alone: grown in place.
            cache.forget(game_id);
            let mut moves = Arc::try_unwrap(kept.moves).unwrap_or_else(|moves| (*moves).clone());
            moves.extend(new);
            moves.sort_by_key(|m| (m.board, m.ply));
            let mut times = kept.comment_times.as_ref().clone();
            times.extend(new_times);
            Ok(Kept {
                revision,
                moves: Arc::new(moves),
                comment_times: Arc::new(times),
            })
        }
        _ => read_all(conn, game_id, revision),
    }
}

fn read_all(conn: &mut DbConnection, game_id: i64, revision: i64) -> QueryResult<Kept> {
    let (moves, times) = load_moves(conn, game_id)?;
    Ok(Kept {
        revision,
        moves: Arc::new(moves),
        comment_times: Arc::new(times),
    })
}
