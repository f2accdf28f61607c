//! Step 9: futility and late-move pruning of quiet moves (switch
//! `futility_and_late_move_pruning`; tunables `fp_max_depth`, `fp_base`, `fp_margin`,
//! `lmp_max_depth`, `lmp_base`).

use crate::search::alphabeta::Node;
use crate::search::params::{fp_base, fp_margin, fp_max_depth, lmp_base, lmp_max_depth};
use crate::search::worker::Worker;
use crate::types::{Depth, Score};

impl Worker<'_> {
    /// Step 9: whether quiet, non-checking moves may be pruned at this node at all: not on
    /// the principal variation, not in check, and only once a move has kept us off a mate.
    #[inline]
    pub(crate) fn may_prune_quiets(&self, node: &Node, best: Score) -> bool {
        self.steps.futility_and_late_move_pruning
            && !node.pv_node
            && !node.in_check
            && best > -Score::TB_WIN_BOUND
    }

    /// Step 9 for every quiet move left at once: each that does not give check would be
    /// pruned, now and (both rules only tighten as moves are searched: `best` and `alpha`
    /// rise, `quiets_searched` grows) for the rest of the node.
    #[inline]
    pub(crate) fn prunes_every_quiet(
        &self,
        node: &Node,
        best: Score,
        quiets_searched: Depth,
        alpha: Score,
    ) -> bool {
        self.may_prune_quiets(node, best) && self.prunes_late_quiets(node, quiets_searched, alpha)
    }

    /// Step 9: whether the quiet moves from here on are skipped, whichever they are: near the
    /// leaves after enough quiet moves (LMP; half as many when not improving), or too far
    /// below alpha (futility). Neither reads the move, so the move's history is not read for
    /// the moves they prune.
    #[inline]
    pub(crate) fn prunes_late_quiets(
        &self,
        node: &Node,
        quiets_searched: Depth,
        alpha: Score,
    ) -> bool {
        let depth = node.depth;
        let mut late_moves = lmp_base() + depth * depth;
        if self.steps.improving && !node.improving {
            late_moves /= 2;
        }
        (depth <= lmp_max_depth() && quiets_searched >= late_moves)
            || (depth <= fp_max_depth()
                && node.static_eval + fp_base() + fp_margin() * depth <= alpha)
    }
}
