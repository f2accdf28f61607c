//! The tables of one `SyzygyPath` and what loading them found: the types the front
//! (`tablebase.rs`, which probes them) and the loader ([`super::load`], which builds them) share,
//! in a room below both so that neither imports the other for them.

use shakmaty::Chess;
use shakmaty_syzygy::Tablebase;

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
    /// One line per directory or file that could not be used, naming it.
    pub errors: Vec<String>,
}

/// The tables of one `SyzygyPath`.
pub struct Tablebases {
    pub(super) tables: Tablebase<Chess>,
    /// The table names (materials, e.g. `KQvKR`) with a WDL table, and with a DTZ table.
    pub(super) wdl: Vec<String>,
    pub(super) dtz: Vec<String>,
}

impl Default for Tablebases {
    fn default() -> Self {
        Tablebases {
            tables: Tablebase::new(),
            wdl: Vec::new(),
            dtz: Vec::new(),
        }
    }
}

impl std::fmt::Debug for Tablebases {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tablebases")
            .field("wdl", &self.wdl.len())
            .field("dtz", &self.dtz.len())
            .finish()
    }
}
