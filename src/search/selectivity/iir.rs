//! Step 3: internal iterative reduction (switch `internal_iterative_reduction`; tunable
//! `iir_min_depth`).

use shakmaty::Move;

use crate::search::params::iir_min_depth;
use crate::search::tables::tt::PackedMove;
use crate::search::worker::Worker;
use crate::types::Depth;

impl Worker<'_> {
    /// Step 3's depth: one ply less where no table move guides the ordering (not in a singular
    /// search, and from `iir_min_depth` up).
    #[inline]
    pub(crate) fn reduced_without_table_move(
        &self,
        depth: Depth,
        tt_move: PackedMove,
        excluded: Option<Move>,
    ) -> Depth {
        if self.steps.internal_iterative_reduction
            && tt_move.is_none()
            && excluded.is_none()
            && depth >= iir_min_depth()
        {
            depth - 1
        } else {
            depth
        }
    }
}
