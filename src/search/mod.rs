//! The search: iterative deepening (`root`) over alpha-beta (`alphabeta`) with quiescence
//! (`quiescence`), move ordering ([`ordering`]), its tables ([`tables`]: histories, killers,
//! correction, principal variation, transposition table) and a time manager ([`stop::time`]),
//! configured by [`Steps`] (which selective steps run) and [`Settings`] (the rest of the
//! setup). Children are made only through the move doors (`apply`), the evaluation is reached
//! only through each thread's evaluator (`worker`), and what all threads read is one
//! `shared::Shared`. [`Searcher`] is the entry point for the UCI loop, `bench`, `epd` and the
//! tests; this file is only that front, and the submodules never look back up at it.

mod alphabeta;
mod apply;
mod best;
mod clearing;
mod config;
mod draws;
mod movepick;
pub mod ordering;
pub mod params;
mod quiescence;
mod report;
mod root;
pub mod see;
mod selectivity;
mod shared;
pub mod stats;
pub mod stop;
pub mod strength;
pub mod tables;
mod threads;
mod worker;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use shakmaty::{Chess, Move, Position};

use crate::eval::{EvaluatorKind, Network};
use crate::position::{full_key, Game};
use crate::rng::Rng;
use crate::tablebase::Tablebases;
use crate::types::Score;
use clearing::Clearing;
pub use clearing::TableReady;
pub use config::{Settings, Steps, TtPolicy};
pub use report::{IterationInfo, Reporter, SearchOutcome};
use root::{ponder_from_tt, root_keys, root_moves, RootSearch};
pub use shared::NetSlot;
use shared::Shared;
pub use stats::Stats;
use stop::StopPolicy;
pub use stop::{Clocks, Control, Limits, MAX_DEPTH};
use threads::{panic_message, HelperPool, Job};
use worker::{ThreadData, Worker, WorkerSetup};

/// Owns everything that survives between searches: what the threads share (the
/// transposition table), the main thread's own state (move ordering heuristics, evaluator),
/// the helper threads (each with its own), and the steps and settings the next search runs
/// with.
pub struct Searcher {
    /// Shared with the helper threads while a search runs, with nobody between searches.
    shared: Arc<Shared>,
    /// The main thread's history and evaluator (the helpers keep their own).
    thread: ThreadData,
    helpers: HelperPool,
    hash_mb: usize,
    steps: Steps,
    settings: Settings,
    /// The table being emptied in the background ([`Searcher::clear_in_background`]), until
    /// a search or a change that needs the table to itself waits for it.
    clearing: Option<Clearing>,
}

impl Searcher {
    /// A searcher with the default steps and settings (the engine that plays).
    pub fn new(hash_mb: usize) -> Searcher {
        Searcher::with_steps(hash_mb, Steps::default())
    }

    /// A searcher that takes `steps` (tests switch steps off), with the default settings.
    pub fn with_steps(hash_mb: usize, steps: Steps) -> Searcher {
        let settings = Settings::default();
        Searcher {
            shared: Arc::new(Shared::new(hash_mb)),
            thread: ThreadData::new(settings.evaluator, None),
            helpers: HelperPool::default(),
            hash_mb,
            steps,
            settings,
            clearing: None,
        }
    }

    pub fn steps(&self) -> &Steps {
        &self.steps
    }

    /// The steps of the searches from now on.
    pub fn set_steps(&mut self, steps: Steps) {
        self.steps = steps;
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The settings of the searches from now on. A new evaluator empties the table, whose
    /// stored evaluations are the old one's.
    pub fn set_settings(&mut self, settings: Settings) {
        let new_evaluator = settings.effective_evaluator() != self.settings.effective_evaluator();
        self.settings = settings;
        if new_evaluator {
            self.clear_table();
        }
    }

    /// The evaluation of the searches from now on (the rest of the settings kept).
    pub fn set_evaluator(&mut self, evaluator: EvaluatorKind) {
        self.set_settings(Settings {
            evaluator,
            ..self.settings
        });
    }

    /// Runs the learned evaluation with `network` from now on (UCI `EvalFile`). Empties the
    /// table when the net evaluates now: its stored evaluations are the old net's.
    pub fn set_network(&mut self, network: Arc<Network>) -> Result<(), String> {
        self.finish_clearing();
        Arc::get_mut(&mut self.shared)
            .ok_or("the net is still in use by a search thread")?
            .network
            .set(network);
        if self.settings.effective_evaluator() == EvaluatorKind::Net {
            self.clear_table();
        }
        Ok(())
    }

    /// The evaluation the searches run: the settings' ([`Settings::effective_evaluator`]), as
    /// the net loaded allows ([`EvaluatorKind::with_network`]).
    pub fn evaluator(&self) -> EvaluatorKind {
        let network = self.network();
        self.settings
            .effective_evaluator()
            .with_network(network.as_ref())
    }

    /// The net the learned evaluation runs (`None`: none loaded).
    pub fn network(&self) -> Option<Arc<Network>> {
        self.shared.network.get()
    }

    /// Where the net is kept, to read it without the searcher (UCI `eval` during a search).
    pub fn net_slot(&self) -> NetSlot {
        self.shared.network.clone()
    }

    /// Sets this thread's evaluator to the settings' kind and the shared net.
    fn prepare_evaluator(&mut self) {
        let network = self.shared.network.get();
        self.thread
            .use_evaluator(self.settings.effective_evaluator(), network.as_ref());
        self.thread.evaluator.set_checking(self.settings.verify_net);
    }

    pub fn hash_mb(&self) -> usize {
        self.hash_mb
    }

    /// Re-allocates the transposition table (emptying it).
    pub fn resize_hash(&mut self, mb: usize) -> Result<(), String> {
        // A clear in the background is given up: the table is replaced. Between searches
        // the helpers hold no reference to the shared state.
        self.clearing = None;
        Arc::get_mut(&mut self.shared)
            .ok_or("the hash table is still in use by a search thread")?
            .tt
            .resize(mb)?;
        self.hash_mb = mb;
        Ok(())
    }

    /// Searches with `tablebases` from now on (UCI `SyzygyPath`).
    pub fn set_tablebases(&mut self, tablebases: Tablebases) -> Result<(), String> {
        // Between searches the helpers hold no reference to the shared state.
        self.finish_clearing();
        Arc::get_mut(&mut self.shared)
            .ok_or("the tablebases are still in use by a search thread")?
            .tablebases = tablebases;
        Ok(())
    }

    /// The `SyzygyPath` the tablebases were loaded from (empty: none).
    pub fn tablebase_path(&self) -> &str {
        self.shared.tablebases.path()
    }

    /// The largest tablebases' piece count (0 without tables).
    pub fn tablebase_pieces(&self) -> usize {
        self.shared.tablebases.max_pieces()
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

    /// Forgets everything learnt (transposition table, history): a new game.
    pub fn clear(&mut self) {
        self.clear_table();
        self.thread.history.clear();
        self.helpers.clear();
    }

    /// Forgets everything learnt, as [`Searcher::clear`] does, but returns before the table is
    /// empty: it is zeroed in the background, on as many threads as search (see
    /// `clearing`), and the next search waits for it as long as its limits allow (a search
    /// without a clock waits for all of it, and starts from a table exactly as `clear` leaves
    /// it). The answer tells when the clear is over, without the searcher (UCI `isready`).
    /// Where no thread can be started for it, the table is cleared here.
    pub fn clear_in_background(&mut self) -> TableReady {
        // A clear already running is given up and started again: a search may have stored
        // in the parts it had zeroed.
        self.clearing = None;
        self.thread.history.clear();
        self.helpers.clear();
        match Clearing::start(Arc::clone(&self.shared), self.threads()) {
            Some(clearing) => {
                let ready = clearing.ready();
                self.clearing = Some(clearing);
                ready
            }
            None => {
                self.clear_table();
                TableReady::done()
            }
        }
    }

    /// Waits for a clear in the background to end (before a change that needs the table to
    /// itself, or a search that waits for it).
    fn finish_clearing(&mut self) {
        if let Some(clearing) = self.clearing.take() {
            clearing.finish();
        }
    }

    /// Before a search: waits for a clear in the background while `limits` allow
    /// ([`clearing::wait_allowed`]), and past that searches beside it (a clear that is not
    /// over goes on, and the next search waits for it again).
    fn await_clearing(&mut self, game: &Game, limits: &Limits, control: &Control) {
        let Some(clearing) = &self.clearing else {
            return;
        };
        let legal_moves = root_moves(game, &limits.searchmoves).len();
        let (side, overhead) = (game.root.turn(), self.settings.move_overhead);
        while !clearing.is_done()
            && clearing::wait_allowed(limits, side, overhead, legal_moves, control)
        {
            std::thread::sleep(Duration::from_micros(200));
        }
        if clearing.is_done() {
            self.finish_clearing();
        }
    }

    /// Empties the transposition table now; the tablebases and the net stay, for they are
    /// kept beside it.
    fn clear_table(&mut self) {
        // A clear in the background is given up: this one empties the table now.
        self.clearing = None;
        match Arc::get_mut(&mut self.shared) {
            Some(shared) => shared.tt.clear(),
            // Between searches nobody else holds the table; should a helper still, the table
            // is emptied under it through the slots' atomics, as a clear in the background is
            // beside a search: the same table, the same net and tablebases.
            None => {
                self.shared.tt.begin_shared_clear();
                self.shared.tt.clear_part(0, 1, &AtomicBool::new(false));
            }
        }
    }

    /// The quiescence-search value of `pos` with a full window, from the side to move's view:
    /// equal to the static evaluation exactly when no capture sequence changes it (data
    /// generation keeps only such quiet positions).
    pub fn quiescence(&mut self, pos: &Chess) -> Score {
        let control = Control::default();
        let key = full_key(pos);
        // Without the table or the eval corrections: the value must not depend on what
        // earlier searches left behind.
        self.prepare_evaluator();
        let steps = Steps {
            quiescence_tt: false,
            correction_history: false,
            ..self.steps
        };
        let mut worker = Worker::new(WorkerSetup {
            shared: &self.shared,
            thread: &mut self.thread,
            control: &control,
            keys: vec![key],
            steps,
            settings: self.settings,
        });
        worker.evaluator.set_root(pos);
        worker.stack[0].correction_keys = tables::correction::CorrectionKeys::of(pos);
        worker.quiescence(
            pos,
            key,
            0,
            -Score::INFINITE,
            Score::INFINITE,
            worker::KnownCheck::Unknown,
        )
    }

    /// Searches silently under `limits` and returns the result (for `bench`, `epd`, tests).
    pub fn run(&mut self, game: &Game, limits: &Limits) -> SearchOutcome {
        self.search(game, limits, &Control::default(), &mut ())
    }

    /// Searches `game` under `limits`, reporting each iteration. Returns when a limit is
    /// reached or `control` is stopped; an infinite or pondering search that runs out of depth
    /// waits for `stop` (or `ponderhit`) before returning.
    ///
    /// A panic in the main thread's search does not leave the caller without a move (a GUI
    /// waiting for `bestmove` would lose on time): it is caught, and the outcome carries the
    /// panic's message in `failure` and the last move the search reported, else the first
    /// legal one.
    pub fn search(
        &mut self,
        game: &Game,
        limits: &Limits,
        control: &Control,
        reporter: &mut dyn Reporter,
    ) -> SearchOutcome {
        let start = Instant::now();
        let mut remembering = Remembering {
            inner: reporter,
            best: None,
        };
        let searched = catch_unwind(AssertUnwindSafe(|| {
            self.search_unguarded(game, limits, control, &mut remembering, start)
        }));
        searched.unwrap_or_else(|panic| {
            let failure = format!("the search failed: {}", panic_message(panic.as_ref()));
            self.recover(game, limits, control, remembering.best, failure, start)
        })
    }

    /// The outcome of a search whose main thread panicked: the helpers are stopped (only the
    /// main thread would have stopped them) and the move is `reported`, the last one the search
    /// reported, else the first legal one. The history is only an ordering hint and the
    /// evaluator is set up afresh at the next root, so the next search starts from a sound state.
    fn recover(
        &mut self,
        game: &Game,
        limits: &Limits,
        control: &Control,
        reported: Option<(Move, Score)>,
        failure: String,
        start: Instant,
    ) -> SearchOutcome {
        let mut outcome = SearchOutcome::nothing_searched(Score::DRAW);
        outcome.stats = self.helpers.stop();
        let legal = root_moves(game, &limits.searchmoves);
        let (best, score) = match reported {
            Some((mv, score)) => (Some(mv), score),
            None if game.root.is_checkmate() => (None, Score::mated_in(0)),
            None => (legal.first().map(|rm| rm.mv), Score::DRAW),
        };
        outcome.best_move = best;
        outcome.score = score;
        outcome.failure = Some(failure);
        // Still one answer per `go`, and not before a `go infinite` is told to stop.
        let overhead = self.settings.move_overhead;
        let stop = StopPolicy::new(limits, game.root.turn(), overhead, legal.len());
        while stop.waits_for_stop(control, score) {
            std::thread::sleep(Duration::from_millis(1));
        }
        outcome.nodes = outcome.stats.nodes;
        outcome.elapsed = start.elapsed();
        outcome
    }

    /// [`Searcher::search`] without its guard against a panic.
    fn search_unguarded(
        &mut self,
        game: &Game,
        limits: &Limits,
        control: &Control,
        reporter: &mut dyn Reporter,
        start: Instant,
    ) -> SearchOutcome {
        self.await_clearing(game, limits, control);
        self.shared.tt.new_search();
        // A strength limit: a node budget (in the stop policy below), more lines to pick
        // among, one thread.
        let settings = match self.settings.strength_elo {
            Some(elo) => {
                let lines = if strength::weakness(elo).is_some() {
                    self.settings.multipv.max(strength::LINES)
                } else {
                    self.settings.multipv
                };
                Settings {
                    multipv: lines,
                    ..self.settings
                }
            }
            None => self.settings,
        };

        let root_moves = root_moves(game, &limits.searchmoves);
        if !root_moves.is_empty() && settings.strength_elo.is_none() {
            self.helpers.start(Job {
                game: game.clone(),
                searchmoves: limits.searchmoves.clone(),
                shared: Arc::clone(&self.shared),
                steps: self.steps,
                settings,
            });
        }

        self.prepare_evaluator();
        let (side, overhead) = (game.root.turn(), settings.move_overhead);
        let mut stop = StopPolicy::new(limits, side, overhead, root_moves.len());
        if let Some(elo) = settings.strength_elo {
            stop = stop.with_strength_nodes(strength::node_limit(elo));
        }
        let mut worker = Worker::new(WorkerSetup {
            shared: &self.shared,
            thread: &mut self.thread,
            control,
            keys: root_keys(game),
            steps: self.steps,
            settings,
        });
        worker.stop = stop;
        worker.helper_counters = self.helpers.counters();
        let mut root = RootSearch::new(worker, game, root_moves, start, reporter);
        root.iterate();
        let (mut outcome, lines) = root.finish();
        let chosen = match settings.strength_elo.and_then(strength::weakness) {
            Some(weakness) => {
                let mut rng = Rng::new(game.root_key ^ settings.strength_elo.unwrap_or(0) as u64);
                strength::pick(&lines, settings.multipv, weakness, &mut rng)
            }
            None => 0,
        };
        let best = lines.into_iter().nth(chosen);

        // The move is decided: the helpers stop, and have let go of the table when this returns.
        if self.helpers.threads() > 1 {
            outcome.stats.main_thread_nodes = Some(outcome.stats.nodes);
        }
        outcome.stats.absorb(&self.helpers.stop());
        if let Some(best) = best {
            outcome.best_move = Some(best.mv);
            outcome.ponder_move =
                best.pv.get(1).copied().or_else(|| {
                    ponder_from_tt(&self.shared.tt, &game.root, game.root_key, best.mv)
                });
        }

        // An infinite or pondering search never answers before it is told to, nor does a
        // `go mate` alone that found no such mate: it is `go infinite` until the mate shows.
        while stop.waits_for_stop(control, outcome.score) {
            std::thread::sleep(Duration::from_millis(1));
        }

        outcome.nodes = outcome.stats.nodes;
        outcome.elapsed = start.elapsed();
        outcome
    }
}

/// Passes the search's reports on and remembers the first line's move and score: what a
/// search that fails part-way still has to answer with. Called once an iteration, not a node.
struct Remembering<'r> {
    inner: &'r mut dyn Reporter,
    best: Option<(Move, Score)>,
}

impl Reporter for Remembering<'_> {
    fn iteration(&mut self, info: &IterationInfo<'_>) {
        if let (1, Some(&mv)) = (info.multipv, info.pv.first()) {
            self.best = Some((mv, info.score));
        }
        self.inner.iteration(info);
        // The test hook that makes a search fail here, where a failure is caught and answered.
        if crate::test_hooks::fail_search_at_depth().is_some_and(|d| info.depth >= d) {
            panic!("{} asked for it", crate::test_hooks::FAIL_SEARCH_AT_DEPTH);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{skip, Need};

    /// `clear_table` (here through a new evaluator) with the shared state still held elsewhere,
    /// as by a helper that had not let go: it once took a fresh `Shared`, which holds the
    /// built-in net and no tablebases, so a loaded `EvalFile` and `SyzygyPath` were dropped
    /// unseen (issue 78). Now the same table is emptied in place, and the net and tables stay.
    #[test]
    fn emptying_a_table_held_elsewhere_keeps_the_loaded_net_and_tablebases() {
        let name = "emptying_a_table_held_elsewhere_keeps_the_loaded_net_and_tablebases";
        let mut searcher = Searcher::new(1);
        let net = Arc::new(crate::eval::nnue::tests::random_network(32, 7));
        searcher.set_network(Arc::clone(&net)).unwrap();
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/syzygy");
        if std::path::Path::new(dir).join("KQvK.rtbw").exists() {
            let (tablebases, _) = Tablebases::load(dir);
            searcher.set_tablebases(tablebases).unwrap();
            assert!(searcher.tablebase_pieces() >= 3);
        } else {
            skip(
                name,
                Need::Shared,
                "no ../shared/syzygy: the net is checked, not the tables",
            );
        }
        let pieces = searcher.tablebase_pieces();
        searcher.run(&Game::default(), &Limits::depth(4));
        assert!(searcher.shared.tt.hashfull() > 0);
        let held = Arc::clone(&searcher.shared);
        searcher.set_evaluator(EvaluatorKind::Classical);
        let kept = searcher.network().expect("a net");
        assert!(Arc::ptr_eq(&kept, &net), "the loaded net was dropped");
        assert_eq!(
            searcher.tablebase_pieces(),
            pieces,
            "the tablebases were dropped"
        );
        assert!(Arc::ptr_eq(&held, &searcher.shared), "not the same table");
        assert!(tables::tt::is_empty_for_tests(&searcher.shared.tt));
    }

    /// Every node that evaluates, in searches of the bench positions (null moves, singular
    /// searches, probcut and quiescence among them), reads correction keys from its frame that
    /// are the keys of its own position: in the lib's tests `Worker::static_eval` checks them
    /// against keys found from scratch, and panics on a frame a move door left stale.
    #[test]
    fn each_frame_holds_the_correction_keys_of_its_own_position() {
        let mut searcher = Searcher::new(16);
        let mut nodes = 0;
        for pos in crate::bench::positions().into_iter().step_by(4) {
            let game = Game::new(pos, shakmaty::CastlingMode::Standard);
            let out = searcher.run(&game, &Limits::nodes(20_000));
            assert_eq!(out.failure, None, "{}", game.fen());
            nodes += out.stats.nodes;
        }
        assert!(nodes > 200_000, "{nodes}");
    }
}
