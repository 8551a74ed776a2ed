//! Minesweeper knowledge of the side to move (own bombs, the odds of a hostile bomb per square) and what a move meets.
//!
//! The engine searches the visible board as standard chess. A move onto a
//! square that surely holds a bomb hostile to the mover is played out with
//! its blast ([`blast`]): for the engine's side, a square its counts prove
//! to hold one; for the opponent, one of the engine's own unexploded bombs
//! (the search assumes the worst: that the opponent knows them). A move onto
//! a square that only may hold one costs the engine's side the expected
//! loss: the square's chance ([`odds`]) times what the blast would remove.

use shakmaty::{Bitboard, Board, Color, Move, Rank, Role, Square, attacks::king_attacks};
use slowfuse_rules::minesweeper::PlayerView;

use crate::eval::material::value_of;

mod blast;
mod odds;

pub(crate) use blast::{Blasted, blast};
use odds::{Odds, deduce};

/// What one player knows of the bombs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Mines {
    /// Whose knowledge this is.
    pub(crate) me: Color,
    /// The player's own bombs that have not gone off (empty when hidden).
    pub(crate) own: Bitboard,
    /// The odds of a hostile bomb per square, deduced from every count.
    deduced: Odds,
    /// The odds read only from the counts of zero, spread evenly over the
    /// other squares that may hold one.
    plain: Odds,
    /// Whether the search uses `deduced` (else `plain`).
    reads_counts: bool,
    /// Whether a blast removes only the piece on the bomb.
    pub(crate) modest: bool,
    /// The capture of the enemy king, when a blast left it attacked.
    pub(crate) king_capture: Option<Move>,
    /// The visible board's FEN.
    pub(crate) fen: String,
}

/// What a piece arriving on a square meets, for the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Arrival {
    /// No bomb that could harm it.
    Clear,
    /// Perhaps a bomb: the expected loss to the mover (`cost`, centipawns)
    /// and the chance of the blast (`chance`, thousandths).
    Risk {
        /// The chance times what the blast would remove.
        cost: i32,
        /// The chance of a bomb, in thousandths (1 to 999).
        chance: i32,
    },
    /// Surely a bomb: the blast is played out on the board.
    Blast,
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
        let hostile_spent: Bitboard = view
            .public
            .spent_bombs()
            .iter()
            .filter(|b| b.1 != Some(me))
            .map(|b| b.0)
            .collect();
        let mut zone = Bitboard::EMPTY;
        let mut total = 0usize;
        for owner in [Some(!me), None] {
            total += options.bombs_of(owner);
            zone |= options
                .allowed_squares(owner)
                .into_iter()
                .collect::<Bitboard>();
        }
        let mut stood = spent;
        for fen in &view.public.fens {
            stood |= own_squares(fen, me);
        }
        let remaining = total.saturating_sub(hostile_spent.count());
        let counts: Vec<(Square, u8)> = view.counts.iter().map(|c| (c.square, c.bombs)).collect();
        let deduced = deduce(zone & !stood, hostile_spent, &counts, remaining);
        let mut cleared = stood;
        for count in view.counts.iter().filter(|c| c.bombs == 0) {
            cleared |= king_attacks(count.square);
        }
        let plain = Odds::even(zone & !cleared, remaining);
        Mines {
            me,
            own,
            deduced,
            plain,
            reads_counts: true,
            modest: options.modest,
            king_capture: None,
            fen: view.public.fen().to_owned(),
        }
    }

    /// The same knowledge, read from every count (`true`) or only from the
    /// counts of zero with the odds spread evenly (`false`).
    pub(crate) fn reading_counts(&self, reads_counts: bool) -> Mines {
        Mines {
            reads_counts,
            ..self.clone()
        }
    }

    /// The odds the search uses.
    fn odds(&self) -> &Odds {
        if self.reads_counts {
            &self.deduced
        } else {
            &self.plain
        }
    }

    /// What a `role` of `mover` arriving on `to` meets, on a board whose
    /// pieces are `board` (before the move).
    pub(crate) fn arrival(&self, board: &Board, mover: Color, role: Role, to: Square) -> Arrival {
        if mover == self.me {
            let odds = self.odds();
            if odds.bombs.contains(to) {
                return Arrival::Blast;
            }
            match odds.at(to) {
                0 => Arrival::Clear,
                chance => Arrival::Risk {
                    cost: (self.blast_loss(board, mover, role, to) * chance / 1000).min(3000),
                    chance,
                },
            }
        } else if self.own.contains(to) {
            Arrival::Blast
        } else {
            Arrival::Clear
        }
    }

    /// What a blast on `to` removes, for the mover: their arriving piece and
    /// pieces around (the mover's count as lost, the other side's as gained).
    pub(crate) fn blast_loss(&self, board: &Board, mover: Color, role: Role, to: Square) -> i32 {
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
    use shakmaty::{Board, Color, Role, Square};
    use slowfuse_rules::minesweeper::{MinesweeperGame, MinesweeperOptions, Placement};

    use super::{Arrival, Mines};

    /// White's bombs on rank 3, Black's on rank 6, and `moves` played.
    fn game_on_ranks(moves: &[&str]) -> MinesweeperGame {
        let options = MinesweeperOptions {
            placement: Placement::Chosen,
            modest: false,
        };
        let white: Vec<Square> = (0..8u32).map(|f| Square::new(16 + f)).collect();
        let black: Vec<Square> = (0..8u32).map(|f| Square::new(40 + f)).collect();
        let mut game = MinesweeperGame::new(options)
            .place_bombs(Color::White, &white)
            .unwrap()
            .place_bombs(Color::Black, &black)
            .unwrap();
        for uci in moves {
            game = game.play_uci(uci).unwrap().0;
        }
        game
    }

    #[test]
    fn a_step_into_the_unknown_costs_and_an_enemy_on_our_bomb_blows_up() {
        let game = game_on_ranks(&["e2e4", "b8c6"]);
        let mines = Mines::from_view(&game.player_view(Color::White));
        let board = Board::new();
        // e6 might hold one of Black's bombs: a knight going there risks itself.
        let Arrival::Risk { cost: risk, .. } =
            mines.arrival(&board, Color::White, Role::Knight, Square::E6)
        else {
            panic!("no risk counted");
        };
        assert!(risk > 0, "no risk counted: {risk}");
        // White's own half holds no bomb hostile to White.
        assert_eq!(
            mines.arrival(&board, Color::White, Role::Knight, Square::F3),
            Arrival::Clear
        );
        // A black piece arriving on White's bomb on d3 sets it off.
        assert_eq!(
            mines.arrival(&board, Color::Black, Role::Queen, Square::D3),
            Arrival::Blast
        );
        // Black's bombs are not known to White: nothing tells it where they are.
        assert!(!mines.own.contains(Square::E6));
    }

    #[test]
    fn counts_prove_bombs_for_the_level_that_reads_them() {
        // a5 is told 2 (a6, b6), then b5 is told 3 (a6, b6, c6): with b5
        // cleared, a5's count leaves only a6 and b6, so both hold a bomb,
        // and b5's third is on c5 or c6.
        let game = game_on_ranks(&[
            "a2a4", "g8f6", "a4a5", "f6g8", "b2b4", "g8f6", "b4b5", "f6g8",
        ]);
        let view = game.player_view(Color::White);
        assert_eq!(
            view.counts.iter().map(|c| c.bombs).collect::<Vec<_>>(),
            [2, 3]
        );
        let mines = Mines::from_view(&view);
        let board = Board::new();
        let pawn_to =
            |mines: &Mines, square| mines.arrival(&board, Color::White, Role::Pawn, square);
        assert_eq!(pawn_to(&mines, Square::A6), Arrival::Blast);
        assert_eq!(pawn_to(&mines, Square::B6), Arrival::Blast);
        assert_eq!(mines.deduced.at(Square::C6), mines.deduced.at(Square::C5));
        assert!(mines.deduced.at(Square::C6) > mines.deduced.at(Square::H8));
        // Read as Easy and Medium read, a6 is only a risk like any other.
        let plain = mines.reading_counts(false);
        assert!(matches!(pawn_to(&plain, Square::A6), Arrival::Risk { .. }));
        assert_eq!(plain.plain.at(Square::A6), plain.plain.at(Square::H8));
    }
}
