//! The full, secret state of a minesweeper game and the rules that play it.

use std::fmt;

use shakmaty::attacks::king_attacks;
use shakmaty::fen::{Fen, LossyFenError};
use shakmaty::san::San;
use shakmaty::{Bitboard, Color, File, Move, Piece, Position, Rank, Role, Setup, Square};

use super::bombs::{Bomb, SplitMix64, fill_missing};
use super::chess;
use super::error::{BombError, NotOver, PlayError};
use super::options::MinesweeperOptions;
use super::view::{Blast, Count, FullRecord, MoveEvents, PlayerView, PublicMove, PublicView};
use crate::error::{ClaimError, GameOver, MoveError};
use crate::game::{BoardArray, PlayedMove};
use crate::outcome::{EndReason, Outcome};

/// A minesweeper game with all its secrets: both players' bombs (or the
/// neutral ones), which have gone off, and every count told.
///
/// Like [`Game`](crate::Game) it is an immutable value: every action
/// returns a new game and a refused action changes nothing. Never show it
/// to anyone: make a [`PublicView`] ([`MinesweeperGame::public_view`]) or a
/// [`PlayerView`] ([`MinesweeperGame::player_view`]) instead. Its `Debug`
/// output leaves the bombs out, so a log line cannot give them away.
///
/// # Life of a game
///
/// 1. [`MinesweeperGame::new`] starts the setup phase. When the options let
///    players choose ([`MinesweeperOptions::players_place`]) each places
///    their bombs with [`MinesweeperGame::place_bombs`], as often as they
///    like; play starts as soon as both have placed all 8. At the setup
///    deadline (or at once, when the options place bombs at random)
///    [`MinesweeperGame::finish_setup`] places what is missing at random.
/// 2. [`MinesweeperGame::play`] plays a move and reports its
///    [`MoveEvents`]: a blast (public) and a count (for the mover only).
/// 3. After the end, [`MinesweeperGame::full_record`] reveals everything.
///
/// Storage: [`MinesweeperGame::secret_state`] gives each player's row and
/// [`MinesweeperGame::restore`] rebuilds the game from both rows and the
/// moves.
///
/// ```
/// use slowfuse_rules::Color;
/// use slowfuse_rules::minesweeper::{MinesweeperGame, MinesweeperOptions, Square};
///
/// let game = MinesweeperGame::new(MinesweeperOptions::default())
///     .place_bombs(Color::White, &[Square::A3, Square::H3])?
///     .finish_setup(42)?; // the deadline: the 14 missing bombs go in at random
/// let (game, events) = game.play(Color::White, "e4")?;
/// assert_eq!(events.blast, None); // White's own half holds no black bomb
/// assert_eq!(game.public_view().fen(),
///            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct MinesweeperGame {
    pub(super) options: MinesweeperOptions,
    /// Every bomb, sorted by owner (White, Black, neutral) then square.
    pub(super) bombs: Vec<Bomb>,
    /// `positions[i]` is the position after `i` moves; never empty. The en
    /// passant square is kept only where a capture there is legal.
    pub(super) positions: Vec<Setup>,
    pub(super) moves: Vec<MoveRecord>,
    pub(super) outcome: Option<Outcome>,
    /// Whether play has started: set when both players have placed all
    /// their bombs, or when the setup was finished at random.
    pub(super) setup_over: bool,
}

/// One move with what it told the mover.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct MoveRecord {
    pub(super) public: PublicMove,
    pub(super) mover: Color,
    pub(super) count: Option<Count>,
}

impl fmt::Debug for MinesweeperGame {
    /// Options, phase, position and outcome; the bombs and counts only as
    /// numbers.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MinesweeperGame")
            .field("options", &self.options.as_str())
            .field("in_setup", &self.in_setup())
            .field("ply", &self.ply())
            .field("fen", &self.fen())
            .field("outcome", &self.outcome)
            .field("bombs", &format_args!("{} (secret)", self.bombs.len()))
            .finish_non_exhaustive()
    }
}

impl MinesweeperGame {
    /// A new game in its setup phase, from the normal chess start position,
    /// with no bomb placed yet.
    pub fn new(options: MinesweeperOptions) -> MinesweeperGame {
        MinesweeperGame {
            options,
            bombs: Vec::new(),
            positions: vec![Setup::initial()],
            moves: Vec::new(),
            outcome: None,
            setup_over: false,
        }
    }

    /// The game's options.
    pub fn options(&self) -> MinesweeperOptions {
        self.options
    }

    /// Whether the bombs are still being placed: until both players have
    /// placed all of theirs, or [`MinesweeperGame::finish_setup`] ends the
    /// setup.
    pub fn in_setup(&self) -> bool {
        !self.setup_over
    }

    /// Whether some bomb the options call for (8 per player, or 16 neutral)
    /// is not placed yet.
    pub(super) fn bombs_missing(&self) -> bool {
        [Some(Color::White), Some(Color::Black), None]
            .into_iter()
            .any(|owner| self.bombs_of(owner).count() < self.options.bombs_of(owner))
    }

    /// How many bombs `color` has placed (or been given) so far.
    pub fn bombs_placed(&self, color: Color) -> usize {
        self.bombs_of(Some(color)).count()
    }

    /// Places `color`'s bombs, replacing any they placed before. Allowed
    /// during the setup when the options let players choose; at most 8,
    /// on distinct squares of the player's region
    /// ([`MinesweeperOptions::allowed_squares`]), under their own pieces if
    /// they like. Once both players have placed all 8, play starts.
    ///
    /// # Errors
    ///
    /// [`BombError`] says why; the game is unchanged.
    pub fn place_bombs(&self, color: Color, squares: &[Square]) -> Result<Self, BombError> {
        if self.is_over() || !self.in_setup() {
            return Err(BombError::SetupOver);
        }
        if !self.options.players_place() {
            return Err(BombError::NotChosen);
        }
        validate_bombs(&self.options, Some(color), squares)?;
        let mut next = self.clone();
        next.bombs.retain(|b| b.owner != Some(color));
        next.bombs
            .extend(squares.iter().map(|&sq| Bomb::new(sq, Some(color))));
        next.sort_bombs();
        next.setup_over = !next.bombs_missing();
        Ok(next)
    }

    /// Ends the setup: places every missing bomb at random (White's, then
    /// Black's, then the neutral ones), drawing from a small deterministic
    /// generator seeded with `rng_seed`, so the caller supplies the
    /// randomness and the same seed gives the same bombs. Chosen bombs
    /// stay where they are; a missing bomb goes on a square of its region
    /// not yet holding one of its owner's bombs.
    ///
    /// # Errors
    ///
    /// [`BombError::SetupOver`] when the setup has already ended.
    pub fn finish_setup(&self, rng_seed: u64) -> Result<Self, BombError> {
        if self.is_over() || !self.in_setup() {
            return Err(BombError::SetupOver);
        }
        let mut rng = SplitMix64::new(rng_seed);
        let mut next = self.clone();
        for owner in [Some(Color::White), Some(Color::Black), None] {
            fill_missing(&self.options, &mut next.bombs, owner, &mut rng);
        }
        next.sort_bombs();
        next.setup_over = true;
        Ok(next)
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        self.position().turn
    }

    /// The number of moves (plies) played.
    pub fn ply(&self) -> u32 {
        u32::try_from(self.moves.len()).unwrap_or(u32::MAX)
    }

    /// The FEN of the visible position (no bombs in it).
    pub fn fen(&self) -> String {
        write_fen(self.position())
    }

    /// How the game ended, or `None` while it goes on.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Whether the game has ended.
    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// Every legal move now on the visible board (standard chess, plus the
    /// capture of a king that a blast left attacked), sorted by UCI, with
    /// SAN without check marks; empty during the setup and after the end.
    pub fn legal_moves(&self) -> Vec<PlayedMove> {
        if self.is_over() || self.in_setup() {
            return Vec::new();
        }
        let setup = self.position();
        let moves = chess::legal_moves(setup);
        let mut out: Vec<PlayedMove> = moves
            .iter()
            .map(|&m| PlayedMove {
                uci: chess::uci(m),
                san: San::disambiguate(m, &moves).to_string(),
            })
            .collect();
        out.sort_by(|a, b| a.uci.cmp(&b.uci));
        out
    }

    /// `player` plays the move `input` (SAN or UCI, as for
    /// [`Game::play`](crate::Game::play)), returning the new game and what
    /// the move did.
    ///
    /// # Errors
    ///
    /// [`PlayError`]: the setup is not over, it is not `player`'s turn, or
    /// the move cannot be read, is illegal or ambiguous, or the game is
    /// over. The game is unchanged.
    pub fn play(&self, player: Color, input: &str) -> Result<(Self, MoveEvents), PlayError> {
        self.check_playable()?;
        if player != self.turn() {
            return Err(PlayError::NotYourTurn);
        }
        let m = chess::resolve(self.position(), input)?;
        Ok(self.push(m))
    }

    /// Plays a move given strictly in UCI, by whoever is to move, as stored
    /// in the database.
    ///
    /// # Errors
    ///
    /// As [`MinesweeperGame::play`]; SAN is refused.
    pub fn play_uci(&self, uci: &str) -> Result<(Self, MoveEvents), PlayError> {
        self.check_playable()?;
        let m = chess::resolve_uci(self.position(), uci)?;
        Ok(self.push(m))
    }

    /// Whether `color` can never win any more: too little material to mate
    /// and no unexploded bomb left that could blow up the opponent's king
    /// (bombs are counted, never located: how many are unexploded is public,
    /// since every blast is).
    pub fn cannot_win(&self, color: Color) -> bool {
        !self.in_setup()
            && chess::engine(self.position()).is_some_and(|p| p.has_insufficient_material(color))
            && self
                .bombs
                .iter()
                .all(|b| b.is_spent() || !b.is_hostile_to(!color))
    }

    /// The player to move claims a draw: threefold repetition of the
    /// visible position, 50 moves without a capture, pawn move or blast, or
    /// a dead position (neither side can win: [`MinesweeperGame::cannot_win`]
    /// for both).
    ///
    /// # Errors
    ///
    /// [`ClaimError::NotDrawn`] if none holds, [`ClaimError::GameOver`] if
    /// the game has already ended.
    pub fn claim_draw(&self) -> Result<Self, ClaimError> {
        if self.is_over() {
            return Err(ClaimError::GameOver);
        }
        let reason = self.can_claim_draw().ok_or(ClaimError::NotDrawn)?;
        self.finish(Outcome::draw(reason))
            .map_err(|GameOver| ClaimError::GameOver)
    }

    /// The draw the player to move could claim now, if any.
    pub fn can_claim_draw(&self) -> Option<EndReason> {
        if self.is_over() || self.in_setup() {
            None
        } else if self.repetition_count() >= 3 {
            Some(EndReason::Repetition)
        } else if self.position().halfmoves >= 100 {
            Some(EndReason::FiftyMoves)
        } else if self.cannot_win(Color::White) && self.cannot_win(Color::Black) {
            Some(EndReason::DeadPosition)
        } else {
            None
        }
    }

    /// How many times the current visible position has occurred (same
    /// pieces, side to move, castling rights and en passant capture).
    pub fn repetition_count(&self) -> usize {
        let now = self.position();
        self.positions
            .iter()
            .filter(|p| {
                p.board == now.board
                    && p.turn == now.turn
                    && p.castling_rights == now.castling_rights
                    && p.ep_square == now.ep_square
            })
            .count()
    }

    /// Sets the outcome, replacing any: restores an off-board ending
    /// (resignation, agreement, time, claimed draw) loaded from storage.
    #[must_use]
    pub fn with_outcome(mut self, outcome: Outcome) -> Self {
        self.outcome = Some(outcome);
        self
    }

    /// What anyone may see. See [`PublicView`].
    pub fn public_view(&self) -> PublicView {
        PublicView {
            options: self.options,
            in_setup: self.in_setup(),
            turn: self.turn(),
            fens: self.positions.iter().map(write_fen).collect(),
            board: board_array(self.position()),
            moves: self.moves.iter().map(|m| m.public.clone()).collect(),
            legal_moves: self.legal_moves(),
            outcome: self.outcome,
        }
    }

    /// What `color` may see. See [`PlayerView`].
    pub fn player_view(&self, color: Color) -> PlayerView {
        let may_place_bombs = !self.is_over() && self.in_setup() && self.options.players_place();
        PlayerView {
            color,
            public: self.public_view(),
            own_bombs: self
                .options
                .owner_sees_bombs()
                .then(|| self.bombs_of(Some(color)).copied().collect()),
            counts: self.counts_of(color),
            may_place_bombs,
            allowed_squares: if may_place_bombs {
                self.options.allowed_squares(Some(color))
            } else {
                Vec::new()
            },
        }
    }

    /// Everything, once the game is over.
    ///
    /// # Errors
    ///
    /// [`NotOver`] while the game goes on.
    pub fn full_record(&self) -> Result<FullRecord, NotOver> {
        if !self.is_over() {
            return Err(NotOver);
        }
        Ok(FullRecord {
            public: self.public_view(),
            bombs: self.bombs.clone(),
            counts: self
                .moves
                .iter()
                .filter_map(|m| m.count.map(|c| (m.mover, c)))
                .collect(),
        })
    }

    /// The counts told to `color`, in move order.
    pub(super) fn counts_of(&self, color: Color) -> Vec<Count> {
        self.moves
            .iter()
            .filter(|m| m.mover == color)
            .filter_map(|m| m.count)
            .collect()
    }

    pub(super) fn bombs_of(&self, owner: Option<Color>) -> impl Iterator<Item = &Bomb> {
        self.bombs.iter().filter(move |b| b.owner == owner)
    }

    pub(super) fn sort_bombs(&mut self) {
        let rank = |owner: Option<Color>| match owner {
            Some(Color::White) => 0,
            Some(Color::Black) => 1,
            None => 2,
        };
        self.bombs.sort_by_key(|b| (rank(b.owner), b.square));
    }

    fn position(&self) -> &Setup {
        self.positions
            .last()
            .expect("a minesweeper game always has a position")
    }

    fn check_playable(&self) -> Result<(), PlayError> {
        if self.is_over() {
            Err(PlayError::Move(MoveError::GameOver))
        } else if self.in_setup() {
            Err(PlayError::InSetup)
        } else {
            Ok(())
        }
    }

    fn finish(&self, outcome: Outcome) -> Result<Self, GameOver> {
        if self.is_over() {
            return Err(GameOver);
        }
        Ok(self.clone().with_outcome(outcome))
    }

    /// Plays a move known to be legal: the chess move, then its bomb.
    fn push(&self, m: Move) -> (Self, MoveEvents) {
        let before = self.position();
        let mover = before.turn;
        let san = San::disambiguate(m, &chess::legal_moves(before));
        let ply = self.ply().saturating_add(1);
        let mut next = self.clone();
        let mut after = chess::apply(before, m);

        // Castling never lands on a hostile bomb: no option lets one lie on
        // the mover's back rank (see the options' regions).
        let arrival = match m {
            Move::Normal { to, .. } | Move::EnPassant { to, .. } => Some(to),
            Move::Castle { .. } | Move::Put { .. } => None,
        };
        let blast = arrival.and_then(|to| next.set_off(&mut after, to, mover, ply));
        if blast.is_some() {
            tidy_after_blast(&mut after);
        }
        let count = arrival
            .filter(|to| blast.is_none() && in_enemy_half(mover, *to))
            .map(|to| Count {
                ply,
                square: to,
                bombs: next.count_around(to, mover),
            });

        let replies = chess::legal_moves(&after);
        if !replies.iter().any(|r| matches!(r, Move::EnPassant { .. })) {
            after.ep_square = None;
        }
        next.positions.push(after);
        let outcome = next.outcome_after(m, mover, replies.is_empty());
        let suffix = match outcome {
            Some(o) if o.winner == Some(mover) => "#",
            None if chess::king_attacked(next.position(), !mover) => "+",
            _ => "",
        };
        next.moves.push(MoveRecord {
            public: PublicMove {
                uci: chess::uci(m),
                san: format!("{san}{suffix}"),
                blast: blast.clone(),
            },
            mover,
            count,
        });
        next.outcome = outcome;
        (
            next,
            MoveEvents {
                blast,
                count,
                outcome,
            },
        )
    }

    /// Sets off the bomb on `square` hostile to `mover`, if there is an
    /// unexploded one, removing the pieces it reaches from `setup`.
    fn set_off(
        &mut self,
        setup: &mut Setup,
        square: Square,
        mover: Color,
        ply: u32,
    ) -> Option<Blast> {
        let bomb = self
            .bombs
            .iter_mut()
            .find(|b| b.square == square && !b.is_spent() && b.is_hostile_to(mover))?;
        bomb.exploded_at = Some(ply);
        let owner = bomb.owner;
        let area = if self.options.modest {
            Bitboard::from(square)
        } else {
            king_attacks(square).with(square)
        };
        let removed = area
            .into_iter()
            .filter_map(|sq| {
                setup
                    .board
                    .remove_piece_at(sq)
                    .map(|p| (sq, p.color, p.role))
            })
            .collect();
        Some(Blast {
            square,
            owner,
            removed,
        })
    }

    /// How many bombs hostile to `mover`, spent ones included, lie on the 8
    /// squares around `square`.
    fn count_around(&self, square: Square, mover: Color) -> u8 {
        let around = king_attacks(square);
        let n = self
            .bombs
            .iter()
            .filter(|b| b.is_hostile_to(mover) && around.contains(b.square))
            .count();
        u8::try_from(n).unwrap_or(u8::MAX)
    }

    /// The end the position after `m` forces, if any.
    fn outcome_after(&self, m: Move, mover: Color, no_replies: bool) -> Option<Outcome> {
        let after = self.position();
        if m.capture() == Some(Role::King) {
            return Some(Outcome::win(mover, EndReason::VariantWin));
        }
        let has_king = |c: Color| after.board.king_of(c).is_some();
        match (has_king(mover), has_king(!mover)) {
            (false, false) => return Some(Outcome::draw(EndReason::VariantDraw)),
            (false, true) => return Some(Outcome::win(!mover, EndReason::Explosion)),
            (true, false) => return Some(Outcome::win(mover, EndReason::Explosion)),
            (true, true) => {}
        }
        if no_replies {
            return Some(if chess::king_attacked(after, !mover) {
                Outcome::win(mover, EndReason::Checkmate)
            } else {
                Outcome::draw(EndReason::Stalemate)
            });
        }
        if self.repetition_count() >= 5 {
            return Some(Outcome::draw(EndReason::FivefoldRepetition));
        }
        if after.halfmoves >= 150 {
            return Some(Outcome::draw(EndReason::SeventyFiveMoves));
        }
        None
    }

    /// A game from any position and bombs, for tests; `bombs` are
    /// `(square, owner)` and unexploded.
    #[cfg(test)]
    pub(super) fn from_position(
        options: MinesweeperOptions,
        fen: &str,
        bombs: &[(&str, Option<Color>)],
    ) -> MinesweeperGame {
        let setup = Fen::from_ascii(fen.as_bytes())
            .expect("test FEN")
            .into_setup();
        let mut game = MinesweeperGame {
            options,
            bombs: bombs
                .iter()
                .map(|(sq, owner)| Bomb::new(sq.parse().expect("test square"), *owner))
                .collect(),
            positions: vec![setup],
            moves: Vec::new(),
            outcome: None,
            setup_over: true,
        };
        game.sort_bombs();
        game
    }
}

/// Checks one owner's bombs against the options: how many, where, distinct.
pub(super) fn validate_bombs(
    options: &MinesweeperOptions,
    owner: Option<Color>,
    squares: &[Square],
) -> Result<(), BombError> {
    let max = options.bombs_of(owner);
    if squares.len() > max {
        return Err(BombError::TooMany {
            given: squares.len(),
            max,
        });
    }
    for (i, &square) in squares.iter().enumerate() {
        if !options.allows(owner, square) {
            return Err(BombError::OutsideRegion {
                square,
                region: options.allowed_region(owner),
            });
        }
        if squares[..i].contains(&square) {
            return Err(BombError::Duplicate(square));
        }
    }
    Ok(())
}

/// After a blast: castling rights go with a blown-up rook or king, and the
/// en passant square with a blown-up pawn that had just stepped twice; the
/// halfmove clock restarts, as after a capture.
fn tidy_after_blast(setup: &mut Setup) {
    setup.halfmoves = 0;
    for rook in setup.castling_rights {
        let color = if rook.rank() == Rank::First {
            Color::White
        } else {
            Color::Black
        };
        let king_home =
            setup.board.king_of(color) == Some(Square::from_coords(File::E, color.backrank()));
        if !king_home
            || setup.board.piece_at(rook)
                != Some(Piece {
                    color,
                    role: Role::Rook,
                })
        {
            setup.castling_rights.discard(rook);
        }
    }
    if let Some(ep) = setup.ep_square {
        let stepper = !setup.turn;
        let pawn_at = ep.offset(if stepper == Color::White { 8 } else { -8 });
        let pawn = Piece {
            color: stepper,
            role: Role::Pawn,
        };
        if pawn_at.and_then(|sq| setup.board.piece_at(sq)) != Some(pawn) {
            setup.ep_square = None;
        }
    }
}

/// Whether `square` is in the half where `color`'s opponent starts: ranks
/// 5–8 for White, 1–4 for Black.
fn in_enemy_half(color: Color, square: Square) -> bool {
    match color {
        Color::White => square.rank() >= Rank::Fifth,
        Color::Black => square.rank() <= Rank::Fourth,
    }
}

fn write_fen(setup: &Setup) -> String {
    Fen::try_from_setup(setup.clone())
        .unwrap_or_else(LossyFenError::ignore)
        .to_string()
}

fn board_array(setup: &Setup) -> BoardArray {
    let mut squares: BoardArray = [None; 64];
    for (square, piece) in &setup.board {
        squares[usize::from(square)] = Some((piece.color, piece.role));
    }
    squares
}
