//! Minimax and alpha-beta on a bracket tree, showing what was pruned (for `cutoff tree`, in
//! [`crate::cli::tree`]).
//!
//! [`summary`] is `key: value` lines: both values and leaf counts, one `pruned:` line per
//! cutoff with the subtrees it skipped (1-based paths, leaves covered) and the α/β that fired,
//! then counters. [`trace_text`] is every step of the alpha-beta search.

pub mod bracket;
pub mod page;

use std::fmt::Write as _;

use bracket::{BracketTree, Kind, ROOT};

use super::minimax::{
    minimax, show, AlphaBeta, Counters, GenerationOrder, MoveOrder, Observer, OracleOrder, Side,
    Value,
};
use crate::types::Bound;

/// One cutoff: where it happened, the window that fired, and the children never searched.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cut {
    pub node: usize,
    pub alpha: Value,
    pub beta: Value,
    pub skipped: Vec<usize>,
}

/// One step of an alpha-beta search, exactly as its [`Observer`] saw it. `--trace` prints one
/// line per event and `--html` replays them one at a time, so the two can never disagree.
/// Leaves have no `Enter` event: a leaf's single step is its `Leaf` event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// An inner node is entered with window (α, β).
    Enter {
        node: usize,
        ply: usize,
        side: Side,
        alpha: Value,
        beta: Value,
    },
    /// A leaf was evaluated.
    Leaf {
        node: usize,
        ply: usize,
        value: Value,
    },
    /// Max raised α, or Min lowered β, at `node` from `old` to `new`.
    Improve {
        node: usize,
        ply: usize,
        side: Side,
        old: Value,
        new: Value,
    },
    /// α ≥ β fired at `node`; the children in `skipped` are never searched.
    Cutoff {
        node: usize,
        ply: usize,
        alpha: Value,
        beta: Value,
        skipped: Vec<usize>,
    },
    /// An inner node returns `value`.
    Leave {
        node: usize,
        ply: usize,
        value: Value,
        bound: Bound,
    },
}

impl Event {
    /// The node the event happened at.
    pub fn node(&self) -> usize {
        match self {
            Event::Enter { node, .. }
            | Event::Leaf { node, .. }
            | Event::Improve { node, .. }
            | Event::Cutoff { node, .. }
            | Event::Leave { node, .. } => *node,
        }
    }

    /// The trace line's indentation: the ply, one deeper for what happens inside a node.
    pub fn indent(&self) -> usize {
        match self {
            Event::Enter { ply, .. } | Event::Leaf { ply, .. } | Event::Leave { ply, .. } => *ply,
            Event::Improve { ply, .. } | Event::Cutoff { ply, .. } => ply + 1,
        }
    }

    /// The event as one `--trace` line, without indentation.
    pub fn describe(&self, tree: &BracketTree) -> String {
        match self {
            Event::Enter {
                node,
                side,
                alpha,
                beta,
                ..
            } => format!(
                "enter {} {} alpha={} beta={}",
                tree.path(*node),
                side.name(),
                show(*alpha),
                show(*beta)
            ),
            Event::Leaf { node, value, .. } => format!("leaf {} = {value}", tree.path(*node)),
            Event::Improve {
                node,
                side,
                old,
                new,
                ..
            } => {
                let bound = if *side == Side::Max { "alpha" } else { "beta" };
                format!(
                    "at {}: {bound} {} -> {}",
                    tree.path(*node),
                    show(*old),
                    show(*new)
                )
            }
            Event::Cutoff {
                node,
                alpha,
                beta,
                skipped,
                ..
            } => format!(
                "cutoff at {}: alpha={} >= beta={}, skipping {}",
                tree.path(*node),
                show(*alpha),
                show(*beta),
                describe_skipped(tree, skipped)
            ),
            Event::Leave {
                node, value, bound, ..
            } => {
                let meaning = match bound {
                    Bound::Exact => String::new(),
                    Bound::Lower => format!(" (fail-hard bound: true value >= {})", show(*value)),
                    Bound::Upper => format!(" (fail-hard bound: true value <= {})", show(*value)),
                };
                format!("return {} = {}{meaning}", tree.path(*node), show(*value))
            }
        }
    }
}

/// The `--trace` text of a list of events: one indented line each.
pub fn trace_text(tree: &BracketTree, events: &[Event]) -> String {
    let mut out = String::new();
    for e in events {
        let _ = writeln!(out, "{}{}", "  ".repeat(e.indent()), e.describe(tree));
    }
    out
}

/// Collects the cutoffs of a search and, when asked, every event.
pub struct Recorder<'a> {
    pub tree: &'a BracketTree,
    pub cuts: Vec<Cut>,
    pub events: Option<Vec<Event>>,
}

impl Recorder<'_> {
    fn record(&mut self, event: Event) {
        if let Some(events) = &mut self.events {
            events.push(event);
        }
    }
}

impl Observer<BracketTree> for Recorder<'_> {
    fn enter(&mut self, node: &usize, ply: usize, side: Side, alpha: Value, beta: Value) {
        if self.tree.children(*node).is_empty() {
            return; // a leaf gets its own one-line entry
        }
        self.record(Event::Enter {
            node: *node,
            ply,
            side,
            alpha,
            beta,
        });
    }

    fn leaf(&mut self, node: &usize, ply: usize, value: Value) {
        self.record(Event::Leaf {
            node: *node,
            ply,
            value,
        });
    }

    fn improve(&mut self, node: &usize, ply: usize, side: Side, old: Value, new: Value) {
        self.record(Event::Improve {
            node: *node,
            ply,
            side,
            old,
            new,
        });
    }

    fn cutoff(&mut self, node: &usize, ply: usize, alpha: Value, beta: Value, skipped: &[usize]) {
        self.cuts.push(Cut {
            node: *node,
            alpha,
            beta,
            skipped: skipped.to_vec(),
        });
        self.record(Event::Cutoff {
            node: *node,
            ply,
            alpha,
            beta,
            skipped: skipped.to_vec(),
        });
    }

    fn leave(&mut self, node: &usize, ply: usize, value: Value, bound: Bound) {
        self.record(Event::Leave {
            node: *node,
            ply,
            value,
            bound,
        });
    }
}

/// `2.2-2.3 (2 leaves)`, `3 (1 leaf)`, or `nothing` when the cutting move was the last one.
/// In the written order the skipped moves of one cutoff are a run of consecutive siblings,
/// written as a range; in another order they are listed as they would have been tried
/// (`3.2, 3.1`).
pub fn describe_skipped(tree: &BracketTree, skipped: &[usize]) -> String {
    let (Some(&first), Some(&last)) = (skipped.first(), skipped.last()) else {
        return "nothing (the cutting move was the last one)".to_string();
    };
    let leaves: usize = skipped.iter().map(|&n| tree.nodes[n].leaves).sum();
    let consecutive = skipped
        .windows(2)
        .all(|w| is_next_sibling(tree, w[0], w[1]));
    let range = if first == last {
        tree.path(first)
    } else if consecutive {
        format!("{}-{}", tree.path(first), tree.path(last))
    } else {
        let paths: Vec<String> = skipped.iter().map(|&n| tree.path(n)).collect();
        paths.join(", ")
    };
    let noun = if leaves == 1 { "leaf" } else { "leaves" };
    format!("{range} ({leaves} {noun})")
}

/// Whether `b` is the sibling right after `a` (same parent, next path number).
fn is_next_sibling(tree: &BracketTree, a: usize, b: usize) -> bool {
    let (na, nb) = (&tree.nodes[a], &tree.nodes[b]);
    na.parent.is_some() && na.parent == nb.parent && nb.child == na.child + 1
}

/// One observed alpha-beta search of a tree.
#[derive(Clone, Debug)]
pub struct Observed {
    pub value: Value,
    pub counters: Counters,
    pub cuts: Vec<Cut>,
    /// Every step, in order; `None` unless asked for (a big tree makes many).
    pub events: Option<Vec<Event>>,
}

/// Full-window alpha-beta from the root in `order`, recording its cutoffs (and its events when
/// `record`).
pub fn observe(
    tree: &BracketTree,
    root_side: Side,
    order: &mut dyn MoveOrder<BracketTree>,
    record: bool,
) -> Observed {
    let mut recorder = Recorder {
        tree,
        cuts: Vec::new(),
        events: record.then(Vec::new),
    };
    let mut search = AlphaBeta::new(tree, order, &mut recorder);
    let value = search.value(&ROOT, root_side);
    let counters = search.counters;
    Observed {
        value,
        counters,
        cuts: recorder.cuts,
        events: recorder.events,
    }
}

/// Everything `cutoff tree` reports about one tree.
#[derive(Clone, Debug)]
pub struct Report {
    pub minimax: Value,
    pub minimax_counters: Counters,
    pub alphabeta: Value,
    pub alphabeta_counters: Counters,
    pub cuts: Vec<Cut>,
    /// The written-order search's events, when recorded (`--trace`, `--html`).
    pub events: Option<Vec<Event>>,
    /// Alpha-beta with every node's children sorted best-first by exact value.
    pub oracle: Observed,
    /// Shorthand for `oracle.counters`.
    pub oracle_counters: Counters,
}

/// Runs minimax, alpha-beta in the written order and alpha-beta in oracle order; `record`
/// keeps every event of both alpha-beta searches.
pub fn analyse(tree: &BracketTree, root_side: Side, record: bool) -> Report {
    let mut minimax_counters = Counters::default();
    let minimax_value = minimax(tree, &ROOT, root_side, &mut minimax_counters);

    let written = observe(tree, root_side, &mut GenerationOrder, record);
    // Every node's exact value once, not a minimax of each child's subtree at every node the
    // oracle orders (which made the analysis cost the nodes times the depth).
    let exact = exact_values(tree, root_side);
    let mut oracle_order = OracleOrder {
        exact: |node: &usize, _side: Side| exact[*node],
    };
    let oracle = observe(tree, root_side, &mut oracle_order, record);

    Report {
        minimax: minimax_value,
        minimax_counters,
        alphabeta: written.value,
        alphabeta_counters: written.counters,
        cuts: written.cuts,
        events: written.events,
        oracle_counters: oracle.counters,
        oracle,
    }
}

/// Every node's minimax value with the side to move at its level (levels alternate from
/// `root_side`'s), in one pass from the last node to the root: a node's children come after it
/// in [`BracketTree::nodes`].
fn exact_values(tree: &BracketTree, root_side: Side) -> Vec<Value> {
    let mut exact = vec![0; tree.nodes.len()];
    for n in (0..tree.nodes.len()).rev() {
        let node = &tree.nodes[n];
        exact[n] = match &node.kind {
            Kind::Leaf(v) => *v,
            Kind::Inner(children) => {
                let values = children.iter().map(|&c| exact[c]);
                let side = if node.depth.is_multiple_of(2) {
                    root_side
                } else {
                    root_side.other()
                };
                match side {
                    Side::Max => values.max(),
                    Side::Min => values.min(),
                }
                .unwrap_or(0)
            }
        };
    }
    exact
}

/// Leaves inside the subtrees a search's cutoffs skipped.
pub fn pruned_leaves(tree: &BracketTree, cuts: &[Cut]) -> usize {
    cuts.iter()
        .flat_map(|c| &c.skipped)
        .map(|&n| tree.nodes[n].leaves)
        .sum()
}

/// The `key: value` summary `cutoff tree` prints (after the trace, if any).
pub fn summary(tree: &BracketTree, root_side: Side, report: &Report) -> String {
    let mut out = String::new();
    let mut kv = |key: &str, value: String| {
        let _ = writeln!(out, "{key}: {value}");
    };
    kv("tree", tree.to_brackets(ROOT));
    kv("root", root_side.name().to_string());
    kv("minimax", report.minimax.to_string());
    kv("minimax nodes", report.minimax_counters.nodes.to_string());
    kv("minimax leaves", report.minimax_counters.leaves.to_string());
    kv("alphabeta", report.alphabeta.to_string());
    kv(
        "alphabeta nodes",
        report.alphabeta_counters.nodes.to_string(),
    );
    kv(
        "alphabeta leaves",
        report.alphabeta_counters.leaves.to_string(),
    );
    // A cutoff by a node's last move skips nothing: it counts as a cutoff but prunes nothing.
    let pruning: Vec<&Cut> = report
        .cuts
        .iter()
        .filter(|c| !c.skipped.is_empty())
        .collect();
    if pruning.is_empty() {
        kv("pruned", "nothing".to_string());
    }
    for cut in pruning {
        kv(
            "pruned",
            format!(
                "{} at node {}: alpha={} >= beta={}",
                describe_skipped(tree, &cut.skipped),
                tree.path(cut.node),
                show(cut.alpha),
                show(cut.beta)
            ),
        );
    }
    kv(
        "pruned leaves",
        pruned_leaves(tree, &report.cuts).to_string(),
    );
    let c = &report.alphabeta_counters;
    kv(
        "cutoffs",
        format!(
            "{} ({} by the last move, skipping nothing)",
            c.beta_cutoffs,
            report.cuts.iter().filter(|c| c.skipped.is_empty()).count()
        ),
    );
    kv("first-move cutoffs", c.first_move_cutoffs.to_string());
    kv(
        "oracle-order alphabeta leaves",
        report.oracle_counters.leaves.to_string(),
    );
    let agree = if report.minimax == report.alphabeta {
        "alphabeta == minimax"
    } else {
        "MISMATCH: alphabeta != minimax"
    };
    kv("verdict", agree.to_string());
    out
}
