//! The record cache: each game's record as last read by this server, kept by the application
//! (one cache per database) and used again while the game's `revision` says nothing was
//! written since. Every write to a game takes its lock (`db::lock_game`, or
//! `store::claim_game_for_move` for a move judged before it), which counts the revision, so a
//! page view of a game nobody changed since reads one number, its revision, and nothing else;
//! several instances on one database each check it. A game that changed is read again, but
//! for its moves when it only grew: those stored since are added to the kept ones.
//!
//! Only what was committed is kept: a record read inside a write transaction (which may still
//! roll back, and whose revision nobody else sees yet) is handed to the cache by
//! [`RecordCache::keep_committed`] once the transaction is over. What the record holds that a
//! game's own rows do not (its players' names and leave) is kept true by the writers: leave
//! that touches a game locks it (`usecases::leave`), and names never change.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use diesel::prelude::*;

use super::record::{CommentTimes, GameRecord, load_head, load_moves, load_moves_since};
use crate::db::{DbConnection, in_write_transaction, read_snapshot};
use crate::models::Move;
use crate::schema::games;

/// Games kept, at most; past that some are forgotten.
const MAX_GAMES: usize = 4096;

/// The records of recently read games, by game id. One per application, so one per database.
#[derive(Default)]
pub struct RecordCache {
    games: Mutex<HashMap<i64, GameRecord>>,
}

impl RecordCache {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<i64, GameRecord>> {
        self.games.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The kept record of a game, whatever its revision.
    fn get(&self, game_id: i64) -> Option<GameRecord> {
        self.lock().get(&game_id).cloned()
    }

    /// The kept record of a game if it is the one at `revision`.
    fn get_at(&self, game_id: i64, revision: i64) -> Option<GameRecord> {
        self.lock()
            .get(&game_id)
            .filter(|kept| kept.game.revision == revision)
            .cloned()
    }

    /// Forgets every game: for a database whose rows were put back under the running
    /// application (the fuzz targets restore theirs before each input).
    pub fn clear(&self) {
        self.lock().clear();
    }

    /// The kept record of a game as last read, unchecked: it may be behind the game. Only for
    /// a change written under [`super::store::claim_game_for_move`] with this record's
    /// revision, which fails if the game moved on, and whose refusals are judged again on the
    /// game read.
    pub fn last_read(&self, game_id: i64) -> Option<GameRecord> {
        self.get(game_id)
    }

    /// Lets go of a game's kept record: a writer about to grow the record's moves in place
    /// makes sure the cache holds no second handle on them.
    pub fn forget(&self, game_id: i64) {
        self.lock().remove(&game_id);
    }

    /// Keeps a record read from committed rows, unless a later revision is kept already.
    fn keep(&self, record: GameRecord) {
        let mut games = self.lock();
        let id = record.game.id;
        match games.get(&id) {
            Some(kept) if kept.game.revision > record.game.revision => return,
            Some(_) => {}
            None if games.len() >= MAX_GAMES => {
                if let Some(&any) = games.keys().next() {
                    games.remove(&any);
                }
            }
            None => {}
        }
        games.insert(id, record);
    }

    /// Keeps a record that was read inside a write transaction, once that transaction has
    /// committed (before, its revision was nobody else's and it could still roll back).
    pub fn keep_committed(&self, record: &GameRecord) {
        if !in_write_transaction() {
            self.keep(record.clone());
        }
    }
}

/// Reads a game as of one moment, as [`super::read_game`] does, from outside any transaction:
/// one query of its revision when the kept record is still the game's, else the game read in
/// one snapshot (its moves from the cache where they hold) and kept.
pub fn read_game_cached(
    conn: &mut DbConnection,
    cache: &RecordCache,
    game_id: i64,
) -> QueryResult<Option<GameRecord>> {
    if in_write_transaction() {
        return load_with_kept_moves(conn, cache, game_id);
    }
    match look_up(conn, cache, game_id)? {
        Lookup::Gone => Ok(None),
        Lookup::Kept(record) => Ok(Some(*record)),
        Lookup::Stale => read_snapshot(conn, |conn| read_and_keep(conn, cache, game_id)),
    }
}

/// Loads a game as [`super::load_game`] does, inside a snapshot (or a write transaction) of the
/// caller's: the kept record when its revision is the game's; else read, its moves from the
/// cache where they hold. Inside a write transaction nothing is kept (the caller hands the
/// record to [`RecordCache::keep_committed`] after the commit).
pub fn load_game_cached(
    conn: &mut DbConnection,
    cache: &RecordCache,
    game_id: i64,
) -> QueryResult<Option<GameRecord>> {
    if in_write_transaction() {
        // The game was just locked, so its revision is this transaction's own: read it.
        return load_with_kept_moves(conn, cache, game_id);
    }
    match look_up(conn, cache, game_id)? {
        Lookup::Gone => Ok(None),
        Lookup::Kept(record) => Ok(Some(*record)),
        Lookup::Stale => read_and_keep(conn, cache, game_id),
    }
}

/// What one query of a game's revision tells of the kept record.
enum Lookup {
    /// No such game.
    Gone,
    /// The kept record is the game's now.
    Kept(Box<GameRecord>),
    /// Nothing kept, or kept at another revision: the game is to be read.
    Stale,
}

fn look_up(conn: &mut DbConnection, cache: &RecordCache, game_id: i64) -> QueryResult<Lookup> {
    let revision: Option<i64> = crate::on_backend!(conn, |c| games::table
        .find(game_id)
        .select(games::revision)
        .get_result(c)
        .optional())?;
    Ok(match revision {
        None => Lookup::Gone,
        Some(revision) => match cache.get_at(game_id, revision) {
            Some(record) => Lookup::Kept(Box::new(record)),
            None => Lookup::Stale,
        },
    })
}

/// Reads the game from committed rows (a snapshot) and keeps it.
fn read_and_keep(
    conn: &mut DbConnection,
    cache: &RecordCache,
    game_id: i64,
) -> QueryResult<Option<GameRecord>> {
    let record = load_with_kept_moves(conn, cache, game_id)?;
    if let Some(record) = &record {
        cache.keep(record.clone());
    }
    Ok(record)
}

/// Reads the game's head, its moves from the kept record where they still hold.
fn load_with_kept_moves(
    conn: &mut DbConnection,
    cache: &RecordCache,
    game_id: i64,
) -> QueryResult<Option<GameRecord>> {
    let Some(mut record) = load_head(conn, game_id)? else {
        return Ok(None);
    };
    let (moves, comment_times) = moves_now(conn, cache, &record)?;
    record.moves = moves;
    record.comment_times = comment_times;
    Ok(Some(record))
}

/// The game's moves at the record's revision: the kept ones, the kept ones and those stored
/// since, or all of them read again.
fn moves_now(
    conn: &mut DbConnection,
    cache: &RecordCache,
    record: &GameRecord,
) -> QueryResult<(Arc<Vec<Move>>, Arc<CommentTimes>)> {
    let game_id = record.game.id;
    let stored = usize::try_from(record.game.ply).unwrap_or(0);
    match cache.get(game_id) {
        Some(kept) if kept.game.revision == record.game.revision && kept.moves.len() == stored => {
            Ok((kept.moves, kept.comment_times))
        }
        // Moves are only added, but for a takeback, which leaves fewer; ids are never reused.
        Some(kept) if kept.moves.len() <= stored => {
            let last = kept.moves.iter().map(|m| m.id).max().unwrap_or(0);
            let (new, new_times) = load_moves_since(conn, game_id, last)?;
            if kept.moves.len() + new.len() != stored {
                return read_all(conn, game_id);
            }
            // Taken out of the cache, the list is usually this reader's alone: grown in place.
            cache.forget(game_id);
            let GameRecord {
                moves: kept_moves,
                comment_times: kept_times,
                ..
            } = kept;
            let mut moves = Arc::try_unwrap(kept_moves).unwrap_or_else(|moves| (*moves).clone());
            moves.extend(new);
            moves.sort_by_key(|m| (m.board, m.ply));
            let mut times = Arc::unwrap_or_clone(kept_times);
            times.extend(new_times);
            Ok((Arc::new(moves), Arc::new(times)))
        }
        _ => read_all(conn, game_id),
    }
}

fn read_all(
    conn: &mut DbConnection,
    game_id: i64,
) -> QueryResult<(Arc<Vec<Move>>, Arc<CommentTimes>)> {
    let (moves, times) = load_moves(conn, game_id)?;
    Ok((Arc::new(moves), Arc::new(times)))
}
