//! Reading a FEN into a playable position, with errors that point at the problem.

use shakmaty::fen::{Fen, ParseFenError};
use shakmaty::variant::{Crazyhouse, VariantPosition};
use shakmaty::{CastlingMode, EnPassantMode, FromSetup, PositionError, PositionErrorKinds};

use crate::error::SetupError;
use crate::variant::Variant;

/// The FEN of the normal chess start position.
pub const STANDARD_START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Parses `fen` and sets up a legal position of `variant`.
///
/// A position no game could reach but the rules can play is accepted: more
/// material than a game can produce (twenty queens, a composed study), as
/// python-chess and Stockfish accept it. What the rules cannot play is
/// refused: a missing or extra king, a pawn on the first or last rank, the
/// side not to move in check, a variant's own rule broken. No game on the
/// site starts from a position a player gives (challenges start from the
/// variant's start or a Chess960 number), so there is no stricter check to
/// keep; positions come from a stored game, an imported PGN's `FEN` tag,
/// the analysis board or the positions API.
///
/// Castling rights are read as in X-FEN/Shredder-FEN; the castling mode
/// (standard or Chess960) is Chess960 for [`Variant::Chess960`] and
/// otherwise detected from where the kings and rooks stand, so positions
/// with a rook off its corner square keep their castling. Crazyhouse
/// pockets may be written `[Qn]` or as a ninth rank `/Qn`; `~` after a
/// piece marks it as promoted.
pub(crate) fn parse_position(
    variant: Variant,
    fen: &str,
) -> Result<(VariantPosition, CastlingMode), SetupError> {
    parse_with(variant, fen, false)
}

/// Like [`parse_position`], but also accepts a check that no game can reach
/// (two aligned sliders, a check the en passant square contradicts). Perft
/// suites contain such positions; games never start from them.
pub(crate) fn parse_position_allowing_impossible_check(
    variant: Variant,
    fen: &str,
) -> Result<(VariantPosition, CastlingMode), SetupError> {
    parse_with(variant, fen, true)
}

/// Parses one board of a bughouse match: a crazyhouse position (pockets
/// `[..]`, promoted pieces `~`) that may hold more material of a kind than
/// one chess set has, since pieces arrive from the other board.
pub(crate) fn parse_bughouse_board(
    fen: &str,
) -> Result<(VariantPosition, CastlingMode), SetupError> {
    let parsed = Fen::from_ascii(fen.as_bytes()).map_err(|e| malformed(fen, &e))?;
    let setup = parsed.into_setup();
    let mode = CastlingMode::detect(&setup);
    let pos = Crazyhouse::from_setup(setup, mode)
        .or_else(PositionError::ignore_too_much_material)
        .map_err(|e| SetupError::Illegal(describe_kinds(e.kinds())))?;
    Ok((pos.into(), mode))
}

fn parse_with(
    variant: Variant,
    fen: &str,
    allow_impossible_check: bool,
) -> Result<(VariantPosition, CastlingMode), SetupError> {
    let parsed = Fen::from_ascii(fen.as_bytes()).map_err(|e| malformed(fen, &e))?;
    let setup = parsed.into_setup();
    let mode = variant
        .forced_castling_mode()
        .unwrap_or_else(|| CastlingMode::detect(&setup));
    let pos = VariantPosition::from_setup(variant.engine(), setup, mode)
        .or_else(PositionError::ignore_too_much_material);
    let pos = if allow_impossible_check {
        pos.or_else(PositionError::ignore_impossible_check)
    } else {
        pos
    };
    let pos = pos.map_err(|e| SetupError::Illegal(describe_kinds(e.kinds())))?;
    Ok((pos, mode))
}

/// Writes the full FEN of `pos`, with an en passant square only when an en
/// passant capture is really possible.
pub(crate) fn write_fen(pos: &VariantPosition) -> String {
    Fen::from_position(pos, EnPassantMode::Legal).to_string()
}

/// Field names in FEN order, for messages.
const FIELDS: [&str; 6] = [
    "board",
    "side to move",
    "castling rights",
    "en passant square",
    "halfmove clock",
    "fullmove number",
];

fn malformed(fen: &str, error: &ParseFenError) -> SetupError {
    let fields = split_fields(fen);
    let Some(&(board_start, board)) = fields.first() else {
        return SetupError::Malformed {
            position: 1,
            problem: "the FEN is empty".to_owned(),
        };
    };
    let (index, problem) = match error {
        ParseFenError::InvalidPocket => {
            let offset = board.find('[').map_or(0, |i| board[..i].chars().count());
            return SetupError::Malformed {
                position: board_start + offset + 1,
                problem: "the pocket must list piece letters, like [QNp]".to_owned(),
            };
        }
        ParseFenError::InvalidBoard => {
            let (offset, problem) = board_problem(board);
            return SetupError::Malformed {
                position: board_start + offset + 1,
                problem,
            };
        }
        ParseFenError::InvalidTurn => (1, "the side to move must be w or b"),
        ParseFenError::InvalidCastling => (2, "castling rights must be - or letters like KQkq"),
        ParseFenError::InvalidEpSquare => {
            (3, "the en passant square must be - or a square like e3")
        }
        ParseFenError::InvalidHalfmoveClock => (4, "the halfmove clock must be a whole number"),
        ParseFenError::InvalidRemainingChecks => {
            (4, "the remaining checks must be written like 3+3")
        }
        ParseFenError::InvalidFullmoves => (5, "the fullmove number must be a whole number"),
        ParseFenError::InvalidFen => (6, "unexpected text after the fullmove number"),
    };
    let position = fields
        .get(index)
        .map_or(fen.chars().count() + 1, |&(start, _)| start + 1);
    let problem = match FIELDS.get(index) {
        Some(field) => format!("{problem} (field {}, {field})", index + 1),
        None => problem.to_owned(),
    };
    SetupError::Malformed { position, problem }
}

/// Splits a FEN into fields like shakmaty does (on spaces and underscores),
/// giving each field's 0-based character offset.
fn split_fields(fen: &str) -> Vec<(usize, &str)> {
    let mut fields = Vec::new();
    let mut start: Option<(usize, usize)> = None; // (char offset, byte offset)
    for (chars, (bytes, ch)) in fen.char_indices().enumerate() {
        let separator = ch == ' ' || ch == '_';
        match (separator, start) {
            (true, Some((c, b))) => {
                fields.push((c, &fen[b..bytes]));
                start = None;
            }
            (false, None) => start = Some((chars, bytes)),
            _ => {}
        }
    }
    if let Some((c, b)) = start {
        fields.push((c, &fen[b..]));
    }
    fields
}

/// Finds the first problem in the board field: its character offset and words.
fn board_problem(board: &str) -> (usize, String) {
    let board = board.split('[').next().unwrap_or(board);
    let mut rank = 8u32;
    let mut files = 0u32;
    let mut last = 0;
    for (offset, ch) in board.chars().enumerate() {
        last = offset;
        match ch {
            '/' => {
                if files != 8 {
                    return (
                        offset,
                        format!("rank {rank} of the board has {files} squares, not 8"),
                    );
                }
                if rank == 1 {
                    return (offset, "the board has more than 8 ranks".to_owned());
                }
                rank -= 1;
                files = 0;
            }
            '1'..='8' | 'p' | 'n' | 'b' | 'r' | 'q' | 'k' | 'P' | 'N' | 'B' | 'R' | 'Q' | 'K' => {
                files += ch.to_digit(10).unwrap_or(1);
                if files > 8 {
                    return (
                        offset,
                        format!("rank {rank} of the board has more than 8 squares"),
                    );
                }
            }
            '~' => {}
            _ => {
                return (offset, format!("unexpected character '{ch}' in the board"));
            }
        }
    }
    if rank != 1 || files != 8 {
        return (
            last + 1,
            format!("the board ends early: it needs 8 ranks of 8 squares (stopped in rank {rank})"),
        );
    }
    (0, "the board is not valid".to_owned())
}

fn describe_kinds(kinds: PositionErrorKinds) -> String {
    const WORDS: [(PositionErrorKinds, &str); 10] = [
        (PositionErrorKinds::EMPTY_BOARD, "the board is empty"),
        (PositionErrorKinds::MISSING_KING, "a king is missing"),
        (
            PositionErrorKinds::TOO_MANY_KINGS,
            "a side has more than one king",
        ),
        (
            PositionErrorKinds::PAWNS_ON_BACKRANK,
            "a pawn stands on the first or last rank",
        ),
        (
            PositionErrorKinds::INVALID_CASTLING_RIGHTS,
            "a castling right has no king or rook on its home square",
        ),
        (
            PositionErrorKinds::INVALID_EP_SQUARE,
            "the en passant square does not follow a double pawn push",
        ),
        (
            PositionErrorKinds::OPPOSITE_CHECK,
            "the side not to move is in check",
        ),
        (
            PositionErrorKinds::IMPOSSIBLE_CHECK,
            "the check on the king cannot have arisen in a game",
        ),
        (
            PositionErrorKinds::TOO_MUCH_MATERIAL,
            "there is more material than a game can produce",
        ),
        (
            PositionErrorKinds::VARIANT,
            "a rule of the variant is broken",
        ),
    ];
    let words: Vec<&str> = WORDS
        .iter()
        .filter(|(kind, _)| kinds.contains(*kind))
        .map(|(_, text)| *text)
        .collect();
    if words.is_empty() {
        "the position cannot be played".to_owned()
    } else {
        words.join("; ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(fen: &str) -> String {
        parse_position(Variant::Standard, fen)
            .map(|_| ())
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn malformed_fens_point_at_the_problem() {
        assert_eq!(
            error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1"),
            "malformed FEN at position 43: unexpected character 'X' in the board"
        );
        assert_eq!(
            error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1"),
            "malformed FEN at position 45: the side to move must be w or b (field 2, side to move)"
        );
        assert_eq!(
            error("rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
            "malformed FEN at position 17: rank 7 of the board has 7 squares, not 8"
        );
        assert_eq!(error(""), "malformed FEN at position 1: the FEN is empty");
    }

    /// Ten queens a side: no game reaches it (at most nine), the rules play it.
    const TWENTY_QUEENS: &str = "5qqk/8/8/qqqqqqqq/QQQQQQQQ/8/8/KQQ5 w - - 0 1";

    #[test]
    fn composed_positions_with_too_much_material_are_played() {
        assert!(parse_position(Variant::Standard, TWENTY_QUEENS).is_ok());
        // The counts python-chess gives for the same position.
        assert_eq!(
            crate::perft_from_fen(Variant::Standard, TWENTY_QUEENS, 2),
            Ok(6527)
        );
        let game = crate::Game::from_fen(Variant::Standard, TWENTY_QUEENS).unwrap();
        assert_eq!(game.legal_moves().len(), 82);
        // Nine knights and a full pawn row in crazyhouse, a tenth queen in atomic.
        assert!(
            parse_position(
                Variant::Crazyhouse,
                "k7/8/8/8/8/NNNNNNNN/PPPPPPPP/K6N[Q] w - - 0 1"
            )
            .is_ok()
        );
        assert!(parse_position(Variant::Atomic, TWENTY_QUEENS).is_ok());
    }

    #[test]
    fn what_the_rules_cannot_play_is_still_refused() {
        for (fen, why) in [
            (
                "5qqk/8/8/qqqqqqqq/QQQQQQQQ/8/8/QQQ5 w - - 0 1",
                "a king is missing",
            ),
            (
                "P4qqk/8/8/qqqqqqqq/QQQQQQQQ/8/8/KQQ5 w - - 0 1",
                "a pawn stands",
            ),
            (
                "5qqk/7Q/8/qqqqqqqq/QQQQQQQQ/8/8/KQQ5 w - - 0 1",
                "the side not to move is in check",
            ),
        ] {
            let err = error(fen);
            assert!(err.contains(why), "{fen}: {err}");
        }
    }

    #[test]
    fn illegal_positions_say_why() {
        assert_eq!(
            error("8/8/8/8/8/8/8/K7 w - - 0 1"),
            "illegal position: a king is missing"
        );
    }

    #[test]
    fn writes_full_fen_and_detects_chess960_castling() {
        let (pos, mode) = parse_position(Variant::Standard, STANDARD_START_FEN).unwrap();
        assert_eq!(mode, CastlingMode::Standard);
        assert_eq!(write_fen(&pos), STANDARD_START_FEN);
        let (pos, mode) = parse_position(Variant::Atomic, "r3k1rR/5K2/8/8/8/8/8/8 b kq -").unwrap();
        assert_eq!(mode, CastlingMode::Chess960);
        assert_eq!(write_fen(&pos), "r3k1rR/5K2/8/8/8/8/8/8 b kq - 0 1");
    }
}
