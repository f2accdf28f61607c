//! Step 1b: mate distance pruning.

use crate::types::{Ply, Score};

/// Mate distance pruning: nothing at `ply` scores better than mating at the next ply or worse
/// than being mated now, so the window shrinks to those bounds, and an empty window is settled
/// (`Err`). Once a mate is found every longer line is cut at once instead of searched: a mate
/// in 1 took over a second to reach depth 20 under `go ponder` without it, and ran past the
/// hard limit after `ponderhit`.
#[inline]
pub(crate) fn mate_distance_window(
    ply: Ply,
    alpha: Score,
    beta: Score,
) -> Result<(Score, Score), Score> {
    let alpha = alpha.max(Score::mated_in(ply));
    let beta = beta.min(Score::mate_in(ply + 1));
    if alpha >= beta {
        Err(alpha)
    } else {
        Ok((alpha, beta))
    }
}
