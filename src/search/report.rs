//! What a search tells: the progress reported after each iteration (`info` lines) and the
//! outcome. Plain data, shared by the driver and its callers.

use std::time::Duration;

use shakmaty::Move;

use super::stats::Stats;
use crate::types::{Bound, Depth, Score};

/// One line of a completed iteration, as `info depth ... pv ...` reports it.
#[derive(Clone, Debug)]
pub struct IterationInfo<'a> {
    pub depth: Depth,
    pub seldepth: usize,
    /// 1-based index of the line (MultiPV).
    pub multipv: usize,
    pub score: Score,
    pub bound: Bound,
    pub nodes: u64,
    pub elapsed: Duration,
    pub hashfull: u32,
    /// Tablebase probes that answered (the main thread's while the search runs).
    pub tb_hits: u64,
    pub pv: &'a [Move],
}

impl IterationInfo<'_> {
    pub fn nps(&self) -> u64 {
        crate::types::nps(self.nodes, self.elapsed) as u64
    }
}

/// Receives the search's progress (the UCI loop prints it; `bench` and tests ignore it).
pub trait Reporter {
    fn iteration(&mut self, info: &IterationInfo<'_>);
}

/// Reports nothing.
impl Reporter for () {
    fn iteration(&mut self, _: &IterationInfo<'_>) {}
}

/// The result of one search.
#[derive(Clone, Debug)]
pub struct SearchOutcome {
    /// `None` only when the root has no legal move.
    pub best_move: Option<Move>,
    /// The expected reply, when one is known.
    pub ponder_move: Option<Move>,
    /// Exact score of the best move at `depth`, from the side to move's view.
    pub score: Score,
    /// Deepest iteration that produced the result.
    pub depth: Depth,
    pub seldepth: usize,
    pub pv: Vec<Move>,
    pub nodes: u64,
    pub elapsed: Duration,
    pub stats: Stats,
    /// Why the main thread's search failed (a panic's message), when it did: the move is then
    /// the last one it reported, or the first legal one.
    pub failure: Option<String>,
}

impl SearchOutcome {
    /// The outcome before any iteration has finished: no move, no nodes, `score` as a placeholder.
    pub(super) fn nothing_searched(score: Score) -> SearchOutcome {
        SearchOutcome {
            best_move: None,
            ponder_move: None,
            score,
            depth: 0,
            seldepth: 0,
            pv: Vec::new(),
            nodes: 0,
            elapsed: Duration::ZERO,
            stats: Stats::default(),
            failure: None,
        }
    }

    pub fn nps(&self) -> u64 {
        crate::types::nps(self.nodes, self.elapsed) as u64
    }
}
