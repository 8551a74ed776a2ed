//! Moves judged from the evaluations before and after them: an inaccuracy, a mistake or a
//! blunder by how much of the mover's chance of winning the move gave away.
//!
//! The chance of winning is a logistic curve of the centipawn score (the method the large
//! servers publish: `2 / (1 + e^(-0.00368208 · cp)) − 1`, scores capped at ±1000, a mate
//! counting as certain), so a pawn lost in a level position weighs more than a pawn lost
//! in a won one. Any engine's figures can be judged: the built-in one's or a UCI engine's.

use shakmaty::Color;

/// An evaluation from White's side: centipawns, and the moves to a mate when one is seen
/// (positive: White mates; `0`: the game is over, decided by the sign of `cp`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Eval {
    /// Centipawns for White.
    pub cp: i32,
    /// Moves to a mate: positive when White mates, negative when Black does.
    pub mate: Option<i32>,
}

/// What a move was, when it was worse than the best by enough to say so.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Judgement {
    /// Lowered the mover's [`winning_chances`] by at least 0.1 (written `?!`).
    Inaccuracy,
    /// By at least 0.2 (`?`).
    Mistake,
    /// By at least 0.3 (`??`).
    Blunder,
}

impl Judgement {
    /// The stable name (`inaccuracy`, `mistake`, `blunder`).
    pub fn as_str(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "inaccuracy",
            Judgement::Mistake => "mistake",
            Judgement::Blunder => "blunder",
        }
    }

    /// The annotation symbol (`?!`, `?`, `??`).
    pub fn symbol(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "?!",
            Judgement::Mistake => "?",
            Judgement::Blunder => "??",
        }
    }
}

/// The largest score that still counts as centipawns for the chance of winning.
const CAP_CP: f64 = 1000.0;

/// White's chance of winning as a number from −1 (Black wins) to 1 (White wins).
pub fn winning_chances(eval: Eval) -> f64 {
    match eval.mate {
        Some(n) if n > 0 => 1.0,
        Some(n) if n < 0 => -1.0,
        Some(_) => f64::from(eval.cp.signum()),
        None => {
            let cp = f64::from(eval.cp).clamp(-CAP_CP, CAP_CP);
            2.0 / (1.0 + (-0.003_682_08 * cp).exp()) - 1.0
        }
    }
}

/// The judgement of a move by `mover` that turned `before` into `after`; `None` for a good
/// move, and always `None` when the move played is the one the engine found best (a deeper
/// look after a move may see further than the look before it).
pub fn judge(before: Eval, after: Eval, mover: Color, played_best: bool) -> Option<Judgement> {
    if played_best {
        return None;
    }
    let side = if mover == Color::White { 1.0 } else { -1.0 };
    // On the scale from −1 to 1 of [`winning_chances`].
    let lost = side * (winning_chances(before) - winning_chances(after));
    if lost >= 0.3 {
        Some(Judgement::Blunder)
    } else if lost >= 0.2 {
        Some(Judgement::Mistake)
    } else if lost >= 0.1 {
        Some(Judgement::Inaccuracy)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cp(cp: i32) -> Eval {
        Eval { cp, mate: None }
    }

    #[test]
    fn chances_are_even_at_zero_and_certain_at_a_mate() {
        assert!(winning_chances(cp(0)).abs() < 1e-9);
        assert!(winning_chances(cp(300)) > 0.4 && winning_chances(cp(300)) < 0.6);
        assert_eq!(winning_chances(cp(5000)), winning_chances(cp(1000)));
        let mate = |n| Eval {
            cp: 29_990,
            mate: Some(n),
        };
        assert_eq!(winning_chances(mate(3)), 1.0);
        assert_eq!(winning_chances(mate(-2)), -1.0);
    }

    #[test]
    fn losing_a_piece_from_level_is_a_blunder_for_either_side() {
        assert_eq!(
            judge(cp(20), cp(-300), Color::White, false),
            Some(Judgement::Blunder)
        );
        assert_eq!(
            judge(cp(-20), cp(300), Color::Black, false),
            Some(Judgement::Blunder)
        );
        // The same score change is good for the other side.
        assert_eq!(judge(cp(20), cp(-300), Color::Black, false), None);
    }

    #[test]
    fn the_size_of_the_loss_grades_the_move() {
        assert_eq!(
            judge(cp(0), cp(-60), Color::White, false),
            Some(Judgement::Inaccuracy)
        );
        assert_eq!(
            judge(cp(0), cp(-120), Color::White, false),
            Some(Judgement::Mistake)
        );
        assert_eq!(judge(cp(0), cp(-30), Color::White, false), None);
    }

    #[test]
    fn a_pawn_lost_in_a_won_position_is_no_mistake() {
        assert_eq!(judge(cp(900), cp(800), Color::White, false), None);
    }

    #[test]
    fn missing_a_mate_or_walking_into_one_counts() {
        let mate_for_white = Eval {
            cp: 29_995,
            mate: Some(2),
        };
        assert_eq!(
            judge(mate_for_white, cp(100), Color::White, false),
            Some(Judgement::Blunder)
        );
        let mated = Eval {
            cp: -29_995,
            mate: Some(-1),
        };
        assert_eq!(
            judge(cp(0), mated, Color::White, false),
            Some(Judgement::Blunder)
        );
    }

    #[test]
    fn the_engines_own_move_is_never_marked() {
        assert_eq!(judge(cp(50), cp(-400), Color::White, true), None);
    }
}
