//! The root of the search: iterative deepening over the root moves, aspiration windows, and
//! the reports of each iteration. The main thread and the helpers run the same driver.

use std::ops::Range;
use std::time::Instant;

use shakmaty::{Chess, Move, Position};

use super::apply::child_position;
use super::params::{
    aspiration_growth_percent, aspiration_min_depth, aspiration_window, HELPER_SKIP_PHASE,
    HELPER_SKIP_SIZE,
};
use super::report::{IterationInfo, Reporter, SearchOutcome};
use super::stop::{time, Iteration};
use super::tables::correction::CorrectionKeys;
use super::tables::tt::TranspositionTable;
use super::worker::{KnownCheck, Worker};
use crate::position::{Game, Key};
use crate::types::{Bound, Depth, Score, MAX_PLY};

/// A root move with what the last iteration learnt about it.
#[derive(Clone, Debug)]
pub(super) struct RootMove {
    pub mv: Move,
    /// The move's score when it raised alpha in the current search; `-INFINITE` otherwise.
    pub score: Score,
    /// What `score` is: exact, a lower bound (it failed high), or `None` (it failed low).
    pub bound: Option<Bound>,
    /// The score of the last completed iteration: the centre of the next aspiration window.
    pub previous_score: Score,
    /// When the whole line failed low, the alpha that bounds it from above.
    pub fail_low_bound: Score,
    pub pv: Vec<Move>,
    /// Nodes searched under this move since the search began: the time manager's measure of
    /// how much the search still doubts it (a best move that takes most nodes is settled).
    pub nodes: u64,
    /// The tablebases' rank of the move (0 when the root is not in the tables): a line is
    /// chosen among the moves of its own rank only, so no search result overrules the tables.
    pub tb_rank: i32,
    /// The score the tables give the move, reported instead of the searched one (unless that
    /// is a mate) when the tables ranked the root.
    pub tb_score: Option<Score>,
}

/// The share (in percent) of the soft time target the search may use before it starts no
/// further iteration: 100 without `scaling` (`Steps::time_manager_scaling`), otherwise
/// scaled by the best move's stability and score drops and by its share of the root's nodes
/// (`root_moves[0]` is the best move).
fn soft_target_percent(
    scaling: bool,
    root_moves: &[RootMove],
    stable_iterations: u32,
    score_drop: i32,
) -> u32 {
    if !scaling {
        return 100;
    }
    let best_nodes = root_moves[0].nodes;
    let all_nodes = root_moves.iter().map(|rm| rm.nodes).sum();
    time::soft_scale_percent(stable_iterations, score_drop)
        * time::node_share_percent(best_nodes, all_nodes)
        / 100
}

/// The keys the repetition check starts from: the game's, then the root's.
pub(super) fn root_keys(game: &Game) -> Vec<Key> {
    let mut keys = Vec::with_capacity(game.history.len() + MAX_PLY + 2);
    keys.extend_from_slice(&game.history);
    keys.push(game.root_key);
    keys
}

/// The root moves to search, in move generation order: the legal ones, or those of them in
/// `searchmoves` when it is not empty.
pub(super) fn root_moves(game: &Game, searchmoves: &[Move]) -> Vec<RootMove> {
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
            nodes: 0,
            tb_rank: 0,
            tb_score: None,
        })
        .collect()
}

/// Root step: the tablebases rank the root moves (by DTZ, else by WDL) when the root is in
/// them, as in Stockfish: the moves are ordered by rank and only the best rank's are kept
/// (more ranks while MultiPV asks for more lines). The search then probes no further when DTZ
/// ranked the root, or the root is not won, since the ranking already holds the answer; else
/// it probes WDL in positions of at most `tb_cardinality` pieces.
fn rank_with_tablebases(worker: &mut Worker, game: &Game, root_moves: &mut Vec<RootMove>) {
    let settings = worker.settings;
    let tablebases = &worker.shared.tablebases;
    let cardinality = tablebases.max_pieces().min(settings.tb_probe_limit);
    worker.tb_cardinality = cardinality;
    let pieces = game.root.board().occupied().count();
    if cardinality == 0 || pieces > cardinality || root_moves.is_empty() {
        return;
    }
    let moves: Vec<Move> = root_moves.iter().map(|rm| rm.mv).collect();
    let rule = settings.tb_fifty_move_rule;
    let Some((ranks, by_dtz)) =
        tablebases.rank_root_moves(&game.root, &moves, root_repeated(game), rule)
    else {
        return;
    };
    for (rm, ranked) in root_moves.iter_mut().zip(&ranks) {
        rm.tb_rank = ranked.rank;
        rm.tb_score = Some(tb_root_score(ranked.rank, rule));
    }
    if !worker.is_helper() {
        worker.stats.tb_hits += moves.len() as u64;
    }
    root_moves.sort_by_key(|rm| std::cmp::Reverse(rm.tb_rank));
    let wanted = settings.multipv.max(1);
    let mut keep = 1;
    while keep < root_moves.len()
        && (keep < wanted || root_moves[keep].tb_rank == root_moves[keep - 1].tb_rank)
    {
        keep += 1;
    }
    root_moves.truncate(keep);
    if by_dtz || root_moves[0].tb_score.is_some_and(|s| s <= Score::DRAW) {
        worker.tb_cardinality = 0;
    }
}

/// Whether the root position occurred before since the last capture or pawn move.
fn root_repeated(game: &Game) -> bool {
    let reversible = game.root.halfmoves() as usize;
    game.history
        .iter()
        .rev()
        .take(reversible)
        .any(|&k| k == game.root_key)
}

/// The score a tablebase rank stands for at the root (Stockfish's `tbScore`): a sure win or
/// loss in the tablebase band, as many plies away as the ranking counted to the next zeroing
/// move (`cp 19995`: five plies), a win or loss the 50-move rule may spoil a few centipawns
/// either side of a draw, growing as it nears a sure one.
fn tb_root_score(rank: i32, fifty_move_rule: bool) -> Score {
    use crate::tablebase::MAX_DTZ;
    let bound = if fifty_move_rule { MAX_DTZ - 100 } else { 1 };
    if rank >= bound {
        Score::tb_win_in(((MAX_DTZ - rank) as usize).min(MAX_PLY))
    } else if rank > 0 {
        Score((rank - (MAX_DTZ - 200)).max(3) * 100 / 200)
    } else if rank == 0 {
        Score::DRAW
    } else if rank > -bound {
        Score((rank + (MAX_DTZ - 200)).min(-3) * 100 / 200)
    } else {
        Score::tb_loss_in(((rank + MAX_DTZ) as usize).min(MAX_PLY))
    }
}

/// Whether helper `thread_index` (1 and up) skips the iteration at `depth`: each helper
/// searches only some depths, at its own phase, so that the threads spread over several
/// depths instead of all searching the same tree in step.
fn skips_depth(thread_index: usize, depth: Depth) -> bool {
    if thread_index == 0 {
        return false;
    }
    let i = (thread_index - 1) % HELPER_SKIP_SIZE.len();
    (depth + HELPER_SKIP_PHASE[i]) / HELPER_SKIP_SIZE[i] % 2 == 1
}

/// One thread's iterative deepening over the root moves: the worker that searches, what it
/// searches, and what it has found so far.
pub(super) struct RootSearch<'a> {
    worker: Worker<'a>,
    game: &'a Game,
    /// Best first after every iteration (the MultiPV lines in order, then the rest).
    root_moves: Vec<RootMove>,
    max_depth: Depth,
    /// MultiPV lines searched and reported per iteration.
    lines: usize,
    /// When the search began (for the reports' times).
    start: Instant,
    reporter: &'a mut dyn Reporter,
    /// The last iteration that counts.
    outcome: SearchOutcome,
}

impl<'a> RootSearch<'a> {
    /// A search of `root_moves` (perhaps none) under the worker's stop policy, with as many
    /// lines as the worker's configuration asks (and there are moves).
    pub fn new(
        mut worker: Worker<'a>,
        game: &'a Game,
        mut root_moves: Vec<RootMove>,
        start: Instant,
        reporter: &'a mut dyn Reporter,
    ) -> RootSearch<'a> {
        let max_depth = worker.stop.max_depth();
        let no_move_score = if game.root.is_check() && game.root.legal_moves().is_empty() {
            Score::mated_in(0)
        } else {
            Score::DRAW
        };
        rank_with_tablebases(&mut worker, game, &mut root_moves);
        let lines = worker.settings.multipv.clamp(1, root_moves.len().max(1));
        RootSearch {
            worker,
            game,
            lines,
            root_moves,
            max_depth,
            start,
            reporter,
            outcome: SearchOutcome::nothing_searched(no_move_score),
        }
    }

    /// The outcome of the last iteration that counts (with the worker's seldepth and
    /// counters), and the root moves, best first (the MultiPV lines in order; empty when
    /// there was none to search).
    pub fn finish(self) -> (SearchOutcome, Vec<RootMove>) {
        let mut outcome = self.outcome;
        outcome.seldepth = self.worker.seldepth;
        outcome.stats = self.worker.stats;
        (outcome, self.root_moves)
    }

    /// Iterative deepening: depth 1, 2, 3, ... until a limit says stop. Each iteration starts
    /// with the previous best move, which is what makes the deeper searches cheap.
    pub fn iterate(&mut self) {
        if self.root_moves.is_empty() {
            return;
        }
        self.worker.evaluator.set_root(&self.game.root);
        self.worker.stack[0].correction_keys = CorrectionKeys::of(&self.game.root);
        let mut completed: Vec<RootMove> = self.root_moves.clone();
        let mut nodes_before = 0;
        // Iterations in a row that kept the same best move (for the time manager).
        let mut stable_iterations = 0;
        for depth in 1..=self.max_depth {
            if skips_depth(self.worker.thread_index, depth) {
                continue;
            }
            self.worker.may_stop = self.worker.stop.may_interrupt(depth);
            self.worker.seldepth = 0;
            for line in 0..self.lines {
                self.search_line(depth, line);
                if self.worker.stopped {
                    break;
                }
            }
            if self.worker.stopped {
                self.end_interrupted(depth, &completed);
                return;
            }
            self.order_lines();

            let stats = &mut self.worker.stats;
            stats.iteration_nodes.push(stats.nodes - nodes_before);
            nodes_before = stats.nodes;
            let previous_best_move = completed[0].mv;
            let previous_best_score = completed[0].score;
            self.report(0..self.lines, depth);
            self.set_outcome(depth);
            for rm in self.root_moves.iter_mut() {
                rm.previous_score = rm.score;
            }
            completed.clone_from_slice(&self.root_moves);

            if depth > 1 {
                stable_iterations = if self.root_moves[0].mv == previous_best_move {
                    stable_iterations + 1
                } else {
                    0
                };
            }
            let score_drop = previous_best_score.0 - self.root_moves[0].score.0;
            if self.should_stop_after(depth, stable_iterations, score_drop) {
                return;
            }
        }
    }

    /// Whether the search ends after the iteration at `depth` completed: the stop policy's
    /// answer, told what the iteration found and how much of the soft time target the best
    /// move's stability, score and share of the nodes allow.
    fn should_stop_after(&self, depth: Depth, stable_iterations: u32, score_drop: i32) -> bool {
        let worker = &self.worker;
        let done = Iteration {
            depth,
            nodes: worker.stats.nodes,
            score: self.root_moves[0].score,
            soft_percent: soft_target_percent(
                worker.steps.time_manager_scaling,
                &self.root_moves,
                stable_iterations,
                score_drop,
            ),
        };
        worker.stop.stops_after_iteration(worker.control, done)
    }

    /// Puts the MultiPV lines of a completed iteration in score order (stably), within each
    /// tablebase rank, as Stockfish does: a line is the best of the moves left after the lines
    /// before it, but a move that only failed low under an earlier line's null window can score
    /// higher when searched with a full one, and a GUI shows line 1 as the best.
    fn order_lines(&mut self) {
        let mut start = 0;
        while start < self.lines {
            let rank = self.root_moves[start].tb_rank;
            let run = self.root_moves[start..self.lines].partition_point(|rm| rm.tb_rank == rank);
            self.root_moves[start..start + run].sort_by_key(|rm| std::cmp::Reverse(rm.score));
            start += run;
        }
    }

    /// The search stopped inside the iteration at `depth`: keeps what counts of it.
    fn end_interrupted(&mut self, depth: Depth, completed: &[RootMove]) {
        // A partial iteration counts only if its best move was fully searched; the first one
        // (stopped there only under a strength limit) always, as it is all there is.
        let first_line_done = self.root_moves[0].bound == Some(Bound::Exact);
        if (self.lines == 1 && first_line_done)
            || (depth == 1 && self.root_moves[0].bound.is_some())
        {
            self.report(0..1, depth);
            self.set_outcome(depth);
        } else {
            // Back to the last completed iteration, whose exact lines are reported again:
            // bound lines printed by an aspiration re-search must not be the last word.
            self.root_moves.clone_from_slice(completed);
            self.report(0..self.lines, depth - 1);
        }
    }

    /// Finds the best root move from index `line` on at `depth` with aspiration windows: a
    /// narrow window around the last iteration's score cuts more, and is widened (with the
    /// bound reported) whenever the true score falls outside it.
    fn search_line(&mut self, depth: Depth, line: usize) {
        let previous = self.root_moves[line].previous_score;
        let mut delta = aspiration_window();
        let narrow = self.worker.steps.aspiration_windows
            && depth >= aspiration_min_depth()
            && !previous.is_decisive();
        let (mut alpha, mut beta) = if narrow {
            (previous - delta, previous + delta)
        } else {
            (-Score::INFINITE, Score::INFINITE)
        };
        loop {
            let score = self.search_root(depth, line, alpha, beta);
            if self.worker.stopped {
                return;
            }
            if score > alpha && score < beta {
                return;
            }
            // Outside the window: report the bound, widen on the side that failed, search again.
            self.report(line..line + 1, depth);
            if score <= alpha {
                // Failed low: nothing reached alpha. Keep beta close, lower alpha.
                beta = Score((alpha.0 + beta.0) / 2);
                alpha = Score((score.0 - delta).max(-Score::INFINITE.0));
            } else {
                beta = Score((score.0 + delta).min(Score::INFINITE.0));
            }
            delta = delta * aspiration_growth_percent() / 100;
        }
    }

    fn set_outcome(&mut self, depth: Depth) {
        let best = &self.root_moves[0];
        self.outcome.score = reported_score(best, best.score);
        self.outcome.depth = depth;
        self.outcome.pv = best.pv.clone();
    }

    /// Reports the root moves at `indices` as the MultiPV lines they are.
    fn report(&mut self, indices: Range<usize>, depth: Depth) {
        let elapsed = self.start.elapsed();
        let hashfull = self.worker.shared.tt.hashfull();
        let first_index = indices.start;
        for (i, rm) in self.root_moves[indices].iter().enumerate() {
            // A line that failed low has no score of its own at this depth: the window's alpha
            // bounds it from above.
            let (score, bound) = match rm.bound {
                Some(b) => (rm.score, b),
                None => (rm.fail_low_bound, Bound::Upper),
            };
            let (score, bound) = match reported_score(rm, score) {
                tb if tb != score => (tb, Bound::Exact),
                _ => (score, bound),
            };
            self.reporter.iteration(&IterationInfo {
                depth,
                seldepth: self.worker.seldepth.max(depth as usize),
                multipv: first_index + i + 1,
                score,
                bound,
                nodes: self.worker.total_nodes(),
                elapsed,
                hashfull,
                tb_hits: self.worker.total_tb_hits(),
                pv: &rm.pv,
            });
        }
    }

    /// Searches the root moves from index `line` on (earlier ones are the better MultiPV
    /// lines already found at this depth) within (alpha, beta), with principal variation
    /// search, and moves the best of them to index `line`. Returns the best score (fail-soft).
    fn search_root(&mut self, depth: Depth, line: usize, mut alpha: Score, beta: Score) -> Score {
        let worker = &mut self.worker;
        let game = self.game;
        let pos = &game.root;
        let root_moves = &mut self.root_moves;
        // Only the moves of the line's tablebase rank compete for it (all, without tables).
        let rank = root_moves[line].tb_rank;
        let end = line + root_moves[line..].partition_point(|rm| rm.tb_rank == rank);
        for rm in root_moves[line..end].iter_mut() {
            rm.score = -Score::INFINITE;
            rm.bound = None;
        }
        root_moves[line].fail_low_bound = alpha;
        let mut best = -Score::INFINITE;
        // The root itself, counted against the node limit like every node (an iteration that
        // began one node below `go nodes N` searched N + 1).
        worker.count_node(0);
        if worker.stopped {
            return best;
        }
        for (index, rm) in root_moves[line..end].iter_mut().enumerate() {
            let m = rm.mv;
            let nodes_before = worker.stats.nodes;
            let score = worker.visit_child(pos, game.root_key, 0, m, |worker, child, key| {
                worker.principal_variation_search(
                    child,
                    key,
                    depth - 1,
                    1,
                    alpha,
                    beta,
                    index == 0,
                    0,
                    KnownCheck::Unknown,
                )
            });
            rm.nodes += worker.stats.nodes - nodes_before;
            if worker.stopped {
                break;
            }
            // Under a strength limit the node budget binds from the first searched move on,
            // even in the first iteration: a move is ready.
            worker.may_stop |= worker.stop.may_interrupt_after_first_move();
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
        root_moves[line..end].sort_by_key(|rm| std::cmp::Reverse(rm.score));
        best
    }
}

/// The score to report for `rm` searched to `score`: the tables' score where they ranked the
/// root, unless the search found a mate (which says more).
fn reported_score(rm: &RootMove, score: Score) -> Score {
    match rm.tb_score {
        Some(tb) if !score.is_mate() => tb,
        _ => score,
    }
}

/// A ponder move when the principal variation stops after the best move (a table cutoff).
pub(super) fn ponder_from_tt(
    tt: &TranspositionTable,
    pos: &Chess,
    key: u64,
    best: Move,
) -> Option<Move> {
    let (child, child_key) = child_position(pos, key, best);
    let hit = tt.probe(child_key, 1)?;
    child.legal_moves().into_iter().find(|m| hit.mv.matches(*m))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_main_thread_never_skips_and_the_first_two_helpers_split_the_depths() {
        for depth in 1..20 {
            assert!(!skips_depth(0, depth));
            assert_ne!(
                skips_depth(1, depth),
                skips_depth(2, depth),
                "depth {depth}"
            );
        }
    }

    fn root_moves_with_nodes(nodes: &[u64]) -> Vec<RootMove> {
        let game = Game::default();
        let mut moves = root_moves(&game, &[]);
        for (rm, &n) in moves.iter_mut().zip(nodes) {
            rm.nodes = n;
        }
        moves
    }

    /// The switch reaches the stop decision: off, the soft target is used as it is; on, a
    /// settled best move (stable for many iterations, nearly all the nodes) stops early, and
    /// one in doubt (new, its score falling, few of the nodes) may run past the target.
    #[test]
    fn time_manager_scaling_shortens_settled_and_lengthens_doubtful_searches() {
        let settled = root_moves_with_nodes(&[9_900, 50, 50]);
        let doubtful = root_moves_with_nodes(&[2_000, 4_000, 4_000]);
        for moves in [&settled, &doubtful] {
            assert_eq!(soft_target_percent(false, moves, 10, 0), 100);
            assert_eq!(soft_target_percent(false, moves, 0, 300), 100);
        }
        let short = soft_target_percent(true, &settled, 10, 0);
        let long = soft_target_percent(true, &doubtful, 0, 300);
        assert!(short < 100, "settled: {short} %");
        assert!(long > 100, "in doubt: {long} %");
    }

    #[test]
    fn every_helper_searches_some_depths() {
        for index in 1..=64 {
            let searched = (1..20).filter(|&d| !skips_depth(index, d)).count();
            assert!(
                searched >= 8,
                "helper {index} searches {searched} of 19 depths"
            );
        }
    }
}
