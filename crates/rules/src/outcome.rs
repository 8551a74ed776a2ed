//! How a game ended: the reason, the winner and the PGN result.

use std::fmt;
use std::str::FromStr;

use shakmaty::Color;

use crate::variant::Variant;

/// How a game ended, on or off the board.
///
/// The first seven end the game automatically after a move; the claim
/// reasons ([`EndReason::Repetition`], [`EndReason::FiftyMoves`],
/// [`EndReason::DeadPosition`]) end it only when the player to move claims
/// the draw; the rest are actions of the players or the clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// Atomic: a king was blown up. The player who moved wins.
    /// Minesweeper: a king was lost to a bomb; its owner loses.
    Explosion,
    /// The player to move is in check and has no legal move.
    Checkmate,
    /// The player to move is not in check and has no legal move: a draw
    /// (in antichess this is a [`EndReason::VariantWin`] instead).
    Stalemate,
    /// A variant's own goal was reached: antichess (all pieces lost or
    /// stalemated: that player wins), king of the hill (king on a centre
    /// square), three-check (third check), racing kings (king on the eighth
    /// rank), horde (every white piece captured), minesweeper (a king that a
    /// blast left attacked was captured).
    VariantWin,
    /// A variant's own drawn ending: racing kings when both kings reach the
    /// eighth rank, horde when the board is empty, minesweeper when both
    /// kings go in one blast.
    VariantDraw,
    /// The same position occurred for the fifth time: an automatic draw.
    FivefoldRepetition,
    /// 75 moves by each side without a capture or pawn move: an automatic draw.
    SeventyFiveMoves,
    /// Draw claimed because the position occurred three times.
    Repetition,
    /// Draw claimed after 50 moves by each side without a capture or pawn move.
    FiftyMoves,
    /// Draw claimed because neither side has material to win.
    DeadPosition,
    /// The players agreed a draw.
    Agreement,
    /// A player resigned.
    Resignation,
    /// A player ran out of time (a draw when the other could never win).
    Time,
}

impl EndReason {
    /// Every reason, in declaration order.
    pub const ALL: &'static [EndReason] = &[
        EndReason::Explosion,
        EndReason::Checkmate,
        EndReason::Stalemate,
        EndReason::VariantWin,
        EndReason::VariantDraw,
        EndReason::FivefoldRepetition,
        EndReason::SeventyFiveMoves,
        EndReason::Repetition,
        EndReason::FiftyMoves,
        EndReason::DeadPosition,
        EndReason::Agreement,
        EndReason::Resignation,
        EndReason::Time,
    ];

    /// The stable name stored in the database, e.g. `"fivefold_repetition"`.
    pub fn as_str(self) -> &'static str {
        match self {
            EndReason::Explosion => "explosion",
            EndReason::Checkmate => "checkmate",
            EndReason::Stalemate => "stalemate",
            EndReason::VariantWin => "variant_win",
            EndReason::VariantDraw => "variant_draw",
            EndReason::FivefoldRepetition => "fivefold_repetition",
            EndReason::SeventyFiveMoves => "seventy_five_moves",
            EndReason::Repetition => "repetition",
            EndReason::FiftyMoves => "fifty_moves",
            EndReason::DeadPosition => "dead_position",
            EndReason::Agreement => "agreement",
            EndReason::Resignation => "resignation",
            EndReason::Time => "time",
        }
    }

    /// Words for people, e.g. `"King exploded"` or `"Draw by agreement"`;
    /// [`EndReason::describe_in`] names a variant's own ending, as the game
    /// page, the mails and the PGN `Termination` tag do.
    pub fn describe(self) -> &'static str {
        match self {
            EndReason::Explosion => "King exploded",
            EndReason::Checkmate => "Checkmate",
            EndReason::Stalemate => "Stalemate",
            EndReason::VariantWin => "Variant goal reached",
            EndReason::VariantDraw => "Variant draw",
            EndReason::FivefoldRepetition => "Draw by fivefold repetition",
            EndReason::SeventyFiveMoves => "Draw by the 75-move rule",
            EndReason::Repetition => "Draw claimed by threefold repetition",
            EndReason::FiftyMoves => "Draw claimed by the 50-move rule",
            EndReason::DeadPosition => "Draw claimed: neither side can win",
            EndReason::Agreement => "Draw by agreement",
            EndReason::Resignation => "Resignation",
            EndReason::Time => "Time forfeit",
        }
    }

    /// Words for people in a game of `variant` (a stored name such as `"kingofthehill"`, or
    /// `"minesweeper"`): a variant's own ending says what happened, e.g. `"King reached the
    /// centre"` or `"Third check"`; every other reason reads as [`EndReason::describe`].
    ///
    /// ```
    /// use slowfuse_rules::EndReason;
    ///
    /// assert_eq!(EndReason::VariantWin.describe_in("threecheck"), "Third check");
    /// assert_eq!(EndReason::Checkmate.describe_in("threecheck"), "Checkmate");
    /// ```
    pub fn describe_in(self, variant: &str) -> &'static str {
        let minesweeper = variant.eq_ignore_ascii_case("minesweeper");
        let known = variant.parse::<Variant>().ok();
        match (self, known) {
            (EndReason::VariantWin, Some(Variant::Antichess)) => "All pieces lost or blocked",
            (EndReason::VariantWin, Some(Variant::KingOfTheHill)) => "King reached the centre",
            (EndReason::VariantWin, Some(Variant::ThreeCheck)) => "Third check",
            (EndReason::VariantWin, Some(Variant::RacingKings)) => "King reached the eighth rank",
            (EndReason::VariantWin, Some(Variant::Horde)) => "Every White piece captured",
            (EndReason::VariantWin, None) if minesweeper => "King captured after a blast",
            (EndReason::VariantDraw, Some(Variant::RacingKings)) => {
                "Both kings reached the eighth rank"
            }
            (EndReason::VariantDraw, Some(Variant::Horde)) => "No pieces left on the board",
            (EndReason::VariantDraw, None) if minesweeper => "Both kings lost in one blast",
            _ => self.describe(),
        }
    }

    /// Whether this reason always means a draw, whoever played.
    pub fn is_draw(self) -> bool {
        matches!(
            self,
            EndReason::Stalemate
                | EndReason::VariantDraw
                | EndReason::FivefoldRepetition
                | EndReason::SeventyFiveMoves
                | EndReason::Repetition
                | EndReason::FiftyMoves
                | EndReason::DeadPosition
                | EndReason::Agreement
        )
    }
}

impl fmt::Display for EndReason {
    /// Writes [`EndReason::describe`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.describe())
    }
}

/// A stored end reason that is not one of [`EndReason::as_str`]'s names.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown end reason \"{0}\"")]
pub struct UnknownEndReason(pub String);

impl FromStr for EndReason {
    type Err = UnknownEndReason;

    /// The inverse of [`EndReason::as_str`] (exact, lowercase).
    fn from_str(s: &str) -> Result<EndReason, UnknownEndReason> {
        EndReason::ALL
            .iter()
            .copied()
            .find(|r| r.as_str() == s)
            .ok_or_else(|| UnknownEndReason(s.to_owned()))
    }
}

/// The end of a game: who won (`None` for a draw) and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// The winner, or `None` for a draw.
    pub winner: Option<Color>,
    /// Why the game ended.
    pub reason: EndReason,
}

impl Outcome {
    /// A win for `winner`.
    pub fn win(winner: Color, reason: EndReason) -> Outcome {
        Outcome {
            winner: Some(winner),
            reason,
        }
    }

    /// A draw.
    pub fn draw(reason: EndReason) -> Outcome {
        Outcome {
            winner: None,
            reason,
        }
    }

    /// The PGN result: `"1-0"`, `"0-1"` or `"1/2-1/2"`.
    pub fn result(&self) -> &'static str {
        match self.winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reason_names_round_trip() {
        for &r in EndReason::ALL {
            assert_eq!(r.as_str().parse::<EndReason>(), Ok(r));
        }
        assert!("mate".parse::<EndReason>().is_err());
        assert_eq!(EndReason::Explosion.describe(), "King exploded");
        assert_eq!(EndReason::Agreement.describe(), "Draw by agreement");
    }

    #[test]
    fn a_variants_own_ending_says_what_happened() {
        let win = EndReason::VariantWin;
        assert_eq!(win.describe_in("antichess"), "All pieces lost or blocked");
        assert_eq!(win.describe_in("kingofthehill"), "King reached the centre");
        assert_eq!(win.describe_in("threecheck"), "Third check");
        assert_eq!(
            win.describe_in("racingkings"),
            "King reached the eighth rank"
        );
        assert_eq!(win.describe_in("horde"), "Every White piece captured");
        assert_eq!(
            win.describe_in("minesweeper"),
            "King captured after a blast"
        );
        assert_eq!(
            EndReason::VariantDraw.describe_in("racingkings"),
            "Both kings reached the eighth rank"
        );
        // Each variant win and draw the rules can end a game with has words of its own.
        let wins = [
            Variant::Antichess,
            Variant::KingOfTheHill,
            Variant::ThreeCheck,
            Variant::RacingKings,
            Variant::Horde,
        ];
        for v in wins {
            assert!(!win.describe_in(v.as_str()).contains("Variant"), "{v:?}");
        }
        for v in [Variant::RacingKings, Variant::Horde] {
            let draw = EndReason::VariantDraw.describe_in(v.as_str());
            assert!(!draw.contains("Variant"), "{v:?}");
        }
        assert_eq!(EndReason::Explosion.describe_in("atomic"), "King exploded");
    }

    #[test]
    fn results() {
        assert_eq!(
            Outcome::win(Color::White, EndReason::Checkmate).result(),
            "1-0"
        );
        assert_eq!(Outcome::win(Color::Black, EndReason::Time).result(), "0-1");
        assert_eq!(Outcome::draw(EndReason::Time).result(), "1/2-1/2");
    }
}
