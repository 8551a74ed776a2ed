//! Perft: counting the leaves of the legal-move tree, to test move generation.
//!
//! [`perft_from_fen`] is the plain recursion (what the benchmark holds
//! against bare shakmaty). [`perft_from_fen_with`] counts the same tree
//! faster for deep searches, the way perft tools do: subtree counts are kept
//! in a shared table keyed by the position's 128-bit Zobrist hash (so a
//! position reached by transposition is expanded once per depth), and the
//! first moves are shared out among worker threads. Both give the same count;
//! the tests hold them against each other.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use shakmaty::uci::UciMove;
use shakmaty::variant::VariantPosition;
use shakmaty::zobrist::Zobrist128;
use shakmaty::{EnPassantMode, Position};

use crate::error::SetupError;
use crate::fen::parse_position_allowing_impossible_check;
use crate::variant::Variant;

/// Counts the leaf nodes of the legal-move tree `depth` plies deep from the
/// position `fen` of `variant` (perft), to test and benchmark move generation.
///
/// Unlike [`Game::from_fen`](crate::Game::from_fen) this accepts a check no
/// game can reach (two aligned sliders giving check, a check the en passant
/// square contradicts), because perft suites contain such positions.
///
/// ```
/// use slowfuse_rules::{Variant, perft_from_fen};
///
/// let fen = "1b1k4/8/8/1rPpK3/8/8/8/8 w - d6";
/// assert_eq!(perft_from_fen(Variant::Standard, fen, 1), Ok(5));
/// ```
///
/// # Errors
///
/// [`SetupError`] when the FEN is malformed or the position otherwise illegal.
pub fn perft_from_fen(variant: Variant, fen: &str, depth: u32) -> Result<u64, SetupError> {
    let (pos, _) = parse_position_allowing_impossible_check(variant, fen)?;
    Ok(perft(&pos, depth))
}

/// How [`perft_from_fen_with`] may use the machine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PerftOptions {
    /// Worker threads sharing the first moves (at least one is used).
    pub threads: usize,
    /// Size of the table of subtree counts in bytes; 0 counts without one.
    pub hash_bytes: usize,
}

impl Default for PerftOptions {
    /// One thread per core and a 256 MiB table.
    fn default() -> PerftOptions {
        PerftOptions {
            threads: std::thread::available_parallelism().map_or(1, usize::from),
            hash_bytes: 256 << 20,
        }
    }
}

/// Below this depth the plain recursion is as fast as setting up threads and
/// a table.
const PLAIN_BELOW_DEPTH: u32 = 5;

/// The same count as [`perft_from_fen`], using a table of subtree counts and
/// worker threads as `options` allow (see the module documentation).
///
/// ```
/// use slowfuse_rules::{PerftOptions, Variant, perft_from_fen_with};
///
/// let options = PerftOptions { threads: 2, hash_bytes: 1 << 20 };
/// let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";
/// assert_eq!(perft_from_fen_with(Variant::Standard, start, 5, options), Ok(4_865_609));
/// ```
///
/// # Errors
///
/// [`SetupError`] when the FEN is malformed or the position otherwise illegal.
pub fn perft_from_fen_with(
    variant: Variant,
    fen: &str,
    depth: u32,
    options: PerftOptions,
) -> Result<u64, SetupError> {
    perft_from_fen_with_progress(variant, fen, depth, options, &|_, _| {})
}

/// As [`perft_from_fen_with`], calling `progress(done, total)` each time the tree below one of
/// the `total` first moves has been counted (only for the deep counts that use threads).
///
/// # Errors
///
/// [`SetupError`] when the FEN is malformed or the position otherwise illegal.
pub fn perft_from_fen_with_progress(
    variant: Variant,
    fen: &str,
    depth: u32,
    options: PerftOptions,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<u64, SetupError> {
    let (pos, _) = parse_position_allowing_impossible_check(variant, fen)?;
    if depth < PLAIN_BELOW_DEPTH {
        return Ok(perft(&pos, depth));
    }
    let table = SubtreeCounts::with_bytes(options.hash_bytes.min(table_bytes_needed(&pos, depth)));
    let children: Vec<VariantPosition> = pos
        .legal_moves()
        .iter()
        .map(|&m| {
            let mut child = pos.clone();
            child.play_unchecked(m);
            child
        })
        .collect();
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let threads = options.threads.clamp(1, children.len().max(1));
    let total = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut leaves = 0;
                    while let Some(child) = children.get(next.fetch_add(1, Ordering::Relaxed)) {
                        leaves += perft_counted(child, depth - 1, &table);
                        progress(done.fetch_add(1, Ordering::Relaxed) + 1, children.len());
                    }
                    leaves
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|worker| worker.join().expect("a perft worker does not panic"))
            .sum()
    });
    Ok(total)
}

/// Perft split by the first move: each legal move of the position `fen`
/// (UCI, as in [`legal_moves_from_fen`](crate::legal_moves_from_fen),
/// sorted) with the leaf count of the tree `depth - 1` plies below it. The
/// counts add up to [`perft_from_fen`]'s; empty for depth 0.
///
/// # Errors
///
/// [`SetupError`] when the FEN is malformed or the position otherwise illegal.
pub fn perft_divide_from_fen(
    variant: Variant,
    fen: &str,
    depth: u32,
) -> Result<Vec<(String, u64)>, SetupError> {
    let (pos, mode) = parse_position_allowing_impossible_check(variant, fen)?;
    if depth == 0 {
        return Ok(Vec::new());
    }
    let mut divided: Vec<(String, u64)> = pos
        .legal_moves()
        .into_iter()
        .map(|m| {
            let mut child = pos.clone();
            child.play_unchecked(m);
            (
                UciMove::from_move(m, mode).to_string(),
                perft(&child, depth - 1),
            )
        })
        .collect();
    divided.sort();
    Ok(divided)
}

/// The plain recursion, counting the last ply's moves without playing them.
pub(crate) fn perft(pos: &VariantPosition, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = pos.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|&m| {
            let mut child = pos.clone();
            child.play_unchecked(m);
            perft(&child, depth - 1)
        })
        .sum()
}

/// About how many bytes a table needs to hold every subtree of two plies
/// that a `depth`-ply perft meets (the positions `depth - 2` plies down,
/// estimated from the branching between plies 2 and 3), so that a small
/// count does not pay for clearing a large table.
fn table_bytes_needed(pos: &VariantPosition, depth: u32) -> usize {
    let two = perft(pos, 2).max(1);
    let three = perft(pos, 3);
    let branching = (three as f64 / two as f64).max(1.0);
    let positions = three as f64 * branching.powi(depth.saturating_sub(5) as i32);
    let slot = std::mem::size_of::<[AtomicU64; 2]>() as f64;
    // Twice the estimate, as the slots are picked by hash and collide.
    let bytes = 2.0 * positions * slot;
    if bytes >= usize::MAX as f64 {
        usize::MAX
    } else {
        bytes as usize
    }
}

/// The recursion with the table: looked up and filled for subtrees of two
/// plies or more (below that, hashing costs more than counting).
fn perft_counted(pos: &VariantPosition, depth: u32, table: &SubtreeCounts) -> u64 {
    if depth < 2 || table.is_empty() {
        return perft(pos, depth);
    }
    let key: Zobrist128 = pos.zobrist_hash(EnPassantMode::Legal);
    if let Some(leaves) = table.get(key, depth) {
        return leaves;
    }
    let leaves = pos
        .legal_moves()
        .iter()
        .map(|&m| {
            let mut child = pos.clone();
            child.play_unchecked(m);
            perft_counted(&child, depth - 1, table)
        })
        .sum();
    table.put(key, depth, leaves);
    leaves
}

/// A fixed-size table of (position, depth) → leaf count, shared by threads
/// without locks. Each slot holds two words: the count packed with the depth,
/// and that word xor the key's check half, so a slot torn by two writers
/// fails the check and reads as a miss (never as a wrong count). The low half
/// of the key picks the slot, the high half is the check: a false hit needs
/// two positions agreeing on all 128 bits of their hash. Newer entries
/// replace older ones.
struct SubtreeCounts {
    slots: Vec<[AtomicU64; 2]>,
}

/// Bits of a packed entry holding the depth; the count is above them.
const DEPTH_BITS: u32 = 8;

impl SubtreeCounts {
    fn with_bytes(bytes: usize) -> SubtreeCounts {
        let wanted = bytes / std::mem::size_of::<[AtomicU64; 2]>();
        // A power of two, so that the slot is the key's low bits.
        let len = if wanted == 0 { 0 } else { 1 << wanted.ilog2() };
        SubtreeCounts {
            slots: (0..len)
                .map(|_| [AtomicU64::new(0), AtomicU64::new(0)])
                .collect(),
        }
    }

    fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    fn slot(&self, key: Zobrist128) -> (&[AtomicU64; 2], u64) {
        let index = (key.0 as usize) & (self.slots.len() - 1);
        let check = (key.0 >> 64) as u64;
        (&self.slots[index], check)
    }

    fn get(&self, key: Zobrist128, depth: u32) -> Option<u64> {
        let (slot, check) = self.slot(key);
        let checked = slot[0].load(Ordering::Relaxed);
        let entry = slot[1].load(Ordering::Relaxed);
        (checked ^ entry == check && entry & ((1 << DEPTH_BITS) - 1) == u64::from(depth))
            .then_some(entry >> DEPTH_BITS)
    }

    fn put(&self, key: Zobrist128, depth: u32, leaves: u64) {
        // A count too large to pack (beyond any perft that finishes) is not kept.
        if leaves >> (64 - DEPTH_BITS) != 0 || depth >= 1 << DEPTH_BITS {
            return;
        }
        let (slot, check) = self.slot(key);
        let entry = (leaves << DEPTH_BITS) | u64::from(depth);
        slot[0].store(check ^ entry, Ordering::Relaxed);
        slot[1].store(entry, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Positions of several variants, each with a tree deep enough to use
    /// the table, and a table so small that entries are replaced all the time.
    #[test]
    fn hashed_and_threaded_counts_equal_the_plain_recursion() {
        let cases = [
            (
                Variant::Standard,
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -",
            ),
            (
                Variant::Atomic,
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -",
            ),
            (
                Variant::Crazyhouse,
                "r1bqk2r/pppp1ppp/2n2n2/4p3/1bB1P3/2N2N2/PPPP1PPP/R1BQK2R[] w KQkq -",
            ),
            (
                Variant::Antichess,
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - -",
            ),
            (
                Variant::ThreeCheck,
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+3",
            ),
            (
                Variant::Chess960,
                "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf -",
            ),
        ];
        for (variant, fen) in cases {
            let plain = perft_from_fen(variant, fen, 5).unwrap();
            for hash_bytes in [0, 4 << 10, 16 << 20] {
                let options = PerftOptions {
                    threads: 2,
                    hash_bytes,
                };
                assert_eq!(
                    perft_from_fen_with(variant, fen, 5, options),
                    Ok(plain),
                    "{variant:?} {fen} with a {hash_bytes}-byte table"
                );
            }
        }
    }

    #[test]
    fn progress_counts_every_first_move_once() {
        let seen = std::sync::Mutex::new(Vec::new());
        let options = PerftOptions {
            threads: 2,
            hash_bytes: 1 << 20,
        };
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";
        let count = perft_from_fen_with_progress(Variant::Standard, start, 5, options, &|d, t| {
            seen.lock().unwrap().push((d, t));
        });
        assert_eq!(count, Ok(4_865_609));
        let mut seen = seen.into_inner().unwrap();
        seen.sort_unstable();
        assert_eq!(seen, (1..=20).map(|d| (d, 20)).collect::<Vec<_>>());
    }

    #[test]
    fn a_torn_or_foreign_slot_reads_as_a_miss() {
        let table = SubtreeCounts::with_bytes(1 << 10);
        let key = Zobrist128(0x1234_5678_9abc_def0_0fed_cba9_8765_4321);
        assert_eq!(table.get(key, 4), None);
        table.put(key, 4, 197_281);
        assert_eq!(table.get(key, 4), Some(197_281));
        assert_eq!(table.get(key, 5), None, "another depth");
        let same_slot = Zobrist128(key.0 ^ (1 << 100));
        assert_eq!(
            table.get(same_slot, 4),
            None,
            "another position in the same slot"
        );
        let (slot, _) = table.slot(key);
        slot[1].store(
            slot[1].load(Ordering::Relaxed) + (1 << DEPTH_BITS),
            Ordering::Relaxed,
        );
        assert_eq!(table.get(key, 4), None, "half of a concurrent write");
    }
}
