//! What the engine is asked about: a position of one variant, made only from what the side to move may know.

use shakmaty::fen::Fen;
use shakmaty::variant::{Variant as Rules, VariantPosition};
use shakmaty::zobrist::Zobrist64;
use shakmaty::{CastlingMode, EnPassantMode, Move, Position, PositionError, Square};
use slowfuse_rules::bughouse::Board;
use slowfuse_rules::minesweeper::PlayerView;
use slowfuse_rules::{BughouseGame, Color, Game, Variant};

use crate::minesweeper::{Mines, king_capture};

/// Why a position cannot be given to the engine.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BadPosition {
    /// The FEN could not be read or is not a legal position of the variant.
    #[error("not a position of {variant}: {fen}")]
    BadFen {
        /// The variant asked for.
        variant: String,
        /// The FEN as given.
        fen: String,
    },
    /// A minesweeper view during the setup, or of a finished game.
    #[error("the minesweeper game is not being played")]
    NotPlaying,
    /// A minesweeper view of the player who is not to move.
    #[error("it is not this player's turn")]
    NotYourTurn,
}

/// Which evaluation a position is judged by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Standard chess and Chess960.
    Standard,
    /// Atomic chess.
    Atomic,
    /// Antichess (giveaway).
    Antichess,
    /// Crazyhouse.
    Crazyhouse,
    /// One board of a bughouse match, played as crazyhouse.
    Bughouse,
    /// King of the hill.
    KingOfTheHill,
    /// Three-check.
    ThreeCheck,
    /// Horde.
    Horde,
    /// Racing kings.
    RacingKings,
    /// Minesweeper, seen by the side to move.
    Minesweeper,
}

impl Kind {
    /// The kind of a two-player variant of the rules crate.
    pub fn of(variant: Variant) -> Kind {
        match variant {
            Variant::Standard | Variant::Chess960 => Kind::Standard,
            Variant::Atomic => Kind::Atomic,
            Variant::Antichess => Kind::Antichess,
            Variant::Crazyhouse => Kind::Crazyhouse,
            Variant::KingOfTheHill => Kind::KingOfTheHill,
            Variant::ThreeCheck => Kind::ThreeCheck,
            Variant::Horde => Kind::Horde,
            Variant::RacingKings => Kind::RacingKings,
        }
    }

    /// A short stable name, e.g. `"atomic"`, `"bughouse"`.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Standard => "standard",
            Kind::Atomic => "atomic",
            Kind::Antichess => "antichess",
            Kind::Crazyhouse => "crazyhouse",
            Kind::Bughouse => "bughouse",
            Kind::KingOfTheHill => "kingofthehill",
            Kind::ThreeCheck => "threecheck",
            Kind::Horde => "horde",
            Kind::RacingKings => "racingkings",
            Kind::Minesweeper => "minesweeper",
        }
    }
}

/// A position for the engine: the board of one variant, the hashes of the
/// positions before it (for repetitions) and, in minesweeper, what the side
/// to move knows of the bombs.
///
/// There is no way to build one from a minesweeper game's full secret
/// state: [`EnginePosition::from_minesweeper`] takes the
/// [`PlayerView`] of the side to move, so the engine sees only its own bombs
/// and what is public.
#[derive(Clone, Debug)]
pub struct EnginePosition {
    pub(crate) kind: Kind,
    pub(crate) pos: VariantPosition,
    pub(crate) mode: CastlingMode,
    pub(crate) history: Vec<u64>,
    pub(crate) mines: Option<Mines>,
}

impl EnginePosition {
    /// The position of `variant` described by `fen` (pockets `[..]` in
    /// crazyhouse, remaining checks `+2+3` in three-check).
    ///
    /// # Errors
    ///
    /// [`BadPosition::BadFen`] when the FEN is unreadable or illegal.
    pub fn from_fen(variant: Variant, fen: &str) -> Result<EnginePosition, BadPosition> {
        let rules = rules_variant(variant);
        let pos = parse(rules, variant == Variant::Chess960, fen, false)
            .ok_or_else(|| bad_fen(variant.as_str(), fen))?;
        Ok(EnginePosition::new(Kind::of(variant), pos))
    }

    /// The current position of a game, with its earlier positions so that
    /// the engine knows which moves repeat.
    pub fn from_game(game: &Game) -> EnginePosition {
        let variant = game.variant();
        let rules = rules_variant(variant);
        let chess960 = variant == Variant::Chess960;
        let history = (0..game.ply())
            .filter_map(|ply| game.fen_at(ply))
            .filter_map(|fen| parse(rules, chess960, &fen, true))
            .map(|pos| hash(&pos))
            .collect();
        let pos = parse(rules, chess960, &game.fen(), true)
            .unwrap_or_else(|| VariantPosition::new(rules));
        let mut engine = EnginePosition::new(Kind::of(variant), pos);
        engine.history = history;
        engine
    }

    /// One board of a bughouse match, from the side to move on it: played as
    /// crazyhouse with the pockets as they are now. The partner's board and
    /// pieces that may yet arrive from it are not considered.
    ///
    /// # Errors
    ///
    /// [`BadPosition::BadFen`] if the board cannot be read as crazyhouse.
    pub fn from_bughouse(game: &BughouseGame, board: Board) -> Result<EnginePosition, BadPosition> {
        let fen = game.fen(board);
        let pos =
            parse(Rules::Crazyhouse, false, &fen, true).ok_or_else(|| bad_fen("bughouse", &fen))?;
        Ok(EnginePosition::new(Kind::Bughouse, pos))
    }

    /// A minesweeper position as the player to move sees it: the visible
    /// board, the player's own bombs (when the options show them), the bombs
    /// that went off and the counts the player was told.
    ///
    /// # Errors
    ///
    /// [`BadPosition::NotYourTurn`] for the view of the player not to
    /// move, [`BadPosition::NotPlaying`] during the setup or after the end.
    pub fn from_minesweeper(view: &PlayerView) -> Result<EnginePosition, BadPosition> {
        if view.public.in_setup || view.public.outcome.is_some() {
            return Err(BadPosition::NotPlaying);
        }
        if view.public.turn != view.color {
            return Err(BadPosition::NotYourTurn);
        }
        let fen = view.public.fen();
        let setup = Fen::from_ascii(fen.as_bytes())
            .map_err(|_| bad_fen("minesweeper", fen))?
            .into_setup();
        let mut mines = Mines::from_view(view);
        mines.king_capture = king_capture(&setup.board, setup.turn);
        let pos = match parse(Rules::Chess, false, fen, true) {
            Some(pos) => pos,
            // A blast left the waiting king attacked, which shakmaty cannot
            // hold: the engine's only answer is to take that king.
            None if mines.king_capture.is_some() => VariantPosition::new(Rules::Chess),
            None => return Err(bad_fen("minesweeper", fen)),
        };
        mines.fen = fen.to_owned();
        let mut engine = EnginePosition::new(Kind::Minesweeper, pos);
        engine.mines = Some(mines);
        Ok(engine)
    }

    fn new(kind: Kind, pos: VariantPosition) -> EnginePosition {
        let mode = pos.castles().mode();
        EnginePosition {
            kind,
            pos,
            mode,
            history: Vec::new(),
            mines: None,
        }
    }

    /// Which evaluation judges the position.
    pub fn kind(&self) -> Kind {
        self.kind
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        self.pos.turn()
    }

    /// The position as shakmaty holds it.
    pub fn position(&self) -> &VariantPosition {
        &self.pos
    }

    /// The FEN of the position (pockets and checks included).
    pub fn fen(&self) -> String {
        match &self.mines {
            Some(mines) => mines.fen.clone(),
            None => Fen::from_position(&self.pos, EnPassantMode::Legal).to_string(),
        }
    }

    /// In minesweeper, the capture of the enemy king that a blast left
    /// attacked, which wins at once.
    pub(crate) fn king_capture(&self) -> Option<Move> {
        self.mines.as_ref().and_then(|m| m.king_capture)
    }

    /// The position after `uci` (legal here), with this one added to the
    /// history; `None` for a move that is not legal.
    pub fn play_uci(&self, uci: &str) -> Option<EnginePosition> {
        let m = uci
            .parse::<shakmaty::uci::UciMove>()
            .ok()?
            .to_move(&self.pos)
            .ok()?;
        let mut next = self.clone();
        next.history.push(hash(&self.pos));
        next.pos.play_unchecked(m);
        Some(next)
    }

    /// Whether the game has ended here (mate, stalemate, a variant's goal,
    /// too little material).
    pub fn is_over(&self) -> bool {
        self.king_capture().is_none() && self.pos.is_game_over()
    }

    /// The legal moves in UCI, as the engine would name them.
    pub fn legal_ucis(&self) -> Vec<String> {
        if let Some(capture) = self.king_capture() {
            // Every other move is legal too, but none is worth playing.
            return vec![capture.to_uci(self.mode).to_string()];
        }
        self.pos
            .legal_moves()
            .iter()
            .map(|m| m.to_uci(self.mode).to_string())
            .collect()
    }
}

/// The Zobrist hash the engine keys positions by.
pub(crate) fn hash(pos: &VariantPosition) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

/// The shakmaty variant of a rules crate variant.
pub(crate) fn rules_variant(variant: Variant) -> Rules {
    match variant {
        Variant::Standard | Variant::Chess960 => Rules::Chess,
        Variant::Atomic => Rules::Atomic,
        Variant::Antichess => Rules::Antichess,
        Variant::Crazyhouse => Rules::Crazyhouse,
        Variant::KingOfTheHill => Rules::KingOfTheHill,
        Variant::ThreeCheck => Rules::ThreeCheck,
        Variant::Horde => Rules::Horde,
        Variant::RacingKings => Rules::RacingKings,
    }
}

/// Reads a FEN; `lenient` accepts more material than one set (bughouse
/// boards, positions after drops) and checks no game could reach.
fn parse(rules: Rules, chess960: bool, fen: &str, lenient: bool) -> Option<VariantPosition> {
    let setup = Fen::from_ascii(fen.trim().as_bytes()).ok()?.into_setup();
    let mode = if chess960 {
        CastlingMode::Chess960
    } else {
        CastlingMode::detect(&setup)
    };
    match VariantPosition::from_setup(rules, setup, mode) {
        Ok(pos) => Some(pos),
        Err(error) if lenient => relax(error),
        Err(error) => error.ignore_too_much_material().ok(),
    }
}

fn relax(error: PositionError<VariantPosition>) -> Option<VariantPosition> {
    match error.ignore_too_much_material() {
        Ok(pos) => Some(pos),
        Err(error) => error.ignore_impossible_check().ok(),
    }
}

fn bad_fen(variant: &str, fen: &str) -> BadPosition {
    BadPosition::BadFen {
        variant: variant.to_owned(),
        fen: fen.to_owned(),
    }
}

/// A square's index 0 (a1) to 63 (h8).
pub(crate) fn idx(square: Square) -> usize {
    usize::from(square)
}

impl EnginePosition {
    /// A position already held by shakmaty (random playouts).
    pub(crate) fn from_variant_position(kind: Kind, pos: VariantPosition) -> EnginePosition {
        EnginePosition::new(kind, pos)
    }
}
