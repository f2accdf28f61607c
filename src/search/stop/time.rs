//! The time manager: how long this move may take, from the clock or the move time of `go`
//! (the stop policy, `stop/mod.rs`, builds it and asks it).

use std::time::Duration;

use shakmaty::Color;

use super::limits::{Clock, Limits};
use crate::search::params::*;

/// The time a search may use, measured from the moment the clock started (the `go`, or the
/// `ponderhit` that ends pondering).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeBudget {
    /// Do not start another iteration after (part of) this.
    pub soft: Duration,
    /// Stop the search at once when this is reached.
    pub hard: Duration,
    /// `go movetime`: the time is the user's to spend, all of it; iterations start until the
    /// hard limit and the last, unfinished one counts if its first move was searched.
    pub fixed: bool,
}

impl TimeBudget {
    /// The budget of the clock of `side` (the side to move) and the move time that `limits`
    /// give (either or both); `None` when the search has no time limit (depth, nodes, mate,
    /// infinite).
    pub fn new(
        limits: &Limits,
        side: Color,
        overhead: Duration,
        legal_moves: usize,
    ) -> Option<TimeBudget> {
        let clock = limits.clocks.of(side);
        let from_clock = clock.map(|c| Self::from_clock(c, overhead, legal_moves));
        let from_movetime = limits.movetime.map(|t| {
            let t = t.saturating_sub(overhead).max(Duration::from_millis(1));
            TimeBudget {
                soft: t,
                hard: t,
                fixed: true,
            }
        });
        match (from_clock, from_movetime) {
            (Some(a), Some(b)) => Some(TimeBudget {
                soft: a.soft.min(b.soft),
                hard: a.hard.min(b.hard),
                fixed: false,
            }),
            (a, b) => a.or(b),
        }
    }

    fn from_clock(clock: Clock, overhead: Duration, legal_moves: usize) -> TimeBudget {
        let left = clock
            .time
            .saturating_sub(overhead)
            .max(Duration::from_millis(1));
        let moves_to_go = clock.moves_to_go.unwrap_or(default_moves_to_go()).max(1);
        let increment = clock.increment * increment_use_percent() / 100;
        let mut soft = left / moves_to_go + increment;
        let mut hard =
            (soft * hard_limit_soft_multiple()).min(left * hard_limit_max_percent() / 100);
        if moves_to_go == 1 {
            hard = left * (100 - last_move_reserve_percent()) / 100;
        }
        if legal_moves == 1 {
            // Nothing to think about: answer as soon as a move (and a ponder move) is known.
            soft = soft.min(Duration::from_millis(10));
        }
        // The soft target never exceeds the hard limit.
        soft = soft.min(hard);
        TimeBudget {
            soft,
            hard,
            fixed: false,
        }
    }

    /// Whether a new iteration is worth starting after `elapsed`, with the soft target scaled
    /// by `scale_percent` (see [`soft_scale_percent`]). Never beyond the hard limit.
    pub fn may_start_iteration(&self, elapsed: Duration, scale_percent: u32) -> bool {
        if self.fixed {
            return elapsed < self.hard;
        }
        let soft = (self.soft * scale_percent / 100).min(self.hard);
        elapsed < soft * new_iteration_max_percent() / 100
    }
}

/// How much of the soft target to allow after an iteration: more while the best move keeps
/// changing or the score is falling (the search has found trouble), less once it has settled.
/// `stable_iterations` counts the iterations in a row that kept the same best move;
/// `score_drop` is the previous iteration's score minus this one's.
pub fn soft_scale_percent(stable_iterations: u32, score_drop: i32) -> u32 {
    let mut percent = if stable_iterations == 0 {
        tm_unstable_percent()
    } else if stable_iterations >= tm_stable_iterations() {
        tm_stable_percent()
    } else {
        100
    };
    if score_drop >= tm_score_drop_cp() {
        percent += tm_score_drop_percent();
    }
    percent
}

/// How much of the soft target to allow for how the root's nodes were shared: a best move
/// that took nearly all of them is settled (down to `tm_node_base_percent`), one that took few
/// is still in doubt (up to `tm_node_base_percent + tm_node_doubt_percent`), as in Ethereal.
/// 100 when nothing was searched yet.
pub fn node_share_percent(best_nodes: u64, all_nodes: u64) -> u32 {
    if all_nodes == 0 {
        return 100;
    }
    let others_permille = 1000 - (best_nodes.min(all_nodes) * 1000 / all_nodes) as u32;
    tm_node_base_percent() + tm_node_doubt_percent() * others_permille / 1000
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The budget of White's clock when both sides have `ms` and `inc` (and `mtg`).
    fn budget(ms: u64, inc: u64, mtg: Option<u32>, overhead: Duration) -> TimeBudget {
        TimeBudget::new(&Limits::clock(ms, inc, mtg), Color::White, overhead, 20).unwrap()
    }

    #[test]
    fn hard_limit_leaves_most_of_the_clock() {
        let overhead = Duration::from_millis(20);
        for (ms, inc, mtg) in [
            (1000, 10, None),
            (100, 0, None),
            (10_000, 100, None),
            (10_000, 0, Some(40)),
            (50, 0, Some(1)),
            (30, 0, None),
        ] {
            let b = budget(ms, inc, mtg, overhead);
            assert!(b.soft <= b.hard, "{ms}+{inc}/{mtg:?}: {b:?}");
            assert!(
                b.hard < Duration::from_millis(ms).max(Duration::from_millis(1)),
                "{ms}+{inc}/{mtg:?}: {b:?}"
            );
        }
    }

    /// The clock settles where a move's use equals the increment; spending the increment in
    /// full keeps the soft target above it however low the clock runs, so the clock is used
    /// down to a small reserve rather than kept at seconds (docs/strength.md, 27 Nov).
    #[test]
    fn a_low_clock_still_spends_at_least_the_whole_increment() {
        for ms in [300, 1000, 3000] {
            let b = budget(ms, 100, None, Duration::from_millis(10));
            assert!(b.soft >= Duration::from_millis(100), "{ms}: {b:?}");
            assert!(b.hard < Duration::from_millis(ms), "{ms}: {b:?}");
        }
    }

    #[test]
    fn unsettled_searches_get_more_time() {
        assert!(soft_scale_percent(0, 0) > soft_scale_percent(1, 0));
        assert!(soft_scale_percent(1, 0) > soft_scale_percent(tm_stable_iterations(), 0));
        assert!(soft_scale_percent(2, tm_score_drop_cp()) > soft_scale_percent(2, 0));
        // Whatever the scale, an iteration never starts past the hard limit.
        let b = TimeBudget {
            soft: Duration::from_millis(100),
            hard: Duration::from_millis(120),
            fixed: false,
        };
        assert!(!b.may_start_iteration(Duration::from_millis(120), 1000));
    }

    #[test]
    fn a_best_move_that_takes_fewer_of_the_nodes_gets_more_time() {
        assert_eq!(node_share_percent(0, 0), 100);
        let settled = node_share_percent(95, 100);
        let doubted = node_share_percent(30, 100);
        assert!(settled < 100 && 100 < doubted, "{settled} {doubted}");
        assert!(node_share_percent(100, 100) == tm_node_base_percent());
    }

    #[test]
    fn movetime_subtracts_the_overhead() {
        let movetime = Limits::movetime(500);
        let b = TimeBudget::new(&movetime, Color::White, Duration::from_millis(20), 20).unwrap();
        assert_eq!(b.hard, Duration::from_millis(480));
        // A fixed move time is used in full.
        assert!(b.may_start_iteration(Duration::from_millis(470), 100));
        assert!(TimeBudget::new(&Limits::depth(5), Color::White, Duration::ZERO, 20).is_none());
    }
}
