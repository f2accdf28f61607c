//! `cutoff tune`: loads the data, fits `K`, trains, and writes the weights as Rust (the error,
//! its gradient and Adam in [`crate::tune`]).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use super::at_least_one;
use crate::tune::features::Dataset;
use crate::tune::{error, fit_k, train, weights_file, TrainConfig, DEFAULT_L2};
use crate::util::{checked_threads, worker_pool};

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
    /// Weight of the game result in the target; the rest is the search score's expected result.
    #[arg(long, default_value_t = 1.0)]
    pub lambda: f64,
    /// Full passes over the data (one Adam step each).
    #[arg(long, default_value_t = 1000, value_parser = at_least_one())]
    pub epochs: usize,
    /// Adam step size, in centipawns.
    #[arg(long, default_value_t = 1.0)]
    pub lr: f64,
    /// Penalty per squared centipawn of distance from the starting weights (see `TrainConfig`).
    #[arg(long, default_value_t = DEFAULT_L2)]
    pub l2: f64,
    /// Share of the data held out to measure overfitting; the weights of the epoch with the
    /// lowest held-out error are written. 0 trains on everything and writes the last epoch.
    #[arg(long, default_value_t = 0.1)]
    pub validation: f64,
    /// Stop earlier when this many seconds have passed.
    #[arg(long)]
    pub time_limit: Option<f64>,
    /// Use this scaling constant instead of fitting one.
    #[arg(long)]
    pub k: Option<f64>,
    /// Where to write the weights (Rust source); checked before the data is loaded.
    #[arg(long, default_value = "src/eval/classical/weights.rs")]
    pub out: PathBuf,
    /// Threads for loading and for the gradient (default: all cores).
    #[arg(long, value_parser = at_least_one())]
    pub threads: Option<usize>,
    /// Print the error every this many epochs (and at the first and last).
    #[arg(long, default_value_t = 1, value_parser = at_least_one())]
    pub report_every: usize,
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
    let done = checked_threads(args.threads)
        .map_err(|e| format!("--threads: {e}"))
        .and_then(|threads| {
            worker_pool(threads, "tune").ok_or_else(|| "cannot start any worker thread".into())
        })
        .and_then(|pool| pool.install(|| tune(&args)));
    match done {
        Ok(summary) => {
            println!("{summary}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("tune: {e}");
            ExitCode::FAILURE
        }
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
    if !(0.0..=1.0).contains(&args.lambda) {
        return Err(format!("--lambda {} is not in 0..=1", args.lambda));
    }
    // Before the data and the epochs: a path that cannot take the weights fails now.
    crate::files::check_output(&args.out).map_err(|e| format!("--out {e}"))?;
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
        time_limit: args.time_limit.map(Duration::from_secs_f64),
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
