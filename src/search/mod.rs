//! The search: iterative deepening (this file) over alpha-beta ([`alphabeta`]) with quiescence
//! ([`quiescence`]), move ordering ([`ordering`]), a principal-variation table ([`pv`]) and a
//! time manager ([`time`]). [`Searcher`] is the entry point for the UCI loop, `bench`, `epd`
//! and the tests.

mod alphabeta;
pub mod ordering;
pub mod pv;
mod quiescence;
pub mod see;
pub mod stats;
mod threads;
pub mod time;
mod worker;

use std::sync::atomic::AtomicU64;
use std::sync::Arc;
use std::time::{Duration, Instant};

use shakmaty::{Chess, Move, Position};

use crate::params::{
    ASPIRATION_GROWTH_PERCENT, ASPIRATION_MIN_DEPTH, ASPIRATION_WINDOW, DEFAULT_MOVE_OVERHEAD_MS,
};
use crate::position::{child_key, Game, Key};
use crate::tt::TranspositionTable;
use crate::types::{Bound, Depth, Score, MAX_PLY};
use ordering::{CounterMoves, History, Killers};
pub use stats::Stats;
use threads::{HelperPool, Job};
use time::TimeBudget;
pub use worker::Control;
use worker::Worker;

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

    /// Whether `score` is the mate `go mate` asks for.
    fn is_wanted_mate(&self, score: Score) -> bool {
        match (self.mate, score.mate_moves()) {
            (Some(n), Some(m)) => m > 0 && m <= n as i32,
            _ => false,
        }
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
    pub pv: &'a [Move],
}

impl IterationInfo<'_> {
    pub fn nps(&self) -> u64 {
        (self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-6)) as u64
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
}

impl SearchOutcome {
    /// The outcome before any iteration has finished: no move, no nodes, `score` as a placeholder.
    fn nothing_searched(score: Score) -> SearchOutcome {
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
        }
    }

    pub fn nps(&self) -> u64 {
        (self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-6)) as u64
    }
}

/// How the search may use what the transposition table returns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TtPolicy {
    /// A stored result at least as deep as needed settles the node (normal play).
    #[default]
    Cutoffs,
    /// Only a result of exactly the needed depth settles the node. The search then returns the
    /// same fixed-depth value as without a table, which the tests use to check the table.
    SameDepthCutoffs,
    /// The table only orders moves (its move goes first); it never settles a node.
    MoveOnly,
}

/// A root move with what the last iteration learnt about it.
#[derive(Clone, Debug)]
struct RootMove {
    mv: Move,
    /// The move's score when it raised alpha in the current search; `-INFINITE` otherwise.
    score: Score,
    /// What `score` is: exact, a lower bound (it failed high), or `None` (it failed low).
    bound: Option<Bound>,
    /// The score of the last completed iteration: the centre of the next aspiration window.
    previous_score: Score,
    /// When the whole line failed low, the alpha that bounds it from above.
    fail_low_bound: Score,
    pv: Vec<Move>,
}

/// One thread's move ordering heuristics, kept from one search to the next.
#[derive(Default)]
struct Tables {
    killers: Killers,
    counters: CounterMoves,
    history: History,
}

impl Tables {
    fn clear(&mut self) {
        self.killers.clear();
        self.counters.clear();
        self.history.clear();
    }
}

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
        new_worker(
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
        let keys = vec![crate::position::full_key(pos)];
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

        let legal = game.root.legal_moves();
        let mut root_moves = root_moves(game, &limits.searchmoves);
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
        let multipv = self.multipv;
        let settings = WorkerSettings {
            tt_policy: self.tt_policy,
            selective: self.selective,
            thread_index: 0,
        };
        let mut worker = new_worker(
            &self.tt,
            &mut self.tables,
            control,
            root_keys(game),
            node_limit,
            budget,
            settings,
        );
        worker.helper_nodes = self.helpers.node_counts();

        let mut outcome =
            SearchOutcome::nothing_searched(if game.root.is_check() && legal.is_empty() {
                Score::mated_in(0)
            } else {
                Score::DRAW
            });

        if !root_moves.is_empty() {
            let max_depth = match limits.depth {
                _ if limits.infinite => MAX_DEPTH,
                Some(d) => d.clamp(1, MAX_DEPTH),
                None => MAX_DEPTH,
            };
            let lines = multipv.clamp(1, root_moves.len());
            iterate(
                &mut worker,
                game,
                limits,
                &mut root_moves,
                max_depth,
                lines,
                start,
                reporter,
                &mut outcome,
            );
        }
        let seldepth = worker.seldepth;
        let mut stats = worker.stats;
        // The move is decided: the helpers stop, and have let go of the table when this returns.
        if self.helpers.threads() > 1 {
            stats.main_thread_nodes = Some(stats.nodes);
        }
        stats.absorb(&self.helpers.stop());
        if let Some(best) = root_moves.first() {
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

        outcome.nodes = stats.nodes;
        outcome.elapsed = start.elapsed();
        outcome.seldepth = seldepth;
        outcome.stats = stats;
        outcome
    }
}

/// What distinguishes one thread's worker from another's, besides its tables.
#[derive(Clone, Copy)]
struct WorkerSettings {
    tt_policy: TtPolicy,
    selective: bool,
    thread_index: usize,
}

/// A worker for one search of one thread.
fn new_worker<'a>(
    tt: &'a TranspositionTable,
    tables: &'a mut Tables,
    control: &'a Control,
    keys: Vec<Key>,
    node_limit: u64,
    budget: Option<TimeBudget>,
    settings: WorkerSettings,
) -> Worker<'a> {
    Worker {
        tt,
        killers: &mut tables.killers,
        counters: &mut tables.counters,
        history: &mut tables.history,
        control,
        stats: Stats::default(),
        pv: pv::PvTable::default(),
        keys,
        seldepth: 0,
        stopped: false,
        may_stop: false,
        node_limit,
        budget,
        tt_policy: settings.tt_policy,
        selective: settings.selective,
        repetition_floor: 0,
        null_moved: [false; MAX_PLY + 2],
        played: [None; MAX_PLY + 2],
        thread_index: settings.thread_index,
        published_nodes: None,
        helper_nodes: &[],
    }
}

/// The keys the repetition check starts from: the game's, then the root's.
fn root_keys(game: &Game) -> Vec<Key> {
    let mut keys = Vec::with_capacity(game.history.len() + MAX_PLY + 2);
    keys.extend_from_slice(&game.history);
    keys.push(game.root_key);
    keys
}

/// The root moves to search, in move generation order: the legal ones, or those of them in
/// `searchmoves` when it is not empty.
fn root_moves(game: &Game, searchmoves: &[Move]) -> Vec<RootMove> {
    game.root
        .legal_moves()
        .iter()
        .filter(|m| searchmoves.is_empty() || searchmoves.contains(m))
        .map(|&mv| RootMove {
            mv,
            score: -Score::INFINITE,
            bound: None,
            previous_score: Score::ZERO,
            fail_low_bound: -Score::INFINITE,
            pv: vec![mv],
        })
        .collect()
}

/// A helper thread's share of a search: iterative deepening over the main thread's root with
/// its own tables, skipping some depths, reporting nothing, until the main thread stops it
/// (or it runs out of depth). Returns its counters.
fn helper_search(
    job: &Job,
    tables: &mut Tables,
    thread_index: usize,
    control: &Control,
    published_nodes: &AtomicU64,
) -> Stats {
    tables.killers.clear();
    let game = &job.game;
    let mut root_moves = root_moves(game, &job.searchmoves);
    if root_moves.is_empty() {
        return Stats::default();
    }
    let settings = WorkerSettings {
        tt_policy: job.tt_policy,
        selective: job.selective,
        thread_index,
    };
    let mut worker = new_worker(
        &job.tt,
        tables,
        control,
        root_keys(game),
        u64::MAX,
        None,
        settings,
    );
    worker.published_nodes = Some(published_nodes);
    let limits = Limits {
        infinite: true,
        ..Limits::default()
    };
    let mut outcome = SearchOutcome::nothing_searched(Score::DRAW);
    iterate(
        &mut worker,
        game,
        &limits,
        &mut root_moves,
        MAX_DEPTH,
        1,
        Instant::now(),
        &mut (),
        &mut outcome,
    );
    published_nodes.store(worker.stats.nodes, std::sync::atomic::Ordering::Relaxed);
    worker.stats
}

/// Iterative deepening: depth 1, 2, 3, ... until a limit says stop. Each iteration starts with
/// the previous best move, which is what makes the deeper searches cheap.
#[allow(clippy::too_many_arguments)]
fn iterate(
    worker: &mut Worker<'_>,
    game: &Game,
    limits: &Limits,
    root_moves: &mut [RootMove],
    max_depth: Depth,
    lines: usize,
    start: Instant,
    reporter: &mut dyn Reporter,
    outcome: &mut SearchOutcome,
) {
    let mut completed: Vec<RootMove> = root_moves.to_vec();
    let mut nodes_before = 0;
    // Iterations in a row that kept the same best move (for the time manager).
    let mut stable_iterations = 0;
    for depth in 1..=max_depth {
        if threads::skips_depth(worker.thread_index, depth) {
            continue;
        }
        // A helper's result is never used, so it may stop at any time.
        worker.may_stop = depth > 1 || worker.is_helper();
        worker.seldepth = 0;
        for line in 0..lines {
            search_line(worker, game, root_moves, depth, line, start, reporter);
            if worker.stopped {
                break;
            }
        }

        if worker.stopped {
            // A partial iteration counts only if its best move was fully searched.
            if lines == 1 && root_moves[0].bound == Some(Bound::Exact) {
                report(worker, &root_moves[..1], 0, depth, start, reporter);
                set_outcome(outcome, &root_moves[0], depth);
            } else {
                // Back to the last completed iteration, whose exact lines are reported again:
                // bound lines printed by an aspiration re-search must not be the last word.
                root_moves.clone_from_slice(&completed);
                report(worker, &root_moves[..lines], 0, depth - 1, start, reporter);
            }
            return;
        }

        worker
            .stats
            .iteration_nodes
            .push(worker.stats.nodes - nodes_before);
        nodes_before = worker.stats.nodes;
        let previous_best_move = completed[0].mv;
        let previous_best_score = completed[0].score;
        report(worker, &root_moves[..lines], 0, depth, start, reporter);
        set_outcome(outcome, &root_moves[0], depth);
        for rm in root_moves.iter_mut() {
            rm.previous_score = rm.score;
        }
        completed.clone_from_slice(root_moves);

        let best = root_moves[0].score;
        if depth > 1 {
            stable_iterations = if root_moves[0].mv == previous_best_move {
                stable_iterations + 1
            } else {
                0
            };
        }
        if limits.infinite || worker.control.is_pondering() {
            continue;
        }
        // The iteration is complete, so its score is exact: the mate is proven.
        if limits.is_wanted_mate(best) {
            return;
        }
        if worker.control.is_stopped() {
            return;
        }
        if let Some(budget) = worker.budget {
            let scale = if crate::params::features::TIME_MANAGER_SCALING {
                time::soft_scale_percent(stable_iterations, previous_best_score.0 - best.0)
            } else {
                100
            };
            if !budget.may_start_iteration(worker.control.clock_elapsed(), scale) {
                return;
            }
        }
        if limits.nodes.is_some_and(|n| worker.stats.nodes >= n) {
            return;
        }
        if limits.soft_nodes.is_some_and(|n| worker.stats.nodes >= n) {
            return;
        }
        if limits.is_endless() && depth >= MAX_DEPTH {
            return;
        }
    }
}

/// Finds the best root move from index `line` on at `depth` with aspiration windows: a narrow
/// window around the last iteration's score cuts more, and is widened (with the bound
/// reported) whenever the true score falls outside it.
fn search_line(
    worker: &mut Worker<'_>,
    game: &Game,
    root_moves: &mut [RootMove],
    depth: Depth,
    line: usize,
    start: Instant,
    reporter: &mut dyn Reporter,
) {
    let previous = root_moves[line].previous_score;
    let mut delta = ASPIRATION_WINDOW;
    let (mut alpha, mut beta) = if depth >= ASPIRATION_MIN_DEPTH && !previous.is_mate() {
        (previous - delta, previous + delta)
    } else {
        (-Score::INFINITE, Score::INFINITE)
    };
    loop {
        let score = search_root(worker, game, root_moves, depth, line, alpha, beta);
        if worker.stopped {
            return;
        }
        if score > alpha && score < beta {
            return;
        }
        // Outside the window: report the bound, widen on the side that failed, search again.
        report(
            worker,
            &root_moves[line..=line],
            line,
            depth,
            start,
            reporter,
        );
        if score <= alpha {
            // Failed low: nothing reached alpha. Keep beta close, lower alpha.
            beta = Score((alpha.0 + beta.0) / 2);
            alpha = Score((score.0 - delta).max(-Score::INFINITE.0));
        } else {
            beta = Score((score.0 + delta).min(Score::INFINITE.0));
        }
        delta = delta * ASPIRATION_GROWTH_PERCENT / 100;
    }
}

fn set_outcome(outcome: &mut SearchOutcome, best: &RootMove, depth: Depth) {
    outcome.score = best.score;
    outcome.depth = depth;
    outcome.pv = best.pv.clone();
}

/// Reports `lines` (the MultiPV lines numbered from `first_index + 1`).
fn report(
    worker: &Worker<'_>,
    lines: &[RootMove],
    first_index: usize,
    depth: Depth,
    start: Instant,
    reporter: &mut dyn Reporter,
) {
    let elapsed = start.elapsed();
    let hashfull = worker.tt.hashfull();
    for (i, rm) in lines.iter().enumerate() {
        // A line that failed low has no score of its own at this depth: the window's alpha
        // bounds it from above.
        let (score, bound) = match rm.bound {
            Some(b) => (rm.score, b),
            None => (rm.fail_low_bound, Bound::Upper),
        };
        reporter.iteration(&IterationInfo {
            depth,
            seldepth: worker.seldepth.max(depth as usize),
            multipv: first_index + i + 1,
            score,
            bound,
            nodes: worker.total_nodes(),
            elapsed,
            hashfull,
            pv: &rm.pv,
        });
    }
}

/// Searches the root moves from index `line` on (earlier ones are the better MultiPV lines
/// already found at this depth) within (alpha, beta), with principal variation search, and
/// moves the best of them to index `line`. Returns the best score (fail-soft).
fn search_root(
    worker: &mut Worker<'_>,
    game: &Game,
    root_moves: &mut [RootMove],
    depth: Depth,
    line: usize,
    mut alpha: Score,
    beta: Score,
) -> Score {
    let pos = &game.root;
    for rm in root_moves[line..].iter_mut() {
        rm.score = -Score::INFINITE;
        rm.bound = None;
    }
    root_moves[line].fail_low_bound = alpha;
    let mut best = -Score::INFINITE;
    worker.stats.nodes += 1; // the root itself
    for (index, rm) in root_moves[line..].iter_mut().enumerate() {
        let m = rm.mv;
        let mut child = pos.clone();
        child.play_unchecked(m);
        let key = child_key(pos, game.root_key, m, &child);
        worker.keys.push(key);
        worker.played[0] = Some(m);
        let score = worker.principal_variation_search(
            &child,
            key,
            depth - 1,
            1,
            alpha,
            beta,
            index == 0,
            0,
        );
        worker.keys.pop();
        if worker.stopped {
            break;
        }
        best = best.max(score);
        if score > alpha {
            rm.score = score;
            rm.bound = Some(Bound::of(score, beta, true));
            rm.pv.clear();
            rm.pv.push(m);
            rm.pv.extend(worker.pv.line(1));
            if score >= beta {
                break;
            }
            alpha = score;
        }
    }
    // The best move found goes first; the others keep their order (a stable sort).
    root_moves[line..].sort_by_key(|rm| std::cmp::Reverse(rm.score));
    best
}

/// A ponder move when the principal variation stops after the best move (a table cutoff).
fn ponder_from_tt(tt: &TranspositionTable, pos: &Chess, key: u64, best: Move) -> Option<Move> {
    let mut child = pos.clone();
    child.play_unchecked(best);
    let child_key = child_key(pos, key, best, &child);
    let hit = tt.probe(child_key, 1)?;
    child.legal_moves().into_iter().find(|m| hit.mv.matches(*m))
}
