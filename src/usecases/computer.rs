//! Playing the computer: a game started at once against the computer's account for a level,
//! the games where the computer is to act, and its turn (a minesweeper setup's bombs placed at
//! random, an answer to a draw offer by its own judgement, or the engine's move, stored as any
//! player's move; in a bughouse match it keeps pace with the people on the other board).
//! Exactly once across instances:
//! the move goes through `play::act` with the ply it was searched at, so a second worker
//! that searched the same turn finds the game moved on and stores nothing.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use slowfuse_engine::{EngineError, EnginePosition, Level, Limits, best_move};
use slowfuse_rules::bughouse::Seat as BughouseSeat;
use slowfuse_rules::{Color, GameKind, TimeControl};

use crate::db::DbConnection;
use crate::game::rules::board_of;
use crate::game::{CorruptGame, GameRecord, GameStatus, RecordCache, Seat, read_game_cached};
use crate::models::Challenge;
use crate::random::Random;
use crate::schema::{computer_players, game_boards, game_players, games};
use crate::usecases::challenges::{
    ChallengeError, ChallengeRequest, OFFERED_VARIANTS, accept_challenge, create_challenge,
};
use crate::usecases::minesweeper::{MinesError, place_rest_at_random};
use crate::usecases::new_game::{GameSpec, MinesweeperTerms, NewGameError, create_game};
use crate::usecases::play::{Action, ActionRequest, PlayError, act};
use crate::usecases::seats::{
    SeatChoice, SeatedChallenge, SeatedChallengeRequest, create_seated_challenge, take_seat,
};
use slowfuse_rules::bughouse::Board;

/// The most positions the Hard level looks at for one move (Easy and Medium stop sooner by
/// their own caps): a fraction of a second in an optimised build.
pub const HARD_NODES: u64 = 150_000;

/// What a player asks for: the variant, their colour and the computer's level, as sent.
#[derive(Clone, Debug)]
pub struct ComputerGameRequest {
    pub variant: String,
    pub color: String,
    pub level: String,
}

/// Why no game against the computer was started, or the computer did not act.
#[derive(Debug, thiserror::Error)]
pub enum ComputerError {
    #[error("level must be easy, medium or hard")]
    UnknownLevel,
    #[error(
        "the computer plays atomic, standard, chess960, crazyhouse, antichess, kingofthehill, threecheck, horde, racingkings and minesweeper: choose one of them"
    )]
    UnknownVariant,
    #[error("colour must be white, black or random")]
    BadColor,
    #[error("the computer's {0} account is missing on this server")]
    NoAccount(&'static str),
    #[error("the computer plays casual games only: leave \"rated\" off to play it")]
    Rated,
    #[error(transparent)]
    Challenge(#[from] ChallengeError),
    #[error(transparent)]
    NewGame(#[from] NewGameError),
    #[error(transparent)]
    Play(#[from] PlayError),
    #[error(transparent)]
    Minesweeper(#[from] MinesError),
    #[error(transparent)]
    Corrupt(#[from] CorruptGame),
    #[error(transparent)]
    Db(#[from] diesel::result::Error),
}

/// A level by its stable name (`easy`, `medium`, `hard`).
pub fn parse_level(name: &str) -> Option<Level> {
    let name = name.trim().to_ascii_lowercase();
    Level::ALL.into_iter().find(|l| l.as_str() == name)
}

/// The accounts that play `level`, the first one first (a bughouse match seats several).
pub fn computer_accounts(conn: &mut DbConnection, level: Level) -> Result<Vec<i64>, ComputerError> {
    let ids: Vec<i64> = computer_players::table
        .filter(computer_players::level.eq(level.as_str()))
        .order(computer_players::user_id.asc())
        .select(computer_players::user_id)
        .load(conn)?;
    if ids.is_empty() {
        return Err(ComputerError::NoAccount(level.as_str()));
    }
    Ok(ids)
}

/// The account that plays `level` in a two-player game.
pub fn computer_account(conn: &mut DbConnection, level: Level) -> Result<i64, ComputerError> {
    Ok(computer_accounts(conn, level)?[0])
}

/// Creates a challenge as `challenges::create_challenge` does; when it is addressed to one of
/// the computer's accounts, that account accepts it at once (any variant, with or without a
/// clock) and the game's id comes back too. The computer plays casual games only: a rated
/// challenge to it is refused and nothing is stored.
pub fn create_challenge_answered(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    random: &dyn Random,
    creator_id: i64,
    req: &ChallengeRequest,
) -> Result<(Challenge, Option<i64>), ComputerError> {
    crate::db::write_transaction(conn, |conn| {
        let challenge = create_challenge(conn, now, creator_id, req)?;
        let Some(opponent) = challenge.opponent_id else {
            return Ok((challenge, None));
        };
        if !is_computer(conn, opponent)? {
            return Ok((challenge, None));
        }
        if challenge.rated {
            return Err(ComputerError::Rated);
        }
        let game_id = accept_challenge(conn, now, random, challenge.id, opponent, None)?;
        Ok((challenge, Some(game_id)))
    })
}

/// Whether `user_id` is one of the computer's accounts.
pub fn is_computer(conn: &mut DbConnection, user_id: i64) -> QueryResult<bool> {
    Ok(computer_players::table
        .find(user_id)
        .select(computer_players::user_id)
        .get_result::<i64>(conn)
        .optional()?
        .is_some())
}

/// Creates a bughouse challenge as `seats::create_seated_challenge` does, then seats the
/// computer at `level` in every seat nobody was invited to (one account a seat); when that
/// fills the fourth seat the match starts. Returns the challenge as it then stands and the
/// match's id once started.
pub fn create_seated_with_computer(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    random: &dyn Random,
    creator_id: i64,
    req: &SeatedChallengeRequest,
    level: &str,
) -> Result<(SeatedChallenge, Option<i64>), ComputerError> {
    let level = parse_level(level).ok_or(ComputerError::UnknownLevel)?;
    if req.rated {
        return Err(ComputerError::Rated);
    }
    let accounts = computer_accounts(conn, level)?;
    crate::db::write_transaction(conn, |conn| {
        let mut seated = create_seated_challenge(conn, now, creator_id, req)?;
        let free: Vec<BughouseSeat> = seated
            .free_seats()
            .filter(|s| s.invited.is_none())
            .map(|s| s.seat)
            .collect();
        if free.len() > accounts.len() {
            return Err(ComputerError::NoAccount(level.as_str()));
        }
        let mut game_id = None;
        let token = seated.challenge.share_token.clone();
        for (seat, account) in free.into_iter().zip(accounts) {
            let id = seated.challenge.id;
            (seated, game_id) = take_seat(
                conn,
                now,
                random,
                id,
                account,
                SeatChoice::Seat(seat),
                Some(&token),
            )?;
        }
        Ok((seated, game_id))
    })
}

/// Starts a casual game without a clock between `user_id` and the computer at the level asked
/// for; a minesweeper game starts with its setup (the computer places its bombs on its next
/// turn). Returns the game's id.
pub fn start_computer_game(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    random: &dyn Random,
    user_id: i64,
    req: &ComputerGameRequest,
) -> Result<i64, ComputerError> {
    let level = parse_level(&req.level).ok_or(ComputerError::UnknownLevel)?;
    let kind = match req.variant.trim().parse::<GameKind>() {
        Ok(GameKind::Chess(v)) if OFFERED_VARIANTS.contains(&v) => GameKind::Chess(v),
        Ok(GameKind::Minesweeper) => GameKind::Minesweeper,
        _ => return Err(ComputerError::UnknownVariant),
    };
    let color = req.color.trim().to_ascii_lowercase();
    let mine = match color.as_str() {
        "white" => Color::White,
        "black" => Color::Black,
        "random" if random.coin() => Color::White,
        "random" => Color::Black,
        _ => return Err(ComputerError::BadColor),
    };
    let computer = computer_account(conn, level)?;
    let spec = GameSpec {
        kind,
        players: vec![
            (Seat::first_board(mine), user_id),
            (Seat::first_board(!mine), computer),
        ],
        time: TimeControl::Unlimited,
        rated: false,
        public: true,
        auto_flag: true,
        minesweeper: (kind == GameKind::Minesweeper).then(MinesweeperTerms::default),
    };
    Ok(create_game(conn, now, random, &spec)?)
}

/// Whether the computer is to move in the running game `game_id`.
pub fn computer_to_move(conn: &mut DbConnection, game_id: i64) -> QueryResult<bool> {
    let found: i64 = game_players::table
        .inner_join(games::table.inner_join(game_boards::table))
        .inner_join(computer_players::table.on(computer_players::user_id.eq(game_players::user_id)))
        .filter(games::id.eq(game_id))
        .filter(games::status.eq(GameStatus::Started.as_str()))
        .filter(game_boards::board.eq(game_players::board))
        .filter(game_boards::turn.eq(game_players::color))
        .count()
        .get_result(conn)?;
    Ok(found > 0)
}

/// A game where the computer's account `user_id` is to act at `level`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ComputerTurn {
    pub game_id: i64,
    pub user_id: i64,
    pub level: String,
}

/// Every running game where the computer is to move, and every minesweeper setup it plays in
/// (whether its bombs are placed is seen when its turn is taken), oldest change first. Read
/// in [`crate::db::read_planned_for_values`]: a plan made for any accounts walked every game
/// from the least recently changed on (`games_recent_order`) when the computer had none, 40 ms
/// a pass on 100,000 games; planned for the computer's accounts, their seats are read.
/// Call it outside any transaction.
pub fn computer_turns(conn: &mut DbConnection) -> QueryResult<Vec<ComputerTurn>> {
    crate::db::read_planned_for_values(conn, turns_of_computers)
}

fn turns_of_computers(conn: &mut DbConnection) -> QueryResult<Vec<ComputerTurn>> {
    let accounts: Vec<(i64, String)> = computer_players::table
        .select((computer_players::user_id, computer_players::level))
        .load(conn)?;
    if accounts.is_empty() {
        return Ok(Vec::new());
    }
    let ids: Vec<i64> = accounts.iter().map(|(id, _)| *id).collect();
    let to_move: Vec<(i64, i64)> = game_players::table
        .inner_join(games::table.inner_join(game_boards::table))
        .filter(game_players::user_id.eq_any(&ids))
        .filter(games::status.eq(GameStatus::Started.as_str()))
        .filter(game_boards::board.eq(game_players::board))
        .filter(game_boards::turn.eq(game_players::color))
        .order(games::updated_at.asc())
        .select((games::id, game_players::user_id))
        .limit(200)
        .load(conn)?;
    // An offer of a draw from the computer's opponent on its board: answered at once, whoever
    // is to move.
    let offered: Vec<(i64, i64)> = game_players::table
        .inner_join(games::table.inner_join(game_boards::table))
        .filter(game_players::user_id.eq_any(&ids))
        .filter(games::status.eq(GameStatus::Started.as_str()))
        .filter(game_boards::board.eq(game_players::board))
        .filter(game_boards::draw_offer.is_not_null())
        .filter(game_boards::draw_offer.ne(game_players::color.nullable()))
        .order(games::updated_at.asc())
        .select((games::id, game_players::user_id))
        .limit(200)
        .load(conn)?;
    let in_setup: Vec<(i64, i64)> = game_players::table
        .inner_join(games::table)
        .filter(game_players::user_id.eq_any(&ids))
        .filter(games::status.eq(GameStatus::Setup.as_str()))
        .order(games::updated_at.asc())
        .select((games::id, game_players::user_id))
        .limit(200)
        .load(conn)?;
    let level_of = |user: i64| {
        accounts
            .iter()
            .find(|(id, _)| *id == user)
            .map_or_else(String::new, |(_, l)| l.clone())
    };
    let mut seen = std::collections::HashSet::new();
    Ok(offered
        .into_iter()
        .chain(to_move)
        .chain(in_setup)
        .filter(|turn| seen.insert(*turn))
        .map(|(game_id, user_id)| ComputerTurn {
            game_id,
            user_id,
            level: level_of(user_id),
        })
        .collect())
}

/// What the computer did on its turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ComputerAction {
    /// It placed its minesweeper bombs.
    PlacedBombs,
    /// It played this move (UCI).
    Moved(String),
    /// It answered its opponent's draw offer: accepted (`true`) or declined.
    AnsweredDraw(bool),
}

/// How much worse, in centipawns for the computer, the position must look for it to accept a
/// draw: a little less than half a pawn's disadvantage. Otherwise it declines.
pub const DRAW_ACCEPT_BELOW_CP: i32 = -40;

/// Whether the computer accepts a draw offered in a position it judges `score_cp` centipawns
/// for itself.
pub fn accepts_draw(score_cp: i32) -> bool {
    score_cp < DRAW_ACCEPT_BELOW_CP
}

/// Takes the computer's turn in one game: the engine's move searched within `limits` and
/// seeded from the game and its ply, then stored as any player's move with the ply it was
/// searched at. `None` when there was nothing to do, or another worker did it first.
pub fn play_computer_turn(
    conn: &mut DbConnection,
    records: &RecordCache,
    now: NaiveDateTime,
    random: &dyn Random,
    turn: &ComputerTurn,
    limits: &Limits,
) -> Result<Option<ComputerAction>, ComputerError> {
    let level = parse_level(&turn.level).ok_or(ComputerError::UnknownLevel)?;
    let Some(record) = read_game_cached(conn, records, turn.game_id)? else {
        return Ok(None);
    };
    let Some(seat) = record.seat_of(turn.user_id) else {
        return Ok(None);
    };
    if record.kind == GameKind::Bughouse {
        return play_match_turn(conn, records, now, &record, turn, (level, limits));
    }
    let minesweeper = record.kind == GameKind::Minesweeper;
    if record.is_started() && record.first_board().draw_offer == Some(!seat.color) {
        let position = if minesweeper {
            let game = crate::usecases::minesweeper::secret_game(conn, &record)?;
            EnginePosition::from_minesweeper(&game.player_view(seat.color)).ok()
        } else {
            Some(EnginePosition::from_game(&*record.chess_game()?))
        };
        let Some(position) = position else {
            return Ok(None);
        };
        let to_move = record.first_board().turn == seat.color;
        let seed = seed_of(turn.game_id, record.game.ply, None);
        let accept = judged_worse(&position, to_move, limits, seed);
        let answer = if accept {
            Action::AcceptDraw
        } else {
            Action::DeclineDraw
        };
        let req = ActionRequest::at_ply(turn.game_id, turn.user_id, record.game.ply, answer);
        match act_as_computer(conn, records, now, &req)? {
            // Declined on its own turn: it moves now too, on the game as it stands.
            true if !accept && to_move => {
                return play_computer_turn(conn, records, now, random, turn, limits);
            }
            true => return Ok(Some(ComputerAction::AnsweredDraw(accept))),
            false => return Ok(None),
        }
    }
    if record.status == GameStatus::Setup && minesweeper {
        let game = crate::usecases::minesweeper::secret_game(conn, &record)?;
        if game.bombs_placed(seat.color) >= game.options().bombs_of(Some(seat.color)) {
            return Ok(None);
        }
        return match place_rest_at_random(conn, now, random, turn.game_id, turn.user_id) {
            Ok(_) => Ok(Some(ComputerAction::PlacedBombs)),
            Err(MinesError::SetupOver) => Ok(None),
            Err(e) => Err(e.into()),
        };
    }
    let board = record.first_board();
    if record.status != GameStatus::Started || board.turn != seat.color {
        return Ok(None);
    }
    let position = if minesweeper {
        let game = crate::usecases::minesweeper::secret_game(conn, &record)?;
        // Only what the computer's own side knows: its bombs, never the other side's.
        match EnginePosition::from_minesweeper(&game.player_view(seat.color)) {
            Ok(p) => p,
            Err(_) => return Ok(None),
        }
    } else {
        EnginePosition::from_game(&*record.chess_game()?)
    };
    let seed = seed_of(turn.game_id, record.game.ply, None);
    let uci = match best_move(&position, level, limits, seed) {
        Ok(found) => found.uci,
        Err(EngineError::GameOver) => return Ok(None),
    };
    let req = ActionRequest::at_ply(
        turn.game_id,
        turn.user_id,
        record.game.ply,
        Action::Move(uci.clone()),
    );
    Ok(act_as_computer(conn, records, now, &req)?.then_some(ComputerAction::Moved(uci)))
}

/// The computer acts through the one action pipeline, as a player does. False when another
/// worker acted first, the offer was withdrawn or the game ended meanwhile: nothing to do.
fn act_as_computer(
    conn: &mut DbConnection,
    records: &RecordCache,
    now: NaiveDateTime,
    req: &ActionRequest,
) -> Result<bool, ComputerError> {
    match act(conn, records, now, 0, req) {
        Ok(_) => Ok(true),
        Err(
            PlayError::Stale { .. }
            | PlayError::NotYourTurn(_)
            | PlayError::GameOver(_)
            | PlayError::TimeUp
            | PlayError::Draw(_),
        ) => Ok(false),
        Err(e) => Err(e.into()),
    }
}

/// Whether the computer judges its side worse in `position` ([`accepts_draw`]), at any level
/// by the strongest search (a weaker level's deliberate slips are for its moves, not its
/// judgement): the engine's score for the side to move, turned to the computer's view when
/// it is not to move.
fn judged_worse(
    position: &EnginePosition,
    computer_to_move: bool,
    limits: &Limits,
    seed: u64,
) -> bool {
    match best_move(position, Level::Hard, limits, seed) {
        Ok(found) if computer_to_move => accepts_draw(found.score_cp),
        Ok(found) => accepts_draw(-found.score_cp),
        // No move left: the rules end the game, there is nothing to answer.
        Err(EngineError::GameOver) => false,
    }
}

/// How many plies a board where the computer plays itself may be ahead of the other board of a
/// match when people play there (see "Computer seats" in `docs/variants.md`).
pub const MATCH_PLIES_AHEAD: i32 = 2;

/// Whether the computer, on `board` of a match where it plays both seats, waits for the people
/// on the other board: its board is already [`MATCH_PLIES_AHEAD`] plies ahead of theirs.
fn waits_for_the_people(record: &GameRecord, board: i32) -> bool {
    let is_computer = |b: i32| {
        record
            .players
            .iter()
            .filter(|p| p.seat.board == b)
            .all(|p| p.computer_level.is_some())
    };
    let other = 1 - board;
    let (Some(mine), Some(theirs)) = (record.board(board), record.board(other)) else {
        return false;
    };
    is_computer(board) && !is_computer(other) && mine.ply - theirs.ply >= MATCH_PLIES_AHEAD
}

/// The engine's seed for a turn: the same game, ply and (in a bughouse match) board always
/// give the same move.
fn seed_of(game_id: i64, ply: i32, board: Option<i32>) -> u64 {
    let turn = match board {
        None => ply as u64,
        Some(board) => (ply as u64) << 1 | board as u64,
    };
    (game_id as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ turn
}

/// The computer's turn on its board of a bughouse match (played as crazyhouse with the pieces
/// in hand the match gives it), stored through `play::act`, the one action pipeline, at the board's ply.
fn play_match_turn(
    conn: &mut DbConnection,
    records: &RecordCache,
    now: NaiveDateTime,
    record: &GameRecord,
    turn: &ComputerTurn,
    (level, limits): (Level, &Limits),
) -> Result<Option<ComputerAction>, ComputerError> {
    let Some(seat) = record.seat_of(turn.user_id) else {
        return Ok(None);
    };
    let Some(board) = record.board(seat.board) else {
        return Ok(None);
    };
    let offered = board.draw_offer == Some(!seat.color);
    if !record.is_started() || (board.turn != seat.color && !offered) {
        return Ok(None);
    }
    if !offered && waits_for_the_people(record, seat.board) {
        return Ok(None);
    }
    let game = record.bughouse_game()?;
    let Ok(position) = EnginePosition::from_bughouse(&game, board_of(seat.board)) else {
        return Ok(None);
    };
    if offered {
        let seed = seed_of(turn.game_id, record.game.ply, Some(seat.board));
        let accept = judged_worse(&position, board.turn == seat.color, limits, seed);
        let answer = if accept {
            Action::AcceptDraw
        } else {
            Action::DeclineDraw
        };
        let req = on_board(turn, board_of(seat.board), board.ply, answer);
        return Ok(act_as_computer(conn, records, now, &req)?
            .then_some(ComputerAction::AnsweredDraw(accept)));
    }
    let seed = seed_of(turn.game_id, record.game.ply, Some(seat.board));
    let uci = match best_move(&position, level, limits, seed) {
        Ok(found) => found.uci,
        Err(EngineError::GameOver) => return Ok(None),
    };
    let req = on_board(
        turn,
        board_of(seat.board),
        board.ply,
        Action::Move(uci.clone()),
    );
    Ok(act_as_computer(conn, records, now, &req)?.then_some(ComputerAction::Moved(uci)))
}

/// The computer's request on its board of a match, at that board's ply.
fn on_board(turn: &ComputerTurn, board: Board, ply: i32, action: Action) -> ActionRequest {
    ActionRequest {
        board: Some(board),
        ..ActionRequest::at_ply(turn.game_id, turn.user_id, ply, action)
    }
}
