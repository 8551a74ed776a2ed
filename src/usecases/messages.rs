//! The talk around a game: players' comments, spectators' kibitz, private notes, and the one
//! rule (`may_read`) deciding who may read each; the page, the API and the PGN all ask it.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use crate::db::{DbConnection, lock_game};
use crate::game::{GameRecord, load_game};
use crate::models::NewGameMessage;
use crate::schema::{game_messages, game_players, games};

/// What a piece of writing is, as stored in `game_messages.kind`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A player's words to the opponent (with a move, an action, or on their own).
    Comment,
    /// A spectator's remark in a public game.
    Kibitz,
    /// A player's private note: one per player and game.
    Note,
    /// A notice from the server to one player (a conditional line dropped), stored under
    /// their name.
    Notice,
    /// Something a player did in the game besides moving and writing, told at the ply it
    /// happened ("offered a draw", "gave bob 3 days"): a [`GameEvent`], stored by its code.
    Event,
}

impl Kind {
    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Comment => "comment",
            Kind::Kibitz => "kibitz",
            Kind::Note => "note",
            Kind::Notice => "notice",
            Kind::Event => "event",
        }
    }

    /// Reads a stored name; unknown kinds are never shown.
    pub fn parse(s: &str) -> Option<Kind> {
        match s {
            "comment" => Some(Kind::Comment),
            "kibitz" => Some(Kind::Kibitz),
            "note" => Some(Kind::Note),
            "notice" => Some(Kind::Notice),
            "event" => Some(Kind::Event),
            _ => None,
        }
    }
}

/// Whether `reader` (a user id, or `None` for an anonymous visitor or a public export) may
/// read something of `kind` written by `author_id` in this game. The only such rule:
/// - a note, or a notice from the server: the one player it belongs to;
/// - a comment: the two players; everyone when the game is public;
/// - kibitz (public games only): while the game runs, logged-in users who do not play in it;
///   once it is over, everyone;
/// - an event (a draw offered, time given): everyone, as the game's state shows it anyway.
pub fn may_read(record: &GameRecord, reader: Option<i64>, kind: Kind, author_id: i64) -> bool {
    let plays = reader.is_some_and(|r| record.seat_of(r).is_some());
    match kind {
        Kind::Event => true,
        Kind::Note | Kind::Notice => reader == Some(author_id),
        Kind::Comment => plays || record.game.is_public,
        Kind::Kibitz => {
            record.game.is_public && (!record.is_started() || (reader.is_some() && !plays))
        }
    }
}

/// One line of the conversation as a reader sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// How many plies had been played when it was written (a move's comment: after the move).
    pub ply: i32,
    pub kind: Kind,
    pub author: String,
    pub text: String,
    pub written_at: NaiveDateTime,
}

impl Entry {
    /// "alice: text", or "carol (spectator): text" for kibitz.
    pub fn line(&self) -> String {
        match self.kind {
            Kind::Kibitz => format!("{} (spectator): {}", self.author, self.text),
            Kind::Notice => format!("Notice (only you see it): {}", self.text),
            Kind::Event => format!("{} {}", self.author, self.text),
            _ => format!("{}: {}", self.author, self.text),
        }
    }
}

/// The comments, kibitz and notices of a game that `reader` may read, in order (never notes:
/// those are read with `my_note`).
pub fn readable_conversation(record: &GameRecord, reader: Option<i64>) -> Vec<Entry> {
    let mut entries: Vec<Entry> = Vec::new();
    for m in record.moves.iter() {
        let (Some(text), Some(author_id)) = (&m.comment, m.player_id) else {
            continue;
        };
        if may_read(record, reader, Kind::Comment, author_id) {
            let author = record
                .players
                .iter()
                .find(|p| p.user_id == author_id)
                .map_or("?", |p| p.username.as_str());
            entries.push(Entry {
                ply: m.ply + 1,
                kind: Kind::Comment,
                author: author.to_string(),
                text: text.clone(),
                written_at: record.comment_time(m.id).unwrap_or_default(),
            });
        }
    }
    for msg in &record.messages {
        let m = &msg.message;
        let Some(kind) = Kind::parse(&m.kind).filter(|k| *k != Kind::Note) else {
            continue;
        };
        if !may_read(record, reader, kind, m.user_id) {
            continue;
        }
        let text = if kind == Kind::Event {
            // An event is stored by its code and told in words; an unknown code is not shown.
            match GameEvent::parse(&m.body) {
                Some(event) => event.words(),
                None => continue,
            }
        } else {
            m.body.clone()
        };
        entries.push(Entry {
            ply: m.ply,
            kind,
            author: msg.author.clone(),
            text,
            written_at: m.created_at,
        });
    }
    entries.sort_by_key(|e| (e.ply, e.written_at));
    entries
}

/// What a player did in a game besides moving and writing, kept at the ply it happened for the
/// move list (as [`Kind::Event`] rows).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameEvent {
    DrawOffered,
    DrawDeclined,
    DrawWithdrawn,
    DrawAccepted,
    /// Days added to the opponent's clock, and the opponent's name.
    TimeGiven {
        days: i64,
        to: String,
    },
}

impl GameEvent {
    /// The stored code: `draw_offered`, …, `time_given:3:bob`.
    pub fn code(&self) -> String {
        match self {
            GameEvent::DrawOffered => "draw_offered".into(),
            GameEvent::DrawDeclined => "draw_declined".into(),
            GameEvent::DrawWithdrawn => "draw_withdrawn".into(),
            GameEvent::DrawAccepted => "draw_accepted".into(),
            GameEvent::TimeGiven { days, to } => format!("time_given:{days}:{to}"),
        }
    }

    /// Reads a stored code.
    pub fn parse(code: &str) -> Option<GameEvent> {
        Some(match code {
            "draw_offered" => GameEvent::DrawOffered,
            "draw_declined" => GameEvent::DrawDeclined,
            "draw_withdrawn" => GameEvent::DrawWithdrawn,
            "draw_accepted" => GameEvent::DrawAccepted,
            other => {
                let rest = other.strip_prefix("time_given:")?;
                let (days, to) = rest.split_once(':')?;
                GameEvent::TimeGiven {
                    days: days.parse().ok()?,
                    to: to.to_string(),
                }
            }
        })
    }

    /// What the player did, after their name: "offered a draw", "gave bob 3 days".
    pub fn words(&self) -> String {
        match self {
            GameEvent::DrawOffered => "offered a draw".into(),
            GameEvent::DrawDeclined => "declined the draw offer".into(),
            GameEvent::DrawWithdrawn => "withdrew the draw offer".into(),
            GameEvent::DrawAccepted => "accepted the draw offer".into(),
            GameEvent::TimeGiven { days: 1, to } => format!("gave {to} 1 day"),
            GameEvent::TimeGiven { days, to } => format!("gave {to} {days} days"),
        }
    }
}

/// A player's private note on a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    pub text: String,
    pub saved_at: NaiveDateTime,
}

/// Why something could not be written or read; nothing changed.
#[derive(Debug, thiserror::Error)]
pub enum MessageError {
    #[error("game not found")]
    NotFound,
    #[error("only the two players comment in a game; spectators may kibitz in public games")]
    NotAPlayer,
    #[error("this game is private: only its two players write in it")]
    PrivateGame,
    #[error("you play in this game: write a comment to your opponent instead of kibitzing")]
    PlayerKibitz,
    #[error("only the players of a game keep notes on it")]
    NotesForPlayers,
    #[error("the {0} is empty: write something first")]
    Empty(&'static str),
    #[error("the {what} is too long: at most {max} characters (this one has {got})")]
    TooLong {
        what: &'static str,
        max: usize,
        got: usize,
    },
    #[error(transparent)]
    Db(#[from] diesel::result::Error),
}

/// The trimmed text, refused when empty (unless `allow_empty`) or longer than `max` characters.
fn checked<'a>(
    text: &'a str,
    what: &'static str,
    max: usize,
    allow_empty: bool,
) -> Result<&'a str, MessageError> {
    let text = text.trim();
    if text.is_empty() && !allow_empty {
        return Err(MessageError::Empty(what));
    }
    let got = text.chars().count();
    if got > max {
        return Err(MessageError::TooLong { what, max, got });
    }
    Ok(text)
}

fn insert(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    record: &GameRecord,
    user_id: i64,
    kind: Kind,
    body: &str,
) -> QueryResult<usize> {
    insert_at(
        conn,
        now,
        record.game.id,
        (user_id, record.game.ply),
        kind,
        body,
    )
}

/// Stores a message of `kind` by `user_id` at `ply` of the game: the one writer of
/// `game_messages` rows for comments, kibitz and events alike.
pub(crate) fn insert_at(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    game_id: i64,
    (user_id, ply): (i64, i32),
    kind: Kind,
    body: &str,
) -> QueryResult<usize> {
    diesel::insert_into(game_messages::table)
        .values(NewGameMessage {
            game_id,
            user_id,
            ply,
            kind: kind.as_str(),
            body,
            created_at: now,
        })
        .execute(conn)
}

/// Keeps what a player did at `ply` (after a move played with it, the ply after) for the move
/// list: a draw offered, declined, withdrawn or accepted, time given.
pub fn record_event(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    game_id: i64,
    (user_id, ply): (i64, i32),
    event: &GameEvent,
) -> QueryResult<()> {
    insert_at(
        conn,
        now,
        game_id,
        (user_id, ply),
        Kind::Event,
        &event.code(),
    )?;
    Ok(())
}

/// A player's comment on its own, at any time (also after the end), stored at the current
/// ply; returns the game as stored afterwards.
pub fn comment(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    max_chars: usize,
    game_id: i64,
    user_id: i64,
    text: &str,
) -> Result<GameRecord, MessageError> {
    let text = checked(text, "comment", max_chars, false)?;
    store(
        conn,
        now,
        (game_id, user_id),
        Kind::Comment,
        text,
        |record| match record.seat_of(user_id) {
            Some(_) => Ok(()),
            None => Err(MessageError::NotAPlayer),
        },
    )
}

/// A spectator's kibitz in a public game (during it or after it).
pub fn kibitz(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    max_chars: usize,
    game_id: i64,
    user_id: i64,
    text: &str,
) -> Result<GameRecord, MessageError> {
    let text = checked(text, "kibitz", max_chars, false)?;
    store(
        conn,
        now,
        (game_id, user_id),
        Kind::Kibitz,
        text,
        |record| {
            if record.seat_of(user_id).is_some() {
                Err(MessageError::PlayerKibitz)
            } else if !record.game.is_public {
                Err(MessageError::PrivateGame)
            } else {
                Ok(())
            }
        },
    )
}

/// Stores `user_id`'s message in a game when `may_write` allows it for the game as it is under
/// the game's lock (which orders the message with a move arriving at the same moment); returns
/// the game as stored afterwards.
fn store(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    (game_id, user_id): (i64, i64),
    kind: Kind,
    text: &str,
    may_write: impl Fn(&GameRecord) -> Result<(), MessageError>,
) -> Result<GameRecord, MessageError> {
    crate::db::write_transaction(conn, |conn| {
        if !lock_game(conn, game_id)? {
            return Err(MessageError::NotFound);
        }
        let record = load_game(conn, game_id)?.ok_or(MessageError::NotFound)?;
        may_write(&record)?;
        insert(conn, now, &record, user_id, kind, text)?;
        load_game(conn, game_id)?.ok_or(MessageError::NotFound)
    })
}

/// Refuses users who do not play in the game (and games that do not exist).
fn check_player(conn: &mut DbConnection, game_id: i64, user_id: i64) -> Result<(), MessageError> {
    let exists: i64 = games::table
        .filter(games::id.eq(game_id))
        .count()
        .get_result(conn)?;
    if exists == 0 {
        return Err(MessageError::NotFound);
    }
    let seats: i64 = game_players::table
        .filter(game_players::game_id.eq(game_id))
        .filter(game_players::user_id.eq(user_id))
        .count()
        .get_result(conn)?;
    if seats == 0 {
        return Err(MessageError::NotesForPlayers);
    }
    Ok(())
}

fn stored_note(conn: &mut DbConnection, game_id: i64, user_id: i64) -> QueryResult<Option<Note>> {
    Ok(game_messages::table
        .filter(game_messages::game_id.eq(game_id))
        .filter(game_messages::user_id.eq(user_id))
        .filter(game_messages::kind.eq(Kind::Note.as_str()))
        .select((game_messages::body, game_messages::created_at))
        .get_result::<(String, NaiveDateTime)>(conn)
        .optional()?
        .map(|(text, saved_at)| Note { text, saved_at }))
}

/// The user's own note on a game they play (`None`: none written yet).
pub fn my_note(
    conn: &mut DbConnection,
    game_id: i64,
    user_id: i64,
) -> Result<Option<Note>, MessageError> {
    check_player(conn, game_id, user_id)?;
    Ok(stored_note(conn, game_id, user_id)?)
}

/// Saves a player's note, replacing the previous one; an empty text deletes it.
pub fn save_note(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    max_chars: usize,
    game_id: i64,
    user_id: i64,
    text: &str,
) -> Result<Option<Note>, MessageError> {
    let text = checked(text, "note", max_chars, true)?;
    crate::db::write_transaction(conn, |conn| {
        // Two saves of one note run one after the other.
        if !lock_game(conn, game_id)? {
            return Err(MessageError::NotFound);
        }
        check_player(conn, game_id, user_id)?;
        let mine = game_messages::table
            .filter(game_messages::game_id.eq(game_id))
            .filter(game_messages::user_id.eq(user_id))
            .filter(game_messages::kind.eq(Kind::Note.as_str()));
        if text.is_empty() {
            diesel::delete(mine).execute(conn)?;
            return Ok(None);
        }
        let ply: i32 = games::table
            .find(game_id)
            .select(games::ply)
            .get_result(conn)?;
        let updated = diesel::update(mine)
            .set((
                game_messages::body.eq(text),
                game_messages::ply.eq(ply),
                game_messages::created_at.eq(now),
            ))
            .execute(conn)?;
        if updated == 0 {
            diesel::insert_into(game_messages::table)
                .values(NewGameMessage {
                    game_id,
                    user_id,
                    ply,
                    kind: Kind::Note.as_str(),
                    body: text,
                    created_at: now,
                })
                .execute(conn)?;
        }
        Ok(stored_note(conn, game_id, user_id)?)
    })
}
