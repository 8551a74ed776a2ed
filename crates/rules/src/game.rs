//! The game value: a start position, the moves played on it, and how it ended.

use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::variant::VariantPosition;
use shakmaty::{CastlingMode, Color, Move, Position, Role, Square};

use crate::error::{ClaimError, GameOver, MoveError, ReplayError, SetupError};
use crate::fen::{
    STANDARD_START_FEN, parse_position, parse_position_allowing_impossible_check, write_fen,
};
use crate::input;
use crate::outcome::{EndReason, Outcome};
use crate::variant::Variant;

/// A move that was played (or could be played), in two notations.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PlayedMove {
    /// UCI, as stored: `g1f3`, `e7e8q`; castling as the king's two-square
    /// step `e1g1` (king-takes-rook `e1h1` in Chess960-castling positions).
    pub uci: String,
    /// SAN with its `+`/`#` suffix, as shown and written to PGN: `Nf3`,
    /// `exd8=Q+`, `O-O`. An atomic move that blows up the enemy king gets `#`.
    pub san: String,
}

/// A board as 64 squares, index 0 = a1, 7 = h1, 63 = h8.
pub type BoardArray = [Option<(Color, Role)>; 64];

/// An immutable game: start position, moves played, and (maybe) its end.
///
/// Every action returns a new `Game` and leaves `self` untouched, so a
/// refused move or claim never changes anything.
///
/// # Game ends
///
/// After each move the game ends by itself on a king explosion (atomic; the
/// mover wins), checkmate, stalemate (draw), the fifth occurrence of a
/// position, and after 75 moves by each side without a capture or pawn move
/// (draws), in that order of precedence.
///
/// Insufficient material never ends a game by itself, in standard chess as
/// in atomic: that is the correspondence norm Slowfuse follows (SchemingMind
/// lists no such automatic draw). When neither side can win, the player to
/// move may claim the draw ([`Game::claim_draw`], [`EndReason::DeadPosition`]),
/// as they may after a threefold repetition or 50 moves without a capture or
/// pawn move.
///
/// ```
/// use slowfuse_rules::{Color, EndReason, Game, Variant};
///
/// let game = Game::new(Variant::Atomic);
/// let game = ["Nf3", "Nf6", "Ne5", "e6", "Nxf7"]
///     .iter()
///     .try_fold(game, |g, m| g.play(m))?;
/// let outcome = game.outcome().unwrap();
/// assert_eq!(outcome.winner, Some(Color::White));
/// assert_eq!(outcome.reason, EndReason::Explosion);
/// # Ok::<_, slowfuse_rules::MoveError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    variant: Variant,
    castling: CastlingMode,
    initial_fen: String,
    /// `positions[i]` is the position after `i` moves; never empty.
    positions: Vec<VariantPosition>,
    moves: Vec<PlayedMove>,
    outcome: Option<Outcome>,
}

impl Game {
    /// A new game of `variant` from the normal chess start position.
    pub fn new(variant: Variant) -> Game {
        Game::from_fen(variant, STANDARD_START_FEN).expect("the start position is legal")
    }

    /// A new game of `variant` from the position `fen`.
    ///
    /// Missing trailing FEN fields take their defaults; [`Game::initial_fen`]
    /// is always the full, normalised FEN. If the position is already
    /// decided (mate, stalemate, an exploded king) the game is over at once.
    ///
    /// # Errors
    ///
    /// [`SetupError::Malformed`] says where the FEN cannot be read;
    /// [`SetupError::Illegal`] why the position cannot be played.
    pub fn from_fen(variant: Variant, fen: &str) -> Result<Game, SetupError> {
        let (pos, castling) = parse_position(variant, fen)?;
        let mut game = Game {
            variant,
            castling,
            initial_fen: write_fen(&pos),
            positions: vec![pos],
            moves: Vec::new(),
            outcome: None,
        };
        game.outcome = game.automatic_outcome();
        Ok(game)
    }

    /// Rebuilds a stored game from its start FEN and UCI moves, replaying
    /// and checking each move.
    ///
    /// An off-board ending (resignation, agreement, time, a claimed draw) is
    /// not in the moves: restore it with [`Game::with_outcome`].
    ///
    /// # Errors
    ///
    /// [`ReplayError::Setup`] for a bad FEN; [`ReplayError::Move`] names the
    /// first move (1-based ply and text) that is not a legal UCI move.
    pub fn replay(
        variant: Variant,
        initial_fen: &str,
        uci_moves: &[String],
    ) -> Result<Game, ReplayError> {
        let mut game = Game::from_fen(variant, initial_fen)?;
        for (index, uci) in uci_moves.iter().enumerate() {
            game = game.play_uci(uci).map_err(|error| ReplayError::Move {
                ply: u32::try_from(index + 1).unwrap_or(u32::MAX),
                uci: uci.clone(),
                error,
            })?;
        }
        Ok(game)
    }

    /// The variant being played.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The full FEN of the start position.
    pub fn initial_fen(&self) -> &str {
        &self.initial_fen
    }

    /// Whether the game started from the normal chess start position (with
    /// move counters `0 1`), so PGN needs no `SetUp`/`FEN` tags.
    pub fn is_standard_start(&self) -> bool {
        self.initial_fen == STANDARD_START_FEN
    }

    /// The moves played, in order.
    pub fn moves(&self) -> &[PlayedMove] {
        &self.moves
    }

    /// The number of moves (plies) played.
    pub fn ply(&self) -> u32 {
        u32::try_from(self.moves.len()).unwrap_or(u32::MAX)
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        self.position().turn()
    }

    /// The full FEN of the current position.
    pub fn fen(&self) -> String {
        write_fen(self.position())
    }

    /// The full FEN after `ply` moves (0 = the start); `None` past the end.
    pub fn fen_at(&self, ply: u32) -> Option<String> {
        self.position_at(ply).map(write_fen)
    }

    /// The pieces after `ply` moves (0 = the start), index 0 = a1, 7 = h1,
    /// 63 = h8; `None` past the end.
    pub fn board_at(&self, ply: u32) -> Option<BoardArray> {
        let pos = self.position_at(ply)?;
        let mut squares: BoardArray = [None; 64];
        for (square, piece) in pos.board() {
            squares[usize::from(square)] = Some((piece.color, piece.role));
        }
        Some(squares)
    }

    /// The from and to square indices (a1 = 0, h8 = 63) of the last move,
    /// for highlighting. Castling gives the king's squares as in the UCI.
    pub fn last_move_squares(&self) -> Option<(u8, u8)> {
        let last = self.moves.last()?;
        match UciMove::from_ascii(last.uci.as_bytes()).ok()? {
            UciMove::Normal { from, to, .. } => Some((u8::from(from), u8::from(to))),
            UciMove::Put { to, .. } => Some((u8::from(to), u8::from(to))),
            UciMove::Null => None,
        }
    }

    /// Whether the side to move is in check (atomic: kings that touch give
    /// no check).
    pub fn is_check(&self) -> bool {
        self.position().is_check()
    }

    /// How the game ended, or `None` while it goes on.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Whether the game has ended.
    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// The halfmove clock: plies since the last capture or pawn move.
    pub fn halfmove_clock(&self) -> u32 {
        self.position().halfmoves()
    }

    /// The fullmove number of the current position, as in the FEN.
    pub fn fullmove_number(&self) -> u32 {
        self.position().fullmoves().get()
    }

    /// How many times the current position has occurred in this game,
    /// counting now (same board, side to move, castling rights, and en
    /// passant square where a capture there is legal).
    pub fn repetition_count(&self) -> usize {
        let now = self.position();
        self.positions.iter().filter(|p| *p == now).count()
    }

    /// Every legal move now, with SAN, sorted by UCI; empty when the game
    /// is over.
    pub fn legal_moves(&self) -> Vec<PlayedMove> {
        if self.is_over() {
            return Vec::new();
        }
        let pos = self.position();
        let mut moves: Vec<PlayedMove> = pos
            .legal_moves()
            .into_iter()
            .map(|m| self.describe_move(pos, m))
            .collect();
        moves.sort_by(|a, b| a.uci.cmp(&b.uci));
        moves
    }

    /// Reads `input` as a move and plays it, returning the new game.
    ///
    /// Accepts SAN (`Nxf7`, `Nf3`, `exd5`, `O-O`, `e8=Q`, with or without
    /// `+`, `#`, `!`, `?`) and UCI (`g1f3`, `e7e8q`; castling also as
    /// king-takes-rook `e1h1`).
    ///
    /// # Errors
    ///
    /// [`MoveError`] says whether the text could not be read, matches no
    /// legal move, matches several, or the game is over. `self` is unchanged.
    pub fn play(&self, input: &str) -> Result<Game, MoveError> {
        if self.is_over() {
            return Err(MoveError::GameOver);
        }
        let m = input::resolve(self.position(), input)?;
        Ok(self.push(m))
    }

    /// Plays a move given strictly in UCI (`e2e4`, `e7e8q`, `e1g1`, `e1h1`),
    /// as stored in the database.
    ///
    /// # Errors
    ///
    /// As [`Game::play`]; SAN is refused as [`MoveError::Unparsable`].
    pub fn play_uci(&self, uci: &str) -> Result<Game, MoveError> {
        if self.is_over() {
            return Err(MoveError::GameOver);
        }
        let m = input::resolve_uci(self.position(), uci)?;
        Ok(self.push(m))
    }

    /// `loser` resigns.
    ///
    /// # Errors
    ///
    /// [`GameOver`] if the game has already ended.
    pub fn resign(&self, loser: Color) -> Result<Game, GameOver> {
        self.finish(Outcome::win(!loser, EndReason::Resignation))
    }

    /// The players agree a draw.
    ///
    /// # Errors
    ///
    /// [`GameOver`] if the game has already ended.
    pub fn agree_draw(&self) -> Result<Game, GameOver> {
        self.finish(Outcome::draw(EndReason::Agreement))
    }

    /// `loser` ran out of time. The opponent wins, unless they have too
    /// little material ever to win: then it is a draw (reason still
    /// [`EndReason::Time`]).
    ///
    /// # Errors
    ///
    /// [`GameOver`] if the game has already ended.
    pub fn flag(&self, loser: Color) -> Result<Game, GameOver> {
        let winner = !loser;
        let outcome = if self.position().has_insufficient_material(winner) {
            Outcome::draw(EndReason::Time)
        } else {
            Outcome::win(winner, EndReason::Time)
        };
        self.finish(outcome)
    }

    /// The player to move claims a draw, which ends the game when one of
    /// these holds (checked in this order):
    ///
    /// * [`EndReason::Repetition`]: the current position has occurred three
    ///   times (see [`Game::repetition_count`]);
    /// * [`EndReason::FiftyMoves`]: the halfmove clock is at least 100;
    /// * [`EndReason::DeadPosition`]: neither side has the material to win
    ///   (shakmaty's insufficient-material test for the variant).
    ///
    /// # Errors
    ///
    /// [`ClaimError::NotDrawn`] if none holds, [`ClaimError::GameOver`] if
    /// the game has already ended.
    pub fn claim_draw(&self) -> Result<Game, ClaimError> {
        if self.is_over() {
            return Err(ClaimError::GameOver);
        }
        let reason = self.can_claim_draw().ok_or(ClaimError::NotDrawn)?;
        self.finish(Outcome::draw(reason))
            .map_err(|GameOver| ClaimError::GameOver)
    }

    /// The draw the player to move could claim now, if any (see
    /// [`Game::claim_draw`]); `None` when the game is over.
    pub fn can_claim_draw(&self) -> Option<EndReason> {
        if self.is_over() {
            None
        } else if self.repetition_count() >= 3 {
            Some(EndReason::Repetition)
        } else if self.halfmove_clock() >= 100 {
            Some(EndReason::FiftyMoves)
        } else if self.position().is_insufficient_material() {
            Some(EndReason::DeadPosition)
        } else {
            None
        }
    }

    /// Sets the outcome, replacing any: restores an off-board ending
    /// (resignation, agreement, time, claimed draw) loaded from storage.
    #[must_use]
    pub fn with_outcome(mut self, outcome: Outcome) -> Game {
        self.outcome = Some(outcome);
        self
    }

    /// Counts the leaf nodes of the legal-move tree `depth` plies deep from
    /// the current position (perft), to test move generation.
    ///
    /// Only the rules of play count here: a position with an exploded king
    /// or no legal move has no children, while game-level endings such as
    /// fivefold repetition or an outcome already set are ignored.
    pub fn perft(&self, depth: u32) -> u64 {
        perft(self.position(), depth)
    }

    fn position(&self) -> &VariantPosition {
        self.positions.last().expect("a game always has a position")
    }

    fn position_at(&self, ply: u32) -> Option<&VariantPosition> {
        self.positions.get(usize::try_from(ply).ok()?)
    }

    fn describe_move(&self, pos: &VariantPosition, m: Move) -> PlayedMove {
        PlayedMove {
            uci: UciMove::from_move(m, self.castling).to_string(),
            san: SanPlus::from_move(pos.clone(), m).to_string(),
        }
    }

    /// Plays a move already known to be legal.
    fn push(&self, m: Move) -> Game {
        let mut next = self.clone();
        let mut pos = self.position().clone();
        let played = PlayedMove {
            uci: UciMove::from_move(m, self.castling).to_string(),
            san: SanPlus::from_move_and_play_unchecked(&mut pos, m).to_string(),
        };
        next.positions.push(pos);
        next.moves.push(played);
        next.outcome = next.automatic_outcome();
        next
    }

    fn finish(&self, outcome: Outcome) -> Result<Game, GameOver> {
        if self.is_over() {
            return Err(GameOver);
        }
        Ok(self.clone().with_outcome(outcome))
    }

    /// The end the current position forces, if any.
    fn automatic_outcome(&self) -> Option<Outcome> {
        let pos = self.position();
        if let Some(winner) = pos.variant_outcome().winner() {
            return Some(Outcome::win(winner, self.variant_end_reason()));
        }
        if pos.legal_moves().is_empty() {
            return Some(if pos.is_check() {
                Outcome::win(!pos.turn(), EndReason::Checkmate)
            } else {
                Outcome::draw(EndReason::Stalemate)
            });
        }
        if self.repetition_count() >= 5 {
            return Some(Outcome::draw(EndReason::FivefoldRepetition));
        }
        if pos.halfmoves() >= 150 {
            return Some(Outcome::draw(EndReason::SeventyFiveMoves));
        }
        None
    }

    /// What a decisive variant-specific ending means in this variant.
    fn variant_end_reason(&self) -> EndReason {
        match self.variant {
            Variant::Atomic => EndReason::Explosion,
            Variant::Standard => EndReason::Checkmate,
        }
    }
}

/// Counts the leaf nodes of the legal-move tree `depth` plies deep from the
/// position `fen` of `variant` (perft), to test and benchmark move generation.
///
/// Unlike [`Game::from_fen`] this accepts a check no game can reach (two
/// aligned sliders giving check, a check the en passant square
/// contradicts), because perft suites contain such positions.
///
/// ```
/// use slowfuse_rules::{Variant, perft_from_fen};
///
/// let fen = "1b1k4/8/8/1rPpK3/8/8/8/8 w - d6";
/// assert_eq!(perft_from_fen(Variant::Standard, fen, 1), Ok(5));
/// ```
///
/// # Errors
///
/// [`SetupError`] when the FEN is malformed or the position otherwise illegal.
pub fn perft_from_fen(variant: Variant, fen: &str, depth: u32) -> Result<u64, SetupError> {
    let (pos, _) = parse_position_allowing_impossible_check(variant, fen)?;
    Ok(perft(&pos, depth))
}

fn perft(pos: &VariantPosition, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = pos.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|&m| {
            let mut child = pos.clone();
            child.play_unchecked(m);
            perft(&child, depth - 1)
        })
        .sum()
}

/// The square index (a1 = 0, h8 = 63) of a square name like `"e4"`.
pub fn square_index(name: &str) -> Option<u8> {
    name.parse::<Square>().ok().map(u8::from)
}
