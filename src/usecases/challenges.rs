//! Challenges: open seeks, direct challenges and share links; accepting one starts a game.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use slowfuse_rules::bughouse::Seat as BughouseSeat;
use slowfuse_rules::minesweeper::{MinesweeperOptions, UnknownOptions};
use slowfuse_rules::{Color, GameKind, Variant};

use crate::usecases::minesweeper::{DEFAULT_SETUP_HOURS, MAX_SETUP_HOURS};

use crate::db::DbConnection;
use crate::game::Seat;
use crate::game::clock::{challenge_time_control, to_columns};
use crate::models::{Challenge, ChallengeSeat, NewChallenge};
use crate::random::Random;
use crate::schema::{challenge_seats, challenges, users};
use crate::usecases::accounts::user_by_name;
use crate::usecases::clocks::{TimeControlError, TimeControlRequest};
use crate::usecases::new_game::{GameSpec, MinesweeperTerms, NewGameError, create_game};

/// The variants a challenge may ask for: those the game page fully supports.
pub const OFFERED_VARIANTS: &[Variant] = &[
    Variant::Atomic,
    Variant::Standard,
    Variant::Chess960,
    Variant::Crazyhouse,
    Variant::Antichess,
    Variant::KingOfTheHill,
    Variant::ThreeCheck,
    Variant::Horde,
    Variant::RacingKings,
];

/// Who may accept a challenge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChallengeKind {
    /// Listed on the challenges page; anyone may accept.
    Open,
    /// Sent to one user; only they may accept.
    Direct,
    /// Not listed; anyone holding the link may accept.
    Link,
}

impl ChallengeKind {
    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            ChallengeKind::Open => "open",
            ChallengeKind::Direct => "direct",
            ChallengeKind::Link => "link",
        }
    }
}

/// What a player asks for when creating a challenge, already read from the form or JSON.
#[derive(Clone, Debug)]
pub struct ChallengeRequest {
    pub variant: String,
    pub color: String,
    pub time: TimeControlRequest,
    pub opponent: Option<String>,
    pub link_only: bool,
    pub rated: bool,
    /// False: a player out of time loses only when the opponent claims it.
    pub auto_flag: bool,
    /// A private game: comments for the two players only, no kibitz (moves stay public).
    pub private: bool,
    /// Minesweeper: the options' stable names, e.g. `chosen+modest` (default `chosen`).
    pub minesweeper: Option<String>,
    /// Minesweeper: hours to place the bombs (default 48).
    pub setup_hours: Option<i32>,
}

/// Why a challenge could not be created, accepted or cancelled.
#[derive(Debug, thiserror::Error)]
pub enum ChallengeError {
    #[error(
        "unknown variant \"{0}\": choose one of atomic, standard, chess960, crazyhouse, antichess, kingofthehill, threecheck, horde, racingkings, bughouse, minesweeper"
    )]
    UnknownVariant(String),
    #[error("colour must be white, black or random")]
    BadColor,
    #[error(transparent)]
    BadTime(#[from] TimeControlError),
    #[error("there is no user called \"{0}\"")]
    NoSuchOpponent(String),
    #[error("a rated game needs a clock: choose days per move or Fischer")]
    RatedNeedsClock,
    #[error("you cannot challenge yourself")]
    SelfChallenge,
    #[error("challenge not found")]
    NotFound,
    #[error("this challenge is no longer open")]
    NotOpen,
    #[error("you cannot accept your own challenge")]
    OwnChallenge,
    #[error("this challenge is for another player")]
    NotForYou,
    #[error("only the player who made a challenge may cancel it")]
    NotYours,
    #[error("{0}")]
    BadMinesweeperOptions(String),
    #[error("setup_hours must be between 1 and {MAX_SETUP_HOURS}")]
    BadSetupHours,
    #[error("seat must be A1, B1, B2, A2 or any")]
    BadSeat,
    #[error("seat {0} is your own: invite players to the other seats")]
    InviteToOwnSeat(String),
    #[error("invite each player to one seat, and one player to each seat")]
    InvitedTwice,
    #[error("you already have a seat in this challenge")]
    AlreadySeated,
    #[error("seat {0} is taken")]
    SeatTaken(String),
    #[error("every seat of this challenge is taken")]
    Full,
    #[error(transparent)]
    NewGame(#[from] NewGameError),
    #[error(transparent)]
    Db(#[from] diesel::result::Error),
}

/// A minesweeper challenge's options and setup hours, checked; `(options, None)` for any
/// other variant, whose options are `{}`.
fn minesweeper_terms(
    req: &ChallengeRequest,
    kind: GameKind,
) -> Result<(String, Option<i32>), ChallengeError> {
    if kind != GameKind::Minesweeper {
        return Ok(("{}".to_string(), None));
    }
    let options: MinesweeperOptions = req
        .minesweeper
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .unwrap_or("chosen")
        .parse()
        .map_err(|e: UnknownOptions| {
            ChallengeError::BadMinesweeperOptions(e.to_string().chars().take(300).collect())
        })?;
    let hours = req.setup_hours.unwrap_or(DEFAULT_SETUP_HOURS);
    if !(1..=MAX_SETUP_HOURS).contains(&hours) {
        return Err(ChallengeError::BadSetupHours);
    }
    Ok((options.as_str(), Some(hours)))
}

/// Creates a challenge after checking every field.
pub fn create_challenge(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    creator_id: i64,
    req: &ChallengeRequest,
) -> Result<Challenge, ChallengeError> {
    let kind = match req.variant.trim().parse::<GameKind>() {
        Ok(GameKind::Chess(v)) if OFFERED_VARIANTS.contains(&v) => GameKind::Chess(v),
        Ok(GameKind::Minesweeper) => GameKind::Minesweeper,
        _ => {
            return Err(ChallengeError::UnknownVariant(
                req.variant.chars().take(40).collect(),
            ));
        }
    };
    let variant = kind.as_str();
    let (variant_options, setup_hours) = minesweeper_terms(req, kind)?;
    let color = req.color.trim().to_lowercase();
    if !["white", "black", "random"].contains(&color.as_str()) {
        return Err(ChallengeError::BadColor);
    }
    let time = req.time.check()?;
    if req.rated && !time.is_timed() {
        // A losing player could otherwise stall a rated game for ever.
        return Err(ChallengeError::RatedNeedsClock);
    }
    let (time_control, days_per_move, initial_seconds, increment_seconds, cap_seconds) =
        to_columns(time);
    let opponent = match req
        .opponent
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty())
    {
        None => None,
        Some(name) => {
            let user = user_by_name(conn, name)?
                .ok_or_else(|| ChallengeError::NoSuchOpponent(name.chars().take(40).collect()))?;
            if user.id == creator_id {
                return Err(ChallengeError::SelfChallenge);
            }
            Some(user.id)
        }
    };
    let kind = match (opponent, req.link_only) {
        (Some(_), _) => ChallengeKind::Direct,
        (None, true) => ChallengeKind::Link,
        (None, false) => ChallengeKind::Open,
    };
    let token = random_token();
    let new = NewChallenge {
        creator_id,
        opponent_id: opponent,
        kind: kind.as_str(),
        share_token: &token,
        variant,
        color: &color,
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
        variant_options: &variant_options,
        setup_hours,
    };
    Ok(crate::db::write_transaction(conn, |conn| {
        let challenge = crate::on_backend!(conn, |c| diesel::insert_into(challenges::table)
            .values(&new)
            .returning(Challenge::as_returning())
            .get_result(c))?;
        crate::usecases::notify::challenge_received(conn, now, &challenge)?;
        QueryResult::Ok(challenge)
    })?)
}

/// A fresh share-link token.
pub(crate) fn random_token() -> String {
    use base64::Engine;
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(rand::random::<[u8; 16]>())
}

/// A challenge by id.
pub fn challenge_by_id(conn: &mut DbConnection, id: i64) -> QueryResult<Option<Challenge>> {
    challenges::table
        .find(id)
        .select(Challenge::as_select())
        .get_result(conn)
        .optional()
}

/// A challenge by its share-link token.
pub fn challenge_by_token(conn: &mut DbConnection, token: &str) -> QueryResult<Option<Challenge>> {
    challenges::table
        .filter(challenges::share_token.eq(token))
        .select(Challenge::as_select())
        .get_result(conn)
        .optional()
}

/// One seat as shown: who took it and who is invited to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatView {
    pub seat: BughouseSeat,
    /// The player sitting there.
    pub taken_by: Option<(i64, String)>,
    /// The one player who may take it.
    pub invited: Option<(i64, String)>,
}

/// The seats of a four-seat challenge in the order A1, B1, B2, A2, with the names of who took
/// them and who is invited; empty for a challenge of two players.
pub fn seat_views(conn: &mut DbConnection, challenge_id: i64) -> QueryResult<Vec<SeatView>> {
    let rows: Vec<ChallengeSeat> = challenge_seats::table
        .filter(challenge_seats::challenge_id.eq(challenge_id))
        .select(ChallengeSeat::as_select())
        .load(conn)?;
    if rows.is_empty() {
        return Ok(Vec::new());
    }
    let mut ids: Vec<i64> = rows
        .iter()
        .flat_map(|r| [r.user_id, r.invited_id])
        .flatten()
        .collect();
    ids.sort_unstable();
    ids.dedup();
    let names: Vec<(i64, String)> = users::table
        .filter(users::id.eq_any(&ids))
        .select((users::id, users::username))
        .load(conn)?;
    let named = |id: Option<i64>| {
        id.and_then(|id| {
            names
                .iter()
                .find(|(u, _)| *u == id)
                .map(|(u, n)| (*u, n.clone()))
        })
    };
    Ok(BughouseSeat::ALL
        .into_iter()
        .map(|seat| {
            let row = rows.iter().find(|r| r.seat == seat.to_string());
            SeatView {
                seat,
                taken_by: named(row.and_then(|r| r.user_id)),
                invited: named(row.and_then(|r| r.invited_id)),
            }
        })
        .collect())
}

/// A challenge with the names of the people in it, for lists.
#[derive(Clone, Debug)]
pub struct ChallengeListing {
    pub challenge: Challenge,
    pub creator: String,
    pub opponent: Option<String>,
    /// Whether the viewer made it.
    pub mine: bool,
    /// A bughouse challenge's four seats (empty for two players).
    pub seats: Vec<SeatView>,
}

impl ChallengeListing {
    /// The challenge's invite link (a path on this site), for its author only: the link they
    /// send to whoever they want to play, on the list for as long as the challenge is open.
    pub fn invite_path(&self) -> Option<String> {
        self.mine
            .then(|| format!("/challenges/link/{}", self.challenge.share_token))
    }

    /// The free seats of a bughouse challenge `viewer` may take from the list (those offered
    /// to them by name, and the others when the challenge is listed for anyone).
    pub fn seats_for(&self, viewer: &Option<i64>) -> Vec<String> {
        let Some(me) = *viewer else {
            return Vec::new();
        };
        if self
            .seats
            .iter()
            .any(|s| s.taken_by.as_ref().is_some_and(|(id, _)| *id == me))
        {
            return Vec::new();
        }
        let anyone = self.challenge.kind == ChallengeKind::Open.as_str();
        self.seats
            .iter()
            .filter(|s| s.taken_by.is_none())
            .filter(|s| match &s.invited {
                Some((id, _)) => *id == me,
                None => anyone,
            })
            .map(|s| s.seat.to_string())
            .collect()
    }

    /// The seats in words for the list: "A1 alice, B1 bob (invited), B2 free, A2 free".
    pub fn seats_text(&self) -> String {
        self.seats
            .iter()
            .map(|s| match (&s.taken_by, &s.invited) {
                (Some((_, name)), _) => format!("{} {name}", s.seat),
                (None, Some((_, name))) => format!("{} {name} (invited)", s.seat),
                (None, None) => format!("{} free", s.seat),
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The variant as people write it ("King of the Hill"), the stored name if unknown.
    pub fn variant_name(&self) -> &str {
        match self.challenge.variant.parse::<GameKind>() {
            Ok(kind) => kind.display_name(),
            Err(_) => &self.challenge.variant,
        }
    }
}

/// Open challenges a user can see: every open seek, the ones sent to them, and their own.
pub fn visible_challenges(
    conn: &mut DbConnection,
    viewer_id: Option<i64>,
) -> QueryResult<Vec<ChallengeListing>> {
    let mut query = challenges::table
        .filter(challenges::status.eq("open"))
        .order(challenges::created_at.desc())
        .select(Challenge::as_select())
        .into_boxed();
    query = match viewer_id {
        Some(me) => query.filter(
            challenges::kind
                .eq("open")
                .or(challenges::opponent_id.eq(me))
                .or(challenges::creator_id.eq(me))
                .or(challenges::id.eq_any(
                    challenge_seats::table
                        .filter(
                            challenge_seats::invited_id
                                .eq(me)
                                .or(challenge_seats::user_id.eq(me)),
                        )
                        .select(challenge_seats::challenge_id),
                )),
        ),
        None => query.filter(challenges::kind.eq("open")),
    };
    let rows: Vec<Challenge> = query.limit(200).load(conn)?;
    rows.into_iter()
        .map(|c| {
            let creator = username_of(conn, c.creator_id)?;
            let opponent = match c.opponent_id {
                Some(id) => Some(username_of(conn, id)?),
                None => None,
            };
            let mine = viewer_id == Some(c.creator_id);
            let seats = seat_views(conn, c.id)?;
            Ok(ChallengeListing {
                challenge: c,
                creator,
                opponent,
                mine,
                seats,
            })
        })
        .collect()
}

fn username_of(conn: &mut DbConnection, id: i64) -> QueryResult<String> {
    users::table
        .find(id)
        .select(users::username)
        .get_result(conn)
}

/// Accepts a challenge and creates its game; returns the game id. Exactly one acceptance
/// wins when two arrive together. `random` draws a random colour (a coin showing true gives
/// the challenger White) and the Chess960 start position.
pub fn accept_challenge(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    random: &dyn Random,
    challenge_id: i64,
    acceptor_id: i64,
    link_token: Option<&str>,
) -> Result<i64, ChallengeError> {
    crate::db::write_transaction(conn, |conn| {
        // Claim the challenge first: this write also serialises concurrent acceptances.
        let claimed = diesel::update(
            challenges::table
                .filter(challenges::id.eq(challenge_id))
                .filter(challenges::status.eq("open")),
        )
        .set((
            challenges::status.eq("accepted"),
            challenges::updated_at.eq(now),
        ))
        .execute(conn)?;
        let c = challenge_by_id(conn, challenge_id)?.ok_or(ChallengeError::NotFound)?;
        if claimed == 0 {
            return Err(ChallengeError::NotOpen);
        }
        if c.creator_id == acceptor_id {
            return Err(ChallengeError::OwnChallenge);
        }
        match c.kind.as_str() {
            "direct" if c.opponent_id != Some(acceptor_id) => {
                return Err(ChallengeError::NotForYou);
            }
            "link" if link_token != Some(c.share_token.as_str()) => {
                return Err(ChallengeError::NotForYou);
            }
            _ => {}
        }
        let creator_white = match c.color.as_str() {
            "white" => true,
            "black" => false,
            _ => random.coin(),
        };
        let (white, black) = if creator_white {
            (c.creator_id, acceptor_id)
        } else {
            (acceptor_id, c.creator_id)
        };
        let game_id = start_game(conn, now, random, &c, white, black)?;
        finish_acceptance(conn, now, &c, game_id)
    })
}

/// Creates and starts the game of the accepted challenge `c` between `white` and `black`
/// (a minesweeper game in its setup phase when its options say so); returns its id.
fn start_game(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    random: &dyn Random,
    c: &Challenge,
    white: i64,
    black: i64,
) -> Result<i64, ChallengeError> {
    let kind = match c.variant.parse::<GameKind>() {
        Ok(kind @ (GameKind::Chess(_) | GameKind::Minesweeper)) => kind,
        Ok(GameKind::Bughouse) | Err(_) => {
            return Err(ChallengeError::UnknownVariant(c.variant.clone()));
        }
    };
    let players = vec![
        (Seat::first_board(Color::White), white),
        (Seat::first_board(Color::Black), black),
    ];
    Ok(create_game(conn, now, random, &game_of(c, kind, players))?)
}

/// The game an accepted challenge asks for, of `kind` between `players`: its clock, rating,
/// privacy and minesweeper terms as the challenge stored them.
pub(crate) fn game_of(c: &Challenge, kind: GameKind, players: Vec<(Seat, i64)>) -> GameSpec {
    let minesweeper = (kind == GameKind::Minesweeper).then(|| MinesweeperTerms {
        options: c.variant_options.parse().unwrap_or_default(),
        setup_hours: c.setup_hours.unwrap_or(DEFAULT_SETUP_HOURS),
    });
    GameSpec {
        kind,
        players,
        time: challenge_time_control(c),
        rated: c.rated,
        public: c.is_public,
        auto_flag: c.auto_flag,
        minesweeper,
    }
}

/// The challenge points at its new game; its author is told.
fn finish_acceptance(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    c: &Challenge,
    game_id: i64,
) -> Result<i64, ChallengeError> {
    diesel::update(challenges::table.find(c.id))
        .set(challenges::game_id.eq(Some(game_id)))
        .execute(conn)?;
    crate::usecases::notify::challenge_accepted(conn, now, c, game_id)?;
    Ok(game_id)
}

/// Withdraws one's own open challenge.
pub fn cancel_challenge(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    challenge_id: i64,
    user_id: i64,
) -> Result<(), ChallengeError> {
    crate::db::write_transaction(conn, |conn| {
        let c = challenge_by_id(conn, challenge_id)?.ok_or(ChallengeError::NotFound)?;
        if c.creator_id != user_id {
            return Err(ChallengeError::NotYours);
        }
        let changed = diesel::update(
            challenges::table
                .filter(challenges::id.eq(challenge_id))
                .filter(challenges::status.eq("open")),
        )
        .set((
            challenges::status.eq("cancelled"),
            challenges::updated_at.eq(now),
        ))
        .execute(conn)?;
        if changed == 0 {
            return Err(ChallengeError::NotOpen);
        }
        Ok(())
    })
}
