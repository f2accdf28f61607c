//! Minimax against alpha-beta with several move orderings on one chess position, at a fixed
//! depth: the runs, the text table and the plot of `cutoff compare` ([`crate::cli::compare`]).
//!
//! Every mode must return minimax's value (the table says so in a `verdict:` line); what
//! differs is how many nodes each needed. See `docs/alphabeta.md` for how to read the table.

use std::fmt::Write as _;
use std::time::Duration;

use indicatif::ProgressBar;
use shakmaty::{Chess, Position};

use super::chess::{minimal_tree_leaves, run_mode, ChessTree, Mode, ModeResult};
use super::minimax::Counters;
use super::svg::{plot, Labels, Series};
use crate::types::Depth;

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

fn format_time(t: Duration) -> String {
    let s = t.as_secs_f64();
    if s < 1.0 {
        format!("{:.1} ms", s * 1000.0)
    } else {
        format!("{s:.2} s")
    }
}

fn percent(part: u64, whole: u64) -> String {
    if whole == 0 {
        "-".to_string()
    } else {
        format!("{:.2}%", 100.0 * part as f64 / whole as f64)
    }
}

/// One table row.
fn row(out: &mut String, label: &str, value: &str, c: &Counters, all: &DepthResults, time: &str) {
    let minimax = all.get(Mode::Minimax).counters.nodes;
    let oracle = all.get(Mode::Oracle).counters.nodes;
    let (cutoffs, first) = if label == Mode::Minimax.label() {
        ("-".to_string(), "-".to_string())
    } else {
        (
            c.beta_cutoffs.to_string(),
            percent(c.first_move_cutoffs, c.beta_cutoffs),
        )
    };
    let _ = writeln!(
        out,
        "{label:<34} {value:>10} {:>11} {:>11} {:>9} {:>8} {cutoffs:>9} {first:>9} {time:>10}",
        c.nodes,
        c.leaves,
        percent(c.nodes, minimax),
        format!("{:.2}x", c.nodes as f64 / oracle.max(1) as f64),
    );
}

/// The table for one depth, as printed.
pub fn table(pos: &Chess, r: &DepthResults) -> String {
    let mut out = String::new();
    let depth = r.depth;
    let _ = writeln!(out, "depth: {depth}");
    let _ = writeln!(
        out,
        "{:<34} {:>10} {:>11} {:>11} {:>9} {:>8} {:>9} {:>9} {:>10}",
        "mode", "value", "nodes", "leaves", "%minimax", "xoracle", "cutoffs", "1st-move", "time"
    );
    for m in &r.results {
        row(
            &mut out,
            m.mode.label(),
            &m.value.to_string(),
            &m.counters,
            r,
            &format_time(m.time),
        );
        if let Some(last) = &m.last_iteration {
            row(
                &mut out,
                &format!("  of which the depth-{depth} iteration"),
                "",
                last,
                r,
                "",
            );
        }
    }
    let b = pos.legal_moves().len() as f64;
    let minimax_leaves = r.get(Mode::Minimax).counters.leaves as f64;
    let avg_b = minimax_leaves.powf(1.0 / f64::from(depth));
    let _ = writeln!(
        out,
        "minimal tree b^ceil(d/2)+b^floor(d/2)-1: {:.0} leaves with b={b} root moves, {:.0} with average branching b={avg_b:.2}",
        minimal_tree_leaves(b, depth as u32),
        minimal_tree_leaves(avg_b, depth as u32),
    );
    let value = r.get(Mode::Minimax).value;
    let bad = r.mismatches();
    if bad.is_empty() {
        let _ = writeln!(
            out,
            "verdict: ok, all {} modes return minimax's value {value}",
            r.results.len()
        );
    } else {
        let names: Vec<String> = bad
            .iter()
            .map(|&m| format!("{} = {}", m.label(), r.get(m).value))
            .collect();
        let _ = writeln!(
            out,
            "verdict: MISMATCH, minimax = {value} but {}",
            names.join(", ")
        );
    }
    out
}

/// The SVG plot of nodes against depth for all modes, with the minimal-tree line.
pub fn svg_plot(fen: &str, root_moves: usize, all: &[DepthResults]) -> String {
    let mut series: Vec<Series> = Mode::ALL
        .iter()
        .map(|&mode| Series {
            name: mode.short().to_string(),
            points: all
                .iter()
                .map(|r| (f64::from(r.depth), r.get(mode).counters.nodes as f64))
                .collect(),
            dashed: false,
        })
        .collect();
    series.push(Series {
        name: format!("minimal tree, b={root_moves} (leaves)"),
        points: all
            .iter()
            .map(|r| {
                (
                    f64::from(r.depth),
                    minimal_tree_leaves(root_moves as f64, r.depth as u32),
                )
            })
            .collect(),
        dashed: true,
    });
    let notes = [
        "ID + hash move: nodes of all".to_string(),
        "  iterations 1..d summed.".to_string(),
        "oracle: final pass only.".to_string(),
        "minimal tree: Knuth-Moore".to_string(),
        "  b^\u{2308}d/2\u{2309} + b^\u{230a}d/2\u{230b} \u{2212} 1 leaves,".to_string(),
        format!("  b = {root_moves} root moves."),
    ];
    plot(
        &Labels {
            title: "Nodes searched to a fixed depth: minimax vs alpha-beta",
            subtitle: fen,
            x: "depth (plies)",
            y: "nodes (log scale)",
            notes: &notes,
        },
        &series,
    )
}
