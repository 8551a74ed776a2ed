//! The source of chance in games: the system's random numbers in production, fixed draws in tests.

/// Draws what the rules leave to chance (a challenge's random colour, a Chess960 start).
/// Injected like the clock, so that tests decide the outcome.
pub trait Random: Send + Sync {
    /// A fair coin toss.
    fn coin(&self) -> bool;
    /// A number in `0..n`, each equally likely; `n` must be positive.
    fn below(&self, n: u32) -> u32;
}

/// The operating system's randomness, through `rand`'s thread-local generator.
#[derive(Debug, Default)]
pub struct SystemRandom;

impl Random for SystemRandom {
    fn coin(&self) -> bool {
        rand::random::<bool>()
    }

    fn below(&self, n: u32) -> u32 {
        rand::random_range(0..n)
    }
}

/// Draws that never change; for tests.
#[derive(Clone, Copy, Debug)]
pub struct FixedRandom {
    coin: bool,
    number: u32,
}

impl FixedRandom {
    /// Every coin shows `coin`; every number drawn below `n` is `number % n`.
    pub fn new(coin: bool, number: u32) -> FixedRandom {
        FixedRandom { coin, number }
    }
}

impl Random for FixedRandom {
    fn coin(&self) -> bool {
        self.coin
    }

    fn below(&self, n: u32) -> u32 {
        self.number % n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn system_numbers_stay_below_the_bound() {
        assert!((0..1000).all(|_| SystemRandom.below(3) < 3));
        assert_eq!(SystemRandom.below(1), 0);
    }

    #[test]
    fn fixed_draws_repeat() {
        let r = FixedRandom::new(false, 961);
        assert!(!r.coin());
        assert_eq!(r.below(960), 1);
        assert_eq!(r.below(960), 1);
        assert_eq!(FixedRandom::new(true, 5).below(960), 5);
    }
}
