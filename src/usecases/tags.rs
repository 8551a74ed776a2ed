//! Private tags: each user's own short words on any game, seen by that user and nobody else.

use std::collections::HashMap;

use chrono::NaiveDateTime;
use diesel::prelude::*;

use crate::db::DbConnection;
use crate::models::NewGameTag;
use crate::schema::{game_tags, games};

/// The longest tag, in characters.
pub const MAX_TAG_CHARS: usize = 30;
/// How many tags one user may put on one game.
pub const MAX_TAGS_PER_GAME: i64 = 20;

/// Why a tag was refused.
#[derive(Debug, thiserror::Error)]
pub enum TagError {
    #[error("no such game")]
    NoGame,
    #[error("a tag is one word of 1 to 30 letters, digits, - or _ (no spaces): \"{0}\" is not one")]
    Invalid(String),
    #[error("a game can carry at most 20 of your tags: remove one first")]
    TooMany,
    #[error("you have no tag \"{0}\" on this game")]
    NotTagged(String),
    #[error(transparent)]
    Db(#[from] diesel::result::Error),
}

/// Checks a tag as typed and returns it as stored: trimmed and lowercased, so that
/// `Sacrifice` and `sacrifice` are one tag.
pub fn check_tag(raw: &str) -> Result<String, TagError> {
    let tag = raw.trim().to_lowercase();
    let len = tag.chars().count();
    let word = tag
        .chars()
        .all(|c| c.is_alphanumeric() || c == '-' || c == '_');
    if len == 0 || len > MAX_TAG_CHARS || !word {
        return Err(TagError::Invalid(raw.trim().chars().take(40).collect()));
    }
    Ok(tag)
}

/// A user's tags on one game, in alphabetical order.
pub fn my_tags(conn: &mut DbConnection, user_id: i64, game_id: i64) -> QueryResult<Vec<String>> {
    game_tags::table
        .filter(game_tags::user_id.eq(user_id))
        .filter(game_tags::game_id.eq(game_id))
        .select(game_tags::tag)
        .order(game_tags::tag.asc())
        .load(conn)
}

/// A user's tags on each of several games (games without tags are left out).
pub fn my_tags_on(
    conn: &mut DbConnection,
    user_id: i64,
    game_ids: &[i64],
) -> QueryResult<HashMap<i64, Vec<String>>> {
    let rows: Vec<(i64, String)> = game_tags::table
        .filter(game_tags::user_id.eq(user_id))
        .filter(game_tags::game_id.eq_any(game_ids))
        .select((game_tags::game_id, game_tags::tag))
        .order((game_tags::game_id.asc(), game_tags::tag.asc()))
        .load(conn)?;
    let mut map: HashMap<i64, Vec<String>> = HashMap::new();
    for (game, tag) in rows {
        map.entry(game).or_default().push(tag);
    }
    Ok(map)
}

/// What adding a tag did.
#[derive(Clone, Debug)]
pub struct Tagged {
    /// The tag as stored.
    pub tag: String,
    /// False when the user already had this tag on the game.
    pub created: bool,
    /// All of the user's tags on the game now.
    pub tags: Vec<String>,
}

fn game_exists(conn: &mut DbConnection, game_id: i64) -> QueryResult<bool> {
    let n: i64 = games::table
        .filter(games::id.eq(game_id))
        .count()
        .get_result(conn)?;
    Ok(n > 0)
}

/// Puts a tag on a game for one user. Adding a tag the user already has changes nothing.
pub fn add_tag(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    user_id: i64,
    game_id: i64,
    raw: &str,
) -> Result<Tagged, TagError> {
    let tag = check_tag(raw)?;
    crate::db::write_transaction(conn, |conn| {
        if !game_exists(conn, game_id)? {
            return Err(TagError::NoGame);
        }
        let current = my_tags(conn, user_id, game_id)?;
        if current.contains(&tag) {
            return Ok(Tagged {
                tag,
                created: false,
                tags: current,
            });
        }
        if current.len() as i64 >= MAX_TAGS_PER_GAME {
            return Err(TagError::TooMany);
        }
        let row = NewGameTag {
            user_id,
            game_id,
            tag: &tag,
            created_at: now,
        };
        // A simultaneous request may have stored the same tag meanwhile: that is no error.
        let inserted = crate::on_backend!(conn, |c| diesel::insert_into(game_tags::table)
            .values(&row)
            .on_conflict_do_nothing()
            .execute(c))?;
        Ok(Tagged {
            tags: my_tags(conn, user_id, game_id)?,
            created: inserted > 0,
            tag,
        })
    })
}

/// Takes one of the user's tags off a game; returns the tags left.
pub fn remove_tag(
    conn: &mut DbConnection,
    user_id: i64,
    game_id: i64,
    raw: &str,
) -> Result<Vec<String>, TagError> {
    let tag = check_tag(raw)?;
    crate::db::write_transaction(conn, |conn| {
        if !game_exists(conn, game_id)? {
            return Err(TagError::NoGame);
        }
        let removed = diesel::delete(
            game_tags::table
                .filter(game_tags::user_id.eq(user_id))
                .filter(game_tags::game_id.eq(game_id))
                .filter(game_tags::tag.eq(&tag)),
        )
        .execute(conn)?;
        if removed == 0 {
            return Err(TagError::NotTagged(tag));
        }
        Ok(my_tags(conn, user_id, game_id)?)
    })
}

/// A user's tags on a game, or `NoGame` when there is no such game.
pub fn tags_of_game(
    conn: &mut DbConnection,
    user_id: i64,
    game_id: i64,
) -> Result<Vec<String>, TagError> {
    crate::db::write_transaction(conn, |conn| {
        if !game_exists(conn, game_id)? {
            return Err(TagError::NoGame);
        }
        Ok(my_tags(conn, user_id, game_id)?)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_are_single_short_words() {
        assert_eq!(check_tag("  Sacrifice ").unwrap(), "sacrifice");
        assert_eq!(check_tag("king-walk_2").unwrap(), "king-walk_2");
        assert_eq!(check_tag("Königsgambit").unwrap(), "königsgambit");
        assert_eq!(check_tag(&"a".repeat(30)).unwrap().len(), 30);
        for bad in ["", "  ", "two words", "a/b", "<b>", "x;y", &"a".repeat(31)] {
            assert!(
                matches!(check_tag(bad), Err(TagError::Invalid(_))),
                "{bad:?}"
            );
        }
    }
}
