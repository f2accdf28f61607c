//! When a search stops: one policy, built once from the `go` limits and the time manager's
//! budget, that every part of the search asks instead of reading the limits itself. The root
//! asks how deep to go, whether to stop after an iteration and whether to keep its answer until
//! `stop`; the workers ask whether the node limit is reached (every node) and whether to stop
//! now (every poll); helpers get a policy of their own, ended only by `stop`.

use std::time::Duration;

use shakmaty::Color;

mod control;
mod limits;
pub mod time;

use crate::types::{Depth, Score};
pub use control::Control;
pub use limits::{Clocks, Limits, MAX_DEPTH};
use time::TimeBudget;

/// What ends one thread's search, fixed when the search starts.
#[derive(Clone, Copy, Debug)]
pub(super) struct StopPolicy {
    /// The last iteration the root starts.
    max_depth: Depth,
    /// Stop at once after this many nodes (`go nodes`; `u64::MAX` for none).
    nodes: u64,
    /// Start no new iteration after this many nodes (data generation's soft limit).
    soft_nodes: Option<u64>,
    /// The time manager's soft and hard bounds, when there is a clock or a move time.
    budget: Option<TimeBudget>,
    /// `go mate N`: stop once an iteration proves a mate in at most N moves.
    mate: Option<u32>,
    /// `go infinite`: never stop on one's own; only `stop` ends it.
    infinite: bool,
    /// Only `stop` can be counted on to end the search (see [`Limits::is_endless`]).
    endless: bool,
    /// A strength limit's node budget binds from the first searched root move on, even while
    /// depth 1 runs: a move is ready then.
    binds_after_first_move: bool,
    /// A helper thread, whose result is never used: it may stop in any iteration.
    helper: bool,
}

/// What the root knows once an iteration completed, for [`StopPolicy::stops_after_iteration`].
#[derive(Clone, Copy, Debug)]
pub(super) struct Iteration {
    pub depth: Depth,
    /// Nodes this thread has searched so far.
    pub nodes: u64,
    /// The best move's (exact) score.
    pub score: Score,
    /// How much of the soft time target the time manager allows now (100: all of it).
    pub soft_percent: u32,
}

impl Default for StopPolicy {
    /// No limit at all: the policy of `Limits::default()` (a bare `go`).
    fn default() -> Self {
        StopPolicy::new(&Limits::default(), Color::White, Duration::ZERO, 0)
    }
}

impl StopPolicy {
    /// The policy of `limits`, with the time manager's budget for a root of `legal_moves`
    /// moves, `side` to move, when the limits give a clock or a move time (less `overhead`).
    pub fn new(limits: &Limits, side: Color, overhead: Duration, legal_moves: usize) -> StopPolicy {
        let max_depth = match limits.depth {
            _ if limits.infinite => MAX_DEPTH,
            Some(d) => d.clamp(1, MAX_DEPTH),
            None => MAX_DEPTH,
        };
        StopPolicy {
            max_depth,
            nodes: limits.nodes.unwrap_or(u64::MAX),
            soft_nodes: limits.soft_nodes,
            budget: TimeBudget::new(limits, side, overhead, legal_moves),
            mate: limits.mate,
            infinite: limits.infinite,
            endless: limits.is_endless(),
            binds_after_first_move: false,
            helper: false,
        }
    }

    /// A helper thread's policy: search until `stop`, interruptible in any iteration.
    pub fn helper() -> StopPolicy {
        let limits = Limits {
            infinite: true,
            ..Limits::default()
        };
        StopPolicy {
            helper: true,
            ..StopPolicy::new(&limits, Color::White, Duration::ZERO, 0)
        }
    }

    /// The same policy under a strength limit's node budget of `nodes`: the smaller node limit
    /// holds, it binds from the first searched root move on, and the search is no longer
    /// endless, having a node limit — unless infinite, or a `go mate` alone, which asked for a
    /// mate, not for a move within the budget: the budget ends its search, and the answer
    /// still waits for the mate or `stop`, as without the limit.
    pub fn with_strength_nodes(self, nodes: u64) -> StopPolicy {
        StopPolicy {
            nodes: self.nodes.min(nodes),
            endless: self.infinite || (self.endless && self.mate.is_some()),
            binds_after_first_move: true,
            ..self
        }
    }

    /// The deepest iteration the root starts.
    pub fn max_depth(&self) -> Depth {
        self.max_depth
    }

    /// Whether the iteration at `depth` may be cut short: not depth 1, which must finish so
    /// that a legal move is always ready, unless this is a helper's search.
    pub fn may_interrupt(&self, depth: Depth) -> bool {
        depth > 1 || self.helper
    }

    /// Whether the search may be cut short as soon as one root move is searched, even in
    /// depth 1 (a strength limit's node budget).
    pub fn may_interrupt_after_first_move(&self) -> bool {
        self.binds_after_first_move
    }

    /// Whether `nodes` reach the hard node limit: stop now (asked at every node).
    #[inline]
    pub fn out_of_nodes(&self, nodes: u64) -> bool {
        nodes >= self.nodes
    }

    /// Whether to stop now (asked at every poll): `stop` came, or the clock (when it runs:
    /// not while pondering) passed the hard limit.
    pub fn stops_now(&self, control: &Control) -> bool {
        control.is_stopped()
            || self.budget.is_some_and(|budget| {
                !control.is_pondering() && control.clock_elapsed() >= budget.hard
            })
    }

    /// Whether the search ends after the iteration `done` completed: never while infinite or
    /// pondering; otherwise once the wanted mate is proven, `stop` came, the time manager
    /// advises against another iteration, or a node limit or the last depth is reached.
    pub fn stops_after_iteration(&self, control: &Control, done: Iteration) -> bool {
        if self.infinite || control.is_pondering() {
            return false;
        }
        // The iteration is complete, so its score is exact: the mate is proven.
        self.is_wanted_mate(done.score)
            || control.is_stopped()
            || self.budget.is_some_and(|budget| {
                !budget.may_start_iteration(control.clock_elapsed(), done.soft_percent)
            })
            || self.out_of_nodes(done.nodes)
            || self.soft_nodes.is_some_and(|n| done.nodes >= n)
            || (self.endless && done.depth >= MAX_DEPTH)
    }

    /// Whether the main thread keeps its answer, the search done, until `stop` (or
    /// `ponderhit`): an infinite or pondering search never answers before it is told to, nor
    /// does a `go mate` alone that found no such mate (`score`): it is `go infinite` until
    /// the mate shows.
    pub fn waits_for_stop(&self, control: &Control, score: Score) -> bool {
        let mate_unfound = self.mate.is_some() && self.endless && !self.is_wanted_mate(score);
        !control.is_stopped() && (self.infinite || control.is_pondering() || mate_unfound)
    }

    /// Whether `score` is the mate `go mate` asks for.
    fn is_wanted_mate(&self, score: Score) -> bool {
        match (self.mate, score.mate_moves()) {
            (Some(n), Some(m)) => m > 0 && m <= n as i32,
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the root reports after an iteration at `depth` with `nodes` and `score`, the soft
    /// target unscaled.
    fn done(depth: Depth, nodes: u64, score: Score) -> Iteration {
        Iteration {
            depth,
            nodes,
            score,
            soft_percent: 100,
        }
    }

    fn policy(limits: Limits) -> StopPolicy {
        StopPolicy::new(&limits, Color::White, Duration::ZERO, 20)
    }

    #[test]
    fn a_node_limit_stops_the_search_at_once_when_reached() {
        let nodes = policy(Limits::nodes(1000));
        assert!(!nodes.out_of_nodes(999));
        assert!(nodes.out_of_nodes(1000));
        assert!(!policy(Limits::default()).out_of_nodes(u64::MAX - 1));
    }

    #[test]
    fn a_soft_node_limit_stops_only_after_the_iteration() {
        let soft = policy(Limits {
            soft_nodes: Some(500),
            ..Limits::default()
        });
        let control = Control::default();
        assert!(!soft.out_of_nodes(10_000), "never in the middle of one");
        assert!(!soft.stops_after_iteration(&control, done(4, 499, Score(30))));
        assert!(soft.stops_after_iteration(&control, done(4, 500, Score(30))));
    }

    #[test]
    fn a_depth_limit_is_the_last_iteration_unless_infinite() {
        let control = Control::default();
        let depth = policy(Limits::depth(5));
        assert_eq!(depth.max_depth(), 5);
        assert!(!depth.stops_after_iteration(&control, done(4, 1_000_000, Score(30))));
        assert_eq!(policy(Limits::depth(0)).max_depth(), 1);
        let infinite = policy(Limits {
            infinite: true,
            ..Limits::depth(5)
        });
        assert_eq!(infinite.max_depth(), MAX_DEPTH);
    }

    #[test]
    fn an_infinite_search_stops_and_answers_only_after_stop() {
        let control = Control::default();
        let infinite = policy(Limits {
            infinite: true,
            mate: Some(1),
            ..Limits::default()
        });
        let mated = done(MAX_DEPTH, u64::MAX - 1, Score::mate_in(1));
        assert!(!infinite.stops_after_iteration(&control, mated));
        assert!(!infinite.stops_now(&control));
        assert!(infinite.waits_for_stop(&control, Score::mate_in(1)));
        control.stop();
        assert!(infinite.stops_now(&control));
        assert!(!infinite.waits_for_stop(&control, Score::mate_in(1)));
    }

    /// `go ponder movetime 1`: the clock does not run while pondering, so neither time limit
    /// stops the search; after `ponderhit` the hard limit does, and the answer is given.
    #[test]
    fn a_pondering_search_ignores_the_clock_until_ponderhit() {
        let control = Control::default();
        control.begin(true);
        let ponder = policy(Limits::movetime(1));
        std::thread::sleep(Duration::from_millis(5));
        assert!(!ponder.stops_now(&control));
        assert!(!ponder.stops_after_iteration(&control, done(3, 100, Score(30))));
        assert!(ponder.waits_for_stop(&control, Score(30)));
        control.ponderhit();
        assert!(!ponder.waits_for_stop(&control, Score(30)));
        std::thread::sleep(Duration::from_millis(5));
        assert!(ponder.stops_now(&control));
        assert!(ponder.stops_after_iteration(&control, done(3, 100, Score(30))));
    }

    #[test]
    fn the_time_limits_stop_once_the_clock_passes_them() {
        let control = Control::default();
        let short = policy(Limits::movetime(1));
        let long = policy(Limits::movetime(3_600_000));
        std::thread::sleep(Duration::from_millis(5));
        assert!(short.stops_now(&control));
        assert!(short.stops_after_iteration(&control, done(3, 100, Score(30))));
        assert!(!long.stops_now(&control));
        assert!(!long.stops_after_iteration(&control, done(3, 100, Score(30))));
    }

    /// `go mate 2` alone: stops after the iteration that proves a mate in at most 2 moves,
    /// and keeps its answer until `stop` while none is proven.
    #[test]
    fn go_mate_stops_once_the_mate_is_proven_and_else_waits_for_stop() {
        let control = Control::default();
        let mate = policy(Limits {
            mate: Some(2),
            ..Limits::default()
        });
        let in_two = Score::mate_in(3);
        let in_three = Score::mate_in(5);
        assert!(mate.stops_after_iteration(&control, done(3, 100, in_two)));
        assert!(!mate.stops_after_iteration(&control, done(5, 100, in_three)));
        assert!(!mate.waits_for_stop(&control, in_two));
        assert!(mate.waits_for_stop(&control, in_three));
    }

    /// A strength limit's node budget: the smaller limit holds and it binds from the first
    /// root move on; a `go mate` alone under it still answers only once its mate is proven or
    /// `stop` comes (the budget ends the search, not the wait: issue 80), as without the limit;
    /// a bare `go` under it answers when the budget is spent.
    #[test]
    fn a_strength_node_budget_binds_from_the_first_move_and_a_go_mate_still_waits_for_stop() {
        let control = Control::default();
        let mate = Limits {
            mate: Some(2),
            ..Limits::default()
        };
        let plain = policy(mate.clone());
        let limited = policy(mate).with_strength_nodes(100);
        assert!(!plain.may_interrupt_after_first_move());
        assert!(limited.may_interrupt_after_first_move());
        assert!(!limited.out_of_nodes(99));
        assert!(limited.out_of_nodes(100));
        let capped = policy(Limits::nodes(50)).with_strength_nodes(100);
        assert!(capped.out_of_nodes(50));
        assert!(plain.waits_for_stop(&control, Score(30)));
        assert!(limited.waits_for_stop(&control, Score(30)));
        assert!(!limited.waits_for_stop(&control, Score::mate_in(3)));
        let bare = StopPolicy::default().with_strength_nodes(100);
        assert!(!bare.waits_for_stop(&control, Score(30)));
        control.stop();
        assert!(!limited.waits_for_stop(&control, Score(30)));
    }

    #[test]
    fn only_a_helper_may_stop_in_the_first_iteration() {
        let main = StopPolicy::default();
        assert!(!main.may_interrupt(1));
        assert!(main.may_interrupt(2));
        let helper = StopPolicy::helper();
        assert!(helper.may_interrupt(1));
        assert_eq!(helper.max_depth(), MAX_DEPTH);
        let control = Control::default();
        assert!(!helper.stops_after_iteration(&control, done(MAX_DEPTH, 100, Score(30))));
    }

    /// A bare `go` runs until stopped, but ends at the last depth the driver starts.
    #[test]
    fn a_bare_go_stops_only_at_the_last_depth() {
        let control = Control::default();
        let bare = StopPolicy::default();
        assert!(!bare.stops_after_iteration(&control, done(MAX_DEPTH - 1, 1_000_000, Score(30))));
        assert!(bare.stops_after_iteration(&control, done(MAX_DEPTH, 1_000_000, Score(30))));
    }
}
