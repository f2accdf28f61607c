//! `cutoff compare [--fen F] --depth D|A..B [--svg FILE]`: minimax against alpha-beta with
//! several move orderings on one chess position, at a fixed depth.
//!
//! Every mode must return minimax's value (the command says so in a `verdict:` line and exits
//! with failure if one does not); what differs is how many nodes each needed. See
//! `docs/alphabeta.md` for how to read the table.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::str::FromStr;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};

use super::chess::{minimal_tree_leaves, run_mode, ChessTree, Mode, ModeResult};
use super::compare_html::{compare_page, principal_line};
use super::minimax::Counters;
use super::svg::{plot, Labels, Series};
use crate::position::Game;
use crate::types::Depth;

/// The deepest `--depth` accepted: minimax beyond this would not finish anyway.
pub const MAX_DEPTH: Depth = 12;

/// Command-line arguments of `cutoff compare`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The position (default: the start position).
    #[arg(long)]
    pub fen: Option<String>,
    /// Search depth in plies, or an inclusive range such as `1..5` (one table per depth).
    #[arg(long)]
    pub depth: Depths,
    /// Also write an SVG plot of nodes (log scale) against depth to this file.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// Also write the tables, the plot, the board and the principal line in SAN as a
    /// self-contained web page to this file.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
}

/// An inclusive range of depths: `4` or `1..4`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Depths {
    pub first: Depth,
    pub last: Depth,
}

impl FromStr for Depths {
    type Err = String;

    fn from_str(s: &str) -> Result<Depths, String> {
        let parse = |t: &str| -> Result<Depth, String> {
            let d: Depth = t
                .trim()
                .parse()
                .map_err(|_| format!("'{t}' is not a depth"))?;
            if (1..=MAX_DEPTH).contains(&d) {
                Ok(d)
            } else {
                Err(format!("depth {d} is outside 1..{MAX_DEPTH}"))
            }
        };
        let (first, last) = match s.split_once("..") {
            Some((a, b)) => (parse(a)?, parse(b.strip_prefix('=').unwrap_or(b))?),
            None => (parse(s)?, parse(s)?),
        };
        if first > last {
            return Err(format!("empty depth range {s}"));
        }
        Ok(Depths { first, last })
    }
}

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

pub fn run(args: Args) -> ExitCode {
    let game = match &args.fen {
        Some(fen) => match Game::from_fen(fen, CastlingMode::Standard) {
            Ok(game) => game,
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        },
        None => Game::default(),
    };
    let pos = game.root;
    let fen = shakmaty::fen::Fen::from_position(&pos, EnPassantMode::Legal).to_string();
    let root_moves = pos.legal_moves().len();
    println!("position: {fen}");
    println!(
        "side to move: {} (values are from its point of view)",
        pos.turn()
    );
    println!("root moves: {root_moves}");
    println!(
        "note: ID + hash move counts the nodes of all iterations 1..D; oracle counts only its final pass"
    );

    let progress = ProgressBar::new_spinner();
    progress.set_style(
        ProgressStyle::with_template("{spinner} {msg}: {human_pos} positions expanded, {elapsed}")
            .unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    let mut all = Vec::new();
    let mut failed = false;
    for depth in args.depth.first..=args.depth.last {
        let r = compare_depth(&pos, depth, &progress);
        println!();
        print!("{}", table(&pos, &r));
        if !r.mismatches().is_empty() {
            failed = true;
        }
        all.push(r);
    }
    progress.finish_and_clear();

    if let Some(path) = &args.svg {
        match std::fs::write(path, svg_plot(&fen, root_moves, &all)) {
            Ok(()) => eprintln!("compare: wrote {}", path.display()),
            Err(e) => {
                eprintln!("error: cannot write {}: {e}", path.display());
                return ExitCode::from(2);
            }
        }
    }
    if let Some(path) = &args.html {
        let last = all.last().map_or(args.depth.last, |r| r.depth);
        eprintln!("compare: valuing the root moves at depth {last} for the page");
        let line = principal_line(&pos, last);
        match std::fs::write(path, compare_page(&fen, &pos, &all, &line)) {
            Ok(()) => eprintln!("compare: wrote {}", path.display()),
            Err(e) => {
                eprintln!("error: cannot write {}: {e}", path.display());
                return ExitCode::from(2);
            }
        }
    }
    if failed {
        eprintln!(
            "error: ALPHA-BETA DISAGREES WITH MINIMAX: a mode returned a different value (see the verdict lines)"
        );
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depth_ranges_parse() {
        assert_eq!("4".parse(), Ok(Depths { first: 4, last: 4 }));
        assert_eq!("1..5".parse(), Ok(Depths { first: 1, last: 5 }));
        assert_eq!("2..=3".parse(), Ok(Depths { first: 2, last: 3 }));
        assert!("0".parse::<Depths>().is_err());
        assert!("5..2".parse::<Depths>().is_err());
        assert!("x".parse::<Depths>().is_err());
    }
}
