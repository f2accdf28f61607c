//! Step 11: late-move reductions (switch `late_move_reductions`; tunables `lmr_min_depth`,
//! `lmr_min_move_index`, `lmr_base_hundredths`, `lmr_divisor_hundredths`), 11b less or more
//! by the move's history (switch `history_reductions`; tunable `lmr_history_divisor`).

#[cfg(not(feature = "spsa"))]
use std::sync::OnceLock;

use crate::search::alphabeta::Node;
use crate::search::params::{
    lmr_base_hundredths, lmr_divisor_hundredths, lmr_history_divisor, lmr_min_depth,
    lmr_min_move_index,
};
use crate::search::worker::Worker;
use crate::types::Depth;

impl Worker<'_> {
    /// Step 11: the late-move reduction of the move at `index` (none for the first moves,
    /// tactical moves, checks and evasions; one ply less at PV nodes, one more when not
    /// improving, and less or more by the move's history).
    #[inline]
    pub(crate) fn reduction(
        &self,
        node: &Node,
        index: usize,
        quiet: bool,
        gives_check: bool,
        history: i32,
    ) -> Depth {
        let depth = node.depth;
        if self.steps.late_move_reductions
            && depth >= lmr_min_depth()
            && index >= lmr_min_move_index()
            && !node.in_check
            && quiet
            && !gives_check
        {
            let mut r = late_move_reduction(depth, index) - i32::from(node.pv_node);
            if self.steps.improving && !node.improving {
                r += 1;
            }
            if self.steps.history_reductions {
                r -= history / lmr_history_divisor();
            }
            r.clamp(0, depth - 2)
        } else {
            0
        }
    }
}

/// The late-move reduction at `depth` for the move at `index`: `lmr_base + ln(depth) *
/// ln(index) / lmr_divisor` plies, rounded down.
fn reduction_formula(depth: usize, index: usize) -> u8 {
    if depth == 0 || index == 0 {
        return 0;
    }
    let base = f64::from(lmr_base_hundredths()) / 100.0;
    let divisor = f64::from(lmr_divisor_hundredths()) / 100.0;
    let value = base + (depth as f64).ln() * (index as f64).ln() / divisor;
    value.max(0.0) as u8
}

/// The late-move reduction table, by depth and move index (computed once from the defaults).
#[cfg(not(feature = "spsa"))]
fn late_move_reduction(depth: Depth, index: usize) -> Depth {
    static TABLE: OnceLock<[[u8; 64]; 64]> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let mut t = [[0u8; 64]; 64];
        for (d, row) in t.iter_mut().enumerate() {
            for (i, r) in row.iter_mut().enumerate() {
                *r = reduction_formula(d, i);
            }
        }
        t
    });
    Depth::from(table[(depth as usize).min(63)][index.min(63)])
}

/// The tuning build computes each reduction afresh: its parameters change between searches.
#[cfg(feature = "spsa")]
fn late_move_reduction(depth: Depth, index: usize) -> Depth {
    Depth::from(reduction_formula((depth as usize).min(63), index.min(63)))
}
