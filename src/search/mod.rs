//! The search: iterative deepening ([`root`]) over alpha-beta ([`alphabeta`]) with quiescence
//! ([`quiescence`]), move ordering ([`ordering`]), a principal-variation table ([`pv`]) and a
//! time manager ([`time`]). [`Searcher`] is the entry point for the UCI loop, `bench`, `epd`
//! and the tests; this file is only that front, the submodules never look back up at it.

mod alphabeta;
mod config;
mod control;
mod limits;
pub mod ordering;
pub mod pv;
mod quiescence;
mod root;
pub mod see;
pub mod stats;
mod threads;
pub mod time;
mod worker;

use std::sync::Arc;
use std::time::{Duration, Instant};

use shakmaty::Chess;

use crate::params::DEFAULT_MOVE_OVERHEAD_MS;
use crate::position::{full_key, Game, Key};
use crate::tt::TranspositionTable;
use crate::types::Score;
pub use config::TtPolicy;
pub use control::Control;
pub use limits::{Clock, IterationInfo, Limits, Reporter, SearchOutcome, MAX_DEPTH};
use ordering::Tables;
use root::{ponder_from_tt, root_keys, root_moves, RootSearch};
pub use stats::Stats;
use threads::{HelperPool, Job};
use time::TimeBudget;
use worker::{Worker, WorkerSettings};

/// Owns everything that survives between searches: the transposition table, the move
/// ordering heuristics, and the helper threads (each with heuristics of its own).
pub struct Searcher {
    /// Shared with the helper threads while a search runs, with nobody between searches.
    tt: Arc<TranspositionTable>,
    tables: Tables,
    helpers: HelperPool,
    hash_mb: usize,
    /// Lines to report per iteration (UCI `MultiPV`).
    pub multipv: usize,
    /// Subtracted from every time budget for GUI and pipe latency (UCI `Move Overhead`).
    pub move_overhead: Duration,
    pub tt_policy: TtPolicy,
    /// Selective search (null-move pruning, reductions, ...). Off, the search is plain
    /// alpha-beta with quiescence, whose fixed-depth value does not depend on move order or
    /// window: the tests compare against it.
    pub selective: bool,
}

impl Searcher {
    pub fn new(hash_mb: usize) -> Searcher {
        Searcher {
            tt: Arc::new(TranspositionTable::new(hash_mb)),
            tables: Tables::default(),
            helpers: HelperPool::default(),
            hash_mb,
            multipv: 1,
            move_overhead: Duration::from_millis(DEFAULT_MOVE_OVERHEAD_MS),
            tt_policy: TtPolicy::default(),
            selective: true,
        }
    }

    pub fn hash_mb(&self) -> usize {
        self.hash_mb
    }

    /// Re-allocates the transposition table (emptying it).
    pub fn resize_hash(&mut self, mb: usize) -> Result<(), String> {
        // Between searches the helpers hold no reference to the table.
        Arc::get_mut(&mut self.tt)
            .ok_or("the hash table is still in use by a search thread")?
            .resize(mb)?;
        self.hash_mb = mb;
        Ok(())
    }

    /// Threads searching, the main thread included (UCI `Threads`).
    pub fn threads(&self) -> usize {
        self.helpers.threads()
    }

    /// Searches with `threads` threads from now on: helper threads are started or ended now,
    /// not per search. On failure the previous number stays.
    pub fn set_threads(&mut self, threads: usize) -> Result<(), String> {
        self.helpers.set_threads(threads)
    }

    /// Forgets everything learnt (transposition table, killers, history): a new game.
    pub fn clear(&mut self) {
        match Arc::get_mut(&mut self.tt) {
            Some(tt) => tt.clear(),
            // Between searches nobody else holds the table; should a helper still, it keeps
            // the old one and this searcher takes a fresh one.
            None => self.tt = Arc::new(TranspositionTable::new(self.hash_mb)),
        }
        self.tables.clear();
        self.helpers.clear();
    }

    /// A worker for one search over this searcher's tables.
    fn worker<'a>(
        &'a mut self,
        control: &'a Control,
        keys: Vec<Key>,
        node_limit: u64,
        budget: Option<TimeBudget>,
    ) -> Worker<'a> {
        let settings = WorkerSettings {
            tt_policy: self.tt_policy,
            selective: self.selective,
            thread_index: 0,
        };
        Worker::new(
            &self.tt,
            &mut self.tables,
            control,
            keys,
            node_limit,
            budget,
            settings,
        )
    }

    /// The quiescence-search value of `pos` with a full window, from the side to move's view:
    /// equal to the static evaluation exactly when no capture sequence changes it (data
    /// generation keeps only such quiet positions).
    pub fn quiescence(&mut self, pos: &Chess) -> Score {
        let control = Control::default();
        let keys = vec![full_key(pos)];
        let mut worker = self.worker(&control, keys, u64::MAX, None);
        worker.quiescence(pos, 0, -Score::INFINITE, Score::INFINITE)
    }

    /// Searches silently under `limits` and returns the result (for `bench`, `epd`, tests).
    pub fn run(&mut self, game: &Game, limits: &Limits) -> SearchOutcome {
        self.search(game, limits, &Control::default(), &mut ())
    }

    /// Searches `game` under `limits`, reporting each iteration. Returns when a limit is
    /// reached or `control` is stopped; an infinite or pondering search that runs out of depth
    /// waits for `stop` (or `ponderhit`) before returning.
    pub fn search(
        &mut self,
        game: &Game,
        limits: &Limits,
        control: &Control,
        reporter: &mut dyn Reporter,
    ) -> SearchOutcome {
        let start = Instant::now();
        self.tt.new_search();
        self.tables.killers.clear();

        let root_moves = root_moves(game, &limits.searchmoves);
        if !root_moves.is_empty() {
            self.helpers.start(Job {
                game: game.clone(),
                searchmoves: limits.searchmoves.clone(),
                tt: Arc::clone(&self.tt),
                tt_policy: self.tt_policy,
                selective: self.selective,
            });
        }

        let budget = TimeBudget::new(limits, self.move_overhead, root_moves.len());
        let node_limit = limits.nodes.unwrap_or(u64::MAX);
        let settings = WorkerSettings {
            tt_policy: self.tt_policy,
            selective: self.selective,
            thread_index: 0,
        };
        let mut worker = Worker::new(
            &self.tt,
            &mut self.tables,
            control,
            root_keys(game),
            node_limit,
            budget,
            settings,
        );
        worker.helper_nodes = self.helpers.node_counts();
        let mut root = RootSearch::new(
            worker,
            game,
            limits,
            root_moves,
            self.multipv,
            start,
            reporter,
        );
        root.iterate();
        let (mut outcome, best) = root.finish();

        // The move is decided: the helpers stop, and have let go of the table when this returns.
        if self.helpers.threads() > 1 {
            outcome.stats.main_thread_nodes = Some(outcome.stats.nodes);
        }
        outcome.stats.absorb(&self.helpers.stop());
        if let Some(best) = best {
            outcome.best_move = Some(best.mv);
            outcome.ponder_move = best
                .pv
                .get(1)
                .copied()
                .or_else(|| ponder_from_tt(&self.tt, &game.root, game.root_key, best.mv));
        }

        // An infinite or pondering search never answers before it is told to, nor does a
        // `go mate` alone that found no such mate: it is `go infinite` until the mate shows.
        let mate_unfound =
            limits.mate.is_some() && limits.is_endless() && !limits.is_wanted_mate(outcome.score);
        while !control.is_stopped() && (limits.infinite || control.is_pondering() || mate_unfound) {
            std::thread::sleep(Duration::from_millis(1));
        }

        outcome.nodes = outcome.stats.nodes;
        outcome.elapsed = start.elapsed();
        outcome
    }
}
