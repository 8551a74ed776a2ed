//! Each user's private analysis of a game (the game page's Analysis Board): one tree of moves
//! with variations from the game's start, checked move by move and stored as PGN the server
//! writes. Only its owner ever reads it: nothing here takes a reader other than the owner, and
//! no page, PGN, game JSON or mail of anyone reads the table.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use slowfuse_rules::{Game, GameKind, MoveTree, Variant};

use crate::db::DbConnection;
use crate::schema::{analysis_trees, games};

/// The largest analysis accepted, in bytes of PGN.
pub const MAX_ANALYSIS_BYTES: usize = 100 * 1024;

#[derive(Debug, thiserror::Error)]
pub enum AnalysisError {
    #[error("no such game")]
    NotFound,
    #[error("the analysis board does not play {0} yet")]
    Unsupported(String),
    #[error("an analysis is at most {max} KB of PGN", max = MAX_ANALYSIS_BYTES / 1024)]
    TooLarge,
    #[error("the analysis cannot be stored: {0}")]
    Unreadable(String),
    #[error("the game's record is damaged: {0}")]
    Corrupt(String),
    #[error(transparent)]
    Db(#[from] diesel::result::Error),
}

/// One user's analysis of one game: the tree, and the PGN it is stored as (`""` before any).
pub struct Analysis {
    pub tree: MoveTree,
    pub pgn: String,
}

/// What the tree of a game starts from, and the names its PGN carries.
struct Start {
    game: Game,
    white: String,
    black: String,
}

/// The variant the analysis board plays a game of this kind in, if it does: every variant of one
/// board the rules play from a FEN. Not bughouse (two boards), nor minesweeper, whose moves
/// would tell where the bombs are not.
pub fn offered_for(kind: GameKind) -> Option<Variant> {
    kind.variant()
}

fn start_of(conn: &mut DbConnection, game_id: i64) -> Result<Start, AnalysisError> {
    let (variant, initial_fen): (String, String) = games::table
        .find(game_id)
        .select((games::variant, games::initial_fen))
        .get_result(conn)
        .optional()?
        .ok_or(AnalysisError::NotFound)?;
    let Some(parsed) = variant.parse::<GameKind>().ok().and_then(offered_for) else {
        return Err(AnalysisError::Unsupported(variant));
    };
    let game =
        Game::from_fen(parsed, &initial_fen).map_err(|e| AnalysisError::Corrupt(e.to_string()))?;
    let names = crate::game::player_names(conn, &[game_id])?;
    Ok(Start {
        white: names.of(game_id, "white"),
        black: names.of(game_id, "black"),
        game,
    })
}

fn event(game_id: i64) -> String {
    format!("Analysis of game {game_id}")
}

/// The caller's own analysis of a game (an empty tree and `""` before any).
pub fn my_analysis(
    conn: &mut DbConnection,
    game_id: i64,
    user_id: i64,
) -> Result<Analysis, AnalysisError> {
    let start = start_of(conn, game_id)?;
    let stored: Option<String> = analysis_trees::table
        .find((game_id, user_id))
        .select(analysis_trees::pgn)
        .get_result(conn)
        .optional()?;
    let pgn = stored.unwrap_or_default();
    // Stored text was written by the server after every move was checked.
    let tree = MoveTree::read(&start.game, &pgn)
        .map_err(|e| AnalysisError::Corrupt(format!("stored analysis: {e}")))?;
    Ok(Analysis { tree, pgn })
}

/// Replaces the caller's analysis of a game with the tree read from `pgn` (an empty tree
/// deletes it). Nothing is stored when the text is too long or is not a tree of this game.
pub fn save_analysis(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    game_id: i64,
    user_id: i64,
    pgn: &str,
) -> Result<Analysis, AnalysisError> {
    if pgn.len() > MAX_ANALYSIS_BYTES {
        return Err(AnalysisError::TooLarge);
    }
    let start = start_of(conn, game_id)?;
    let tree =
        MoveTree::read(&start.game, pgn).map_err(|e| AnalysisError::Unreadable(e.problem))?;
    let written = tree.write_pgn(&event(game_id), &start.white, &start.black);
    if written.len() > MAX_ANALYSIS_BYTES {
        return Err(AnalysisError::TooLarge);
    }
    crate::db::write_transaction(conn, |conn| {
        if tree.is_empty() {
            diesel::delete(analysis_trees::table.find((game_id, user_id))).execute(conn)?;
            return Ok(());
        }
        let row = (
            analysis_trees::game_id.eq(game_id),
            analysis_trees::user_id.eq(user_id),
            analysis_trees::pgn.eq(&written),
            analysis_trees::updated_at.eq(now),
        );
        // Two devices saving at once: the later write wins, neither fails.
        crate::on_backend!(conn, |c| diesel::insert_into(analysis_trees::table)
            .values(row)
            .on_conflict((analysis_trees::game_id, analysis_trees::user_id))
            .do_update()
            .set((
                analysis_trees::pgn.eq(&written),
                analysis_trees::updated_at.eq(now),
            ))
            .execute(c))?;
        Ok::<_, AnalysisError>(())
    })?;
    Ok(Analysis { tree, pgn: written })
}
