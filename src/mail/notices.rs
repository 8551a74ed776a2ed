//! The mails not about a position on the board: a challenge received, an address to confirm,
//! an opponent's leave.

use chrono::{Duration, NaiveDateTime};
use slowfuse_rules::bughouse::Seat as BughouseSeat;

use super::context::{ComposeFailure, Context, game_url};
use super::messages::*;
use super::words::{local_words, variant_name};
use crate::db::DbConnection;
use crate::game::clock::challenge_time_control;
use crate::game::load_game;
use crate::models::User;
use crate::usecases::accounts::user_by_id;
use crate::usecases::challenges::challenge_by_id;
use crate::usecases::notify::{Kind, VERIFY_LINK_DAYS};

pub(super) fn challenge_received(
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
    let tc = challenge_time_control(&c);
    Ok(Some(ChallengeReceivedEmail {
        name: user.username.clone(),
        challenger,
        variant: variant_name(&c.variant),
        time_control: tc.describe(),
        rated: c.rated,
        your_color: match c.color.as_str() {
            "white" => "black".to_string(),
            "black" => "white".to_string(),
            _ => match offered_seat(conn, c.id, user.id)? {
                Some(seat) => describe_seat(seat),
                None => "a colour drawn at random".to_string(),
            },
        },
        challenges_url: ctx.url("/challenges"),
        footer: ctx.footer(
            user.id,
            Kind::ChallengeReceived,
            "You get this mail because a player challenged you on Slowfuse and challenge mails are on in your settings.",
        ),
    }))
}

/// The seat of a four-seat challenge offered to `user_id` by name.
fn offered_seat(
    conn: &mut DbConnection,
    challenge_id: i64,
    user_id: i64,
) -> Result<Option<BughouseSeat>, ComposeFailure> {
    let seated = crate::usecases::seats::seated_challenge(conn, challenge_id)?;
    Ok(seated.and_then(|s| {
        s.seats
            .iter()
            .find(|v| v.invited.as_ref().is_some_and(|(id, _)| *id == user_id))
            .map(|v| v.seat)
    }))
}

/// A bughouse seat in words: "seat B1 (Black on board a, team B)".
pub fn describe_seat(seat: BughouseSeat) -> String {
    format!(
        "seat {seat} ({} on board {}, {})",
        if seat.color() == slowfuse_rules::Color::White {
            "White"
        } else {
            "Black"
        },
        seat.board().to_string().to_lowercase(),
        seat.team()
    )
}

pub(super) fn verify_email(now: NaiveDateTime, ctx: &Context, user: &User) -> VerifyEmail {
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

/// The mail telling `user` that an opponent booked leave, or none when the leave was cancelled
/// or no game of the payload's `games` still runs between them.
pub(super) fn opponent_on_leave(
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
        .get_result(conn)
        .optional()?
    else {
        return Ok(None);
    };
    let Some(player) = user_by_id(conn, leave.user_id)? else {
        return Ok(None);
    };
    let games = games_with(conn, ctx, user, player.id, payload)?;
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

/// The payload's games that still run between `user` and the player on leave.
fn games_with(
    conn: &mut DbConnection,
    ctx: &Context,
    user: &User,
    player_id: i64,
    payload: &serde_json::Value,
) -> diesel::QueryResult<Vec<LeaveGame>> {
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
        if !record.is_started() || record.seat_of(player_id).is_none() {
            continue;
        }
        games.push(LeaveGame {
            game_id: id,
            game_url: game_url(ctx, &record),
            variant: variant_name(&record.game.variant),
            your_move: record.turn() == color,
        });
    }
    Ok(games)
}
