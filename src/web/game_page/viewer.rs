//! Who looks at the game page: the logged-in user and their seat, their "Hide comments"
//! choice, what they may do now, and what only their own rows hold (read once, in one place),
//! their time zone among them.

use actix_session::Session;
use slowfuse_rules::Color;

use super::standing::Standing;
use crate::db::DbConnection;
use crate::game::{GameRecord, Seat};
use crate::usecases::email_settings::time_zone_of;
use crate::usecases::messages::{MessageError, my_note};
use crate::usecases::preferences::{Preferences, preferences_of};
use crate::usecases::{conditional, tags};
use crate::web::errors::WebError;

/// The session key of the "Hide comments" preference (for every game).
const HIDE_KEY: &str = "hide_comments";

/// The reader of a game page.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Viewer {
    /// The logged-in user; `None` for a visitor.
    pub id: Option<i64>,
    /// Their seat, when they play in this game.
    pub seat: Option<Seat>,
    /// They asked not to see comments and kibitz.
    pub hides_comments: bool,
}

impl Viewer {
    /// The user `id` (if any) as a reader of `record`.
    pub fn of(record: &GameRecord, id: Option<i64>, hides_comments: bool) -> Viewer {
        Viewer {
            id,
            seat: id.and_then(|id| record.seat_of(id)),
            hides_comments,
        }
    }

    /// The colour they play, if they play.
    pub fn color(&self) -> Option<Color> {
        self.seat.map(|s| s.color)
    }

    /// Whether they play in the game.
    pub fn plays(&self) -> bool {
        self.seat.is_some()
    }
}

/// What the viewer may do in the game now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rights {
    /// They play, the game runs and it is their move.
    pub my_turn: bool,
    /// They play and the game runs: the action bar and the board are theirs.
    pub can_act: bool,
}

impl Rights {
    /// The viewer's rights in a game standing as `standing`.
    pub fn of(viewer: &Viewer, standing: &Standing) -> Rights {
        let started = standing.is_started();
        Rights {
            my_turn: started && viewer.color() == Some(standing.turn),
            can_act: started && viewer.plays(),
        }
    }
}

/// What only the viewer's own rows hold. Nobody else's are ever read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ViewerExtras {
    /// Their conditional lines as of the current position (players only).
    pub conditional: Option<String>,
    /// Their tags on the game (logged-in viewers).
    pub tags: Vec<String>,
    /// Their private note (players only).
    pub note: Option<String>,
    /// Their board preferences (the defaults for visitors, whose browser keeps its own).
    pub preferences: Preferences,
    /// The time zone they read moments in (read when a player's leave is to be told; UTC
    /// when none).
    pub time_zone: Option<chrono_tz::Tz>,
}

impl ViewerExtras {
    /// Reads them on one connection, before any part of the page is built.
    pub fn load(
        conn: &mut DbConnection,
        record: &GameRecord,
        viewer: &Viewer,
    ) -> Result<ViewerExtras, WebError> {
        let Some(me) = viewer.id else {
            return Ok(ViewerExtras::default());
        };
        let mut extras = ViewerExtras {
            tags: tags::my_tags(conn, me, record.game.id)?,
            preferences: preferences_of(conn, me)?,
            ..ViewerExtras::default()
        };
        if record.players.iter().any(|p| !p.leave.is_empty()) {
            extras.time_zone = Some(time_zone_of(conn, me)?);
        }
        if viewer.plays() {
            extras.conditional =
                conditional::my_lines(conn, record, me).map_err(WebError::internal)?;
            extras.note = match my_note(conn, record.game.id, me) {
                Ok(note) => note.map(|n| n.text),
                Err(MessageError::Db(e)) => return Err(e.into()),
                // Not a player after all: the box stays empty.
                Err(_) => None,
            };
        }
        Ok(extras)
    }
}

/// Whether this browser hides comments (a preference kept in its session).
pub fn comments_hidden(session: &Session) -> bool {
    session
        .get::<bool>(HIDE_KEY)
        .ok()
        .flatten()
        .unwrap_or(false)
}

/// Records `?comments=hide` or `?comments=show`.
pub fn remember_preference(session: &Session, choice: Option<&str>) {
    match choice {
        Some("hide") => {
            let _ = session.insert(HIDE_KEY, true);
        }
        Some("show") => {
            session.remove(HIDE_KEY);
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::web::game_page::standing::tests::running;

    #[test]
    fn only_a_player_of_a_running_game_acts_and_only_on_their_turn() {
        let white = Viewer {
            id: Some(1),
            seat: Some(Seat::first_board(Color::White)),
            hides_comments: false,
        };
        let black = Viewer {
            seat: Some(Seat::first_board(Color::Black)),
            ..white
        };
        let spectator = Viewer::default();
        let mut standing = running();
        let rights = Rights::of(&white, &standing);
        assert!(rights.my_turn && rights.can_act);
        let rights = Rights::of(&black, &standing);
        assert!(!rights.my_turn && rights.can_act);
        assert!(!Rights::of(&spectator, &standing).can_act);
        standing.status = crate::game::GameStatus::Finished;
        let rights = Rights::of(&white, &standing);
        assert!(!rights.my_turn && !rights.can_act);
    }
}
