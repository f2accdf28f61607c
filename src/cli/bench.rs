//! `cutoff bench`: OpenBench's signature, `Bench: <N> nodes <M> nps` as the last line (the
//! positions and the search in [`crate::bench`]).

use std::process::ExitCode;

use shakmaty::CastlingMode;

use super::{at_least_one, EvalArg};
use crate::bench::{bench_on, DEFAULT_DEPTH, HASH_MB, MAX_DEPTH, POSITIONS};
use crate::eval::EvaluatorKind;
use crate::search::Searcher;
use crate::types::Depth;

/// Command-line arguments of `cutoff bench`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Search depth (default: DEFAULT_DEPTH, at most MAX_DEPTH).
    pub depth: Option<Depth>,
    /// Search threads (Lazy SMP); node counts are reproducible only with 1.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: u16,
    /// Transposition table size in MiB, cleared before each position. The `Bench:` signature
    /// is the node count with the default; other sizes measure the table (Lazy SMP's scaling
    /// with 16 against 256 MiB, docs/tools.md).
    #[arg(long, default_value_t = HASH_MB, value_parser = at_least_one())]
    pub hash: usize,
    /// The evaluation searched with. The `Bench:` signature is the default's (the net);
    /// `classical` measures the classical evaluation's speed beside it.
    #[arg(long, value_enum, default_value_t = EvalArg::Net)]
    pub eval: EvalArg,
}

/// `cutoff bench`: a line per position, then `Bench: <N> nodes <M> nps` as the last line.
pub fn run(args: Args) -> ExitCode {
    let depth = args.depth.unwrap_or(DEFAULT_DEPTH);
    if !(1..=MAX_DEPTH).contains(&depth) {
        eprintln!(
            "bench: depth {depth} is outside 1..={MAX_DEPTH} (the maximum: deeper would never finish)"
        );
        return ExitCode::FAILURE;
    }
    if let Err(e) = check_hash(args.hash) {
        eprintln!("bench: --hash: {e}");
        return ExitCode::FAILURE;
    }
    let threads = usize::from(args.threads);
    let mut searcher = Searcher::new(args.hash);
    searcher.set_evaluator(args.eval.into());
    if let Err(e) = searcher.set_threads(threads) {
        eprintln!("{e}; searching with {} threads", searcher.threads());
    }
    let totals = bench_on(&mut searcher, depth, |i, outcome| {
        let best = outcome.best_move.map_or_else(
            || "(none)".to_owned(),
            |m| m.to_uci(CastlingMode::Standard).to_string(),
        );
        println!(
            "position {:>2}/{}: bestmove {best:<6} score {:<9} depth {:>2} nodes {:>10} {}",
            i + 1,
            POSITIONS.len(),
            outcome.score,
            outcome.depth,
            outcome.nodes,
            POSITIONS[i]
        );
    });
    println!();
    println!(
        "Time: {} ms (depth {depth}, {} positions, {threads} {}, {} evaluation)",
        totals.elapsed.as_millis(),
        POSITIONS.len(),
        if threads == 1 { "thread" } else { "threads" },
        match searcher.evaluator() {
            EvaluatorKind::Net => "net",
            EvaluatorKind::Classical => "classical",
        }
    );
    println!("Bench: {} nodes {} nps", totals.nodes, totals.nps());
    ExitCode::SUCCESS
}

/// The table must fit in the memory the system can give (clap has refused 0 MiB).
fn check_hash(mb: usize) -> Result<(), String> {
    crate::memory::check_table_size("hash table", mb, 0)
}
