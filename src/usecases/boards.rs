//! The current position of many games at once, for the small boards of lists: board a's stored
//! FEN and the move that led to it, in two queries for a whole page. Never secret state.

use std::collections::HashMap;

use diesel::prelude::*;
use slowfuse_rules::Color;

use crate::db::DbConnection;
use crate::game::parse_color;
use crate::schema::{game_boards, moves};

/// Where one game stands on its first board, as stored after its last move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardSnapshot {
    /// The stored FEN of board a (a bughouse match's first board). Small boards read only its
    /// piece placement, which a spectator sees anyway: no minesweeper bomb is ever in it.
    pub fen: String,
    pub turn: Color,
    /// The last move on that board in UCI (`e2e4`, `P@e4`), if any.
    pub last_move: Option<String>,
}

/// The snapshots of `game_ids` (board a of each), by game id; a game without a board row is
/// left out.
pub fn board_snapshots(
    conn: &mut DbConnection,
    game_ids: &[i64],
) -> QueryResult<HashMap<i64, BoardSnapshot>> {
    if game_ids.is_empty() {
        return Ok(HashMap::new());
    }
    let boards: Vec<(i64, String, String)> = game_boards::table
        .filter(game_boards::game_id.eq_any(game_ids))
        .filter(game_boards::board.eq(0))
        .select((game_boards::game_id, game_boards::fen, game_boards::turn))
        .load(conn)?;
    let last: Vec<(i64, String)> = moves::table
        .inner_join(
            game_boards::table.on(moves::game_id
                .eq(game_boards::game_id)
                .and(moves::board.eq(game_boards::board))
                .and(moves::ply.eq(game_boards::ply - 1))),
        )
        .filter(game_boards::game_id.eq_any(game_ids))
        .filter(game_boards::board.eq(0))
        .select((moves::game_id, moves::uci))
        .load(conn)?;
    let mut last: HashMap<i64, String> = last.into_iter().collect();
    Ok(boards
        .into_iter()
        .map(|(id, fen, turn)| {
            let snapshot = BoardSnapshot {
                fen,
                turn: parse_color(&turn).unwrap_or(Color::White),
                last_move: last.remove(&id),
            };
            (id, snapshot)
        })
        .collect())
}
