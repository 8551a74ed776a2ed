//! Lists of games: my games, my queue, the next game awaiting my move.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use slowfuse_rules::Color;

use crate::db::{DbConnection, MultiBackend};
use crate::game::{GameStatus, Seat, parse_color};
use crate::models::Game;
use crate::schema::{game_boards, game_players, games};
use crate::usecases::search::walk_is_shorter;

/// One line of a game list.
#[derive(Clone, Debug)]
pub struct GameSummary {
    pub id: i64,
    pub variant: String,
    /// The players' usernames (a bughouse side: "alice & dave"), and as people read them
    /// ("Computer (Easy)" for a computer account).
    pub white: String,
    pub black: String,
    pub white_name: String,
    pub black_name: String,
    pub status: String,
    pub result: String,
    /// How a finished game ended (`resignation`, `time_forfeit`, …), when stored.
    pub termination: Option<String>,
    pub ply: i32,
    /// The colour the player plays on their board.
    pub my_color: Color,
    /// The side of the result the player plays for: their colour, or in a bughouse match
    /// their team's (team A is White's side, so `1-0` is A's win; see `Seat::side`).
    pub my_side: Color,
    pub my_turn: bool,
    pub deadline_at: Option<NaiveDateTime>,
    pub updated_at: NaiveDateTime,
}

/// The stored names of the statuses of a game not yet ended ([`GameStatus::is_running`]).
const RUNNING: [&str; 2] = [GameStatus::Setup.as_str(), GameStatus::Started.as_str()];

type SeatRow = (Game, i32, String, String, Option<NaiveDateTime>);

/// Every seat with its game and the board it plays on (a macro, as the ones below: the
/// query's type is long to write, and each caller adds its own clauses).
macro_rules! seats {
    () => {
        game_players::table.inner_join(games::table).inner_join(
            game_boards::table.on(game_boards::game_id
                .eq(game_players::game_id)
                .and(game_boards::board.eq(game_players::board))),
        )
    };
}

/// The seats whose game is running and waits for that seat's move: the one meaning of
/// "awaiting a move" for the queue and the digest scan.
macro_rules! seats_to_move {
    () => {
        seats!()
            .filter(games::status.eq(GameStatus::Started.as_str()))
            .filter(game_boards::turn.eq(game_players::color))
    };
}

/// What a list of games shows of a seat: the game, the seat's colour, the board's turn and
/// deadline.
macro_rules! seat_row {
    () => {
        (
            Game::as_select(),
            game_players::board,
            game_players::color,
            game_boards::turn,
            game_boards::deadline_at,
        )
    };
}

/// How many finished games the list of my games shows (`/games`, `GET /api/v1/me/games`),
/// the latest; the search finds the rest (the page links to it).
pub const FINISHED_LISTED: i64 = 100;

/// How many finished games the home page lists under "Recent results".
pub const RECENT_RESULTS: i64 = 5;

/// The games a user plays or played: every running one, and the `finished` most recently
/// ended (or aborted); awaiting their move first (most urgent first), then the other running
/// games, then finished ones, newest first.
///
/// The running games are the player's seats in a running game; the finished ones are found
/// as a profile's recent games are ([`latest_seated_games`]).
pub fn my_games(
    conn: &mut DbConnection,
    user_id: i64,
    finished: i64,
) -> QueryResult<Vec<GameSummary>> {
    crate::db::read_planned_for_values(conn, |conn| {
        let mut rows: Vec<SeatRow> = seats!()
            .filter(game_players::user_id.eq(user_id))
            .filter(games::status.eq_any(RUNNING))
            .select(seat_row!())
            .load(conn)?;
        let ended = latest_seated_games(conn, user_id, finished, Seated::Finished)?;
        if !ended.is_empty() {
            rows.extend(
                seats!()
                    .filter(game_players::user_id.eq(user_id))
                    .filter(game_players::game_id.eq_any(&ended))
                    .select(seat_row!())
                    .load::<SeatRow>(conn)?,
            );
        }
        summaries(conn, rows)
    })
}

/// Which of a player's games [`latest_seated_games`] finds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Seated {
    /// Every game, running or not.
    Any,
    /// Games no longer running (finished or aborted).
    Finished,
}

/// The ids of the `limit` games a player sits in that were most recently active (newest
/// `updated_at` first, then highest id). For a player seated in thousands of games the games
/// are walked from the most recently active (`games_recent_order`), each checked for the
/// player's seat, until `limit` are found (the `OFFSET 0` keeps PostgreSQL from turning the
/// check into a join of every seat); for one seated in a few, their seats' games are gathered
/// and sorted. Whichever passes fewer games ([`walk_is_shorter`]).
pub(crate) fn latest_seated_games(
    conn: &mut DbConnection,
    user_id: i64,
    limit: i64,
    which: Seated,
) -> QueryResult<Vec<i64>> {
    let seats: i64 = game_players::table
        .filter(game_players::user_id.eq(user_id))
        .count()
        .get_result(conn)?;
    let newest_first = (games::updated_at.desc(), games::id.desc());
    if walk_is_shorter(conn, limit, seats)? {
        let mut walk = games::table
            .filter(diesel::dsl::exists(
                game_players::table
                    .filter(game_players::game_id.eq(games::id))
                    .filter(game_players::user_id.eq(user_id))
                    .offset(0),
            ))
            .into_boxed::<MultiBackend>();
        if which == Seated::Finished {
            walk = walk.filter(games::status.ne_all(RUNNING));
        }
        walk.order(newest_first)
            .limit(limit)
            .select(games::id)
            .load(conn)
    } else {
        let mut gather = game_players::table
            .inner_join(games::table)
            .filter(game_players::user_id.eq(user_id))
            .into_boxed::<MultiBackend>();
        if which == Seated::Finished {
            gather = gather.filter(games::status.ne_all(RUNNING));
        }
        gather
            .order(newest_first)
            .limit(limit)
            .select(games::id)
            .load(conn)
    }
}

fn summaries(conn: &mut DbConnection, rows: Vec<SeatRow>) -> QueryResult<Vec<GameSummary>> {
    let ids: Vec<i64> = rows.iter().map(|(g, ..)| g.id).collect();
    let names = crate::game::player_names(conn, &ids)?;
    let name = |game: i64, color: &str| names.of(game, color);
    let mut list: Vec<GameSummary> = rows
        .into_iter()
        .map(|(g, board, color, turn, deadline_at)| {
            let my_color = parse_color(&color).unwrap_or(Color::White);
            GameSummary {
                my_side: Seat {
                    board,
                    color: my_color,
                }
                .side(),
                white: name(g.id, "white"),
                black: name(g.id, "black"),
                white_name: names.shown(g.id, "white"),
                black_name: names.shown(g.id, "black"),
                my_turn: g.status == GameStatus::Started.as_str() && turn == color,
                my_color,
                id: g.id,
                variant: g.variant,
                status: g.status,
                result: g.result,
                termination: g.termination,
                ply: g.ply,
                deadline_at,
                updated_at: g.updated_at,
            }
        })
        .collect();
    list.sort_by_key(urgency_key);
    Ok(list)
}

/// Sort key: my turn first by deadline (none last), then running, then finished newest first.
fn urgency_key(
    g: &GameSummary,
) -> (
    u8,
    bool,
    Option<NaiveDateTime>,
    std::cmp::Reverse<NaiveDateTime>,
) {
    let running = g
        .status
        .parse::<GameStatus>()
        .is_ok_and(GameStatus::is_running);
    let group = if g.my_turn {
        0
    } else if running {
        1
    } else {
        2
    };
    (
        group,
        g.deadline_at.is_none(),
        g.deadline_at,
        std::cmp::Reverse(g.updated_at),
    )
}

/// The games awaiting a user's move, most urgent first. Only those rows are returned, not
/// the player's whole history. Read in [`crate::db::read_planned_for_values`]: for a player
/// seated in thousands of games PostgreSQL then gathers their seats and the running games and
/// joins the two, for one seated in eighty it looks each seat's game up; one plan made for any
/// player looked up every game of the busiest, four times as long (docs/benchmarks.md, "Data
/// at scale"). Call it outside any transaction.
pub fn my_queue(conn: &mut DbConnection, user_id: i64) -> QueryResult<Vec<GameSummary>> {
    crate::db::read_planned_for_values(conn, |conn| {
        let rows: Vec<SeatRow> = seats_to_move!()
            .filter(game_players::user_id.eq(user_id))
            .select(seat_row!())
            .load(conn)?;
        summaries(conn, rows)
    })
}

/// Of `user_ids`, those whom a game awaits: one query for many, for the worker's digest scan.
pub fn awaiting_move(conn: &mut DbConnection, user_ids: &[i64]) -> QueryResult<Vec<i64>> {
    seats_to_move!()
        .filter(game_players::user_id.eq_any(user_ids))
        .select(game_players::user_id)
        .distinct()
        .load(conn)
}

/// Whether any game awaits the user's move: one small query, for the worker's digest scan.
pub fn awaits_move(conn: &mut DbConnection, user_id: i64) -> QueryResult<bool> {
    diesel::select(diesel::dsl::exists(
        seats_to_move!().filter(game_players::user_id.eq(user_id)),
    ))
    .get_result(conn)
}

/// The next game awaiting the user's move, other than the one they are looking at.
pub fn next_game_in_queue(
    conn: &mut DbConnection,
    user_id: i64,
    after: Option<i64>,
) -> QueryResult<Option<i64>> {
    let queue = my_queue(conn, user_id)?;
    Ok(queue.iter().map(|g| g.id).find(|id| Some(*id) != after))
}

/// A running game anyone may watch, for the visitors' front page.
#[derive(Clone, Debug)]
pub struct RunningGame {
    pub id: i64,
    pub variant: String,
    /// The sides as people read them ("Computer (Easy)"; a bughouse team "alice & dave").
    pub white: String,
    pub black: String,
    pub ply: i32,
    pub deadline_at: Option<NaiveDateTime>,
}

/// The running public games most recently changed (a move, a draw offer …), at most `limit`,
/// newest first. Private games (the challenge's "private game" option) are never featured,
/// although their pages stay open to anyone who has the link.
pub fn recent_running_games(conn: &mut DbConnection, limit: i64) -> QueryResult<Vec<RunningGame>> {
    let rows: Vec<Game> = games::table
        .filter(games::status.eq(GameStatus::Started.as_str()))
        .filter(games::is_public.eq(true))
        .order((games::updated_at.desc(), games::id.desc()))
        .limit(limit)
        .select(Game::as_select())
        .load(conn)?;
    let ids: Vec<i64> = rows.iter().map(|g| g.id).collect();
    let names = crate::game::player_names(conn, &ids)?;
    let name = |game: i64, color: &str| names.shown(game, color);
    Ok(rows
        .into_iter()
        .map(|g| RunningGame {
            white: name(g.id, "white"),
            black: name(g.id, "black"),
            id: g.id,
            variant: g.variant,
            ply: g.ply,
            deadline_at: g.deadline_at,
        })
        .collect())
}
