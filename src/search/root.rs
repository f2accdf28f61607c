//! The root of the search: iterative deepening over the root moves, aspiration windows, and
//! the reports of each iteration. The main thread and the helpers run the same driver.

use std::time::Instant;

use shakmaty::{Chess, Move, Position};

use super::limits::{IterationInfo, Limits, Reporter, SearchOutcome, MAX_DEPTH};
use super::time;
use super::worker::Worker;
use crate::params::{
    features, ASPIRATION_GROWTH_PERCENT, ASPIRATION_MIN_DEPTH, ASPIRATION_WINDOW,
    HELPER_SKIP_PHASE, HELPER_SKIP_SIZE,
};
use crate::position::{child_key, Game, Key};
use crate::tt::TranspositionTable;
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
        })
        .collect()
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

/// Iterative deepening: depth 1, 2, 3, ... until a limit says stop. Each iteration starts with
/// the previous best move, which is what makes the deeper searches cheap.
#[allow(clippy::too_many_arguments)]
pub(super) fn iterate(
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
        if skips_depth(worker.thread_index, depth) {
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
            let scale = if features::TIME_MANAGER_SCALING {
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
pub(super) fn ponder_from_tt(
    tt: &TranspositionTable,
    pos: &Chess,
    key: u64,
    best: Move,
) -> Option<Move> {
    let mut child = pos.clone();
    child.play_unchecked(best);
    let child_key = child_key(pos, key, best, &child);
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
