//! `cutoff compare [--fen F] --depth D|A..B [--svg FILE] [--html FILE]`: minimax against
//! alpha-beta with several move orderings on one chess position, at a fixed depth.
//!
//! Every mode must return minimax's value (the command says so in a `verdict:` line and exits
//! with failure if one does not); what differs is how many nodes each needed. See
//! `docs/alphabeta.md` for how to read the table.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::str::FromStr;
use std::sync::mpsc;

use indicatif::{ProgressBar, ProgressStyle};
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};

use super::IntRange;
use crate::lab::compare::page::compare_page;
use crate::lab::compare::plot::svg_plot;
use crate::lab::compare::progress::{print_estimate, report_progress};
use crate::lab::compare::table::DepthTable;
use crate::lab::compare::{compare_depth, principal_line, DepthResults};
use crate::position::{read_fen, FenPolicy};
use crate::types::Depth;

/// The deepest `--depth` accepted: minimax beyond this would not finish anyway.
pub const MAX_DEPTH: Depth = 12;

/// The depths `--depth` takes, alone or as the ends of a range.
const DEPTHS: IntRange =
    IntRange::from_to(1, MAX_DEPTH as i64).because("minimax deeper would never finish");

/// Command-line arguments of `cutoff compare`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The position (default: the start position).
    #[arg(long)]
    pub fen: Option<String>,
    /// Search depth in plies, 1 to 12, or an inclusive range such as `1..5` (one table per
    /// depth). Minimax's cost grows some 20-40 times a ply: depth 6 of the start position takes
    /// about a minute, and each depth's cost is estimated on stderr before the searches start.
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
            DEPTHS
                .parse(t)
                .map_err(|e| format!("{e}, or a range of them such as 2..5"))
        };
        let (first, last) = match s.split_once("..") {
            Some((a, b)) => (parse(a)?, parse(b.strip_prefix('=').unwrap_or(b))?),
            None => (parse(s)?, parse(s)?),
        };
        if first > last {
            return Err(format!(
                "empty depth range {s}: the first depth is above the last"
            ));
        }
        Ok(Depths { first, last })
    }
}

/// The pages' paths, checked before the searches, which can take minutes: each one writable,
/// and not both one file (the page would replace the plot without a word).
fn check_outputs(args: &Args) -> Result<(), String> {
    let outputs: Vec<(&str, &std::path::Path)> = [("--svg", &args.svg), ("--html", &args.html)]
        .into_iter()
        .filter_map(|(flag, path)| Some((flag, path.as_deref()?)))
        .collect();
    for (flag, path) in &outputs {
        crate::files::check_output(path).map_err(|e| format!("{flag} {e}"))?;
    }
    crate::files::check_distinct_outputs(&outputs)
}

/// The plot (`--svg`) and the page (`--html`) of the runs `all`, each written whole, as asked.
fn write_pages(args: &Args, pos: &Chess, fen: &str, all: &[DepthResults]) -> Result<(), String> {
    if let Some(path) = &args.svg {
        let root_moves = pos.legal_moves().len();
        crate::files::write_whole(path, svg_plot(fen, root_moves, all).as_bytes())?;
        eprintln!("compare: wrote {}", path.display());
    }
    if let Some(path) = &args.html {
        let last = all.last().map_or(args.depth.last, |r| r.depth);
        eprintln!("compare: valuing the root moves at depth {last} for the page");
        let line = principal_line(pos, last);
        crate::files::write_whole(path, compare_page(fen, pos, all, &line).as_bytes())?;
        eprintln!("compare: wrote {}", path.display());
    }
    Ok(())
}

/// `cutoff compare`: exits with failure when a mode's value differs from minimax's.
pub fn run(args: Args) -> ExitCode {
    let pos = match &args.fen {
        Some(fen) => match read_fen(fen, CastlingMode::Standard, FenPolicy::Lenient) {
            Ok(pos) => pos,
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        },
        None => Chess::default(),
    };
    if let Err(e) = check_outputs(&args) {
        eprintln!("error: {e}");
        return ExitCode::from(2);
    }
    let fen = shakmaty::fen::Fen::from_position(&pos, EnPassantMode::Legal).to_string();
    let root_moves = pos.legal_moves().len();
    println!("position: {fen}");
    println!(
        "side to move: {} (values are from its point of view)",
        pos.turn()
    );
    if root_moves == 0 {
        // Nothing to search, at any depth: no table of zeros and no pages of nothing.
        let (what, value) = if pos.is_check() {
            ("checkmated", "mate 0, lost")
        } else {
            ("stalemated", "cp 0, a draw")
        };
        println!(
            "root moves: 0: {} is {what} (value {value} at every depth); nothing to compare",
            pos.turn()
        );
        if args.svg.is_some() || args.html.is_some() {
            eprintln!("compare: no page written: the root has no move to search");
        }
        return ExitCode::SUCCESS;
    }
    println!("root moves: {root_moves}");
    println!(
        "note: ID + hash move counts the nodes of all iterations 1..D; oracle counts only its final pass"
    );
    print_estimate(&pos, args.depth.first..=args.depth.last);

    let progress = ProgressBar::new_spinner();
    progress.set_style(
        ProgressStyle::with_template("{spinner} {msg}: {human_pos} positions expanded, {elapsed}")
            .unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    let mut all = Vec::new();
    let mut failed = false;
    std::thread::scope(|scope| {
        // Where the spinner is not drawn (stderr a pipe or a file), a line now and then says
        // that the run is alive and how far it has gone; stdout carries only the report.
        let (done, finished) = mpsc::channel::<()>();
        if !std::io::stderr().is_terminal() {
            let progress = progress.clone();
            scope.spawn(move || report_progress(&progress, &finished));
        }
        for depth in args.depth.first..=args.depth.last {
            let r = compare_depth(&pos, depth, &progress);
            println!();
            print!("{}", DepthTable::new(&pos, &r).text());
            if !r.mismatches().is_empty() {
                failed = true;
            }
            all.push(r);
        }
        drop(done);
    });
    progress.finish_and_clear();

    if let Err(e) = write_pages(&args, &pos, &fen, &all) {
        eprintln!("error: cannot write {e}");
        return ExitCode::FAILURE;
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
        let e = "13".parse::<Depths>().unwrap_err();
        assert!(e.contains("from 1 to 12"), "{e}");
    }
}
