//! Notifications as data: the outbox rows a use case writes in its own transaction with its
//! event (your move, draw offered or declined, game over, challenges, address confirmation),
//! deduplicated and superseded, as each user wants them (at once, held for the daily digest, or
//! not at all), and the worker's scan for "time running low". Nothing here sends mail;
//! `mail::deliver` does; `usecases::digest` gathers the held rows.

use std::collections::HashMap;

use chrono::NaiveDateTime;
use diesel::prelude::*;
use serde_json::json;
use slowfuse_rules::{LeavePeriod, deadline_with_leave, leave_within};

use crate::db::DbConnection;
use crate::game::clock::{epoch, from_epoch, leave_period};
use crate::game::statements::GameIdOf;
use crate::game::{GameRecord, GameStatus, Seat, color_name};
use crate::models::{Challenge, NewOutboxRow, User};
use crate::schema::{email_preferences, game_boards, game_players, games, leaves, outbox, users};

/// The kinds of mail. Every kind in [`Kind::OPTIONAL`] can be switched off or held for the
/// digest; `Digest` is the daily digest itself, `VerifyEmail` the address confirmation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    YourTurn,
    DrawOffered,
    DrawDeclined,
    GameOver,
    ChallengeReceived,
    ChallengeAccepted,
    LowTime,
    OpponentOnLeave,
    Digest,
    VerifyEmail,
}

impl Kind {
    /// The kinds a user may switch on and off, in the order the settings show them.
    pub const OPTIONAL: [Kind; 8] = [
        Kind::YourTurn,
        Kind::DrawOffered,
        Kind::DrawDeclined,
        Kind::GameOver,
        Kind::ChallengeReceived,
        Kind::ChallengeAccepted,
        Kind::LowTime,
        Kind::OpponentOnLeave,
    ];

    /// The stored name, also used in the API and in unsubscribe links.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::YourTurn => "your_turn",
            Kind::DrawOffered => "draw_offered",
            Kind::DrawDeclined => "draw_declined",
            Kind::GameOver => "game_over",
            Kind::ChallengeReceived => "challenge_received",
            Kind::ChallengeAccepted => "challenge_accepted",
            Kind::LowTime => "low_time",
            Kind::OpponentOnLeave => "opponent_on_leave",
            Kind::Digest => "daily_digest",
            Kind::VerifyEmail => "verify_email",
        }
    }

    /// Reads a stored name.
    pub fn parse(name: &str) -> Option<Kind> {
        Kind::OPTIONAL
            .into_iter()
            .chain([Kind::Digest, Kind::VerifyEmail])
            .find(|k| k.as_str() == name)
    }

    /// Words for the settings page and the unsubscribe page.
    pub fn label(self) -> &'static str {
        match self {
            Kind::YourTurn => "It is my move",
            Kind::DrawOffered => "My opponent offers a draw",
            Kind::DrawDeclined => "My opponent declines my draw offer",
            Kind::GameOver => "A game of mine ends",
            Kind::ChallengeReceived => "Someone challenges me",
            Kind::ChallengeAccepted => "My challenge is accepted",
            Kind::LowTime => "My time for a move is running low",
            Kind::OpponentOnLeave => "An opponent books leave",
            Kind::Digest => "The daily digest",
            Kind::VerifyEmail => "Address confirmation",
        }
    }

    /// Whether this kind may wait for the daily digest. "Time running low" may not: a day
    /// later it would come too late. A "your move" set to the digest is not held as an event:
    /// the digest lists every game awaiting the move anyway.
    pub fn may_wait_for_digest(self) -> bool {
        Kind::OPTIONAL.contains(&self) && self != Kind::LowTime
    }
}

/// How a user wants one kind of mail. Without a stored choice: at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// A mail for each event.
    Immediate,
    /// Held, and listed in the daily digest.
    Digest,
    /// No mail.
    Off,
}

impl Mode {
    /// Every mode, in the order the settings show them.
    pub const ALL: [Mode; 3] = [Mode::Immediate, Mode::Digest, Mode::Off];

    /// The stored name, also used in the API.
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Immediate => "immediate",
            Mode::Digest => "digest",
            Mode::Off => "off",
        }
    }

    /// Reads a stored name.
    pub fn parse(name: &str) -> Option<Mode> {
        Mode::ALL.into_iter().find(|m| m.as_str() == name)
    }

    /// The mode a kind is sent in, from the stored choice: at once when none was made (or it
    /// cannot be read), and at once for a kind that cannot wait for the digest.
    pub fn of_kind(kind: Kind, stored: Option<&str>) -> Mode {
        match stored.and_then(Mode::parse) {
            Some(Mode::Digest) if !kind.may_wait_for_digest() => Mode::Immediate,
            Some(mode) => mode,
            None => Mode::Immediate,
        }
    }

    /// Words for the settings page.
    pub fn label(self) -> &'static str {
        match self {
            Mode::Immediate => "at once",
            Mode::Digest => "in the daily digest",
            Mode::Off => "never",
        }
    }
}

/// A row's life: `pending` → `sending` (claimed, under a lease) → `sent`; a failed try goes
/// back to `pending` with a later `next_attempt_at`; `failed` after a permanent refusal or
/// too many tries; `cancelled` when superseded or no longer wanted (`last_error` says why).
/// A row for a kind the user set to the digest is `held` until the digest scan lists it in a
/// digest row and marks it `digested`.
pub mod status {
    pub const PENDING: &str = "pending";
    pub const HELD: &str = "held";
    pub const DIGESTED: &str = "digested";
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
    insert_row(
        conn,
        now,
        (kind, user_id, game_id),
        dedup_key,
        payload,
        status::PENDING,
    )
}

/// Records an event for `user_id` as they want it: a mail queued now, a row held for the
/// digest, or nothing. Returns whether a row was added. (A "your move" is never held: the
/// digest lists every game awaiting the move anyway. It is queued by [`QueueYourTurn`].)
fn notify(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    (kind, user_id, game_id): (Kind, i64, Option<i64>),
    dedup_key: &str,
    payload: serde_json::Value,
) -> QueryResult<bool> {
    let state = match mode_of(conn, user_id, kind)? {
        Mode::Immediate => status::PENDING,
        Mode::Digest => status::HELD,
        Mode::Off => return Ok(false),
    };
    insert_row(
        conn,
        now,
        (kind, user_id, game_id),
        dedup_key,
        payload,
        state,
    )
}

fn insert_row(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    (kind, user_id, game_id): (Kind, i64, Option<i64>),
    dedup_key: &str,
    payload: serde_json::Value,
    state: &str,
) -> QueryResult<bool> {
    let payload = payload.to_string();
    let row = NewOutboxRow {
        kind: kind.as_str(),
        user_id,
        game_id,
        dedup_key,
        payload: &payload,
        status: state,
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

/// How `user_id` gets mail of `kind` now: never before the address is confirmed, otherwise
/// as chosen (at once when nothing was chosen; a kind that cannot wait for the digest, at once).
pub fn mode_of(conn: &mut DbConnection, user_id: i64, kind: Kind) -> QueryResult<Mode> {
    let verified: Option<Option<NaiveDateTime>> = users::table
        .find(user_id)
        .select(users::email_verified_at)
        .get_result(conn)
        .optional()?;
    if !matches!(verified, Some(Some(_))) {
        return Ok(Mode::Off);
    }
    if !Kind::OPTIONAL.contains(&kind) {
        return Ok(Mode::Immediate);
    }
    let chosen: Option<String> = email_preferences::table
        .filter(email_preferences::user_id.eq(user_id))
        .filter(email_preferences::kind.eq(kind.as_str()))
        .select(email_preferences::mode)
        .get_result(conn)
        .optional()?;
    Ok(Mode::of_kind(kind, chosen.as_deref()))
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
pub fn your_turn(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    game_id: i64,
    board: i32,
) -> QueryResult<()> {
    let (state, turn, ply): (String, String, i32) = games::table
        .inner_join(game_boards::table)
        .filter(games::id.eq(game_id))
        .filter(game_boards::board.eq(board))
        .select((games::status, game_boards::turn, games::ply))
        .get_result(conn)?;
    let to_move = if state == GameStatus::Started.as_str() {
        seat(conn, game_id, board, &turn)?
    } else {
        None
    };
    your_turn_of(conn, now, (game_id, board, ply), to_move)
}

/// [`your_turn`] when the caller knows the game's ply after the move and who is to move on
/// `board` now (`None`: nobody, the game is over): cancels the board's waiting "your move"
/// mails and records the new one.
pub fn your_turn_of(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    (game_id, board, ply): (i64, i32, i32),
    to_move: Option<i64>,
) -> QueryResult<()> {
    // Only this board's waiting "your move": in bughouse the other board's stands. One
    // statement of one shape, whatever the number of players, kept prepared (see
    // `CancelWaitingYourTurn`).
    let cancel = CancelWaitingYourTurn { game_id, board };
    crate::on_backend!(conn, |c| cancel.execute(c))?;
    let Some(user_id) = to_move else {
        return Ok(());
    };
    let queue = QueueYourTurn::new(now, (game_id, ply), user_id);
    crate::on_backend!(conn, |c| queue.execute(c))?;
    Ok(())
}

/// `INSERT INTO outbox … SELECT … WHERE` the player's address is confirmed and they did not
/// set "It is my move" to the digest or to never: [`notify`]'s read of [`mode_of`] and its
/// insert, in one statement of one shape that both databases keep prepared, for the mail every
/// move writes. A stored mode this build cannot read counts as "at once", as `Mode::of_kind`
/// has it; a key already queued adds nothing.
pub struct QueueYourTurn {
    user_id: i64,
    game_id: i64,
    dedup_key: String,
    payload: String,
    now: NaiveDateTime,
}

impl<DB> diesel::query_builder::QueryFragment<DB> for QueueYourTurn
where
    DB: diesel::backend::Backend,
    i64: diesel::serialize::ToSql<diesel::sql_types::BigInt, DB>,
    str: diesel::serialize::ToSql<diesel::sql_types::Text, DB>,
    String: diesel::serialize::ToSql<diesel::sql_types::Text, DB>,
    NaiveDateTime: diesel::serialize::ToSql<diesel::sql_types::Timestamp, DB>,
{
    fn walk_ast<'b>(
        &'b self,
        mut out: diesel::query_builder::AstPass<'_, 'b, DB>,
    ) -> QueryResult<()> {
        self.push_insert(&mut out, GameIdOf::Bound(&self.game_id))
    }
}

impl QueueYourTurn {
    /// The "your move" of `user_id` in a game at `ply`, moves made on all its boards.
    pub fn new(now: NaiveDateTime, (game_id, ply): (i64, i32), user_id: i64) -> Self {
        QueueYourTurn {
            user_id,
            game_id,
            dedup_key: format!("your_turn:{game_id}:{ply}:{user_id}"),
            payload: json!({ "ply": ply }).to_string(),
            now,
        }
    }

    /// The `INSERT` for `game`: this statement, or a part of a move written in one, where it
    /// inserts nothing unless the move's claim holds.
    pub fn push_insert<'b, DB>(
        &'b self,
        out: &mut diesel::query_builder::AstPass<'_, 'b, DB>,
        game: GameIdOf<'b>,
    ) -> QueryResult<()>
    where
        DB: diesel::backend::Backend,
        i64: diesel::serialize::ToSql<diesel::sql_types::BigInt, DB>,
        str: diesel::serialize::ToSql<diesel::sql_types::Text, DB>,
        String: diesel::serialize::ToSql<diesel::sql_types::Text, DB>,
        NaiveDateTime: diesel::serialize::ToSql<diesel::sql_types::Timestamp, DB>,
    {
        use diesel::sql_types::{BigInt, Text, Timestamp};
        out.push_sql(
            "INSERT INTO outbox (kind, user_id, game_id, dedup_key, payload, status, \
             next_attempt_at, created_at) SELECT ",
        );
        out.push_bind_param::<Text, _>(Kind::YourTurn.as_str())?;
        out.push_sql(", id, ");
        game.push(out)?;
        out.push_sql(", ");
        out.push_bind_param::<Text, _>(&self.dedup_key)?;
        out.push_sql(", ");
        out.push_bind_param::<Text, _>(&self.payload)?;
        out.push_sql(", ");
        out.push_bind_param::<Text, _>(status::PENDING)?;
        out.push_sql(", ");
        out.push_bind_param::<Timestamp, _>(&self.now)?;
        out.push_sql(", ");
        out.push_bind_param::<Timestamp, _>(&self.now)?;
        out.push_sql(" FROM users WHERE id = ");
        out.push_bind_param::<BigInt, _>(&self.user_id)?;
        if let GameIdOf::Claim = game {
            out.push_sql(" AND EXISTS (SELECT 1 FROM claim)");
        }
        out.push_sql(
            " AND email_verified_at IS NOT NULL AND NOT EXISTS (SELECT 1 FROM email_preferences \
             WHERE email_preferences.user_id = users.id AND email_preferences.kind = ",
        );
        out.push_bind_param::<Text, _>(Kind::YourTurn.as_str())?;
        out.push_sql(" AND email_preferences.mode IN (");
        out.push_bind_param::<Text, _>(Mode::Digest.as_str())?;
        out.push_sql(", ");
        out.push_bind_param::<Text, _>(Mode::Off.as_str())?;
        out.push_sql(")) ON CONFLICT (dedup_key) DO NOTHING");
        Ok(())
    }
}

crate::kept_prepared!(QueueYourTurn, pub QueueYourTurnStatement);

/// `UPDATE outbox SET status = 'cancelled' … WHERE` the game's "your move" mails still
/// pending for the players of one board: the first write of every move's mail, written out as a
/// statement of one shape that both databases keep prepared (`kept_prepared!`; diesel
/// prepares every `UPDATE` it builds anew), as `game::statements` does for the move's own rows.
pub struct CancelWaitingYourTurn {
    pub game_id: i64,
    pub board: i32,
}

impl<DB> diesel::query_builder::QueryFragment<DB> for CancelWaitingYourTurn
where
    DB: diesel::backend::Backend,
    i64: diesel::serialize::ToSql<diesel::sql_types::BigInt, DB>,
    i32: diesel::serialize::ToSql<diesel::sql_types::Integer, DB>,
    str: diesel::serialize::ToSql<diesel::sql_types::Text, DB>,
{
    fn walk_ast<'b>(
        &'b self,
        mut out: diesel::query_builder::AstPass<'_, 'b, DB>,
    ) -> QueryResult<()> {
        self.push_update(&mut out, GameIdOf::Bound(&self.game_id))
    }
}

impl CancelWaitingYourTurn {
    /// The `UPDATE` for `game`: this statement, or a part of a move written in one.
    pub fn push_update<'b, DB>(
        &'b self,
        out: &mut diesel::query_builder::AstPass<'_, 'b, DB>,
        game: GameIdOf<'b>,
    ) -> QueryResult<()>
    where
        DB: diesel::backend::Backend,
        i64: diesel::serialize::ToSql<diesel::sql_types::BigInt, DB>,
        i32: diesel::serialize::ToSql<diesel::sql_types::Integer, DB>,
        str: diesel::serialize::ToSql<diesel::sql_types::Text, DB>,
    {
        use diesel::sql_types::{Integer, Text};
        out.push_sql("UPDATE outbox SET status = ");
        out.push_bind_param::<Text, _>(status::CANCELLED)?;
        out.push_sql(", last_error = ");
        out.push_bind_param::<Text, _>("superseded by a later move")?;
        out.push_sql(" WHERE game_id = ");
        game.push(out)?;
        out.push_sql(" AND kind = ");
        out.push_bind_param::<Text, _>(Kind::YourTurn.as_str())?;
        out.push_sql(" AND status = ");
        out.push_bind_param::<Text, _>(status::PENDING)?;
        out.push_sql(" AND user_id IN (SELECT user_id FROM game_players WHERE game_id = ");
        game.push(out)?;
        out.push_sql(" AND board = ");
        out.push_bind_param::<Integer, _>(&self.board)?;
        out.push_sql(")");
        Ok(())
    }
}

crate::kept_prepared!(CancelWaitingYourTurn, pub CancelWaitingYourTurnStatement);

fn seat(
    conn: &mut DbConnection,
    game_id: i64,
    board: i32,
    color: &str,
) -> QueryResult<Option<i64>> {
    game_players::table
        .filter(game_players::game_id.eq(game_id))
        .filter(game_players::board.eq(board))
        .filter(game_players::color.eq(color))
        .select(game_players::user_id)
        .get_result(conn)
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
        let key = format!("game_over:{game_id}:{user_id}");
        notify(
            conn,
            now,
            (Kind::GameOver, user_id, Some(game_id)),
            &key,
            json!({}),
        )?;
    }
    Ok(())
}

/// A draw was offered by `offerer`: the opponent gets a mail (skipped at sending time when
/// the offer no longer stands).
pub fn draw_offered(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    record: &GameRecord,
    offerer: Seat,
) -> QueryResult<()> {
    draw_event(conn, now, Kind::DrawOffered, record, ("offerer", offerer))
}

/// `decliner` declined the standing draw offer: the player who offered it gets a mail (with
/// the decliner's message, if any). A waiting "draw offered" mail of the game is cancelled.
pub fn draw_declined(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    record: &GameRecord,
    decliner: Seat,
) -> QueryResult<()> {
    supersede(
        conn,
        record.game.id,
        &[Kind::DrawOffered],
        "the draw offer was declined",
    )?;
    draw_event(
        conn,
        now,
        Kind::DrawDeclined,
        record,
        ("decliner", decliner),
    )
}

/// A draw offer or its refusal by the player in seat `actor`, for the opponent on the same
/// board: key `{kind}:{game}:{ply}:{recipient}`, payload the ply, the board and the actor's
/// colour under `role`.
fn draw_event(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    kind: Kind,
    record: &GameRecord,
    (role, actor): (&str, Seat),
) -> QueryResult<()> {
    let Some(recipient) = record.player(actor.opponent()) else {
        return Ok(());
    };
    let (game_id, ply, user_id) = (record.game.id, record.game.ply, recipient.user_id);
    let key = format!("{}:{game_id}:{ply}:{user_id}", kind.as_str());
    let mut payload = json!({ "ply": ply, "board": actor.board });
    payload[role] = json!(color_name(actor.color));
    notify(conn, now, (kind, user_id, Some(game_id)), &key, payload)?;
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
    let key = format!("challenge_received:{}", challenge.id);
    challenge_mail(conn, now, challenge, user_id, &key)
}

/// The "challenged" mail of `challenge` to `user_id`, once per `key`.
fn challenge_mail(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    challenge: &Challenge,
    user_id: i64,
    key: &str,
) -> QueryResult<()> {
    let payload = json!({ "challenge_id": challenge.id });
    notify(
        conn,
        now,
        (Kind::ChallengeReceived, user_id, None),
        key,
        payload,
    )?;
    Ok(())
}

/// A seat of a four-seat challenge was offered to `user_id` by name: they get a mail.
pub fn seat_offered(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    challenge: &Challenge,
    user_id: i64,
) -> QueryResult<()> {
    let key = format!("challenge_received:{}:{user_id}", challenge.id);
    challenge_mail(conn, now, challenge, user_id, &key)
}

/// A challenge was accepted and its game created: its author gets a mail.
pub fn challenge_accepted(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    challenge: &Challenge,
    game_id: i64,
) -> QueryResult<()> {
    let user_id = challenge.creator_id;
    let key = format!("challenge_accepted:{}", challenge.id);
    let payload = json!({ "challenge_id": challenge.id });
    notify(
        conn,
        now,
        (Kind::ChallengeAccepted, user_id, Some(game_id)),
        &key,
        payload,
    )?;
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

/// When a "time running low" mail is due in one turn, as `(name, moment)`: after `fraction`
/// of the time for the move (`started` to `deadline`) is gone, and when `hours` are left
/// (only when the whole time is longer than that). A zero switches a threshold off. Time is
/// the clock's: the player's `leave` between the two stands still, so a turn begun on leave,
/// or leave ended early, counts only the time the clock runs.
pub fn low_time_thresholds(
    started: NaiveDateTime,
    deadline: NaiveDateTime,
    leave: &[LeavePeriod],
    fraction: f64,
    hours: i64,
) -> Vec<(String, NaiveDateTime)> {
    let (from, to) = (epoch(started), epoch(deadline));
    let total = to - from - leave_within(from, to, leave);
    let mut out = Vec::new();
    if total <= 0 {
        return out;
    }
    // The moment the clock has run `spent` seconds of the turn.
    let after = |spent: i64| from_epoch(deadline_with_leave(from, spent, leave));
    if fraction > 0.0 && fraction < 1.0 {
        let gone = (total as f64 * fraction).round() as i64;
        let percent = (fraction * 100.0).round() as i64;
        out.push((format!("{percent}pct"), after(gone)));
    }
    if hours > 0 && total > hours * 3600 {
        out.push((format!("{hours}h"), after(total - hours * 3600)));
    }
    out
}

/// The leave of the player to move on each of `boards` (game, board, turn), keyed by game and
/// board: two queries for the lot, and only leave that ends after `since`.
fn leave_of_players_to_move(
    conn: &mut DbConnection,
    boards: &[(i64, i32, String)],
    since: NaiveDateTime,
) -> QueryResult<HashMap<(i64, i32), Vec<LeavePeriod>>> {
    let mut games: Vec<i64> = boards.iter().map(|(game_id, _, _)| *game_id).collect();
    games.sort_unstable();
    games.dedup();
    let mut seats: Vec<(i64, i32, String, i64)> = Vec::new();
    for chunk in games.chunks(500) {
        seats.extend(
            game_players::table
                .filter(game_players::game_id.eq_any(chunk))
                .select((
                    game_players::game_id,
                    game_players::board,
                    game_players::color,
                    game_players::user_id,
                ))
                .load::<(i64, i32, String, i64)>(conn)?,
        );
    }
    let turns: HashMap<(i64, i32), &str> = boards
        .iter()
        .map(|(game_id, board, turn)| ((*game_id, *board), turn.as_str()))
        .collect();
    let to_move: HashMap<(i64, i32), i64> = seats
        .into_iter()
        .filter(|(game_id, board, color, _)| {
            turns.get(&(*game_id, *board)) == Some(&color.as_str())
        })
        .map(|(game_id, board, _, user_id)| ((game_id, board), user_id))
        .collect();
    let mut users: Vec<i64> = to_move.values().copied().collect();
    users.sort_unstable();
    users.dedup();
    let mut periods: HashMap<i64, Vec<LeavePeriod>> = HashMap::new();
    for chunk in users.chunks(500) {
        let rows: Vec<(i64, NaiveDateTime, NaiveDateTime)> = leaves::table
            .filter(leaves::user_id.eq_any(chunk))
            .filter(leaves::ends_at.gt(since))
            .select((leaves::user_id, leaves::starts_at, leaves::ends_at))
            .load(conn)?;
        for (user_id, start, end) in rows {
            periods
                .entry(user_id)
                .or_default()
                .push(leave_period(start, end));
        }
    }
    Ok(to_move
        .into_iter()
        .filter_map(|(board, user_id)| Some((board, periods.get(&user_id)?.clone())))
        .collect())
}

/// The worker's scan: the player to move gets one "time running low" mail per turn and
/// crossed threshold. A pass reads only the boards whose look is due
/// (`game_boards.low_time_at`, set when their deadline is written): for each it queues the
/// mail of the thresholds crossed, then sets the next look to the turn's next threshold, or
/// clears it when none is left, so a pass over thousands of running games reads the few whose
/// moment has come. The thresholds count the clock's time, so the leave of the player to move
/// is read for the boards looked at ([`low_time_thresholds`]). The dedup key
/// `low_time:{game}:{ply}:{threshold}` makes repeated passes and several workers add nothing; a
/// move changes the ply and writes a new look, so the next turn starts afresh. Booking, ending
/// or cancelling leave writes the deadline again, and so a new look. A change of
/// `low_time_fraction` or `low_time_hours` applies from each board's next look. Returns the
/// mails added.
pub fn low_time(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    fraction: f64,
    hours: i64,
) -> QueryResult<usize> {
    type Due = (
        i64,
        i32,
        i32,
        i32,
        String,
        String,
        Option<NaiveDateTime>,
        Option<NaiveDateTime>,
        NaiveDateTime,
    );
    // The game's status is checked here, not in the query: asked there, SQLite would read
    // every running game by status rather than the few boards due from their index.
    let boards: Vec<Due> = game_boards::table
        .inner_join(games::table)
        .filter(game_boards::low_time_at.le(now))
        .select((
            games::id,
            game_boards::board,
            game_boards::ply,
            games::ply,
            games::status,
            game_boards::turn,
            game_boards::deadline_at,
            game_boards::last_move_at,
            games::created_at,
        ))
        .load(conn)?;
    // The player to move's leave, read only for boards whose turn may cross a threshold.
    let playing = |game_status: &str, deadline: &Option<NaiveDateTime>| {
        game_status == GameStatus::Started.as_str() && deadline.is_some_and(|d| d > now)
    };
    let turns: Vec<(i64, i32, String)> = boards
        .iter()
        .filter(|b| playing(&b.4, &b.6))
        .map(|b| (b.0, b.1, b.5.clone()))
        .collect();
    let earliest_start = boards
        .iter()
        .map(|b| b.7.unwrap_or(b.8))
        .min()
        .unwrap_or(now);
    let leave = if turns.is_empty() {
        HashMap::new()
    } else {
        leave_of_players_to_move(conn, &turns, earliest_start)?
    };
    let mut looks = Vec::with_capacity(boards.len());
    let mut due = Vec::new();
    for (game_id, board, board_ply, ply, game_status, turn, deadline, last_move_at, created_at) in
        boards
    {
        // A minesweeper setup's deadline is for placing bombs: its look is written again,
        // with the first move's deadline, when play starts. A deadline passed (a game left
        // for the opponent to claim) is too late to warn of: its look is cleared, and a new
        // deadline brings a new one.
        let started = last_move_at.unwrap_or(created_at);
        let on_leave = leave.get(&(game_id, board)).map_or(&[][..], Vec::as_slice);
        let (mut crossed, ahead): (Vec<_>, Vec<_>) = deadline
            .filter(|_| playing(&game_status, &deadline))
            .map(|deadline| low_time_thresholds(started, deadline, on_leave, fraction, hours))
            .unwrap_or_default()
            .into_iter()
            .partition(|(_, at)| *at <= now);
        crossed.sort_by_key(|(_, at)| *at);
        let next = ahead.iter().map(|(_, at)| *at).min();
        // (Every writer of a look writes a deadline with it: a board without one is left.)
        if let Some(deadline) = deadline {
            looks.push(NextLook {
                game_id,
                board,
                board_ply,
                deadline,
                next,
            });
        }
        if let Some((last, _)) = crossed.last() {
            let key = format!("low_time:{game_id}:{ply}:{last}");
            due.push((key, (game_id, board, ply, turn, crossed)));
        }
    }
    // A turn whose last crossed threshold is queued was dealt with by an earlier look (the
    // earlier thresholds in the same transaction), or by another worker.
    let mut done: std::collections::HashSet<String> = std::collections::HashSet::new();
    for chunk in due.chunks(500) {
        let keys: Vec<&str> = chunk.iter().map(|(key, _)| key.as_str()).collect();
        done.extend(
            outbox::table
                .filter(outbox::dedup_key.eq_any(&keys))
                .select(outbox::dedup_key)
                .load::<String>(conn)?,
        );
    }
    let mut added = 0;
    for (key, (game_id, board, ply, turn, crossed)) in due {
        if done.contains(&key) {
            continue;
        }
        let Some(user_id) = seat(conn, game_id, board, &turn)? else {
            continue;
        };
        if mode_of(conn, user_id, Kind::LowTime)? != Mode::Immediate {
            continue;
        }
        // Thresholds crossed together (a worker that was down, a short time for the move)
        // give one mail: the earlier ones are recorded as cancelled so they never come.
        // One transaction, so no worker claims an earlier row before it is cancelled.
        added += crate::db::write_transaction(conn, |conn| -> QueryResult<usize> {
            let mut added = 0;
            let last = crossed.len() - 1;
            for (i, (threshold, _)) in crossed.into_iter().enumerate() {
                let key = format!("low_time:{game_id}:{ply}:{threshold}");
                let payload = json!({ "ply": ply, "threshold": threshold });
                if !queue(
                    conn,
                    now,
                    Kind::LowTime,
                    user_id,
                    Some(game_id),
                    &key,
                    payload,
                )? {
                    continue;
                }
                if i == last {
                    added += 1;
                } else {
                    diesel::update(outbox::table.filter(outbox::dedup_key.eq(&key)))
                        .set((
                            outbox::status.eq(status::CANCELLED),
                            outbox::last_error.eq("a later threshold was crossed as well"),
                        ))
                        .execute(conn)?;
                }
            }
            Ok(added)
        })?;
    }
    // The next looks, written once the mails are queued (a pass that fails before this
    // looks again next time; the dedup keys keep it from mailing twice).
    for chunk in looks.chunks(200) {
        crate::db::write_transaction(conn, |conn| {
            chunk.iter().try_for_each(|look| look.write(conn))
        })?;
    }
    Ok(added)
}

/// When the time-running-low scan looks at a board next: at the turn's next threshold, or
/// never again this turn.
struct NextLook {
    game_id: i64,
    board: i32,
    /// The board as the scan read it: a move or a new deadline since then wrote a look of its
    /// own, which this one must not overwrite.
    board_ply: i32,
    deadline: NaiveDateTime,
    next: Option<NaiveDateTime>,
}

impl NextLook {
    fn write(&self, conn: &mut DbConnection) -> QueryResult<()> {
        diesel::update(
            game_boards::table
                .filter(game_boards::game_id.eq(self.game_id))
                .filter(game_boards::board.eq(self.board))
                .filter(game_boards::ply.eq(self.board_ply))
                .filter(game_boards::deadline_at.eq(self.deadline)),
        )
        .set(game_boards::low_time_at.eq(self.next))
        .execute(conn)?;
        Ok(())
    }
}

/// `user_id` booked leave `leave_id`: each opponent in their running games gets one mail
/// listing the games they share (one per opponent and booking, not one per game).
pub fn opponent_on_leave(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    user_id: i64,
    leave_id: i64,
) -> QueryResult<()> {
    let mine: Vec<i64> = game_players::table
        .inner_join(games::table)
        .filter(game_players::user_id.eq(user_id))
        .filter(games::status.eq(GameStatus::Started.as_str()))
        .select(games::id)
        .load(conn)?;
    let mut pairs: Vec<(i64, i64)> = game_players::table
        .filter(game_players::game_id.eq_any(&mine))
        .filter(game_players::user_id.ne(user_id))
        .select((game_players::user_id, game_players::game_id))
        .load(conn)?;
    pairs.sort_unstable();
    pairs.dedup();
    let mut opponents: Vec<(i64, Vec<i64>)> = Vec::new();
    for (opponent, game_id) in pairs {
        match opponents.last_mut() {
            Some((o, games)) if *o == opponent => games.push(game_id),
            _ => opponents.push((opponent, vec![game_id])),
        }
    }
    for (opponent, game_ids) in opponents {
        let key = format!("opponent_on_leave:{leave_id}:{opponent}");
        let payload = json!({ "leave_id": leave_id, "player": user_id, "games": game_ids });
        notify(
            conn,
            now,
            (Kind::OpponentOnLeave, opponent, None),
            &key,
            payload,
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::Duration;

    fn at(hours: i64) -> NaiveDateTime {
        chrono::DateTime::from_timestamp(hours * 3600, 0)
            .unwrap()
            .naive_utc()
    }

    #[test]
    fn thresholds_by_share_and_by_hours_left() {
        assert_eq!(
            low_time_thresholds(at(0), at(72), &[], 0.8, 24),
            vec![
                ("80pct".to_string(), at(0) + Duration::minutes(3456)),
                ("24h".to_string(), at(48)),
            ]
        );
        // A move with no more than 24 hours gets the share threshold only; zeros switch off.
        assert_eq!(low_time_thresholds(at(0), at(24), &[], 0.8, 24).len(), 1);
        assert!(low_time_thresholds(at(0), at(72), &[], 0.0, 0).is_empty());
        assert!(low_time_thresholds(at(5), at(5), &[], 0.8, 24).is_empty());
    }

    #[test]
    fn thresholds_count_the_clock_not_the_leave() {
        let leave = |from: i64, to: i64| leave_period(at(from), at(to));
        // A day for the move, begun an hour into leave that ended at hour 34: the deadline is
        // at hour 58, the whole day still to come; 80% of it is gone at hour 53.2, and no
        // "24 hours left", however long ago the turn began.
        assert_eq!(
            low_time_thresholds(at(1), at(58), &[leave(0, 34)], 0.8, 24),
            vec![("80pct".to_string(), at(53) + Duration::minutes(12))]
        );
        // Three days with leave in the middle: the thresholds step over it.
        assert_eq!(
            low_time_thresholds(at(0), at(96), &[leave(10, 34)], 0.8, 24),
            vec![
                ("80pct".to_string(), at(24) + Duration::minutes(3456)),
                ("24h".to_string(), at(72)),
            ]
        );
        // Leave booked for the last hours of the turn: 24 hours left before it begins.
        assert_eq!(
            low_time_thresholds(at(0), at(96), &[leave(60, 84)], 0.8, 24),
            vec![
                ("80pct".to_string(), at(0) + Duration::minutes(3456)),
                ("24h".to_string(), at(48)),
            ]
        );
    }
}
