//! The chance that each square hides a bomb hostile to the player, deduced from the counts they were told.
//!
//! A count says how many hostile bombs (spent ones included) lie on the 8
//! squares around it, so it constrains the unknown squares there. First the
//! certain deductions are drawn, as a minesweeper player does: a count whose
//! known bombs already make it clears its other neighbours, and a count whose
//! open neighbours are exactly the bombs it still lacks marks them all.
//! Then every placement of the squares still touched by a count is
//! enumerated, each weighted by the ways the remaining bombs fit on the
//! untouched squares, which gives each square its exact chance (the bombs
//! being placed uniformly at random, as the random placements are).

use shakmaty::{Bitboard, Square, attacks::king_attacks};

/// Most steps the enumeration takes before it settles for the certain
/// deductions and an even spread of the rest.
const MAX_STEPS: u32 = 200_000;

/// What is known of the hostile bombs on each square.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Odds {
    /// The chance, in thousandths, that each square (a1 = 0) holds an
    /// unexploded hostile bomb.
    pub(crate) per_mille: [u16; 64],
    /// Squares proven to hold one.
    pub(crate) bombs: Bitboard,
}

impl Odds {
    /// The same chance on every square of `risky`, nothing proven.
    pub(crate) fn even(risky: Bitboard, bombs: usize) -> Odds {
        let mut per_mille = [0u16; 64];
        if !risky.is_empty() {
            let chance = (bombs * 1000 / risky.count()).min(1000);
            let chance = u16::try_from(chance).unwrap_or(1000);
            for square in risky {
                per_mille[usize::from(square)] = chance;
            }
        }
        Odds {
            per_mille,
            bombs: Bitboard::EMPTY,
        }
    }

    /// The chance, in thousandths, of a hostile bomb on `square`.
    pub(crate) fn at(&self, square: Square) -> i32 {
        i32::from(self.per_mille[usize::from(square)])
    }
}

/// One count as a constraint on the unknown squares around it.
#[derive(Clone, Copy, Debug)]
struct Rule {
    /// The unknown squares around the count.
    cells: Bitboard,
    /// How many of them hold a bomb.
    bombs: usize,
}

/// The odds on the `unknown` squares, where `remaining` unexploded hostile
/// bombs lie, given `counts` (square, hostile bombs around it) and the
/// hostile bombs already `spent` (known, and counted by the counts).
pub(crate) fn deduce(
    unknown: Bitboard,
    spent: Bitboard,
    counts: &[(Square, u8)],
    remaining: usize,
) -> Odds {
    let mut rules: Vec<Rule> = Vec::new();
    let mut seen = Bitboard::EMPTY;
    for &(square, told) in counts {
        if seen.contains(square) {
            continue;
        }
        seen.add(square);
        let around = king_attacks(square);
        let cells = around & unknown;
        let lacking = usize::from(told).checked_sub((around & spent).count());
        // A count that contradicts what is known tells nothing usable.
        if let Some(bombs) = lacking.filter(|&b| b <= cells.count()) {
            rules.push(Rule { cells, bombs });
        }
    }
    let (bombs, safe) = certain(&rules, unknown, remaining);
    let open = unknown & !bombs & !safe;
    let left = remaining.saturating_sub(bombs.count());
    let rules: Vec<Rule> = rules
        .iter()
        .filter(|r| !(r.cells & open).is_empty())
        .map(|r| Rule {
            cells: r.cells & open,
            bombs: r.bombs.saturating_sub((r.cells & bombs).count()),
        })
        .collect();
    let mut odds = Odds::even(open, left);
    odds.bombs = bombs;
    for square in bombs {
        odds.per_mille[usize::from(square)] = 1000;
    }
    if let Some(exact) = enumerate(&rules, open, left) {
        for square in open {
            odds.per_mille[usize::from(square)] = exact.per_mille[usize::from(square)];
        }
        odds.bombs |= exact.bombs;
    }
    odds
}

/// The squares proven to hold a bomb and those proven clear, by the single
/// counts and the total, repeated until nothing more follows.
fn certain(rules: &[Rule], unknown: Bitboard, remaining: usize) -> (Bitboard, Bitboard) {
    let (mut bombs, mut safe) = (Bitboard::EMPTY, Bitboard::EMPTY);
    loop {
        let before = (bombs, safe);
        for rule in rules {
            let open = rule.cells & !bombs & !safe;
            let lacking = rule.bombs.saturating_sub((rule.cells & bombs).count());
            if lacking == 0 {
                safe |= open;
            } else if lacking == open.count() {
                bombs |= open;
            }
        }
        let open = unknown & !bombs & !safe;
        let lacking = remaining.saturating_sub(bombs.count());
        if lacking == 0 {
            safe |= open;
        } else if lacking == open.count() {
            bombs |= open;
        }
        if (bombs, safe) == before {
            return (bombs, safe);
        }
    }
}

/// The exact odds of every `open` square, by enumerating the placements on
/// the squares the `rules` touch; `None` when they are too many or none fits.
fn enumerate(rules: &[Rule], open: Bitboard, remaining: usize) -> Option<Odds> {
    let frontier: Vec<Square> = rules
        .iter()
        .fold(Bitboard::EMPTY, |all, r| all | r.cells)
        .into_iter()
        .collect();
    let rest = open.count() - frontier.len();
    let mut walk = Walk {
        rules,
        frontier: &frontier,
        ways: (0..=remaining).map(|k| choose(rest, k)).collect(),
        remaining,
        placed: Bitboard::EMPTY,
        steps: 0,
        total: 0.0,
        weight: [0.0; 64],
        rest_bombs: 0.0,
    };
    walk.step(0);
    if walk.steps > MAX_STEPS || walk.total <= 0.0 {
        return None;
    }
    let mut odds = Odds::even(Bitboard::EMPTY, 0);
    let rest_chance = if rest == 0 {
        0.0
    } else {
        walk.rest_bombs / walk.total / rest as f64
    };
    for square in open {
        let i = usize::from(square);
        let chance = if frontier.contains(&square) {
            walk.weight[i] / walk.total
        } else {
            rest_chance
        };
        odds.per_mille[i] = if walk.weight[i] == walk.total && frontier.contains(&square) {
            odds.bombs.add(square);
            1000
        } else if chance <= 0.0 {
            0
        } else {
            // Uncertain squares never read as certain either way.
            (chance * 1000.0).round().clamp(1.0, 999.0) as u16
        };
    }
    Some(odds)
}

/// The state of the enumeration.
struct Walk<'a> {
    rules: &'a [Rule],
    frontier: &'a [Square],
    /// Ways to put k bombs on the squares no count touches, by k.
    ways: Vec<f64>,
    remaining: usize,
    placed: Bitboard,
    steps: u32,
    total: f64,
    weight: [f64; 64],
    rest_bombs: f64,
}

impl Walk<'_> {
    /// Decides the frontier square `i` and the ones after it.
    fn step(&mut self, i: usize) {
        self.steps += 1;
        if self.steps > MAX_STEPS {
            return;
        }
        let Some(&square) = self.frontier.get(i) else {
            let placed = self.placed.count();
            let Some(&ways) = self.ways.get(self.remaining - placed) else {
                return;
            };
            self.total += ways;
            self.rest_bombs += ways * (self.remaining - placed) as f64;
            for bomb in self.placed {
                self.weight[usize::from(bomb)] += ways;
            }
            return;
        };
        let decided = Bitboard::from_iter(self.frontier[..=i].iter().copied());
        for bomb in [false, true] {
            if bomb && self.placed.count() >= self.remaining {
                continue;
            }
            self.placed.set(square, bomb);
            let fits = self.rules.iter().all(|r| {
                let has = (r.cells & self.placed).count();
                let open = (r.cells & !decided).count();
                has <= r.bombs && has + open >= r.bombs
            });
            if fits {
                self.step(i + 1);
            }
        }
        self.placed.discard(square);
    }
}

/// The binomial coefficient `n` over `k`, as a float (0 when `k` > `n`).
fn choose(n: usize, k: usize) -> f64 {
    if k > n {
        return 0.0;
    }
    (0..k).fold(1.0, |ways, i| ways * (n - i) as f64 / (i + 1) as f64)
}

#[cfg(test)]
mod tests {
    use shakmaty::{Bitboard, Rank, Square};

    use super::{choose, deduce};

    /// Black's half (ranks 5 to 8), as White sees it before any count.
    fn black_half() -> Bitboard {
        [Rank::Fifth, Rank::Sixth, Rank::Seventh, Rank::Eighth]
            .into_iter()
            .fold(Bitboard::EMPTY, |all, r| all | Bitboard::from_rank(r))
    }

    #[test]
    fn a_count_with_as_many_unknown_neighbours_as_bombs_proves_them_all() {
        // A white piece on a5 was told 2; b5 is cleared (a piece stood
        // there), so of a5's neighbours only a6 and b6 are unknown.
        let unknown = black_half() & !Bitboard::from(Square::A5) & !Bitboard::from(Square::B5);
        let odds = deduce(unknown, Bitboard::EMPTY, &[(Square::A5, 2)], 8);
        assert!(odds.bombs.contains(Square::A6) && odds.bombs.contains(Square::B6));
        assert_eq!(odds.at(Square::A6), 1000);
        // The six other bombs lie among the 28 squares left.
        assert_eq!(odds.at(Square::H8), 214);
    }

    #[test]
    fn a_count_made_by_spent_bombs_clears_its_other_neighbours() {
        // e6 was told 1, and the bomb on d7 already went off.
        let spent = Bitboard::from(Square::D7);
        let cleared = Bitboard::from(Square::E6) | spent;
        let unknown = black_half() & !cleared;
        let odds = deduce(unknown, spent, &[(Square::E6, 1)], 7);
        for square in [Square::D5, Square::E5, Square::F5, Square::F6, Square::E7] {
            assert_eq!(odds.at(square), 0, "{square} should be clear");
        }
        assert!(odds.bombs.is_empty());
        assert!(odds.at(Square::A8) > 0);
    }

    #[test]
    fn counts_together_prove_what_neither_proves_alone() {
        // The 1-2 pattern along an edge: a5 told 1, b5 told 2, with rank 6
        // the only unknown squares around them (ranks 4 and 5 cleared).
        let unknown = Bitboard::from_rank(Rank::Sixth)
            | Bitboard::from_rank(Rank::Seventh)
            | Bitboard::from_rank(Rank::Eighth);
        let odds = deduce(
            unknown,
            Bitboard::EMPTY,
            &[(Square::A5, 1), (Square::B5, 2)],
            8,
        );
        // b5's two bombs: one of a6/b6 (a5 allows one) and so c6 surely.
        assert!(odds.bombs.contains(Square::C6));
        assert_eq!(odds.at(Square::C6), 1000);
        assert_eq!(odds.at(Square::A6), 500);
        assert_eq!(odds.at(Square::B6), 500);
    }

    #[test]
    fn a_low_count_makes_its_neighbours_safer_than_the_rest() {
        let unknown = black_half() & !Bitboard::from(Square::D5);
        let odds = deduce(unknown, Bitboard::EMPTY, &[(Square::D5, 1)], 8);
        let near = odds.at(Square::D6);
        let far = odds.at(Square::H8);
        assert!(near < far, "near {near}, far {far}");
        // The chances add up to the bombs there are, whatever the counts.
        let sum: i32 = unknown.into_iter().map(|s| odds.at(s)).sum();
        assert!((sum - 8000).abs() < 40, "the chances add up to {sum}");
    }

    #[test]
    fn binomials() {
        assert_eq!(choose(5, 2), 10.0);
        assert_eq!(choose(3, 4), 0.0);
        assert_eq!(choose(26, 6), 230_230.0);
    }
}
