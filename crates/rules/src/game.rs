//! The game value: a start position, the moves played on it, and how it ended.

use shakmaty::san::{San, SanPlus, Suffix};
use shakmaty::uci::UciMove;
use shakmaty::variant::VariantPosition;
use shakmaty::{
    Board, CastlingMode, Color, KnownOutcome, Move, Outcome as EngineOutcome, Position, Role,
    Square,
};

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
    /// `exd8=Q+`, `O-O`, `N@f3`, `P@e4`. An atomic move that blows up the
    /// enemy king gets `#`.
    pub san: String,
}

/// What a board shows after a move besides its pieces (see [`Game::marks_at`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlyMarks {
    /// The move's from and to squares (a drop: its square twice); `None` at the start.
    pub from_to: Option<(u8, u8)>,
    /// The square of the king in check, if the side to move is in check.
    pub check: Option<u8>,
    /// Atomic: the squares the capture's explosion cleared, ascending.
    pub exploded: Vec<u8>,
}

/// A board as 64 squares, index 0 = a1, 7 = h1, 63 = h8.
pub type BoardArray = [Option<(Color, Role)>; 64];

/// The pieces one crazyhouse player holds in hand, ready to drop.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Pocket {
    /// Pawns in hand.
    pub pawns: u8,
    /// Knights in hand.
    pub knights: u8,
    /// Bishops in hand.
    pub bishops: u8,
    /// Rooks in hand.
    pub rooks: u8,
    /// Queens in hand.
    pub queens: u8,
}

impl Pocket {
    /// How many pieces of `role` are in hand (never a king: 0).
    pub fn count(&self, role: Role) -> u8 {
        match role {
            Role::Pawn => self.pawns,
            Role::Knight => self.knights,
            Role::Bishop => self.bishops,
            Role::Rook => self.rooks,
            Role::Queen => self.queens,
            Role::King => 0,
        }
    }

    /// Whether the pocket is empty.
    pub fn is_empty(&self) -> bool {
        self.pawns + self.knights + self.bishops + self.rooks + self.queens == 0
    }
}

/// Both crazyhouse pockets.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Pockets {
    /// White's pieces in hand.
    pub white: Pocket,
    /// Black's pieces in hand.
    pub black: Pocket,
}

/// An immutable game: start position, moves played, and (maybe) its end.
///
/// Every action returns a new `Game` and leaves `self` untouched, so a
/// refused move or claim never changes anything.
///
/// # Game ends
///
/// After each move the game ends by itself on a variant's own ending (a
/// king explosion in atomic, [`EndReason::Explosion`]; the goals of
/// antichess, king of the hill, three-check, racing kings and horde,
/// [`EndReason::VariantWin`] or [`EndReason::VariantDraw`]), checkmate,
/// stalemate (draw), the fifth occurrence of a position, and after 75 moves
/// by each side without a capture or pawn move (draws), in that order of
/// precedence.
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
    /// `positions[i]` is the position after `i` moves; never empty.
    positions: Vec<VariantPosition>,
    moves: Vec<PlayedMove>,
    outcome: Option<Outcome>,
}

impl Game {
    /// A new game of `variant` from its own start position: the normal
    /// chess position, except for horde and racing kings; Chess960 starts
    /// from position 518 (the normal one, see [`Game::chess960`]).
    pub fn new(variant: Variant) -> Game {
        if variant == Variant::Chess960 {
            return Game::chess960(518).expect("518 is a Chess960 start position");
        }
        Game::start(
            variant,
            VariantPosition::new(variant.engine()),
            CastlingMode::Standard,
        )
    }

    /// A new Chess960 game from start position `number` in Scharnagl's
    /// numbering (0 to 959; 518 is the normal chess position). The caller
    /// draws the number.
    ///
    /// ```
    /// use slowfuse_rules::Game;
    ///
    /// let game = Game::chess960(0)?;
    /// assert_eq!(game.fen(), "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1");
    /// # Ok::<_, slowfuse_rules::SetupError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`SetupError::Illegal`] when `number` is 960 or more.
    pub fn chess960(number: u16) -> Result<Game, SetupError> {
        if number >= 960 {
            return Err(SetupError::Illegal(format!(
                "there is no Chess960 start position {number}: they are numbered 0 to 959"
            )));
        }
        let board = Board::chess960(u32::from(number));
        let fen = format!("{board} w KQkq - 0 1");
        Game::from_fen(Variant::Chess960, &fen)
    }

    fn start(variant: Variant, pos: VariantPosition, castling: CastlingMode) -> Game {
        let mut game = Game {
            variant,
            castling,
            positions: vec![pos],
            moves: Vec::new(),
            outcome: None,
        };
        let stuck = game.position().legal_moves().is_empty();
        game.outcome = game.automatic_outcome(stuck);
        game
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
        Ok(Game::start(variant, pos, castling))
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
        Game::from_fen(variant, initial_fen)?.replay_more(uci_moves)
    }

    /// This game with more stored UCI moves replayed on it, each checked, in place (no copy
    /// of the game per move): a stored game brought up to date.
    ///
    /// ```
    /// use slowfuse_rules::{Game, Variant};
    ///
    /// let game = Game::new(Variant::Standard).play("e4")?;
    /// let game = game.replay_more(&["e7e5".to_string(), "g1f3".to_string()]).unwrap();
    /// assert_eq!(game.moves()[2].san, "Nf3");
    /// # Ok::<_, slowfuse_rules::MoveError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`ReplayError::Move`] names the first move (its ply in the whole game, 1-based) that is
    /// not a legal UCI move.
    pub fn replay_more(mut self, uci_moves: &[String]) -> Result<Game, ReplayError> {
        let done = self.moves.len();
        self.positions.reserve(uci_moves.len());
        self.moves.reserve(uci_moves.len());
        for (index, uci) in uci_moves.iter().enumerate() {
            // In place: copying the game for every move made replay quadratic.
            self.play_uci_in_place(uci)
                .map_err(|error| ReplayError::Move {
                    ply: u32::try_from(done + index + 1).unwrap_or(u32::MAX),
                    uci: uci.clone(),
                    error,
                })?;
        }
        Ok(self)
    }

    /// The variant being played.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The full FEN of the start position (written when asked for, as a
    /// replay that only needs the current position should not pay for it).
    pub fn initial_fen(&self) -> String {
        write_fen(&self.positions[0])
    }

    /// Whether the game started from its variant's usual start position
    /// (with move counters `0 1`), so PGN needs no `SetUp`/`FEN` tags.
    /// Always `false` for Chess960, whose start must be recorded.
    pub fn is_standard_start(&self) -> bool {
        match self.variant {
            Variant::Chess960 => false,
            Variant::Standard => self.initial_fen() == STANDARD_START_FEN,
            variant => self.initial_fen() == write_fen(&VariantPosition::new(variant.engine())),
        }
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

    /// The crazyhouse pockets after `ply` moves (0 = the start); `None` past
    /// the end or in a variant without pockets.
    pub fn pockets_at(&self, ply: u32) -> Option<Pockets> {
        let pockets = self.position_at(ply)?.pockets()?;
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

    /// The from and to square indices (a1 = 0, h8 = 63) of the last move,
    /// for highlighting. Castling gives the king's squares as in the UCI; a
    /// crazyhouse drop gives the drop square twice.
    pub fn last_move_squares(&self) -> Option<(u8, u8)> {
        self.move_squares_at(self.ply())
    }

    /// The from and to square indices of the move that led to the position
    /// after `ply` moves (as [`Game::last_move_squares`]); `None` at the start
    /// and past the end.
    pub fn move_squares_at(&self, ply: u32) -> Option<(u8, u8)> {
        let played = self.moves.get(usize::try_from(ply).ok()?.checked_sub(1)?)?;
        match UciMove::from_ascii(played.uci.as_bytes()).ok()? {
            UciMove::Normal { from, to, .. } => Some((u8::from(from), u8::from(to))),
            UciMove::Put { to, .. } => Some((u8::from(to), u8::from(to))),
            UciMove::Null => None,
        }
    }

    /// What a board shows after `ply` moves besides its pieces: the move
    /// that led there, the king in check, and in atomic the squares the
    /// capture's explosion cleared. `None` past the end.
    pub fn marks_at(&self, ply: u32) -> Option<PlyMarks> {
        let after = self.position_at(ply)?;
        let check = after
            .is_check()
            .then(|| after.board().king_of(after.turn()))
            .flatten()
            .map(u8::from);
        Some(PlyMarks {
            from_to: self.move_squares_at(ply),
            check,
            exploded: self.exploded_at(ply),
        })
    }

    /// The squares an atomic capture cleared on the move to `ply`, a1 = 0,
    /// in ascending order: the capture square and every square around it
    /// whose piece went up with it (a pawn there stays). Empty for any
    /// other move or variant.
    fn exploded_at(&self, ply: u32) -> Vec<u8> {
        if self.variant != Variant::Atomic || ply == 0 {
            return Vec::new();
        }
        let (Some(before), Some(after), Some(played)) = (
            self.position_at(ply - 1),
            self.position_at(ply),
            self.moves
                .get(usize::try_from(ply - 1).unwrap_or(usize::MAX)),
        ) else {
            return Vec::new();
        };
        let Some(m) = UciMove::from_ascii(played.uci.as_bytes())
            .ok()
            .and_then(|uci| uci.to_move(before).ok())
        else {
            return Vec::new();
        };
        if !m.is_capture() {
            return Vec::new();
        }
        let from = m.from();
        let cleared = before.board().occupied() & !after.board().occupied();
        let mut squares: Vec<u8> = cleared
            .into_iter()
            .filter(|&square| Some(square) != from)
            .chain(std::iter::once(m.to()))
            .map(u8::from)
            .collect();
        squares.sort_unstable();
        squares.dedup();
        squares
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
        // A capture or pawn move (which reset the halfmove clock) cannot be
        // undone, so no earlier position can recur; in crazyhouse a captured
        // piece can come back by a drop, so there the whole game counts.
        let since_irreversible = if matches!(self.variant, Variant::Crazyhouse) {
            self.positions.len()
        } else {
            usize::try_from(now.halfmoves()).map_or(usize::MAX, |h| h.saturating_add(1))
        };
        // Every move passes the turn, so only every other position can match.
        self.positions
            .iter()
            .rev()
            .take(since_irreversible)
            .step_by(2)
            .filter(|p| *p == now)
            .count()
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

    /// Every legal move now in UCI only (no SAN: cheaper than
    /// [`Game::legal_moves`]), sorted; a castling move is listed both as the
    /// king's two-square step (`e1g1`) and as king-takes-rook (`e1h1`), the
    /// two ways a player may give it. Empty when the game is over.
    pub fn legal_ucis(&self) -> Vec<String> {
        if self.is_over() {
            return Vec::new();
        }
        let mut ucis: Vec<String> = Vec::new();
        for m in self.position().legal_moves() {
            ucis.push(UciMove::from_move(m, self.castling).to_string());
            if m.is_castle() {
                ucis.push(UciMove::from_move(m, CastlingMode::Chess960).to_string());
            }
        }
        ucis.sort();
        ucis.dedup();
        ucis
    }

    /// Reads `input` as a move and plays it, returning the new game.
    ///
    /// Accepts SAN (`Nxf7`, `Nf3`, `exd5`, `O-O`, `e8=Q`, with or without
    /// `+`, `#`, `!`, `?`), UCI (`g1f3`, `e7e8q`; castling also as
    /// king-takes-rook `e1h1`) and crazyhouse drops (`N@f3`, `P@e4`, and
    /// `@e4` for a pawn).
    ///
    /// # Errors
    ///
    /// [`MoveError`] says whether the text could not be read, matches no
    /// legal move, matches several, or the game is over. `self` is unchanged.
    pub fn play(&self, input: &str) -> Result<Game, MoveError> {
        let m = self.resolve(input)?;
        Ok(self.push(m))
    }

    /// Reads `input` as [`Game::play`] does and plays it on this game itself, without
    /// copying the moves before it: what a server does with a game it owns.
    ///
    /// # Errors
    ///
    /// As [`Game::play`]; the game is then unchanged.
    pub fn play_in_place(&mut self, input: &str) -> Result<(), MoveError> {
        let m = self.resolve(input)?;
        self.push_in_place(m);
        Ok(())
    }

    /// The legal move `input` names, unless the game is over.
    fn resolve(&self, input: &str) -> Result<Move, MoveError> {
        if self.is_over() {
            return Err(MoveError::GameOver);
        }
        input::resolve(self.position(), input).map_err(|e| self.explained(e))
    }

    /// A refusal in the variant's own terms where the rules say more than "illegal": in
    /// antichess, the captures that must be made instead.
    fn explained(&self, error: MoveError) -> MoveError {
        match error {
            MoveError::Illegal(input) if self.variant == Variant::Antichess => {
                let captures: Vec<String> = self
                    .position()
                    .legal_moves()
                    .into_iter()
                    .filter(|m| m.is_capture())
                    .map(|m| self.describe_move(self.position(), m).san)
                    .collect();
                if captures.is_empty() {
                    MoveError::Illegal(input)
                } else {
                    MoveError::MustCapture { input, captures }
                }
            }
            other => other,
        }
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

    /// As [`Game::play_uci`], changing this game; unchanged on error.
    fn play_uci_in_place(&mut self, uci: &str) -> Result<(), MoveError> {
        if self.is_over() {
            return Err(MoveError::GameOver);
        }
        let m = input::resolve_uci(self.position(), uci)?;
        self.push_in_place(m);
        Ok(())
    }

    /// Plays a move read by a PGN reader: exact SAN, or (for files that
    /// hold UCI in the movetext) the same text read as UCI.
    /// The game is changed only when the move is legal.
    pub(crate) fn play_san_in_place(&mut self, san: &San) -> Result<(), MoveError> {
        if self.is_over() {
            return Err(MoveError::GameOver);
        }
        let m = input::resolve_san(self.position(), san)?;
        self.push_in_place(m);
        Ok(())
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
        } else if self.is_dead_position() {
            Some(EndReason::DeadPosition)
        } else {
            None
        }
    }

    /// Whether `color` has too little material ever to win here, whatever
    /// the opponent does (shakmaty's insufficient-material test for the
    /// variant; in antichess: whether `color` can never lose all its pieces
    /// or be stalemated). Used for [`Game::flag`].
    pub fn cannot_win(&self, color: Color) -> bool {
        self.position().has_insufficient_material(color)
    }

    /// Whether neither side can ever win: the dead position that makes a
    /// draw claimable ([`EndReason::DeadPosition`]). It never ends the game
    /// by itself.
    pub fn is_dead_position(&self) -> bool {
        self.position().is_insufficient_material()
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
        crate::perft::perft(self.position(), depth)
    }

    pub(crate) fn position(&self) -> &VariantPosition {
        self.positions.last().expect("a game always has a position")
    }

    /// The position the game started from.
    pub(crate) fn start_position(&self) -> &VariantPosition {
        &self.positions[0]
    }

    /// How castling moves are written in UCI in this game.
    pub(crate) fn castling_mode(&self) -> CastlingMode {
        self.castling
    }

    fn position_at(&self, ply: u32) -> Option<&VariantPosition> {
        self.positions.get(usize::try_from(ply).ok()?)
    }

    fn describe_move(&self, pos: &VariantPosition, m: Move) -> PlayedMove {
        PlayedMove {
            uci: UciMove::from_move(m, self.castling).to_string(),
            san: san_text(&SanPlus::from_move(pos.clone(), m)),
        }
    }

    /// Plays a move already known to be legal.
    fn push(&self, m: Move) -> Game {
        let mut next = self.clone();
        next.push_in_place(m);
        next
    }

    /// Plays a move already known to be legal on this game itself.
    fn push_in_place(&mut self, m: Move) {
        let mut pos = self.position().clone();
        let san = San::from_move(&pos, m);
        pos.play_unchecked(m);
        // The legal moves after the move are generated once, for both the
        // `#` of the SAN and the game's end.
        let stuck = pos.legal_moves().is_empty();
        let played = PlayedMove {
            uci: UciMove::from_move(m, self.castling).to_string(),
            san: san_text(&SanPlus {
                san,
                suffix: suffix(&pos, stuck),
            }),
        };
        self.positions.push(pos);
        self.moves.push(played);
        self.outcome = self.automatic_outcome(stuck);
    }

    fn finish(&self, outcome: Outcome) -> Result<Game, GameOver> {
        if self.is_over() {
            return Err(GameOver);
        }
        Ok(self.clone().with_outcome(outcome))
    }

    /// The end the current position forces, if any; `stuck` says whether
    /// the side to move has no legal move.
    fn automatic_outcome(&self, stuck: bool) -> Option<Outcome> {
        let pos = self.position();
        match pos.variant_outcome() {
            EngineOutcome::Known(KnownOutcome::Decisive { winner }) => {
                return Some(Outcome::win(winner, self.variant_end_reason()));
            }
            EngineOutcome::Known(KnownOutcome::Draw) => {
                return Some(Outcome::draw(EndReason::VariantDraw));
            }
            EngineOutcome::Unknown => {}
        }
        if stuck {
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
            // These have no ending of their own; shakmaty never reports one.
            Variant::Standard | Variant::Chess960 | Variant::Crazyhouse => EndReason::Checkmate,
            Variant::Antichess
            | Variant::KingOfTheHill
            | Variant::ThreeCheck
            | Variant::Horde
            | Variant::RacingKings => EndReason::VariantWin,
        }
    }
}

/// The `+` or `#` of the move that led to `pos`, as shakmaty's
/// `Suffix::from_position` gives it, told whether the side to move is
/// `stuck` (has no legal move) so that the moves are not generated again.
fn suffix(pos: &VariantPosition, stuck: bool) -> Option<Suffix> {
    let decisive = match pos.variant_outcome() {
        EngineOutcome::Known(KnownOutcome::Decisive { .. }) => true,
        EngineOutcome::Known(KnownOutcome::Draw) => false,
        EngineOutcome::Unknown => stuck && pos.is_check(),
    };
    if decisive {
        Some(Suffix::Checkmate)
    } else if pos.checkers().any() {
        Some(Suffix::Check)
    } else {
        None
    }
}

/// SAN as shown and written: shakmaty's, except that a pawn drop is
/// `P@e4` (as lichess writes it) rather than `@e4`.
pub(crate) fn san_text(san: &SanPlus) -> String {
    match san.san {
        San::Put {
            role: Role::Pawn, ..
        } => format!("P{san}"),
        _ => san.to_string(),
    }
}

/// Every legal move in the position `fen` of `variant`, in UCI, sorted as
/// strings: castling as the king's two-square step, or king-takes-rook when
/// the position is read in Chess960 mode (always for [`Variant::Chess960`]);
/// drops as `P@e4`. Empty when the variant's game is over (an exploded king,
/// a king on the hill, ...). Accepts the same positions as [`perft_from_fen`].
///
/// ```
/// use slowfuse_rules::{Variant, legal_moves_from_fen};
///
/// let moves = legal_moves_from_fen(Variant::Crazyhouse, "4k3/8/8/8/8/8/8/4K3[N] w - - 0 1")?;
/// assert_eq!(moves.len(), 5 + 62);
/// assert!(moves.contains(&"N@e2".to_owned()));
/// # Ok::<_, slowfuse_rules::SetupError>(())
/// ```
///
/// # Errors
///
/// [`SetupError`] when the FEN is malformed or the position otherwise illegal.
pub fn legal_moves_from_fen(variant: Variant, fen: &str) -> Result<Vec<String>, SetupError> {
    let (pos, mode) = parse_position_allowing_impossible_check(variant, fen)?;
    let mut moves: Vec<String> = pos
        .legal_moves()
        .into_iter()
        .map(|m| UciMove::from_move(m, mode).to_string())
        .collect();
    moves.sort();
    Ok(moves)
}

/// The square index (a1 = 0, h8 = 63) of a square name like `"e4"`.
pub fn square_index(name: &str) -> Option<u8> {
    name.parse::<Square>().ok().map(u8::from)
}
