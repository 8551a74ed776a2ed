//! A stored game's position as FEN, or its pieces for a picture: now, at the start, or after
//! any ply, for every kind of game (a bughouse match's two boards, a minesweeper game's visible
//! board only, never a bomb).

use slowfuse_rules::bughouse::Board;
use slowfuse_rules::{BoardArray, Color, Game, Pockets};

use crate::game::{GameRecord, RulesGame};

/// A ply the game does not have: its plies run from 0 (the start) to `last`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("ply must be a number from 0 to {last}")]
pub struct NoSuchPly {
    pub last: i32,
}

/// The FEN after `ply` half-moves (0: the starting position), or the current one for `None`;
/// `game` is the record's game as the rules see it.
pub fn fen_at(record: &GameRecord, game: &Game, ply: Option<i32>) -> Result<String, NoSuchPly> {
    let Some(ply) = ply else {
        return Ok(record.first_board().fen.clone());
    };
    let no_such = NoSuchPly {
        last: record.game.ply,
    };
    let ply = u32::try_from(ply).map_err(|_| no_such.clone())?;
    game.fen_at(ply).ok_or(no_such)
}

/// The FEN after `ply` moves (`None`: now) of `game`, the record's game as the rules see it:
/// a bughouse match's two boards joined by ` | `; a minesweeper game's visible board.
pub fn position_fen(
    record: &GameRecord,
    game: &RulesGame,
    ply: Option<i32>,
) -> Result<String, NoSuchPly> {
    let no_such = NoSuchPly {
        last: record.game.ply,
    };
    let at = |now: u32| match ply {
        None => Ok(now),
        Some(p) => u32::try_from(p).map_err(|_| no_such.clone()),
    };
    match game {
        RulesGame::Chess(game) => fen_at(record, game, ply),
        RulesGame::Bughouse(game) => {
            let at = at(game.ply())?;
            let fens: Option<Vec<String>> = Board::BOTH
                .into_iter()
                .map(|board| game.fen_at(at, board))
                .collect();
            Ok(fens.ok_or(no_such)?.join(" | "))
        }
        RulesGame::Minesweeper(game) => {
            let at = at(game.ply())?;
            let fens = game.public_view().fens;
            fens.get(at as usize).cloned().ok_or(no_such)
        }
    }
}

/// One board as a picture shows it: its pieces, the last move's squares, the squares its
/// explosion (atomic) or blast (minesweeper) cleared, the pockets (crazyhouse, bughouse), the
/// side at the bottom when not flipped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardAt {
    pub pieces: BoardArray,
    pub last_move: Option<(u8, u8)>,
    pub exploded: Vec<u8>,
    pub pockets: Option<Pockets>,
    pub side: Color,
}

/// The board of a two-player game after `ply` moves, from White's side; `None` past the end.
pub fn board_of_game(game: &Game, ply: u32) -> Option<BoardAt> {
    let marks = game.marks_at(ply)?;
    Some(BoardAt {
        pieces: game.board_at(ply)?,
        last_move: marks.from_to,
        exploded: marks.exploded,
        pockets: game.pockets_at(ply),
        side: Color::White,
    })
}

/// The boards of `game` after `ply` moves (`None`: now): one, or a bughouse match's two
/// (board a from White's side, board b from Black's); a minesweeper game's visible board.
pub fn boards_at(
    record: &GameRecord,
    game: &RulesGame,
    ply: Option<u32>,
) -> Result<Vec<BoardAt>, NoSuchPly> {
    let no_such = NoSuchPly {
        last: record.game.ply,
    };
    Ok(match game {
        RulesGame::Chess(game) => {
            vec![board_of_game(game, ply.unwrap_or(game.ply())).ok_or(no_such)?]
        }
        RulesGame::Bughouse(game) => {
            let at = ply.unwrap_or(game.ply());
            let mut boards = Vec::new();
            for (board, side) in [(Board::A, Color::White), (Board::B, Color::Black)] {
                let last = game
                    .moves()
                    .iter()
                    .take(at as usize)
                    .rfind(|m| m.board == board)
                    .and_then(|m| move_squares(&m.uci));
                boards.push(BoardAt {
                    pieces: game.board_at(at, board).ok_or(no_such.clone())?,
                    last_move: last,
                    exploded: Vec::new(),
                    pockets: game.pockets_at(at, board),
                    side,
                });
            }
            boards
        }
        RulesGame::Minesweeper(game) => {
            // What anyone may see: the public view holds no bomb.
            let public = game.public_view();
            let at = ply.unwrap_or(game.ply());
            let played = at.checked_sub(1).and_then(|i| public.moves.get(i as usize));
            // A blast is public: the squares whose pieces it took, and its own.
            let exploded = played
                .and_then(|m| m.blast.as_ref())
                .map(|b| {
                    let mut squares: Vec<u8> = b.removed.iter().map(|r| u8::from(r.0)).collect();
                    squares.push(u8::from(b.square));
                    squares
                })
                .unwrap_or_default();
            vec![BoardAt {
                pieces: public.board_at(at).ok_or(no_such)?,
                last_move: played.and_then(|m| move_squares(&m.uci)),
                exploded,
                pockets: None,
                side: Color::White,
            }]
        }
    })
}

/// A move's from and to squares from its UCI (a drop: its square twice).
fn move_squares(uci: &str) -> Option<(u8, u8)> {
    let to = slowfuse_rules::square_index(uci.get(2..4)?)?;
    let from = match uci.as_bytes().get(1) {
        Some(b'@') => to,
        _ => slowfuse_rules::square_index(uci.get(0..2)?)?,
    };
    Some((from, to))
}
