//! What every search thread reads and no thread owns: one [`Shared`] value behind an `Arc`,
//! handed to the main thread and every helper: the transposition table and the tablebases (a
//! net's weights join them here), so that a new shared resource needs no new argument threaded
//! through the search.

use std::sync::Arc;

use super::tables::tt::TranspositionTable;
use crate::eval::Network;
use crate::tablebase::Tablebases;

pub(super) struct Shared {
    /// Lock-free: every thread stores and probes it at once.
    pub tt: TranspositionTable,
    /// The tables of `SyzygyPath` (none by default); read-only during a search.
    pub tablebases: Tablebases,
    /// The learned evaluation's weights, one copy for every thread's evaluator (`None`: no
    /// net loaded, the classical evaluation only).
    pub network: Option<Arc<Network>>,
}

impl Shared {
    pub fn new(hash_mb: usize) -> Shared {
        Shared {
            tt: TranspositionTable::new(hash_mb),
            tablebases: Tablebases::default(),
            network: Network::embedded(),
        }
    }
}
