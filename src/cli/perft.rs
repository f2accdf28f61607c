//! `cutoff perft` and `cutoff perft-suite`: the counting itself is in [`crate::perft`].

use std::process::ExitCode;
use std::time::Instant;

use shakmaty::{CastlingMode, Chess};

use super::at_least_one;
use crate::memory::check_table_size;
use crate::perft::{check_suite, divide_with, PerftTable, MAX_DEPTH};
use crate::position::{read_fen, FenPolicy};
use crate::types::nps;
use crate::util::{checked_threads, progress_bar, read_lines};

/// Command-line arguments of `cutoff perft`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Plies to count.
    pub depth: u32,
    /// Start position (default: the standard start). May be given quoted or as separate words.
    #[arg(long, num_args = 1..)]
    pub fen: Vec<String>,
    /// Print the count below every root move (`e2e4: 9771`), as Stockfish's `go perft`.
    #[arg(long)]
    pub divide: bool,
    /// Worker threads (default: all cores).
    #[arg(long, short = 't', value_parser = at_least_one())]
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
    let mode = if args.chess960 {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    };
    let pos = match parse_fen(&args.fen.join(" "), mode) {
        Ok(pos) => pos,
        Err(e) => {
            eprintln!("perft: {e}");
            return ExitCode::FAILURE;
        }
    };
    if args.depth > MAX_DEPTH {
        eprintln!(
            "perft: depth {} is beyond the maximum {MAX_DEPTH} (it would never finish)",
            args.depth
        );
        return ExitCode::FAILURE;
    }
    let threads = match checked_threads(args.threads) {
        Ok(n) => n,
        Err(e) => {
            eprintln!("perft: {e}");
            return ExitCode::FAILURE;
        }
    };
    // Checked against the memory available first: with overcommit, a reservation that
    // succeeds can still get the process killed once the table is filled in.
    let table = match check_table_size("perft hash table", args.hash, 0)
        .and_then(|()| PerftTable::try_new(args.hash))
    {
        Ok(table) => table,
        Err(e) => {
            eprintln!("perft: {e}");
            return ExitCode::FAILURE;
        }
    };
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
    ExitCode::SUCCESS
}

/// Reads `--fen` (empty: the start position) as written ([`FenPolicy::Strict`]): castling
/// rights dropped silently would make the count that of another position.
fn parse_fen(text: &str, mode: CastlingMode) -> Result<Chess, String> {
    if text.trim().is_empty() {
        return Ok(Chess::default());
    }
    read_fen(text, mode, FenPolicy::Strict).map_err(|e| {
        let hint = if mode == CastlingMode::Standard && e.starts_with("illegal") {
            " (Chess960 castling rights need --chess960)"
        } else {
            ""
        };
        format!("{e}{hint}")
    })
}

/// Command-line arguments of `cutoff perft-suite`.
#[derive(clap::Args, Debug)]
pub struct SuiteArgs {
    /// Suite file: one `<fen> ;D1 <n> ;D2 <n> ...` per line.
    pub file: std::path::PathBuf,
    /// Check only depths up to this one (default: every depth in the file).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_depth: Option<u32>,
    /// Worker threads; positions are spread over them (default: all cores).
    #[arg(long, short = 't', value_parser = at_least_one())]
    pub threads: Option<usize>,
}

/// `cutoff perft-suite`: one line per mismatch or unreadable line, then a summary; fails on any.
pub fn run_suite(args: SuiteArgs) -> ExitCode {
    let lines = match read_lines(&args.file) {
        Ok(lines) => lines,
        Err(e) => {
            eprintln!("perft-suite: cannot read {e}");
            return ExitCode::FAILURE;
        }
    };
    let threads = match checked_threads(args.threads) {
        Ok(n) => n,
        Err(e) => {
            eprintln!("perft-suite: {e}");
            return ExitCode::FAILURE;
        }
    };
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
        eprintln!(
            "perft-suite: no positions in {} (expected `<fen> ;D1 <n> ...` lines)",
            args.file.display()
        );
        return ExitCode::FAILURE;
    }
    if report.passed() {
        ExitCode::SUCCESS
    } else if !report.errors.is_empty() {
        let (line, e) = &report.errors[0];
        eprintln!(
            "perft-suite: {} unreadable lines in {} (first: line {line}: {e})",
            report.errors.len(),
            args.file.display()
        );
        ExitCode::FAILURE
    } else {
        eprintln!(
            "perft-suite: {} counts do not match",
            report.mismatches.len()
        );
        ExitCode::FAILURE
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chess960_fen_needs_chess960_mode() {
        let fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
        let e = parse_fen(fen, CastlingMode::Standard).unwrap_err();
        assert!(
            e.ends_with("(Chess960 castling rights need --chess960)"),
            "{e}"
        );
        assert!(parse_fen(fen, CastlingMode::Chess960).is_ok());
    }
}
