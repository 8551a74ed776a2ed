//! The bughouse match value: both boards, the moves on them in the order played, and the outcome.

use shakmaty::san::{San, SanPlus, Suffix};
use shakmaty::uci::UciMove;
use shakmaty::variant::{Crazyhouse, VariantPosition};
use shakmaty::{
    Bitboard, ByRole, CastlingMode, Color, EnPassantMode, FromSetup, Move, Position, PositionError,
    Role, attacks,
};

use super::{
    Board, BughouseEndReason, BughouseError, BughouseOutcome, BughouseReplayError,
    BughouseSetupError, Seat,
};
use crate::error::MoveError;
use crate::fen::{parse_bughouse_board, write_fen};
use crate::game::{BoardArray, PlayedMove, Pocket, Pockets, san_text};
use crate::input;

/// The FEN each board starts from: the chess start position with empty pockets.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1";

/// A move played in a match.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct BughouseMove {
    /// The board it was played on.
    pub board: Board,
    /// Who played it.
    pub seat: Seat,
    /// The fullmove number of its board before the move (BPGN numbers each
    /// board's moves on their own: `12A.`, `12a.`).
    pub number: u32,
    /// UCI, as stored: `e2e4`, `e7e8q`, `N@f3`; castling as the king's
    /// two-square step `e1g1`.
    pub uci: String,
    /// SAN as shown and written to BPGN: `Nf3`, `N@f3`, `P@e4`, with `+`,
    /// or `#` when the move ended the match by checkmate on its own board.
    pub san: String,
    /// The piece this move captured, as it went into the partner's pocket on
    /// the other board (a promoted piece goes as a pawn).
    pub transfer: Option<Role>,
}

impl BughouseMove {
    /// The BPGN move label: number, board letter (upper case for White,
    /// lower case for Black) and a dot, e.g. `12A.` or `3b.`.
    pub fn label(&self) -> String {
        format!("{}{}.", self.number, self.board.letter(self.seat.color()))
    }
}

/// Something the last move did that the four players may want to be told.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BughouseEvent {
    /// A captured piece went into `to`'s pocket on the other board.
    PieceTransferred {
        /// The piece, as it arrived (a promoted piece arrives as a pawn).
        role: Role,
        /// The capturer's partner, who can now drop it.
        to: Seat,
    },
    /// `seat` is now in check with no legal move, and sits until a piece
    /// arrives that could block.
    Sitting(Seat),
    /// `seat` was sitting and can move again.
    CanMoveAgain(Seat),
    /// The match ended.
    MatchOver(BughouseOutcome),
}

/// What the player to move on one board can do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BoardState {
    Moving,
    Sitting,
    Mated,
    Stalemated,
}

/// An immutable bughouse match: both boards' start positions, every move in
/// the order played, and (maybe) how it ended.
///
/// Every action returns a new value and leaves `self` untouched, so a
/// refused move changes nothing. The rules are in the
/// [module documentation](super). A match replays from stored
/// `(board, uci)` pairs with [`BughouseGame::replay`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BughouseGame {
    initial_fens: [String; 2],
    castling: [CastlingMode; 2],
    /// `positions[i]` holds both boards after `i` moves; never empty.
    positions: Vec<[VariantPosition; 2]>,
    moves: Vec<BughouseMove>,
    outcome: Option<BughouseOutcome>,
}

impl Default for BughouseGame {
    fn default() -> BughouseGame {
        BughouseGame::new()
    }
}

impl BughouseGame {
    /// A new match, both boards at the chess start position with empty pockets.
    pub fn new() -> BughouseGame {
        let start: VariantPosition = Crazyhouse::new().into();
        BughouseGame::start(
            [START_FEN.to_owned(), START_FEN.to_owned()],
            [CastlingMode::Standard; 2],
            [start.clone(), start],
        )
    }

    /// A match from the positions `fen_a` and `fen_b` (crazyhouse FENs with
    /// pockets `[..]` and promoted pieces `~`; missing pockets are empty).
    /// A board may hold more than one set's material of a kind. If the
    /// positions already decide the match, it is over at once.
    ///
    /// # Errors
    ///
    /// [`BughouseSetupError`] names the board and says what is wrong.
    pub fn from_fens(fen_a: &str, fen_b: &str) -> Result<BughouseGame, BughouseSetupError> {
        let parse = |board: Board, fen: &str| {
            parse_bughouse_board(fen).map_err(|error| BughouseSetupError { board, error })
        };
        let (a, mode_a) = parse(Board::A, fen_a)?;
        let (b, mode_b) = parse(Board::B, fen_b)?;
        Ok(BughouseGame::start(
            [write_fen(&a), write_fen(&b)],
            [mode_a, mode_b],
            [a, b],
        ))
    }

    fn start(
        initial_fens: [String; 2],
        castling: [CastlingMode; 2],
        boards: [VariantPosition; 2],
    ) -> BughouseGame {
        let mut game = BughouseGame {
            initial_fens,
            castling,
            positions: vec![boards],
            moves: Vec::new(),
            outcome: None,
        };
        game.outcome = automatic_outcome(&game.positions[0], None);
        game
    }

    /// Rebuilds a stored match from its start FENs (board A, board B) and
    /// its moves as `(board, uci)` in the order played, checking each.
    /// An off-board ending (resignation, time, agreement) is not in the
    /// moves: restore it with [`BughouseGame::with_outcome`].
    ///
    /// # Errors
    ///
    /// [`BughouseReplayError::Setup`] for a bad FEN,
    /// [`BughouseReplayError::Move`] for the first move that cannot be played.
    pub fn replay(
        initial_fens: [&str; 2],
        moves: &[(Board, String)],
    ) -> Result<BughouseGame, BughouseReplayError> {
        let mut game = BughouseGame::from_fens(initial_fens[0], initial_fens[1])?;
        for (index, (board, uci)) in moves.iter().enumerate() {
            game = game
                .play_uci(*board, uci)
                .map_err(|error| BughouseReplayError::Move {
                    ply: u32::try_from(index + 1).unwrap_or(u32::MAX),
                    board: *board,
                    uci: uci.clone(),
                    error,
                })?;
        }
        Ok(game)
    }

    /// The full FEN `board` started from.
    pub fn initial_fen(&self, board: Board) -> &str {
        &self.initial_fens[board.index()]
    }

    /// Whether both boards started from [`START_FEN`], so BPGN needs no
    /// `SetUp`/`FEN` tags.
    pub fn is_standard_start(&self) -> bool {
        self.initial_fens.iter().all(|fen| fen == START_FEN)
    }

    /// Every move, both boards, in the order played.
    pub fn moves(&self) -> &[BughouseMove] {
        &self.moves
    }

    /// The last move played, on either board.
    pub fn last_move(&self) -> Option<&BughouseMove> {
        self.moves.last()
    }

    /// The number of moves played on both boards together.
    pub fn ply(&self) -> u32 {
        u32::try_from(self.moves.len()).unwrap_or(u32::MAX)
    }

    /// The side to move on `board`.
    pub fn turn(&self, board: Board) -> Color {
        self.position(board).turn()
    }

    /// The player to move on `board`, whose clock runs there (also while
    /// they sit). Meaningless once the match is over.
    pub fn to_move(&self, board: Board) -> Seat {
        Seat::at(board, self.turn(board))
    }

    /// Whether the player to move on `board` sits: in check, no legal move,
    /// but a drop could block. `false` once the match is over.
    pub fn is_sitting(&self, board: Board) -> bool {
        !self.is_over() && board_state(self.position(board)) == BoardState::Sitting
    }

    /// The players who sit now (at most one per board).
    pub fn sitting(&self) -> Vec<Seat> {
        Board::BOTH
            .into_iter()
            .filter(|&board| self.is_sitting(board))
            .map(|board| self.to_move(board))
            .collect()
    }

    /// Whether the player to move on `board` is in check.
    pub fn is_check(&self, board: Board) -> bool {
        self.position(board).is_check()
    }

    /// The full FEN of `board` now, with pockets, e.g.
    /// `rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Np] w KQkq - 0 1`.
    pub fn fen(&self, board: Board) -> String {
        write_fen(self.position(board))
    }

    /// Both FENs as one line: board A's, `" | "`, board B's (as the BPGN
    /// `FEN` tag and `slowfuse replay` write them).
    pub fn fens(&self) -> String {
        format!("{} | {}", self.fen(Board::A), self.fen(Board::B))
    }

    /// The FEN of `board` after `ply` moves on both boards (0 = the start);
    /// `None` past the end.
    pub fn fen_at(&self, ply: u32, board: Board) -> Option<String> {
        self.position_at(ply, board).map(write_fen)
    }

    /// The pieces of `board` after `ply` moves (index 0 = a1, 63 = h8);
    /// `None` past the end.
    pub fn board_at(&self, ply: u32, board: Board) -> Option<BoardArray> {
        let pos = self.position_at(ply, board)?;
        let mut squares: BoardArray = [None; 64];
        for (square, piece) in pos.board() {
            squares[usize::from(square)] = Some((piece.color, piece.role));
        }
        Some(squares)
    }

    /// The pockets of `board` after `ply` moves; `None` past the end.
    pub fn pockets_at(&self, ply: u32, board: Board) -> Option<Pockets> {
        let pockets = self.position_at(ply, board)?.pockets().copied()?;
        let pocket = |color: Color| {
            let p = pockets.get(color);
            Pocket {
                pawns: p.pawn,
                knights: p.knight,
                bishops: p.bishop,
                rooks: p.rook,
                queens: p.queen,
            }
        };
        Some(Pockets {
            white: pocket(Color::White),
            black: pocket(Color::Black),
        })
    }

    /// The pockets of `board` now.
    pub fn pockets(&self, board: Board) -> Pockets {
        self.pockets_at(self.ply(), board).unwrap_or_default()
    }

    /// How the match ended, or `None` while it goes on.
    pub fn outcome(&self) -> Option<BughouseOutcome> {
        self.outcome
    }

    /// Whether the match has ended.
    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// Every legal move on `board` now, with SAN as it would be recorded,
    /// sorted by UCI; empty when the match is over or the player sits.
    pub fn legal_moves(&self, board: Board) -> Vec<PlayedMove> {
        if self.is_over() {
            return Vec::new();
        }
        let mut moves: Vec<PlayedMove> = self
            .position(board)
            .legal_moves()
            .into_iter()
            .filter_map(|m| {
                let (_, played, _) = self.step(board, m).ok()?;
                Some(PlayedMove {
                    uci: played.uci,
                    san: played.san,
                })
            })
            .collect();
        moves.sort_by(|a, b| a.uci.cmp(&b.uci));
        moves
    }

    /// Reads `input` as a move for whoever is to move on `board` and plays
    /// it. Accepts what [`Game::play`](crate::Game::play) accepts: SAN, UCI
    /// and drops (`N@f3`, `P@e4`, `@e4`).
    ///
    /// # Errors
    ///
    /// [`BughouseError::GameOver`], [`BughouseError::NotInPocket`] for a drop
    /// of a piece the player does not hold, [`BughouseError::Sitting`] when
    /// the player to move must wait, [`BughouseError::Move`] when the text
    /// is not a legal move. `self` is unchanged.
    pub fn play(&self, board: Board, input: &str) -> Result<BughouseGame, BughouseError> {
        self.check_can_move(board, input)?;
        let m = input::resolve(self.position(board), input)?;
        self.push(board, m)
    }

    /// Like [`BughouseGame::play`], for the player `seat`, who must be the
    /// one to move on their board.
    ///
    /// # Errors
    ///
    /// As [`BughouseGame::play`], and [`BughouseError::NotYourTurn`].
    pub fn play_as(&self, seat: Seat, input: &str) -> Result<BughouseGame, BughouseError> {
        let board = seat.board();
        if !self.is_over() && self.to_move(board) != seat {
            return Err(BughouseError::NotYourTurn {
                seat,
                to_move: self.to_move(board),
            });
        }
        self.play(board, input)
    }

    /// Plays a move on `board` given strictly in UCI (`e2e4`, `e7e8q`,
    /// `e1g1`, `N@f3`), as stored.
    ///
    /// # Errors
    ///
    /// As [`BughouseGame::play`]; SAN is refused as unparsable.
    pub fn play_uci(&self, board: Board, uci: &str) -> Result<BughouseGame, BughouseError> {
        self.check_can_move(board, uci)?;
        let m = input::resolve_uci(self.position(board), uci)?;
        self.push(board, m)
    }

    /// Sets the outcome, replacing any: restores an off-board ending loaded
    /// from storage.
    #[must_use]
    pub fn with_outcome(mut self, outcome: BughouseOutcome) -> BughouseGame {
        self.outcome = Some(outcome);
        self
    }

    /// What the last move did: the piece it sent to a partner, who started
    /// or stopped sitting, and the end of the match. Empty before the first
    /// move.
    pub fn last_events(&self) -> Vec<BughouseEvent> {
        let mut events = Vec::new();
        let Some(last) = self.moves.last() else {
            return events;
        };
        if let Some(role) = last.transfer {
            events.push(BughouseEvent::PieceTransferred {
                role,
                to: last.seat.partner(),
            });
        }
        if let Some(outcome) = self.outcome {
            events.push(BughouseEvent::MatchOver(outcome));
            return events;
        }
        let before = self.ply() - 1;
        for board in Board::BOTH {
            let sat = self
                .position_at(before, board)
                .is_some_and(|pos| board_state(pos) == BoardState::Sitting);
            let sits = self.is_sitting(board);
            let seat = self.to_move(board);
            if sits && !(sat && last.board != board) {
                events.push(BughouseEvent::Sitting(seat));
            } else if sat && !sits && last.board != board {
                events.push(BughouseEvent::CanMoveAgain(seat));
            }
        }
        events
    }

    fn position(&self, board: Board) -> &VariantPosition {
        let boards = self
            .positions
            .last()
            .expect("a match always has a position");
        &boards[board.index()]
    }

    fn position_at(&self, ply: u32, board: Board) -> Option<&VariantPosition> {
        let boards = self.positions.get(usize::try_from(ply).ok()?)?;
        Some(&boards[board.index()])
    }

    /// The refusals that come before reading the move: the match is over,
    /// a drop of a piece not in hand, a sitting player.
    fn check_can_move(&self, board: Board, input: &str) -> Result<(), BughouseError> {
        if self.is_over() {
            return Err(BughouseError::GameOver);
        }
        let pos = self.position(board);
        let seat = self.to_move(board);
        if let Some(role) = dropped_role(input) {
            let held = pos
                .pockets()
                .map_or(0, |pockets| *pockets.get(pos.turn()).get(role));
            if held == 0 {
                return Err(BughouseError::NotInPocket { seat, role });
            }
        }
        if board_state(pos) == BoardState::Sitting {
            return Err(BughouseError::Sitting { seat });
        }
        Ok(())
    }

    /// Plays a move already known to be legal on `board`, sends any
    /// captured piece to the partner, and decides the match.
    fn push(&self, board: Board, m: Move) -> Result<BughouseGame, BughouseError> {
        let (boards, played, outcome) = self.step(board, m)?;
        let mut next = self.clone();
        next.positions.push(boards);
        next.moves.push(played);
        next.outcome = outcome;
        Ok(next)
    }

    /// Both boards after the legal move `m` on `board` (any captured piece
    /// sent to the partner), the move as recorded, and the end it forces.
    fn step(
        &self,
        board: Board,
        m: Move,
    ) -> Result<([VariantPosition; 2], BughouseMove, Option<BughouseOutcome>), BughouseError> {
        let mut boards = self.positions.last().expect("never empty").clone();
        let mode = self.castling[board.index()];
        let pos = &mut boards[board.index()];
        let mover = pos.turn();
        let number = pos.fullmoves().get();
        let uci = UciMove::from_move(m, mode).to_string();
        let san = San::from_move(pos, m);
        let captured = match m {
            Move::Normal {
                capture: Some(role),
                to,
                ..
            } => Some(if pos.promoted().contains(to) {
                Role::Pawn
            } else {
                role
            }),
            Move::EnPassant { .. } => Some(Role::Pawn),
            _ => None,
        };
        pos.play_unchecked(m);
        if let Some(role) = captured {
            let refused = || BughouseError::Move(MoveError::Illegal(uci.clone()));
            // Crazyhouse put the piece in the mover's pocket: it goes to the
            // partner instead, on the other board, in the partner's colour.
            let there_mode = self.castling[board.other().index()];
            let here = with_pocket_change(&boards[board.index()], mode, mover, role, false)
                .ok_or_else(refused)?;
            let there = with_pocket_change(
                &boards[board.other().index()],
                there_mode,
                !mover,
                role,
                true,
            )
            .ok_or_else(refused)?;
            boards[board.index()] = here;
            boards[board.other().index()] = there;
        }
        let outcome = automatic_outcome(&boards, Some(board));
        let check = boards[board.index()].is_check();
        let suffix = match outcome {
            Some(BughouseOutcome {
                reason: BughouseEndReason::Checkmate,
                seat: Some(loser),
                ..
            }) if loser.board() == board && check => Some(Suffix::Checkmate),
            _ if check => Some(Suffix::Check),
            _ => None,
        };
        let played = BughouseMove {
            board,
            seat: Seat::at(board, mover),
            number,
            uci,
            san: san_text(&SanPlus { san, suffix }),
            transfer: captured,
        };
        Ok((boards, played, outcome))
    }
}

/// The end the current positions force, if any. `last` is the board of
/// the last move (its board is looked at first), `None` at the start.
fn automatic_outcome(
    boards: &[VariantPosition; 2],
    last: Option<Board>,
) -> Option<BughouseOutcome> {
    let first = last.unwrap_or(Board::A);
    let order = [first, first.other()];
    let states = order.map(|board| board_state(&boards[board.index()]));
    for (board, state) in order.into_iter().zip(states) {
        let seat = Seat::at(board, boards[board.index()].turn());
        match state {
            BoardState::Mated => {
                return Some(BughouseOutcome::loss(seat, BughouseEndReason::Checkmate));
            }
            BoardState::Stalemated => {
                return Some(BughouseOutcome::draw(
                    BughouseEndReason::Stalemate,
                    Some(seat),
                ));
            }
            BoardState::Moving | BoardState::Sitting => {}
        }
    }
    if states == [BoardState::Sitting; 2] {
        // Nothing can ever move again.
        let [here, there] = order.map(|board| Seat::at(board, boards[board.index()].turn()));
        return Some(if here.team() == there.team() {
            BughouseOutcome::loss(here, BughouseEndReason::Checkmate)
        } else {
            BughouseOutcome::draw(BughouseEndReason::Deadlock, Some(here))
        });
    }
    order
        .into_iter()
        .zip(states)
        .find(|&(board, state)| state == BoardState::Sitting && is_starved(boards, board))
        .map(|(board, _)| {
            BughouseOutcome::loss(
                Seat::at(board, boards[board.index()].turn()),
                BughouseEndReason::Checkmate,
            )
        })
}

/// Whether the sitting player on `board` can never receive a piece that
/// blocks: their board is frozen until they move, so what can still
/// reach them is what their partner's opponent holds on the other board
/// and in hand (a promoted piece counts as the pawn it would become).
fn is_starved(boards: &[VariantPosition; 2], board: Board) -> bool {
    let pos = &boards[board.index()];
    let squares = block_squares(pos);
    // The partner's opponent has the sitter's colour on the other board.
    let supplier = pos.turn();
    let other = &boards[board.other().index()];
    let mut supply: ByRole<bool> = ByRole::default();
    for (square, piece) in other.board() {
        if piece.color == supplier && piece.role != Role::King {
            let role = if other.promoted().contains(square) {
                Role::Pawn
            } else {
                piece.role
            };
            *supply.get_mut(role) = true;
        }
    }
    if let Some(pockets) = other.pockets() {
        let held = pockets.get(supplier);
        for role in Role::ALL {
            if *held.get(role) > 0 {
                *supply.get_mut(role) = true;
            }
        }
    }
    !Role::ALL
        .into_iter()
        .any(|role| *supply.get(role) && can_block(squares, role))
}

/// The state of the player to move in `pos`.
fn board_state(pos: &VariantPosition) -> BoardState {
    if !pos.legal_moves().is_empty() {
        BoardState::Moving
    } else if !pos.is_check() {
        BoardState::Stalemated
    } else if block_squares(pos).is_empty() {
        BoardState::Mated
    } else {
        BoardState::Sitting
    }
}

/// The empty squares where a dropped piece would block the check in `pos`:
/// those between a single checking piece and the king (none for a double
/// check or a contact or knight check).
fn block_squares(pos: &VariantPosition) -> Bitboard {
    let Some(checker) = pos.checkers().single_square() else {
        return Bitboard::EMPTY;
    };
    match pos.board().king_of(pos.turn()) {
        Some(king) => attacks::between(checker, king),
        None => Bitboard::EMPTY,
    }
}

/// Whether a `role` dropped on one of `squares` could block (pawns never go
/// to the first or last rank).
fn can_block(squares: Bitboard, role: Role) -> bool {
    match role {
        Role::King => false,
        Role::Pawn => (squares & !Bitboard::BACKRANKS).any(),
        _ => squares.any(),
    }
}

/// `pos` with one `role` more (`add`) or less in `color`'s pocket. `None`
/// only if shakmaty refused the result, which legal play cannot cause.
fn with_pocket_change(
    pos: &VariantPosition,
    mode: CastlingMode,
    color: Color,
    role: Role,
    add: bool,
) -> Option<VariantPosition> {
    let mut setup = pos.to_setup(EnPassantMode::Legal);
    let pockets = setup.pockets.get_or_insert_default();
    let count = pockets.get_mut(color).get_mut(role);
    *count = if add {
        count.checked_add(1)?
    } else {
        count.checked_sub(1)?
    };
    Crazyhouse::from_setup(setup, mode)
        .or_else(PositionError::ignore_too_much_material)
        .or_else(PositionError::ignore_impossible_check)
        .ok()
        .map(VariantPosition::from)
}

/// The piece a drop names (`N@f3`, `n@f3`, `@e4` and `P@e4` for a pawn),
/// or `None` when `input` is not a drop with a readable piece letter.
fn dropped_role(input: &str) -> Option<Role> {
    let (before, _) = input.trim().split_once('@')?;
    let before =
        before.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.' || c.is_whitespace());
    let mut letters = before.chars();
    match (letters.next(), letters.next()) {
        (None, _) => Some(Role::Pawn),
        (Some(letter), None) => Role::from_char(letter),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drops_name_their_piece() {
        assert_eq!(dropped_role("N@f3"), Some(Role::Knight));
        assert_eq!(dropped_role(" n@f3+ "), Some(Role::Knight));
        assert_eq!(dropped_role("@e4"), Some(Role::Pawn));
        assert_eq!(dropped_role("P@e4"), Some(Role::Pawn));
        assert_eq!(dropped_role("12. Q@d2"), Some(Role::Queen));
        assert_eq!(dropped_role("e4"), None);
        assert_eq!(dropped_role("Xy@e4"), None);
    }

    #[test]
    fn blocking_needs_a_square_a_pawn_may_use() {
        let back_rank = attacks::between(shakmaty::Square::A1, shakmaty::Square::H1);
        assert!(can_block(back_rank, Role::Knight));
        assert!(!can_block(back_rank, Role::Pawn));
        assert!(!can_block(Bitboard::EMPTY, Role::Queen));
    }
}
