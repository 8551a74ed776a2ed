//! One trait that every kind of game implements, the way shakmaty's `Position` serves every
//! variant: play a move for a player, list their legal moves, resign, agree or claim a draw,
//! lose on time, tell the outcome, and show one reader what they may see. [`Game`] (one board,
//! two players), [`BughouseGame`] (two boards, four seats) and [`MinesweeperGame`] (hidden
//! bombs) implement it; what differs between them is the associated types, not the calls.
//!
//! ```
//! use slowfuse_rules::{Color, Game, GameRules, Variant};
//!
//! fn resigned<G: GameRules>(game: &G, player: G::Player) -> Option<G::Outcome> {
//!     GameRules::outcome(&game.resign(player).ok()?)
//! }
//! let game = Game::new(Variant::Atomic);
//! assert!(resigned(&game, Color::White).is_some_and(|o| o.winner == Some(Color::Black)));
//! ```

use shakmaty::{Color, Position};

use crate::BughouseGame;
use crate::bughouse::{BughouseEndReason, BughouseError, BughouseOutcome, Seat};
use crate::error::{ClaimError, GameOver, MoveError};
use crate::game::{Game, PlayedMove};
use crate::minesweeper::{MinesweeperGame, PlayError, PlayerView, PublicView};
use crate::outcome::{EndReason, Outcome};

/// How a game ends off the board, the same in every kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OffBoard {
    /// A player gave up.
    Resignation,
    /// The players agreed a draw.
    Agreement,
    /// A player's time ran out.
    Time,
}

/// What every kind of game does. Each call returns a new game and leaves `self` unchanged.
/// Resigning, agreeing a draw and losing on time are written once, here; a kind says only
/// how its outcomes are made ([`GameRules::loss_of`], [`GameRules::draw_by`]).
pub trait GameRules: Sized + Clone {
    /// Who acts: a colour on the one board, or a seat of a bughouse match.
    type Player: Copy + Eq;
    /// How a game of this kind ends.
    type Outcome: Copy;
    /// Why a move was refused.
    type MoveError: std::error::Error;
    /// What one reader is shown of the game.
    type View;

    /// Plays `input` (SAN, UCI, or a drop where the kind has pockets) for `player`.
    ///
    /// # Errors
    ///
    /// When it is not `player`'s turn, the text is no legal move, or the game is over.
    fn play_for(&self, player: Self::Player, input: &str) -> Result<Self, Self::MoveError>;

    /// Whether `player` is to move now (false once the game is over).
    fn is_turn_of(&self, player: Self::Player) -> bool;

    /// The moves `player` may make now, sorted by UCI; empty when it is not their turn.
    fn legal_moves_for(&self, player: Self::Player) -> Vec<PlayedMove>;

    /// The player to move claims a draw by the rules of the kind (repetition, fifty moves,
    /// dead position).
    ///
    /// # Errors
    ///
    /// [`ClaimError`]: nothing to claim, no claims in this kind, or the game is over.
    fn claim_draw(&self) -> Result<Self, ClaimError>;

    /// How the game ended, or `None` while it goes on.
    fn outcome(&self) -> Option<Self::Outcome>;

    /// The game with `outcome` set, whatever it held.
    #[must_use]
    fn with_outcome(self, outcome: Self::Outcome) -> Self;

    /// `player` lost off the board, `how`.
    fn loss_of(player: Self::Player, how: OffBoard) -> Self::Outcome;

    /// A draw off the board, `how`.
    fn draw_by(how: OffBoard) -> Self::Outcome;

    /// Whether `loser`'s opponent could never win: then running out of time draws.
    fn flag_draws(&self, loser: Self::Player) -> bool {
        let _ = loser;
        false
    }

    /// What `reader` may see: a player of the game (`Some`), or anyone else (`None`).
    fn view_for(&self, reader: Option<Self::Player>) -> Self::View;

    /// Whether the game has ended.
    fn is_over(&self) -> bool {
        self.outcome().is_some()
    }

    /// Ends the game with `outcome`.
    ///
    /// # Errors
    ///
    /// [`GameOver`] when the game has already ended.
    fn end_with(&self, outcome: Self::Outcome) -> Result<Self, GameOver> {
        if self.is_over() {
            return Err(GameOver);
        }
        Ok(self.clone().with_outcome(outcome))
    }

    /// `player` resigns (for a bughouse seat: their team loses).
    ///
    /// # Errors
    ///
    /// [`GameOver`] when the game has already ended.
    fn resign(&self, player: Self::Player) -> Result<Self, GameOver> {
        self.end_with(Self::loss_of(player, OffBoard::Resignation))
    }

    /// The players agree a draw.
    ///
    /// # Errors
    ///
    /// [`GameOver`] when the game has already ended.
    fn agree_draw(&self) -> Result<Self, GameOver> {
        self.end_with(Self::draw_by(OffBoard::Agreement))
    }

    /// `player` ran out of time: they lose, unless their opponent could never win
    /// ([`GameRules::flag_draws`]); then it is a draw, still by time.
    ///
    /// # Errors
    ///
    /// [`GameOver`] when the game has already ended.
    fn flag(&self, player: Self::Player) -> Result<Self, GameOver> {
        self.end_with(if self.flag_draws(player) {
            Self::draw_by(OffBoard::Time)
        } else {
            Self::loss_of(player, OffBoard::Time)
        })
    }
}

impl GameRules for Game {
    type Player = Color;
    type Outcome = Outcome;
    type MoveError = MoveError;
    /// Everything on one board is public.
    type View = Game;

    fn play_for(&self, player: Color, input: &str) -> Result<Game, MoveError> {
        if !self.is_over() && self.turn() != player {
            return Err(MoveError::Illegal(format!(
                "{input}: it is {} to move",
                color_word(self.turn())
            )));
        }
        self.play(input)
    }

    fn is_turn_of(&self, player: Color) -> bool {
        !self.is_over() && self.turn() == player
    }

    fn legal_moves_for(&self, player: Color) -> Vec<PlayedMove> {
        if self.is_turn_of(player) {
            self.legal_moves()
        } else {
            Vec::new()
        }
    }

    fn claim_draw(&self) -> Result<Game, ClaimError> {
        Game::claim_draw(self)
    }

    fn outcome(&self) -> Option<Outcome> {
        Game::outcome(self)
    }

    fn with_outcome(self, outcome: Outcome) -> Game {
        Game::with_outcome(self, outcome)
    }

    fn loss_of(player: Color, how: OffBoard) -> Outcome {
        Outcome::win(!player, reason(how))
    }

    fn draw_by(how: OffBoard) -> Outcome {
        Outcome::draw(reason(how))
    }

    /// The winner has too little material ever to win (shakmaty's test for the variant).
    fn flag_draws(&self, loser: Color) -> bool {
        self.position().has_insufficient_material(!loser)
    }

    fn view_for(&self, _reader: Option<Color>) -> Game {
        self.clone()
    }
}

impl GameRules for BughouseGame {
    type Player = Seat;
    type Outcome = BughouseOutcome;
    type MoveError = BughouseError;
    /// Both boards and pockets are public; team chat is kept by the server.
    type View = BughouseGame;

    fn play_for(&self, player: Seat, input: &str) -> Result<BughouseGame, BughouseError> {
        self.play_as(player, input)
    }

    fn is_turn_of(&self, player: Seat) -> bool {
        !self.is_over() && self.to_move(player.board()) == player
    }

    fn legal_moves_for(&self, player: Seat) -> Vec<PlayedMove> {
        if self.is_turn_of(player) {
            self.legal_moves(player.board())
        } else {
            Vec::new()
        }
    }

    /// A match has no draw by claim: with two boards and four clocks, repetition and the
    /// fifty-move count belong to a board, not to the match. A draw is agreed.
    fn claim_draw(&self) -> Result<BughouseGame, ClaimError> {
        if self.is_over() {
            Err(ClaimError::GameOver)
        } else {
            Err(ClaimError::NoClaims)
        }
    }

    fn outcome(&self) -> Option<BughouseOutcome> {
        BughouseGame::outcome(self)
    }

    fn with_outcome(self, outcome: BughouseOutcome) -> BughouseGame {
        BughouseGame::with_outcome(self, outcome)
    }

    fn loss_of(player: Seat, how: OffBoard) -> BughouseOutcome {
        BughouseOutcome::loss(player, match_reason(how))
    }

    fn draw_by(how: OffBoard) -> BughouseOutcome {
        BughouseOutcome::draw(match_reason(how), None)
    }

    fn view_for(&self, _reader: Option<Seat>) -> BughouseGame {
        self.clone()
    }
}

/// What one reader sees of a minesweeper game: a player's view (their own bombs, unless the
/// options hide them, and the counts they were told) or the public one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MinesweeperView {
    /// A player's.
    Player(PlayerView),
    /// Anyone else's.
    Public(PublicView),
}

impl MinesweeperView {
    /// What everyone sees, in either view.
    pub fn public(&self) -> &PublicView {
        match self {
            MinesweeperView::Player(view) => &view.public,
            MinesweeperView::Public(view) => view,
        }
    }
}

impl GameRules for MinesweeperGame {
    type Player = Color;
    type Outcome = Outcome;
    type MoveError = PlayError;
    type View = MinesweeperView;

    fn play_for(&self, player: Color, input: &str) -> Result<MinesweeperGame, PlayError> {
        self.play(player, input).map(|(after, _)| after)
    }

    fn is_turn_of(&self, player: Color) -> bool {
        !self.is_over() && !self.in_setup() && self.turn() == player
    }

    fn legal_moves_for(&self, player: Color) -> Vec<PlayedMove> {
        if self.is_turn_of(player) {
            self.legal_moves()
        } else {
            Vec::new()
        }
    }

    fn claim_draw(&self) -> Result<MinesweeperGame, ClaimError> {
        MinesweeperGame::claim_draw(self)
    }

    fn outcome(&self) -> Option<Outcome> {
        MinesweeperGame::outcome(self)
    }

    fn with_outcome(self, outcome: Outcome) -> MinesweeperGame {
        MinesweeperGame::with_outcome(self, outcome)
    }

    fn loss_of(player: Color, how: OffBoard) -> Outcome {
        Outcome::win(!player, reason(how))
    }

    fn draw_by(how: OffBoard) -> Outcome {
        Outcome::draw(reason(how))
    }

    /// The winner could never win ([`MinesweeperGame::cannot_win`]: no mating material and
    /// no bomb left that could take the king).
    fn flag_draws(&self, loser: Color) -> bool {
        self.cannot_win(!loser)
    }

    fn view_for(&self, reader: Option<Color>) -> MinesweeperView {
        match reader {
            Some(color) => MinesweeperView::Player(self.player_view(color)),
            None => MinesweeperView::Public(self.public_view()),
        }
    }
}

/// The two-player end reason of an ending off the board.
fn reason(how: OffBoard) -> EndReason {
    match how {
        OffBoard::Resignation => EndReason::Resignation,
        OffBoard::Agreement => EndReason::Agreement,
        OffBoard::Time => EndReason::Time,
    }
}

/// The bughouse end reason of an ending off the board.
fn match_reason(how: OffBoard) -> BughouseEndReason {
    match how {
        OffBoard::Resignation => BughouseEndReason::Resignation,
        OffBoard::Agreement => BughouseEndReason::Agreement,
        OffBoard::Time => BughouseEndReason::Time,
    }
}

fn color_word(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}
