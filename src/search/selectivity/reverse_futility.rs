//! Step 5: reverse futility pruning (switch `reverse_futility_pruning`; tunables
//! `rfp_max_depth`, `rfp_margin`).

use crate::search::alphabeta::Node;
use crate::search::params::{rfp_margin, rfp_max_depth};
use crate::search::worker::Worker;
use crate::types::{Depth, Score};

impl Worker<'_> {
    /// Step 5: whether the static evaluation is so far above beta that a shallow search would
    /// not come back down (a ply's margin less when improving). The node then returns its
    /// static evaluation.
    #[inline]
    pub(crate) fn reverse_futility_cuts(&self, node: &Node, beta: Score) -> bool {
        let depth = node.depth - Depth::from(node.improving);
        self.steps.reverse_futility_pruning
            && node.excluded.is_none()
            && !node.pv_node
            && !node.in_check
            && node.depth <= rfp_max_depth()
            && !beta.is_decisive()
            && node.static_eval - rfp_margin() * depth >= beta
    }
}
