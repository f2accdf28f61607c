//! Step 4c: whether the node is improving (switch `improving`), which steps 5, 9 and 11 read.

use crate::search::worker::Worker;
use crate::types::{Ply, Score};

impl Worker<'_> {
    /// Step 4c: whether the static evaluation at `ply` is above the one two plies before (our
    /// previous move helped); never in check, where there is none.
    #[inline]
    pub(crate) fn is_improving(&self, ply: Ply, in_check: bool, static_eval: Score) -> bool {
        self.steps.improving
            && !in_check
            && ply >= 2
            && static_eval > self.stack[ply - 2].static_eval
    }
}
