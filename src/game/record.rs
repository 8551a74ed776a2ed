//! The game record: the stored game with its seated players (their leave read once), moves
//! and messages. Loading it never reads private notes, conditional lines or secret state.

use std::sync::Arc;

use chrono::NaiveDateTime;
use diesel::prelude::*;
use slowfuse_rules::{Color, EndReason, GameKind, LeavePeriod, Outcome};

use super::clock::leave_period;
use super::seat::{Seat, parse_color};
use super::status::GameStatus;
use crate::db::DbConnection;
use crate::models::{Game, GameBoard, GameMessage, Move};
use crate::schema::{
    computer_players, game_boards, game_messages, game_players, games, leaves, moves, users,
};

/// A player in their seat.
#[derive(Clone, Debug)]
pub struct SeatedPlayer {
    pub user_id: i64,
    pub username: String,
    pub seat: Seat,
    /// The player's time bank in seconds at the start of their turn (None: no clock).
    pub time_left_seconds: Option<i64>,
    /// The player's booked leave (their clocks stand still then).
    pub leave: Vec<LeavePeriod>,
    /// The level (`easy`, `medium`, `hard`) when the player is a computer account.
    pub computer_level: Option<String>,
}

impl SeatedPlayer {
    /// The colour the player plays on their board.
    pub fn color(&self) -> Color {
        self.seat.color
    }

    /// The name the pages show: "Computer (Easy)" for a computer account, else the username.
    pub fn shown_name(&self) -> String {
        shown_name(&self.username, self.computer_level.as_deref())
    }
}

/// The name shown for the account `username`: "Computer (Easy)" when it is a computer
/// account of that `level`, else the username.
pub fn shown_name(username: &str, level: Option<&str>) -> String {
    match level {
        Some("easy") => "Computer (Easy)".to_string(),
        Some("medium") => "Computer (Medium)".to_string(),
        Some("hard") => "Computer (Hard)".to_string(),
        _ => username.to_string(),
    }
}

/// One board's state: its position, whose turn, the deadline of the player to move, the
/// standing draw offer. A two-player game has one board (0); bughouse two.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardState {
    pub board: i32,
    /// FEN of the current position.
    pub fen: String,
    /// Moves made on this board.
    pub ply: i32,
    pub turn: Color,
    /// When the player to move runs out of time (None: no clock, or the game is over).
    pub deadline_at: Option<NaiveDateTime>,
    /// The colour whose draw offer stands.
    pub draw_offer: Option<Color>,
    pub last_move_at: Option<NaiveDateTime>,
}

impl From<GameBoard> for BoardState {
    fn from(row: GameBoard) -> Self {
        BoardState {
            board: row.board,
            fen: row.fen,
            ply: row.ply,
            turn: parse_color(&row.turn).unwrap_or(Color::White),
            deadline_at: row.deadline_at,
            draw_offer: row.draw_offer.as_deref().and_then(parse_color),
            last_move_at: row.last_move_at,
        }
    }
}

/// A message with its author's name.
#[derive(Clone, Debug)]
pub struct Message {
    pub message: GameMessage,
    pub author: String,
}

/// Everything stored about one game that any reader may be shown something of.
#[derive(Clone, Debug)]
pub struct GameRecord {
    pub game: Game,
    /// What kind of game it is (the row's `variant`, read once).
    pub kind: GameKind,
    /// Where the game stands (the row's `status`, read once).
    pub status: GameStatus,
    pub players: Vec<SeatedPlayer>,
    /// The boards, by number; never empty.
    pub boards: Vec<BoardState>,
    /// In board and ply order; shared with the record cache (see `game::cache`).
    pub moves: Arc<Vec<Move>>,
    /// When each move with a comment was played, by move id.
    pub comment_times: Arc<CommentTimes>,
    pub messages: Vec<Message>,
    /// For a game imported from PGN: the players' names and tags it came with (its players
    /// are names, not accounts, but for the importer's own side).
    pub imported: Option<super::ImportedPlayers>,
}

/// The stored record does not replay: a bug or a damaged database, never a user's doing.
#[derive(Debug, thiserror::Error)]
#[error("game {game_id} does not replay: {reason}")]
pub struct CorruptGame {
    pub game_id: i64,
    pub reason: String,
}

impl GameRecord {
    /// Whether one of the computer's accounts sits in the game: only then is there a reason to
    /// wake the computer after a player acts.
    pub fn seats_a_computer(&self) -> bool {
        self.players.iter().any(|p| p.computer_level.is_some())
    }

    /// The player in one seat.
    pub fn player(&self, seat: Seat) -> Option<&SeatedPlayer> {
        self.players.iter().find(|p| p.seat == seat)
    }

    /// The name the pages show for one seat: [`SeatedPlayer::shown_name`], else as [`Self::name_of`].
    pub fn shown_name_of(&self, seat: Seat) -> String {
        match self.player(seat) {
            Some(p) => p.shown_name(),
            None => self.name_of(seat).to_string(),
        }
    }

    /// The name people read for one side of the result: its player's, or in a bughouse match
    /// its team's, the seat on board a then the partner on board b ("alice & dave"; team A is
    /// White's side). Computer accounts as "Computer (Easy)".
    pub fn side_name(&self, side: Color) -> String {
        let first = self.shown_name_of(Seat::first_board(side));
        match self.board(1) {
            Some(_) => {
                let partner = self.shown_name_of(Seat {
                    board: 1,
                    color: !side,
                });
                format!("{first} & {partner}")
            }
            None => first,
        }
    }

    /// The name of the player in one seat: their account's, else the name an imported game's
    /// PGN gives, else "?" for an empty seat.
    pub fn name_of(&self, seat: Seat) -> &str {
        match (self.player(seat), &self.imported) {
            (Some(p), _) => p.username.as_str(),
            (None, Some(imported)) if seat.board == 0 => imported.name(seat.color),
            (None, _) => "?",
        }
    }

    /// Whether an account sits in this seat (an imported game's other player is only a name).
    pub fn is_account(&self, seat: Seat) -> bool {
        self.player(seat).is_some()
    }

    /// The seat a user plays here, if they play.
    pub fn seat_of(&self, user_id: i64) -> Option<Seat> {
        self.players
            .iter()
            .find(|p| p.user_id == user_id)
            .map(|p| p.seat)
    }

    /// Whether the game is being played.
    pub fn is_started(&self) -> bool {
        self.status == GameStatus::Started
    }

    /// The first (in a two-player game the only) board.
    pub fn first_board(&self) -> &BoardState {
        &self.boards[0]
    }

    /// One board by number.
    pub fn board(&self, board: i32) -> Option<&BoardState> {
        self.boards.iter().find(|b| b.board == board)
    }

    /// The colour to move on the first board.
    pub fn turn(&self) -> Color {
        self.first_board().turn
    }

    /// The seat to move on the first board.
    pub fn seat_to_move(&self) -> Seat {
        Seat::first_board(self.turn())
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

    /// When a move with a comment was played (`None` for a move without one).
    pub fn comment_time(&self, move_id: i64) -> Option<NaiveDateTime> {
        self.comment_times
            .iter()
            .find(|(id, _)| *id == move_id)
            .map(|(_, at)| *at)
    }

    /// The record as the rows read after `stored` was written with `after` by
    /// [`super::store::claim_game_for_move`] (which counts the revision once) and
    /// [`super::store::store_move_on_board`], and the mover's (`seat`) bank set to `bank`: what
    /// a read would give, without the read. Only for a move that ended nothing and after which
    /// nothing else was written (no lines followed, no notice).
    pub fn with_move_stored(
        mut self,
        now: NaiveDateTime,
        (seat, bank): (Seat, Option<i64>),
        stored: Move,
        after: &super::store::AfterMove<'_>,
    ) -> GameRecord {
        self.game.revision += 1;
        self.game.ply = after.game_ply;
        self.game.updated_at = now;
        self.game.deadline_at = after.game_deadline;
        if let Some(board) = self.boards.iter_mut().find(|b| b.board == seat.board) {
            board.fen = after.fen.to_string();
            board.ply = after.board_ply;
            board.turn = after.turn;
            board.last_move_at = Some(now);
            board.deadline_at = after.deadline;
            board.draw_offer = after.draw_offer.map(|s| s.color);
        }
        if let Some(player) = self.players.iter_mut().find(|p| p.seat == seat) {
            player.time_left_seconds = bank;
        }
        if stored.comment.is_some() {
            Arc::make_mut(&mut self.comment_times).push((stored.id, now));
        }
        let moves = Arc::make_mut(&mut self.moves);
        moves.push(stored);
        moves.sort_by_key(|m| (m.board, m.ply));
        self
    }

    /// A refusal to replay this game, with why.
    pub fn corrupt(&self, reason: impl Into<String>) -> CorruptGame {
        CorruptGame {
            game_id: self.game.id,
            reason: reason.into(),
        }
    }
}

/// Loads a game with everything stored about it that a reader may be shown.
pub fn load_game(conn: &mut DbConnection, game_id: i64) -> QueryResult<Option<GameRecord>> {
    let Some(mut record) = load_head(conn, game_id)? else {
        return Ok(None);
    };
    let (moves, comment_times) = load_moves(conn, game_id)?;
    record.moves = Arc::new(moves);
    record.comment_times = Arc::new(comment_times);
    Ok(Some(record))
}

/// When each move with a comment was played, by move id.
pub type CommentTimes = Vec<(i64, NaiveDateTime)>;

/// A game's moves (in board and ply order) and the times of those with a comment (only
/// theirs: reading every move's time was a long game's largest cost).
pub(super) fn load_moves(
    conn: &mut DbConnection,
    game_id: i64,
) -> QueryResult<(Vec<Move>, CommentTimes)> {
    let moves = moves::table
        .filter(moves::game_id.eq(game_id))
        .order((moves::board.asc(), moves::ply.asc()))
        .select(Move::as_select())
        .load(conn)?;
    let comment_times = moves::table
        .filter(moves::game_id.eq(game_id))
        .filter(moves::comment.is_not_null())
        .select((moves::id, moves::played_at))
        .load(conn)?;
    Ok((moves, comment_times))
}

/// The moves stored after the move `after` (a few, as a rule), with the times of those with
/// a comment, in one query.
pub(super) fn load_moves_since(
    conn: &mut DbConnection,
    game_id: i64,
    after: i64,
) -> QueryResult<(Vec<Move>, CommentTimes)> {
    let rows: Vec<(Move, NaiveDateTime)> = crate::on_backend!(conn, |c| moves::table
        .filter(moves::game_id.eq(game_id))
        .filter(moves::id.gt(after))
        .order((moves::board.asc(), moves::ply.asc()))
        .select((Move::as_select(), moves::played_at))
        .load(c))?;
    let times = rows
        .iter()
        .filter(|(m, _)| m.comment.is_some())
        .map(|(m, at)| (m.id, *at))
        .collect();
    Ok((rows.into_iter().map(|(m, _)| m).collect(), times))
}

/// A game's row, players, boards and messages; its moves left empty. Read on every page view,
/// game JSON and move, its queries (as the moves' since the cached ones) go to the backend's
/// own connection (`on_backend!`): through the multi-backend connection each query's SQL
/// would be written out again at every run.
pub(super) fn load_head(conn: &mut DbConnection, game_id: i64) -> QueryResult<Option<GameRecord>> {
    // The row and its boards in one query: a game has at least one board.
    let rows: Vec<(Game, GameBoard)> = crate::on_backend!(conn, |c| games::table
        .inner_join(game_boards::table)
        .filter(games::id.eq(game_id))
        .order(game_boards::board.asc())
        .select((Game::as_select(), GameBoard::as_select()))
        .load(c))?;
    let Some(game) = rows.first().map(|(game, _)| game.clone()) else {
        return Ok(None);
    };
    let boards: Vec<BoardState> = rows
        .into_iter()
        .map(|(_, board)| BoardState::from(board))
        .collect();
    let status: GameStatus = game
        .status
        .parse()
        .map_err(|e| diesel::result::Error::DeserializationError(Box::new(e)))?;
    let kind: GameKind = game
        .variant
        .parse()
        .map_err(|e| diesel::result::Error::DeserializationError(Box::new(e)))?;
    let players = load_players(conn, game_id)?;
    // Only a game with an empty seat can be an imported one: a played game reads nothing more.
    let imported = if players.len() < 2 {
        super::imported::imported_players(conn, game_id)?
    } else {
        None
    };
    // Private notes never travel with the game; only `messages::my_note` reads them.
    let messages: Vec<(GameMessage, String)> = crate::on_backend!(conn, |c| game_messages::table
        .inner_join(users::table)
        .filter(game_messages::game_id.eq(game_id))
        .filter(game_messages::kind.ne("note"))
        .order(game_messages::id.asc())
        .select((GameMessage::as_select(), users::username))
        .load(c))?;
    let messages = messages
        .into_iter()
        .map(|(message, author)| Message { message, author })
        .collect();
    Ok(Some(GameRecord {
        game,
        kind,
        status,
        players,
        boards,
        moves: Arc::default(),
        comment_times: Arc::default(),
        messages,
        imported,
    }))
}

/// Loads a game as [`load_game`] does, all of it as of one moment (see
/// [`crate::db::read_snapshot`]): for a reader outside any transaction.
pub fn read_game(conn: &mut DbConnection, game_id: i64) -> QueryResult<Option<GameRecord>> {
    crate::db::read_snapshot(conn, |c| load_game(c, game_id))
}

/// The seated players with their banks, and all their leave read in one query.
fn load_players(conn: &mut DbConnection, game_id: i64) -> QueryResult<Vec<SeatedPlayer>> {
    // One row a seat and period of leave (a seat without leave: one row with none).
    type Row = (
        (i64, String, i32, String, Option<i64>, Option<String>),
        Option<(NaiveDateTime, NaiveDateTime)>,
    );
    let rows: Vec<Row> = crate::on_backend!(conn, |c| game_players::table
        .inner_join(users::table)
        .left_join(computer_players::table.on(computer_players::user_id.eq(users::id)))
        .left_join(leaves::table.on(leaves::user_id.eq(game_players::user_id)))
        .filter(game_players::game_id.eq(game_id))
        .order((
            game_players::board.asc(),
            game_players::color.desc(),
            leaves::starts_at.asc(),
        ))
        .select((
            (
                game_players::user_id,
                users::username,
                game_players::board,
                game_players::color,
                game_players::time_left_seconds,
                computer_players::level.nullable(),
            ),
            (leaves::starts_at, leaves::ends_at).nullable(),
        ))
        .load(c))?;
    let mut players: Vec<SeatedPlayer> = Vec::new();
    for ((user_id, username, board, color, time_left_seconds, level), leave) in rows {
        let Some(color) = parse_color(&color) else {
            continue;
        };
        let seat = Seat { board, color };
        let period = leave.map(|(start, end)| leave_period(start, end));
        match players.last_mut() {
            Some(last) if last.seat == seat => last.leave.extend(period),
            _ => players.push(SeatedPlayer {
                user_id,
                username,
                seat,
                time_left_seconds,
                leave: period.into_iter().collect(),
                computer_level: level,
            }),
        }
    }
    Ok(players)
}

/// A player's leave that fell within a game: who, when, and the ply the game stood at when it
/// began (0 for leave already running when the game began).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeaveTaken {
    pub user_id: i64,
    pub username: String,
    pub start: NaiveDateTime,
    pub end: NaiveDateTime,
    pub ply: i32,
}

/// The leave the game's players have taken during it, begun by `now`, in order: one count of
/// moves per period (a player books a few periods a year).
pub fn leave_taken(
    conn: &mut DbConnection,
    record: &GameRecord,
    now: NaiveDateTime,
) -> QueryResult<Vec<LeaveTaken>> {
    let began = record.game.created_at;
    let ended = record.game.finished_at.unwrap_or(now).min(now);
    let mut taken = Vec::new();
    for player in &record.players {
        for period in &player.leave {
            let (Some(start), Some(end)) = (
                chrono::DateTime::from_timestamp(period.start, 0),
                chrono::DateTime::from_timestamp(period.end, 0),
            ) else {
                continue;
            };
            let (start, end) = (start.naive_utc(), end.naive_utc());
            if start > ended || end <= began {
                continue;
            }
            let ply: i64 = moves::table
                .filter(moves::game_id.eq(record.game.id))
                .filter(moves::board.eq(player.seat.board))
                .filter(moves::played_at.le(start))
                .count()
                .get_result(conn)?;
            taken.push(LeaveTaken {
                user_id: player.user_id,
                username: player.username.clone(),
                start,
                end,
                ply: i32::try_from(ply).unwrap_or(i32::MAX),
            });
        }
    }
    taken.sort_by_key(|l| (l.ply, l.start));
    Ok(taken)
}

/// The players' names of many games at once, for lists; with the sides of imported games that
/// are only names (no account to link to).
pub struct PlayerNames(Vec<NameRow>, Vec<(i64, &'static str)>);

/// A seat's name in a list: game, board, colour, username, the name shown.
type NameRow = (i64, i32, String, String, String);

impl PlayerNames {
    /// Whether the player of `color` in `game` is an account (not a PGN name of an imported
    /// game).
    pub fn is_account(&self, game: i64, color: &str) -> bool {
        !self.1.iter().any(|(g, c)| *g == game && *c == color)
    }

    /// The name of the player of `color` (`"white"` or `"black"`) in `game`, or `?`. In a
    /// bughouse match, the side is a team: White's is team A (A1 and A2, "alice & dave"),
    /// Black's team B.
    pub fn of(&self, game: i64, color: &str) -> String {
        self.side(game, color, |row| &row.3)
    }

    /// As [`PlayerNames::of`], with a computer account shown as "Computer (Easy)" and so on:
    /// the name for people to read (`of` is the one to link to).
    pub fn shown(&self, game: i64, color: &str) -> String {
        self.side(game, color, |row| &row.4)
    }

    fn side(&self, game: i64, color: &str, name: impl Fn(&NameRow) -> &String) -> String {
        let seat = |board: i32, color: &str| {
            self.0
                .iter()
                .find(|(g, b, c, ..)| *g == game && *b == board && c == color)
                .map(|row| name(row).as_str())
        };
        let partner_color = if color == "white" { "black" } else { "white" };
        match (seat(0, color), seat(1, partner_color)) {
            (Some(first), Some(partner)) => format!("{first} & {partner}"),
            (Some(first), None) => first.to_string(),
            (None, _) => "?".to_string(),
        }
    }
}

/// Reads the names of the players of `games`: the seated accounts in one query, then the PGN
/// names of imported games for the sides no account sits on.
pub fn player_names(conn: &mut DbConnection, games: &[i64]) -> QueryResult<PlayerNames> {
    let seated: Vec<(i64, i32, String, String, Option<String>)> = game_players::table
        .inner_join(users::table.left_join(computer_players::table))
        .filter(game_players::game_id.eq_any(games))
        .select((
            game_players::game_id,
            game_players::board,
            game_players::color,
            users::username,
            computer_players::level.nullable(),
        ))
        .load(conn)?;
    let mut rows: Vec<NameRow> = seated
        .into_iter()
        .map(|(game, board, color, username, level)| {
            let shown = shown_name(&username, level.as_deref());
            (game, board, color, username, shown)
        })
        .collect();
    let mut names_only = Vec::new();
    for (game, white, black) in super::imported::imported_names(conn, games)? {
        for (color, name) in [("white", white), ("black", black)] {
            if !rows
                .iter()
                .any(|(g, b, c, ..)| *g == game && *b == 0 && c == color)
            {
                rows.push((game, 0, color.to_string(), name.clone(), name));
                names_only.push((game, color));
            }
        }
    }
    Ok(PlayerNames(rows, names_only))
}
