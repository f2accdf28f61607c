//! Chess as a [`GameTree`]: a fixed-depth tree with [`evaluate`] at the horizon, and the move
//! orderings `cutoff compare` measures.
//!
//! The tree is the plain one a textbook means: no quiescence, no extensions, no pruning, no
//! repetition or fifty-move draws. A position with no legal move is a leaf wherever it occurs
//! (the horizon included): checkmate scores `Score::mated_in(ply)` for the side to move,
//! stalemate 0; every other horizon position scores `evaluate`. Mate scores carry the distance
//! from the root, so every mode must agree to the centipawn, mates included.

use std::cell::Cell;
use std::cmp::Reverse;
use std::collections::HashMap;
use std::time::{Duration, Instant};

use shakmaty::{Chess, Move, Position};

use crate::eval::classical::evaluate;
use crate::lab::minimax::{
    minimax, AlphaBeta, Counters, GameTree, GenerationOrder, MoveOrder, OracleOrder, Side, Silent,
    Value,
};
use crate::position::{full_key, Key};
use crate::search::ordering::mvv_lva;
use crate::types::{Depth, Score};

/// A position in the fixed-depth tree.
#[derive(Clone, Debug)]
pub struct ChessNode {
    pub pos: Chess,
    /// Plies left to the horizon.
    pub depth: Depth,
    /// Plies from the root: decides whose point of view `evaluate` speaks for, and the mate
    /// distance.
    pub ply: usize,
}

impl ChessNode {
    pub fn root(pos: Chess, depth: Depth) -> ChessNode {
        ChessNode { pos, depth, ply: 0 }
    }
}

/// The fixed-depth chess tree. The side to move at the root is Max.
///
/// `tick` is called every 65 536 move generations (about every 65 536 nodes), whichever search
/// walks the tree: a progress display that needs no help from the algorithms.
#[derive(Default)]
pub struct ChessTree {
    calls: Cell<u64>,
    tick: Option<Box<dyn Fn()>>,
}

impl ChessTree {
    pub fn new() -> ChessTree {
        ChessTree::default()
    }

    pub fn with_tick(tick: Box<dyn Fn()>) -> ChessTree {
        ChessTree {
            calls: Cell::new(0),
            tick: Some(tick),
        }
    }
}

/// Converts a side-to-move score at `ply` to Max's (the root side's) point of view.
fn from_root_view(score: Score, ply: usize) -> Value {
    let v = Value::from(score.0);
    if ply.is_multiple_of(2) {
        v
    } else {
        -v
    }
}

/// Converts a value from Max's point of view back to a [`Score`] for the root side.
pub fn to_score(v: Value) -> Score {
    Score(v as i32)
}

impl GameTree for ChessTree {
    type Node = ChessNode;
    type Move = Move;

    fn moves(&self, node: &ChessNode) -> Vec<Move> {
        let calls = self.calls.get() + 1;
        self.calls.set(calls);
        if calls.is_multiple_of(65_536) {
            if let Some(tick) = &self.tick {
                tick();
            }
        }
        if node.depth <= 0 {
            return Vec::new();
        }
        node.pos.legal_moves().to_vec()
    }

    fn play(&self, node: &ChessNode, m: Move) -> ChessNode {
        let mut pos = node.pos.clone();
        pos.play_unchecked(m);
        ChessNode {
            pos,
            depth: node.depth - 1,
            ply: node.ply + 1,
        }
    }

    fn leaf_value(&self, node: &ChessNode) -> Value {
        let score = if !node.pos.legal_moves().is_empty() {
            evaluate(&node.pos)
        } else if node.pos.is_check() {
            Score::mated_in(node.ply)
        } else {
            Score::DRAW
        };
        from_root_view(score, node.ply)
    }
}

/// Captures and promotions first, by MVV-LVA; quiet moves after them in generation order
/// (the sort is stable).
pub struct MvvLvaOrder;

impl MoveOrder<ChessTree> for MvvLvaOrder {
    fn order(&mut self, _: &ChessTree, _: &ChessNode, _: Side, moves: &mut Vec<Move>) {
        moves.sort_by_key(|m| Reverse(mvv_lva(m)));
    }
}

/// MVV-LVA, then the move this position's last search found best (the "hash move") moved to
/// the front. The table only orders moves: no score is ever taken from it, so the value stays
/// exact. Keys are full Zobrist keys; a hash move is used only if it is in the legal list.
#[derive(Default)]
pub struct HashMoveOrder {
    pub table: HashMap<Key, Move>,
}

impl MoveOrder<ChessTree> for HashMoveOrder {
    fn order(&mut self, tree: &ChessTree, node: &ChessNode, side: Side, moves: &mut Vec<Move>) {
        MvvLvaOrder.order(tree, node, side, moves);
        if let Some(hash_move) = self.table.get(&full_key(&node.pos)) {
            if let Some(i) = moves.iter().position(|m| m == hash_move) {
                moves[..=i].rotate_right(1);
            }
        }
    }

    fn record_best(&mut self, _: &ChessTree, node: &ChessNode, best: Move) {
        self.table.insert(full_key(&node.pos), best);
    }
}

/// The ways `cutoff compare` searches a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Every node.
    Minimax,
    /// Alpha-beta, moves in shakmaty's `legal_moves` order.
    Generation,
    /// Alpha-beta, captures and promotions first by MVV-LVA.
    MvvLva,
    /// Alpha-beta in iterative deepening 1..D; hash move first, then MVV-LVA.
    HashMoveId,
    /// Alpha-beta with children sorted by their exact value (computed, uncounted).
    Oracle,
}

impl Mode {
    pub const ALL: [Mode; 5] = [
        Mode::Minimax,
        Mode::Generation,
        Mode::MvvLva,
        Mode::HashMoveId,
        Mode::Oracle,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Mode::Minimax => "minimax",
            Mode::Generation => "alphabeta generation order",
            Mode::MvvLva => "alphabeta MVV-LVA",
            Mode::HashMoveId => "alphabeta ID + hash move",
            Mode::Oracle => "alphabeta oracle order",
        }
    }

    /// A short name for plot legends.
    pub fn short(self) -> &'static str {
        match self {
            Mode::Minimax => "minimax",
            Mode::Generation => "generation",
            Mode::MvvLva => "MVV-LVA",
            Mode::HashMoveId => "ID + hash move",
            Mode::Oracle => "oracle",
        }
    }
}

/// One mode's result on one position and depth.
#[derive(Clone, Debug)]
pub struct ModeResult {
    pub mode: Mode,
    /// The root's value for the side to move there.
    pub value: Score,
    /// For [`Mode::HashMoveId`] the sum over all iterations; for [`Mode::Oracle`] only the
    /// final, ordered pass (the searches that computed the order are not counted).
    pub counters: Counters,
    /// For [`Mode::HashMoveId`]: the counts of the last iteration (depth D) alone.
    pub last_iteration: Option<Counters>,
    /// Wall time, everything included (for the oracle, also the uncounted exact searches).
    pub time: Duration,
}

/// Searches `pos` to `depth` plies in one `mode`.
pub fn run_mode(tree: &ChessTree, pos: &Chess, depth: Depth, mode: Mode) -> ModeResult {
    let start = Instant::now();
    let root = ChessNode::root(pos.clone(), depth);
    let mut counters = Counters::default();
    let mut last_iteration = None;
    let value = match mode {
        Mode::Minimax => minimax(tree, &root, Side::Max, &mut counters),
        Mode::Generation => alphabeta(tree, &root, &mut GenerationOrder, &mut counters),
        Mode::MvvLva => alphabeta(tree, &root, &mut MvvLvaOrder, &mut counters),
        Mode::HashMoveId => {
            let mut order = HashMoveOrder::default();
            let mut value = 0;
            for d in 1..=depth.max(1) {
                let mut iteration = Counters::default();
                let node = ChessNode::root(pos.clone(), d);
                value = alphabeta(tree, &node, &mut order, &mut iteration);
                counters.add(&iteration);
                last_iteration = Some(iteration);
            }
            value
        }
        Mode::Oracle => {
            // The exact values that order the children come from alpha-beta with its own
            // hash-move table: exact because the window is full, and not counted.
            let mut helper = HashMoveOrder::default();
            let mut order = OracleOrder {
                exact: |child: &ChessNode, side: Side| {
                    let mut silent = Silent;
                    AlphaBeta::new(tree, &mut helper, &mut silent).value(child, side)
                },
            };
            alphabeta(tree, &root, &mut order, &mut counters)
        }
    };
    ModeResult {
        mode,
        value: to_score(value),
        counters,
        last_iteration,
        time: start.elapsed(),
    }
}

/// Full-window alpha-beta from `root` (Max to move), adding its counts to `counters`.
fn alphabeta(
    tree: &ChessTree,
    root: &ChessNode,
    order: &mut dyn MoveOrder<ChessTree>,
    counters: &mut Counters,
) -> Value {
    let mut silent = Silent;
    let mut search = AlphaBeta::new(tree, order, &mut silent);
    let value = search.value(root, Side::Max);
    counters.add(&search.counters);
    value
}

/// Knuth and Moore's minimal tree for a uniform tree of branching `b` and depth `d`: the
/// fewest leaves any algorithm must see to prove the minimax value, b^⌈d/2⌉ + b^⌊d/2⌋ − 1.
pub fn minimal_tree_leaves(b: f64, d: u32) -> f64 {
    b.powi(d.div_ceil(2) as i32) + b.powi((d / 2) as i32) - 1.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::pos;

    #[test]
    fn checkmate_at_the_horizon_is_scored_with_its_distance() {
        // Fool's mate position, White to move and already mated: a leaf at ply 0.
        let mated = pos("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
        let tree = ChessTree::new();
        assert_eq!(
            tree.leaf_value(&ChessNode::root(mated, 3)),
            Value::from(Score::mated_in(0).0)
        );
        // One ply earlier Black mates with Qh4#: a mate one ply from the root, found at depth 1.
        let before = pos("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2");
        let r = run_mode(&tree, &before, 1, Mode::Minimax);
        assert_eq!(r.value, Score::mate_in(1));
    }

    #[test]
    fn minimal_tree_formula_matches_knuth_moore() {
        assert_eq!(minimal_tree_leaves(3.0, 2), 5.0);
        assert_eq!(minimal_tree_leaves(20.0, 3), 400.0 + 20.0 - 1.0);
        assert_eq!(minimal_tree_leaves(2.0, 1), 2.0);
    }
}
