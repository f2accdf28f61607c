//! Step 9b: history pruning (switch `history_pruning`; tunables `history_pruning_max_depth`,
//! `history_pruning_margin`).

use crate::search::alphabeta::Node;
use crate::search::params::{history_pruning_margin, history_pruning_max_depth};
use crate::search::worker::Worker;

impl Worker<'_> {
    /// Step 9b: whether a quiet move is skipped for its bad history (history pruning).
    #[inline]
    pub(crate) fn prunes_by_history(&self, node: &Node, history: i32) -> bool {
        self.steps.history_pruning
            && node.depth <= history_pruning_max_depth()
            && history < -history_pruning_margin() * node.depth
    }
}
