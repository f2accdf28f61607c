//! What bounds a search and what it tells: the limits of `go`, the progress reported after
//! each iteration, and the outcome. Plain data, shared by the driver and its callers.

use std::time::Duration;

use shakmaty::Move;

use super::stats::Stats;
use crate::types::{Bound, Depth, Score, MAX_PLY};

/// The deepest iteration the driver starts.
pub const MAX_DEPTH: Depth = MAX_PLY as Depth - 8;

/// The side to move's clock, as `go wtime/btime winc/binc movestogo` give it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    pub time: Duration,
    pub increment: Duration,
    pub moves_to_go: Option<u32>,
}

/// What bounds one search. Everything `None`/empty means "search until stopped".
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub depth: Option<Depth>,
    pub nodes: Option<u64>,
    /// Start no new iteration once this many nodes are searched (data generation's soft limit:
    /// every move ends on a completed depth, unlike the hard `nodes` limit).
    pub soft_nodes: Option<u64>,
    /// `go mate N`: stop as soon as an iteration proves a mate in at most N moves. It sets no
    /// depth: pruning can hide a mate at the nominal depth 2N - 1, so iterations go on (like
    /// `go infinite`, within the other limits) until the mate shows or the search is stopped.
    pub mate: Option<u32>,
    pub movetime: Option<Duration>,
    pub clock: Option<Clock>,
    /// `go infinite`: never stop on your own; only `stop` ends it.
    pub infinite: bool,
    /// Restrict the root to these moves (empty: all legal moves).
    pub searchmoves: Vec<Move>,
}

impl Limits {
    pub fn depth(depth: Depth) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }
    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }
    pub fn movetime(ms: u64) -> Limits {
        Limits {
            movetime: Some(Duration::from_millis(ms)),
            ..Limits::default()
        }
    }

    /// Whether only `stop` can be counted on to end the search: `go infinite`, a bare `go`, or
    /// `go mate` alone (the mate may not exist). The UCI loop stops such a search at end of input.
    pub fn is_endless(&self) -> bool {
        self.infinite
            || (self.depth.is_none()
                && self.nodes.is_none()
                && self.soft_nodes.is_none()
                && self.movetime.is_none()
                && self.clock.is_none())
    }
}

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
