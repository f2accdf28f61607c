//! `cutoff epd`: runs an EPD test suite under a search limit, a row per position in input order
//! and a summary (positions and judging in [`crate::epd`], the searching in [`crate::solve`]).

use std::process::ExitCode;
use std::time::{Duration, Instant};

use super::{
    at_least_one, checked_threads, counted, progress_bar, threads, usage, Failure, IntRange,
};
use crate::epd::format::san;
use crate::epd::problem::{Problem, Suite, Tally};
use crate::files::read_lines;
use crate::search::Limits;
use crate::solve::{solve, Attempt, Solved, Workers};

/// Command-line arguments of `cutoff epd`.
#[derive(clap::Args, Debug)]
#[command(group(clap::ArgGroup::new("limit").args(["movetime", "depth", "nodes"])))]
pub struct Args {
    /// Suite file (EPD with `bm`, `am`, `id`, `c0` operations).
    pub file: std::path::PathBuf,
    /// Milliseconds per position, at least 1 (the default limit: 1000).
    #[arg(long, value_parser = at_least_one::<u64>())]
    pub movetime: Option<u64>,
    /// Fixed depth per position, 1 to 30 (deeper would never finish).
    #[arg(long, value_parser = DEPTHS.parser::<i32>())]
    pub depth: Option<i32>,
    /// Fixed node count per position, at least 1.
    #[arg(long, value_parser = at_least_one::<u64>())]
    pub nodes: Option<u64>,
    /// Positions searched at once, each worker with its own searcher and table: 1 to 1024.
    #[arg(long, short = 'j', default_value_t = 1, value_parser = threads::<usize>())]
    pub jobs: usize,
    /// Transposition table size per worker, in MiB, at least 1.
    #[arg(long, default_value_t = 16, value_parser = at_least_one::<usize>())]
    pub hash: usize,
    /// Search threads per worker (Lazy SMP, sharing the worker's table): 1 to 1024.
    #[arg(long, default_value_t = 1, value_parser = threads::<u16>())]
    pub threads: u16,
}

/// The deepest `--depth` accepts: far beyond what a suite position reaches in minutes (the
/// time doubles about every ply), so that a typo like `--depth 100000` is refused instead of
/// running until killed.
pub const MAX_DEPTH: i32 = 30;

/// The depths `--depth` takes.
const DEPTHS: IntRange =
    IntRange::from_to(1, MAX_DEPTH as i64).because("deeper would never finish");

/// Milliseconds per position when no limit is given.
const DEFAULT_MOVETIME_MS: u64 = 1000;

impl Args {
    fn limits(&self) -> Limits {
        match (self.depth, self.nodes, self.movetime) {
            (Some(d), _, _) => Limits::depth(d),
            (_, Some(n), _) => Limits::nodes(n),
            (_, _, ms) => Limits::movetime(ms.unwrap_or(DEFAULT_MOVETIME_MS)),
        }
    }
}

/// One row of the result table.
fn format_row(problem: &Problem, attempt: &Attempt) -> String {
    let chosen = attempt
        .chosen
        .map_or_else(|| "(none)".to_owned(), |m| san(&problem.record.position, m));
    let mut result = match attempt.verdict.solved {
        Some(true) => "pass".to_owned(),
        Some(false) => "FAIL".to_owned(),
        None => "-".to_owned(),
    };
    if let (Some(p), Some(max)) = (attempt.verdict.points, problem.max_points()) {
        result.push_str(&format!(" {p}/{max}"));
    }
    format!(
        "{:<32} {:<24} {:<8} {:<10} depth {:>3} {:>7} ms",
        problem.name(),
        problem.expected(),
        chosen,
        result,
        attempt.depth,
        attempt.elapsed.as_millis()
    )
}

/// `cutoff epd`: a row per position in input order on stdout, then the summary.
pub fn run(args: Args) -> ExitCode {
    match run_suite(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => failure.exit(),
    }
}

fn run_suite(args: &Args) -> Result<(), Failure> {
    let lines = read_lines(&args.file).map_err(|e| usage(format!("cannot read {e}")))?;
    let jobs = checked_threads(Some(args.jobs)).map_err(|e| usage(format!("--jobs: {e}")))?;
    // Every worker has its own table: all of them must fit at once.
    args.hash
        .checked_mul(jobs)
        .ok_or_else(|| format!("cannot allocate {} MB x {jobs} workers", args.hash))
        .and_then(|total| crate::memory::check_table_size("hash tables", total, 0))
        .map_err(|e| usage(format!("--hash: {e}")))?;
    let Suite {
        problems,
        unreadable,
    } = Suite::parse(&lines);
    for (line, e) in &unreadable {
        eprintln!("SKIP line {line}: {e}");
    }
    let unreadable = unreadable.len();
    if problems.is_empty() {
        return Err(Failure::Run(format!(
            "no readable positions in {} ({} unreadable)",
            args.file.display(),
            counted(unreadable, "line", "lines")
        )));
    }
    let limits = args.limits();
    let start = Instant::now();
    let workers = Workers {
        jobs,
        hash_mb: args.hash,
        threads: usize::from(args.threads),
    };
    let progress = progress_bar(problems.len() as u64, "positions");
    let tally = solve(&problems, &limits, workers, |event| match event {
        Solved::Warning(warning) => eprintln!("epd: {warning}"),
        Solved::Searched => progress.inc(1),
        Solved::Row { problem, attempt } => {
            progress.suspend(|| println!("{}", format_row(problem, attempt)));
        }
    });
    progress.finish_and_clear();
    print_summary(&tally?, problems.len(), unreadable, start.elapsed());
    // A line that does not read is an error, as in `perft-suite`: a file truncated mid-line
    // must not pass for a complete suite.
    if unreadable > 0 {
        return Err(Failure::Run(format!(
            "{} could not be read (SKIP above)",
            counted(unreadable, "line", "lines")
        )));
    }
    Ok(())
}

fn print_summary(tally: &Tally, searched: usize, unreadable: usize, elapsed: Duration) {
    let percent = |a: f64, b: f64| if b > 0.0 { 100.0 * a / b } else { 0.0 };
    let mut summary = format!(
        "solved {}/{} ({:.1}%)",
        tally.solved,
        tally.judged,
        percent(tally.solved as f64, tally.judged as f64)
    );
    if tally.max_points > 0 {
        summary.push_str(&format!(
            ", points {}/{} ({:.1}%)",
            tally.points,
            tally.max_points,
            percent(tally.points as f64, tally.max_points as f64)
        ));
    }
    println!(
        "{summary}, {searched} positions searched, {unreadable} unreadable, total time {:.1} s",
        elapsed.as_secs_f64()
    );
}
