//! How a search is configured: what the caller may switch.

/// How the search may use what the transposition table returns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TtPolicy {
    /// A stored result at least as deep as needed settles the node (normal play).
    #[default]
    Cutoffs,
    /// Only a result of exactly the needed depth settles the node. The search then returns the
    /// same fixed-depth value as without a table, which the tests use to check the table.
    SameDepthCutoffs,
    /// The table only orders moves (its move goes first); it never settles a node.
    MoveOnly,
}
