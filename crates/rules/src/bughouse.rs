//! Bughouse (correspondence): two linked crazyhouse boards, four players in two teams, BPGN.
//!
//! # Who plays where
//!
//! The design names the players by team letter and board number; Slowfuse
//! calls the boards A and B as BPGN does (board A is the design's board 1):
//!
//! | board | White | Black |
//! |---|---|---|
//! | A | [`Seat::A1`] | [`Seat::B1`] |
//! | B | [`Seat::B2`] | [`Seat::A2`] |
//!
//! [`Team::A`] is A1 and A2 (White on board A, Black on board B);
//! [`Team::B`] is B1 and B2. Partners play opposite colours. In BPGN, the
//! `WhiteA`, `BlackA`, `WhiteB` and `BlackB` tags name A1, B1, B2 and A2, and
//! the result is told from team A's side: `1-0` means team A won.
//!
//! # Rules
//!
//! Each board follows crazyhouse rules (legality is shakmaty's
//! `Crazyhouse`), except:
//!
//! * **Captured pieces go to the partner.** A captured piece goes into the
//!   pocket of the capturer's partner on the other board, in the partner's
//!   colour; a promoted piece (`~` in the FEN) goes as a pawn.
//! * **Sitting instead of mate.** A player in check without a legal move is
//!   checkmated only when no drop of any piece type could block the check:
//!   a double check, or a check from a knight, a pawn or an adjacent piece.
//!   When one empty square lies between a single checking piece and the king,
//!   the player *sits*: they wait, on their own clock, for their partner to
//!   send a piece. Each board has its own side to move; the other board plays
//!   on.
//! * **A sitter who can never be helped is mated.** The board of a sitting
//!   player cannot change until they move, so the only pieces that can still
//!   reach them are those their partner's opponent has on the other board or
//!   in hand (a promoted piece counting as a pawn). When none of those could
//!   block the check (none left, or only pawns and every blocking square is
//!   on the first or last rank), the sitter is checkmated. When the players to
//!   move on both boards sit, nothing can ever move again: partners sitting
//!   together lose (checkmate), opponents sitting against each other draw
//!   ([`BughouseEndReason::Deadlock`]).
//! * **The first board to finish decides the match** for all four:
//!   checkmate, resignation or time loses for the player's team, stalemate on
//!   either board is a draw, and the four may agree a draw. There are no
//!   repetition or fifty-move draws.
//!
//! The crate keeps no clocks: [`BughouseGame::to_move`] says whose clock runs
//! on each board (a sitting player's included) and [`BughouseGame::flag`]
//! records a time loss the server has seen.
//!
//! ```
//! use slowfuse_rules::bughouse::{Board, BughouseGame, Seat};
//! use slowfuse_rules::Role;
//!
//! let game = BughouseGame::new()
//!     .play(Board::A, "e4")?
//!     .play(Board::A, "d5")?
//!     .play(Board::A, "exd5")?;
//! // A1 took a black pawn: it goes to A2, who plays Black on board B.
//! assert_eq!(game.last_move().unwrap().transfer, Some(Role::Pawn));
//! assert_eq!(game.fen(Board::B), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[p] w KQkq - 0 1");
//! assert_eq!(game.to_move(Board::A), Seat::B1);
//! # Ok::<_, slowfuse_rules::bughouse::BughouseError>(())
//! ```

use std::fmt;

use shakmaty::{Color, Role};

use crate::error::{MoveError, SetupError};

mod bpgn_read;
mod bpgn_write;
mod game;

pub use bpgn_read::{BpgnComment, BpgnError, BpgnGame, looks_like_bpgn, read_bpgn};
pub use bpgn_write::{BpgnHeaders, write_bpgn};
pub use game::{BughouseEvent, BughouseGame, BughouseMove, START_FEN};

/// One of the two boards of a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Board {
    /// Board A (the design's board 1): A1 (White) against B1 (Black).
    A,
    /// Board B (the design's board 2): B2 (White) against A2 (Black).
    B,
}

impl Board {
    /// Both boards, A first.
    pub const BOTH: [Board; 2] = [Board::A, Board::B];

    /// The other board.
    pub fn other(self) -> Board {
        match self {
            Board::A => Board::B,
            Board::B => Board::A,
        }
    }

    /// The board's letter as BPGN writes it for `color`'s moves: `A`/`B`
    /// for White, `a`/`b` for Black.
    pub fn letter(self, color: Color) -> char {
        match (self, color) {
            (Board::A, Color::White) => 'A',
            (Board::A, Color::Black) => 'a',
            (Board::B, Color::White) => 'B',
            (Board::B, Color::Black) => 'b',
        }
    }

    /// Reads `A`, `a`, `B` or `b` (the colour is not kept), as the server
    /// may store it.
    pub fn from_letter(letter: char) -> Option<Board> {
        match letter {
            'A' | 'a' => Some(Board::A),
            'B' | 'b' => Some(Board::B),
            _ => None,
        }
    }

    pub(crate) fn index(self) -> usize {
        match self {
            Board::A => 0,
            Board::B => 1,
        }
    }
}

impl fmt::Display for Board {
    /// Writes `A` or `B`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Board::A => "A",
            Board::B => "B",
        })
    }
}

/// One of the two teams.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Team {
    /// A1 (White on board A) and A2 (Black on board B): "White" in BPGN
    /// results and in `slowfuse replay`.
    A,
    /// B1 (Black on board A) and B2 (White on board B): "Black" in BPGN
    /// results and in `slowfuse replay`.
    B,
}

impl Team {
    /// The other team.
    pub fn other(self) -> Team {
        match self {
            Team::A => Team::B,
            Team::B => Team::A,
        }
    }

    /// The team's two players: the one on board A, then the one on board B.
    pub fn seats(self) -> [Seat; 2] {
        match self {
            Team::A => [Seat::A1, Seat::A2],
            Team::B => [Seat::B1, Seat::B2],
        }
    }
}

impl fmt::Display for Team {
    /// Writes `team A` or `team B`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Team::A => "team A",
            Team::B => "team B",
        })
    }
}

/// One of the four players' places.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Seat {
    /// Team A, White on board A (`WhiteA` in BPGN).
    A1,
    /// Team B, Black on board A (`BlackA` in BPGN).
    B1,
    /// Team B, White on board B (`WhiteB` in BPGN).
    B2,
    /// Team A, Black on board B (`BlackB` in BPGN).
    A2,
}

impl Seat {
    /// All four seats: board A's White and Black, then board B's.
    pub const ALL: [Seat; 4] = [Seat::A1, Seat::B1, Seat::B2, Seat::A2];

    /// The player who has `color` on `board`.
    pub fn at(board: Board, color: Color) -> Seat {
        match (board, color) {
            (Board::A, Color::White) => Seat::A1,
            (Board::A, Color::Black) => Seat::B1,
            (Board::B, Color::White) => Seat::B2,
            (Board::B, Color::Black) => Seat::A2,
        }
    }

    /// The board this player plays on.
    pub fn board(self) -> Board {
        match self {
            Seat::A1 | Seat::B1 => Board::A,
            Seat::B2 | Seat::A2 => Board::B,
        }
    }

    /// The colour this player has on their board.
    pub fn color(self) -> Color {
        match self {
            Seat::A1 | Seat::B2 => Color::White,
            Seat::B1 | Seat::A2 => Color::Black,
        }
    }

    /// The player's team.
    pub fn team(self) -> Team {
        match self {
            Seat::A1 | Seat::A2 => Team::A,
            Seat::B1 | Seat::B2 => Team::B,
        }
    }

    /// The team-mate, on the other board with the other colour.
    pub fn partner(self) -> Seat {
        Seat::at(self.board().other(), !self.color())
    }

    /// The player across the same board.
    pub fn opponent(self) -> Seat {
        Seat::at(self.board(), !self.color())
    }

    /// The BPGN tag naming this player: `WhiteA`, `BlackA`, `WhiteB`, `BlackB`.
    pub fn bpgn_tag(self) -> &'static str {
        match self {
            Seat::A1 => "WhiteA",
            Seat::B1 => "BlackA",
            Seat::B2 => "WhiteB",
            Seat::A2 => "BlackB",
        }
    }
}

impl fmt::Display for Seat {
    /// Writes `A1`, `B1`, `B2` or `A2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Seat::A1 => "A1",
            Seat::B1 => "B1",
            Seat::B2 => "B2",
            Seat::A2 => "A2",
        })
    }
}

/// Why a bughouse match ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BughouseEndReason {
    /// A player was checkmated: in check with no legal move and no drop that
    /// could ever block (see the module documentation). Their team loses.
    Checkmate,
    /// The player to move on a board was not in check and had no legal
    /// move: a draw.
    Stalemate,
    /// The players to move on both boards sit, on different teams: nothing
    /// can move again, a draw.
    Deadlock,
    /// A player resigned for their team.
    Resignation,
    /// A player ran out of time; their team loses.
    Time,
    /// The four players agreed a draw.
    Agreement,
}

impl BughouseEndReason {
    /// Every reason, in declaration order.
    pub const ALL: [BughouseEndReason; 6] = [
        BughouseEndReason::Checkmate,
        BughouseEndReason::Stalemate,
        BughouseEndReason::Deadlock,
        BughouseEndReason::Resignation,
        BughouseEndReason::Time,
        BughouseEndReason::Agreement,
    ];

    /// The stable name to store, e.g. `"checkmate"`, `"deadlock"`.
    pub fn as_str(self) -> &'static str {
        match self {
            BughouseEndReason::Checkmate => "checkmate",
            BughouseEndReason::Stalemate => "stalemate",
            BughouseEndReason::Deadlock => "deadlock",
            BughouseEndReason::Resignation => "resignation",
            BughouseEndReason::Time => "time",
            BughouseEndReason::Agreement => "agreement",
        }
    }

    /// The reason read back from [`BughouseEndReason::as_str`].
    pub fn from_name(name: &str) -> Option<BughouseEndReason> {
        BughouseEndReason::ALL
            .into_iter()
            .find(|r| r.as_str() == name)
    }

    /// Words for people, e.g. `"Checkmate"`, `"Draw: neither board can move"`.
    pub fn describe(self) -> &'static str {
        match self {
            BughouseEndReason::Checkmate => "Checkmate",
            BughouseEndReason::Stalemate => "Stalemate",
            BughouseEndReason::Deadlock => "Draw: neither board can move",
            BughouseEndReason::Resignation => "Resignation",
            BughouseEndReason::Time => "Time forfeit",
            BughouseEndReason::Agreement => "Draw by agreement",
        }
    }
}

impl fmt::Display for BughouseEndReason {
    /// Writes [`BughouseEndReason::describe`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.describe())
    }
}

/// The end of a match: the winning team (`None` for a draw), why, and the
/// player the ending was about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BughouseOutcome {
    /// The winning team, or `None` for a draw.
    pub winner: Option<Team>,
    /// Why the match ended.
    pub reason: BughouseEndReason,
    /// The player who was mated, stalemated, resigned or ran out of time; for
    /// a deadlock, the player to move on the board of the last move; `None`
    /// for an agreed draw.
    pub seat: Option<Seat>,
}

impl BughouseOutcome {
    /// `seat`'s team loses for `reason`.
    pub fn loss(seat: Seat, reason: BughouseEndReason) -> BughouseOutcome {
        BughouseOutcome {
            winner: Some(seat.team().other()),
            reason,
            seat: Some(seat),
        }
    }

    /// A draw for `reason`, about `seat` if any.
    pub fn draw(reason: BughouseEndReason, seat: Option<Seat>) -> BughouseOutcome {
        BughouseOutcome {
            winner: None,
            reason,
            seat,
        }
    }

    /// The board the ending happened on, if it was on one board.
    pub fn board(&self) -> Option<Board> {
        self.seat.map(Seat::board)
    }

    /// The BPGN result, from team A's side: `"1-0"` (team A won), `"0-1"`
    /// or `"1/2-1/2"`.
    pub fn result(&self) -> &'static str {
        match self.winner {
            Some(Team::A) => "1-0",
            Some(Team::B) => "0-1",
            None => "1/2-1/2",
        }
    }

    /// A sentence for people and the BPGN `Termination` tag, e.g. `"A1 is
    /// checkmated on board A: team B wins"`.
    pub fn describe(&self) -> String {
        let winner = match self.winner {
            Some(team) => format!("{team} wins"),
            None => "draw".to_owned(),
        };
        let what = match (self.reason, self.seat) {
            (BughouseEndReason::Checkmate, Some(seat)) => {
                format!("{seat} is checkmated on board {}", seat.board())
            }
            (BughouseEndReason::Stalemate, Some(seat)) => {
                format!("{seat} is stalemated on board {}", seat.board())
            }
            (BughouseEndReason::Resignation, Some(seat)) => format!("{seat} resigned"),
            (BughouseEndReason::Time, Some(seat)) => format!("{seat} ran out of time"),
            (BughouseEndReason::Deadlock, _) => {
                "both players to move wait for a piece that cannot come".to_owned()
            }
            (BughouseEndReason::Agreement, _) => return "Draw by agreement".to_owned(),
            (reason, None) => reason.describe().to_owned(),
        };
        format!("{what}: {winner}")
    }
}

/// A move or action was refused; the match it was tried on is unchanged.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum BughouseError {
    /// The match has already ended.
    #[error("the match is over")]
    GameOver,
    /// `seat` tried to move on their board, but `to_move` is to move there.
    #[error("it is not {seat}'s turn on board {}: {to_move} is to move", .seat.board())]
    NotYourTurn {
        /// Who tried to move.
        seat: Seat,
        /// Who is to move on that board.
        to_move: Seat,
    },
    /// `seat` is in check with no legal move and must wait for a piece.
    #[error("{seat} has no legal move and sits: a piece from their partner could block the check")]
    Sitting {
        /// The sitting player.
        seat: Seat,
    },
    /// A drop of a piece `seat` does not hold.
    #[error("{seat} has no {} in hand to drop", role_word(*.role))]
    NotInPocket {
        /// Who tried the drop.
        seat: Seat,
        /// The piece they tried to drop.
        role: Role,
    },
    /// The text is not a move, matches no legal move, or matches several.
    #[error(transparent)]
    Move(#[from] MoveError),
}

/// One board's start position was refused.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
#[error("board {board}: {error}")]
pub struct BughouseSetupError {
    /// The board whose FEN was refused.
    pub board: Board,
    /// Why.
    pub error: SetupError,
}

/// A stored match could not be rebuilt.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum BughouseReplayError {
    /// A stored start position was refused.
    #[error("bad start position on {0}")]
    Setup(#[from] BughouseSetupError),
    /// A stored move could not be replayed.
    #[error("move {ply} (board {board}, {uci}) cannot be replayed: {error}")]
    Move {
        /// 1-based number of the failing move, counting both boards.
        ply: u32,
        /// Its board.
        board: Board,
        /// The stored move, as given.
        uci: String,
        /// Why it failed.
        error: BughouseError,
    },
}

/// The English word for a piece, e.g. `"knight"`.
pub(crate) fn role_word(role: Role) -> &'static str {
    match role {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seats_boards_colours_and_teams_fit_together() {
        for seat in Seat::ALL {
            assert_eq!(Seat::at(seat.board(), seat.color()), seat);
            assert_eq!(seat.partner().team(), seat.team());
            assert_ne!(seat.partner().board(), seat.board());
            assert_ne!(seat.partner().color(), seat.color());
            assert_eq!(seat.opponent().board(), seat.board());
            assert_ne!(seat.opponent().team(), seat.team());
            assert!(seat.team().seats().contains(&seat));
        }
        assert_eq!(Seat::A1.partner(), Seat::A2);
        assert_eq!(Seat::B1.partner(), Seat::B2);
        assert_eq!(Seat::A2.bpgn_tag(), "BlackB");
        assert_eq!(Board::B.letter(Color::Black), 'b');
    }

    #[test]
    fn reasons_round_trip_and_outcomes_read_well() {
        for reason in BughouseEndReason::ALL {
            assert_eq!(BughouseEndReason::from_name(reason.as_str()), Some(reason));
        }
        let mate = BughouseOutcome::loss(Seat::A2, BughouseEndReason::Checkmate);
        assert_eq!(mate.winner, Some(Team::B));
        assert_eq!(mate.result(), "0-1");
        assert_eq!(mate.board(), Some(Board::B));
        assert_eq!(mate.describe(), "A2 is checkmated on board B: team B wins");
        let agreed = BughouseOutcome::draw(BughouseEndReason::Agreement, None);
        assert_eq!(agreed.result(), "1/2-1/2");
        assert_eq!(agreed.describe(), "Draw by agreement");
    }
}
