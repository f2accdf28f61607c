//! `cutoff bench`: OpenBench's signature, `Bench: <N> nodes <M> nps` as the last line (the
//! positions and the search in [`crate::bench`]).

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use shakmaty::CastlingMode;

use super::{at_least_one, threads, usage, EvalArg, Failure, IntRange};
use crate::bench::{bench_on, DEFAULT_DEPTH, HASH_MB, MAX_DEPTH, POSITIONS};
use crate::eval::{EvaluatorKind, Network};
use crate::search::Searcher;
use crate::types::Depth;

/// The depths `cutoff bench` searches to.
const DEPTHS: IntRange =
    IntRange::from_to(1, MAX_DEPTH as i64).because("deeper would never finish");

/// Command-line arguments of `cutoff bench`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Search depth (default 10, the `Bench:` signature's; at most 20).
    #[arg(
        value_parser = DEPTHS.parser::<Depth>(),
        help = format!(
            "Search depth (default {DEFAULT_DEPTH}, the `Bench:` signature's; at most {MAX_DEPTH})"
        )
    )]
    pub depth: Option<Depth>,
    /// Search threads (Lazy SMP), 1 to 1024; node counts are reproducible only with 1.
    #[arg(long, default_value_t = 1, value_parser = threads::<u16>())]
    pub threads: u16,
    /// Transposition table size in MiB, at least 1, cleared before each position. The `Bench:`
    /// signature is the node count with the default; other sizes measure the table (Lazy SMP's
    /// scaling with 16 against 256 MiB, docs/tools.md).
    #[arg(long, default_value_t = HASH_MB, value_parser = at_least_one::<usize>())]
    pub hash: usize,
    /// The evaluation searched with. The `Bench:` signature is the default's (the net);
    /// `classical` measures the classical evaluation's speed beside it.
    #[arg(long, value_enum, default_value_t = EvalArg::Net)]
    pub eval: EvalArg,
    /// A net file to search with instead of the built-in net, read as UCI `EvalFile` reads
    /// it: the instructions a node of another net costs, measured on the same tree of
    /// positions (its node count is not the `Bench:` signature, which is the built-in net's).
    #[arg(long, value_name = "NET")]
    pub eval_file: Option<PathBuf>,
}

/// `cutoff bench`: a line per position, then `Bench: <N> nodes <M> nps` as the last line.
pub fn run(args: Args) -> ExitCode {
    let depth = args.depth.unwrap_or(DEFAULT_DEPTH);
    if let Err(e) = check_hash(args.hash) {
        return usage(format!("--hash: {e}")).exit();
    }
    let threads = usize::from(args.threads);
    let mut searcher = Searcher::new(args.hash);
    searcher.set_evaluator(args.eval.into());
    if let Some(path) = &args.eval_file {
        if let Err(e) = load_net(&mut searcher, path, args.eval) {
            return e.exit();
        }
    }
    if let Err(e) = searcher.set_threads(threads) {
        eprintln!("bench: {e}; searching with {} threads", searcher.threads());
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
        match (searcher.evaluator(), args.eval_file.as_deref()) {
            (EvaluatorKind::Classical, _) => "classical".to_owned(),
            (_, Some(path)) => format!("the net {}'s", path.display()),
            _ => "the built-in net's".to_owned(),
        }
    );
    println!("Bench: {} nodes {} nps", totals.nodes, totals.nps());
    ExitCode::SUCCESS
}

/// `--eval-file`: the net read through the bounded loader of UCI `EvalFile`; a file that is
/// not a net, or a net beside `--eval classical` (which would never read it), is refused
/// before any search.
fn load_net(searcher: &mut Searcher, path: &Path, eval: EvalArg) -> Result<(), Failure> {
    if eval != EvalArg::Net {
        return Err(usage("--eval-file needs the net evaluation (--eval net)"));
    }
    let network = Network::load(path).map_err(|e| usage(format!("--eval-file: {e}")))?;
    searcher
        .set_network(Arc::new(network))
        .map_err(Failure::from)
}

/// The table must fit in the memory the system can give (clap has refused 0 MiB).
fn check_hash(mb: usize) -> Result<(), String> {
    crate::memory::check_table_size("hash table", mb, 0)
}
