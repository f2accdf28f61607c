//! The state of one running search: the tables it reads and teaches, its counters, its path
//! (one [`Frame`] per ply), and the stop policy it polls.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use shakmaty::{Chess, Position};

use super::config::{Settings, Steps};
use super::params::POLL_INTERVAL_NODES;
use super::shared::Shared;
use super::stats::Stats;
use super::stop::Control;
use super::stop::StopPolicy;
use super::tables::correction::CorrectionKeys;
use super::tables::history::{Continuation, History, PieceTo};
use super::tables::killers::Killers;
use super::tables::pv::PvTable;
use crate::eval::{Evaluator, EvaluatorKind, Network};
use crate::position::Key;
use crate::types::{Ply, Score, MAX_PLY};

/// Whether the side to move at a node is in check, where the node's caller already knows it:
/// a move's `gives_check` (from the parent's [`crate::position::CheckInfo`]) is exactly the
/// child's `is_check()`, so the child need not work out its checkers again (shakmaty's
/// `is_check` looks up the slider attacks on the king, whose tables miss the cache).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum KnownCheck {
    Known(bool),
    /// Worked out from the position.
    Unknown,
}

impl KnownCheck {
    /// In check or not: as known, else from the position.
    #[inline]
    pub(super) fn resolve(self, pos: &Chess) -> bool {
        match self {
            KnownCheck::Known(in_check) => {
                debug_assert_eq!(in_check, pos.is_check(), "a known check state is exact");
                in_check
            }
            KnownCheck::Unknown => pos.is_check(),
        }
    }
}

/// What the search keeps for one ply of the current path: written when a node at that ply is
/// entered (or, for `moved`, while it searches a child), read by the node and its descendants.
#[derive(Clone, Copy)]
pub(super) struct Frame {
    /// The node's static evaluation; `-INFINITE` in check, where it means nothing.
    pub static_eval: Score,
    /// Quiet moves that cut elsewhere at this ply during this search (the killer heuristic:
    /// per search and per ply, so they live here rather than with the history).
    pub killers: Killers,
    /// The move being searched from this node (`None` for a null move): the continuation
    /// history of the nodes below is keyed by it, and a node after a null move passes no
    /// more (never two in a row).
    pub moved: Option<PieceTo>,
    /// The move a singular-extension search of this node leaves out.
    pub excluded: Option<shakmaty::Move>,
    /// The squares the opponent attacks (empty unless threat history is on), set as the
    /// node's moves are ordered: its quiet history is keyed by them, when read and when
    /// taught.
    pub threats: shakmaty::Bitboard,
    /// How many double extensions (step 10c) the path from the root to this node holds.
    pub double_extensions: u8,
    /// The node's correction-history keys: found by the move door that made it (a null
    /// move's child takes its parent's), at the root by the search's start.
    pub correction_keys: CorrectionKeys,
}

impl Default for Frame {
    fn default() -> Self {
        Frame {
            static_eval: -Score::INFINITE,
            killers: Killers::default(),
            moved: None,
            excluded: None,
            threats: shakmaty::Bitboard::EMPTY,
            double_extensions: 0,
            correction_keys: CorrectionKeys::default(),
        }
    }
}

/// What one search thread keeps from one search to the next: its move-ordering history and
/// its evaluator (the main thread's in the `Searcher`, each helper's in its thread).
pub(super) struct ThreadData {
    pub history: History,
    pub evaluator: Evaluator,
}

impl ThreadData {
    pub fn new(kind: EvaluatorKind, network: Option<&Arc<Network>>) -> ThreadData {
        ThreadData {
            history: History::default(),
            evaluator: Evaluator::new(kind, network),
        }
    }

    /// Evaluates with `kind` (and `network`, for the learned evaluation) from now on: a new
    /// evaluator only when either changed.
    pub fn use_evaluator(&mut self, kind: EvaluatorKind, network: Option<&Arc<Network>>) {
        let same = self.evaluator.kind() == kind
            && match kind {
                EvaluatorKind::Classical => true,
                EvaluatorKind::Net => matches!(
                    (self.evaluator.network(), network),
                    (Some(a), Some(b)) if Arc::ptr_eq(a, b)
                ),
            };
        if !same {
            self.evaluator = Evaluator::new(kind, network);
        }
    }
}

/// What a worker is made of, by name.
pub(super) struct WorkerSetup<'a> {
    pub shared: &'a Shared,
    pub thread: &'a mut ThreadData,
    pub control: &'a Control,
    /// Keys of the game's positions, the root's last.
    pub keys: Vec<Key>,
    pub steps: Steps,
    pub settings: Settings,
}

pub(super) struct Worker<'a> {
    /// Shared with the other threads of the search: the table.
    pub shared: &'a Shared,
    /// This thread's history, kept from one search to the next.
    pub history: &'a mut History,
    /// This thread's evaluator: the one door to the static evaluation.
    pub evaluator: &'a mut Evaluator,
    pub control: &'a Control,
    pub stats: Stats,
    pub pv: PvTable,
    /// Keys of the game's earlier positions and of the path from the root to this node.
    pub keys: Vec<Key>,
    pub seldepth: Ply,
    /// Set once a limit is hit; every node then returns at once and the result is discarded.
    pub stopped: bool,
    /// False while depth 1 runs, which must finish so that a legal move is always ready.
    pub may_stop: bool,
    /// When the search stops: the node and time limits polled here, the rest asked by the root.
    pub stop: StopPolicy,
    /// Which steps the search takes.
    pub steps: Steps,
    /// MultiPV, the table's use and the rest of the setup.
    pub settings: Settings,
    /// Positions below this index of `keys` precede a null move on the current path and
    /// cannot be repeated by it.
    pub repetition_floor: usize,
    /// The search probes the tablebases in positions of at most this many pieces (0: never;
    /// set at the root from the tables, `SyzygyProbeLimit`, and whether the root was ranked).
    pub tb_cardinality: usize,
    /// The current path, one frame per ply (index: the node's ply).
    pub stack: [Frame; MAX_PLY + 2],
    /// 0 for the main thread; helpers count from 1 (it picks which depths they skip).
    pub thread_index: usize,
    /// Where a helper publishes its counters at every poll, for the main thread's reports.
    pub published: Option<&'a Published>,
    /// The helpers' published counters (empty for helpers and single-threaded searches).
    pub helper_counters: &'a [std::sync::Arc<Published>],
}

/// A helper's node and tablebase-hit counts as it publishes them at every poll, summed into the
/// main thread's `info` lines (they lag by up to a poll interval).
#[derive(Default)]
pub struct Published {
    nodes: AtomicU64,
    tb_hits: AtomicU64,
}

impl Published {
    /// Publishes `stats`' counts.
    pub fn store(&self, stats: &Stats) {
        self.nodes.store(stats.nodes, Ordering::Relaxed);
        self.tb_hits.store(stats.tb_hits, Ordering::Relaxed);
    }

    /// Zeroes the counts, before a new search.
    pub fn clear(&self) {
        self.store(&Stats::default());
    }
}

impl<'a> Worker<'a> {
    /// A worker for one search of the main thread from the position on top of `keys`, with
    /// no node or time limit (the caller sets its stop policy, and a helper its index).
    pub fn new(setup: WorkerSetup<'a>) -> Worker<'a> {
        let WorkerSetup {
            shared,
            thread,
            control,
            keys,
            steps,
            settings,
        } = setup;
        Worker {
            shared,
            history: &mut thread.history,
            evaluator: &mut thread.evaluator,
            control,
            stats: Stats::default(),
            pv: PvTable::default(),
            keys,
            seldepth: 0,
            stopped: false,
            may_stop: false,
            stop: StopPolicy::default(),
            steps,
            settings,
            repetition_floor: 0,
            tb_cardinality: 0,
            stack: [Frame::default(); MAX_PLY + 2],
            thread_index: 0,
            published: None,
            helper_counters: &[],
        }
    }
}

impl Worker<'_> {
    /// Whether this worker is a helper thread, whose results only reach the main thread
    /// through the table.
    pub fn is_helper(&self) -> bool {
        self.thread_index > 0
    }

    /// Whether the node at `ply` was reached by a null move: every other node's parent
    /// records the move it is searching before it searches it.
    #[inline]
    pub fn after_null_move(&self, ply: Ply) -> bool {
        ply > 0 && self.stack[ply - 1].moved.is_none()
    }

    /// The moves that led to the node at `ply`, for continuation history.
    #[inline]
    pub fn continuation(&self, ply: Ply) -> Continuation {
        let back = |n: usize| {
            if ply >= n {
                self.stack[ply - n].moved
            } else {
                None
            }
        };
        Continuation([back(1), back(2)])
    }

    /// The evaluator door: the static evaluation of `pos`, the node at `ply`. The search
    /// reaches the evaluation through here only (`tests/architecture.rs` checks it).
    #[inline]
    pub fn evaluate(&mut self, pos: &Chess, ply: Ply) -> Score {
        self.evaluator.evaluate(pos, ply)
    }

    /// The node's evaluation, raw and (step 4b) corrected by what the search learnt about
    /// these pawns (4d: and each side's other pieces; 4e: the minor and the major pieces);
    /// both `-INFINITE` in check, where they mean nothing. `stored` is the raw
    /// evaluation the table kept for this position, if any: the same number the evaluator
    /// would give (a different one only when two keys collide in all the bits the table
    /// checks, or the evaluator changed, which empties the table), found without evaluating.
    #[inline]
    pub fn static_eval(
        &mut self,
        pos: &Chess,
        ply: Ply,
        in_check: bool,
        stored: Option<Score>,
    ) -> (Score, Score) {
        if in_check {
            return (-Score::INFINITE, -Score::INFINITE);
        }
        let raw = match stored {
            Some(raw) => raw,
            None => self.evaluate(pos, ply),
        };
        // The lib's own tests, many of which search, hold the keys the move doors carried to
        // the keys of the position hashed from scratch, at every node that evaluates.
        #[cfg(test)]
        assert_eq!(
            self.stack[ply].correction_keys,
            CorrectionKeys::of(pos),
            "ply {ply}"
        );
        if self.steps.correction_history {
            (
                raw,
                self.history.correction.correct(
                    &self.stack[ply].correction_keys,
                    pos.turn(),
                    raw,
                    self.steps.correction_tables(),
                ),
            )
        } else {
            (raw, raw)
        }
    }

    /// Nodes searched by every thread so far (helpers' counts lag by up to a poll interval).
    pub fn total_nodes(&self) -> u64 {
        self.stats.nodes + self.helpers_sum(|c| &c.nodes)
    }

    /// Tablebase hits of every thread so far (helpers' counts lag by up to a poll interval).
    pub fn total_tb_hits(&self) -> u64 {
        self.stats.tb_hits + self.helpers_sum(|c| &c.tb_hits)
    }

    /// One published counter summed over the helpers.
    fn helpers_sum(&self, counter: impl Fn(&Published) -> &AtomicU64) -> u64 {
        self.helper_counters
            .iter()
            .map(|c| counter(c).load(Ordering::Relaxed))
            .sum()
    }

    #[inline]
    pub fn count_node(&mut self, ply: Ply) {
        self.stats.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if self.may_stop && self.stop.out_of_nodes(self.stats.nodes) {
            self.stopped = true;
        }
        if self.stats.nodes.is_multiple_of(POLL_INTERVAL_NODES) {
            self.poll();
        }
    }

    /// Publishes the counters, looks at the stop flag and the clock.
    fn poll(&mut self) {
        if let Some(published) = self.published {
            published.store(&self.stats);
        }
        if !self.may_stop {
            return;
        }
        if self.stop.stops_now(self.control) {
            self.stopped = true;
        }
    }
}
