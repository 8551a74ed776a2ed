//! What each audience may see of a minesweeper game: the public view, a player's view, and the
//! full record once the game is over.
//!
//! These are plain values copied out of the game: they hold no reference to
//! it, so nothing beyond what they hold can be reached through them. A
//! [`PublicView`] holds no unexploded bomb and no count by construction.

use shakmaty::fen::Fen;
use shakmaty::{Color, Role, Square};

use super::bombs::Bomb;
use super::options::MinesweeperOptions;
use crate::game::{BoardArray, PlayedMove};
use crate::outcome::Outcome;

/// A bomb going off. Public: everyone sees the pieces vanish, so the square
/// becomes a known, spent bomb.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Blast {
    /// The bomb's square: where the piece that set it off arrived.
    pub square: Square,
    /// Whose bomb it was (`None`: neutral). Always the mover's opponent's
    /// or a neutral one, since own bombs never go off.
    pub owner: Option<Color>,
    /// The pieces removed, a1 first: the piece on the bomb and, unless
    /// blasts are modest, every piece on the 8 neighbouring squares.
    pub removed: Vec<(Square, Color, Role)>,
}

/// What a player was told when their piece arrived in the enemy half. Secret
/// to that player until the game ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Count {
    /// The ply of the move (1 = the first move).
    pub ply: u32,
    /// Where the piece arrived.
    pub square: Square,
    /// How many bombs hostile to that piece (the enemy's, or neutral ones;
    /// spent ones included) lie on the 8 neighbouring squares.
    pub bombs: u8,
}

/// A move as everyone sees it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PublicMove {
    /// UCI as stored: `g1f3`, `e7e8q`, castling `e1g1`.
    pub uci: String,
    /// SAN as written to PGN, with `+` when the move (and its blast) leaves
    /// the opponent in check, `#` when it wins on the spot (mate, a king
    /// blown up or captured).
    pub san: String,
    /// The blast the move set off, if any.
    pub blast: Option<Blast>,
}

/// What a move did, returned to the caller of
/// [`MinesweeperGame::play`](super::MinesweeperGame::play).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveEvents {
    /// The blast, if the moving piece set a bomb off (public).
    pub blast: Option<Blast>,
    /// The count told to the mover, if their piece arrived (and survived) in
    /// the enemy half (secret to the mover).
    pub count: Option<Count>,
    /// How the move ended the game, if it did.
    pub outcome: Option<Outcome>,
}

/// What anyone may see: the board, the moves, the blasts. It holds no
/// unexploded bomb and no count; spectators, the PGN and FEN exports, share
/// links and the opponent's side of a page are all made from this.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PublicView {
    /// The game's options (public: chosen when the game was created).
    pub options: MinesweeperOptions,
    /// Whether the players are still placing bombs.
    pub in_setup: bool,
    /// The side to move.
    pub turn: Color,
    /// The FEN after each ply (index 0 = the start), without bombs.
    pub fens: Vec<String>,
    /// The pieces now, index 0 = a1, 63 = h8.
    pub board: BoardArray,
    /// The moves played.
    pub moves: Vec<PublicMove>,
    /// The legal moves of the side to move on the visible board, sorted by
    /// UCI, SAN without check marks (what a bomb will do is not known);
    /// empty during the setup and after the end.
    pub legal_moves: Vec<PlayedMove>,
    /// How the game ended, if it has.
    pub outcome: Option<Outcome>,
}

impl PublicView {
    /// The FEN of the current position.
    pub fn fen(&self) -> &str {
        self.fens.last().map_or("", String::as_str)
    }

    /// The pieces after `ply` moves (0 = the start); `None` past the end.
    pub fn board_at(&self, ply: u32) -> Option<BoardArray> {
        let fen = self.fens.get(usize::try_from(ply).ok()?)?;
        let setup = Fen::from_ascii(fen.as_bytes()).ok()?.into_setup();
        let mut squares: BoardArray = [None; 64];
        for (square, piece) in &setup.board {
            squares[usize::from(square)] = Some((piece.color, piece.role));
        }
        Some(squares)
    }

    /// Every bomb that has gone off: square, owner (`None`: neutral) and the
    /// ply that set it off.
    pub fn spent_bombs(&self) -> Vec<(Square, Option<Color>, u32)> {
        self.moves
            .iter()
            .zip(1u32..)
            .filter_map(|(m, ply)| m.blast.as_ref().map(|b| (b.square, b.owner, ply)))
            .collect()
    }
}

/// What one player may see: everything public, their own bombs (unless the
/// options hide them: option 2) and the counts they were told.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerView {
    /// Whose view this is.
    pub color: Color,
    /// Everything public.
    pub public: PublicView,
    /// The player's own bombs, spent ones included, a1 first; `None` when
    /// the options keep them from their owner (option 2); empty with neutral
    /// bombs (option 4) or before any is placed.
    pub own_bombs: Option<Vec<Bomb>>,
    /// Every count the player was told, in move order.
    pub counts: Vec<Count>,
    /// Whether the player may (re)place bombs now: during the setup, when
    /// the options let players choose.
    pub may_place_bombs: bool,
    /// Where the player's bombs may go, a1 first (for the setup board);
    /// empty when they may not place any.
    pub allowed_squares: Vec<Square>,
}

/// Everything about a finished game: the public view, every bomb and every
/// count told. Made only once the game is over
/// ([`MinesweeperGame::full_record`](super::MinesweeperGame::full_record)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FullRecord {
    /// Everything public.
    pub public: PublicView,
    /// Every bomb, with the ply that set it off.
    pub bombs: Vec<Bomb>,
    /// Every count told, with the player it was told to, in move order.
    pub counts: Vec<(Color, Count)>,
}
