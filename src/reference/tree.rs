//! `cutoff tree "<tree>"`: minimax and alpha-beta on a bracket tree, showing what was pruned.
//!
//! Prints `key: value` lines: both values and leaf counts, one `pruned:` line per cutoff with
//! the subtrees it skipped (1-based paths, leaves covered) and the α/β that fired, then
//! counters. `--trace` first prints every step of the alpha-beta search.

use std::fmt::Write as _;
use std::process::ExitCode;

use super::bracket::{BracketTree, ROOT};
use super::minimax::{
    minimax, show, AlphaBeta, Counters, GenerationOrder, Observer, OracleOrder, Side, Silent, Value,
};
use crate::types::Bound;

/// Command-line arguments of `cutoff tree`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The tree as nested brackets with integer leaves, e.g. "[[3,12,8],[2,4,6],[14,5,2]]",
    /// or `-` to read it from standard input (for trees too long for a command line).
    pub tree: String,
    /// Print every step of the alpha-beta search: nodes entered with their window, leaf
    /// values, α/β updates and cutoffs.
    #[arg(long)]
    pub trace: bool,
    /// The root is MIN instead of MAX (levels still alternate).
    #[arg(long)]
    pub min_root: bool,
}

/// One cutoff: where it happened, the window that fired, and the children never searched.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cut {
    pub node: usize,
    pub alpha: Value,
    pub beta: Value,
    pub skipped: Vec<usize>,
}

/// Collects the cutoffs of a search and, when tracing, writes each step to `trace`.
pub struct Recorder<'a> {
    pub tree: &'a BracketTree,
    pub cuts: Vec<Cut>,
    pub trace: Option<String>,
}

impl Recorder<'_> {
    fn line(&mut self, indent: usize, text: String) {
        if let Some(out) = &mut self.trace {
            let _ = writeln!(out, "{}{text}", "  ".repeat(indent));
        }
    }
}

impl Observer<BracketTree> for Recorder<'_> {
    fn enter(&mut self, node: &usize, ply: usize, side: Side, alpha: Value, beta: Value) {
        if self.tree.children(*node).is_empty() {
            return; // a leaf gets its own one-line entry
        }
        let text = format!(
            "enter {} {} alpha={} beta={}",
            self.tree.path(*node),
            side.name(),
            show(alpha),
            show(beta)
        );
        self.line(ply, text);
    }

    fn leaf(&mut self, node: &usize, ply: usize, value: Value) {
        let text = format!("leaf {} = {value}", self.tree.path(*node));
        self.line(ply, text);
    }

    fn improve(&mut self, node: &usize, ply: usize, side: Side, old: Value, new: Value) {
        let bound = if side == Side::Max { "alpha" } else { "beta" };
        let text = format!(
            "at {}: {bound} {} -> {}",
            self.tree.path(*node),
            show(old),
            show(new)
        );
        self.line(ply + 1, text);
    }

    fn cutoff(&mut self, node: &usize, ply: usize, alpha: Value, beta: Value, skipped: &[usize]) {
        let text = format!(
            "cutoff at {}: alpha={} >= beta={}, skipping {}",
            self.tree.path(*node),
            show(alpha),
            show(beta),
            describe_skipped(self.tree, skipped)
        );
        self.line(ply + 1, text);
        self.cuts.push(Cut {
            node: *node,
            alpha,
            beta,
            skipped: skipped.to_vec(),
        });
    }

    fn leave(&mut self, node: &usize, ply: usize, value: Value, bound: Bound) {
        let meaning = match bound {
            Bound::Exact => String::new(),
            Bound::Lower => format!(" (fail-hard bound: true value >= {})", show(value)),
            Bound::Upper => format!(" (fail-hard bound: true value <= {})", show(value)),
        };
        let text = format!(
            "return {} = {}{meaning}",
            self.tree.path(*node),
            show(value)
        );
        self.line(ply, text);
    }
}

/// `2.2-2.3 (2 leaves)`, `3 (1 leaf)`, or `nothing` when the cutting move was the last one.
/// The skipped moves of one cutoff are always a run of consecutive siblings.
pub fn describe_skipped(tree: &BracketTree, skipped: &[usize]) -> String {
    let (Some(&first), Some(&last)) = (skipped.first(), skipped.last()) else {
        return "nothing (the cutting move was the last one)".to_string();
    };
    let leaves: usize = skipped.iter().map(|&n| tree.nodes[n].leaves).sum();
    let range = if first == last {
        tree.path(first)
    } else {
        format!("{}-{}", tree.path(first), tree.path(last))
    };
    let noun = if leaves == 1 { "leaf" } else { "leaves" };
    format!("{range} ({leaves} {noun})")
}

/// Everything `cutoff tree` reports about one tree.
#[derive(Clone, Debug)]
pub struct Report {
    pub minimax: Value,
    pub minimax_counters: Counters,
    pub alphabeta: Value,
    pub alphabeta_counters: Counters,
    pub cuts: Vec<Cut>,
    /// Alpha-beta leaves with every node's children sorted best-first by exact value.
    pub oracle_counters: Counters,
    pub trace: Option<String>,
}

/// Runs minimax, alpha-beta in the written order (observed) and alpha-beta in oracle order.
pub fn analyse(tree: &BracketTree, root_side: Side, trace: bool) -> Report {
    let mut minimax_counters = Counters::default();
    let minimax_value = minimax(tree, &ROOT, root_side, &mut minimax_counters);

    let mut recorder = Recorder {
        tree,
        cuts: Vec::new(),
        trace: trace.then(String::new),
    };
    let mut order = GenerationOrder;
    let mut search = AlphaBeta::new(tree, &mut order, &mut recorder);
    let alphabeta_value = search.value(&ROOT, root_side);
    let alphabeta_counters = search.counters;

    let mut oracle = OracleOrder {
        exact: |node: &usize, side: Side| minimax(tree, node, side, &mut Counters::default()),
    };
    let mut silent = Silent;
    let mut search = AlphaBeta::new(tree, &mut oracle, &mut silent);
    search.value(&ROOT, root_side);
    let oracle_counters = search.counters;

    Report {
        minimax: minimax_value,
        minimax_counters,
        alphabeta: alphabeta_value,
        alphabeta_counters,
        cuts: recorder.cuts,
        oracle_counters,
        trace: recorder.trace,
    }
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
    let mut pruned_leaves = 0;
    for cut in pruning {
        pruned_leaves += cut
            .skipped
            .iter()
            .map(|&n| tree.nodes[n].leaves)
            .sum::<usize>();
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
    kv("pruned leaves", pruned_leaves.to_string());
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

/// The largest tree read from standard input: a bound on what endless input can take.
const MAX_STDIN_BYTES: u64 = 64 << 20;

/// The tree text: the argument, or standard input for `-`.
fn tree_text(arg: &str) -> Result<String, String> {
    use std::io::Read;
    if arg != "-" {
        return Ok(arg.to_string());
    }
    let mut bytes = Vec::new();
    std::io::stdin()
        .take(MAX_STDIN_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read standard input: {e}"))?;
    if bytes.len() as u64 > MAX_STDIN_BYTES {
        return Err(format!(
            "standard input is larger than {} MiB",
            MAX_STDIN_BYTES >> 20
        ));
    }
    String::from_utf8(bytes).map_err(|_| "standard input is not UTF-8 text".to_string())
}

pub fn run(args: Args) -> ExitCode {
    let text = match tree_text(&args.tree) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let tree = match BracketTree::parse(&text) {
        Ok(tree) => tree,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let side = if args.min_root { Side::Min } else { Side::Max };
    let report = analyse(&tree, side, args.trace);
    if let Some(trace) = &report.trace {
        print!("{trace}");
        println!();
    }
    print!("{}", summary(&tree, side, &report));
    if report.minimax == report.alphabeta {
        ExitCode::SUCCESS
    } else {
        eprintln!("error: alpha-beta returned a different value from minimax");
        ExitCode::FAILURE
    }
}
