//! Step 6: null-move pruning (switch `null_move_pruning`; tunables `nmp_min_depth`,
//! `nmp_base_reduction`, `nmp_depth_divisor`).

use shakmaty::{Chess, Position};

use crate::search::alphabeta::Node;
use crate::search::params::{nmp_base_reduction, nmp_depth_divisor, nmp_min_depth};
use crate::search::worker::{KnownCheck, Worker};
use crate::types::{Depth, Score};

impl Worker<'_> {
    /// Step 6: whether to try a null move. If even passing leaves us at or above beta, a real
    /// move will too (barring zugzwang, which is why it needs pieces besides pawns).
    #[inline]
    pub(crate) fn tries_null_move(&self, pos: &Chess, node: &Node, beta: Score) -> bool {
        self.steps.null_move_pruning
            && !node.pv_node
            && !node.in_check
            && node.depth >= nmp_min_depth()
            && node.static_eval >= beta
            && !beta.is_decisive()
            && !self.after_null_move(node.ply)
            && node.excluded.is_none()
            && has_pieces(pos)
    }

    /// Step 6: passes and searches the opponent's reply at a reduced depth with a null window
    /// at beta. `Some` when the node is done: it failed high, or the search was stopped.
    pub(crate) fn null_move_search(
        &mut self,
        pos: &Chess,
        node: &Node,
        beta: Score,
    ) -> Option<Score> {
        let Node {
            key, depth, ply, ..
        } = *node;
        let reduction = null_move_reduction(depth);
        let score = -self.visit_null_child(pos, key, ply, |worker, child, child_key| {
            let depth = depth - 1 - reduction;
            // The opponent is never in check after our pass: we were not.
            let check = KnownCheck::Known(false);
            worker.alpha_beta(child, child_key, depth, ply + 1, -beta, -beta + 1, check)
        })?;
        if self.stopped {
            return Some(Score::ZERO);
        }
        // A mate or tablebase win found after passing is not proven for real moves.
        (score >= beta).then(|| if score.is_decisive() { beta } else { score })
    }
}

/// Whether the side to move has a piece besides king and pawns (zugzwang is then unlikely).
#[inline]
fn has_pieces(pos: &Chess) -> bool {
    let board = pos.board();
    let ours = board.by_color(pos.turn());
    !(ours & !board.pawns() & !board.kings()).is_empty()
}

/// Step 6: how many plies shallower than a child the null move's reply is searched (more the
/// deeper the node).
#[inline]
fn null_move_reduction(depth: Depth) -> Depth {
    nmp_base_reduction() + depth / nmp_depth_divisor()
}
