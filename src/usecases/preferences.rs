//! Each user's board preferences: theme, piece set, confirming moves, the side shown, going on
//! to the next game, coordinates, the 3D view and the animation speed. A user who never changed
//! them has the defaults; a change names only the fields it changes, and a refused change
//! changes nothing.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use crate::db::DbConnection;
use crate::schema::{user_preferences, users};

/// The board themes offered, the default first; `high-contrast` for low vision.
pub const BOARD_THEMES: &[&str] = &["green", "brown", "blue", "grey", "purple", "high-contrast"];

/// The piece sets offered (our own drawings under `static/pieces/{set}/`), the default first.
pub const PIECE_SETS: &[&str] = &["classic", "flat", "letters"];

/// The slowest animation step, in milliseconds (0: no animation).
pub const MAX_ANIMATION_MS: i32 = 3000;

/// One user's preferences, as stored (or the defaults).
#[derive(Clone, Debug, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = user_preferences)]
pub struct Preferences {
    pub board_theme: String,
    pub piece_set: String,
    /// A move dragged or typed is shown and waits for `Confirm move` (on for correspondence).
    pub confirm_moves: bool,
    /// The board from White's side even when playing Black.
    pub always_white: bool,
    /// After a move, go on to the next game awaiting one's move.
    pub next_game_after_move: bool,
    pub coordinates: bool,
    /// The tilted board with the pieces standing up.
    pub board_3d: bool,
    /// Milliseconds per step when animating a game (0: none).
    pub animation_ms: i32,
}

impl Default for Preferences {
    fn default() -> Preferences {
        Preferences {
            board_theme: BOARD_THEMES[0].to_string(),
            piece_set: PIECE_SETS[0].to_string(),
            confirm_moves: true,
            always_white: false,
            next_game_after_move: false,
            coordinates: true,
            board_3d: false,
            animation_ms: 700,
        }
    }
}

/// A change: the fields given, the others kept.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PreferencesChange {
    pub board_theme: Option<String>,
    pub piece_set: Option<String>,
    pub confirm_moves: Option<bool>,
    pub always_white: Option<bool>,
    pub next_game_after_move: Option<bool>,
    pub coordinates: Option<bool>,
    pub board_3d: Option<bool>,
    pub animation_ms: Option<i64>,
}

/// Why a change was refused; nothing was changed.
#[derive(Debug, thiserror::Error)]
pub enum PreferencesError {
    #[error("unknown board theme “{0}”: use {themes}", themes = BOARD_THEMES.join(", "))]
    UnknownTheme(String),
    #[error("unknown piece set “{0}”: use {sets}", sets = PIECE_SETS.join(", "))]
    UnknownPieceSet(String),
    #[error("animation_ms must be a whole number from 0 to {MAX_ANIMATION_MS}")]
    AnimationMs,
    #[error(transparent)]
    Db(#[from] diesel::result::Error),
}

/// The first 40 characters of a refused value, for the message.
fn shown(value: &str) -> String {
    value.chars().take(40).collect()
}

impl PreferencesChange {
    /// `current` with this change applied, or why it cannot be.
    pub fn applied_to(&self, current: &Preferences) -> Result<Preferences, PreferencesError> {
        let mut next = current.clone();
        if let Some(theme) = &self.board_theme {
            if !BOARD_THEMES.contains(&theme.as_str()) {
                return Err(PreferencesError::UnknownTheme(shown(theme)));
            }
            next.board_theme = theme.clone();
        }
        if let Some(set) = &self.piece_set {
            if !PIECE_SETS.contains(&set.as_str()) {
                return Err(PreferencesError::UnknownPieceSet(shown(set)));
            }
            next.piece_set = set.clone();
        }
        if let Some(ms) = self.animation_ms {
            next.animation_ms = i32::try_from(ms)
                .ok()
                .filter(|ms| (0..=MAX_ANIMATION_MS).contains(ms))
                .ok_or(PreferencesError::AnimationMs)?;
        }
        let flags = [
            (self.confirm_moves, &mut next.confirm_moves),
            (self.always_white, &mut next.always_white),
            (self.next_game_after_move, &mut next.next_game_after_move),
            (self.coordinates, &mut next.coordinates),
            (self.board_3d, &mut next.board_3d),
        ];
        for (given, field) in flags {
            if let Some(value) = given {
                *field = value;
            }
        }
        Ok(next)
    }
}

/// The preferences of `user` (the defaults when they never changed any).
pub fn preferences_of(conn: &mut DbConnection, user: i64) -> QueryResult<Preferences> {
    Ok(user_preferences::table
        .find(user)
        .select(Preferences::as_select())
        .get_result(conn)
        .optional()?
        .unwrap_or_default())
}

/// Applies `change` to the preferences of `user` and returns them as stored. Changes of one
/// user's preferences are serial (on PostgreSQL the user's row is locked first; a SQLite writer
/// holds the database's write lock), so two at once each keep the other's fields, and the row
/// is written with an upsert, which two first changes at once cannot both insert.
pub fn change_preferences(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    user: i64,
    change: &PreferencesChange,
) -> Result<Preferences, PreferencesError> {
    crate::db::write_transaction(conn, |conn| {
        if let DbConnection::Pg(pg) = conn {
            users::table
                .find(user)
                .select(users::id)
                .for_no_key_update()
                .get_result::<i64>(pg)
                .optional()?;
        }
        let next = change.applied_to(&preferences_of(conn, user)?)?;
        let values = (
            user_preferences::board_theme.eq(&next.board_theme),
            user_preferences::piece_set.eq(&next.piece_set),
            user_preferences::confirm_moves.eq(next.confirm_moves),
            user_preferences::always_white.eq(next.always_white),
            user_preferences::next_game_after_move.eq(next.next_game_after_move),
            user_preferences::coordinates.eq(next.coordinates),
            user_preferences::board_3d.eq(next.board_3d),
            user_preferences::animation_ms.eq(next.animation_ms),
            user_preferences::updated_at.eq(now),
        );
        crate::on_backend!(conn, |c| diesel::insert_into(user_preferences::table)
            .values((user_preferences::user_id.eq(user), values))
            .on_conflict(user_preferences::user_id)
            .do_update()
            .set(values)
            .execute(c))?;
        Ok(next)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_change_keeps_what_it_does_not_name_and_refuses_unknown_values() {
        let start = Preferences::default();
        let change = PreferencesChange {
            board_theme: Some("blue".into()),
            board_3d: Some(true),
            ..PreferencesChange::default()
        };
        let next = change.applied_to(&start).unwrap();
        assert_eq!(next.board_theme, "blue");
        assert!(next.board_3d && next.confirm_moves && next.coordinates);
        assert_eq!(next.piece_set, "classic");
        let bad = PreferencesChange {
            piece_set: Some("plastic".into()),
            ..PreferencesChange::default()
        };
        assert!(matches!(
            bad.applied_to(&next),
            Err(PreferencesError::UnknownPieceSet(s)) if s == "plastic"
        ));
        let slow = PreferencesChange {
            animation_ms: Some(i64::from(MAX_ANIMATION_MS) + 1),
            ..PreferencesChange::default()
        };
        assert!(matches!(
            slow.applied_to(&next),
            Err(PreferencesError::AnimationMs)
        ));
    }
}
