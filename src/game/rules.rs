//! The game as the rules see it: one enum over the rules crate's two-player `Game`, the
//! bughouse match and the minesweeper game, rebuilt from the record. Replays are kept in a
//! small per-process cache checked against the stored moves, so that a request for a long game
//! plays only the moves made since the last one instead of replaying from the start.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use diesel::prelude::*;
use slowfuse_rules::bughouse::{Board, BughouseEndReason, BughouseOutcome, Team};
use slowfuse_rules::minesweeper::{MinesweeperGame, MinesweeperOptions};
use slowfuse_rules::{BughouseGame, ClaimError, Color, Game, GameKind, GameRules, Variant};

use super::record::{CorruptGame, GameRecord};
use super::seat::{Seat, parse_color};
use super::status::GameStatus;
use crate::db::DbConnection;
use crate::models::Move;
use crate::schema::game_players;

/// A game as the rules crate plays it.
#[derive(Clone, Debug)]
pub enum RulesGame {
    /// One board, two players: every shakmaty variant.
    Chess(Game),
    /// Two crazyhouse boards, four players in two teams.
    Bughouse(BughouseGame),
    /// Standard chess with hidden bombs: holds secret state.
    Minesweeper(MinesweeperGame),
}

impl RulesGame {
    /// The two-player game, for the actions that only it has.
    pub fn chess(&self) -> Option<&Game> {
        match self {
            RulesGame::Chess(game) => Some(game),
            _ => None,
        }
    }

    /// Whether the rules say the game is over.
    pub fn is_over(&self) -> bool {
        match self {
            RulesGame::Chess(g) => g.is_over(),
            RulesGame::Bughouse(g) => g.is_over(),
            RulesGame::Minesweeper(g) => g.is_over(),
        }
    }

    /// The colour to move on a seat's board.
    pub fn turn(&self, board: i32) -> Color {
        match self {
            RulesGame::Chess(g) => g.turn(),
            RulesGame::Bughouse(g) => g.turn(board_of(board)),
            RulesGame::Minesweeper(g) => g.turn(),
        }
    }

    /// Whether it is this seat's turn on its board.
    pub fn is_turn_of(&self, seat: Seat) -> bool {
        self.turn(seat.board) == seat.color
    }
}

/// How a game ends off the board, as a seat asks it or the clock decides it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The seat gives up (in bughouse, for the team).
    Resign(Seat),
    /// The seat's time ran out.
    Flag(Seat),
    /// The players agreed a draw.
    Agree,
    /// The player to move claims a draw by the rules.
    Claim,
}

/// Why the rules refused to end the game.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum EndingRefused {
    #[error("the game is over")]
    Over,
    #[error("{0}")]
    Claim(ClaimError),
    #[error("no such player in this game")]
    NoSuchSeat,
}

impl From<slowfuse_rules::GameOver> for EndingRefused {
    fn from(_: slowfuse_rules::GameOver) -> Self {
        EndingRefused::Over
    }
}

impl RulesGame {
    /// The game ended `how`, by the rules of its kind (written once, in
    /// [`slowfuse_rules::GameRules`]); `self` is unchanged.
    pub fn end(&self, how: Ending) -> Result<RulesGame, EndingRefused> {
        let color = |seat: Seat| Some(seat.color);
        Ok(match self {
            RulesGame::Chess(g) => RulesGame::Chess(end_by(g, how, color)?),
            RulesGame::Bughouse(g) => RulesGame::Bughouse(end_by(g, how, Seat::bughouse)?),
            RulesGame::Minesweeper(g) => RulesGame::Minesweeper(end_by(g, how, color)?),
        })
    }

    /// Whether the rules let `seat` move now.
    pub fn lets_move(&self, seat: Seat) -> bool {
        match self {
            RulesGame::Chess(g) => g.is_turn_of(seat.color),
            RulesGame::Bughouse(g) => seat.bughouse().is_some_and(|s| g.is_turn_of(s)),
            RulesGame::Minesweeper(g) => g.is_turn_of(seat.color),
        }
    }
}

/// One game of any kind ended `how`; `player` names a seat as the kind knows its players.
fn end_by<G: GameRules>(
    game: &G,
    how: Ending,
    player: impl Fn(Seat) -> Option<G::Player>,
) -> Result<G, EndingRefused> {
    let player = |seat| player(seat).ok_or(EndingRefused::NoSuchSeat);
    Ok(match how {
        Ending::Resign(seat) => game.resign(player(seat)?)?,
        Ending::Flag(seat) => game.flag(player(seat)?)?,
        Ending::Agree => game.agree_draw()?,
        Ending::Claim => game.claim_draw().map_err(EndingRefused::Claim)?,
    })
}

/// The bughouse board of a stored board number.
pub fn board_of(board: i32) -> Board {
    if board == 1 { Board::B } else { Board::A }
}

impl GameRecord {
    /// The two-player game as the rules see it, with any off-board ending; `CorruptGame` for
    /// a bughouse or minesweeper record (see [`rules_game`]). Shared with the replay cache:
    /// reading it copies nothing.
    pub fn chess_game(&self) -> Result<Arc<Game>, CorruptGame> {
        let GameKind::Chess(variant) = self.kind else {
            return Err(self.corrupt(format!(
                "{} is not a two-player variant",
                self.kind.as_str()
            )));
        };
        let game = cached_replay(self, variant)?;
        if game.outcome().is_none()
            && self.status == GameStatus::Finished
            && let Some(outcome) = self.stored_outcome()
        {
            return Ok(Arc::new((*game).clone().with_outcome(outcome)));
        }
        Ok(game)
    }

    /// The two-player game as [`GameRecord::chess_game`] gives it, owned, to play a move on:
    /// taken out of the replay cache (no copy when nobody else reads it), to be put back with
    /// [`remember_replay`] once the move is stored.
    pub fn chess_game_to_play(&self) -> Result<Game, CorruptGame> {
        let game = self.chess_game()?;
        forget_replay(self.game.id, &game);
        Ok(Arc::unwrap_or_clone(game))
    }

    /// The bughouse match as the rules see it, with any off-board ending (resignation, time,
    /// agreement) read back from the row; `CorruptGame` for any other record.
    pub fn bughouse_game(&self) -> Result<BughouseGame, CorruptGame> {
        if self.kind != GameKind::Bughouse {
            return Err(self.corrupt(format!("{} is not bughouse", self.kind.as_str())));
        }
        let game = self.replay_bughouse()?;
        if game.outcome().is_none()
            && self.status == GameStatus::Finished
            && let Some(outcome) = self.stored_match_outcome()
        {
            return Ok(game.with_outcome(outcome));
        }
        Ok(game)
    }

    /// The ending written in a bughouse match's row (result from team A's side, and the
    /// reason); `None` for any other game.
    pub fn stored_match_outcome(&self) -> Option<BughouseOutcome> {
        if self.kind != GameKind::Bughouse {
            return None;
        }
        let reason = BughouseEndReason::from_name(self.game.termination.as_deref()?)?;
        let winner = match self.game.result.as_str() {
            "1-0" => Some(Team::A),
            "0-1" => Some(Team::B),
            "1/2-1/2" => None,
            _ => return None,
        };
        Some(BughouseOutcome {
            winner,
            reason,
            seat: None,
        })
    }

    fn replay_bughouse(&self) -> Result<BughouseGame, CorruptGame> {
        let fens: Vec<&str> = self.game.initial_fen.split(" | ").collect();
        let [fen_a, fen_b] = fens[..] else {
            return Err(self.corrupt("a bughouse start needs two FENs"));
        };
        let moves: Vec<(Board, String)> = self
            .moves_in_order()
            .map(|m| (board_of(m.board), m.uci.clone()))
            .collect();
        BughouseGame::replay([fen_a, fen_b], &moves).map_err(|e| self.corrupt(e.to_string()))
    }

    /// The moves in the order they were played (by id, across boards).
    fn moves_in_order(&self) -> impl Iterator<Item = &Move> {
        let mut moves: Vec<&Move> = self.moves.iter().collect();
        moves.sort_by_key(|m| m.id);
        moves.into_iter()
    }
}

/// The game as the rules see it. Minesweeper reads its players' secret rows here, and only
/// here: callers must never show the result to a reader but through its views.
pub fn rules_game(conn: &mut DbConnection, record: &GameRecord) -> Result<RulesGame, RulesError> {
    Ok(match record.kind {
        GameKind::Bughouse => RulesGame::Bughouse(record.bughouse_game()?),
        GameKind::Minesweeper => RulesGame::Minesweeper(minesweeper_game(conn, record)?),
        GameKind::Chess(_) => RulesGame::Chess(Arc::unwrap_or_clone(record.chess_game()?)),
    })
}

/// Why a game could not be rebuilt.
#[derive(Debug, thiserror::Error)]
pub enum RulesError {
    #[error(transparent)]
    Corrupt(#[from] CorruptGame),
    #[error(transparent)]
    Db(#[from] diesel::result::Error),
}

/// The minesweeper game from its options, both players' secret rows and the moves.
fn minesweeper_game(
    conn: &mut DbConnection,
    record: &GameRecord,
) -> Result<MinesweeperGame, RulesError> {
    let options: MinesweeperOptions = record
        .game
        .variant_options
        .parse()
        .map_err(|_| record.corrupt("unreadable minesweeper options"))?;
    let rows = read_secret_state(conn, record.game.id)?;
    let row = |color: Color| {
        rows.iter()
            .find(|(c, _)| *c == color)
            .map_or("", |(_, s)| s.as_str())
    };
    let ucis: Vec<String> = record.moves.iter().map(|m| m.uci.clone()).collect();
    let mut game = MinesweeperGame::restore(options, row(Color::White), row(Color::Black), &ucis)
        .map_err(|e| record.corrupt(e.to_string()))?;
    if game.outcome().is_none()
        && record.status == GameStatus::Finished
        && let Some(outcome) = record.stored_outcome()
    {
        game = game.with_outcome(outcome);
    }
    Ok(game)
}

/// The players' secret rows (minesweeper bombs and counts), by colour. The one function that
/// reads `game_players.secret_state`: never call it to show anything to a reader.
pub fn read_secret_state(
    conn: &mut DbConnection,
    game_id: i64,
) -> QueryResult<Vec<(Color, String)>> {
    let rows: Vec<(String, Option<String>)> = game_players::table
        .filter(game_players::game_id.eq(game_id))
        .select((game_players::color, game_players::secret_state))
        .load(conn)?;
    Ok(rows
        .into_iter()
        .filter_map(|(color, state)| Some((parse_color(&color)?, state.unwrap_or_default())))
        .collect())
}

/// Replays kept per game, at most this many games.
const CACHE_GAMES: usize = 4096;

/// One game's last replay: the start, and the game after its moves (which it holds, so they
/// need no copy here). A replay is used only for a record with the same start whose moves
/// begin with the same moves, so whatever the cache holds (another database's game of the
/// same id, a history changed since), the game it gives is the one replaying the record would
/// give.
struct Replayed {
    variant: Variant,
    initial_fen: String,
    game: Arc<Game>,
}

fn cache() -> &'static Mutex<HashMap<i64, Replayed>> {
    static CACHE: OnceLock<Mutex<HashMap<i64, Replayed>>> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(HashMap::new()))
}

/// The game after the stored moves, from the cache when it holds a prefix of them (playing
/// only the rest), else replayed from the start. Without an off-board ending.
fn cached_replay(record: &GameRecord, variant: Variant) -> Result<Arc<Game>, CorruptGame> {
    let start = {
        let cache = cache().lock().unwrap_or_else(|e| e.into_inner());
        cache
            .get(&record.game.id)
            .filter(|r| {
                let played = r.game.moves();
                r.variant == variant
                    && r.initial_fen == record.game.initial_fen
                    && played.len() <= record.moves.len()
                    && played
                        .iter()
                        .zip(record.moves.iter())
                        .all(|(p, m)| p.uci == m.uci)
            })
            .map(|r| (r.game.clone(), r.game.moves().len()))
    };
    let game = match start {
        Some((game, done)) if done == record.moves.len() => return Ok(game),
        Some((game, done)) => {
            // Taken out of the cache, the game is usually this reader's alone: played on in
            // place rather than copied.
            forget_replay(record.game.id, &game);
            Arc::new(play_on(record, Arc::unwrap_or_clone(game), done)?)
        }
        None => {
            let ucis: Vec<String> = record.moves.iter().map(|m| m.uci.clone()).collect();
            let game = Game::replay(variant, &record.game.initial_fen, &ucis)
                .map_err(|e| record.corrupt(e.to_string()))?;
            Arc::new(game)
        }
    };
    keep_replay(
        record.game.id,
        variant,
        &record.game.initial_fen,
        game.clone(),
    );
    Ok(game)
}

/// Keeps `game`, played from the start of game `game_id`, for the next request on that game:
/// a move's game once the move is stored, so that the next reader need not play it again.
pub fn remember_replay(game_id: i64, initial_fen: &str, game: Game) {
    keep_replay(game_id, game.variant(), initial_fen, Arc::new(game));
}

fn keep_replay(game_id: i64, variant: Variant, initial_fen: &str, game: Arc<Game>) {
    let mut cache = cache().lock().unwrap_or_else(|e| e.into_inner());
    if cache.len() >= CACHE_GAMES && !cache.contains_key(&game_id) {
        // Forget some game: the cache is a speed-up, never the truth.
        if let Some(&any) = cache.keys().next() {
            cache.remove(&any);
        }
    }
    cache.insert(
        game_id,
        Replayed {
            variant,
            initial_fen: initial_fen.to_owned(),
            game,
        },
    );
}

/// Drops the cache's entry for `game_id` if it is still `game`.
fn forget_replay(game_id: i64, game: &Arc<Game>) {
    let mut cache = cache().lock().unwrap_or_else(|e| e.into_inner());
    if cache
        .get(&game_id)
        .is_some_and(|r| Arc::ptr_eq(&r.game, game))
    {
        cache.remove(&game_id);
    }
}

/// Plays the stored moves from index `done` on.
fn play_on(record: &GameRecord, game: Game, done: usize) -> Result<Game, CorruptGame> {
    let ucis: Vec<String> = record.moves[done..].iter().map(|m| m.uci.clone()).collect();
    game.replay_more(&ucis)
        .map_err(|e| record.corrupt(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::models::{Game as GameRow, Move};
    use slowfuse_rules::STANDARD_START_FEN;

    fn record(id: i64, ucis: &[&str]) -> GameRecord {
        let at = chrono::DateTime::from_timestamp(0, 0).unwrap().naive_utc();
        let game = GameRow {
            id,
            variant: "standard".into(),
            variant_options: "{}".into(),
            initial_fen: STANDARD_START_FEN.into(),
            ply: ucis.len() as i32,
            status: "started".into(),
            result: "*".into(),
            termination: None,
            time_control: "none".into(),
            days_per_move: None,
            increment_seconds: None,
            cap_seconds: None,
            deadline_at: None,
            rated: false,
            is_public: true,
            created_at: at,
            updated_at: at,
            finished_at: None,
            initial_seconds: None,
            auto_flag: true,
            revision: 0,
        };
        let moves = ucis
            .iter()
            .enumerate()
            .map(|(i, uci)| Move {
                id: i as i64 + 1,
                game_id: id,
                board: 0,
                ply: i as i32,
                uci: uci.to_string(),
                san: String::new(),
                player_id: None,
                comment: None,
            })
            .collect();
        GameRecord {
            game,
            kind: GameKind::Chess(Variant::Standard),
            status: GameStatus::Started,
            players: Vec::new(),
            boards: Vec::new(),
            moves: Arc::new(moves),
            comment_times: Arc::default(),
            messages: Vec::new(),
            imported: None,
        }
    }

    fn replayed(ucis: &[&str]) -> String {
        let ucis: Vec<String> = ucis.iter().map(|u| u.to_string()).collect();
        Game::replay(Variant::Standard, STANDARD_START_FEN, &ucis)
            .unwrap()
            .fen()
    }

    #[test]
    fn the_cache_gives_what_a_replay_gives() {
        // A game seen before, then one more move: played on from the cached game.
        let id = 900_001;
        let first = record(id, &["e2e4", "e7e5"]);
        assert_eq!(
            first.chess_game().unwrap().fen(),
            replayed(&["e2e4", "e7e5"])
        );
        let longer = record(id, &["e2e4", "e7e5", "g1f3"]);
        assert_eq!(
            longer.chess_game().unwrap().fen(),
            replayed(&["e2e4", "e7e5", "g1f3"])
        );
        // Another database's game of the same id, or a history changed since: not the cache.
        let other = record(id, &["d2d4", "d7d5"]);
        assert_eq!(
            other.chess_game().unwrap().fen(),
            replayed(&["d2d4", "d7d5"])
        );
        let shorter = record(id, &["d2d4"]);
        assert_eq!(shorter.chess_game().unwrap().fen(), replayed(&["d2d4"]));
        assert_eq!(shorter.chess_game().unwrap().ply(), 1);
    }

    #[test]
    fn a_move_that_does_not_replay_is_a_corrupt_game() {
        let bad = record(900_002, &["e2e4", "e2e4"]);
        let error = bad.chess_game().unwrap_err();
        assert_eq!(error.game_id, 900_002);
    }
}
