//! Perft: counting the leaves of the legal move tree, the standard check of a move generator.
//!
//! * [`perft`] is the plain single-threaded count, for tests and for `go perft` without options.
//! * [`divide`] gives the count below every root move, optionally spread over threads and
//!   with a perft hash table; the UCI loop calls it for `go perft <depth>`.
//! * [`check_suite`] checks the counts of a perft suite (`cutoff perft-suite`).
//!
//! Speed comes from three things: bulk counting (a node one ply above the leaves counts its
//! legal moves instead of playing them), copy-make (shakmaty has no unmake: clone the parent,
//! then `play_unchecked` on the copy), and splitting the tree two plies below the root so that
//! threads get many small, similar tasks instead of ~20 very uneven root subtrees.

use std::sync::atomic::{AtomicU64, Ordering};

use indicatif::ProgressBar;
use rayon::prelude::*;
use shakmaty::{Chess, Move, Position};

use crate::epd::format::parse_line;
use crate::memory::MIB;
use crate::position::{child_key, full_key, Key};
use crate::threads::worker_pool;

/// The deepest perft accepted (`cutoff perft`, `perft-suite`, `go perft`); deeper requests are
/// refused with an error. Perft 10 of the start position is 69 trillion leaves, days of work
/// here; deeper counts would take years and can overflow 64 bits in busy positions.
pub const MAX_DEPTH: u32 = 10;

/// Below this depth a threaded perft is not worth the cost of building tasks.
const MIN_SPLIT_DEPTH: u32 = 3;

/// Counts the leaf nodes of the legal move tree of `pos` to `depth` plies (1 at depth 0).
///
/// Single-threaded, no hash table: the reference every faster mode is checked against.
pub fn perft(pos: &Chess, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = pos.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut nodes = 0;
    for &m in &moves {
        // The child is built in place: returning it from a helper costs a 136-byte memcpy
        // call per node, which rustc does not elide (about a tenth of perft's time).
        let mut child = pos.clone();
        child.play_unchecked(m);
        nodes += perft(&child, depth - 1);
    }
    nodes
}

/// The count below every legal root move, in shakmaty's move generation order.
///
/// `threads` workers (at least 1) share the work through a private rayon pool, so this is safe
/// to call while another pool is busy. `hash_mb > 0` adds a perft hash table of that size,
/// shared by the workers; results stay exact (see [`PerftTable`]). At depth 0 there are no
/// root moves to divide and the list is empty (the perft is 1).
pub fn divide(pos: &Chess, depth: u32, threads: usize, hash_mb: usize) -> Vec<(Move, u64)> {
    divide_with(pos, depth, threads, PerftTable::new(hash_mb).as_ref())
}

/// [`divide`] with a table the caller made (or none).
pub fn divide_with(
    pos: &Chess,
    depth: u32,
    threads: usize,
    table: Option<&PerftTable>,
) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let roots: Vec<(Move, Chess)> = pos
        .legal_moves()
        .iter()
        .map(|&m| (m, play(pos, m)))
        .collect();
    let threads = threads.max(1);
    if threads == 1 || depth < MIN_SPLIT_DEPTH {
        return roots
            .iter()
            .map(|(m, child)| (*m, count(child, depth - 1, table)))
            .collect();
    }
    divide_parallel(&roots, depth, threads, table)
}

/// [`divide`]'s total: the perft of `pos`, with threads and an optional hash table.
pub fn perft_with(pos: &Chess, depth: u32, threads: usize, hash_mb: usize) -> u64 {
    if depth == 0 {
        return 1;
    }
    divide(pos, depth, threads, hash_mb)
        .iter()
        .map(|(_, n)| n)
        .sum()
}

/// The tasks are the positions two plies below the root: ~400 from the start position, small
/// enough that no thread waits long for the last one.
fn divide_parallel(
    roots: &[(Move, Chess)],
    depth: u32,
    threads: usize,
    table: Option<&PerftTable>,
) -> Vec<(Move, u64)> {
    let tasks: Vec<(usize, Chess)> = roots
        .iter()
        .enumerate()
        .flat_map(|(i, (_, child))| {
            child
                .legal_moves()
                .into_iter()
                .map(move |m| (i, play(child, m)))
        })
        .collect();
    let task = |(i, grandchild): &(usize, Chess)| (*i, count(grandchild, depth - 2, table));
    let counts: Vec<(usize, u64)> = match worker_pool(threads, "perft") {
        Some(pool) => pool.install(|| tasks.par_iter().map(task).collect()),
        None => tasks.iter().map(task).collect(),
    };
    let mut totals: Vec<(Move, u64)> = roots.iter().map(|(m, _)| (*m, 0)).collect();
    for (i, n) in counts {
        totals[i].1 += n;
    }
    totals
}

/// Perft of one subtree, with the hash table when there is one.
fn count(pos: &Chess, depth: u32, table: Option<&PerftTable>) -> u64 {
    match table {
        Some(table) if depth >= PerftTable::MIN_DEPTH => {
            perft_hashed(pos, full_key(pos), depth, table)
        }
        _ => perft(pos, depth),
    }
}

/// Perft that looks up and stores every subtree of depth ≥ [`PerftTable::MIN_DEPTH`].
/// `key` is the Zobrist key of `pos`, updated incrementally on the way down.
fn perft_hashed(pos: &Chess, key: Key, depth: u32, table: &PerftTable) -> u64 {
    if depth < PerftTable::MIN_DEPTH {
        return perft(pos, depth);
    }
    if let Some(n) = table.probe(key, depth) {
        return n;
    }
    let mut n = 0;
    for &m in &pos.legal_moves() {
        let mut child = pos.clone();
        child.play_unchecked(m);
        n += if depth == PerftTable::MIN_DEPTH {
            // The children are not looked up, so their keys are not needed.
            perft(&child, depth - 1)
        } else {
            perft_hashed(&child, child_key(pos, key, m, &child), depth - 1, table)
        };
    }
    table.store(key, depth, n);
    n
}

/// Copy-make: the position after the legal move `m` (off the hot path: see [`perft`]).
fn play(pos: &Chess, m: Move) -> Chess {
    let mut child = pos.clone();
    child.play_unchecked(m);
    child
}

/// A lock-free, always-replace perft hash table shared by the worker threads.
///
/// Each slot holds the full 64-bit Zobrist key and a data word (`count << 8 | depth`). The key
/// is stored XORed with the data word (Hyatt's lockless hashing), so a slot torn by two threads
/// writing at once fails verification instead of returning a wrong count. A hit needs the full
/// key and the depth to match, so the only way to a wrong total is two positions sharing a
/// 64-bit key, which perft sizes make vanishingly unlikely.
pub struct PerftTable {
    slots: Vec<Slot>,
}

#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

impl PerftTable {
    /// Subtrees shallower than this are recounted: a lookup costs more than a few move lists.
    const MIN_DEPTH: u32 = 2;
    const DEPTH_BITS: u32 = 8;
    const DEPTH_MASK: u64 = (1 << Self::DEPTH_BITS) - 1;
    /// Counts must fit beside the depth in one word.
    const MAX_COUNT: u64 = u64::MAX >> Self::DEPTH_BITS;
    /// Spreads the depths of one position over different slots (a 64-bit odd constant).
    const DEPTH_MIX: u64 = 0x9E37_79B9_7F4A_7C15;

    /// A table of `hash_mb` MiB, or `None` for 0 or when the memory cannot be had (counts
    /// are exact either way; see [`PerftTable::try_new`] to hear why there is none).
    pub fn new(hash_mb: usize) -> Option<PerftTable> {
        Self::try_new(hash_mb).unwrap_or(None)
    }

    /// A table of `hash_mb` MiB (`None` for 0), or an error when it cannot be allocated:
    /// never an abort on allocation failure.
    pub fn try_new(hash_mb: usize) -> Result<Option<PerftTable>, String> {
        let too_big = || format!("cannot allocate {hash_mb} MiB for the perft hash table");
        let len = hash_mb.checked_mul(MIB).ok_or_else(too_big)? / std::mem::size_of::<Slot>();
        if len == 0 {
            return Ok(None);
        }
        let mut slots = Vec::new();
        slots.try_reserve_exact(len).map_err(|_| too_big())?;
        slots.resize_with(len, Slot::default);
        Ok(Some(PerftTable { slots }))
    }

    fn slot(&self, key: Key, depth: u32) -> &Slot {
        let mixed = key ^ u64::from(depth).wrapping_mul(Self::DEPTH_MIX);
        // Multiply-shift maps the 64-bit key onto 0..len without a power-of-two size.
        let index = ((u128::from(mixed) * self.slots.len() as u128) >> 64) as usize;
        &self.slots[index]
    }

    fn probe(&self, key: Key, depth: u32) -> Option<u64> {
        let slot = self.slot(key, depth);
        let data = slot.data.load(Ordering::Relaxed);
        let check = slot.check.load(Ordering::Relaxed);
        (check ^ data == key && data & Self::DEPTH_MASK == u64::from(depth))
            .then_some(data >> Self::DEPTH_BITS)
    }

    fn store(&self, key: Key, depth: u32, count: u64) {
        if count > Self::MAX_COUNT || u64::from(depth) > Self::DEPTH_MASK {
            return;
        }
        let data = count << Self::DEPTH_BITS | u64::from(depth);
        let slot = self.slot(key, depth);
        slot.data.store(data, Ordering::Relaxed);
        slot.check.store(key ^ data, Ordering::Relaxed);
    }
}

/// One count of a suite that perft did not reproduce.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    pub line: usize,
    pub fen: String,
    pub depth: u32,
    pub expected: u64,
    pub found: u64,
}

/// What checking a suite found.
#[derive(Clone, Debug, Default)]
pub struct SuiteReport {
    pub positions: usize,
    /// Counts compared with perft.
    pub checked: usize,
    /// Leaf nodes counted in total.
    pub nodes: u64,
    pub mismatches: Vec<Mismatch>,
    /// Lines that could not be read, with the reason (line number first).
    pub errors: Vec<(usize, String)>,
}

impl SuiteReport {
    pub fn passed(&self) -> bool {
        self.mismatches.is_empty() && self.errors.is_empty()
    }
}

/// A suite line reduced to what perft needs.
struct SuiteCase {
    line: usize,
    fen: String,
    pos: Chess,
    counts: Vec<(u32, u64)>,
}

/// Checks every `(line, text)` of a perft suite up to `max_depth`, spreading the positions over
/// `threads` workers. `progress` is ticked once per position.
pub fn check_suite(
    lines: &[(usize, String)],
    max_depth: Option<u32>,
    threads: usize,
    progress: &ProgressBar,
) -> SuiteReport {
    let mut report = SuiteReport::default();
    let mut cases = Vec::new();
    for (line, text) in lines {
        match suite_case(*line, text, max_depth) {
            Ok(Some(case)) => cases.push(case),
            Ok(None) => {}
            Err(e) => report.errors.push((*line, e)),
        }
    }
    report.positions = cases.len();
    progress.set_length(cases.len() as u64);
    let task = |case: &SuiteCase| {
        let result = check_case(case);
        progress.inc(1);
        result
    };
    let results: Vec<(usize, u64, Vec<Mismatch>)> = match worker_pool(threads, "perft-suite") {
        Some(pool) => pool.install(|| cases.par_iter().map(task).collect()),
        None => cases.iter().map(task).collect(),
    };
    for (checked, nodes, mismatches) in results {
        report.checked += checked;
        report.nodes += nodes;
        report.mismatches.extend(mismatches);
    }
    report
}

/// Parses one suite line; `None` for blank and comment lines.
fn suite_case(
    line: usize,
    text: &str,
    max_depth: Option<u32>,
) -> Result<Option<SuiteCase>, String> {
    let Some(record) = parse_line(text)? else {
        return Ok(None);
    };
    let mut counts = record.perft_counts()?;
    if counts.is_empty() {
        return Err("no `D<depth> <count>` operation".to_owned());
    }
    counts.retain(|&(d, _)| max_depth.is_none_or(|max| d <= max));
    if let Some(&(depth, _)) = counts.iter().find(|&&(d, _)| d > MAX_DEPTH) {
        return Err(format!(
            "D{depth}: depth beyond the maximum {MAX_DEPTH} (lower it or use --max-depth)"
        ));
    }
    Ok(Some(SuiteCase {
        line,
        fen: record.fen,
        pos: record.position,
        counts,
    }))
}

/// Returns (counts checked, nodes counted, mismatches) for one position.
fn check_case(case: &SuiteCase) -> (usize, u64, Vec<Mismatch>) {
    let mut nodes = 0;
    let mut mismatches = Vec::new();
    for &(depth, expected) in &case.counts {
        let found = perft(&case.pos, depth);
        nodes += found;
        if found != expected {
            mismatches.push(Mismatch {
                line: case.line,
                fen: case.fen.clone(),
                depth,
                expected,
                found,
            });
        }
    }
    (case.counts.len(), nodes, mismatches)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::{read_fen, FenPolicy};
    use shakmaty::CastlingMode;

    const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

    fn kiwipete() -> Chess {
        read_fen(KIWIPETE, CastlingMode::Standard, FenPolicy::Strict).unwrap()
    }

    #[test]
    fn table_returns_only_what_was_stored_for_that_key_and_depth() {
        let table = PerftTable::new(1).unwrap();
        table.store(0xABCD, 3, 97_862);
        assert_eq!(table.probe(0xABCD, 3), Some(97_862));
        assert_eq!(table.probe(0xABCD, 4), None);
        assert_eq!(table.probe(0xABCE, 3), None);
    }

    #[test]
    fn zero_megabytes_means_no_table() {
        assert!(PerftTable::new(0).is_none());
    }

    #[test]
    fn an_impossible_table_size_is_an_error_not_an_abort() {
        assert!(PerftTable::try_new(usize::MAX).is_err());
        assert!(PerftTable::try_new(usize::MAX / MIB).is_err());
        assert!(PerftTable::new(usize::MAX / MIB).is_none());
    }

    #[test]
    fn threaded_hashed_divide_matches_plain_perft_per_move() {
        let pos = kiwipete();
        let plain: Vec<(Move, u64)> = pos
            .legal_moves()
            .iter()
            .map(|&m| (m, perft(&play(&pos, m), 2)))
            .collect();
        assert_eq!(divide(&pos, 3, 2, 1), plain);
    }

    #[test]
    fn depth_zero_is_one_node_and_no_root_moves() {
        assert_eq!(perft(&Chess::default(), 0), 1);
        assert_eq!(perft_with(&Chess::default(), 0, 2, 1), 1);
        assert!(divide(&Chess::default(), 0, 2, 1).is_empty());
    }
}
