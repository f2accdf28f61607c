//! `cutoff tune`: fits every parameter of the evaluation to self-play data with Texel's method,
//! and writes them as `src/eval/weights.rs`.
//!
//! The error is the mean of `(sigmoid(K * eval / 400) - target)^2`, where `sigmoid(x) = 1 / (1 +
//! 10^-x)` turns centipawns into an expected score and the target is the game's result, or with
//! `--lambda` below 1 a blend `λ·result + (1 − λ)·sigmoid(K·search score)`. `K` is fitted first,
//! on the starting weights against the results, so that the error measures the weights and not
//! the scale. Then the weights follow the error's gradient with Adam. Given the phase and the
//! endgame scale the evaluation is linear in its weights, so the gradient is exact and cheap:
//! each position is a sparse coefficient vector ([`features`]) traced once from the evaluation
//! itself. The tuner reads the evaluation's parameter table; the evaluation knows nothing of it.

pub mod features;
pub mod weights_file;

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::eval::params::COUNT;
use features::{Dataset, PARAMS};

/// Positions per parallel work item: large enough that summing the per-item gradients is cheap.
const CHUNK: usize = 16 * 1024;
/// The search interval for `K` and the width at which the search stops.
const K_RANGE: (f64, f64) = (0.05, 5.0);
const K_TOLERANCE: f64 = 1e-5;
/// Adam's usual moment decay rates and its guard against division by zero.
const ADAM_BETA1: f64 = 0.9;
const ADAM_BETA2: f64 = 0.999;
const ADAM_EPSILON: f64 = 1e-8;
/// Default of `--l2`.
pub const DEFAULT_L2: f64 = 4e-9;
/// Consecutive positions kept together when holding out validation data (a game is about 50).
const VALIDATION_BLOCK: usize = 256;

/// Command-line arguments of `cutoff tune`.
#[derive(clap::Args, Debug, Clone)]
pub struct Args {
    /// Positions as `cutoff datagen` writes them (binary records, quiet ones kept), or text
    /// lines `<fen> | <result>`.
    #[arg(long)]
    pub data: PathBuf,
    /// Weight of the game result in the target; the rest is the search score's expected result.
    #[arg(long, default_value_t = 1.0)]
    pub lambda: f64,
    /// Full passes over the data (one Adam step each).
    #[arg(long, default_value_t = 1000)]
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
    /// Where to write the weights (Rust source).
    #[arg(long, default_value = "src/eval/weights.rs")]
    pub out: PathBuf,
    /// Threads for loading and for the gradient (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Print the error every this many epochs (and at the first and last).
    #[arg(long, default_value_t = 1)]
    pub report_every: usize,
}

/// Expected score for White of a White-side evaluation: `1 / (1 + 10^(-k * eval / 400))`.
#[inline]
pub fn sigmoid(k: f64, eval: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * eval / 400.0))
}

/// The evaluation of position `i` from White's side under `params` (fractional: no rounding),
/// with the position's entries, shares and target.
#[inline]
fn eval<'a>(data: &'a Dataset, i: usize, params: &[f64]) -> (f64, &'a [(u16, i16)], f64, f64, f32) {
    let (entries, mg_share, eg_share, target) = data.get(i);
    let (mut mg, mut eg) = (0.0, 0.0);
    for &(index, c) in entries {
        let (index, c) = (usize::from(index), f64::from(c));
        mg += c * params[index];
        eg += c * params[COUNT + index];
    }
    (
        mg * mg_share + eg * eg_share,
        entries,
        mg_share,
        eg_share,
        target,
    )
}

/// The fractional evaluation of position `i` of `data` from White's side under `params`.
pub fn white_eval(data: &Dataset, i: usize, params: &[f64]) -> f64 {
    eval(data, i, params).0
}

/// Starts of the parallel work items.
fn chunks(data: &Dataset) -> Vec<usize> {
    (0..data.len()).step_by(CHUNK).collect()
}

/// The mean squared error of `params` on `data`.
pub fn error(data: &Dataset, params: &[f64], k: f64) -> f64 {
    if data.is_empty() {
        return 0.0;
    }
    let sum: f64 = chunks(data)
        .par_iter()
        .map(|&start| {
            (start..(start + CHUNK).min(data.len()))
                .map(|i| {
                    let (e, _, _, _, target) = eval(data, i, params);
                    (sigmoid(k, e) - f64::from(target)).powi(2)
                })
                .sum::<f64>()
        })
        .sum();
    sum / data.len() as f64
}

/// The mean squared error and its gradient with respect to every parameter (written to `grad`).
pub fn error_and_gradient(data: &Dataset, params: &[f64], k: f64, grad: &mut [f64]) -> f64 {
    assert_eq!(params.len(), PARAMS);
    assert_eq!(grad.len(), PARAMS);
    grad.fill(0.0);
    if data.is_empty() {
        return 0.0;
    }
    // d sigmoid(k e / 400) / de = sigmoid (1 - sigmoid) * ln 10 * k / 400.
    let slope = std::f64::consts::LN_10 * k / 400.0;
    let (sum, total) = chunks(data)
        .par_iter()
        .map(|&start| {
            let mut g = vec![0.0; PARAMS];
            let mut sum = 0.0;
            for i in start..(start + CHUNK).min(data.len()) {
                let (e, entries, mg_share, eg_share, target) = eval(data, i, params);
                let s = sigmoid(k, e);
                let diff = s - f64::from(target);
                sum += diff * diff;
                let d = 2.0 * diff * s * (1.0 - s) * slope;
                let (dmg, deg) = (d * mg_share, d * eg_share);
                for &(index, c) in entries {
                    let (index, c) = (usize::from(index), f64::from(c));
                    g[index] += c * dmg;
                    g[COUNT + index] += c * deg;
                }
            }
            (sum, g)
        })
        .reduce(
            || (0.0, vec![0.0; PARAMS]),
            |(s1, mut g1), (s2, g2)| {
                for (a, b) in g1.iter_mut().zip(&g2) {
                    *a += b;
                }
                (s1 + s2, g1)
            },
        );
    let n = data.len() as f64;
    for (g, t) in grad.iter_mut().zip(&total) {
        *g = t / n;
    }
    sum / n
}

/// The `K` that minimises the error of `params`, by golden-section search (the error is
/// unimodal in `K`).
pub fn fit_k(data: &Dataset, params: &[f64]) -> f64 {
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let (mut lo, mut hi) = K_RANGE;
    let mut a = hi - ratio * (hi - lo);
    let mut b = lo + ratio * (hi - lo);
    let (mut ea, mut eb) = (error(data, params, a), error(data, params, b));
    while hi - lo > K_TOLERANCE {
        if ea < eb {
            hi = b;
            b = a;
            eb = ea;
            a = hi - ratio * (hi - lo);
            ea = error(data, params, a);
        } else {
            lo = a;
            a = b;
            ea = eb;
            b = lo + ratio * (hi - lo);
            eb = error(data, params, b);
        }
    }
    (lo + hi) / 2.0
}

/// Adam: per-parameter step sizes from running averages of the gradient and its square, so
/// rarely seen squares move as fast as the material values.
pub struct Adam {
    lr: f64,
    m: Vec<f64>,
    v: Vec<f64>,
    t: i32,
}

impl Adam {
    pub fn new(params: usize, lr: f64) -> Adam {
        Adam {
            lr,
            m: vec![0.0; params],
            v: vec![0.0; params],
            t: 0,
        }
    }

    pub fn step(&mut self, params: &mut [f64], grad: &[f64]) {
        self.t += 1;
        let c1 = 1.0 - ADAM_BETA1.powi(self.t);
        let c2 = 1.0 - ADAM_BETA2.powi(self.t);
        for (((p, &g), m), v) in params
            .iter_mut()
            .zip(grad)
            .zip(&mut self.m)
            .zip(&mut self.v)
        {
            *m = ADAM_BETA1 * *m + (1.0 - ADAM_BETA1) * g;
            *v = ADAM_BETA2 * *v + (1.0 - ADAM_BETA2) * g * g;
            *p -= self.lr * (*m / c1) / ((*v / c2).sqrt() + ADAM_EPSILON);
        }
    }
}

/// How to train.
#[derive(Clone, Copy, Debug)]
pub struct TrainConfig {
    pub epochs: usize,
    /// Adam step size, in centipawns.
    pub lr: f64,
    /// Weight of the penalty `l2 * sum((param - anchor)^2)` that holds each parameter near its
    /// starting value unless the data says otherwise. Squares a piece rarely stands on are seen
    /// in few games, and without it Adam (which takes full-size steps on any consistent
    /// gradient, however small) fits them to those few games' results.
    pub l2: f64,
    pub time_limit: Option<Duration>,
}

/// One epoch as `train` reports it: the training error (without the penalty) and the
/// validation error, both before the epoch's step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Epoch {
    pub epoch: usize,
    pub error: f64,
    pub validation: Option<f64>,
}

/// Runs Adam steps on `params` and returns every epoch's errors. With a validation set, `params`
/// ends at the epoch with the lowest validation error (early stopping); without one, after the
/// last step.
pub fn train(
    data: &Dataset,
    validation: Option<&Dataset>,
    params: &mut [f64],
    k: f64,
    config: &TrainConfig,
    mut report: impl FnMut(&Epoch),
) -> Vec<Epoch> {
    let start = Instant::now();
    let anchor = params.to_vec();
    let mut adam = Adam::new(params.len(), config.lr);
    let mut grad = vec![0.0; params.len()];
    let mut epochs = Vec::with_capacity(config.epochs);
    let mut best: Option<(f64, Vec<f64>)> = None;
    for epoch in 0..config.epochs {
        if config.time_limit.is_some_and(|t| start.elapsed() >= t) {
            break;
        }
        let train_error = error_and_gradient(data, params, k, &mut grad);
        for ((g, p), a) in grad.iter_mut().zip(params.iter()).zip(&anchor) {
            *g += 2.0 * config.l2 * (p - a);
        }
        let validation = validation.map(|v| error(v, params, k));
        if let Some(v) = validation {
            if best.as_ref().is_none_or(|(b, _)| v < *b) {
                best = Some((v, params.to_vec()));
            }
        }
        let e = Epoch {
            epoch,
            error: train_error,
            validation,
        };
        report(&e);
        epochs.push(e);
        adam.step(params, &grad);
    }
    if let Some((_, best_params)) = best {
        params.copy_from_slice(&best_params);
    }
    epochs
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

pub fn run(args: Args) -> ExitCode {
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(t) = args.threads {
        builder = builder.num_threads(t.max(1));
    }
    let pool = match builder.build() {
        Ok(p) => p,
        Err(e) => {
            eprintln!("tune: {e}");
            return ExitCode::FAILURE;
        }
    };
    match pool.install(|| tune(&args)) {
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
    let report_every = args.report_every.max(1);
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

    std::fs::write(&args.out, weights_file::render(&tuned, &command_line()))
        .map_err(|e| format!("cannot write {}: {e}", args.out.display()))?;
    Ok(format!(
        "K {k:.4}  lambda {}  error {initial_error:.6} -> {final_error:.6}  validation (results) {initial_validation} -> {final_validation}  after {} epochs; wrote {}",
        args.lambda,
        epochs.len(),
        args.out.display()
    ))
}
