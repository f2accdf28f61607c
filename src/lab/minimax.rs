//! Minimax and alpha-beta over any [`GameTree`], written to be read.
//!
//! Both use the explicit Max/Min formulation rather than negamax: every value, α and β are from
//! Max's (the root player's) point of view, so the numbers in a trace are the numbers a textbook
//! draws on its tree. Max raises α, Min lowers β, and either cuts when **α ≥ β**.
//!
//! Alpha-beta here is **fail-hard**: an inner node searched with window (α, β) returns a value
//! clamped to [α, β], namely exactly `median(α, minimax, β)`. So with the full window
//! (−∞, +∞) it returns exactly the minimax value. A leaf returns its own value unclamped (it
//! is known exactly and the parent clamps it anyway).

use crate::types::Bound;

/// A value from Max's point of view. Wide enough for any centipawn or mate score and for the
/// integers of a bracket tree, with room for the two infinities below.
pub type Value = i64;

/// Plus infinity: the initial β. Never a leaf value ([`crate::lab::tree::bracket`] refuses
/// leaves this large).
pub const INF: Value = i64::MAX;

/// Formats a value, writing the infinities as `+inf` / `-inf`.
pub fn show(v: Value) -> String {
    match v {
        INF => "+inf".to_string(),
        v if v == -INF => "-inf".to_string(),
        v => v.to_string(),
    }
}

/// Who moves at a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// Wants the highest value; raises α.
    Max,
    /// Wants the lowest value; lowers β.
    Min,
}

impl Side {
    pub fn other(self) -> Side {
        match self {
            Side::Max => Side::Min,
            Side::Min => Side::Max,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Side::Max => "MAX",
            Side::Min => "MIN",
        }
    }
}

/// A game tree the reference searches can walk.
pub trait GameTree {
    type Node;
    type Move: Copy;

    /// The moves at `node` in their natural (generation) order. Empty exactly when `node` is a
    /// leaf: a bracket-tree number, or a chess position at the horizon or without legal moves.
    fn moves(&self, node: &Self::Node) -> Vec<Self::Move>;

    /// The child reached by `m`.
    fn play(&self, node: &Self::Node, m: Self::Move) -> Self::Node;

    /// A leaf's value from Max's point of view. Only called on leaves.
    fn leaf_value(&self, node: &Self::Node) -> Value;
}

/// What a search did, with the meanings of [`crate::search::Stats`]:
///
/// - `nodes`: every node visited, the root and the leaves included.
/// - `leaves`: nodes scored without looking at children (the static evaluations actually made;
///   in chess also positions with no legal move, scored as mate or stalemate).
/// - `beta_cutoffs`: nodes where a move's score reached the bound of the side to move (α ≥ β
///   after Max raised α or Min lowered β — in negamax terms "score ≥ β") and so ended that
///   node's search. Counted even when that move was the last one and nothing was left to skip,
///   exactly like a negamax `if score >= beta` counter.
/// - `first_move_cutoffs`: those of `beta_cutoffs` made by the first move searched. Their share
///   of all cutoffs is the usual measure of move-ordering quality (about 90% is good).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    pub nodes: u64,
    pub leaves: u64,
    pub beta_cutoffs: u64,
    pub first_move_cutoffs: u64,
}

impl Counters {
    /// Adds another search's counts (iterative deepening sums its iterations).
    pub fn add(&mut self, other: &Counters) {
        self.nodes += other.nodes;
        self.leaves += other.leaves;
        self.beta_cutoffs += other.beta_cutoffs;
        self.first_move_cutoffs += other.first_move_cutoffs;
    }
}

/// Plain minimax: visits every node of the tree.
pub fn minimax<T: GameTree>(
    tree: &T,
    node: &T::Node,
    side: Side,
    counters: &mut Counters,
) -> Value {
    counters.nodes += 1;
    let moves = tree.moves(node);
    if moves.is_empty() {
        counters.leaves += 1;
        return tree.leaf_value(node);
    }
    let values = moves
        .iter()
        .map(|&m| minimax(tree, &tree.play(node, m), side.other(), counters));
    match side {
        Side::Max => values.max(),
        Side::Min => values.min(),
    }
    .expect("an inner node has at least one move")
}

/// Decides the order alpha-beta tries the moves of a node in. Ordering never changes the
/// value alpha-beta returns, only how much it has to look at.
pub trait MoveOrder<T: GameTree> {
    /// Reorders `moves` (which arrive in generation order) before `node` is searched.
    fn order(&mut self, tree: &T, node: &T::Node, side: Side, moves: &mut Vec<T::Move>);

    /// Told the best move of a node once its search ends, if one improved the node's bound:
    /// the move that caused a cutoff or last raised α (Max) / lowered β (Min).
    fn record_best(&mut self, _tree: &T, _node: &T::Node, _best: T::Move) {}
}

/// Moves in the order the tree generates them.
pub struct GenerationOrder;

impl<T: GameTree> MoveOrder<T> for GenerationOrder {
    fn order(&mut self, _: &T, _: &T::Node, _: Side, _: &mut Vec<T::Move>) {}
}

/// Oracle ordering: every child is first valued exactly by `exact` (which the caller must not
/// count), then the best child for the side to move comes first. Ties keep generation order.
///
/// Best-first ordering makes alpha-beta visit the minimal tree of Knuth and Moore when all
/// subtrees are alike; where they differ (ragged trees, chess positions whose branching varies)
/// a worse but cheaper refutation can exist, so this is a near-minimal reference, not a bound.
pub struct OracleOrder<F> {
    pub exact: F,
}

impl<T, F> MoveOrder<T> for OracleOrder<F>
where
    T: GameTree,
    F: FnMut(&T::Node, Side) -> Value,
{
    fn order(&mut self, tree: &T, node: &T::Node, side: Side, moves: &mut Vec<T::Move>) {
        let mut valued: Vec<(Value, T::Move)> = moves
            .iter()
            .map(|&m| ((self.exact)(&tree.play(node, m), side.other()), m))
            .collect();
        match side {
            Side::Max => valued.sort_by_key(|&(v, _)| std::cmp::Reverse(v)),
            Side::Min => valued.sort_by_key(|&(v, _)| v),
        }
        moves.clear();
        moves.extend(valued.into_iter().map(|(_, m)| m));
    }
}

/// Watches an alpha-beta search step by step (for `cutoff tree --trace` and the pruned list).
/// Every method does nothing by default.
pub trait Observer<T: GameTree> {
    /// A node is entered with window (α, β).
    fn enter(&mut self, _node: &T::Node, _ply: usize, _side: Side, _alpha: Value, _beta: Value) {}
    /// A leaf was scored.
    fn leaf(&mut self, _node: &T::Node, _ply: usize, _value: Value) {}
    /// Max raised α, or Min lowered β, from `old` to `new`.
    fn improve(&mut self, _node: &T::Node, _ply: usize, _side: Side, _old: Value, _new: Value) {}
    /// α ≥ β fired at `node`; `skipped` are the moves that will never be searched.
    fn cutoff(
        &mut self,
        _node: &T::Node,
        _ply: usize,
        _alpha: Value,
        _beta: Value,
        _skipped: &[T::Move],
    ) {
    }
    /// An inner node returns `value`; `bound` says what it means about the true value.
    fn leave(&mut self, _node: &T::Node, _ply: usize, _value: Value, _bound: Bound) {}
}

/// An observer that watches nothing.
pub struct Silent;

impl<T: GameTree> Observer<T> for Silent {}

/// Alpha-beta with a move order and an observer; `counters` accumulate over calls.
pub struct AlphaBeta<'a, T: GameTree> {
    pub tree: &'a T,
    pub order: &'a mut dyn MoveOrder<T>,
    pub observer: &'a mut dyn Observer<T>,
    pub counters: Counters,
}

impl<'a, T: GameTree> AlphaBeta<'a, T> {
    pub fn new(
        tree: &'a T,
        order: &'a mut dyn MoveOrder<T>,
        observer: &'a mut dyn Observer<T>,
    ) -> Self {
        AlphaBeta {
            tree,
            order,
            observer,
            counters: Counters::default(),
        }
    }

    /// The exact minimax value of `root` (full window).
    pub fn value(&mut self, root: &T::Node, side: Side) -> Value {
        self.search(root, 0, side, -INF, INF)
    }

    /// Fail-hard alpha-beta: returns `median(alpha, minimax(node), beta)` for an inner node,
    /// the exact value for a leaf. Requires `alpha < beta`.
    pub fn search(
        &mut self,
        node: &T::Node,
        ply: usize,
        side: Side,
        mut alpha: Value,
        mut beta: Value,
    ) -> Value {
        self.counters.nodes += 1;
        self.observer.enter(node, ply, side, alpha, beta);
        let mut moves = self.tree.moves(node);
        if moves.is_empty() {
            self.counters.leaves += 1;
            let value = self.tree.leaf_value(node);
            self.observer.leaf(node, ply, value);
            return value;
        }
        self.order.order(self.tree, node, side, &mut moves);

        let mut best = None;
        for (i, &m) in moves.iter().enumerate() {
            let child = self.tree.play(node, m);
            let v = self.search(&child, ply + 1, side.other(), alpha, beta);
            match side {
                Side::Max if v > alpha => {
                    self.observer.improve(node, ply, side, alpha, v);
                    alpha = v;
                    best = Some(m);
                }
                Side::Min if v < beta => {
                    self.observer.improve(node, ply, side, beta, v);
                    beta = v;
                    best = Some(m);
                }
                _ => {}
            }
            if alpha >= beta {
                // The opponent, one level up, already has something at least as good as
                // anything this node can still offer: the remaining moves cannot matter.
                self.counters.beta_cutoffs += 1;
                if i == 0 {
                    self.counters.first_move_cutoffs += 1;
                }
                self.observer
                    .cutoff(node, ply, alpha, beta, &moves[i + 1..]);
                self.order.record_best(self.tree, node, m);
                // Fail-hard: return the bound that was crossed, the window edge the parent
                // passed in (Max's β, Min's α, both unchanged in this node).
                let (value, bound) = match side {
                    Side::Max => (beta, Bound::Lower),
                    Side::Min => (alpha, Bound::Upper),
                };
                self.observer.leave(node, ply, value, bound);
                return value;
            }
        }
        if let Some(m) = best {
            self.order.record_best(self.tree, node, m);
        }
        let (value, bound) = match (side, best.is_some()) {
            (_, true) => (if side == Side::Max { alpha } else { beta }, Bound::Exact),
            // No move got inside the window: every move was at most α (Max) / at least β (Min).
            (Side::Max, false) => (alpha, Bound::Upper),
            (Side::Min, false) => (beta, Bound::Lower),
        };
        self.observer.leave(node, ply, value, bound);
        value
    }
}
