//! Bombs: who owns them, whether they went off, and placing the missing ones at random.

use shakmaty::{Color, Square};

use super::options::MinesweeperOptions;

/// One bomb of the game.
///
/// A bomb is secret until it goes off (or the game ends); it stays on its
/// square afterwards as a spent bomb, which no longer explodes but still
/// counts when a player is told how many bombs surround a square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Bomb {
    /// Where it lies.
    pub square: Square,
    /// Who placed it (its "own" side, which it never harms); `None` for a
    /// neutral bomb of option 4, which harms both sides.
    pub owner: Option<Color>,
    /// The ply (1 = the first move) of the move that set it off; `None`
    /// while it is unexploded.
    pub exploded_at: Option<u32>,
}

impl Bomb {
    /// A new, unexploded bomb.
    pub(crate) fn new(square: Square, owner: Option<Color>) -> Bomb {
        Bomb {
            square,
            owner,
            exploded_at: None,
        }
    }

    /// Whether it has gone off.
    pub fn is_spent(&self) -> bool {
        self.exploded_at.is_some()
    }

    /// Whether it harms pieces of `color`: every bomb but `color`'s own.
    pub fn is_hostile_to(&self, color: Color) -> bool {
        self.owner != Some(color)
    }
}

/// A small deterministic random source (SplitMix64): the same seed always
/// places the same bombs, so the caller decides where randomness comes from.
pub(crate) struct SplitMix64(u64);

impl SplitMix64 {
    pub(crate) fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform number in `0..n` (rejection sampling, no modulo bias);
    /// 0 when `n` is 0.
    pub(crate) fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            return 0;
        }
        let zone = u64::MAX - u64::MAX % n;
        loop {
            let x = self.next();
            if x < zone {
                return x % n;
            }
        }
    }
}

/// Adds at random the bombs `owner` still lacks, on free squares of its
/// region (a square already holding one of `owner`'s bombs is not free; the
/// other side's bombs do not matter).
pub(crate) fn fill_missing(
    options: &MinesweeperOptions,
    bombs: &mut Vec<Bomb>,
    owner: Option<Color>,
    rng: &mut SplitMix64,
) {
    let have = bombs.iter().filter(|b| b.owner == owner).count();
    let missing = options.bombs_of(owner).saturating_sub(have);
    let mut free: Vec<Square> = options
        .allowed_squares(owner)
        .into_iter()
        .filter(|sq| !bombs.iter().any(|b| b.owner == owner && b.square == *sq))
        .collect();
    let missing = missing.min(free.len());
    // A partial Fisher–Yates shuffle: the first `missing` squares are a
    // uniform random choice.
    for i in 0..missing {
        let left = (free.len() - i) as u64;
        let j = i + usize::try_from(rng.below(left)).unwrap_or(0);
        free.swap(i, j);
    }
    bombs.extend(free[..missing].iter().map(|&sq| Bomb::new(sq, owner)));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn below_stays_in_range_and_covers_it() {
        let mut rng = SplitMix64::new(7);
        let mut seen = [false; 5];
        for _ in 0..200 {
            let x = rng.below(5);
            assert!(x < 5);
            seen[x as usize] = true;
        }
        assert!(seen.iter().all(|s| *s));
        assert_eq!(rng.below(0), 0);
    }
}
