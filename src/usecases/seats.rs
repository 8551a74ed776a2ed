//! Four-seat challenges (bughouse): the seats `A1`, `B1`, `B2`, `A2`, who is invited to which,
//! taking a seat, and starting the match when the fourth seat is taken.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use slowfuse_rules::GameKind;
use slowfuse_rules::bughouse::Seat as BughouseSeat;

use crate::db::DbConnection;
use crate::game::clock::to_columns;
use crate::game::{from_bughouse, parse_bughouse_seat};
use crate::models::{Challenge, NewChallenge, NewChallengeSeat};
use crate::random::Random;
use crate::schema::{challenge_seats, challenges};
use crate::usecases::accounts::user_by_name;
use crate::usecases::challenges::{
    ChallengeError, ChallengeKind, SeatView, challenge_by_id, game_of, random_token, seat_views,
};
use crate::usecases::clocks::TimeControlRequest;
use crate::usecases::new_game::create_game;

/// What a player asks for when creating a bughouse challenge, read from the form or JSON.
#[derive(Clone, Debug)]
pub struct SeatedChallengeRequest {
    /// The creator's seat (`A1`, `B1`, `B2`, `A2`) or `any` (A1).
    pub seat: String,
    pub time: TimeControlRequest,
    /// Seats offered to one player each, by name: `("B1", "bob")`.
    pub invite: Vec<(String, String)>,
    /// Not listed: the seats nobody is invited to are for whoever holds the link.
    pub link_only: bool,
    pub rated: bool,
    pub auto_flag: bool,
    pub private: bool,
}

/// Which seat a player asks to take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeatChoice {
    Seat(BughouseSeat),
    /// The seat offered to them by name if there is one, else the first free seat.
    Any,
}

impl SeatChoice {
    /// Reads `A1`, `B1`, `B2`, `A2` or `any`.
    pub fn parse(text: &str) -> Result<SeatChoice, ChallengeError> {
        match text.trim() {
            "any" | "" => Ok(SeatChoice::Any),
            name => parse_bughouse_seat(name)
                .map(SeatChoice::Seat)
                .ok_or(ChallengeError::BadSeat),
        }
    }
}

/// A four-seat challenge with its seats in the order A1, B1, B2, A2.
#[derive(Clone, Debug)]
pub struct SeatedChallenge {
    pub challenge: Challenge,
    pub seats: Vec<SeatView>,
}

impl SeatedChallenge {
    /// The seats still free.
    pub fn free_seats(&self) -> impl Iterator<Item = &SeatView> {
        self.seats.iter().filter(|s| s.taken_by.is_none())
    }

    /// The seat `user_id` has taken here.
    pub fn seat_of(&self, user_id: i64) -> Option<BughouseSeat> {
        self.seats
            .iter()
            .find(|s| s.taken_by.as_ref().is_some_and(|(id, _)| *id == user_id))
            .map(|s| s.seat)
    }

    /// The free seats `user_id` may take (with the link's token when it is a link challenge).
    pub fn seats_open_to(&self, user_id: i64, has_link: bool) -> Vec<BughouseSeat> {
        let anyone = self.challenge.kind != ChallengeKind::Link.as_str() || has_link;
        self.free_seats()
            .filter(|s| match &s.invited {
                Some((id, _)) => *id == user_id,
                None => anyone,
            })
            .map(|s| s.seat)
            .collect()
    }
}

/// Creates a bughouse challenge with the creator in their seat and the invited players named.
pub fn create_seated_challenge(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    creator_id: i64,
    req: &SeatedChallengeRequest,
) -> Result<SeatedChallenge, ChallengeError> {
    let own_seat = match SeatChoice::parse(&req.seat)? {
        SeatChoice::Seat(seat) => seat,
        SeatChoice::Any => BughouseSeat::A1,
    };
    let time = req.time.check()?;
    if req.rated && !time.is_timed() {
        return Err(ChallengeError::RatedNeedsClock);
    }
    let mut invited: Vec<(BughouseSeat, i64)> = Vec::new();
    for (seat_name, name) in &req.invite {
        let name = name.trim();
        if name.is_empty() {
            continue;
        }
        let seat = parse_bughouse_seat(seat_name.trim()).ok_or(ChallengeError::BadSeat)?;
        if seat == own_seat {
            return Err(ChallengeError::InviteToOwnSeat(seat.to_string()));
        }
        let user = user_by_name(conn, name)?
            .ok_or_else(|| ChallengeError::NoSuchOpponent(name.chars().take(40).collect()))?;
        if user.id == creator_id {
            return Err(ChallengeError::SelfChallenge);
        }
        if invited.iter().any(|(s, id)| *s == seat || *id == user.id) {
            return Err(ChallengeError::InvitedTwice);
        }
        invited.push((seat, user.id));
    }
    let (time_control, days_per_move, initial_seconds, increment_seconds, cap_seconds) =
        to_columns(time);
    // Listed when a seat is open to anyone; direct when every other seat is offered by name.
    let kind = match (req.link_only, invited.len()) {
        (true, _) => ChallengeKind::Link,
        (false, 3) => ChallengeKind::Direct,
        (false, _) => ChallengeKind::Open,
    };
    let token = random_token();
    let new = NewChallenge {
        creator_id,
        opponent_id: None,
        kind: kind.as_str(),
        share_token: &token,
        variant: GameKind::Bughouse.as_str(),
        color: "any",
        time_control,
        days_per_move,
        initial_seconds,
        increment_seconds,
        cap_seconds,
        auto_flag: req.auto_flag,
        is_public: !req.private,
        rated: req.rated,
        status: "open",
        created_at: now,
        updated_at: now,
        variant_options: "{}",
        setup_hours: None,
    };
    let id = crate::db::write_transaction(conn, |conn| {
        let challenge = crate::on_backend!(conn, |c| diesel::insert_into(challenges::table)
            .values(&new)
            .returning(Challenge::as_returning())
            .get_result(c))?;
        for seat in BughouseSeat::ALL {
            let name = seat.to_string();
            let mine = seat == own_seat;
            diesel::insert_into(challenge_seats::table)
                .values(NewChallengeSeat {
                    challenge_id: challenge.id,
                    seat: &name,
                    user_id: mine.then_some(creator_id),
                    invited_id: invited.iter().find(|(s, _)| *s == seat).map(|(_, id)| *id),
                    taken_at: mine.then_some(now),
                })
                .execute(conn)?;
        }
        for (_, user_id) in &invited {
            crate::usecases::notify::seat_offered(conn, now, &challenge, *user_id)?;
        }
        QueryResult::Ok(challenge.id)
    })?;
    seated_challenge(conn, id)?.ok_or(ChallengeError::NotFound)
}

/// A four-seat challenge with its seats, or `None` when there is no such challenge or it is
/// not a four-seat one.
pub fn seated_challenge(
    conn: &mut DbConnection,
    challenge_id: i64,
) -> QueryResult<Option<SeatedChallenge>> {
    let Some(challenge) = challenge_by_id(conn, challenge_id)? else {
        return Ok(None);
    };
    let seats = seat_views(conn, challenge_id)?;
    if seats.is_empty() {
        return Ok(None);
    }
    Ok(Some(SeatedChallenge { challenge, seats }))
}

/// Takes a seat of an open four-seat challenge; when it was the last free seat, the match
/// starts. Returns the challenge as it then stands and the match's game id once started.
/// Two players asking for the last seats at once are served one after the other. `random`
/// goes to `new_game::create_game` when the match starts.
pub fn take_seat(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    random: &dyn Random,
    challenge_id: i64,
    user_id: i64,
    choice: SeatChoice,
    link_token: Option<&str>,
) -> Result<(SeatedChallenge, Option<i64>), ChallengeError> {
    let game_id = crate::db::write_transaction(conn, |conn| {
        // Touch the open challenge first: this write serialises everyone taking its seats.
        let open = diesel::update(
            challenges::table
                .filter(challenges::id.eq(challenge_id))
                .filter(challenges::status.eq("open")),
        )
        .set(challenges::updated_at.eq(now))
        .execute(conn)?;
        let current = seated_challenge(conn, challenge_id)?.ok_or(ChallengeError::NotFound)?;
        if open == 0 {
            return Err(ChallengeError::NotOpen);
        }
        if current.seat_of(user_id).is_some() {
            return Err(ChallengeError::AlreadySeated);
        }
        let has_link = link_token == Some(current.challenge.share_token.as_str());
        let allowed = current.seats_open_to(user_id, has_link);
        let seat = match choice {
            SeatChoice::Seat(seat) => {
                let view = &current.seats[seat_index(seat)];
                if view.taken_by.is_some() {
                    return Err(ChallengeError::SeatTaken(seat.to_string()));
                }
                if !allowed.contains(&seat) {
                    return Err(ChallengeError::NotForYou);
                }
                seat
            }
            SeatChoice::Any => {
                let invited_here = allowed.iter().copied().find(|s| {
                    current.seats[seat_index(*s)]
                        .invited
                        .as_ref()
                        .is_some_and(|(id, _)| *id == user_id)
                });
                match invited_here.or_else(|| allowed.first().copied()) {
                    Some(seat) => seat,
                    None if current.free_seats().next().is_none() => {
                        return Err(ChallengeError::Full);
                    }
                    None => return Err(ChallengeError::NotForYou),
                }
            }
        };
        diesel::update(
            challenge_seats::table
                .filter(challenge_seats::challenge_id.eq(challenge_id))
                .filter(challenge_seats::seat.eq(seat.to_string()))
                .filter(challenge_seats::user_id.is_null()),
        )
        .set((
            challenge_seats::user_id.eq(Some(user_id)),
            challenge_seats::taken_at.eq(Some(now)),
        ))
        .execute(conn)?;
        let free_left = current.free_seats().count() - 1;
        if free_left > 0 {
            return Ok(None);
        }
        let mut players: Vec<(BughouseSeat, i64)> = current
            .seats
            .iter()
            .filter_map(|s| s.taken_by.as_ref().map(|(id, _)| (s.seat, *id)))
            .collect();
        players.push((seat, user_id));
        let game_id = start_match(conn, now, random, &current.challenge, &players)?;
        Ok(Some(game_id))
    })?;
    let seated = seated_challenge(conn, challenge_id)?.ok_or(ChallengeError::NotFound)?;
    Ok((seated, game_id))
}

/// Where a seat is in [`SeatedChallenge::seats`].
fn seat_index(seat: BughouseSeat) -> usize {
    BughouseSeat::ALL
        .iter()
        .position(|s| *s == seat)
        .expect("every seat is in ALL")
}

/// Creates the match of a full challenge (both boards with White to move on each, the four
/// players in their seats); the challenge is marked accepted with its game, its author told,
/// and each board's White told it is their move.
fn start_match(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    random: &dyn Random,
    c: &Challenge,
    players: &[(BughouseSeat, i64)],
) -> Result<i64, ChallengeError> {
    let seated = players
        .iter()
        .map(|(seat, user)| (from_bughouse(*seat), *user))
        .collect();
    let spec = game_of(c, GameKind::Bughouse, seated);
    let game_id = create_game(conn, now, random, &spec)?;
    diesel::update(challenges::table.find(c.id))
        .set((
            challenges::status.eq("accepted"),
            challenges::game_id.eq(Some(game_id)),
            challenges::updated_at.eq(now),
        ))
        .execute(conn)?;
    crate::usecases::notify::challenge_accepted(conn, now, c, game_id)?;
    for board in [0, 1] {
        crate::usecases::notify::your_turn(conn, now, game_id, board)?;
    }
    Ok(game_id)
}
