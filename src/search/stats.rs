//! Counters that show how well the search prunes. The definitions match the reference
//! alpha-beta of the lab (`lab/`) so that its figures and the engine's can be compared:
//! - a *node* is a position visited (main search and quiescence, the root included);
//! - a *beta cutoff* is a node where a move's score reached beta and ended the node's search;
//! - a *first-move cutoff* is a beta cutoff made by the first move searched at that node.

use std::fmt;
use std::time::Duration;

/// Per-search counters.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Every position visited (main search and quiescence).
    pub nodes: u64,
    /// The part of `nodes` visited by quiescence search.
    pub qnodes: u64,
    pub tt_probes: u64,
    pub tt_hits: u64,
    /// Nodes where a move failed high (score >= beta) and the remaining moves were skipped.
    pub beta_cutoffs: u64,
    /// Those of `beta_cutoffs` made by the first move searched.
    pub first_move_cutoffs: u64,
    /// Tablebase probes that answered (root moves ranked by the tables count one each).
    pub tb_hits: u64,
    /// Nodes searched by each completed iteration, depth 1 first.
    pub iteration_nodes: Vec<u64>,
    /// With helper threads: the main thread's own share of `nodes` (the rest is the helpers'),
    /// shown so that the total can be checked to include the helpers.
    pub main_thread_nodes: Option<u64>,
    /// Why helper threads failed (a panic's message, one entry each): their search is lost,
    /// the main thread's move still stands, and the callers say so (the UCI loop with an
    /// `info string error`, tests by failing).
    pub helper_failures: Vec<String>,
}

fn percent(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        100.0 * part as f64 / whole as f64
    }
}

impl Stats {
    /// Counts a beta cutoff made by the move searched `index`-th (0: the first).
    #[inline]
    pub fn count_cutoff(&mut self, index: usize) {
        self.beta_cutoffs += 1;
        if index == 0 {
            self.first_move_cutoffs += 1;
        }
    }

    /// Adds another thread's counters (its iterations are not the main thread's: left out).
    pub fn absorb(&mut self, other: &Stats) {
        self.nodes += other.nodes;
        self.qnodes += other.qnodes;
        self.tt_probes += other.tt_probes;
        self.tt_hits += other.tt_hits;
        self.beta_cutoffs += other.beta_cutoffs;
        self.first_move_cutoffs += other.first_move_cutoffs;
        self.tb_hits += other.tb_hits;
        self.helper_failures
            .extend(other.helper_failures.iter().cloned());
    }

    /// Share of beta cutoffs made by the first move: how often move ordering was right.
    pub fn first_move_cutoff_percent(&self) -> f64 {
        percent(self.first_move_cutoffs, self.beta_cutoffs)
    }

    pub fn qnode_percent(&self) -> f64 {
        percent(self.qnodes, self.nodes)
    }

    pub fn tt_hit_percent(&self) -> f64 {
        percent(self.tt_hits, self.tt_probes)
    }

    /// Effective branching factor b*: the branching factor of a uniform tree of the searched
    /// depth d holding as many nodes, N = b*^d, so b* = N^(1/d) with N all nodes of the
    /// iterative deepening. Minimax on chess has b* ≈ 35; perfect alpha-beta about its square
    /// root; pruning and reductions take it lower. `None` before depth 2.
    pub fn effective_branching_factor(&self) -> Option<f64> {
        let depth = self.iteration_nodes.len();
        if depth < 2 || self.nodes == 0 {
            return None;
        }
        Some((self.nodes as f64).powf(1.0 / depth as f64))
    }

    /// The one-line summary the UCI loop prints as `info string` before `bestmove`.
    pub fn summary(&self, elapsed: Duration) -> StatsSummary<'_> {
        StatsSummary {
            stats: self,
            elapsed,
        }
    }
}

/// `key=value` pairs, so that tests and scripts can read them.
pub struct StatsSummary<'a> {
    stats: &'a Stats,
    elapsed: Duration,
}

impl fmt::Display for StatsSummary<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self.stats;
        let nps = crate::types::nps(s.nodes, self.elapsed) as u64;
        write!(
            f,
            "stats nodes={} qnodes={:.1}% nps={} tthits={:.1}% cutoffs={} firstmovecutoffs={:.1}%",
            s.nodes,
            s.qnode_percent(),
            nps,
            s.tt_hit_percent(),
            s.beta_cutoffs,
            s.first_move_cutoff_percent()
        )?;
        match s.effective_branching_factor() {
            Some(ebf) => write!(f, " ebf={ebf:.2}")?,
            None => write!(f, " ebf=n/a")?,
        }
        write!(f, " tbhits={}", s.tb_hits)?;
        if let Some(main) = s.main_thread_nodes {
            write!(f, " mainthreadnodes={main}")?;
        }
        Ok(())
    }
}
