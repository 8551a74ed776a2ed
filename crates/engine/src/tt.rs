//! The transposition table: search results kept by the position's Zobrist hash, one slot per index, deeper results preferred.

use shakmaty::Move;

use crate::search::MATE_BOUND;

/// What a stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    /// The exact value.
    Exact,
    /// At least this (the search failed high).
    Lower,
    /// At most this (the search failed low).
    Upper,
}

/// One stored result.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    pub(crate) key: u64,
    pub(crate) best: Option<Move>,
    pub(crate) score: i32,
    pub(crate) depth: i32,
    pub(crate) bound: Bound,
}

/// A fixed-size table of entries indexed by the low bits of the hash.
pub(crate) struct Table {
    slots: Vec<Option<Entry>>,
    mask: usize,
}

impl Table {
    /// A table of `2^bits` slots.
    pub(crate) fn new(bits: u32) -> Table {
        let size = 1usize << bits;
        Table {
            slots: vec![None; size],
            mask: size - 1,
        }
    }

    fn index(&self, key: u64) -> usize {
        // The low bits of a Zobrist hash are as random as any.
        usize::try_from(key).unwrap_or(usize::MAX) & self.mask
    }

    /// The entry of this position, if its slot holds it.
    pub(crate) fn probe(&self, key: u64) -> Option<Entry> {
        self.slots[self.index(key)].filter(|e| e.key == key)
    }

    /// Keeps a result, replacing the slot's unless that one is of another
    /// position searched deeper.
    pub(crate) fn store(&mut self, entry: Entry) {
        let index = self.index(entry.key);
        let slot = &mut self.slots[index];
        let replace = match slot {
            Some(old) => old.key == entry.key || old.depth <= entry.depth + 2,
            None => true,
        };
        if replace {
            let best = entry
                .best
                .or(slot.filter(|o| o.key == entry.key).and_then(|o| o.best));
            *slot = Some(Entry { best, ..entry });
        }
    }
}

/// The stored score when the entry is deep enough and its bound settles
/// the window.
pub(crate) fn usable(entry: Entry, depth: i32, alpha: i32, beta: i32, ply: usize) -> Option<i32> {
    if entry.depth < depth {
        return None;
    }
    let score = from_table(entry.score, ply);
    let settles = match entry.bound {
        Bound::Exact => true,
        Bound::Lower => score >= beta,
        Bound::Upper => score <= alpha,
    };
    settles.then_some(score)
}

/// A score as stored: mates counted from this node, not from the root.
pub(crate) fn to_table(score: i32, ply: usize) -> i32 {
    let ply = i32::try_from(ply).unwrap_or(0);
    if score > MATE_BOUND {
        score + ply
    } else if score < -MATE_BOUND {
        score - ply
    } else {
        score
    }
}

/// A stored score read at `ply`: mates counted from the root again.
pub(crate) fn from_table(score: i32, ply: usize) -> i32 {
    let ply = i32::try_from(ply).unwrap_or(0);
    if score > MATE_BOUND {
        score - ply
    } else if score < -MATE_BOUND {
        score + ply
    } else {
        score
    }
}
