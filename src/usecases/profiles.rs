//! Reading a public profile: who the player is, their ratings with history, their recent games.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use crate::db::DbConnection;
use crate::models::{Rating, RatingChange};
use crate::schema::{games, rating_history, ratings, users};
use crate::usecases::accounts::user_by_name;
use crate::usecases::games::{Seated, latest_seated_games};

/// One rated game as a player's history shows it.
#[derive(Clone, Debug)]
pub struct HistoryEntry {
    pub change: RatingChange,
    pub opponent: String,
}

/// A rating in one variant with its latest changes, newest first.
#[derive(Clone, Debug)]
pub struct VariantRating {
    pub rating: Rating,
    pub history: Vec<HistoryEntry>,
}

/// A game on the profile's list.
#[derive(Clone, Debug)]
pub struct RecentGame {
    pub id: i64,
    pub variant: String,
    pub white: String,
    pub black: String,
    /// The names as people read them ("Computer (Easy)" for a computer account).
    pub white_name: String,
    pub black_name: String,
    /// Whether each name is an account's (an imported game's other side is a PGN name).
    pub white_account: bool,
    pub black_account: bool,
    pub status: String,
    pub result: String,
    pub rated: bool,
    pub updated_at: NaiveDateTime,
}

/// What anyone may see about a player (never their email).
#[derive(Clone, Debug)]
pub struct Profile {
    pub username: String,
    pub member_since: NaiveDateTime,
    /// The variants played rated, most games first.
    pub ratings: Vec<VariantRating>,
    pub recent_games: Vec<RecentGame>,
}

/// Loads a player's profile by name (case-insensitively): `history_limit` changes per variant,
/// `games_limit` most recently active games. `None` when there is no such player.
pub fn load_profile(
    conn: &mut DbConnection,
    name: &str,
    history_limit: i64,
    games_limit: i64,
) -> QueryResult<Option<Profile>> {
    let Some(user) = user_by_name(conn, name)? else {
        return Ok(None);
    };
    let rows: Vec<Rating> = ratings::table
        .filter(ratings::user_id.eq(user.id))
        .order((ratings::games.desc(), ratings::variant.asc()))
        .select(Rating::as_select())
        .load(conn)?;
    let mut list = Vec::with_capacity(rows.len());
    for rating in rows {
        let history = history(conn, user.id, &rating.variant, history_limit)?;
        list.push(VariantRating { rating, history });
    }
    Ok(Some(Profile {
        recent_games: recent_games(conn, user.id, games_limit)?,
        username: user.username,
        member_since: user.created_at,
        ratings: list,
    }))
}

fn history(
    conn: &mut DbConnection,
    user_id: i64,
    variant: &str,
    limit: i64,
) -> QueryResult<Vec<HistoryEntry>> {
    Ok(rating_history::table
        .inner_join(users::table.on(users::id.eq(rating_history::opponent_id)))
        .filter(rating_history::user_id.eq(user_id))
        .filter(rating_history::variant.eq(variant))
        .order(rating_history::id.desc())
        .limit(limit)
        .select((RatingChange::as_select(), users::username))
        .load::<(RatingChange, String)>(conn)?
        .into_iter()
        .map(|(change, opponent)| HistoryEntry { change, opponent })
        .collect())
}

/// The player's `limit` most recently active games ([`latest_seated_games`]).
fn recent_games(conn: &mut DbConnection, user_id: i64, limit: i64) -> QueryResult<Vec<RecentGame>> {
    type Row = (i64, String, String, String, bool, NaiveDateTime);
    let latest = latest_seated_games(conn, user_id, limit, Seated::Any)?;
    if latest.is_empty() {
        return Ok(Vec::new());
    }
    let mut rows: Vec<Row> = games::table
        .filter(games::id.eq_any(&latest))
        .select((
            games::id,
            games::variant,
            games::status,
            games::result,
            games::rated,
            games::updated_at,
        ))
        .load(conn)?;
    rows.sort_by_key(|r| latest.iter().position(|&id| id == r.0));
    let ids: Vec<i64> = rows.iter().map(|r| r.0).collect();
    let names = crate::game::player_names(conn, &ids)?;
    let name = |game: i64, color: &str| names.of(game, color);
    Ok(rows
        .into_iter()
        .map(
            |(id, variant, status, result, rated, updated_at)| RecentGame {
                white: name(id, "white"),
                black: name(id, "black"),
                white_name: names.shown(id, "white"),
                black_name: names.shown(id, "black"),
                white_account: names.is_account(id, "white"),
                black_account: names.is_account(id, "black"),
                id,
                variant,
                status,
                result,
                rated,
                updated_at,
            },
        )
        .collect())
}
