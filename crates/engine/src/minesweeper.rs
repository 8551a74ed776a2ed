//! Minesweeper knowledge of the side to move (own bombs, squares known safe, the odds elsewhere) and what a move risks.
//!
//! The engine searches the visible board as standard chess. A bomb is
//! never placed on the searched board; instead a move that lands where a
//! bomb may lie costs its mover the expected loss: for the engine's side, the
//! chance that an unknown square holds a hostile bomb times what the blast
//! would remove; for the opponent, the full blast when the square holds one of
//! the engine's own unexploded bombs (the search assumes the worst: that the
//! opponent avoids them).

use shakmaty::{Bitboard, Board, Color, Move, Rank, Role, Square, attacks::king_attacks};
use slowfuse_rules::minesweeper::PlayerView;

use crate::eval::material::value_of;

/// What one player knows of the bombs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Mines {
    /// Whose knowledge this is.
    pub(crate) me: Color,
    /// The player's own bombs that have not gone off (empty when hidden).
    pub(crate) own: Bitboard,
    /// Squares that may hold a bomb hostile to the player.
    pub(crate) risky: Bitboard,
    /// The chance, in thousandths, that a risky square holds one.
    pub(crate) per_mille: i32,
    /// Whether a blast removes only the piece on the bomb.
    pub(crate) modest: bool,
    /// The capture of the enemy king, when a blast left it attacked.
    pub(crate) king_capture: Option<Move>,
    /// The visible board's FEN.
    pub(crate) fen: String,
}

impl Mines {
    /// The knowledge in a player's view: nothing the view does not hold.
    pub(crate) fn from_view(view: &PlayerView) -> Mines {
        let me = view.color;
        let options = view.public.options;
        let own: Bitboard = view
            .own_bombs
            .iter()
            .flatten()
            .filter(|b| !b.is_spent())
            .map(|b| b.square)
            .collect();
        let spent: Bitboard = view.public.spent_bombs().iter().map(|b| b.0).collect();
        let hostile_spent = view
            .public
            .spent_bombs()
            .iter()
            .filter(|b| b.1 != Some(me))
            .count();
        let mut zone = Bitboard::EMPTY;
        let mut total = 0usize;
        for owner in [Some(!me), None] {
            total += options.bombs_of(owner);
            zone |= options
                .allowed_squares(owner)
                .into_iter()
                .collect::<Bitboard>();
        }
        let mut safe = spent;
        for fen in &view.public.fens {
            safe |= own_squares(fen, me);
        }
        for count in view.counts.iter().filter(|c| c.bombs == 0) {
            safe |= king_attacks(count.square);
        }
        let risky = zone & !safe;
        let remaining = total.saturating_sub(hostile_spent);
        let per_mille = if risky.is_empty() {
            0
        } else {
            i32::try_from((remaining * 1000 / risky.count()).min(1000)).unwrap_or(1000)
        };
        Mines {
            me,
            own,
            risky,
            per_mille,
            modest: options.modest,
            king_capture: None,
            fen: view.public.fen().to_owned(),
        }
    }

    /// What moving a `role` of `mover` to `to` costs the mover, in
    /// centipawns, on a board whose pieces are `pieces`.
    pub(crate) fn move_cost(
        &self,
        board: &shakmaty::Board,
        mover: Color,
        role: Role,
        to: Square,
    ) -> i32 {
        if mover == self.me {
            if !self.risky.contains(to) {
                return 0;
            }
            let loss = self.blast_loss(board, mover, role, to);
            (loss * self.per_mille / 1000).min(3000)
        } else if self.own.contains(to) {
            self.blast_loss(board, mover, role, to).min(3000)
        } else {
            0
        }
    }

    /// What a blast on `to` removes, for the mover: their arriving piece and
    /// pieces around (the mover's count as lost, the other side's as gained).
    fn blast_loss(&self, board: &shakmaty::Board, mover: Color, role: Role, to: Square) -> i32 {
        let mut loss = blast_value(role);
        if self.modest {
            return loss;
        }
        for square in king_attacks(to) {
            if let Some(piece) = board.piece_at(square) {
                let value = blast_value(piece.role);
                loss += if piece.color == mover { value } else { -value };
            }
        }
        loss
    }
}

/// A piece's worth when a bomb takes it: a king lost loses the game.
fn blast_value(role: Role) -> i32 {
    if role == Role::King {
        5000
    } else {
        value_of(role)
    }
}

/// The squares of `color`'s pieces in a FEN.
fn own_squares(fen: &str, color: Color) -> Bitboard {
    let board_part = fen.split(' ').next().unwrap_or("");
    shakmaty::fen::Fen::from_ascii(fen.as_bytes())
        .map(|f| f.into_setup().board.by_color(color))
        .or_else(|_| {
            shakmaty::Board::from_ascii_board_fen(board_part.as_bytes()).map(|b| b.by_color(color))
        })
        .unwrap_or(Bitboard::EMPTY)
}

/// A capture of `them`'s king by a piece of `us`, if one attacks it.
pub(crate) fn king_capture(board: &Board, us: Color) -> Option<Move> {
    let king = board.king_of(!us)?;
    let from = board.attacks_to(king, us, board.occupied()).first()?;
    let role = board.role_at(from)?;
    let last_rank = king.rank() == Rank::First || king.rank() == Rank::Eighth;
    Some(Move::Normal {
        role,
        from,
        capture: Some(Role::King),
        to: king,
        promotion: (role == Role::Pawn && last_rank).then_some(Role::Queen),
    })
}

#[cfg(test)]
mod tests {
    use shakmaty::{Color, Role, Square};
    use slowfuse_rules::minesweeper::{MinesweeperGame, MinesweeperOptions, Placement};

    use super::Mines;

    #[test]
    fn a_step_into_the_unknown_costs_and_an_enemy_on_our_bomb_pays() {
        let options = MinesweeperOptions {
            placement: Placement::Chosen,
            modest: false,
        };
        let white: Vec<Square> = (0..8u32).map(|f| Square::new(16 + f)).collect(); // rank 3
        let black: Vec<Square> = (0..8u32).map(|f| Square::new(40 + f)).collect(); // rank 6
        let game = MinesweeperGame::new(options)
            .place_bombs(Color::White, &white)
            .unwrap()
            .place_bombs(Color::Black, &black)
            .unwrap();
        let game = game.play_uci("e2e4").unwrap().0.play_uci("b8c6").unwrap().0;
        let mines = Mines::from_view(&game.player_view(Color::White));
        let board = shakmaty::Board::new();
        // e6 might hold one of Black's bombs: a knight going there risks itself.
        let risky = mines.move_cost(&board, Color::White, Role::Knight, Square::E6);
        assert!(risky > 0, "no risk counted: {risky}");
        // White's own half holds no bomb hostile to White.
        assert_eq!(
            mines.move_cost(&board, Color::White, Role::Knight, Square::F3),
            0
        );
        // A black piece arriving on White's bomb on d3 loses at least itself.
        let blast = mines.move_cost(&board, Color::Black, Role::Queen, Square::D3);
        assert!(blast >= 900 - 300, "the blast was worth {blast}");
        // Black's bombs are not known to White: nothing tells it where they are.
        assert!(!mines.own.contains(Square::E6));
    }
}
