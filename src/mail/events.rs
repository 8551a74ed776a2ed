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

/// The recipient's colour on their board and the name of the side they play against: the
/// opponent, or in a bughouse match the other team ("bob & carol").
fn sides(record: &GameRecord, user: &User) -> Option<(Color, String)> {
    let seat = record.seat_of(user.id)?;
    Some((seat.color, record.side_name(!seat.side())))
}

/// The last move on the recipient's board (the only one outside bughouse), numbered.
fn last_move_on(record: &GameRecord, board: i32) -> Option<String> {
    record
        .moves
        .iter()
        .rfind(|m| m.board == board)
        .map(|m| numbered_move(m.ply, &m.san))
}

/// The board the recipient plays on, with its position: the only one outside bughouse.
fn own_board<'r>(record: &'r GameRecord, user: &User) -> Option<&'r crate::game::BoardState> {
    record.board(record.seat_of(user.id)?.board)
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
        opponent: record.shown_name_of(seat.opponent()),
        game_id: record.game.id,
        game_url: game_url(ctx, record),
        variant: variant_name(&record.game.variant),
        last_move: last.map(|m| numbered_move(m.ply, &m.san)),
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
        last_move: last_move_on(record, own_board(record, user)?.board),
        diagram: diagram(&own_board(record, user)?.fen, color)
            .with_picture(picture_url(ctx, record, color)),
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
    let offerer = actor_seat(payload, "offerer")?;
    let ply = payload["ply"].as_i64()?;
    let seat = record.seat_of(user.id)?;
    if seat != offerer.opponent() || !record.is_started() {
        return None;
    }
    let board = record.board(offerer.board)?;
    if board.draw_offer != Some(offerer.color) {
        return None;
    }
    let message = comment_at(record, record.player(offerer)?.user_id, ply);
    Some(DrawOfferedEmail {
        name: user.username.clone(),
        opponent: record.shown_name_of(offerer),
        game_id: record.game.id,
        game_url: game_url(ctx, record),
        variant: variant_name(&record.game.variant),
        message,
        diagram: diagram(&board.fen, seat.color)
            .with_picture(picture_url(ctx, record, seat.color)),
        footer: ctx.footer(
            user.id,
            Kind::DrawOffered,
            "You get this mail because your opponent offered a draw in a game you play on Slowfuse and draw-offer mails are on in your settings.",
        ),
    })
}

/// The seat of the player who offered or declined a draw, from an event's payload: its board
/// (board a for events written before boards were named) and the colour under `role`.
fn actor_seat(payload: &serde_json::Value, role: &str) -> Option<crate::game::Seat> {
    Some(crate::game::Seat {
        board: i32::try_from(payload["board"].as_i64().unwrap_or(0)).ok()?,
        color: parse_color(payload[role].as_str()?)?,
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
    let decliner = actor_seat(payload, "decliner")?;
    let ply = payload["ply"].as_i64()?;
    let seat = record.seat_of(user.id)?;
    if seat != decliner.opponent() || !record.is_started() {
        return None;
    }
    let message = comment_at(record, record.player(decliner)?.user_id, ply);
    Some(DrawDeclinedEmail {
        name: user.username.clone(),
        opponent: record.shown_name_of(decliner),
        game_id: record.game.id,
        game_url: game_url(ctx, record),
        variant: variant_name(&record.game.variant),
        message,
        your_move: record.board(seat.board).map(|b| b.turn) == Some(seat.color),
        footer: ctx.footer(
            user.id,
            Kind::DrawDeclined,
            "You get this mail because your opponent declined your draw offer in a game you play on Slowfuse and these mails are on in your settings.",
        ),
    })
}

fn challenge_accepted(ctx: &Context, user: &User, record: &GameRecord) -> ChallengeAcceptedEmail {
    let seat = record
        .seat_of(user.id)
        .unwrap_or(crate::game::Seat::first_board(Color::White));
    let two_boards = record.board(1).is_some();
    let your_color = match (two_boards, seat.board) {
        (false, _) => crate::game::color_name(seat.color).to_string(),
        (true, 0) => format!("{} on board a", crate::game::color_name(seat.color)),
        (true, _) => format!("{} on board b", crate::game::color_name(seat.color)),
    };
    let board_turn = record.board(seat.board).map(|b| b.turn);
    let setup_until = (record.status == crate::game::GameStatus::Setup)
        .then_some(record.game.deadline_at)
        .flatten()
        .map(|d| local_words(d, user));
    ChallengeAcceptedEmail {
        name: user.username.clone(),
        opponent: record.side_name(!seat.side()),
        partner: two_boards.then(|| {
            record.shown_name_of(crate::game::Seat {
                board: 1 - seat.board,
                color: !seat.color,
            })
        }),
        game_id: record.game.id,
        game_url: game_url(ctx, record),
        variant: variant_name(&record.game.variant),
        your_color,
        your_move: record.is_started() && board_turn == Some(seat.color),
        first_mover: record.shown_name_of(seat.opponent()),
        setup_until,
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
        last_move: last_move_on(record, 0),
        diagram: diagram(&record.first_board().fen, color).with_picture(picture_url(ctx, record, color)),
        footer: ctx.footer(
            user.id,
            Kind::LowTime,
            "You get this mail because your time for a move in a game you play on Slowfuse is running low and these mails are on in your settings.",
        ),
    })
}
