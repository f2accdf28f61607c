//! What every search thread reads and no thread owns: one [`Shared`] value behind an `Arc`,
//! handed to the main thread and every helper: the transposition table, the tablebases and the
//! net, so that a new shared resource needs no new argument threaded through the search. It is
//! the one owner of each: the UCI layer asks the searcher for them, and keeps no copy.

use std::sync::{Arc, RwLock};

use super::tables::tt::TranspositionTable;
use crate::eval::Network;
use crate::tablebase::Tablebases;

pub(super) struct Shared {
    /// Lock-free: every thread stores and probes it at once.
    pub tt: TranspositionTable,
    /// The tables of `SyzygyPath` (none by default); read-only during a search.
    pub tablebases: Tablebases,
    /// The learned evaluation's weights, one copy for every thread's evaluator.
    pub network: NetSlot,
}

impl Shared {
    pub fn new(hash_mb: usize) -> Shared {
        Shared {
            tt: TranspositionTable::new(hash_mb),
            tablebases: Tablebases::default(),
            network: NetSlot(Arc::new(RwLock::new(Network::embedded()))),
        }
    }
}

/// The net the searches evaluate with (`None`: none loaded, the classical evaluation only),
/// behind a lock of its own so that it can be read without the searcher: UCI `eval` shows it
/// while a search holds the searcher, as [`super::TableReady`] answers `isready`. A clone reads
/// the same slot, not a copy of the net. Written only between searches
/// ([`super::Searcher::set_network`]); each thread's evaluator takes its own `Arc` of the net
/// when a search starts, so no node reads the lock.
#[derive(Clone)]
pub struct NetSlot(Arc<RwLock<Option<Arc<Network>>>>);

impl NetSlot {
    /// The net in the slot now.
    pub fn get(&self) -> Option<Arc<Network>> {
        self.0.read().unwrap_or_else(|e| e.into_inner()).clone()
    }

    pub(super) fn set(&self, network: Arc<Network>) {
        *self.0.write().unwrap_or_else(|e| e.into_inner()) = Some(network);
    }
}
