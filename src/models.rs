//! Database rows: what is read (`User`, `Game`, …) and what is inserted (`NewUser`, …).

use chrono::NaiveDateTime;
use diesel::prelude::*;

use crate::schema::{
    api_tokens, challenges, game_boards, game_messages, game_players, games, login_attempts, moves,
    users,
};

/// A registered player.
#[derive(Clone, Debug, Queryable, Selectable, Identifiable)]
#[diesel(table_name = users)]
pub struct User {
    pub id: i64,
    pub username: String,
    pub username_key: String,
    pub email: String,
    pub email_verified_at: Option<NaiveDateTime>,
    pub password_hash: String,
    pub time_zone: String,
    pub created_at: NaiveDateTime,
    /// The hour (0–23, in `time_zone`) at which the daily digest goes out.
    pub digest_hour: i32,
    /// The generation of the user's logins: a session made under another value is logged out.
    pub session_epoch: i32,
    /// The name's confusable skeleton (`crate::usernames::skeleton_key`), unique; `None` for
    /// an account made before skeletons whose skeleton an older account holds.
    pub username_skeleton: Option<String>,
}

/// A player about to be registered.
#[derive(Insertable)]
#[diesel(table_name = users)]
pub struct NewUser<'a> {
    pub username: &'a str,
    pub username_key: &'a str,
    pub username_skeleton: &'a str,
    pub email: &'a str,
    pub password_hash: &'a str,
    pub created_at: NaiveDateTime,
}

/// A personal API token, stored as a hash.
#[derive(Insertable)]
#[diesel(table_name = api_tokens)]
pub struct NewApiToken<'a> {
    pub user_id: i64,
    pub token_hash: &'a str,
    pub label: &'a str,
    pub created_at: NaiveDateTime,
}

/// A failed login, kept for throttling.
#[derive(Insertable)]
#[diesel(table_name = login_attempts)]
pub struct NewLoginAttempt<'a> {
    pub throttle_key: &'a str,
    pub attempted_at: NaiveDateTime,
}

/// An open seek or a direct challenge.
#[derive(Clone, Debug, Queryable, Selectable, Identifiable)]
#[diesel(table_name = challenges)]
pub struct Challenge {
    pub id: i64,
    pub creator_id: i64,
    pub opponent_id: Option<i64>,
    pub kind: String,
    pub share_token: String,
    pub variant: String,
    pub variant_options: String,
    pub color: String,
    pub time_control: String,
    pub days_per_move: Option<i32>,
    pub increment_seconds: Option<i32>,
    pub cap_seconds: Option<i32>,
    pub rated: bool,
    pub status: String,
    pub game_id: Option<i64>,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
    pub initial_seconds: Option<i32>,
    pub auto_flag: bool,
    /// False: a private game, its comments for the players only.
    pub is_public: bool,
    /// Minesweeper: the hours the players have to place their bombs.
    pub setup_hours: Option<i32>,
}

/// A challenge about to be stored.
#[derive(Insertable)]
#[diesel(table_name = challenges)]
pub struct NewChallenge<'a> {
    pub creator_id: i64,
    pub opponent_id: Option<i64>,
    pub kind: &'a str,
    pub share_token: &'a str,
    pub variant: &'a str,
    pub color: &'a str,
    pub time_control: &'a str,
    pub days_per_move: Option<i32>,
    pub initial_seconds: Option<i32>,
    pub increment_seconds: Option<i32>,
    pub cap_seconds: Option<i32>,
    pub auto_flag: bool,
    pub is_public: bool,
    pub rated: bool,
    pub status: &'a str,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
    pub variant_options: &'a str,
    pub setup_hours: Option<i32>,
}

/// A game (one board, or the match of a bughouse pair) as stored.
#[derive(Clone, Debug, Queryable, Selectable, Identifiable)]
#[diesel(table_name = games)]
pub struct Game {
    pub id: i64,
    pub variant: String,
    pub variant_options: String,
    pub initial_fen: String,
    pub ply: i32,
    pub status: String,
    pub result: String,
    pub termination: Option<String>,
    pub time_control: String,
    pub days_per_move: Option<i32>,
    pub increment_seconds: Option<i32>,
    pub cap_seconds: Option<i32>,
    pub deadline_at: Option<NaiveDateTime>,
    pub rated: bool,
    pub is_public: bool,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
    pub finished_at: Option<NaiveDateTime>,
    pub initial_seconds: Option<i32>,
    pub auto_flag: bool,
    /// Counts every change of the game row: a move prepared before the write lock is stored
    /// only if the revision it read is still the current one.
    pub revision: i64,
}

/// A game about to be created (`usecases::new_game`).
#[derive(Insertable)]
#[diesel(table_name = games)]
pub struct NewGame<'a> {
    pub variant: &'a str,
    pub variant_options: &'a str,
    pub initial_fen: &'a str,
    pub status: &'a str,
    pub result: &'a str,
    pub time_control: &'a str,
    pub days_per_move: Option<i32>,
    pub initial_seconds: Option<i32>,
    pub increment_seconds: Option<i32>,
    pub cap_seconds: Option<i32>,
    pub auto_flag: bool,
    pub deadline_at: Option<NaiveDateTime>,
    pub rated: bool,
    pub is_public: bool,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
}

/// A seat in a game: which user plays which colour on which board.
#[derive(Clone, Debug, Queryable, Selectable)]
#[diesel(table_name = game_players)]
pub struct GamePlayer {
    pub id: i64,
    pub game_id: i64,
    pub user_id: i64,
    pub board: i32,
    pub color: String,
    pub time_left_seconds: Option<i64>,
    pub secret_state: Option<String>,
}

/// A seat about to be taken.
#[derive(Insertable)]
#[diesel(table_name = game_players)]
pub struct NewGamePlayer<'a> {
    pub game_id: i64,
    pub user_id: i64,
    pub board: i32,
    pub color: &'a str,
    pub time_left_seconds: Option<i64>,
}

/// One move as read with its game, with its comment (neither the FEN after it nor its time is
/// read: the rules' game has every position, and the record keeps the times of commented moves
/// only, as reading every timestamp was a long game's largest cost).
#[derive(Clone, Debug, Queryable, Selectable)]
#[diesel(table_name = moves)]
pub struct Move {
    pub id: i64,
    pub game_id: i64,
    pub board: i32,
    pub ply: i32,
    pub uci: String,
    pub san: String,
    pub player_id: Option<i64>,
    pub comment: Option<String>,
}

/// A move about to be stored.
#[derive(Insertable)]
#[diesel(table_name = moves)]
pub struct NewMove<'a> {
    pub game_id: i64,
    pub board: i32,
    pub ply: i32,
    pub uci: &'a str,
    pub san: &'a str,
    pub fen_after: &'a str,
    pub player_id: Option<i64>,
    pub comment: Option<&'a str>,
    pub played_at: NaiveDateTime,
}

/// A message that went with an action (draw offer, resignation, …) or stood alone.
#[derive(Clone, Debug, Queryable, Selectable)]
#[diesel(table_name = game_messages)]
pub struct GameMessage {
    pub id: i64,
    pub game_id: i64,
    pub user_id: i64,
    pub ply: i32,
    pub kind: String,
    pub body: String,
    pub created_at: NaiveDateTime,
}

/// A message about to be stored.
#[derive(Insertable)]
#[diesel(table_name = game_messages)]
pub struct NewGameMessage<'a> {
    pub game_id: i64,
    pub user_id: i64,
    pub ply: i32,
    pub kind: &'a str,
    pub body: &'a str,
    pub created_at: NaiveDateTime,
}

/// A player's Glicko-2 rating in one variant (on the familiar scale: 1500, RD 350).
#[derive(Clone, Debug, Queryable, Selectable)]
#[diesel(table_name = crate::schema::ratings)]
pub struct Rating {
    pub id: i64,
    pub user_id: i64,
    pub variant: String,
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    pub games: i32,
    pub updated_at: NaiveDateTime,
}

/// A rating about to be created (the starting values, before a player's first rated game).
#[derive(Insertable)]
#[diesel(table_name = crate::schema::ratings)]
pub struct NewRating<'a> {
    pub user_id: i64,
    pub variant: &'a str,
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    pub games: i32,
    pub updated_at: NaiveDateTime,
}

/// How one rated game changed one player's rating.
#[derive(Clone, Debug, Queryable, Selectable)]
#[diesel(table_name = crate::schema::rating_history)]
pub struct RatingChange {
    pub id: i64,
    pub user_id: i64,
    pub variant: String,
    pub game_id: i64,
    pub opponent_id: i64,
    pub score: f64,
    pub rating_before: f64,
    pub deviation_before: f64,
    pub rating_after: f64,
    pub deviation_after: f64,
    pub volatility_after: f64,
    pub created_at: NaiveDateTime,
}

/// A rating change about to be recorded.
#[derive(Insertable)]
#[diesel(table_name = crate::schema::rating_history)]
pub struct NewRatingChange<'a> {
    pub user_id: i64,
    pub variant: &'a str,
    pub game_id: i64,
    pub opponent_id: i64,
    pub score: f64,
    pub rating_before: f64,
    pub deviation_before: f64,
    pub rating_after: f64,
    pub deviation_after: f64,
    pub volatility_after: f64,
    pub created_at: NaiveDateTime,
}

/// A user's private tag on a game, about to be stored.
#[derive(Insertable)]
#[diesel(table_name = crate::schema::game_tags)]
pub struct NewGameTag<'a> {
    pub user_id: i64,
    pub game_id: i64,
    pub tag: &'a str,
    pub created_at: NaiveDateTime,
}

/// One mail to send, written by a use case in the same transaction as its event.
#[derive(Clone, Debug, Queryable, Selectable)]
#[diesel(table_name = crate::schema::outbox)]
pub struct OutboxRow {
    pub id: i64,
    pub kind: String,
    pub user_id: i64,
    pub game_id: Option<i64>,
    pub dedup_key: String,
    pub payload: String,
    pub status: String,
    pub attempts: i32,
    pub next_attempt_at: NaiveDateTime,
    pub last_error: Option<String>,
    pub created_at: NaiveDateTime,
    pub sent_at: Option<NaiveDateTime>,
    pub message_id: Option<String>,
}

/// A mail about to be queued.
#[derive(Insertable)]
#[diesel(table_name = crate::schema::outbox)]
pub struct NewOutboxRow<'a> {
    pub kind: &'a str,
    pub user_id: i64,
    pub game_id: Option<i64>,
    pub dedup_key: &'a str,
    pub payload: &'a str,
    pub status: &'a str,
    pub next_attempt_at: NaiveDateTime,
    pub created_at: NaiveDateTime,
}

/// One board of a game as stored: position, turn, deadline, draw offer.
#[derive(Clone, Debug, Queryable, Selectable)]
#[diesel(table_name = game_boards)]
pub struct GameBoard {
    pub id: i64,
    pub game_id: i64,
    pub board: i32,
    pub fen: String,
    pub ply: i32,
    pub turn: String,
    pub deadline_at: Option<NaiveDateTime>,
    pub draw_offer: Option<String>,
    pub last_move_at: Option<NaiveDateTime>,
}

/// A board about to be created with its game.
#[derive(Insertable)]
#[diesel(table_name = game_boards)]
pub struct NewGameBoard<'a> {
    pub game_id: i64,
    pub board: i32,
    pub fen: &'a str,
    pub turn: &'a str,
    pub deadline_at: Option<NaiveDateTime>,
    /// When the time-running-low scan first looks at the board: when it was made, if it has
    /// a deadline (`crate::game::store::low_time_look`).
    pub low_time_at: Option<NaiveDateTime>,
}

/// One seat of a four-seat (bughouse) challenge: who took it, who alone may take it.
#[derive(Clone, Debug, Queryable, Selectable)]
#[diesel(table_name = crate::schema::challenge_seats)]
pub struct ChallengeSeat {
    pub id: i64,
    pub challenge_id: i64,
    /// `A1`, `B1`, `B2` or `A2`.
    pub seat: String,
    pub user_id: Option<i64>,
    pub invited_id: Option<i64>,
    pub taken_at: Option<NaiveDateTime>,
}

/// A seat of a new four-seat challenge.
#[derive(Insertable)]
#[diesel(table_name = crate::schema::challenge_seats)]
pub struct NewChallengeSeat<'a> {
    pub challenge_id: i64,
    pub seat: &'a str,
    pub user_id: Option<i64>,
    pub invited_id: Option<i64>,
    pub taken_at: Option<NaiveDateTime>,
}

/// A line of a bughouse team's chat, about to be stored.
#[derive(Insertable)]
#[diesel(table_name = crate::schema::team_chat)]
pub struct NewTeamChatLine<'a> {
    pub game_id: i64,
    pub team: &'a str,
    pub user_id: i64,
    pub body: &'a str,
    pub created_at: NaiveDateTime,
}

/// A game imported from PGN: its own record beside the game row.
#[derive(Insertable)]
#[diesel(table_name = crate::schema::game_imports)]
pub struct NewGameImport<'a> {
    pub game_id: i64,
    pub import_key: &'a str,
    pub imported_by: Option<i64>,
    pub white_name: &'a str,
    pub black_name: &'a str,
    pub white_key: &'a str,
    pub black_key: &'a str,
    pub tags: &'a str,
    pub imported_at: NaiveDateTime,
}
