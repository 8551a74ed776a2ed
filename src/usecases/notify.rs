//! Notifications as data: the outbox rows a use case writes in its own transaction with its
//! event (your move, draw offered, game over, challenges, address confirmation), deduplicated
//! and superseded. Nothing here sends mail; `mail::deliver` does.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use serde_json::json;
use slowfuse_rules::Color;

use crate::db::DbConnection;
use crate::models::{Challenge, NewOutboxRow, User};
use crate::schema::{email_preferences, game_players, games, outbox, users};
use crate::usecases::games::{GameRecord, color_name};

/// The kinds of mail. Every kind but `VerifyEmail` can be switched off.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    YourTurn,
    DrawOffered,
    GameOver,
    ChallengeReceived,
    ChallengeAccepted,
    VerifyEmail,
}

impl Kind {
    /// The kinds a user may switch on and off, in the order the settings show them.
    pub const OPTIONAL: [Kind; 5] = [
        Kind::YourTurn,
        Kind::DrawOffered,
        Kind::GameOver,
        Kind::ChallengeReceived,
        Kind::ChallengeAccepted,
    ];

    /// The stored name, also used in the API and in unsubscribe links.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::YourTurn => "your_turn",
            Kind::DrawOffered => "draw_offered",
            Kind::GameOver => "game_over",
            Kind::ChallengeReceived => "challenge_received",
            Kind::ChallengeAccepted => "challenge_accepted",
            Kind::VerifyEmail => "verify_email",
        }
    }

    /// Reads a stored name.
    pub fn parse(name: &str) -> Option<Kind> {
        Kind::OPTIONAL
            .into_iter()
            .chain([Kind::VerifyEmail])
            .find(|k| k.as_str() == name)
    }

    /// Words for the settings page and the unsubscribe page.
    pub fn label(self) -> &'static str {
        match self {
            Kind::YourTurn => "It is my move",
            Kind::DrawOffered => "My opponent offers a draw",
            Kind::GameOver => "A game of mine ends",
            Kind::ChallengeReceived => "Someone challenges me",
            Kind::ChallengeAccepted => "My challenge is accepted",
            Kind::VerifyEmail => "Address confirmation",
        }
    }
}

/// A row's life: `pending` → `sending` (claimed, under a lease) → `sent`; a failed try goes
/// back to `pending` with a later `next_attempt_at`; `failed` after a permanent refusal or
/// too many tries; `cancelled` when superseded or no longer wanted (`last_error` says why).
pub mod status {
    pub const PENDING: &str = "pending";
    pub const SENDING: &str = "sending";
    pub const SENT: &str = "sent";
    pub const FAILED: &str = "failed";
    pub const CANCELLED: &str = "cancelled";
}

/// How long a verification link works.
pub const VERIFY_LINK_DAYS: i64 = 7;

/// Queues one mail unless a row with the same key exists (a retried transaction or an event
/// recorded twice then adds nothing). Returns whether a row was added.
pub(crate) fn queue(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    kind: Kind,
    user_id: i64,
    game_id: Option<i64>,
    dedup_key: &str,
    payload: serde_json::Value,
) -> QueryResult<bool> {
    let payload = payload.to_string();
    let row = NewOutboxRow {
        kind: kind.as_str(),
        user_id,
        game_id,
        dedup_key,
        payload: &payload,
        status: status::PENDING,
        next_attempt_at: now,
        created_at: now,
    };
    let added = crate::on_backend!(conn, |c| diesel::insert_into(outbox::table)
        .values(&row)
        .on_conflict(outbox::dedup_key)
        .do_nothing()
        .execute(c))?;
    Ok(added == 1)
}

/// Whether `user_id` gets mail of `kind` now: a verified address, and the kind not off.
pub fn wants(conn: &mut DbConnection, user_id: i64, kind: Kind) -> QueryResult<bool> {
    let verified: Option<Option<NaiveDateTime>> = users::table
        .find(user_id)
        .select(users::email_verified_at)
        .first(conn)
        .optional()?;
    if !matches!(verified, Some(Some(_))) {
        return Ok(false);
    }
    if kind == Kind::VerifyEmail {
        return Ok(true);
    }
    let off: i64 = email_preferences::table
        .filter(email_preferences::user_id.eq(user_id))
        .filter(email_preferences::kind.eq(kind.as_str()))
        .filter(email_preferences::mode.eq("off"))
        .count()
        .get_result(conn)?;
    Ok(off == 0)
}

/// Cancels the game's waiting mails of these kinds (a later event made them stale).
fn supersede(
    conn: &mut DbConnection,
    game_id: i64,
    kinds: &[Kind],
    reason: &str,
) -> QueryResult<usize> {
    let kinds: Vec<&str> = kinds.iter().map(|k| k.as_str()).collect();
    diesel::update(
        outbox::table
            .filter(outbox::game_id.eq(game_id))
            .filter(outbox::kind.eq_any(kinds))
            .filter(outbox::status.eq(status::PENDING)),
    )
    .set((
        outbox::status.eq(status::CANCELLED),
        outbox::last_error.eq(reason),
    ))
    .execute(conn)
}

/// After a move (typed or played from conditional lines): the player now to move gets a
/// "your move" mail. Any earlier waiting one of this game is cancelled, so a burst of moves
/// leaves one mail; the worker holds it for `mail.coalesce_seconds` first.
pub fn your_turn(conn: &mut DbConnection, now: NaiveDateTime, game_id: i64) -> QueryResult<()> {
    supersede(
        conn,
        game_id,
        &[Kind::YourTurn],
        "superseded by a later move",
    )?;
    let (state, turn, ply): (String, String, i32) = games::table
        .find(game_id)
        .select((games::status, games::turn, games::ply))
        .first(conn)?;
    if state != "started" {
        return Ok(());
    }
    let Some(user_id) = seat(conn, game_id, &turn)? else {
        return Ok(());
    };
    if wants(conn, user_id, Kind::YourTurn)? {
        let key = format!("your_turn:{game_id}:{ply}:{user_id}");
        queue(
            conn,
            now,
            Kind::YourTurn,
            user_id,
            Some(game_id),
            &key,
            json!({ "ply": ply }),
        )?;
    }
    Ok(())
}

fn seat(conn: &mut DbConnection, game_id: i64, color: &str) -> QueryResult<Option<i64>> {
    game_players::table
        .filter(game_players::game_id.eq(game_id))
        .filter(game_players::board.eq(0))
        .filter(game_players::color.eq(color))
        .select(game_players::user_id)
        .first(conn)
        .optional()
}

/// The game ended: both players get a mail with the result; waiting move and draw mails of
/// the game are cancelled.
pub fn game_over(conn: &mut DbConnection, now: NaiveDateTime, game_id: i64) -> QueryResult<()> {
    supersede(
        conn,
        game_id,
        &[Kind::YourTurn, Kind::DrawOffered],
        "the game ended",
    )?;
    let players: Vec<i64> = game_players::table
        .filter(game_players::game_id.eq(game_id))
        .select(game_players::user_id)
        .load(conn)?;
    for user_id in players {
        if wants(conn, user_id, Kind::GameOver)? {
            let key = format!("game_over:{game_id}:{user_id}");
            queue(
                conn,
                now,
                Kind::GameOver,
                user_id,
                Some(game_id),
                &key,
                json!({}),
            )?;
        }
    }
    Ok(())
}

/// A draw was offered by `offerer`: the opponent gets a mail (skipped at sending time when
/// the offer no longer stands).
pub fn draw_offered(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    record: &GameRecord,
    offerer: Color,
) -> QueryResult<()> {
    let Some(opponent) = record.player(!offerer) else {
        return Ok(());
    };
    let (game_id, ply, user_id) = (record.game.id, record.game.ply, opponent.user_id);
    if wants(conn, user_id, Kind::DrawOffered)? {
        let key = format!("draw_offered:{game_id}:{ply}:{user_id}");
        let payload = json!({ "ply": ply, "offerer": color_name(offerer) });
        queue(
            conn,
            now,
            Kind::DrawOffered,
            user_id,
            Some(game_id),
            &key,
            payload,
        )?;
    }
    Ok(())
}

/// A challenge was created: a direct one is mailed to the player it names.
pub fn challenge_received(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    challenge: &Challenge,
) -> QueryResult<()> {
    let Some(user_id) = challenge.opponent_id.filter(|_| challenge.kind == "direct") else {
        return Ok(());
    };
    if wants(conn, user_id, Kind::ChallengeReceived)? {
        let key = format!("challenge_received:{}", challenge.id);
        let payload = json!({ "challenge_id": challenge.id });
        queue(
            conn,
            now,
            Kind::ChallengeReceived,
            user_id,
            None,
            &key,
            payload,
        )?;
    }
    Ok(())
}

/// A challenge was accepted and its game created: its author gets a mail.
pub fn challenge_accepted(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    challenge: &Challenge,
    game_id: i64,
) -> QueryResult<()> {
    let user_id = challenge.creator_id;
    if wants(conn, user_id, Kind::ChallengeAccepted)? {
        let key = format!("challenge_accepted:{}", challenge.id);
        let payload = json!({ "challenge_id": challenge.id });
        queue(
            conn,
            now,
            Kind::ChallengeAccepted,
            user_id,
            Some(game_id),
            &key,
            payload,
        )?;
    }
    Ok(())
}

/// A new account: the address-confirmation mail, the only mail an unverified address gets.
/// (More are queued on request by `email_settings::resend_verification`.)
pub fn verify_email(conn: &mut DbConnection, now: NaiveDateTime, user: &User) -> QueryResult<()> {
    if user.email_verified_at.is_some() {
        return Ok(());
    }
    let key = format!("verify_email:{}:signup", user.id);
    let payload = json!({ "email": user.email });
    queue(conn, now, Kind::VerifyEmail, user.id, None, &key, payload)?;
    Ok(())
}
