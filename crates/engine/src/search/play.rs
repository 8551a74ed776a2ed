//! A move played in the search: the position after it and, in minesweeper, the blast it may set off and how its score then follows from its child's.

use shakmaty::variant::VariantPosition;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{EnPassantMode, Move, Position, Role, Square};

use super::{INFINITY, MATE, Searcher};
use crate::minesweeper::{Arrival, Blasted, blast};
use crate::position::hash;

impl Searcher<'_> {
    pub(super) fn child(&self, pos: &VariantPosition, key: u64, m: Move) -> (VariantPosition, u64) {
        let incremental =
            pos.update_zobrist_hash::<Zobrist64>(Zobrist64(key), m, EnPassantMode::Legal);
        let mut child = pos.clone();
        child.play_unchecked(m);
        let child_key = incremental.map_or_else(|| hash(&child), |z| z.0);
        (child, child_key)
    }

    /// The position after `m` (played at `ply`), its key when `key` is
    /// given (0 otherwise), and what the move risks by itself: in
    /// minesweeper a blast played out; a step where a bomb may lie either
    /// both ways (when `gamble`) or as its expected loss. Elsewhere nothing.
    pub(super) fn play(
        &self,
        pos: &VariantPosition,
        key: Option<u64>,
        m: Move,
        ply: usize,
        gamble: bool,
    ) -> Played {
        let (child, child_key) = match key {
            Some(key) => self.child(pos, key, m),
            None => {
                let mut child = pos.clone();
                child.play_unchecked(m);
                (child, 0)
            }
        };
        let Some((mines, role, to)) = self.mines.zip(landing(m)).map(|(x, (r, t))| (x, r, t))
        else {
            return Played::Board(child, child_key, 0);
        };
        let blasted = |child: &VariantPosition| -> Option<Aftermath> {
            let won = MATE - i32::try_from(ply + 1).unwrap_or(0);
            Some(match blast(child, to, mines.modest)? {
                Blasted::Board(next) => {
                    let next_key = key.map_or(0, |_| hash(&next));
                    Aftermath::Board(next, next_key)
                }
                Blasted::Won => Aftermath::Over(won),
                Blasted::Lost => Aftermath::Over(-won),
                Blasted::Drawn => Aftermath::Over(0),
            })
        };
        match mines.arrival(pos.board(), pos.turn(), role, to) {
            Arrival::Clear => Played::Board(child, child_key, 0),
            Arrival::Risk { cost, chance } => match blasted(&child).filter(|_| gamble) {
                Some(blasted) => Played::Gamble {
                    calm: child,
                    key: child_key,
                    chance,
                    blasted,
                },
                None => Played::Board(child, child_key, cost),
            },
            Arrival::Blast => match blasted(&child) {
                Some(Aftermath::Board(next, next_key)) => Played::Board(next, next_key, 0),
                Some(Aftermath::Over(score)) => Played::Over(score),
                None => {
                    let loss = mines.blast_loss(pos.board(), pos.turn(), role, to);
                    Played::Board(child, child_key, loss.min(3000))
                }
            },
        }
    }
}

/// A move played in the search.
pub(super) enum Played {
    /// The position after it, its key, and what the move cost its mover.
    Board(VariantPosition, u64, i32),
    /// A step where a bomb may lie, both ways: the position if none
    /// (`calm`, `key`), the chance of one in thousandths, and the blast.
    Gamble {
        calm: VariantPosition,
        key: u64,
        chance: i32,
        blasted: Aftermath,
    },
    /// A blast ended the game: the score for the mover.
    Over(i32),
}

/// What a blast leaves: a board (and its key) or a finished game (the
/// score for the mover).
pub(super) enum Aftermath {
    Board(VariantPosition, u64),
    Over(i32),
}

/// How a move's score follows from its child's: less a fixed cost, or mixed
/// with the score of a blast by its chance.
#[derive(Clone, Copy)]
pub(super) struct Mix {
    /// The chance of the blast, in thousandths (0: none).
    chance: i32,
    /// The score for the mover if the blast happens.
    blasted: i32,
    /// What the move costs whatever happens.
    cost: i32,
}

impl Mix {
    pub(super) fn cost(cost: i32) -> Mix {
        Mix {
            chance: 0,
            blasted: 0,
            cost,
        }
    }

    /// A step that sets off a blast scoring `blasted` for the mover with
    /// `chance` in a thousand.
    pub(super) fn gamble(chance: i32, blasted: i32) -> Mix {
        Mix {
            chance,
            blasted,
            cost: 0,
        }
    }

    /// The move's score when the calm child scores `calm` for the mover.
    pub(super) fn value(self, calm: i32) -> i32 {
        let (c, calm, blasted) = (
            i64::from(self.chance),
            i64::from(calm),
            i64::from(self.blasted),
        );
        let mixed = ((1000 - c) * calm + c * blasted).div_euclid(1000);
        i32::try_from(mixed).unwrap_or(0) - self.cost
    }

    /// The window for the calm child's score that gives the move's score
    /// the window (`low`, `high`).
    pub(super) fn window(self, low: i32, high: i32) -> (i32, i32) {
        if self.chance == 0 {
            return (low + self.cost, high + self.cost);
        }
        let back = |v: i32, up: bool| {
            let c = i64::from(self.chance);
            let top = (i64::from(v) + i64::from(self.cost)) * 1000 - c * i64::from(self.blasted);
            let q = top.div_euclid(1000 - c) + i64::from(up && top.rem_euclid(1000 - c) != 0);
            i32::try_from(q.clamp(-i64::from(INFINITY), i64::from(INFINITY))).unwrap_or(0)
        };
        let (low, high) = (back(low, false), back(high, true));
        (low, high.max(low + 1))
    }
}

/// The piece that arrives somewhere with a move, and where (none for castling,
/// which stays on the mover's own back rank).
fn landing(m: Move) -> Option<(Role, Square)> {
    match m {
        Move::Normal { role, to, .. } | Move::Put { role, to } => Some((role, to)),
        Move::EnPassant { to, .. } => Some((Role::Pawn, to)),
        Move::Castle { .. } => None,
    }
}

#[cfg(test)]
mod tests {
    use super::Mix;

    #[test]
    fn a_gamble_mixes_both_outcomes_by_the_chance_and_its_window_maps_back() {
        // One chance in four of a blast worth 1000 to the mover.
        let mix = Mix::gamble(250, 1000);
        assert_eq!(mix.value(0), 250);
        assert_eq!(mix.value(-400), -50);
        // The calm child's window gives the move's window: its bounds score
        // on either side of the move's.
        let (low, high) = mix.window(100, 101);
        assert!(low < high);
        assert!(mix.value(low) <= 100 && mix.value(high) >= 101);
        // A plain cost shifts the score and the window alike.
        let cost = Mix::cost(30);
        assert_eq!(cost.value(100), 70);
        assert_eq!(cost.window(0, 10), (30, 40));
    }
}
