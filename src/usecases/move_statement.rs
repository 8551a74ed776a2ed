//! A move written in one statement on PostgreSQL: the claim of the game by its revision, the
//! move's row, its board, the mover's bank and the "your move" mails, as the data-modifying
//! parts of one `WITH`. The statement is its own transaction: a move is one round trip where
//! it was seven (`BEGIN`, the claim, the move, the board, the two mails' statements, `COMMIT`).
//! Every part after the claim takes the game's id from it, so nothing is written when the
//! claim finds the game changed or holding conditional lines (which a transaction follows,
//! `usecases::play`). The parts are the statements of the transaction's way (`game::statements`,
//! `usecases::notify`), so both ways write the same rows. SQLite has no data-modifying `WITH`.

use chrono::NaiveDateTime;
use diesel::QueryResult;
use diesel::pg::Pg;
use diesel::query_builder::{AstPass, Query, QueryFragment};
use diesel::sql_types::{BigInt, Integer, Nullable, Text, Timestamp};

use crate::game::statements::{BoardAfterMove, ClaimGameForMove, GameIdOf};
use crate::game::store::MoveToStore;
use crate::usecases::notify::{CancelWaitingYourTurn, QueueYourTurn};

/// `WITH claim AS (UPDATE games …), moved AS (INSERT INTO moves …), … SELECT` the move's row:
/// no row, and nothing written, when the game's revision is no longer the one read or the game
/// holds conditional lines.
pub struct MoveInOneStatement<'a> {
    pub claim: ClaimGameForMove,
    pub stored: MoveToStore<'a>,
    pub played_at: NaiveDateTime,
    pub board: BoardAfterMove<'a>,
    /// The mover's bank after the move: written only when it differs from the stored one.
    pub mover_bank: Option<i64>,
    pub cancel: CancelWaitingYourTurn,
    pub queue: QueueYourTurn,
}

impl QueryFragment<Pg> for MoveInOneStatement<'_> {
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, Pg>) -> QueryResult<()> {
        let m = &self.stored;
        out.push_sql("WITH claim AS (");
        self.claim.push_update(&mut out)?;
        out.push_sql(" AND NOT EXISTS (SELECT 1 FROM conditional_moves WHERE game_id = ");
        out.push_bind_param::<BigInt, _>(&self.claim.game_id)?;
        out.push_sql(
            ") RETURNING id), moved AS (INSERT INTO moves (game_id, board, ply, uci, san, \
             fen_after, player_id, comment, played_at) SELECT id, ",
        );
        out.push_bind_param::<Integer, _>(&m.seat.board)?;
        out.push_sql(", ");
        out.push_bind_param::<Integer, _>(&m.ply)?;
        out.push_sql(", ");
        out.push_bind_param::<Text, _>(&m.played.uci)?;
        out.push_sql(", ");
        out.push_bind_param::<Text, _>(&m.played.san)?;
        out.push_sql(", ");
        out.push_bind_param::<Text, _>(m.fen_after)?;
        out.push_sql(", ");
        out.push_bind_param::<BigInt, _>(&m.user_id)?;
        out.push_sql(", ");
        out.push_bind_param::<Nullable<Text>, _>(&m.comment)?;
        out.push_sql(", ");
        out.push_bind_param::<Timestamp, _>(&self.played_at)?;
        out.push_sql(
            " FROM claim RETURNING id, game_id, board, ply, uci, san, player_id, comment), \
             board AS (",
        );
        self.board.push_update(&mut out, GameIdOf::Claim)?;
        out.push_sql("), bank AS (UPDATE game_players SET time_left_seconds = ");
        out.push_bind_param::<Nullable<BigInt>, _>(&self.mover_bank)?;
        out.push_sql(" WHERE game_id = (SELECT id FROM claim) AND board = ");
        out.push_bind_param::<Integer, _>(&m.seat.board)?;
        out.push_sql(" AND color = ");
        out.push_bind_param::<Text, _>(m.seat.color_name())?;
        out.push_sql(" AND time_left_seconds IS DISTINCT FROM ");
        out.push_bind_param::<Nullable<BigInt>, _>(&self.mover_bank)?;
        out.push_sql("), cancelled AS (");
        self.cancel.push_update(&mut out, GameIdOf::Claim)?;
        out.push_sql("), queued AS (");
        self.queue.push_insert(&mut out, GameIdOf::Claim)?;
        out.push_sql(") SELECT id, game_id, board, ply, uci, san, player_id, comment FROM moved");
        Ok(())
    }
}

impl Query for MoveInOneStatement<'_> {
    type SqlType = (
        BigInt,
        BigInt,
        Integer,
        Integer,
        Text,
        Text,
        Nullable<BigInt>,
        Nullable<Text>,
    );
}

crate::kept_prepared!(MoveInOneStatement<'_>, pub MoveInOneStatementKey);
