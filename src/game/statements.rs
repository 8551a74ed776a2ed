//! The two `UPDATE`s of every move, written out as statements of one shape so that both
//! databases keep them prepared. Diesel prepares each `UPDATE` it builds anew at every run (its
//! `SET` list may vary, so it never caches one): on PostgreSQL a parse and a plan per move and
//! statement, on SQLite a compile. These two never vary, and each has a key of its own in the
//! connection's cache of prepared statements (`kept_prepared!`). Rows only, written by
//! `store.rs`, which decides what they hold. Both are also parts of the move written in one
//! statement on PostgreSQL (`usecases::move_statement`), finding the game by [`GameIdOf`].

use chrono::NaiveDateTime;
use diesel::QueryResult;
use diesel::backend::Backend;
use diesel::query_builder::{AstPass, Query, QueryFragment};
use diesel::serialize::ToSql;
use diesel::sql_types::{BigInt, Bool, Integer, Nullable, Text, Timestamp};

/// `UPDATE games SET revision = revision + 1, ply, updated_at, deadline_at WHERE id AND
/// revision RETURNING` whether the game holds conditional lines: the claim of a game read at
/// `read_revision`, with its row after a move. No row when the game changed meanwhile.
pub struct ClaimGameForMove {
    pub game_id: i64,
    pub read_revision: i64,
    pub ply: i32,
    pub updated_at: NaiveDateTime,
    pub deadline_at: Option<NaiveDateTime>,
}

impl<DB> QueryFragment<DB> for ClaimGameForMove
where
    DB: Backend,
    i64: ToSql<BigInt, DB>,
    i32: ToSql<Integer, DB>,
    NaiveDateTime: ToSql<Timestamp, DB>,
    Option<NaiveDateTime>: ToSql<Nullable<Timestamp>, DB>,
{
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, DB>) -> QueryResult<()> {
        self.push_update(&mut out)?;
        // Asked under the claim: lines written since would have changed the revision.
        out.push_sql(" RETURNING EXISTS (SELECT 1 FROM conditional_moves WHERE game_id = ");
        out.push_bind_param::<BigInt, _>(&self.game_id)?;
        out.push_sql(")");
        Ok(())
    }
}

impl ClaimGameForMove {
    /// `UPDATE games SET … WHERE id AND revision`, without its `RETURNING`: the claim alone, or
    /// the first part of a move written in one statement.
    pub fn push_update<'b, DB>(&'b self, out: &mut AstPass<'_, 'b, DB>) -> QueryResult<()>
    where
        DB: Backend,
        i64: ToSql<BigInt, DB>,
        i32: ToSql<Integer, DB>,
        NaiveDateTime: ToSql<Timestamp, DB>,
        Option<NaiveDateTime>: ToSql<Nullable<Timestamp>, DB>,
    {
        out.push_sql("UPDATE games SET revision = revision + 1, ply = ");
        out.push_bind_param::<Integer, _>(&self.ply)?;
        out.push_sql(", updated_at = ");
        out.push_bind_param::<Timestamp, _>(&self.updated_at)?;
        out.push_sql(", deadline_at = ");
        out.push_bind_param::<Nullable<Timestamp>, _>(&self.deadline_at)?;
        out.push_sql(" WHERE id = ");
        out.push_bind_param::<BigInt, _>(&self.game_id)?;
        out.push_sql(" AND revision = ");
        out.push_bind_param::<BigInt, _>(&self.read_revision)?;
        Ok(())
    }
}

impl Query for ClaimGameForMove {
    type SqlType = Bool;
}

crate::kept_prepared!(ClaimGameForMove, pub ClaimGameForMoveStatement);

/// `UPDATE game_boards SET fen, ply, turn, last_move_at, deadline_at, low_time_at, draw_offer
/// WHERE game_id AND board`: one board after a move on it.
pub struct BoardAfterMove<'a> {
    pub game_id: i64,
    pub board: i32,
    pub fen: &'a str,
    pub ply: i32,
    pub turn: &'a str,
    pub last_move_at: Option<NaiveDateTime>,
    pub deadline_at: Option<NaiveDateTime>,
    pub low_time_at: Option<NaiveDateTime>,
    pub draw_offer: Option<&'a str>,
}

impl<DB> QueryFragment<DB> for BoardAfterMove<'_>
where
    DB: Backend,
    i64: ToSql<BigInt, DB>,
    i32: ToSql<Integer, DB>,
    str: ToSql<Text, DB>,
    for<'x> Option<&'x str>: ToSql<Nullable<Text>, DB>,
    Option<NaiveDateTime>: ToSql<Nullable<Timestamp>, DB>,
{
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, DB>) -> QueryResult<()> {
        self.push_update(&mut out, GameIdOf::Bound(&self.game_id))
    }
}

impl BoardAfterMove<'_> {
    /// The `UPDATE` of the board of `game`: this statement, or a part of a move written in one.
    pub fn push_update<'b, DB>(
        &'b self,
        out: &mut AstPass<'_, 'b, DB>,
        game: GameIdOf<'b>,
    ) -> QueryResult<()>
    where
        DB: Backend,
        i64: ToSql<BigInt, DB>,
        i32: ToSql<Integer, DB>,
        str: ToSql<Text, DB>,
        for<'x> Option<&'x str>: ToSql<Nullable<Text>, DB>,
        Option<NaiveDateTime>: ToSql<Nullable<Timestamp>, DB>,
    {
        out.push_sql("UPDATE game_boards SET fen = ");
        out.push_bind_param::<Text, _>(self.fen)?;
        out.push_sql(", ply = ");
        out.push_bind_param::<Integer, _>(&self.ply)?;
        out.push_sql(", turn = ");
        out.push_bind_param::<Text, _>(self.turn)?;
        out.push_sql(", last_move_at = ");
        out.push_bind_param::<Nullable<Timestamp>, _>(&self.last_move_at)?;
        out.push_sql(", deadline_at = ");
        out.push_bind_param::<Nullable<Timestamp>, _>(&self.deadline_at)?;
        out.push_sql(", low_time_at = ");
        out.push_bind_param::<Nullable<Timestamp>, _>(&self.low_time_at)?;
        out.push_sql(", draw_offer = ");
        out.push_bind_param::<Nullable<Text>, _>(&self.draw_offer)?;
        out.push_sql(" WHERE game_id = ");
        game.push(out)?;
        out.push_sql(" AND board = ");
        out.push_bind_param::<Integer, _>(&self.board)?;
        Ok(())
    }
}

crate::kept_prepared!(BoardAfterMove<'_>, pub BoardAfterMoveStatement);

/// Where a part of a statement finds its game's id: bound, or from the `claim` of the move
/// written in one statement that it is part of (`usecases::move_statement`), so that it
/// writes nothing when the claim found the game changed.
#[derive(Clone, Copy)]
pub enum GameIdOf<'a> {
    Bound(&'a i64),
    Claim,
}

impl<'a> GameIdOf<'a> {
    /// The game's id, as a parameter or as `(SELECT id FROM claim)`.
    pub fn push<DB>(self, out: &mut AstPass<'_, 'a, DB>) -> QueryResult<()>
    where
        DB: Backend,
        i64: ToSql<BigInt, DB>,
    {
        match self {
            GameIdOf::Bound(id) => out.push_bind_param::<BigInt, _>(id),
            GameIdOf::Claim => {
                out.push_sql("(SELECT id FROM claim)");
                Ok(())
            }
        }
    }
}
