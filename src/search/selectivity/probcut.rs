//! Step 7: probcut (switch `probcut`; tunables `probcut_min_depth`, `probcut_margin`; the
//! fixed [`PROBCUT_REDUCTION`]).

use shakmaty::Chess;

use crate::search::alphabeta::Node;
use crate::search::movepick::MovePicker;
use crate::search::ordering::MoveBuffer;
use crate::search::params::{probcut_margin, probcut_min_depth};
use crate::search::tables::tt::{Hit, Stored};
use crate::search::worker::{KnownCheck, Worker};
use crate::types::{Bound, Score};

/// Probcut's verification search of a capture is this many plies shallower than a normal
/// search of it (as in Stockfish: a child at `depth - 4`, stored as a node of `depth - 3`).
/// Fixed, not tuned.
const PROBCUT_REDUCTION: i32 = 3;

impl Worker<'_> {
    /// Step 7: whether to try probcut at this node, whose captures must reach `probcut_beta`
    /// (see [`probcut_beta`]).
    #[inline]
    fn tries_probcut(
        &self,
        node: &Node,
        beta: Score,
        probcut_beta: Score,
        tt_hit: Option<Hit>,
    ) -> bool {
        self.steps.probcut
            && !node.pv_node
            && !node.in_check
            && node.excluded.is_none()
            && node.depth >= probcut_min_depth()
            && !beta.is_decisive()
            // A stored search as deep as probcut's own already says the captures do not reach it.
            && !tt_hit.is_some_and(|hit| {
                hit.depth >= node.depth - PROBCUT_REDUCTION && hit.score < probcut_beta
            })
    }

    /// Step 7: probcut. A good capture whose quiescence value and then a search
    /// `PROBCUT_REDUCTION` plies shallower both beat `beta + probcut_margin` would very likely
    /// beat beta at full depth: the node fails high with that score, which the table keeps.
    pub(crate) fn probcut(
        &mut self,
        pos: &Chess,
        node: &Node,
        beta: Score,
        tt_hit: Option<Hit>,
    ) -> Option<Score> {
        let probcut_beta = probcut_beta(beta);
        if !self.tries_probcut(node, beta, probcut_beta, tt_hit) {
            return None;
        }
        let Node {
            key, depth, ply, ..
        } = *node;
        // Only captures that win at least the margin over the static evaluation by exchange.
        let threshold = probcut_beta.0 - node.static_eval.0;
        let mut buffer = MoveBuffer::new();
        let mut picker = MovePicker::probcut(&mut buffer, self.steps.capture_history, threshold);
        while let Some(m) = picker.next(pos, self.history) {
            let score = self.visit_child(pos, key, ply, m, |worker, child, child_key| {
                let window = (-probcut_beta, -probcut_beta + 1);
                let score = -worker.quiescence(
                    child,
                    child_key,
                    ply + 1,
                    window.0,
                    window.1,
                    KnownCheck::Unknown,
                );
                if score < probcut_beta {
                    return score;
                }
                let depth = depth - 1 - PROBCUT_REDUCTION;
                -worker.alpha_beta(
                    child,
                    child_key,
                    depth,
                    ply + 1,
                    window.0,
                    window.1,
                    KnownCheck::Unknown,
                )
            });
            if self.stopped {
                return Some(Score::ZERO);
            }
            if score >= probcut_beta {
                let stored = Stored {
                    depth: depth - PROBCUT_REDUCTION,
                    score,
                    bound: Bound::Lower,
                    mv: Some(m),
                    eval: Some(node.raw_eval),
                };
                self.shared.tt.store(key, ply, stored);
                return Some(score);
            }
        }
        None
    }
}

/// Step 7: what a capture must beat for probcut: `probcut_margin` above beta.
#[inline]
fn probcut_beta(beta: Score) -> Score {
    beta + probcut_margin()
}
