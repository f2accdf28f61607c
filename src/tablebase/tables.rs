//! The tables of one `SyzygyPath` and what loading them found: the types the front
//! (`tablebase/mod.rs`, which probes them) and the loader ([`super::load`], which builds them) share,
//! in a room below both so that neither imports the other for them.

use std::collections::HashMap;
use std::sync::Arc;

use shakmaty::Chess;
use shakmaty_syzygy::Tablebase;

use super::gate::Gates;

/// What loading a `SyzygyPath` found.
#[derive(Debug, Default)]
pub struct Loaded {
    /// Table files added (WDL and DTZ each count).
    pub files: usize,
    /// Materials with a WDL table, which every probe needs (a WDL and DTZ pair counts once,
    /// as Stockfish's "Found N tablebases" counts; a DTZ file without its WDL is not used).
    pub tables: usize,
    /// Directories named (`<empty>` and empty parts not counted).
    pub directories: usize,
    /// Files (counted in `files`) beyond the bytes checksummed at load: each is checksummed
    /// in the background at its first probe, and gives no answer before it passed.
    pub pending: usize,
    /// One line per directory or file that could not be used, naming it.
    pub errors: Vec<String>,
}

/// The tables of one `SyzygyPath`.
pub struct Tablebases {
    pub(super) tables: Tablebase<Chess>,
    /// The table names (materials, e.g. `KQvKR`) with a WDL table, and with a DTZ table.
    pub(super) wdl: Vec<String>,
    pub(super) dtz: Vec<String>,
    /// What stands between the prober and each file: its checksum, passed or still due.
    pub(super) gates: Closing,
    /// The `SyzygyPath` they were loaded from (empty: none).
    pub(super) path: String,
}

/// The gates of a [`Tablebases`], closed when it is dropped: the background checksum thread
/// then stops (between two chunks) instead of reading files no one will probe.
pub(super) struct Closing(pub(super) Arc<Gates>);

impl Drop for Closing {
    fn drop(&mut self) {
        self.0.close();
    }
}

impl Default for Tablebases {
    fn default() -> Self {
        Tablebases {
            tables: Tablebase::new(),
            wdl: Vec::new(),
            dtz: Vec::new(),
            gates: Closing(Arc::new(Gates::new(HashMap::new(), None))),
            path: String::new(),
        }
    }
}

impl std::fmt::Debug for Tablebases {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tablebases")
            .field("wdl", &self.wdl.len())
            .field("dtz", &self.dtz.len())
            .field("gates", &self.gates.0)
            .finish()
    }
}
