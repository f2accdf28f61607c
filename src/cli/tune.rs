//! `cutoff tune`: loads the data, fits `K`, trains, and writes the weights as Rust (the error,
//! its gradient and Adam in [`crate::tune`]).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use super::{at_least_one, checked_threads, threads, usage, Failure, FloatRange, LAMBDA};
use crate::threads::worker_pool;
use crate::tune::features::Dataset;
use crate::tune::{error, fit_k, train, weights_file, TrainConfig, DEFAULT_L2};

/// Consecutive positions kept together when holding out validation data (a game is about 50).
const VALIDATION_BLOCK: usize = 256;

/// Command-line arguments of `cutoff tune`.
#[derive(clap::Args, Debug, Clone)]
pub struct Args {
    /// One file of 40-byte position records as `cutoff datagen --out F.bin` writes them (not
    /// the `.vf` game records, its default: `datagen --convert` goes the other way only), or
    /// text lines `<fen> | <result>`. Of the records only the quiet positions are used.
    #[arg(long)]
    pub data: PathBuf,
    /// Weight of the game result in the target; the rest is the search score's expected result
    /// (0 to 1).
    #[arg(long, default_value_t = 1.0, value_parser = LAMBDA.parser())]
    pub lambda: f64,
    /// Full passes over the data (one Adam step each).
    #[arg(long, default_value_t = 1000, value_parser = at_least_one::<usize>())]
    pub epochs: usize,
    /// Adam step size, in centipawns: above 0 and at most 1000.
    #[arg(long, default_value_t = 1.0, value_parser = LEARNING_RATE.parser())]
    pub lr: f64,
    /// Penalty per squared centipawn of distance from the starting weights: 0 to 1.
    #[arg(long, default_value_t = DEFAULT_L2, value_parser = L2.parser())]
    pub l2: f64,
    /// Share of the data held out to measure overfitting; the weights of the epoch with the
    /// lowest held-out error are written. 0 trains on everything and writes the last epoch; at
    /// most 0.5 (one block in two).
    #[arg(long, default_value_t = 0.1, value_parser = VALIDATION.parser())]
    pub validation: f64,
    /// Stop earlier when this many seconds have passed: above 0 and at most 31536000, a year.
    #[arg(long, value_name = "SECONDS", value_parser = time_limit)]
    pub time_limit: Option<Duration>,
    /// Use this scaling constant instead of fitting one: above 0 and at most 100.
    #[arg(long, value_parser = K.parser())]
    pub k: Option<f64>,
    /// Where to write the weights (Rust source); checked before the data is loaded.
    #[arg(long, default_value = "src/eval/classical/weights.rs")]
    pub out: PathBuf,
    /// Threads for loading and for the gradient (default: all cores).
    #[arg(long, value_parser = threads::<usize>())]
    pub threads: Option<usize>,
    /// Print the error every this many epochs (and at the first and last).
    #[arg(long, default_value_t = 1, value_parser = at_least_one::<usize>())]
    pub report_every: usize,
}

// Every float flag goes through its range's parser ([`FloatRange`]): NaN, an infinity or a
// number no run can use is a usage error (exit 2) before the data is read. Unbounded, `--lr`,
// `--l2`, `--k` and `--validation` of NaN or `inf` ran and wrote a weights file, exit 0, and
// `--time-limit` of NaN, `inf` or `1e300` panicked making a `Duration` (exit 101).

/// `--lr` (centipawns): above 0, and at most 1000, ten pawns. Adam moves every weight by about
/// the step size each epoch: at 1000 one epoch already moves a pawn's weight by more than a
/// queen is worth (the committed weights were tuned with 1).
pub const LEARNING_RATE: FloatRange = FloatRange::above(0.0, 1000.0);

/// `--l2`: 0 to 1. The committed weights were tuned with 4e-9 and the runs measured went up to
/// 1e-6 (docs/tuning.md); the error is a mean of squares below 1, and a penalty of 1 per squared
/// centipawn already holds every weight at its start.
pub const L2: FloatRange = FloatRange::from_to(0.0, 1.0);

/// `--validation`: 0 to one half. One block in `round(1 / share)` is held out, and never fewer
/// than one in two, so a share above a half held out a half all the same.
pub const VALIDATION: FloatRange = FloatRange::from_to(0.0, 0.5);

/// `--k`: above 0, and at most twenty times the top of the fit's search range (5): past that
/// the sigmoid is a step at 0 and the error measures only the sign of the evaluation.
pub const K: FloatRange = FloatRange::above(0.0, 100.0);

/// `--time-limit` (seconds): above 0 (a run of no epoch writes the weights it started from) and
/// at most a year, 365 days: long past any run, and far inside what a `Duration` holds (an
/// unbounded `1e300` or `inf` panicked converting).
pub const TIME_LIMIT: FloatRange = FloatRange::above(0.0, 365.0 * 24.0 * 3600.0);

/// `--time-limit`: seconds in [`TIME_LIMIT`], as the `Duration` the tuner stops at.
fn time_limit(value: &str) -> Result<Duration, String> {
    TIME_LIMIT.parse(value).map(Duration::from_secs_f64)
}

/// The command line as typed, for the generated file's header.
fn command_line() -> String {
    let mut words = vec!["cutoff".to_string()];
    for arg in std::env::args().skip(1) {
        if arg.is_empty() || arg.contains(|c: char| c.is_whitespace() || c == '\'') {
            words.push(format!("'{}'", arg.replace('\'', r"'\''")));
        } else {
            words.push(arg);
        }
    }
    words.join(" ")
}

/// `cutoff tune`: progress on stderr, a summary line on stdout.
pub fn run(args: Args) -> ExitCode {
    // The flags and the output path first (exit 2), then the work (exit 1): a path that cannot
    // take the weights fails before the data and the epochs.
    let checked = checked_threads(args.threads)
        .map_err(|e| format!("--threads: {e}"))
        .and_then(|threads| {
            crate::files::check_output(&args.out)
                .map(|()| threads)
                .map_err(|e| format!("--out {e}"))
        });
    let threads = match checked {
        Ok(threads) => threads,
        Err(e) => return usage(e).exit(),
    };
    let done = worker_pool(threads, "tune")
        .ok_or_else(|| "cannot start any worker thread".to_string())
        .and_then(|pool| pool.install(|| tune(&args)));
    match done {
        Ok(summary) => {
            println!("{summary}");
            ExitCode::SUCCESS
        }
        Err(e) => Failure::Run(e).exit(),
    }
}

/// Loads the data and splits off the validation set.
fn load(args: &Args) -> Result<(Dataset, Option<Dataset>), String> {
    let start = Instant::now();
    let all = Dataset::load(&args.data)?;
    if all.is_empty() {
        return Err(format!("{}: no positions", args.data.display()));
    }
    let every = if args.validation > 0.0 {
        (1.0 / args.validation).round().max(2.0) as usize
    } else {
        0
    };
    let (data, validation) = all.split(every, VALIDATION_BLOCK);
    drop(all);
    eprintln!(
        "tune: {} training + {} validation positions, {:.1} coefficients each, loaded in {:.1} s",
        data.len(),
        validation.len(),
        data.entries.len() as f64 / data.len().max(1) as f64,
        start.elapsed().as_secs_f64()
    );
    if data.is_empty() {
        return Err("no training positions".into());
    }
    Ok((data, (!validation.is_empty()).then_some(validation)))
}

fn tune(args: &Args) -> Result<String, String> {
    let (mut data, validation) = load(args)?;
    let mut params = weights_file::to_params(&weights_file::current());
    // K is fitted against the game results, before any blending.
    let k = match args.k {
        Some(k) => k,
        None => fit_k(&data, &params),
    };
    // The held-out error is always measured against the game results: it is what the blend
    // is chosen by.
    let results_error = |params: &[f64]| {
        validation
            .as_ref()
            .map_or("-".to_string(), |v| format!("{:.6}", error(v, params, k)))
    };
    let initial_validation = results_error(&params);
    data.blend(args.lambda, k);
    let mut blended_validation = validation.clone();
    if let Some(v) = blended_validation.as_mut() {
        v.blend(args.lambda, k);
    }
    let initial_error = error(&data, &params, k);
    eprintln!(
        "tune: K = {k:.4}, lambda {}, initial error {initial_error:.6}, validation (results) {initial_validation}",
        args.lambda
    );

    let train_start = Instant::now();
    let report_every = args.report_every;
    let last = args.epochs.saturating_sub(1);
    let config = TrainConfig {
        epochs: args.epochs,
        lr: args.lr,
        l2: args.l2,
        time_limit: args.time_limit,
    };
    let epochs = train(
        &data,
        blended_validation.as_ref(),
        &mut params,
        k,
        &config,
        |e| {
            if e.epoch % report_every == 0 || e.epoch == last {
                let v = e.validation.map_or("-".to_string(), |v| format!("{v:.6}"));
                eprintln!(
                    "epoch {:5}  error {:.6}  validation {v}  ({:.1} s)",
                    e.epoch,
                    e.error,
                    train_start.elapsed().as_secs_f64()
                );
            }
        },
    );
    let best_epoch = epochs
        .iter()
        .filter_map(|e| e.validation.map(|v| (v, e.epoch)))
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, e)| e);
    let tuned = weights_file::from_params(&params);
    let rounded = weights_file::to_params(&tuned);
    let (final_error, final_validation) = (error(&data, &rounded, k), results_error(&rounded));
    eprintln!(
        "tune: {} epochs in {:.1} s{}; with whole-centipawn weights: error {initial_error:.6} -> {final_error:.6}, validation (results) {initial_validation} -> {final_validation}",
        epochs.len(),
        train_start.elapsed().as_secs_f64(),
        best_epoch.map_or(String::new(), |e| format!(", kept epoch {e} (lowest validation error)")),
    );
    let material: Vec<String> = tuned[..6]
        .iter()
        .map(|t| format!("{}/{}", t.mg, t.eg))
        .collect();
    eprintln!("tune: material (mg/eg) P N B R Q K: {}", material.join(" "));

    let text = weights_file::render(&tuned, &command_line());
    crate::files::write_whole(&args.out, text.as_bytes())
        .map_err(|e| format!("cannot write {e}"))?;
    Ok(format!(
        "K {k:.4}  lambda {}  error {initial_error:.6} -> {final_error:.6}  validation (results) {initial_validation} -> {final_validation}  after {} epochs; wrote {}",
        args.lambda,
        epochs.len(),
        args.out.display()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: Args,
    }

    /// `--time-limit` of NaN, `inf` or `1e300` panicked ("cannot convert float seconds to
    /// Duration", exit 101) and `--lr`, `--l2`, `--k`, `--validation` of NaN or `inf` ran: each
    /// is a usage error naming the flag and what it takes; the bounds themselves are taken.
    #[test]
    fn every_float_flag_refuses_nan_infinities_and_values_no_run_can_use() {
        let flags = [
            ("--lambda", LAMBDA),
            ("--lr", LEARNING_RATE),
            ("--l2", L2),
            ("--validation", VALIDATION),
            ("--time-limit", TIME_LIMIT),
            ("--k", K),
        ];
        for (flag, range) in flags {
            for bad in ["NaN", "inf", "-inf", "1e300", "-1"] {
                let e = Cli::try_parse_from(["tune", "--data", "x", &format!("{flag}={bad}")])
                    .err()
                    .unwrap_or_else(|| panic!("{flag} {bad} accepted"))
                    .to_string();
                assert!(
                    e.contains(&format!("'{bad}' for '{flag} ")) && e.contains(&range.to_string()),
                    "{flag} {bad}: {e}"
                );
            }
        }
        for bad in ["--lr=0", "--k=0", "--time-limit=0", "--validation=0.6"] {
            let parsed = Cli::try_parse_from(["tune", "--data", "x", bad]);
            assert!(parsed.is_err(), "{bad} accepted");
        }
        let edges = Cli::parse_from([
            "tune",
            "--data",
            "x",
            "--lambda=0",
            "--lr=1000",
            "--l2=1",
            "--validation=0.5",
            "--time-limit=31536000",
            "--k=100",
        ])
        .args;
        assert_eq!(
            (edges.lambda, edges.lr, edges.l2, edges.validation, edges.k),
            (0.0, 1000.0, 1.0, 0.5, Some(100.0))
        );
        assert_eq!(edges.time_limit, Some(Duration::from_secs(31_536_000)));
        let zeros = Cli::parse_from(["tune", "--data", "x", "--l2=0", "--validation=0"]).args;
        assert_eq!(
            (zeros.l2, zeros.validation, zeros.time_limit),
            (0.0, 0.0, None)
        );
    }
}
