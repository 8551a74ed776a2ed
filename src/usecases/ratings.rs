//! Glicko-2 ratings per variant: a rated game updates both players inside its finishing transaction.
//!
//! Decisions (also in README.md): every variant is its own rating (atomic apart from standard);
//! a player starts at 1500, RD 350, volatility 0.06; each rated game is its own rating period
//! and is rated the moment it ends (as lichess does), with the system constant τ = 0.5; a rating
//! is provisional while its RD is above 110; aborted games, casual games, games that ended
//! before both sides had moved and games that are not one player against another are not rated.
//! A bughouse match rates each of its four players in `bughouse` against the opposing team
//! taken as one player of the two opponents' mean rating, deviation and volatility (team
//! ratings as bughouse sites keep them), all from the ratings before the match.
//! The arithmetic is the `skillratings` crate's implementation of Glickman's paper.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};
use slowfuse_rules::bughouse::{Seat as BughouseSeat, Team};
use slowfuse_rules::{Color, Outcome};

use crate::db::DbConnection;
use crate::game::Seat;
use crate::models::{NewRating, NewRatingChange, Rating};
use crate::schema::{game_players, games, rating_history, ratings};

/// The rating of a player who has not played a rated game in a variant.
pub const START_RATING: f64 = 1500.0;
/// The rating deviation (RD) of a new player.
pub const START_DEVIATION: f64 = 350.0;
/// The volatility of a new player.
pub const START_VOLATILITY: f64 = 0.06;
/// Glicko-2's system constant τ: how much the volatility may change (the paper suggests 0.3–1.2
/// and works its example with 0.5).
pub const TAU: f64 = 0.5;
/// A rating whose RD is above this is provisional (shown with a `?`).
pub const PROVISIONAL_DEVIATION: f64 = 110.0;
/// Games ended before this many plies (both sides' first move) are not rated.
pub const MIN_RATED_PLIES: i32 = 2;

/// Whether a rating with this deviation is still provisional.
pub fn is_provisional(deviation: f64) -> bool {
    deviation > PROVISIONAL_DEVIATION
}

/// The rating of a newcomer.
pub fn start_rating() -> Glicko2Rating {
    Glicko2Rating {
        rating: START_RATING,
        deviation: START_DEVIATION,
        volatility: START_VOLATILITY,
    }
}

fn config() -> Glicko2Config {
    Glicko2Config {
        tau: TAU,
        ..Glicko2Config::new()
    }
}

/// The two players' ratings after one game between them, treated as one rating period.
/// `winner` is `None` for a draw. Pure: no database, no clock.
pub fn rate_game(
    white: &Glicko2Rating,
    black: &Glicko2Rating,
    winner: Option<Color>,
) -> (Glicko2Rating, Glicko2Rating) {
    let outcome = match winner {
        Some(Color::White) => Outcomes::WIN,
        Some(Color::Black) => Outcomes::LOSS,
        None => Outcomes::DRAW,
    };
    glicko2(white, black, &outcome, &config())
}

/// White's score in a game: 1, ½ or 0.
fn white_score(winner: Option<Color>) -> f64 {
    match winner {
        Some(Color::White) => 1.0,
        Some(Color::Black) => 0.0,
        None => 0.5,
    }
}

/// Rates a game that has just been written as finished, in the caller's transaction: updates
/// both players' ratings in the game's variant and writes one history row for each. Does
/// nothing for a casual game, a game ended before both sides moved, a game not between two
/// distinct players, or a game already rated (each game is rated at most once).
pub fn record_result(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    game_id: i64,
    outcome: &Outcome,
) -> QueryResult<()> {
    let Some(variant) = variant_to_rate(conn, game_id)? else {
        return Ok(());
    };
    let seats: Vec<(i64, String)> = game_players::table
        .filter(game_players::game_id.eq(game_id))
        .select((game_players::user_id, game_players::color))
        .load(conn)?;
    let seat = |color: &str| seats.iter().find(|(_, c)| c == color).map(|(u, _)| *u);
    let (Some(white), Some(black)) = (seat("white"), seat("black")) else {
        return Ok(());
    };
    if seats.len() != 2 || white == black {
        return Ok(());
    }
    if already_rated(conn, game_id)? {
        return Ok(());
    }
    // Lock both rating rows in user-id order, so two games ending at once cannot lose an
    // update or deadlock.
    let mut order = [white, black];
    order.sort_unstable();
    for user in order {
        lock_rating(conn, now, user, &variant)?;
    }
    let w = current_rating(conn, white, &variant)?;
    let b = current_rating(conn, black, &variant)?;
    let (new_w, new_b) = rate_game(&glicko(&w), &glicko(&b), outcome.winner);
    let score = white_score(outcome.winner);
    store(conn, now, game_id, &w, &new_w, black, score)?;
    store(conn, now, game_id, &b, &new_b, white, 1.0 - score)?;
    Ok(())
}

/// Rates a bughouse match that has just been written as finished, in the caller's
/// transaction (`winner`: the winning team, `None` for a draw). The same conditions as
/// [`record_result`]: rated, both first moves made on some board, four distinct players,
/// rated once.
pub fn record_team_result(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    game_id: i64,
    winner: Option<Team>,
) -> QueryResult<()> {
    let Some(variant) = variant_to_rate(conn, game_id)? else {
        return Ok(());
    };
    let rows: Vec<(i64, i32, String)> = game_players::table
        .filter(game_players::game_id.eq(game_id))
        .select((
            game_players::user_id,
            game_players::board,
            game_players::color,
        ))
        .load(conn)?;
    let seats: Vec<(i64, BughouseSeat)> = rows
        .iter()
        .filter_map(|(user, board, color)| {
            let color = crate::game::parse_color(color)?;
            Some((
                *user,
                Seat {
                    board: *board,
                    color,
                }
                .bughouse()?,
            ))
        })
        .collect();
    let mut order: Vec<i64> = seats.iter().map(|(u, _)| *u).collect();
    order.sort_unstable();
    order.dedup();
    if seats.len() != 4 || order.len() != 4 {
        return Ok(());
    }
    if already_rated(conn, game_id)? {
        return Ok(());
    }
    for user in &order {
        lock_rating(conn, now, *user, &variant)?;
    }
    let mut before = Vec::new();
    for (user, seat) in &seats {
        before.push((*seat, current_rating(conn, *user, &variant)?));
    }
    let team_of = |team: Team| -> Glicko2Rating {
        let members: Vec<&Rating> = before
            .iter()
            .filter(|(s, _)| s.team() == team)
            .map(|(_, r)| r)
            .collect();
        let mean = |f: fn(&Rating) -> f64| members.iter().map(|r| f(r)).sum::<f64>() / 2.0;
        Glicko2Rating {
            rating: mean(|r| r.rating),
            deviation: mean(|r| r.deviation),
            volatility: mean(|r| r.volatility),
        }
    };
    let mut changes = Vec::new();
    for (seat, rating) in &before {
        // Each player is White against the opposing team in the arithmetic.
        let as_white = winner.map(|team| {
            if team == seat.team() {
                Color::White
            } else {
                Color::Black
            }
        });
        let (after, _) = rate_game(&glicko(rating), &team_of(seat.team().other()), as_white);
        let opponent = seats
            .iter()
            .find(|(_, s)| *s == seat.opponent())
            .map(|(u, _)| *u)
            .expect("four seats");
        changes.push((rating, after, opponent, white_score(as_white)));
    }
    for (rating, after, opponent, score) in changes {
        store(conn, now, game_id, rating, &after, opponent, score)?;
    }
    Ok(())
}

/// The variant a game that has just ended is rated in, or `None` when it is not rated: casual,
/// ended before both sides moved, or not finished.
fn variant_to_rate(conn: &mut DbConnection, game_id: i64) -> QueryResult<Option<String>> {
    let (rated, variant, ply, status): (bool, String, i32, String) = games::table
        .find(game_id)
        .select((games::rated, games::variant, games::ply, games::status))
        .get_result(conn)?;
    Ok((rated && ply >= MIN_RATED_PLIES && status == "finished").then_some(variant))
}

/// Whether the game's ratings were already written (each game is rated at most once).
fn already_rated(conn: &mut DbConnection, game_id: i64) -> QueryResult<bool> {
    let rows: i64 = rating_history::table
        .filter(rating_history::game_id.eq(game_id))
        .count()
        .get_result(conn)?;
    Ok(rows > 0)
}

fn glicko(r: &Rating) -> Glicko2Rating {
    Glicko2Rating {
        rating: r.rating,
        deviation: r.deviation,
        volatility: r.volatility,
    }
}

/// Creates the player's rating in a variant if missing, then takes its row lock.
fn lock_rating(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    user_id: i64,
    variant: &str,
) -> QueryResult<()> {
    let start = start_rating();
    let new = NewRating {
        user_id,
        variant,
        rating: start.rating,
        deviation: start.deviation,
        volatility: start.volatility,
        games: 0,
        updated_at: now,
    };
    crate::on_backend!(conn, |c| diesel::insert_into(ratings::table)
        .values(&new)
        .on_conflict_do_nothing()
        .execute(c))?;
    diesel::update(
        ratings::table
            .filter(ratings::user_id.eq(user_id))
            .filter(ratings::variant.eq(variant)),
    )
    .set(ratings::games.eq(ratings::games))
    .execute(conn)?;
    Ok(())
}

fn current_rating(conn: &mut DbConnection, user_id: i64, variant: &str) -> QueryResult<Rating> {
    ratings::table
        .filter(ratings::user_id.eq(user_id))
        .filter(ratings::variant.eq(variant))
        .select(Rating::as_select())
        .get_result(conn)
}

/// Writes a player's new rating and the history row that explains it.
fn store(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    game_id: i64,
    before: &Rating,
    after: &Glicko2Rating,
    opponent_id: i64,
    score: f64,
) -> QueryResult<()> {
    diesel::update(ratings::table.find(before.id))
        .set((
            ratings::rating.eq(after.rating),
            ratings::deviation.eq(after.deviation),
            ratings::volatility.eq(after.volatility),
            ratings::games.eq(ratings::games + 1),
            ratings::updated_at.eq(now),
        ))
        .execute(conn)?;
    diesel::insert_into(rating_history::table)
        .values(NewRatingChange {
            user_id: before.user_id,
            variant: &before.variant,
            game_id,
            opponent_id,
            score,
            rating_before: before.rating,
            deviation_before: before.deviation,
            rating_after: after.rating,
            deviation_after: after.deviation,
            volatility_after: after.volatility,
            created_at: now,
        })
        .execute(conn)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use skillratings::glicko2::glicko2_rating_period;

    fn r(rating: f64, deviation: f64) -> Glicko2Rating {
        Glicko2Rating {
            rating,
            deviation,
            volatility: START_VOLATILITY,
        }
    }

    /// Glickman's worked example ("Example of the Glicko-2 system", τ = 0.5): a 1500 / RD 200
    /// player beats 1400/30, loses to 1550/100 and to 1700/300 in one period and ends at
    /// r' = 1464.06, RD' = 151.52, σ' = 0.05999.
    #[test]
    fn the_papers_worked_example() {
        let results = [
            (r(1400.0, 30.0), Outcomes::WIN),
            (r(1550.0, 100.0), Outcomes::LOSS),
            (r(1700.0, 300.0), Outcomes::LOSS),
        ];
        let after = glicko2_rating_period(&r(1500.0, 200.0), &results, &config());
        assert!((after.rating - 1464.06).abs() < 0.01, "{after:?}");
        assert!((after.deviation - 151.52).abs() < 0.01, "{after:?}");
        assert!((after.volatility - 0.05999).abs() < 0.00001, "{after:?}");
    }

    #[test]
    fn the_winner_gains_what_the_loser_drops_between_newcomers() {
        let (w, b) = rate_game(&start_rating(), &start_rating(), Some(Color::Black));
        assert!(w.rating < START_RATING && b.rating > START_RATING);
        assert!(((START_RATING - w.rating) - (b.rating - START_RATING)).abs() < 1e-9);
        assert!(w.deviation < START_DEVIATION && b.deviation < START_DEVIATION);
    }

    #[test]
    fn a_draw_between_equals_keeps_the_ratings_and_shrinks_the_deviation() {
        let (w, b) = rate_game(&start_rating(), &start_rating(), None);
        assert!((w.rating - START_RATING).abs() < 1e-9);
        assert!((b.rating - START_RATING).abs() < 1e-9);
        assert!(w.deviation < START_DEVIATION - 10.0, "{w:?}");
    }

    #[test]
    fn beating_a_stronger_player_earns_more_than_beating_a_weaker_one() {
        let me = r(1500.0, 80.0);
        let (up, _) = rate_game(&me, &r(1700.0, 80.0), Some(Color::White));
        let (down, _) = rate_game(&me, &r(1300.0, 80.0), Some(Color::White));
        assert!(up.rating - 1500.0 > down.rating - 1500.0);
    }

    #[test]
    fn provisional_while_the_deviation_is_above_110() {
        assert!(is_provisional(START_DEVIATION));
        assert!(is_provisional(110.5));
        assert!(!is_provisional(110.0));
        assert!(!is_provisional(60.0));
    }
}
