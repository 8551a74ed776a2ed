//! The mail for one event, from the state at sending time: each kind's email struct, or why
//! the event no longer warrants a mail (no longer your move, the offer withdrawn, …).

use chrono::NaiveDateTime;
use slowfuse_rules::Color;

use super::context::{Body, ComposeFailure, Context, boxed, game_url, picture_url};
use super::diagram::diagram;
use super::messages::*;
use super::notices::{challenge_received, opponent_on_leave, verify_email};
use super::words::{local_words, time_left_words, variant_name};
use crate::db::DbConnection;
use crate::game::clock::epoch;
use crate::game::{GameRecord, load_game, parse_color};
use crate::models::{OutboxRow, User};
use crate::usecases::notify::Kind;

/// The mail's subject and parts for an event, or why it is no longer to be sent. The daily
/// digest is no event: `compose` builds it (and the digest lists events through this).
pub(super) fn event_body(
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

fn your_turn(ctx: &Context, user: &User, record: &GameRecord) -> Option<YourTurnEmail> {
    // The recipient's own board: in bughouse the other board has its own turn.
    let seat = record.seat_of(user.id)?;
    let board = record.board(seat.board)?;
    if !record.is_started() || board.turn != seat.color {
        return None;
    }
    let last = record.moves.iter().rfind(|m| m.board == seat.board);
    Some(YourTurnEmail {
        name: user.username.clone(),
        opponent: record.name_of(seat.opponent()).to_string(),
        game_id: record.game.id,
        game_url: game_url(ctx, record),
        variant: variant_name(&record.game.variant),
        last_move: last
            .map(|m| numbered_move(m.ply, &m.san))
            .unwrap_or_else(|| "the first move".to_string()),
        comment: last.and_then(|m| m.comment.clone()),
        diagram: diagram(&board.fen, seat.color).with_picture(picture_url(ctx, record, seat.color)),
        deadline: board.deadline_at.map(|d| local_words(d, user)),
        footer: ctx.footer(
            user.id,
            Kind::YourTurn,
            "You get this mail because it is your move in a game you play on Slowfuse and “your move” mails are on in your settings.",
        ),
    })
}

fn game_over(ctx: &Context, user: &User, record: &GameRecord) -> Option<GameOverEmail> {
    let (color, opponent) = sides(record, user)?;
    let (won, termination) = match record.stored_match_outcome() {
        // A bughouse match: won or lost with the partner, as a team.
        Some(outcome) => {
            let team = record.seat_of(user.id)?.bughouse()?.team();
            (
                outcome.winner.map(|w| w == team),
                outcome.reason.describe().to_string(),
            )
        }
        None => {
            let outcome = record.stored_outcome()?;
            (
                outcome.winner.map(|w| w == color),
                outcome.reason.describe_in(&record.game.variant).to_string(),
            )
        }
    };
    let verdict = match won {
        None => "Draw",
        Some(true) => "You won",
        Some(false) => "You lost",
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
        termination,
        last_move: last_move(record),
        diagram: diagram(&record.first_board().fen, color).with_picture(picture_url(ctx, record, color)),
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
    if record.first_board().draw_offer != Some(offerer) {
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
        diagram: diagram(&record.first_board().fen, color).with_picture(picture_url(ctx, record, color)),
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
    let deadline = record.first_board().deadline_at.filter(|d| *d > now)?;
    // The time the clock runs until the deadline: leave booked meanwhile stands still.
    let leave = record
        .player(crate::game::Seat::first_board(color))
        .map_or(&[][..], |p| p.leave.as_slice());
    let (from, to) = (epoch(now), epoch(deadline));
    let running = to - from - slowfuse_rules::leave_within(from, to, leave);
    Some(TimeRunningLowEmail {
        name: user.username.clone(),
        opponent,
        game_id: record.game.id,
        game_url: game_url(ctx, record),
        variant: variant_name(&record.game.variant),
        time_left: time_left_words(now, now + chrono::Duration::seconds(running)),
        deadline: local_words(deadline, user),
        last_move: last_move(record),
        diagram: diagram(&record.first_board().fen, color).with_picture(picture_url(ctx, record, color)),
        footer: ctx.footer(
            user.id,
            Kind::LowTime,
            "You get this mail because your time for a move in a game you play on Slowfuse is running low and these mails are on in your settings.",
        ),
    })
}
