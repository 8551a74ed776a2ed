//! Reading games: one game with its players, moves and messages; my games; my queue.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use slowfuse_rules::{Color, EndReason, Outcome, Variant};

use crate::db::DbConnection;
use crate::models::{Game, GameMessage, Move};
use crate::schema::{game_messages, game_players, games, moves, users};

/// A player in their seat.
#[derive(Clone, Debug)]
pub struct SeatedPlayer {
    pub user_id: i64,
    pub username: String,
    pub color: Color,
    /// The player's time bank in seconds at the start of their turn (None: no clock).
    pub time_left_seconds: Option<i64>,
    /// The player's booked leave (their clocks stand still then).
    pub leave: Vec<slowfuse_rules::LeavePeriod>,
}

/// A message with its author's name.
#[derive(Clone, Debug)]
pub struct Message {
    pub message: GameMessage,
    pub author: String,
}

/// Everything stored about one game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    pub game: Game,
    pub players: Vec<SeatedPlayer>,
    pub moves: Vec<Move>,
    pub messages: Vec<Message>,
}

/// The stored record does not replay: a bug or a damaged database, never a user's doing.
#[derive(Debug, thiserror::Error)]
#[error("game {game_id} does not replay: {reason}")]
pub struct CorruptGame {
    pub game_id: i64,
    pub reason: String,
}

/// Parses a stored colour name.
pub fn parse_color(s: &str) -> Option<Color> {
    match s {
        "white" => Some(Color::White),
        "black" => Some(Color::Black),
        _ => None,
    }
}

/// The stored name of a colour.
pub fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

impl GameRecord {
    /// The player of one colour.
    pub fn player(&self, color: Color) -> Option<&SeatedPlayer> {
        self.players.iter().find(|p| p.color == color)
    }

    /// The name of the player of one colour, or "?" for an empty seat.
    pub fn name_of(&self, color: Color) -> &str {
        self.player(color).map_or("?", |p| p.username.as_str())
    }

    /// The colour a user plays here, if they play.
    pub fn color_of(&self, user_id: i64) -> Option<Color> {
        self.players
            .iter()
            .find(|p| p.user_id == user_id)
            .map(|p| p.color)
    }

    /// Whether the game is still being played.
    pub fn is_started(&self) -> bool {
        self.game.status == "started"
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        parse_color(&self.game.turn).unwrap_or(Color::White)
    }

    /// The game as the rules see it: replayed from its start, with any off-board ending.
    pub fn rules_game(&self) -> Result<slowfuse_rules::Game, CorruptGame> {
        let corrupt = |reason: String| CorruptGame {
            game_id: self.game.id,
            reason,
        };
        let variant: Variant = self
            .game
            .variant
            .parse()
            .map_err(|_| corrupt(format!("unknown variant {}", self.game.variant)))?;
        let ucis: Vec<String> = self.moves.iter().map(|m| m.uci.clone()).collect();
        let mut game = slowfuse_rules::Game::replay(variant, &self.game.initial_fen, &ucis)
            .map_err(|e| corrupt(e.to_string()))?;
        if game.outcome().is_none()
            && self.game.status == "finished"
            && let Some(outcome) = self.stored_outcome()
        {
            game = game.with_outcome(outcome);
        }
        Ok(game)
    }

    /// The ending written in the row (result and termination), if any.
    pub fn stored_outcome(&self) -> Option<Outcome> {
        let reason: EndReason = self.game.termination.as_deref()?.parse().ok()?;
        let winner = match self.game.result.as_str() {
            "1-0" => Some(Color::White),
            "0-1" => Some(Color::Black),
            "1/2-1/2" => None,
            _ => return None,
        };
        Some(Outcome { winner, reason })
    }
}

/// Loads a game with everything stored about it.
pub fn load_game(conn: &mut DbConnection, game_id: i64) -> QueryResult<Option<GameRecord>> {
    let Some(game) = games::table
        .find(game_id)
        .select(Game::as_select())
        .first(conn)
        .optional()?
    else {
        return Ok(None);
    };
    let players = game_players::table
        .inner_join(users::table)
        .filter(game_players::game_id.eq(game_id))
        .order(game_players::board.asc())
        .select((
            game_players::user_id,
            users::username,
            game_players::color,
            game_players::time_left_seconds,
        ))
        .load::<(i64, String, String, Option<i64>)>(conn)?
        .into_iter()
        .filter_map(|(user_id, username, color, time_left_seconds)| {
            Some(SeatedPlayer {
                user_id,
                username,
                color: parse_color(&color)?,
                time_left_seconds,
                leave: Vec::new(),
            })
        })
        .collect::<Vec<_>>();
    let mut players = players;
    for p in &mut players {
        p.leave = crate::usecases::leave::leave_periods(conn, p.user_id)?;
    }
    let moves = moves::table
        .filter(moves::game_id.eq(game_id))
        .order((moves::board.asc(), moves::ply.asc()))
        .select(Move::as_select())
        .load(conn)?;
    let messages = game_messages::table
        .inner_join(users::table)
        .filter(game_messages::game_id.eq(game_id))
        // Private notes never travel with the game; only `messages::my_note` reads them.
        .filter(game_messages::kind.ne("note"))
        .order(game_messages::id.asc())
        .select((GameMessage::as_select(), users::username))
        .load::<(GameMessage, String)>(conn)?
        .into_iter()
        .map(|(message, author)| Message { message, author })
        .collect();
    Ok(Some(GameRecord {
        game,
        players,
        moves,
        messages,
    }))
}

/// One line of a game list.
#[derive(Clone, Debug)]
pub struct GameSummary {
    pub id: i64,
    pub variant: String,
    pub white: String,
    pub black: String,
    pub status: String,
    pub result: String,
    pub ply: i32,
    pub my_color: Color,
    pub my_turn: bool,
    pub deadline_at: Option<NaiveDateTime>,
    pub updated_at: NaiveDateTime,
}

/// All games a user plays or played: awaiting their move first (most urgent first), then
/// the other running games, then finished ones, newest first.
pub fn my_games(conn: &mut DbConnection, user_id: i64) -> QueryResult<Vec<GameSummary>> {
    let rows: Vec<(Game, String)> = game_players::table
        .inner_join(games::table)
        .filter(game_players::user_id.eq(user_id))
        .select((Game::as_select(), game_players::color))
        .order(games::updated_at.desc())
        .limit(1000)
        .load(conn)?;
    let ids: Vec<i64> = rows.iter().map(|(g, _)| g.id).collect();
    let names: Vec<(i64, String, String)> = game_players::table
        .inner_join(users::table)
        .filter(game_players::game_id.eq_any(&ids))
        .select((game_players::game_id, game_players::color, users::username))
        .load(conn)?;
    let name = |game: i64, color: &str| {
        names
            .iter()
            .find(|(g, c, _)| *g == game && c == color)
            .map_or_else(|| "?".to_string(), |(_, _, n)| n.clone())
    };
    let mut list: Vec<GameSummary> = rows
        .into_iter()
        .map(|(g, color)| {
            let my_color = parse_color(&color).unwrap_or(Color::White);
            GameSummary {
                white: name(g.id, "white"),
                black: name(g.id, "black"),
                my_turn: g.status == "started" && g.turn == color,
                my_color,
                id: g.id,
                variant: g.variant,
                status: g.status,
                result: g.result,
                ply: g.ply,
                deadline_at: g.deadline_at,
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
    let group = if g.my_turn {
        0
    } else if g.status == "started" {
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

/// The games awaiting a user's move, most urgent first.
pub fn my_queue(conn: &mut DbConnection, user_id: i64) -> QueryResult<Vec<GameSummary>> {
    Ok(my_games(conn, user_id)?
        .into_iter()
        .filter(|g| g.my_turn)
        .collect())
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
