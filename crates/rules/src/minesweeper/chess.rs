//! Standard chess on a board that a blast may leave with the waiting side's king attacked.
//!
//! Positions shakmaty accepts are played with shakmaty. After a blast the
//! side to move may attack the other king (the opponent's "may capture that
//! king and wins"); shakmaty cannot hold such a position, so for it this
//! module generates the moves itself: every standard-legal move plus every
//! capture of the enemy king. A test checks that this generator agrees with
//! shakmaty move for move on ordinary positions.

use shakmaty::attacks::{between, pawn_attacks};
use shakmaty::san::{San, SanError};
use shakmaty::uci::UciMove;
use shakmaty::variant::VariantPosition;
use shakmaty::{
    Bitboard, CastlingMode, CastlingSide, Chess, Color, FromSetup, Move, MoveList, Piece, Position,
    Rank, Role, Setup, Square,
};

use crate::error::MoveError;
use crate::input;

/// The position as shakmaty holds it, when it can (a check no game could
/// reach is accepted: blasts can uncover odd checks).
pub(crate) fn engine(setup: &Setup) -> Option<Chess> {
    match Chess::from_setup(setup.clone(), CastlingMode::Standard) {
        Ok(pos) => Some(pos),
        Err(error) => error.ignore_impossible_check().ok(),
    }
}

/// Every legal move of the side to move; empty when a king is missing.
pub(crate) fn legal_moves(setup: &Setup) -> MoveList {
    if setup.board.king_of(Color::White).is_none() || setup.board.king_of(Color::Black).is_none() {
        return MoveList::new();
    }
    match engine(setup) {
        Some(pos) => pos.legal_moves(),
        None => own_legal_moves(setup),
    }
}

/// Whether `color`'s king is attacked (false when it has none).
pub(crate) fn king_attacked(setup: &Setup, color: Color) -> bool {
    let board = &setup.board;
    board
        .king_of(color)
        .is_some_and(|king| board.attacks_to(king, !color, board.occupied()).any())
}

/// Reads `text` (SAN or UCI, leniently) as one of the legal moves.
pub(crate) fn resolve(setup: &Setup, text: &str) -> Result<Move, MoveError> {
    if let Some(pos) = engine(setup) {
        return input::resolve(&VariantPosition::Chess(pos), text);
    }
    resolve_own(setup, text, false)
}

/// Reads a stored UCI move strictly.
pub(crate) fn resolve_uci(setup: &Setup, text: &str) -> Result<Move, MoveError> {
    if let Some(pos) = engine(setup) {
        return input::resolve_uci(&VariantPosition::Chess(pos), text);
    }
    resolve_own(setup, text, true)
}

/// The UCI of a move: castling as the king's two-square step (`e1g1`).
pub(crate) fn uci(m: Move) -> String {
    UciMove::from_standard(m).to_string()
}

/// Reading input against the own move list (only for positions shakmaty
/// cannot hold): UCI, or SAN with `0-0` for castling.
fn resolve_own(setup: &Setup, text: &str, strict_uci: bool) -> Result<Move, MoveError> {
    let written = text.trim();
    let core = written.trim_end_matches(['+', '#', '!', '?', ' ']);
    let moves = own_legal_moves(setup);
    if let Ok(parsed) = UciMove::from_ascii(core.to_ascii_lowercase().as_bytes()) {
        return moves
            .iter()
            .copied()
            .find(|m| {
                UciMove::from_standard(*m) == parsed
                    || UciMove::from_move(*m, CastlingMode::Chess960) == parsed
            })
            .ok_or_else(|| MoveError::Illegal(written.to_owned()));
    }
    if strict_uci {
        return Err(MoveError::Unparsable(written.to_owned()));
    }
    let castle = core.replace('0', "O");
    let Ok(san) = San::from_ascii(castle.as_bytes()) else {
        return Err(MoveError::Unparsable(written.to_owned()));
    };
    match san.find_move(&moves) {
        Ok(m) => Ok(*m),
        Err(SanError::AmbiguousSan) => Err(MoveError::Ambiguous(format!(
            "{written} is ambiguous: say which piece, e.g. with its square as in UCI"
        ))),
        Err(SanError::IllegalSan) => Err(MoveError::Illegal(written.to_owned())),
    }
}

/// Every standard-legal move of the side to move, plus every capture of the
/// enemy king (legal whatever it leaves behind: it ends the game).
pub(crate) fn own_legal_moves(setup: &Setup) -> MoveList {
    let board = &setup.board;
    let us = setup.turn;
    let ours = board.by_color(us);
    let mut moves = MoveList::new();
    let Some(king) = board.king_of(us) else {
        return moves;
    };
    for from in ours {
        let Some(piece) = board.piece_at(from) else {
            continue;
        };
        if piece.role == Role::Pawn {
            pawn_moves(setup, from, &mut moves);
        } else {
            for to in board.attacks_from(from) & !ours {
                moves.push(Move::Normal {
                    role: piece.role,
                    from,
                    capture: board.role_at(to),
                    to,
                    promotion: None,
                });
            }
        }
    }
    castling_moves(setup, king, &mut moves);
    moves.retain(|m| m.capture() == Some(Role::King) || leaves_king_safe(setup, *m));
    moves
}

fn pawn_moves(setup: &Setup, from: Square, moves: &mut MoveList) {
    let board = &setup.board;
    let us = setup.turn;
    let occupied = board.occupied();
    let step: i32 = if us == Color::White { 8 } else { -8 };
    let start = if us == Color::White {
        Rank::Second
    } else {
        Rank::Seventh
    };
    let mut push = |to: Square, capture: Option<Role>| {
        if to.rank() == (!us).backrank() {
            for promotion in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                moves.push(Move::Normal {
                    role: Role::Pawn,
                    from,
                    capture,
                    to,
                    promotion: Some(promotion),
                });
            }
        } else {
            moves.push(Move::Normal {
                role: Role::Pawn,
                from,
                capture,
                to,
                promotion: None,
            });
        }
    };
    if let Some(one) = from.offset(step)
        && !occupied.contains(one)
    {
        push(one, None);
        if from.rank() == start
            && let Some(two) = one.offset(step)
            && !occupied.contains(two)
        {
            push(two, None);
        }
    }
    for to in pawn_attacks(us, from) & board.by_color(!us) {
        push(to, board.role_at(to));
    }
    if let Some(ep) = setup.ep_square {
        let victim = Square::from_coords(ep.file(), from.rank());
        if pawn_attacks(us, from).contains(ep)
            && !occupied.contains(ep)
            && board.piece_at(victim)
                == Some(Piece {
                    color: !us,
                    role: Role::Pawn,
                })
        {
            moves.push(Move::EnPassant { from, to: ep });
        }
    }
}

fn castling_moves(setup: &Setup, king: Square, moves: &mut MoveList) {
    let board = &setup.board;
    let us = setup.turn;
    let rooks = setup.castling_rights
        & Bitboard::from_rank(us.backrank())
        & board.by_piece(Piece {
            color: us,
            role: Role::Rook,
        });
    for rook in rooks {
        let side = CastlingSide::from_king_side(rook.file() > king.file());
        let king_to = side.king_to(us);
        let rook_to = side.rook_to(us);
        let must_be_empty = (between(king, rook)
            | between(king, king_to)
            | between(rook, rook_to)
            | Bitboard::from(king_to)
            | Bitboard::from(rook_to))
        .without(king)
        .without(rook);
        if (must_be_empty & board.occupied()).any() {
            continue;
        }
        let king_path = between(king, king_to) | Bitboard::from(king) | Bitboard::from(king_to);
        if king_path
            .into_iter()
            .any(|sq| board.attacks_to(sq, !us, board.occupied()).any())
        {
            continue;
        }
        moves.push(Move::Castle { king, rook });
    }
}

fn leaves_king_safe(setup: &Setup, m: Move) -> bool {
    !king_attacked(&apply(setup, m), setup.turn)
}

/// Plays `m` on `setup` by the rules of standard chess (no bombs): moves
/// the pieces, updates castling rights, the en passant square (set after
/// every double step), the halfmove clock, the move number and the turn.
pub(crate) fn apply(setup: &Setup, m: Move) -> Setup {
    let mut next = setup.clone();
    let us = setup.turn;
    let board = &mut next.board;
    next.ep_square = None;
    next.halfmoves = if m.is_zeroing() {
        0
    } else {
        setup.halfmoves.saturating_add(1)
    };
    match m {
        Move::Normal {
            role,
            from,
            to,
            promotion,
            ..
        } => {
            board.discard_piece_at(from);
            board.set_piece_at(
                to,
                Piece {
                    color: us,
                    role: promotion.unwrap_or(role),
                },
            );
            next.castling_rights.discard(from);
            next.castling_rights.discard(to);
            if role == Role::King {
                next.castling_rights &= !Bitboard::from_rank(us.backrank());
            }
            if role == Role::Pawn && from.rank().distance(to.rank()) == 2 {
                next.ep_square = from.offset(if us == Color::White { 8 } else { -8 });
            }
        }
        Move::EnPassant { from, to } => {
            board.discard_piece_at(from);
            board.discard_piece_at(Square::from_coords(to.file(), from.rank()));
            board.set_piece_at(
                to,
                Piece {
                    color: us,
                    role: Role::Pawn,
                },
            );
        }
        Move::Castle { king, rook } => {
            let side = CastlingSide::from_king_side(rook.file() > king.file());
            board.discard_piece_at(king);
            board.discard_piece_at(rook);
            board.set_piece_at(
                side.king_to(us),
                Piece {
                    color: us,
                    role: Role::King,
                },
            );
            board.set_piece_at(
                side.rook_to(us),
                Piece {
                    color: us,
                    role: Role::Rook,
                },
            );
            next.castling_rights &= !Bitboard::from_rank(us.backrank());
        }
        Move::Put { role, to } => {
            board.set_piece_at(to, Piece { color: us, role });
        }
    }
    if us == Color::Black {
        next.fullmoves = next.fullmoves.saturating_add(1);
    }
    next.turn = !us;
    next
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::{EnPassantMode, Position};

    fn sorted(moves: &MoveList) -> Vec<String> {
        let mut out: Vec<String> = moves.iter().map(|m| uci(*m)).collect();
        out.sort();
        out
    }

    /// Walks the tree `depth` plies deep and checks at every node that the
    /// own generator, SAN and `apply` agree with shakmaty's.
    fn agree(pos: &Chess, depth: u32) -> u64 {
        let setup = pos.to_setup(EnPassantMode::Always);
        let theirs = pos.legal_moves();
        assert_eq!(
            sorted(&own_legal_moves(&setup)),
            sorted(&theirs),
            "{}",
            Fen::from_position(pos, EnPassantMode::Legal)
        );
        if depth == 0 {
            return 1;
        }
        let mut nodes = 0;
        for &m in &theirs {
            assert_eq!(
                San::disambiguate(m, &own_legal_moves(&setup)),
                San::from_move(pos, m)
            );
            let mut child = pos.clone();
            child.play_unchecked(m);
            let mine = apply(&setup, m);
            let expected = child.to_setup(EnPassantMode::Always);
            assert_eq!(mine.board, expected.board, "{m:?}");
            assert_eq!(mine.castling_rights, expected.castling_rights, "{m:?}");
            assert_eq!(mine.turn, expected.turn);
            assert_eq!(mine.halfmoves, expected.halfmoves);
            assert_eq!(mine.fullmoves, expected.fullmoves);
            // shakmaty keeps the square only when a capture there is
            // pseudo-legal; ours always after a double step.
            if expected.ep_square.is_some() {
                assert_eq!(mine.ep_square, expected.ep_square);
            }
            nodes += agree(&child, depth - 1);
        }
        nodes
    }

    fn chess(fen: &str) -> Chess {
        Fen::from_ascii(fen.as_bytes())
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap()
    }

    #[test]
    fn own_generator_agrees_with_shakmaty() {
        // Start, "kiwipete" (castling, pins, en passant, promotions) and
        // positions from the classic perft suites.
        for (fen, depth, nodes) in [
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                3,
                8902,
            ),
            (
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                2,
                2039,
            ),
            ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 3, 2812),
            (
                "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
                2,
                264,
            ),
            (
                "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
                2,
                1486,
            ),
            ("8/8/8/2k5/2pP4/8/B7/4K3 b - d3 0 3", 2, 72),
            ("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", 2, 568),
        ] {
            let pos = chess(fen);
            assert_eq!(agree(&pos, depth), nodes, "{fen}");
            assert_eq!(shakmaty::perft(&pos, depth), nodes, "{fen}");
        }
    }

    #[test]
    fn a_king_left_attacked_may_be_captured() {
        // White's king on e1 is attacked by the rook on e8 with Black to
        // move: a position only a blast can make.
        let setup = Fen::from_ascii(b"4r1k1/8/8/8/8/8/8/4K3 b - - 0 1")
            .unwrap()
            .into_setup();
        assert!(engine(&setup).is_none());
        let moves = sorted(&legal_moves(&setup));
        assert!(moves.contains(&"e8e1".to_owned()));
        assert!(moves.contains(&"g8h8".to_owned()));
        assert_eq!(resolve(&setup, "Rxe1").map(uci), Ok("e8e1".to_owned()));
        assert_eq!(resolve(&setup, "e8e1+").map(uci), Ok("e8e1".to_owned()));
        assert_eq!(
            resolve(&setup, "Rxe2"),
            Err(MoveError::Illegal("Rxe2".to_owned()))
        );
        assert_eq!(
            resolve(&setup, "hello"),
            Err(MoveError::Unparsable("hello".to_owned()))
        );
        assert_eq!(
            resolve_uci(&setup, "Rxe1"),
            Err(MoveError::Unparsable("Rxe1".to_owned()))
        );
    }
}
