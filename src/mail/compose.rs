//! Composing one outbox row into a mail, from the state of its game and its user at sending
//! time: a mail whose reason has passed (a later move, a withdrawn offer) is skipped instead.

use chrono::{Duration, NaiveDateTime};
use lettre::Message;
use lettre::message::Mailbox;
use slowfuse_rules::{Color, Variant};

use super::diagram::diagram;
use super::messages::*;
use super::tokens::Signer;
use crate::config::Settings;
use crate::db::DbConnection;
use crate::game::clock::from_columns;
use crate::game::{GameRecord, load_game, parse_color};
use crate::models::{OutboxRow, User};
use crate::usecases::accounts::user_by_id;
use crate::usecases::challenges::challenge_by_id;
use crate::usecases::email_settings::time_zone;
use crate::usecases::notify::{self, Kind, Mode, VERIFY_LINK_DAYS};

/// What the composer needs besides the database.
pub struct Context<'a> {
    pub settings: &'a Settings,
    pub signer: &'a Signer,
    /// The public URL's host, the right side of every Message-ID.
    pub host: String,
    pub from: Mailbox,
}

impl Context<'_> {
    pub(super) fn url(&self, path: &str) -> String {
        format!("{}{path}", self.settings.server.public_url)
    }

    /// The one-click link that switches `kind` off for this user.
    fn unsubscribe_url(&self, user_id: i64, kind: Kind) -> String {
        let token = self.signer.unsubscribe_token(user_id, kind.as_str());
        self.url(&format!("/unsubscribe?token={token}"))
    }

    pub(super) fn footer(&self, user_id: i64, kind: Kind, reason: &str) -> Footer {
        Footer {
            reason: reason.to_string(),
            unsubscribe_url: Some(self.unsubscribe_url(user_id, kind)),
            settings_url: self.url("/account#notifications"),
        }
    }
}

/// A row turned into a mail (with its Message-ID), or the reason it is not to be sent.
pub enum Composed {
    Mail(Box<Message>, String),
    Skip(String),
}

/// A row that could not be composed: the database failed, or something else (a template).
pub enum ComposeFailure {
    Db(diesel::result::Error),
    Other(String),
}

impl From<diesel::result::Error> for ComposeFailure {
    fn from(e: diesel::result::Error) -> Self {
        ComposeFailure::Db(e)
    }
}

impl From<ComposeError> for ComposeFailure {
    fn from(e: ComposeError) -> Self {
        ComposeFailure::Other(e.to_string())
    }
}

/// Reads what the mail needs now (not when the event happened: a mail that became stale is
/// skipped) and builds it.
pub fn compose(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    ctx: &Context,
    row: &OutboxRow,
) -> Result<Composed, ComposeFailure> {
    let skip = |reason: &str| Ok(Composed::Skip(reason.to_string()));
    let Some(kind) = Kind::parse(&row.kind) else {
        return skip("unknown kind of mail");
    };
    let Some(user) = user_by_id(conn, row.user_id)? else {
        return skip("the user is gone");
    };
    if let Some(reason) = refusal(conn, &user, kind)? {
        return skip(reason);
    }
    let Ok(address) = user.email.parse() else {
        return skip("the address is not valid");
    };
    let body = match body_for(conn, now, ctx, row, kind, &user)? {
        Ok(body) => body,
        Err(reason) => return skip(reason),
    };
    let envelope = Envelope {
        to: Mailbox::new(Some(user.username.clone()), address),
        message_id: message_id(row.id, &ctx.host),
        thread: row.game_id.map(|g| game_thread(g, &ctx.host)),
        unsubscribe_url: (kind != Kind::VerifyEmail).then(|| ctx.unsubscribe_url(user.id, kind)),
        date: now,
    };
    let message = build_message(&ctx.from, &envelope, body.as_ref())?;
    Ok(Composed::Mail(Box::new(message), envelope.message_id))
}

/// Why this user gets no mail of this kind now, if so: only the confirmation mail goes to an
/// unconfirmed address, and never to a confirmed one; other kinds may be switched off.
fn refusal(
    conn: &mut DbConnection,
    user: &User,
    kind: Kind,
) -> Result<Option<&'static str>, ComposeFailure> {
    let verified = user.email_verified_at.is_some();
    Ok(match kind {
        Kind::VerifyEmail if verified => Some("the address is already confirmed"),
        Kind::VerifyEmail => None,
        _ if !verified => Some("the address is not confirmed"),
        Kind::Digest => (!crate::usecases::email_settings::settings_of(conn, user.id)?
            .uses_digest())
        .then_some("no kind waits for the digest any more"),
        _ => match notify::mode_of(conn, user.id, kind)? {
            Mode::Immediate => None,
            Mode::Digest => Some("moved to the daily digest by the user"),
            Mode::Off => Some("switched off by the user"),
        },
    })
}

pub(super) type Body = Box<dyn EmailBody>;

/// The mail's subject and parts, or why it is no longer to be sent.
pub(super) fn body_for(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    ctx: &Context,
    row: &OutboxRow,
    kind: Kind,
    user: &User,
) -> Result<Result<Body, &'static str>, ComposeFailure> {
    let payload: serde_json::Value = serde_json::from_str(&row.payload).unwrap_or_default();
    let record = match row.game_id {
        Some(id) => load_game(conn, id)?,
        None => None,
    };
    fn boxed<T: EmailBody + 'static>(
        mail: Option<T>,
        why: &'static str,
    ) -> Result<Body, &'static str> {
        mail.map(|m| Box::new(m) as Body).ok_or(why)
    }
    Ok(match (kind, &record) {
        (Kind::YourTurn, Some(r)) => boxed(your_turn(ctx, user, r), "no longer the user's move"),
        (Kind::GameOver, Some(r)) => boxed(game_over(ctx, user, r), "the game is not over"),
        (Kind::DrawOffered, Some(r)) => boxed(
            draw_offered(ctx, user, r, &payload),
            "the draw offer no longer stands",
        ),
        (Kind::DrawDeclined, Some(r)) => boxed(
            draw_declined(ctx, user, r, &payload),
            "the game is over or the offer was not declined",
        ),
        (Kind::Digest, _) => boxed(
            super::digest::digest(conn, now, ctx, user, &payload)?,
            "nothing to report",
        ),
        (Kind::LowTime, Some(r)) => boxed(
            low_time(now, ctx, user, r, &payload),
            "no longer the user's move",
        ),
        (Kind::OpponentOnLeave, _) => boxed(
            opponent_on_leave(conn, ctx, user, &payload)?,
            "the leave was cancelled or no game with that player is running",
        ),
        (Kind::ChallengeAccepted, Some(r)) => boxed(Some(challenge_accepted(ctx, user, r)), ""),
        (Kind::ChallengeReceived, _) => {
            let id = payload["challenge_id"].as_i64().unwrap_or(0);
            boxed(
                challenge_received(conn, ctx, user, id)?,
                "the challenge is no longer open",
            )
        }
        (Kind::VerifyEmail, _) => boxed(Some(verify_email(now, ctx, user)), ""),
        _ => Err("the game is gone"),
    })
}

fn challenge_received(
    conn: &mut DbConnection,
    ctx: &Context,
    user: &User,
    challenge_id: i64,
) -> Result<Option<ChallengeReceivedEmail>, ComposeFailure> {
    let Some(c) = challenge_by_id(conn, challenge_id)?.filter(|c| c.status == "open") else {
        return Ok(None);
    };
    let challenger =
        user_by_id(conn, c.creator_id)?.map_or_else(|| "?".to_string(), |u| u.username);
    let tc = from_columns(
        &c.time_control,
        c.days_per_move,
        c.initial_seconds,
        c.increment_seconds,
        c.cap_seconds,
    );
    Ok(Some(ChallengeReceivedEmail {
        name: user.username.clone(),
        challenger,
        variant: variant_name(&c.variant),
        time_control: tc.describe(),
        rated: c.rated,
        your_color: match c.color.as_str() {
            "white" => "black".to_string(),
            "black" => "white".to_string(),
            _ => "a colour drawn at random".to_string(),
        },
        challenges_url: ctx.url("/challenges"),
        footer: ctx.footer(
            user.id,
            Kind::ChallengeReceived,
            "You get this mail because a player challenged you on Slowfuse and challenge mails are on in your settings.",
        ),
    }))
}

fn verify_email(now: NaiveDateTime, ctx: &Context, user: &User) -> VerifyEmail {
    let expires = now + Duration::days(VERIFY_LINK_DAYS);
    let token = ctx.signer.verify_token(user.id, &user.email, expires);
    VerifyEmail {
        name: user.username.clone(),
        verify_url: ctx.url(&format!("/verify-email?token={token}")),
        expires: local_words(expires, user),
        footer: Footer {
            reason: "You get this mail because this address was given when signing up on Slowfuse."
                .to_string(),
            unsubscribe_url: None,
            settings_url: ctx.url("/account#notifications"),
        },
    }
}

pub(super) fn variant_name(stored: &str) -> String {
    stored
        .parse::<Variant>()
        .map_or_else(|_| stored.to_string(), |v| v.display_name().to_string())
}

/// A moment (stored in UTC) as the recipient reads it: in their time zone, with its
/// abbreviation, e.g. `Tuesday 1 December 2026, 14:05 CET`.
pub(super) fn local_words(t: NaiveDateTime, user: &User) -> String {
    t.and_utc()
        .with_timezone(&time_zone(&user.time_zone))
        .format("%A %-d %B %Y, %H:%M %Z")
        .to_string()
}

/// The recipient's colour and opponent's name in a game they play.
fn sides(record: &GameRecord, user: &User) -> Option<(Color, String)> {
    let color = record.seat_of(user.id)?.color;
    Some((
        color,
        record
            .name_of(crate::game::Seat::first_board(!color))
            .to_string(),
    ))
}

fn last_move(record: &GameRecord) -> Option<String> {
    record.moves.last().map(|m| numbered_move(m.ply, &m.san))
}

pub(super) fn game_url(ctx: &Context, record: &GameRecord) -> String {
    ctx.url(&format!("/games/{}", record.game.id))
}

fn your_turn(ctx: &Context, user: &User, record: &GameRecord) -> Option<YourTurnEmail> {
    let (color, opponent) = sides(record, user)?;
    if !record.is_started() || record.turn() != color {
        return None;
    }
    let last = record.moves.last();
    Some(YourTurnEmail {
        name: user.username.clone(),
        opponent,
        game_id: record.game.id,
        game_url: game_url(ctx, record),
        variant: variant_name(&record.game.variant),
        last_move: last_move(record).unwrap_or_else(|| "the first move".to_string()),
        comment: last.and_then(|m| m.comment.clone()),
        diagram: diagram(&record.game.fen, color),
        deadline: record.game.deadline_at.map(|d| local_words(d, user)),
        footer: ctx.footer(
            user.id,
            Kind::YourTurn,
            "You get this mail because it is your move in a game you play on Slowfuse and “your move” mails are on in your settings.",
        ),
    })
}

fn game_over(ctx: &Context, user: &User, record: &GameRecord) -> Option<GameOverEmail> {
    let (color, opponent) = sides(record, user)?;
    let outcome = record.stored_outcome()?;
    let verdict = match outcome.winner {
        None => "Draw",
        Some(w) if w == color => "You won",
        Some(_) => "You lost",
    };
    Some(GameOverEmail {
        name: user.username.clone(),
        opponent,
        game_id: record.game.id,
        game_url: game_url(ctx, record),
        pgn_url: ctx.url(&format!("/games/{}.pgn", record.game.id)),
        variant: variant_name(&record.game.variant),
        verdict: verdict.to_string(),
        result: record.game.result.clone(),
        termination: outcome.reason.describe().to_string(),
        last_move: last_move(record),
        diagram: diagram(&record.game.fen, color),
        footer: ctx.footer(
            user.id,
            Kind::GameOver,
            "You get this mail because a game you play on Slowfuse ended and result mails are on in your settings.",
        ),
    })
}

fn draw_offered(
    ctx: &Context,
    user: &User,
    record: &GameRecord,
    payload: &serde_json::Value,
) -> Option<DrawOfferedEmail> {
    let (color, opponent) = sides(record, user)?;
    let offerer = parse_color(payload["offerer"].as_str()?)?;
    let ply = payload["ply"].as_i64()?;
    if offerer == color || !record.is_started() {
        return None;
    }
    if record.game.draw_offer.as_deref().and_then(parse_color) != Some(offerer) {
        return None;
    }
    let message = comment_at(
        record,
        record
            .player(crate::game::Seat::first_board(offerer))?
            .user_id,
        ply,
    );
    Some(DrawOfferedEmail {
        name: user.username.clone(),
        opponent,
        game_id: record.game.id,
        game_url: game_url(ctx, record),
        variant: variant_name(&record.game.variant),
        message,
        diagram: diagram(&record.game.fen, color),
        footer: ctx.footer(
            user.id,
            Kind::DrawOffered,
            "You get this mail because your opponent offered a draw in a game you play on Slowfuse and draw-offer mails are on in your settings.",
        ),
    })
}

/// The comment `user_id` wrote at `ply` (with a draw offer or its refusal), the latest if several.
fn comment_at(record: &GameRecord, user_id: i64, ply: i64) -> Option<String> {
    record
        .messages
        .iter()
        .rev()
        .find(|m| {
            m.message.kind == "comment"
                && m.message.user_id == user_id
                && i64::from(m.message.ply) == ply
        })
        .map(|m| m.message.body.clone())
}

fn draw_declined(
    ctx: &Context,
    user: &User,
    record: &GameRecord,
    payload: &serde_json::Value,
) -> Option<DrawDeclinedEmail> {
    let (color, opponent) = sides(record, user)?;
    let decliner = parse_color(payload["decliner"].as_str()?)?;
    let ply = payload["ply"].as_i64()?;
    if decliner == color || !record.is_started() {
        return None;
    }
    let message = comment_at(
        record,
        record
            .player(crate::game::Seat::first_board(decliner))?
            .user_id,
        ply,
    );
    Some(DrawDeclinedEmail {
        name: user.username.clone(),
        opponent,
        game_id: record.game.id,
        game_url: game_url(ctx, record),
        variant: variant_name(&record.game.variant),
        message,
        your_move: record.turn() == color,
        footer: ctx.footer(
            user.id,
            Kind::DrawDeclined,
            "You get this mail because your opponent declined your draw offer in a game you play on Slowfuse and these mails are on in your settings.",
        ),
    })
}

fn challenge_accepted(ctx: &Context, user: &User, record: &GameRecord) -> ChallengeAcceptedEmail {
    let (color, opponent) = sides(record, user).unwrap_or((Color::White, "?".to_string()));
    ChallengeAcceptedEmail {
        name: user.username.clone(),
        opponent,
        game_id: record.game.id,
        game_url: game_url(ctx, record),
        variant: variant_name(&record.game.variant),
        your_color: crate::game::color_name(color).to_string(),
        your_move: record.is_started() && record.turn() == color,
        footer: ctx.footer(
            user.id,
            Kind::ChallengeAccepted,
            "You get this mail because a player accepted your challenge on Slowfuse and these mails are on in your settings.",
        ),
    }
}

/// What is left until `deadline`, in rough words.
pub(super) fn time_left_words(now: NaiveDateTime, deadline: NaiveDateTime) -> String {
    let minutes = (deadline - now).num_minutes().max(0);
    match minutes {
        0..=1 => "less than a minute".to_string(),
        2..=119 => format!("{minutes} minutes"),
        120..=2879 => format!("about {} hours", (minutes + 30) / 60),
        _ => format!("about {} days", (minutes + 720) / 1440),
    }
}

fn low_time(
    now: NaiveDateTime,
    ctx: &Context,
    user: &User,
    record: &GameRecord,
    payload: &serde_json::Value,
) -> Option<TimeRunningLowEmail> {
    let (color, opponent) = sides(record, user)?;
    let ply = payload["ply"].as_i64()?;
    if !record.is_started() || record.turn() != color || i64::from(record.game.ply) != ply {
        return None;
    }
    let deadline = record.game.deadline_at.filter(|d| *d > now)?;
    Some(TimeRunningLowEmail {
        name: user.username.clone(),
        opponent,
        game_id: record.game.id,
        game_url: game_url(ctx, record),
        variant: variant_name(&record.game.variant),
        time_left: time_left_words(now, deadline),
        deadline: local_words(deadline, user),
        last_move: last_move(record),
        diagram: diagram(&record.game.fen, color),
        footer: ctx.footer(
            user.id,
            Kind::LowTime,
            "You get this mail because your time for a move in a game you play on Slowfuse is running low and these mails are on in your settings.",
        ),
    })
}

fn opponent_on_leave(
    conn: &mut DbConnection,
    ctx: &Context,
    user: &User,
    payload: &serde_json::Value,
) -> Result<Option<OpponentOnLeaveEmail>, ComposeFailure> {
    use crate::schema::leaves;
    use diesel::prelude::*;
    let leave_id = payload["leave_id"].as_i64().unwrap_or(0);
    let Some(leave) = leaves::table
        .find(leave_id)
        .select(crate::usecases::leave::Leave::as_select())
        .first(conn)
        .optional()?
    else {
        return Ok(None);
    };
    let Some(player) = user_by_id(conn, leave.user_id)? else {
        return Ok(None);
    };
    let ids: Vec<i64> = payload["games"]
        .as_array()
        .map(|a| a.iter().filter_map(|v| v.as_i64()).collect())
        .unwrap_or_default();
    let mut games = Vec::new();
    for id in ids {
        let Some(record) = load_game(conn, id)? else {
            continue;
        };
        let Some(color) = record.seat_of(user.id).map(|s| s.color) else {
            continue;
        };
        if !record.is_started() || record.seat_of(player.id).is_none() {
            continue;
        }
        games.push(LeaveGame {
            game_id: id,
            game_url: game_url(ctx, &record),
            variant: variant_name(&record.game.variant),
            your_move: record.turn() == color,
        });
    }
    if games.is_empty() {
        return Ok(None);
    }
    let day = |t: NaiveDateTime| t.format("%A %-d %B %Y").to_string();
    Ok(Some(OpponentOnLeaveEmail {
        name: user.username.clone(),
        player: player.username,
        starts: day(leave.starts_at),
        ends: day(leave.ends_at),
        days: leave.days(),
        games,
        footer: ctx.footer(
            user.id,
            Kind::OpponentOnLeave,
            "You get this mail because a player you have a running game with on Slowfuse booked leave and these mails are on in your settings.",
        ),
    }))
}
