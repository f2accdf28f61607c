//! The Texel tuner: fits every parameter of the evaluation to self-play data, for `cutoff tune`
//! ([`crate::cli::tune`]), which writes them as `src/eval/classical/weights.rs`.
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

use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::eval::classical::params::COUNT;
pub use features::sigmoid;
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
    crate::golden_section::minimise(K_RANGE, K_TOLERANCE, |k| error(data, params, k))
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
