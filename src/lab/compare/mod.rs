//! Minimax against alpha-beta with several move orderings on one chess position, at a fixed
//! depth: `cutoff compare` ([`crate::cli::compare`]) whole. Here the runs of each depth and the
//! principal line the page shows; [`chess`]: the chess position as a game tree and its move
//! orders; [`cost`]: what a depth will cost, from perft counts; [`progress`]: what a run says
//! on stderr, the estimate before and the progress lines during; [`table`]: a depth's rows,
//! computed once and written as text or HTML; [`plot`]: nodes against depth as SVG; [`page`]:
//! the `--html` page. The drawings are made from the runs, never the other way round.
//!
//! Every mode must return minimax's value (the table says so in a `verdict:` line); what
//! differs is how many nodes each needed. See `docs/alphabeta.md` for how to read the table.

pub mod chess;
pub mod cost;
pub mod page;
pub mod plot;
pub mod progress;
pub mod table;

use std::time::Duration;

use indicatif::ProgressBar;
use shakmaty::san::SanPlus;
use shakmaty::{Chess, Move, Position};

use super::minimax::{AlphaBeta, Side, Silent, Value};
use crate::types::{Depth, Score};
use chess::{run_mode, to_score, ChessNode, ChessTree, HashMoveOrder, Mode, ModeResult};

/// All modes' results at one depth.
#[derive(Clone, Debug)]
pub struct DepthResults {
    pub depth: Depth,
    pub results: Vec<ModeResult>,
}

impl DepthResults {
    pub fn get(&self, mode: Mode) -> &ModeResult {
        self.results
            .iter()
            .find(|r| r.mode == mode)
            .expect("every mode is run")
    }

    /// The modes whose value differs from minimax's.
    pub fn mismatches(&self) -> Vec<Mode> {
        let value = self.get(Mode::Minimax).value;
        self.results
            .iter()
            .filter(|r| r.value != value)
            .map(|r| r.mode)
            .collect()
    }
}

/// Runs every mode at one depth; `progress` reports on stderr.
pub fn compare_depth(pos: &Chess, depth: Depth, progress: &ProgressBar) -> DepthResults {
    let bar = progress.clone();
    let tree = ChessTree::with_tick(Box::new(move || bar.inc(65_536)));
    let results = Mode::ALL
        .iter()
        .map(|&mode| {
            progress.set_position(0);
            progress.set_message(format!("depth {depth}: {}", mode.label()));
            let r = run_mode(&tree, pos, depth, mode);
            progress.suspend(|| {
                eprintln!(
                    "compare: depth {depth} {:<28} {:>12} nodes {:>9}",
                    mode.label(),
                    r.counters.nodes,
                    format_time(r.time)
                )
            });
            r
        })
        .collect();
    DepthResults { depth, results }
}

/// A wall time as the progress lines and the text table show it.
pub fn format_time(t: Duration) -> String {
    let s = t.as_secs_f64();
    if s < 1.0 {
        format!("{:.1} ms", s * 1000.0)
    } else {
        format!("{s:.2} s")
    }
}

/// A move and the exact value of the position after it, from the root side's point of view.
#[derive(Clone, Debug)]
pub struct ValuedMove {
    pub san: String,
    pub value: Score,
}

/// The root moves valued at the deepest depth, best first, and the principal line: the best
/// move for the side to move at each ply, ties going to the first in generation order.
#[derive(Clone, Debug)]
pub struct Line {
    pub depth: Depth,
    pub root_moves: Vec<ValuedMove>,
    pub line: Vec<String>,
}

/// Exact values of `pos`'s children `depth - 1` plies deep, from Max's (the root side's) view.
/// Alpha-beta with a full window is exact; its hash-move table only speeds it up.
fn child_values(
    tree: &ChessTree,
    order: &mut HashMoveOrder,
    node: &ChessNode,
    side: Side,
) -> Vec<(Move, Value)> {
    use super::minimax::GameTree;
    tree.moves(node)
        .into_iter()
        .map(|m| {
            let child = tree.play(node, m);
            let mut silent = Silent;
            let v = AlphaBeta::new(tree, order, &mut silent).value(&child, side.other());
            (m, v)
        })
        .collect()
}

/// The best of `values` for `side`; the first of equals.
fn best(values: &[(Move, Value)], side: Side) -> Option<(Move, Value)> {
    let mut best: Option<(Move, Value)> = None;
    for &(m, v) in values {
        let better = match (best, side) {
            (None, _) => true,
            (Some((_, b)), Side::Max) => v > b,
            (Some((_, b)), Side::Min) => v < b,
        };
        if better {
            best = Some((m, v));
        }
    }
    best
}

/// Values the root moves and follows the best move down to the horizon. Costs about as much
/// as one oracle-ordered search; not counted in any table.
pub fn principal_line(pos: &Chess, depth: Depth) -> Line {
    let tree = ChessTree::new();
    let mut order = HashMoveOrder::default();
    let root = ChessNode::root(pos.clone(), depth);
    let values = child_values(&tree, &mut order, &root, Side::Max);
    let mut root_moves: Vec<(Move, Value)> = values.clone();
    root_moves.sort_by_key(|&(_, v)| std::cmp::Reverse(v));
    let root_moves = root_moves
        .into_iter()
        .map(|(m, v)| ValuedMove {
            san: SanPlus::from_move(pos.clone(), m).to_string(),
            value: to_score(v),
        })
        .collect();

    let mut line = Vec::new();
    let (mut node, mut side, mut values) = (root, Side::Max, values);
    while let Some((m, _)) = best(&values, side) {
        line.push(SanPlus::from_move(node.pos.clone(), m).to_string());
        node = ChessNode {
            pos: {
                let mut p = node.pos.clone();
                p.play_unchecked(m);
                p
            },
            depth: node.depth - 1,
            ply: node.ply + 1,
        };
        side = side.other();
        values = child_values(&tree, &mut order, &node, side);
    }
    Line {
        depth,
        root_moves,
        line,
    }
}
