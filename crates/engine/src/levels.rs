//! The levels players choose: how deep and how long each searches, and how often it errs on purpose.

use shakmaty::Move;

use crate::rng::Rng;

/// How strongly the computer plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Level {
    /// Two plies and at most 2,000 nodes; about one move in three a
    /// clearly worse one on purpose.
    Easy,
    /// Four plies and at most 10,000 nodes; about one move in
    /// eight a somewhat worse one on purpose.
    Medium,
    /// The whole budget the caller gives; never errs on purpose.
    Hard,
}

impl Level {
    /// Every level, weakest first.
    pub const ALL: [Level; 3] = [Level::Easy, Level::Medium, Level::Hard];

    /// The stable lowercase name: `"easy"`, `"medium"`, `"hard"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
        }
    }

    /// The deepest the level searches, in plies.
    pub(crate) fn max_depth(self) -> i32 {
        match self {
            Level::Easy => 2,
            Level::Medium => 4,
            Level::Hard => 64,
        }
    }

    /// The most nodes the level searches, whatever the caller allows.
    pub(crate) fn max_nodes(self) -> u64 {
        match self {
            Level::Easy => 2_000,
            Level::Medium => 10_000,
            Level::Hard => u64::MAX,
        }
    }

    /// Whether the level reads every minesweeper count to locate the bombs
    /// (Hard); the others read only the counts of zero and take the other
    /// unknown squares as equally likely to hold one.
    pub(crate) fn reads_counts(self) -> bool {
        self == Level::Hard
    }

    /// How often (per thousand moves) the level errs on purpose, and how
    /// much worse (centipawns, at most) the move it then picks may be.
    fn error(self) -> (u32, i32) {
        match self {
            Level::Easy => (350, 600),
            Level::Medium => (120, 250),
            Level::Hard => (0, 0),
        }
    }

    /// Whether this move should be a deliberate error (draws from `rng`).
    pub(crate) fn errs(self, rng: &mut Rng) -> bool {
        let (per_mille, _) = self.error();
        per_mille > 0 && rng.chance(per_mille)
    }

    /// A clearly worse move than `best`, picked with `rng` among moves whose
    /// quick score lies between the level's error window below the best quick
    /// score and a little below it; `None` when there is none.
    pub(crate) fn worse_move(
        self,
        best: Move,
        scored: &[(Move, i32)],
        rng: &mut Rng,
    ) -> Option<(Move, i32)> {
        let (_, window) = self.error();
        let top = scored.iter().map(|s| s.1).max()?;
        let candidates: Vec<(Move, i32)> = scored
            .iter()
            .copied()
            .filter(|&(m, s)| m != best && s <= top - 30 && s >= top - window)
            .collect();
        if candidates.is_empty() {
            return None;
        }
        Some(candidates[rng.below(candidates.len())])
    }
}
