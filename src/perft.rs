//! Perft: counting the leaves of the legal move tree, the standard check of a move generator.
//!
//! * [`perft`] is the plain single-threaded count, for tests and for `go perft` without options.
//! * [`divide`] gives the count below every root move, optionally spread over threads and
//!   with a perft hash table; the UCI loop calls it for `go perft <depth>`.
//! * [`run`] and [`run_suite`] are the `cutoff perft` and `cutoff perft-suite` commands.
//!
//! Speed comes from three things: bulk counting (a node one ply above the leaves counts its
//! legal moves instead of playing them), copy-make (shakmaty has no unmake: clone the parent,
//! then `play_unchecked` on the copy), and splitting the tree two plies below the root so that
//! threads get many small, similar tasks instead of ~20 very uneven root subtrees.

use std::io::Read;
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Move, Position};

use crate::epd;
use crate::position::{child_key, full_key, Key};

/// Bytes in a mebibyte, for `--hash` sizes.
const MIB: usize = 1 << 20;

/// The deepest perft accepted (`cutoff perft`, `perft-suite`, `go perft`); deeper requests are
/// refused with an error. Perft 10 of the start position is 69 trillion leaves, days of work
/// here; deeper counts would take years and can overflow 64 bits in busy positions.
pub const MAX_DEPTH: u32 = 10;

/// Below this depth a threaded perft is not worth the cost of building tasks.
const MIN_SPLIT_DEPTH: u32 = 3;

/// Stack size of perft worker threads: deep perfts keep a 2 KB move list per ply.
const WORKER_STACK_BYTES: usize = 16 * MIB;

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
    let counts: Vec<(usize, u64)> = match worker_pool(threads, WORKER_STACK_BYTES, "perft") {
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

/// `go perft <depth>` inside the UCI loop, in Stockfish's format: `<move>: <count>` per root
/// move in the game's castling notation, a blank line, `Nodes searched: <total>`, then the
/// speed as an `info string`. Uses every core and no hash table (exact, and nothing to size).
pub fn uci_perft(game: &crate::position::Game, depth: u32) {
    use crate::uci::engine::{send, send_error};
    if depth > MAX_DEPTH {
        return send_error(&format!(
            "go perft: depth {depth} is beyond the maximum {MAX_DEPTH}"
        ));
    }
    let start = Instant::now();
    let moves = divide(&game.root, depth, default_threads(), 0);
    let total: u64 = if depth == 0 {
        1
    } else {
        moves.iter().map(|(_, n)| n).sum()
    };
    let elapsed = start.elapsed();
    for (m, n) in &moves {
        send(&format!("{}: {n}", game.uci(*m)));
    }
    send("");
    send(&format!("Nodes searched: {total}"));
    send(&format!(
        "info string perft {total} nodes in {} ms ({:.1} Mnps)",
        elapsed.as_millis(),
        mnps(total, elapsed)
    ));
}

/// The number of threads to use when none is given: every core.
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// A pool of `threads` workers (at least 1) with `stack` bytes of stack each. When the system
/// will not give that many threads (a process or memory limit), tries half as many, and so on,
/// saying so on stderr; `None` when not even one can be started (the caller then works on its
/// own thread). Never a panic.
pub fn worker_pool(threads: usize, stack: usize, what: &str) -> Option<rayon::ThreadPool> {
    let mut n = threads.max(1);
    loop {
        match rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .stack_size(stack)
            .build()
        {
            Ok(pool) => return Some(pool),
            Err(e) if n > 1 => {
                eprintln!("{what}: cannot start {n} threads ({e}); trying {}", n / 2);
                n /= 2;
                // The threads of the failed attempt exit on their own: give them a moment to
                // hand back their stacks.
                std::thread::sleep(Duration::from_millis(50));
            }
            Err(e) => {
                eprintln!("{what}: cannot start a worker thread ({e}); working on the main one");
                return None;
            }
        }
    }
}

/// Most worker threads a command accepts (`--threads`, `--jobs`): each gets a large stack.
pub const MAX_THREADS: usize = 1024;

/// `--threads` as given (at least 1), all cores when absent, refused beyond [`MAX_THREADS`].
pub fn checked_threads(threads: Option<usize>) -> Result<usize, String> {
    match threads {
        None => Ok(default_threads()),
        Some(n) if n > MAX_THREADS => {
            Err(format!("{n} threads is beyond the maximum {MAX_THREADS}"))
        }
        Some(n) => Ok(n.max(1)),
    }
}

/// Command-line arguments of `cutoff perft`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Plies to count.
    pub depth: u32,
    /// Start position (default: the standard start). May be given quoted or as separate words.
    #[arg(long, num_args = 1..)]
    pub fen: Vec<String>,
    /// Print the count below every root move (`e2e4: 9771`), as Stockfish's `go perft`.
    #[arg(long)]
    pub divide: bool,
    /// Worker threads (default: all cores).
    #[arg(long, short = 't')]
    pub threads: Option<usize>,
    /// Read Chess960 castling rights (Shredder-FEN or X-FEN); print castling as king-takes-rook.
    #[arg(long)]
    pub chess960: bool,
    /// Perft hash table size in MiB (0: none).
    #[arg(long, default_value_t = 0)]
    pub hash: usize,
}

/// `cutoff perft`: the total (and with `--divide` the per-move counts) on stdout.
pub fn run(args: Args) -> ExitCode {
    let mode = if args.chess960 {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    };
    let pos = match parse_fen(&args.fen.join(" "), mode) {
        Ok(pos) => pos,
        Err(e) => {
            eprintln!("perft: {e}");
            return ExitCode::FAILURE;
        }
    };
    if args.depth > MAX_DEPTH {
        eprintln!(
            "perft: depth {} is beyond the maximum {MAX_DEPTH} (it would never finish)",
            args.depth
        );
        return ExitCode::FAILURE;
    }
    let threads = match checked_threads(args.threads) {
        Ok(n) => n,
        Err(e) => {
            eprintln!("perft: {e}");
            return ExitCode::FAILURE;
        }
    };
    // Checked against the memory available first: with overcommit, a reservation that
    // succeeds can still get the process killed once the table is filled in.
    let table = match crate::memory::check_table_size("perft hash table", args.hash, 0)
        .and_then(|()| PerftTable::try_new(args.hash))
    {
        Ok(table) => table,
        Err(e) => {
            eprintln!("perft: {e}");
            return ExitCode::FAILURE;
        }
    };
    let start = Instant::now();
    let (total, moves) = if args.depth == 0 {
        (1, Vec::new())
    } else {
        let moves = divide_with(&pos, args.depth, threads, table.as_ref());
        (moves.iter().map(|(_, n)| n).sum(), moves)
    };
    let elapsed = start.elapsed();
    if args.divide {
        for (m, n) in &moves {
            println!("{}: {n}", m.to_uci(mode));
        }
        println!();
    }
    println!("Nodes searched: {total}");
    println!("Time: {} ms", elapsed.as_millis());
    println!("Speed: {:.1} Mnps", mnps(total, elapsed));
    ExitCode::SUCCESS
}

/// Millions of nodes per second (0 for an unmeasurably short run).
pub fn mnps(nodes: u64, elapsed: Duration) -> f64 {
    let secs = elapsed.as_secs_f64();
    if secs > 0.0 {
        nodes as f64 / secs / 1e6
    } else {
        0.0
    }
}

/// Parses a FEN (empty: the start position) in the given castling mode.
fn parse_fen(text: &str, mode: CastlingMode) -> Result<Chess, String> {
    if text.trim().is_empty() {
        return Ok(Chess::default());
    }
    let fen = Fen::from_ascii(text.trim().as_bytes()).map_err(|e| format!("bad FEN: {e}"))?;
    epd::position_from(fen, mode).map_err(|e| {
        let hint = if mode == CastlingMode::Standard {
            " (Chess960 castling rights need --chess960)"
        } else {
            ""
        };
        format!("illegal position: {e}{hint}")
    })
}

/// Command-line arguments of `cutoff perft-suite`.
#[derive(clap::Args, Debug)]
pub struct SuiteArgs {
    /// Suite file: one `<fen> ;D1 <n> ;D2 <n> ...` per line.
    pub file: std::path::PathBuf,
    /// Check only depths up to this one (default: every depth in the file).
    #[arg(long)]
    pub max_depth: Option<u32>,
    /// Worker threads; positions are spread over them (default: all cores).
    #[arg(long, short = 't')]
    pub threads: Option<usize>,
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
    let results: Vec<(usize, u64, Vec<Mismatch>)> =
        match worker_pool(threads, WORKER_STACK_BYTES, "perft-suite") {
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
    let Some(record) = epd::parse_line(text)? else {
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

/// `cutoff perft-suite`: one line per mismatch or unreadable line, then a summary; fails on any.
pub fn run_suite(args: SuiteArgs) -> ExitCode {
    let lines = match read_lines(&args.file) {
        Ok(lines) => lines,
        Err(e) => {
            eprintln!("perft-suite: cannot read {}: {e}", args.file.display());
            return ExitCode::FAILURE;
        }
    };
    let threads = match checked_threads(args.threads) {
        Ok(n) => n,
        Err(e) => {
            eprintln!("perft-suite: {e}");
            return ExitCode::FAILURE;
        }
    };
    let progress = progress_bar(0, "positions");
    let start = Instant::now();
    let report = check_suite(&lines, args.max_depth, threads, &progress);
    let elapsed = start.elapsed();
    progress.finish_and_clear();
    for (line, e) in &report.errors {
        println!("ERROR line {line}: {e}");
    }
    for m in &report.mismatches {
        println!(
            "MISMATCH line {}: {} depth {} expected {} found {}",
            m.line, m.fen, m.depth, m.expected, m.found
        );
    }
    println!(
        "{} positions, {} counts checked, {} mismatches, {} unreadable lines; {} nodes in {:.2} s ({:.1} Mnps)",
        report.positions,
        report.checked,
        report.mismatches.len(),
        report.errors.len(),
        report.nodes,
        elapsed.as_secs_f64(),
        mnps(report.nodes, elapsed)
    );
    if report.positions == 0 && report.errors.is_empty() {
        eprintln!(
            "perft-suite: no positions in {} (expected `<fen> ;D1 <n> ...` lines)",
            args.file.display()
        );
        return ExitCode::FAILURE;
    }
    if report.passed() {
        ExitCode::SUCCESS
    } else if !report.errors.is_empty() {
        let (line, e) = &report.errors[0];
        eprintln!(
            "perft-suite: {} unreadable lines in {} (first: line {line}: {e})",
            report.errors.len(),
            args.file.display()
        );
        ExitCode::FAILURE
    } else {
        eprintln!(
            "perft-suite: {} counts do not match",
            report.mismatches.len()
        );
        ExitCode::FAILURE
    }
}

/// The largest suite file read: far above any real suite, and a bound on the memory that
/// reading an endless input (`/dev/zero`, a FIFO) could take.
pub const MAX_FILE_BYTES: u64 = 256 << 20;

/// The lines of a text file with their 1-based numbers. Refuses files over
/// [`MAX_FILE_BYTES`] and files that are not UTF-8, saying where the bad byte is.
pub fn read_lines(path: &std::path::Path) -> std::io::Result<Vec<(usize, String)>> {
    let file = std::fs::File::open(path)?;
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(std::io::Error::other(format!(
            "larger than {} MiB",
            MAX_FILE_BYTES >> 20
        )));
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!(
                "not UTF-8 text (bad byte at offset {})",
                e.utf8_error().valid_up_to()
            ),
        )
    })?;
    Ok(text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.to_string()))
        .collect())
}

/// A progress bar on stderr (hidden when stderr is not a terminal).
pub fn progress_bar(len: u64, unit: &str) -> ProgressBar {
    let bar = ProgressBar::new(len);
    let template = format!("{{bar:40}} {{pos}}/{{len}} {unit} [{{elapsed_precise}}, eta {{eta}}]");
    if let Ok(style) = ProgressStyle::with_template(&template) {
        bar.set_style(style);
    }
    bar
}

#[cfg(test)]
mod tests {
    use super::*;

    const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

    fn kiwipete() -> Chess {
        parse_fen(KIWIPETE, CastlingMode::Standard).unwrap()
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

    #[test]
    fn chess960_fen_needs_chess960_mode() {
        let fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
        assert!(parse_fen(fen, CastlingMode::Standard).is_err());
        assert!(parse_fen(fen, CastlingMode::Chess960).is_ok());
    }
}
