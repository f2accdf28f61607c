//! `cutoff perft` and `cutoff perft-suite`: the counting itself is in [`crate::perft`].

use std::process::ExitCode;
use std::time::Instant;

use shakmaty::{CastlingMode, Chess};

use super::{
    at_least_one, checked_threads, counted, progress_bar, threads, usage, Failure, IntRange,
};
use crate::files::read_lines;
use crate::memory::check_table_size;
use crate::perft::{check_suite, divide_with, PerftTable, MAX_DEPTH};
use crate::position::{read_fen, FenPolicy};
use crate::types::nps;

/// The depths `perft` counts to: 0 (the position itself) up to [`MAX_DEPTH`].
const DEPTHS: IntRange =
    IntRange::from_to(0, MAX_DEPTH as i64).because("deeper would never finish");

/// Command-line arguments of `cutoff perft`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Plies to count: 0 to 10 (deeper would never finish).
    #[arg(value_parser = DEPTHS.parser::<u32>())]
    pub depth: u32,
    /// Start position (default: the standard start). May be given quoted or as separate words.
    #[arg(long, num_args = 1..)]
    pub fen: Vec<String>,
    /// Print the count below every root move (`e2e4: 9771`), as Stockfish's `go perft`.
    #[arg(long)]
    pub divide: bool,
    /// Worker threads, 1 to 1024 (default: all cores).
    #[arg(long, short = 't', value_parser = threads::<usize>())]
    pub threads: Option<usize>,
    /// Read Chess960 castling rights (Shredder-FEN or X-FEN); print castling as king-takes-rook.
    #[arg(long)]
    pub chess960: bool,
    /// Perft hash table size in MiB (0: none).
    #[arg(long, default_value_t = 0)]
    pub hash: usize,
}

/// `cutoff perft`: the total (and with `--divide` the per-move counts) on stdout.
pub fn run(args: Args) -> ExitCode {
    match count(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => failure.exit(),
    }
}

fn count(args: &Args) -> Result<(), Failure> {
    let mode = if args.chess960 {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    };
    let pos = parse_fen(&args.fen.join(" "), mode).map_err(usage)?;
    let threads = checked_threads(args.threads).map_err(usage)?;
    // Checked against the memory available first: with overcommit, a reservation that
    // succeeds can still get the process killed once the table is filled in.
    let table = check_table_size("perft hash table", args.hash, 0)
        .and_then(|()| PerftTable::try_new(args.hash))
        .map_err(|e| usage(format!("--hash: {e}")))?;
    let start = Instant::now();
    let (total, moves) = if args.depth == 0 {
        (1, Vec::new())
    } else {
        let moves = divide_with(&pos, args.depth, threads, table.as_ref());
        (moves.iter().map(|(_, n)| n).sum(), moves)
    };
    let elapsed = start.elapsed();
    if args.divide {
        for (m, n) in &moves {
            println!("{}: {n}", m.to_uci(mode));
        }
        println!();
    }
    println!("Nodes searched: {total}");
    println!("Time: {} ms", elapsed.as_millis());
    println!("Speed: {:.1} Mnps", nps(total, elapsed) / 1e6);
    Ok(())
}

/// Reads `--fen` (empty: the start position) as written ([`FenPolicy::Strict`]): castling
/// rights dropped silently would make the count that of another position. `--chess960` is
/// suggested only where the FEN reads with it (Shredder-FEN or X-FEN rights), never for a
/// position that is illegal in any mode.
fn parse_fen(text: &str, mode: CastlingMode) -> Result<Chess, String> {
    if text.trim().is_empty() {
        return Ok(Chess::default());
    }
    read_fen(text, mode, FenPolicy::Strict).map_err(|e| {
        let reads_in_chess960 = mode == CastlingMode::Standard
            && read_fen(text, CastlingMode::Chess960, FenPolicy::Strict).is_ok();
        if reads_in_chess960 {
            format!("{e} (it reads as a Chess960 position: add --chess960)")
        } else {
            e
        }
    })
}

/// Command-line arguments of `cutoff perft-suite`.
#[derive(clap::Args, Debug)]
pub struct SuiteArgs {
    /// Suite file: one `<fen> ;D1 <n> ;D2 <n> ...` per line.
    pub file: std::path::PathBuf,
    /// Check only depths up to this one, at least 1 (default: every depth in the file).
    #[arg(long, value_parser = at_least_one::<u32>())]
    pub max_depth: Option<u32>,
    /// Worker threads, 1 to 1024; positions are spread over them (default: all cores).
    #[arg(long, short = 't', value_parser = threads::<usize>())]
    pub threads: Option<usize>,
}

/// `cutoff perft-suite`: one line per mismatch or unreadable line, then a summary; fails on any.
pub fn run_suite(args: SuiteArgs) -> ExitCode {
    match check_file(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => failure.exit(),
    }
}

fn check_file(args: &SuiteArgs) -> Result<(), Failure> {
    let lines = read_lines(&args.file).map_err(|e| usage(format!("cannot read {e}")))?;
    let threads = checked_threads(args.threads).map_err(usage)?;
    let progress = progress_bar(0, "positions");
    let start = Instant::now();
    let report = check_suite(&lines, args.max_depth, threads, &progress);
    let elapsed = start.elapsed();
    progress.finish_and_clear();
    for (line, e) in &report.errors {
        println!("ERROR line {line}: {e}");
    }
    for m in &report.mismatches {
        println!(
            "MISMATCH line {}: {} depth {} expected {} found {}",
            m.line, m.fen, m.depth, m.expected, m.found
        );
    }
    println!(
        "{} positions, {} counts checked, {} mismatches, {} unreadable lines; {} nodes in {:.2} s ({:.1} Mnps)",
        report.positions,
        report.checked,
        report.mismatches.len(),
        report.errors.len(),
        report.nodes,
        elapsed.as_secs_f64(),
        nps(report.nodes, elapsed) / 1e6
    );
    if report.positions == 0 && report.errors.is_empty() {
        return Err(Failure::Run(format!(
            "no positions in {} (expected `<fen> ;D1 <n> ...` lines)",
            args.file.display()
        )));
    }
    if let Some((line, e)) = report.errors.first() {
        return Err(Failure::Run(format!(
            "{} of {} could not be read (first: line {line}: {e})",
            counted(report.errors.len(), "line", "lines"),
            args.file.display()
        )));
    }
    if !report.mismatches.is_empty() {
        return Err(Failure::Run(format!(
            "{} not match (MISMATCH above)",
            counted(report.mismatches.len(), "count does", "counts do")
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chess960_fen_needs_chess960_mode() {
        let fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
        let e = parse_fen(fen, CastlingMode::Standard).unwrap_err();
        assert!(
            e.ends_with("(it reads as a Chess960 position: add --chess960)"),
            "{e}"
        );
        assert!(parse_fen(fen, CastlingMode::Chess960).is_ok());
    }

    /// A position illegal in either mode gets no `--chess960` hint: it would not help.
    #[test]
    fn an_illegal_position_gets_no_chess960_hint() {
        for fen in [
            "8/8/8/8/8/8/8/8 w - - 0 1",
            "4k3/4R3/8/8/8/8/8/4K3 w - - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1",
        ] {
            let e = parse_fen(fen, CastlingMode::Standard).unwrap_err();
            assert!(!e.contains("chess960"), "{fen}: {e}");
        }
    }
}
