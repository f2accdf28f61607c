//! Step 9c: SEE pruning (switch `see_pruning`; tunables `see_pruning_max_depth`,
//! `see_quiet_margin`, `see_noisy_margin`).

use shakmaty::{Chess, Move};

use crate::search::alphabeta::Node;
use crate::search::params::{see_noisy_margin, see_pruning_max_depth, see_quiet_margin};
use crate::search::see::see_at_least;
use crate::search::worker::Worker;
use crate::types::Score;

impl Worker<'_> {
    /// Step 9c: whether a move is skipped for what it loses by static exchange near the
    /// leaves: a quiet move that puts a piece where it is lost, a capture that loses more
    /// than it takes. Never before a move has kept us off a mate (`best`), so a node always
    /// searches one move; never for a capture the picker already found not losing
    /// (`known_good`), which no negative threshold would prune.
    #[inline]
    pub(crate) fn prunes_by_see(
        &self,
        pos: &Chess,
        node: &Node,
        m: &Move,
        (quiet, known_good): (bool, bool),
        best: Score,
    ) -> bool {
        let depth = node.depth;
        if !self.steps.see_pruning
            || known_good
            || depth > see_pruning_max_depth()
            || best <= -Score::TB_WIN_BOUND
        {
            return false;
        }
        let margin = if quiet {
            see_quiet_margin()
        } else {
            see_noisy_margin()
        };
        !see_at_least(pos, m, -margin * depth)
    }
}
