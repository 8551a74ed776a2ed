//! Importing finished games from a PGN file: each game read and checked whole by the rules
//! (`pgn_import`) before anything is written, then stored in batches (a batch one
//! transaction; a batch that fails is written again game by game, so a bad game never leaves
//! rows), with its opening-book rows; a game imported before is skipped by its key.

use std::collections::HashSet;

use chrono::NaiveDateTime;
use diesel::prelude::*;
use slowfuse_rules::Color;

use crate::db::DbConnection;
use crate::game::imported::{GameToImport, insert_imported_game, stored_keys};
use crate::pgn_import::{ImportRecord, SkipReason, Skipped, read_games};

/// Games written in one transaction.
pub const BATCH: usize = 50;

/// Why an import did not run.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    #[error("there is no account named \"{0}\": --as-user must name an existing account")]
    UnknownUser(String),
    #[error(transparent)]
    Db(#[from] diesel::result::Error),
}

/// The account an import is made for: the games record them as importer, and the side the PGN
/// names as they are called (in any case) is seated as them.
#[derive(Clone, Debug)]
pub struct Importer {
    pub user_id: i64,
    pub username: String,
}

/// One game stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportedGame {
    /// Its number in the file.
    pub index: usize,
    pub game_id: i64,
    pub white: String,
    pub black: String,
    pub result: String,
}

/// What an import did: the games stored and those skipped, each with its number in the file.
#[derive(Clone, Debug, Default)]
pub struct ImportSummary {
    pub imported: Vec<ImportedGame>,
    pub skipped: Vec<Skipped>,
}

/// The account called `name` (any case, as `accounts::user_by_name` finds it), or
/// `UnknownUser`.
pub fn find_importer(conn: &mut DbConnection, name: &str) -> Result<Importer, ImportError> {
    crate::usecases::accounts::user_by_name(conn, name)?
        .map(|u| Importer {
            user_id: u.id,
            username: u.username,
        })
        .ok_or_else(|| ImportError::UnknownUser(name.to_string()))
}

/// Imports the finished games of the PGN text `bytes` as public, unrated games. `progress`
/// is told the number of games read so far after each batch.
pub fn import_pgn(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    bytes: &[u8],
    by: Option<&Importer>,
    progress: &mut dyn FnMut(usize),
) -> Result<ImportSummary, ImportError> {
    let mut summary = ImportSummary::default();
    let mut batch: Vec<ImportRecord> = Vec::with_capacity(BATCH);
    let mut read = 0;
    for game in read_games(bytes) {
        read += 1;
        match game {
            Ok(record) => batch.push(record),
            Err(skipped) => summary.skipped.push(skipped),
        }
        if batch.len() == BATCH {
            write_batch(conn, now, std::mem::take(&mut batch), by, &mut summary)?;
            progress(read);
        }
    }
    write_batch(conn, now, batch, by, &mut summary)?;
    progress(read);
    summary.skipped.sort_by_key(|s| s.index);
    Ok(summary)
}

/// Writes the games of a batch not stored before in one transaction; if that fails, each in
/// its own (another import may have stored one meanwhile: it is skipped as a duplicate).
fn write_batch(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    batch: Vec<ImportRecord>,
    by: Option<&Importer>,
    summary: &mut ImportSummary,
) -> Result<(), ImportError> {
    if batch.is_empty() {
        return Ok(());
    }
    let keys: Vec<String> = batch.iter().map(|r| r.key.clone()).collect();
    let mut seen: HashSet<String> = stored_keys(conn, &keys)?.into_iter().collect();
    let mut fresh = Vec::with_capacity(batch.len());
    for record in batch {
        if seen.insert(record.key.clone()) {
            fresh.push(record);
        } else {
            summary.skipped.push(duplicate(record.index));
        }
    }
    let whole = crate::db::write_transaction(conn, |c| {
        fresh
            .iter()
            .map(|r| write_game(c, now, r, by))
            .collect::<QueryResult<Vec<_>>>()
    });
    match whole {
        Ok(games) => summary.imported.extend(games),
        Err(_) => {
            for record in &fresh {
                match crate::db::write_transaction(conn, |c| write_game(c, now, record, by)) {
                    Ok(game) => summary.imported.push(game),
                    Err(diesel::result::Error::DatabaseError(
                        diesel::result::DatabaseErrorKind::UniqueViolation,
                        _,
                    )) => summary.skipped.push(duplicate(record.index)),
                    Err(e) => return Err(e.into()),
                }
            }
        }
    }
    Ok(())
}

fn duplicate(index: usize) -> Skipped {
    Skipped {
        index,
        reason: SkipReason::Duplicate,
    }
}

/// The side the importer plays in a game: the one the PGN names as they are called.
fn linked_side(record: &ImportRecord, by: Option<&Importer>) -> Option<(i64, Color)> {
    let by = by?;
    let me = crate::usernames::lookup_key(&by.username);
    [(Color::White, &record.white), (Color::Black, &record.black)]
        .into_iter()
        .find(|(_, name)| crate::usernames::lookup_key(name) == me)
        .map(|(color, _)| (by.user_id, color))
}

/// Stores one checked game with its book rows.
fn write_game(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    record: &ImportRecord,
    by: Option<&Importer>,
) -> QueryResult<ImportedGame> {
    let tags_json = serde_json::to_string(&record.tags).unwrap_or_else(|_| "[]".to_string());
    let game_id = insert_imported_game(
        conn,
        &GameToImport {
            game: &record.game,
            outcome: record.outcome,
            white: &record.white,
            black: &record.black,
            tags_json: &tags_json,
            key: &record.key,
            played_at: record.played_at.unwrap_or(now),
            imported_at: now,
            imported_by: by.map(|b| b.user_id),
            linked: linked_side(record, by),
        },
    )?;
    crate::usecases::book::index_game(
        conn,
        game_id,
        record.game.variant().as_str(),
        record.result,
        &record.game,
    )?;
    Ok(ImportedGame {
        index: record.index,
        game_id,
        white: record.white.clone(),
        black: record.black.clone(),
        result: record.result.to_string(),
    })
}
