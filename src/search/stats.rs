//! Counters that show how well the search prunes. The definitions match the reference
//! alpha-beta in `reference/` so that its figures and the engine's can be compared.

/// Per-search counters.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Every position visited (main search and quiescence).
    pub nodes: u64,
    /// The part of `nodes` visited by quiescence search.
    pub qnodes: u64,
    pub tt_probes: u64,
    pub tt_hits: u64,
    /// Nodes where a move failed high (score >= beta) and the remaining moves were skipped.
    pub beta_cutoffs: u64,
    /// Those of `beta_cutoffs` made by the first move searched.
    pub first_move_cutoffs: u64,
}
