//! Creating a game: one `create_game` for every way a game begins (an accepted challenge, a
//! full bughouse challenge, a game against the computer). It writes the game row, its boards,
//! its players with their banks, minesweeper's secret rows and the first deadlines (each
//! board's White on their clock, their leave counted); it stores no challenge and records no
//! mail, which stay with its callers.

use chrono::{Duration, NaiveDateTime};
use slowfuse_rules::bughouse::{Board, BughouseGame};
use slowfuse_rules::minesweeper::{MinesweeperGame, MinesweeperOptions};
use slowfuse_rules::{Color, Game, GameKind, STANDARD_START_FEN, TimeControl, Variant};

use crate::db::DbConnection;
use crate::game::clock::{deadline, leave_periods};
use crate::game::store::{GameStart, create_board, insert_game, insert_player, write_secret_state};
use crate::game::{GameStatus, Seat};
use crate::random::Random;
use crate::usecases::minesweeper::{DEFAULT_SETUP_HOURS, MAX_SETUP_HOURS, seed};

/// A minesweeper game's terms: who places the bombs and how they go off, and how long the
/// players have to place theirs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MinesweeperTerms {
    pub options: MinesweeperOptions,
    /// Hours from the start until the setup ends, when the players place their bombs.
    pub setup_hours: i32,
}

impl Default for MinesweeperTerms {
    /// The players place their bombs, within two days.
    fn default() -> Self {
        MinesweeperTerms {
            options: MinesweeperOptions::default(),
            setup_hours: DEFAULT_SETUP_HOURS,
        }
    }
}

/// A game to create: its kind, who sits where, its clock and its terms.
#[derive(Clone, Debug)]
pub struct GameSpec {
    pub kind: GameKind,
    /// Each seat with the user who takes it: White and Black on board 0 in a game of two, the
    /// four seats of boards 0 and 1 in bughouse.
    pub players: Vec<(Seat, i64)>,
    pub time: TimeControl,
    pub rated: bool,
    /// False: a private game, its comments for the players only and no kibitz.
    pub public: bool,
    /// False: a player out of time loses only when the opponent claims it.
    pub auto_flag: bool,
    /// A minesweeper game's terms (the default ones when `None`); `None` for any other kind.
    pub minesweeper: Option<MinesweeperTerms>,
}

/// Why no game was created; nothing was stored.
#[derive(Debug, thiserror::Error)]
pub enum NewGameError {
    #[error("a {kind} game seats {expected} players, not {given}")]
    SeatCount {
        kind: &'static str,
        expected: usize,
        given: usize,
    },
    #[error("a {kind} game has no seat {seat}")]
    NoSuchSeat { kind: &'static str, seat: String },
    #[error("seat {0} is given twice")]
    SeatTwice(String),
    #[error("a player may take one seat of a game only")]
    PlayerTwice,
    #[error("a rated game needs a clock: choose days per move or Fischer")]
    RatedNeedsClock,
    #[error("minesweeper options are for minesweeper games only")]
    OptionsForAnotherKind,
    #[error("setup_hours must be between 1 and {MAX_SETUP_HOURS}")]
    BadSetupHours,
    #[error(transparent)]
    Db(#[from] diesel::result::Error),
}

impl GameSpec {
    /// The players in the order of the kind's seats (board by board, White first), once the
    /// spec is whole: every seat of its kind taken once, by different players, a clock for a
    /// rated game, minesweeper terms only for minesweeper and within their limits.
    fn checked_players(&self) -> Result<Vec<(Seat, i64)>, NewGameError> {
        let kind = self.kind.as_str();
        let seats = seats_of(self.kind);
        if self.players.len() != seats.len() {
            return Err(NewGameError::SeatCount {
                kind,
                expected: seats.len(),
                given: self.players.len(),
            });
        }
        for (i, (seat, user)) in self.players.iter().enumerate() {
            if !seats.contains(seat) {
                let seat = seat_name(self.kind, *seat);
                return Err(NewGameError::NoSuchSeat { kind, seat });
            }
            let earlier = &self.players[..i];
            if earlier.iter().any(|(s, _)| s == seat) {
                return Err(NewGameError::SeatTwice(seat_name(self.kind, *seat)));
            }
            if earlier.iter().any(|(_, u)| u == user) {
                return Err(NewGameError::PlayerTwice);
            }
        }
        if self.rated && !self.time.is_timed() {
            // A losing player could otherwise stall a rated game for ever.
            return Err(NewGameError::RatedNeedsClock);
        }
        match (self.kind, self.minesweeper) {
            (GameKind::Minesweeper, Some(terms))
                if !(1..=MAX_SETUP_HOURS).contains(&terms.setup_hours) =>
            {
                return Err(NewGameError::BadSetupHours);
            }
            (GameKind::Minesweeper, _) | (_, None) => {}
            (_, Some(_)) => return Err(NewGameError::OptionsForAnotherKind),
        }
        Ok(seats
            .into_iter()
            .filter_map(|seat| self.players.iter().find(|(s, _)| *s == seat).copied())
            .collect())
    }
}

/// The seats of a kind of game, board by board, White first: in bughouse A1, B1, B2, A2.
fn seats_of(kind: GameKind) -> Vec<Seat> {
    (0..kind.boards())
        .flat_map(|board| {
            [Color::White, Color::Black].map(|color| Seat {
                board: board as i32,
                color,
            })
        })
        .collect()
}

/// A seat as players name it: `A1` … `A2` in bughouse, else its colour (and board).
fn seat_name(kind: GameKind, seat: Seat) -> String {
    match (kind, seat.bughouse(), seat.board) {
        (GameKind::Bughouse, Some(name), _) => name.to_string(),
        (_, _, 0) => seat.color_name().to_string(),
        (_, _, board) => format!("{} on board {}", seat.color_name(), board + 1),
    }
}

/// How a game of its kind begins: the start position as stored, each board's position, and
/// for minesweeper the game whose setup and secret rows come with it.
struct Opening {
    initial_fen: String,
    boards: Vec<String>,
    minesweeper: Option<MinesweeperGame>,
}

/// The opening of a new game of `kind`. Chance decides a Chess960 start position and the
/// bombs of a minesweeper game whose players place none.
fn opening(kind: GameKind, terms: MinesweeperTerms, random: &dyn Random) -> Opening {
    match kind {
        GameKind::Chess(variant) => {
            let game = match variant {
                // Each Chess960 game draws one of the 960 start positions.
                Variant::Chess960 => Game::chess960(random.below(960) as u16)
                    .expect("0..960 is a valid start position number"),
                _ => Game::new(variant),
            };
            let fen = game.fen();
            Opening {
                initial_fen: fen.clone(),
                boards: vec![fen],
                minesweeper: None,
            }
        }
        GameKind::Bughouse => {
            let game = BughouseGame::new();
            let fens = [Board::A, Board::B].map(|b| game.initial_fen(b).to_string());
            Opening {
                initial_fen: fens.join(" | "),
                boards: fens.to_vec(),
                minesweeper: None,
            }
        }
        GameKind::Minesweeper => {
            let mut game = MinesweeperGame::new(terms.options);
            if !terms.options.players_place() {
                game = game
                    .finish_setup(seed(random))
                    .expect("a new game is in its setup");
            }
            Opening {
                initial_fen: STANDARD_START_FEN.to_string(),
                boards: vec![game.fen()],
                minesweeper: Some(game),
            }
        }
    }
}

/// Creates the game `spec` describes and returns its id. It starts at once, each board's White
/// to move on their clock (which stands still while they are on leave), or, for a minesweeper
/// game whose players place their bombs, with its setup until `setup_hours` from `now`.
/// `random` draws a Chess960 start position and bombs placed at random.
pub fn create_game(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    random: &dyn Random,
    spec: &GameSpec,
) -> Result<i64, NewGameError> {
    let players = spec.checked_players()?;
    let terms = spec.minesweeper.unwrap_or_default();
    let opening = opening(spec.kind, terms, random);
    let in_setup = opening
        .minesweeper
        .as_ref()
        .is_some_and(MinesweeperGame::in_setup);
    let variant_options = match spec.kind {
        GameKind::Minesweeper => terms.options.as_str(),
        GameKind::Chess(_) | GameKind::Bughouse => "{}".to_string(),
    };
    let bank = spec.time.initial_bank();
    crate::db::write_transaction(conn, |conn| {
        let mut board_deadlines = Vec::new();
        for board in 0..opening.boards.len() {
            board_deadlines.push(if in_setup {
                Some(now + Duration::hours(i64::from(terms.setup_hours)))
            } else {
                let white = Seat {
                    board: board as i32,
                    color: Color::White,
                };
                let (_, user) = players
                    .iter()
                    .find(|(s, _)| *s == white)
                    .copied()
                    .expect("checked_players seats a White on every board");
                deadline(spec.time, now, bank, &leave_periods(conn, user)?)
            });
        }
        let start = GameStart {
            kind: spec.kind,
            variant_options: &variant_options,
            initial_fen: &opening.initial_fen,
            status: if in_setup {
                GameStatus::Setup
            } else {
                GameStatus::Started
            },
            time: spec.time,
            rated: spec.rated,
            public: spec.public,
            auto_flag: spec.auto_flag,
            deadline: board_deadlines.iter().flatten().min().copied(),
        };
        let game_id = insert_game(conn, now, &start)?;
        for (board, (fen, due)) in opening.boards.iter().zip(&board_deadlines).enumerate() {
            create_board(conn, now, game_id, board as i32, fen, *due)?;
        }
        for (seat, user_id) in players {
            insert_player(conn, game_id, user_id, seat, bank)?;
            if let Some(game) = &opening.minesweeper {
                write_secret_state(conn, game_id, seat.color, &game.secret_state(seat.color))?;
            }
        }
        Ok(game_id)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn two(kind: GameKind, white: i64, black: i64) -> GameSpec {
        GameSpec {
            kind,
            players: vec![
                (Seat::first_board(Color::White), white),
                (Seat::first_board(Color::Black), black),
            ],
            time: TimeControl::days_per_move(3),
            rated: true,
            public: true,
            auto_flag: true,
            minesweeper: None,
        }
    }

    fn refusal(spec: &GameSpec) -> String {
        spec.checked_players()
            .expect_err("the spec is refused")
            .to_string()
    }

    #[test]
    fn a_whole_spec_lists_its_players_in_seat_order() {
        let mut spec = two(GameKind::Chess(Variant::Atomic), 1, 2);
        spec.players.reverse();
        let players = spec.checked_players().expect("a whole spec");
        assert_eq!(players[0], (Seat::first_board(Color::White), 1));
        assert_eq!(players[1], (Seat::first_board(Color::Black), 2));
    }

    #[test]
    fn each_seat_is_taken_once_by_a_different_player() {
        let chess = GameKind::Chess(Variant::Standard);
        let mut three = two(chess, 1, 2);
        three.players.push((Seat::first_board(Color::White), 3));
        assert_eq!(refusal(&three), "a standard game seats 2 players, not 3");
        let mut one_seat_twice = two(chess, 1, 2);
        one_seat_twice.players[1].0 = Seat::first_board(Color::White);
        assert_eq!(refusal(&one_seat_twice), "seat white is given twice");
        assert_eq!(
            refusal(&two(chess, 7, 7)),
            "a player may take one seat of a game only"
        );
        let mut board_b = two(chess, 1, 2);
        board_b.players[1].0 = Seat {
            board: 1,
            color: Color::Black,
        };
        assert_eq!(
            refusal(&board_b),
            "a standard game has no seat black on board 2"
        );
    }

    #[test]
    fn bughouse_seats_four_players_on_two_boards() {
        let mut spec = two(GameKind::Bughouse, 1, 2);
        assert_eq!(refusal(&spec), "a bughouse game seats 4 players, not 2");
        spec.players = vec![
            (
                Seat {
                    board: 1,
                    color: Color::Black,
                },
                4,
            ),
            (
                Seat {
                    board: 1,
                    color: Color::White,
                },
                3,
            ),
            (Seat::first_board(Color::Black), 2),
            (Seat::first_board(Color::White), 1),
        ];
        let players = spec.checked_players().expect("four seats");
        assert_eq!(
            players.iter().map(|(_, u)| *u).collect::<Vec<_>>(),
            [1, 2, 3, 4],
            "A1, B1, B2, A2"
        );
        spec.players[0].0 = Seat::first_board(Color::White);
        assert_eq!(refusal(&spec), "seat A1 is given twice");
    }

    #[test]
    fn terms_fit_the_game() {
        let mut unlimited = two(GameKind::Chess(Variant::Atomic), 1, 2);
        unlimited.time = TimeControl::Unlimited;
        assert_eq!(
            refusal(&unlimited),
            "a rated game needs a clock: choose days per move or Fischer"
        );
        let mut bombs_in_atomic = two(GameKind::Chess(Variant::Atomic), 1, 2);
        bombs_in_atomic.minesweeper = Some(MinesweeperTerms::default());
        assert_eq!(
            refusal(&bombs_in_atomic),
            "minesweeper options are for minesweeper games only"
        );
        let mut long_setup = two(GameKind::Minesweeper, 1, 2);
        long_setup.minesweeper = Some(MinesweeperTerms {
            setup_hours: MAX_SETUP_HOURS + 1,
            ..MinesweeperTerms::default()
        });
        assert_eq!(
            refusal(&long_setup),
            "setup_hours must be between 1 and 336"
        );
        long_setup.minesweeper = None;
        assert!(long_setup.checked_players().is_ok(), "the default terms");
    }
}
