//! A blast played out on the searched board: the pieces it removes, and the game it may end.

use shakmaty::attacks::king_attacks;
use shakmaty::variant::{Variant, VariantPosition};
use shakmaty::{Bitboard, CastlingMode, EnPassantMode, Position, PositionError, Square};

/// The board after a blast, for the side that set it off.
#[derive(Clone, Debug)]
pub(crate) enum Blasted {
    /// The game goes on on this board.
    Board(VariantPosition),
    /// The blast took the enemy king, or left the mover's king attacked
    /// (which the enemy captures), or both kings.
    Won,
    /// The mover's king is gone or will be captured.
    Lost,
    /// Both kings went up together.
    Drawn,
}

/// The position `after` a move whose piece arrived on a bomb on `to`, once
/// the bomb has gone off: that piece and, unless blasts are `modest`, every
/// piece around it removed. `None` when the board left cannot be set up.
pub(crate) fn blast(after: &VariantPosition, to: Square, modest: bool) -> Option<Blasted> {
    let waiting = after.turn();
    let mover = !waiting;
    let mut setup = after.to_setup(EnPassantMode::Legal);
    let reach = if modest {
        Bitboard::from(to)
    } else {
        king_attacks(to) | Bitboard::from(to)
    };
    let kings = setup.board.kings() & reach;
    let mover_king = kings.intersects(setup.board.by_color(mover));
    let waiting_king = kings.intersects(setup.board.by_color(waiting));
    match (mover_king, waiting_king) {
        (true, true) => return Some(Blasted::Drawn),
        (true, false) => return Some(Blasted::Lost),
        (false, true) => return Some(Blasted::Won),
        (false, false) => {}
    }
    for square in reach {
        setup.board.discard_piece_at(square);
    }
    setup.ep_square = None;
    setup.castling_rights &= setup.board.rooks();
    let king = setup.board.king_of(mover)?;
    if setup
        .board
        .attacks_to(king, waiting, setup.board.occupied())
        .any()
    {
        return Some(Blasted::Lost);
    }
    VariantPosition::from_setup(Variant::Chess, setup, CastlingMode::Standard)
        .or_else(PositionError::ignore_invalid_castling_rights)
        .or_else(PositionError::ignore_impossible_check)
        .or_else(PositionError::ignore_too_much_material)
        .ok()
        .map(Blasted::Board)
}

#[cfg(test)]
mod tests {
    use shakmaty::fen::Fen;
    use shakmaty::variant::{Variant, VariantPosition};
    use shakmaty::{CastlingMode, Position, Square};

    use super::{Blasted, blast};

    fn after(fen: &str) -> VariantPosition {
        let setup = Fen::from_ascii(fen.as_bytes()).unwrap().into_setup();
        VariantPosition::from_setup(Variant::Chess, setup, CastlingMode::Standard).unwrap()
    }

    #[test]
    fn a_blast_removes_the_piece_and_its_neighbours_of_both_sides() {
        // White's knight has just arrived on e6, beside a black pawn on d7
        // and a black knight on f6, a white bishop on d5.
        let pos = after("4k3/3p4/4Nn2/3B4/8/8/8/4K3 b - - 0 1");
        let Some(Blasted::Board(next)) = blast(&pos, Square::E6, false) else {
            panic!("the game should go on");
        };
        let board = next.board();
        for square in [Square::E6, Square::D7, Square::F6, Square::D5] {
            assert!(board.piece_at(square).is_none(), "{square} survived");
        }
        assert_eq!(board.occupied().count(), 2);
        // A modest blast takes the knight only.
        let Some(Blasted::Board(next)) = blast(&pos, Square::E6, true) else {
            panic!("the game should go on");
        };
        assert_eq!(next.board().occupied().count(), 5);
    }

    #[test]
    fn a_blast_next_to_a_king_ends_the_game() {
        // White's rook arrives on e7, next to Black's king on e8.
        let pos = after("4k3/4R3/8/8/8/8/8/4K3 b - - 0 1");
        assert!(matches!(blast(&pos, Square::E7, false), Some(Blasted::Won)));
        assert!(matches!(
            blast(&pos, Square::E7, true),
            Some(Blasted::Board(_))
        ));
        // A blast that uncovers the mover's king to a black rook loses.
        let pos = after("4r2k/8/8/8/4N3/4P3/8/4K3 b - - 0 1");
        assert!(matches!(
            blast(&pos, Square::E4, false),
            Some(Blasted::Lost)
        ));
    }
}
