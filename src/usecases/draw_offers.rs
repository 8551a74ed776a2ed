//! Draw offers, written once for every kind of game: offering a draw to the opponent on one's
//! board, accepting, declining and withdrawing it. Each step is kept as an event at the ply it
//! happened (the move list, the game JSON and the PGN show it); an offer and a refusal are
//! mailed to the opponent. An offer made while the opponent's own offer stands is an
//! agreement. Ending the game as a draw is the caller's, by its kind's rules, when the step
//! says the players agreed.

use chrono::NaiveDateTime;

use crate::db::DbConnection;
use crate::game::store::set_draw_offer;
use crate::game::{GameRecord, Seat};
use crate::usecases::messages::{GameEvent, record_event};
use crate::usecases::notify;

/// A step of a draw offer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawAction {
    Offer,
    Accept,
    Decline,
    Withdraw,
}

/// What the step leaves the caller to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[must_use]
pub enum DrawStep {
    /// The offer stands, or was declined or withdrawn: the game goes on.
    GoesOn,
    /// Both players want a draw: end the game as agreed.
    Agreed,
}

/// Why a step was refused; nothing changed.
#[derive(Debug, thiserror::Error)]
pub enum DrawError {
    #[error("you have already offered a draw")]
    AlreadyOffered,
    #[error("there is no draw offer from your opponent to answer")]
    NoOffer,
    #[error("you have no standing draw offer to withdraw")]
    NoOwnOffer,
    #[error(transparent)]
    Db(#[from] diesel::result::Error),
}

/// Takes one step for the player in `me` on the locked, running game of `record`: checks it
/// against the offer standing on their board, stores the offer's new state and the event,
/// and queues the opponent's mail.
pub fn take_draw_step(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    record: &GameRecord,
    (me, user_id): (Seat, i64),
    action: DrawAction,
) -> Result<DrawStep, DrawError> {
    let standing = record.board(me.board).and_then(|b| b.draw_offer);
    let (mine, theirs) = (Some(me.color), Some(!me.color));
    let event = |conn: &mut DbConnection, event: GameEvent| {
        record_event(
            conn,
            now,
            record.game.id,
            (user_id, record.game.ply),
            &event,
        )
    };
    match action {
        DrawAction::Offer if standing == mine => Err(DrawError::AlreadyOffered),
        DrawAction::Offer | DrawAction::Accept if standing == theirs => {
            event(conn, GameEvent::DrawAccepted)?;
            Ok(DrawStep::Agreed)
        }
        DrawAction::Offer => {
            offer_draw(conn, now, record, (me, user_id), record.game.ply)?;
            Ok(DrawStep::GoesOn)
        }
        DrawAction::Decline if standing == theirs => {
            event(conn, GameEvent::DrawDeclined)?;
            set_draw_offer(conn, now, record.game.id, me.board, None)?;
            notify::draw_declined(conn, now, record, me)?;
            Ok(DrawStep::GoesOn)
        }
        DrawAction::Accept | DrawAction::Decline => Err(DrawError::NoOffer),
        DrawAction::Withdraw if standing == mine => {
            event(conn, GameEvent::DrawWithdrawn)?;
            set_draw_offer(conn, now, record.game.id, me.board, None)?;
            Ok(DrawStep::GoesOn)
        }
        DrawAction::Withdraw => Err(DrawError::NoOwnOffer),
    }
}

/// Makes `me`'s offer stand from `ply` (the ply after a move played with the offer): the
/// event, the board's offer and the opponent's mail.
pub fn offer_draw(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    record: &GameRecord,
    (me, user_id): (Seat, i64),
    ply: i32,
) -> Result<(), DrawError> {
    record_event(
        conn,
        now,
        record.game.id,
        (user_id, ply),
        &GameEvent::DrawOffered,
    )?;
    set_draw_offer(conn, now, record.game.id, me.board, Some(me))?;
    notify::draw_offered(conn, now, record, me)?;
    Ok(())
}
