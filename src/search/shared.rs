//! What every search thread reads and no thread owns: one [`Shared`] value behind an `Arc`,
//! handed to the main thread and every helper. Today the transposition table; the tablebases
//! and a net's weights join it here, so that a new shared resource needs no new argument
//! threaded through the search.

use crate::tt::TranspositionTable;

pub(super) struct Shared {
    /// Lock-free: every thread stores and probes it at once.
    pub tt: TranspositionTable,
}

impl Shared {
    pub fn new(hash_mb: usize) -> Shared {
        Shared {
            tt: TranspositionTable::new(hash_mb),
        }
    }
}
