//! Games imported from PGN: their own record (`game_imports`: the players' names as the PGN
//! gives them, never accounts, the tag pairs, who imported them), read for pages and lists, and
//! the one writer of an imported game's rows.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use slowfuse_rules::{Color, Game, Outcome};

use super::seat::{Seat, color_name};
use super::status::GameStatus;
use crate::db::DbConnection;
use crate::models::{NewGameImport, NewMove};
use crate::schema::{game_boards, game_imports, games, moves};

/// What the PGN said of an imported game's players and more.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportedPlayers {
    /// The names as the PGN gives them (`?` when it gives none).
    pub white: String,
    pub black: String,
    /// Every tag pair of the PGN, in order.
    pub tags: Vec<(String, String)>,
    /// The account that imported the game, if one did.
    pub imported_by: Option<i64>,
}

impl ImportedPlayers {
    /// The PGN's name of the player of `color`.
    pub fn name(&self, color: Color) -> &str {
        match color {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }

    /// The first tag pair called `name`.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// The import record of one game (`None` for a game played here).
pub fn imported_players(
    conn: &mut DbConnection,
    game_id: i64,
) -> QueryResult<Option<ImportedPlayers>> {
    let row: Option<(String, String, String, Option<i64>)> = game_imports::table
        .find(game_id)
        .select((
            game_imports::white_name,
            game_imports::black_name,
            game_imports::tags,
            game_imports::imported_by,
        ))
        .get_result(conn)
        .optional()?;
    Ok(
        row.map(|(white, black, tags, imported_by)| ImportedPlayers {
            white,
            black,
            tags: serde_json::from_str(&tags).unwrap_or_default(),
            imported_by,
        }),
    )
}

/// The PGN names (white, black) of those of `games` that were imported, in one query.
pub fn imported_names(
    conn: &mut DbConnection,
    games: &[i64],
) -> QueryResult<Vec<(i64, String, String)>> {
    game_imports::table
        .filter(game_imports::game_id.eq_any(games))
        .select((
            game_imports::game_id,
            game_imports::white_name,
            game_imports::black_name,
        ))
        .load(conn)
}

/// The import keys among `keys` that are stored already.
pub fn stored_keys(conn: &mut DbConnection, keys: &[String]) -> QueryResult<Vec<String>> {
    game_imports::table
        .filter(game_imports::import_key.eq_any(keys))
        .select(game_imports::import_key)
        .load(conn)
}

/// A finished game about to be stored from a PGN.
pub struct GameToImport<'a> {
    /// Replayed by the rules, with its ending.
    pub game: &'a Game,
    pub outcome: Outcome,
    pub white: &'a str,
    pub black: &'a str,
    /// The tag pairs as JSON (`[[name, value], …]`).
    pub tags_json: &'a str,
    pub key: &'a str,
    /// When it was played (the import's moment when the PGN does not say).
    pub played_at: NaiveDateTime,
    pub imported_at: NaiveDateTime,
    pub imported_by: Option<i64>,
    /// The account seated on one side (the importer, when the PGN names them).
    pub linked: Option<(i64, Color)>,
}

/// Writes an imported game's rows: the game (finished, unrated, public, no clock), its board
/// at the final position, every move, the linked account's seat and the import record;
/// returns its id. The caller holds the transaction and has checked the game whole.
pub fn insert_imported_game(conn: &mut DbConnection, g: &GameToImport<'_>) -> QueryResult<i64> {
    let game = g.game;
    let ply = i32::try_from(game.ply()).unwrap_or(i32::MAX);
    let values = (
        games::variant.eq(game.variant().as_str()),
        games::initial_fen.eq(game.initial_fen()),
        games::ply.eq(ply),
        games::status.eq(GameStatus::Finished.as_str()),
        games::result.eq(g.outcome.result()),
        games::termination.eq(Some(g.outcome.reason.as_str())),
        games::time_control.eq("none"),
        games::rated.eq(false),
        games::is_public.eq(true),
        games::auto_flag.eq(false),
        games::created_at.eq(g.played_at),
        games::updated_at.eq(g.imported_at),
        games::finished_at.eq(Some(g.played_at)),
    );
    let game_id: i64 = crate::on_backend!(conn, |c| diesel::insert_into(games::table)
        .values(values.clone())
        .returning(games::id)
        .get_result(c))?;
    diesel::insert_into(game_boards::table)
        .values((
            game_boards::game_id.eq(game_id),
            game_boards::board.eq(0),
            game_boards::fen.eq(game.fen()),
            game_boards::ply.eq(ply),
            game_boards::turn.eq(color_name(game.turn())),
            game_boards::last_move_at.eq(Some(g.played_at)),
        ))
        .execute(conn)?;
    if let Some((user_id, color)) = g.linked {
        super::store::insert_player(conn, game_id, user_id, Seat::first_board(color), None)?;
    }
    insert_moves(conn, game_id, g)?;
    diesel::insert_into(game_imports::table)
        .values(NewGameImport {
            game_id,
            import_key: g.key,
            imported_by: g.imported_by,
            white_name: g.white,
            black_name: g.black,
            white_key: &g.white.to_lowercase(),
            black_key: &g.black.to_lowercase(),
            tags: g.tags_json,
            imported_at: g.imported_at,
        })
        .execute(conn)?;
    Ok(game_id)
}

/// The moves in chunks of one statement each (both backends take a multi-row insert).
fn insert_moves(conn: &mut DbConnection, game_id: i64, g: &GameToImport<'_>) -> QueryResult<()> {
    let fens: Vec<String> = (1..=g.game.ply())
        .map(|ply| g.game.fen_at(ply).unwrap_or_default())
        .collect();
    let first = first_mover(g.game);
    let rows: Vec<NewMove<'_>> = g
        .game
        .moves()
        .iter()
        .zip(&fens)
        .enumerate()
        .map(|(ply, (played, fen_after))| {
            let color = if ply.is_multiple_of(2) { first } else { !first };
            NewMove {
                game_id,
                board: 0,
                ply: i32::try_from(ply).unwrap_or(i32::MAX),
                uci: &played.uci,
                san: &played.san,
                fen_after,
                player_id: g.linked.filter(|(_, c)| *c == color).map(|(id, _)| id),
                comment: None,
                played_at: g.played_at,
            }
        })
        .collect();
    for chunk in rows.chunks(200) {
        crate::on_backend!(conn, |c| diesel::insert_into(moves::table)
            .values(chunk)
            .execute(c))?;
    }
    Ok(())
}

/// The colour that made the first move: the side to move in the start FEN.
fn first_mover(game: &Game) -> Color {
    match game.initial_fen().split(' ').nth(1) {
        Some("b") => Color::Black,
        _ => Color::White,
    }
}
