//! The bench: a fixed-depth search of built-in positions, OpenBench's speed and identity check
//! (`cutoff bench`, in [`crate::cli::bench`]).
//!
//! OpenBench runs `<engine> bench` with no argument, reads the last line for `<N> nodes` and
//! `<M> nps`, and requires the same node count on every run and machine (it goes into commit
//! messages as `Bench: N`). So the search is single-threaded, its table cleared before each
//! position, and nothing depends on the clock.
//!
//! `--threads N` measures Lazy SMP instead: the nodes per second of N threads, and the time
//! they take to complete the same depth on every position (time to depth). Its node counts
//! vary from run to run.

use std::time::{Duration, Instant};

use shakmaty::{CastlingMode, Chess};

use crate::position::{read_fen, FenPolicy, Game};
use crate::search::{Limits, SearchOutcome, Searcher};
use crate::types::{nps, Depth};

/// The node count `cutoff bench` prints for this build (`Bench: N`, the OpenBench signature),
/// named by `cutoff --version`. `tests/bench.rs` holds it to the real bench, so a change that
/// moves the bench cannot leave it behind.
pub const SIGNATURE: u64 = 1_388_568;

/// Search depth when `cutoff bench` gets none; chosen so the whole run takes a few seconds.
pub const DEFAULT_DEPTH: Depth = 10;

/// The deepest `cutoff bench` accepts. Each ply multiplies the run's time by about two: depth
/// 10 takes seconds, so depth 20 already takes hours, and a larger number is a typo that would
/// otherwise run until killed.
pub const MAX_DEPTH: Depth = 20;

/// Transposition table size for the bench, fixed so node counts never depend on settings.
pub const HASH_MB: usize = 16;

/// Openings, middlegames (the Bratko-Kopec test), tactics (Win At Chess), perft's tricky
/// positions (castling, promotions, en passant) and endgames.
pub const POSITIONS: [&str; 50] = [
    // Openings.
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6 0 2",
    "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3",
    "rnbqkb1r/ppp1pppp/5n2/3p4/2PP4/8/PP2PPPP/RNBQKBNR w KQkq - 1 3",
    "rnbqkb1r/pppp1ppp/5n2/4p3/2P5/2N5/PP1PPPPP/R1BQKBNR w KQkq - 2 3",
    "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/3P1N2/PPP2PPP/RNBQK2R w KQkq - 1 5",
    // Bratko-Kopec.
    "1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - 0 1",
    "3r1k2/4npp1/1ppr3p/p6P/P2PPPP1/1NR5/5K2/2R5 w - - 0 1",
    "2q1rr1k/3bbnnp/p2p1pp1/2pPp3/PpP1P1P1/1P2BNNP/2BQ1PRK/7R b - - 0 1",
    "rnbqkb1r/p3pppp/1p6/2ppP3/3N4/2P5/PPP1QPPP/R1B1KB1R w KQkq - 0 1",
    "r1b2rk1/2q1b1pp/p2ppn2/1p6/3QP3/1BN1B3/PPP3PP/R4RK1 w - - 0 1",
    "2r3k1/pppR1pp1/4p3/4P1P1/5P2/1P4K1/P1P5/8 w - - 0 1",
    "1nk1r1r1/pp2n1pp/4p3/q2pPp1N/b1pP1P2/B1P2R2/2P1B1PP/R2Q2K1 w - - 0 1",
    "4b3/p3kp2/6p1/3pP2p/2pP1P2/4K1P1/P3N2P/8 w - - 0 1",
    "2kr1bnr/pbpq4/2n1pp2/3p3p/3P1P1B/2N2N1Q/PPP3PP/2KR1B1R w - - 0 1",
    "3rr1k1/pp3pp1/1qn2np1/8/3p4/PP1R1P2/2P1NQPP/R1B3K1 b - - 0 1",
    "2r1nrk1/p2q1ppp/bp1p4/n1pPp3/P1P1P3/2PBB1N1/4QPPP/R4RK1 w - - 0 1",
    "r3r1k1/ppqb1ppp/8/4p1NQ/8/2P5/PP3PPP/R3R1K1 b - - 0 1",
    "r2q1rk1/4bppp/p2p4/2pP4/3pP3/3Q4/PP1B1PPP/R3R1K1 w - - 0 1",
    "rnb2r1k/pp2p2p/2pp2p1/q2P1p2/8/1Pb2NP1/PB2PPBP/R2Q1RK1 w - - 0 1",
    "2r3k1/1p2q1pp/2b1pr2/p1pp4/6Q1/1P1PP1R1/P1PN2PP/5RK1 w - - 0 1",
    "r1bqkb1r/4npp1/p1p4p/1p1pP1B1/8/1B6/PPPN1PPP/R2Q1RK1 w kq - 0 1",
    "r2q1rk1/1ppnbppp/p2p1nb1/3Pp3/2P1P1P1/2N2N1P/PPB1QP2/R1B2RK1 b - - 0 1",
    "r1bq1rk1/pp2ppbp/2np2p1/2n5/P3PP2/N1P2N2/1PB3PP/R1B1QRK1 b - - 0 1",
    "3rr3/2pq2pk/p2p1pnp/8/2QBPP2/1P6/P5PP/4RRK1 b - - 0 1",
    "r4k2/pb2bp1r/1p1qp2p/3pNp2/3P1P2/2N3P1/PPP1Q2P/2KRR3 w - - 0 1",
    "3rn2k/ppb2rpp/2ppqp2/5N2/2P1P3/1P5Q/PB3PPP/3RR1K1 w - - 0 1",
    "2r2rk1/1bqnbpp1/1p1ppn1p/pP6/N1P1P3/P2B1N1P/1B2QPP1/R2R2K1 b - - 0 1",
    "r1bqk2r/pp2bppp/2p5/3pP3/P2Q1P2/2N1B3/1PP3PP/R4RK1 b kq - 0 1",
    "r2qnrnk/p2b2b1/1p1p2pp/2pPpp2/1PP1P3/PRNBB3/3QNPPP/5RK1 w - - 0 1",
    // Win At Chess.
    "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
    "r1bq1r2/pp4k1/4p2p/3pPp1Q/3N1R1P/2PB4/6P1/6K1 w - - 0 1",
    "r1b1qrk1/2p2ppp/pb1pnn2/1p2pNB1/3PP3/1BP5/PP2QPPP/RN1R2K1 w - - 0 1",
    "5rk1/p5pp/8/8/2Pbp3/1P4P1/7P/4RN1K b - - 0 1",
    "r1bq3r/ppp2pk1/3p1pp1/8/2BbPQ2/2NP2P1/PPP4P/R4R1K b - - 0 1",
    "2b2rk1/p1p4p/2p1p1p1/br2N1Q1/1p2q3/8/PB3PPP/3R1RK1 w - - 0 1",
    "r5k1/pp1RR1pp/1b6/6r1/2p5/B6P/P4qPK/3Q4 w - - 0 1",
    // Perft's tricky positions.
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    // Endgames.
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1",
    "1K1k4/1P6/8/8/8/8/r7/2R5 w - - 0 1",
    "8/5pk1/6p1/7p/7P/6P1/r4PK1/1R6 w - - 0 1",
    "8/8/8/3k4/8/8/7Q/4K3 w - - 0 1",
    "8/3b2kp/4p1p1/pr1n4/N1N4P/1P4P1/1K3P2/3R4 w - - 0 1",
    "k7/p4p2/P1q1b1p1/3p3p/3Q4/7P/5PP1/1R4K1 w - - 0 1",
    "8/8/k7/p7/P7/K7/8/8 w - - 0 1",
];

/// The bench positions, parsed.
pub fn positions() -> Vec<Chess> {
    POSITIONS
        .iter()
        .map(|fen| {
            read_fen(fen, CastlingMode::Standard, FenPolicy::Strict)
                .expect("bench positions are legal")
        })
        .collect()
}

/// Totals of a bench run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Totals {
    pub nodes: u64,
    pub elapsed: Duration,
}

impl Totals {
    /// Nodes per second (whole nodes, as OpenBench reads them).
    pub fn nps(&self) -> u64 {
        nps(self.nodes, self.elapsed) as u64
    }
}

/// Searches every bench position to `depth` on one thread with a fresh table, calling `report`
/// after each.
pub fn bench(depth: Depth, report: impl FnMut(usize, &SearchOutcome)) -> Totals {
    bench_on(&mut Searcher::new(HASH_MB), depth, report)
}

/// [`bench()`] on a searcher the caller set up (its threads: node counts are reproducible only
/// with one); its table is cleared before each position.
pub fn bench_on(
    searcher: &mut Searcher,
    depth: Depth,
    mut report: impl FnMut(usize, &SearchOutcome),
) -> Totals {
    let limits = Limits::depth(depth);
    let start = Instant::now();
    let mut nodes = 0;
    for (i, pos) in positions().into_iter().enumerate() {
        searcher.clear();
        let outcome = searcher.run(&Game::new(pos, CastlingMode::Standard), &limits);
        nodes += outcome.nodes;
        report(i, &outcome);
    }
    Totals {
        nodes,
        elapsed: start.elapsed(),
    }
}
