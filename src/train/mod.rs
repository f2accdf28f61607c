//! The trainer of the learned evaluation (NNUE), for `cutoff train` ([`crate::cli::train`]):
//! a `768 → N` SCReLU net over both perspectives ([`net`]), trained on self-play positions
//! ([`data`]) with AdamW, written as the integer file the engine reads ([`quantised`]). A run
//! ([`run`]) follows its [`recipe`] epoch by epoch, with a [`checkpoint`] after each to go on
//! from ([`resume`]).
//!
//! The loss is the mean of `(sigmoid(y·400 / K) − t)^2`, with the target
//! `t = λ·result + (1 − λ)·sigmoid(score / K)`: the result says who won, the search score says
//! how the position stood, and `K` (fitted once to the results, as the Texel tuner fits its
//! own) puts centipawns and expected results on one scale.
//!
//! **Determinism.** A batch is cut into slices of [`SLICE`] positions whatever the thread count;
//! each slice's gradient is summed in its own buffer in sample order, and the buffers are added
//! in slice order. So a seed gives the same net, bit for bit, on 1 thread or 16 (a test checks
//! it), and a run resumed from a checkpoint goes on exactly as it would have.

pub mod checkpoint;
pub mod data;
pub mod net;
pub mod quantised;
pub mod reader;
pub mod recipe;
pub mod resume;
pub mod run;

use rayon::prelude::*;

use crate::eval::nnue::format::Layout;
use crate::rng::Rng;
use data::Sample;
use net::{sigmoid, Net, Target};

/// Positions per gradient slice: the unit of parallel work and of the fixed summing order.
pub const SLICE: usize = 1024;
/// The learning rate falls along a cosine to this share of `--lr` by the last step, unless
/// `--lr-end` names the floor.
pub const FINAL_LR_SHARE: f64 = 0.1;
const ADAM_BETA1: f64 = 0.9;
const ADAM_BETA2: f64 = 0.999;
const ADAM_EPSILON: f64 = 1e-8;
/// The search interval for `K` (centipawns) and the width at which the search stops.
const K_RANGE: (f64, f64) = (10.0, 5000.0);
const K_TOLERANCE: f64 = 1e-3;
/// The largest `K` (centipawns) a run takes (`--k`, and a checkpoint's): twenty times the top
/// of the fit's search range; past that every target and every prediction is within a hair of
/// one half.
pub const MAX_K: f64 = 100_000.0;

/// Whether `k` is a `K` a run takes: a finite number above 0 and at most [`MAX_K`].
pub fn k_in_range(k: f64) -> bool {
    k.is_finite() && k > 0.0 && k <= MAX_K
}

/// Below this many training positions a fitted `K` is not to be trusted: a few dozen games'
/// positions are near copies of each other, and their results too few to place the curve
/// (one game's fit lands on the search's bound). Cutoff's data fits about 130 cp.
pub const MIN_K_FIT_POSITIONS: usize = 10_000;

/// How to train.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TrainConfig {
    pub hidden: usize,
    /// Output buckets (`--output-buckets`): 1 or `format::OUTPUT_BUCKETS`.
    pub buckets: usize,
    pub epochs: usize,
    pub batch: usize,
    pub lr: f64,
    /// Where the cosine ends (`--lr-end`); `None`: [`FINAL_LR_SHARE`] of `lr`, computed as
    /// that share so that the schedule of the nets before the flag is kept bit for bit.
    pub lr_end: Option<f64>,
    pub weight_decay: f64,
    /// The target of the first epoch: `K` and the starting λ.
    pub target: Target,
    /// λ of the last epoch (`--lambda-end`), reached in equal steps from `target.lambda` at the
    /// first; `None`: λ stays flat.
    pub lambda_end: Option<f64>,
    pub seed: u64,
}

impl TrainConfig {
    /// The share of `lr` the cosine falls to.
    pub fn final_lr_share(&self) -> f64 {
        self.lr_end.map_or(FINAL_LR_SHARE, |end| end / self.lr)
    }

    /// The target epoch `epoch` (0-based) is trained on: λ rises (or falls) linearly from
    /// `target.lambda` at the first epoch to `lambda_end` at the last. A function of the epoch
    /// alone, so a resumed run trains each epoch on the λ an unbroken one would.
    pub fn target_at(&self, epoch: usize) -> Target {
        let Some(end) = self.lambda_end else {
            return self.target;
        };
        let start = self.target.lambda;
        let progress = if self.epochs > 1 {
            epoch.min(self.epochs - 1) as f64 / (self.epochs - 1) as f64
        } else {
            0.0
        };
        Target {
            lambda: start + (end - start) * progress,
            ..self.target
        }
    }
}

/// Everything a run carries from step to step: what a checkpoint saves.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainState {
    pub net: Net,
    /// AdamW's first and second moments, per parameter.
    pub m: Vec<f32>,
    pub v: Vec<f32>,
    /// Optimizer steps taken.
    pub step: u64,
    /// Epochs finished.
    pub epoch: usize,
}

impl TrainState {
    /// [`TrainState::of_layout`] of plain inputs.
    pub fn new(hidden: usize, buckets: usize, seed: u64) -> TrainState {
        TrainState::of_layout(Layout::Plain, hidden, buckets, seed)
    }

    /// A run's start: a new net of inputs `layout` ([`Net::of_layout`]), the moments zero.
    pub fn of_layout(layout: Layout, hidden: usize, buckets: usize, seed: u64) -> TrainState {
        let net = Net::of_layout(layout, hidden, buckets, seed);
        let p = net.params.len();
        TrainState {
            net,
            m: vec![0.0; p],
            v: vec![0.0; p],
            step: 0,
            epoch: 0,
        }
    }
}

/// One epoch's numbers, for the command to print.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EpochReport {
    /// 1-based.
    pub epoch: usize,
    /// Mean loss over the epoch's batches, each measured before its step.
    pub train_loss: f64,
    /// Mean loss on the validation games after the epoch (`None` without any), against the
    /// epoch's own target.
    pub validation_loss: Option<f64>,
    /// The same, against the last epoch's target: one yardstick for every epoch of a run whose
    /// λ rises (each epoch's own loss is measured against a target that moves, so it rises
    /// with λ and cannot tell where the net stopped learning). Equal to `validation_loss`
    /// where λ is flat and in the last epoch.
    pub validation_loss_at_end: Option<f64>,
    /// The learning rate of the epoch's last step.
    pub lr: f64,
    /// The λ of the epoch's target (its training and its validation loss).
    pub lambda: f64,
}

/// The learning rate at `step` of `total`: a cosine from `lr` down to `share · lr`, which it
/// reaches at `step == total` (the end of the last step, step `total − 1`, whose own rate is
/// above it by `(1 − share)·lr·sin²(π / (2·total))`: under a millionth of `lr` in a run of 2,000
/// steps or more).
pub fn learning_rate(lr: f64, share: f64, step: u64, total: u64) -> f64 {
    let progress = (step as f64 / total.max(1) as f64).min(1.0);
    let cosine = 0.5 * (1.0 + (std::f64::consts::PI * progress).cos());
    lr * (share + (1.0 - share) * cosine)
}

/// Optimizer steps in an epoch of `positions`.
pub fn steps_per_epoch(positions: usize, batch: usize) -> u64 {
    positions.div_ceil(batch.max(1)) as u64
}

/// The mean loss of `net` on `samples` (0 for none), summed in fixed slices.
pub fn loss(net: &Net, samples: &[Sample], target: Target) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let sums: Vec<f64> = samples
        .par_chunks(SLICE)
        .map(|slice| net.loss_and_gradient(slice.iter().copied(), target, None))
        .collect();
    sums.iter().sum::<f64>() / samples.len() as f64
}

/// The error of `sigmoid(score / k)` against the results.
fn score_error(samples: &[Sample], k: f64) -> f64 {
    let sums: Vec<f64> = samples
        .par_chunks(SLICE * 16)
        .map(|slice| {
            slice
                .iter()
                .map(|s| (sigmoid(f64::from(s.score()) / k) - f64::from(s.result())).powi(2))
                .sum::<f64>()
        })
        .collect();
    sums.iter().sum::<f64>() / samples.len().max(1) as f64
}

/// The `K` (centipawns) for which `sigmoid(score / K)` best predicts the results: a
/// golden-section search, as the Texel tuner fits its `K` (the error is unimodal in `K`).
pub fn fit_k(samples: &[Sample]) -> f64 {
    crate::golden_section::minimise(K_RANGE, K_TOLERANCE, |k| score_error(samples, k))
}

/// What is wrong with a `K` fitted on `positions` training positions, if anything: too few
/// positions to fit it, or a `K` at an end of the search range (the data could not place it,
/// and it only says where the search stopped). Said as a warning, not an error: the run may be
/// a quick test, and `--k` sets a `K` instead.
pub fn k_fit_warning(positions: usize, k: f64) -> Option<String> {
    let at_bound = k - K_RANGE.0 < 1.0 || K_RANGE.1 - k < 1.0;
    let few = positions < MIN_K_FIT_POSITIONS;
    if !at_bound && !few {
        return None;
    }
    let mut why = Vec::new();
    if few {
        why.push(format!(
            "only {positions} training positions (fewer than {MIN_K_FIT_POSITIONS})"
        ));
    }
    if at_bound {
        why.push(format!(
            "K landed on the end of its search range ({}..{} cp)",
            K_RANGE.0, K_RANGE.1
        ));
    }
    Some(format!(
        "K = {k:.2} cp is not to be trusted: {}; the data is too small to fit K (give more \
         data, or --k; Cutoff's data fits about 130)",
        why.join(", ")
    ))
}

/// The order of the training positions in `epoch` (0-based): a Fisher-Yates shuffle from the
/// seed and the epoch alone, so a resumed run sees the order it would have seen.
pub fn epoch_order(len: usize, seed: u64, epoch: usize) -> Vec<u32> {
    let mut order: Vec<u32> = (0..len as u32).collect();
    let mut rng = Rng::for_game(seed, 0x5348_5546_0000_0000 ^ epoch as u64);
    for i in (1..len).rev() {
        order.swap(i, rng.below(i + 1));
    }
    order
}

/// The summed loss of a batch and its mean gradient in `grad`: fixed slices in parallel, each
/// into its own buffer of `buffers`, added in slice order.
fn batch_gradient(
    net: &Net,
    batch: &[Sample],
    target: Target,
    buffers: &mut Vec<Vec<f32>>,
    grad: &mut [f32],
) -> f64 {
    let slices = batch.len().div_ceil(SLICE);
    buffers.resize_with(slices, || vec![0.0; net.params.len()]);
    let sums: Vec<f64> = buffers[..slices]
        .par_iter_mut()
        .zip(batch.par_chunks(SLICE))
        .map(|(buffer, slice)| {
            buffer.fill(0.0);
            net.loss_and_gradient(slice.iter().copied(), target, Some(buffer))
        })
        .collect();
    let scale = 1.0 / batch.len() as f32;
    let buffers = &buffers[..slices];
    grad.par_chunks_mut(4096)
        .enumerate()
        .for_each(|(chunk, out)| {
            let start = chunk * 4096;
            for (j, g) in out.iter_mut().enumerate() {
                let mut sum = 0.0f32;
                for b in buffers {
                    sum += b[start + j];
                }
                *g = sum * scale;
            }
        });
    sums.iter().sum()
}

/// One AdamW step with learning rate `lr`, then `W2` clipped.
fn adamw_step(state: &mut TrainState, grad: &[f32], lr: f64, weight_decay: f64) {
    state.step += 1;
    let t = state.step.min(i32::MAX as u64) as i32;
    let c1 = (1.0 - ADAM_BETA1.powi(t)) as f32;
    let c2 = (1.0 - ADAM_BETA2.powi(t)) as f32;
    let (b1, b2, eps) = (ADAM_BETA1 as f32, ADAM_BETA2 as f32, ADAM_EPSILON as f32);
    let (lr, decay) = (lr as f32, (lr * weight_decay) as f32);
    let net = &mut state.net;
    let (b1_range, b2_range) = (net.b1_range(), net.b2_range());
    net.params
        .par_iter_mut()
        .zip(state.m.par_iter_mut())
        .zip(state.v.par_iter_mut())
        .zip(grad.par_iter())
        .enumerate()
        .for_each(|(i, (((p, m), v), &g))| {
            *m = b1 * *m + (1.0 - b1) * g;
            *v = b2 * *v + (1.0 - b2) * g * g;
            // Decoupled weight decay, on the weights only: a bias has no scale to shrink.
            if !b1_range.contains(&i) && !b2_range.contains(&i) {
                *p -= decay * *p;
            }
            *p -= lr * (*m / c1) / ((*v / c2).sqrt() + eps);
        });
    net.clip();
}

/// Trains one epoch (the one after `state.epoch`) over `train` in a shuffled order, calling
/// `progress` with the positions done after every batch; returns the epoch's numbers, the
/// validation loss measured after it.
///
/// A run whose loss or weights stop being finite numbers is over: nothing trained after it is
/// a net (every weight NaN quantises to 0, and such a run once wrote that net and exited 0). It
/// stops at the first batch whose loss is not finite, or at the end of the epoch if the last
/// step broke the weights, with an error saying where; `state` is then not to be used, and its
/// epoch is not counted.
pub fn train_epoch(
    state: &mut TrainState,
    train: &[Sample],
    validation: &[Sample],
    config: &TrainConfig,
    mut progress: impl FnMut(usize),
) -> Result<EpochReport, String> {
    let order = epoch_order(train.len(), config.seed, state.epoch);
    let target = config.target_at(state.epoch);
    let total_steps = steps_per_epoch(train.len(), config.batch) * config.epochs as u64;
    let mut grad = vec![0.0f32; state.net.params.len()];
    let mut buffers = Vec::new();
    // A batch larger than the data holds the data: what it costs is bounded by what there is.
    let mut batch = Vec::with_capacity(config.batch.min(train.len()));
    let (mut loss_sum, mut lr) = (0.0, config.lr);
    for (done, indices) in order.chunks(config.batch.max(1)).enumerate() {
        batch.clear();
        batch.extend(indices.iter().map(|&i| train[i as usize]));
        let batch_loss = batch_gradient(&state.net, &batch, target, &mut buffers, &mut grad);
        if !batch_loss.is_finite() {
            return Err(diverged(
                state.epoch,
                done,
                &format!("the loss is {batch_loss}"),
            ));
        }
        loss_sum += batch_loss;
        lr = learning_rate(config.lr, config.final_lr_share(), state.step, total_steps);
        adamw_step(state, &grad, lr, config.weight_decay);
        progress((done * config.batch + batch.len()).min(train.len()));
    }
    // The last step's weights are measured by no batch of this epoch: they are looked at here.
    let last_batch = order.len().div_ceil(config.batch.max(1)).saturating_sub(1);
    if let Some(i) = state.net.params.iter().position(|p| !p.is_finite()) {
        let what = format!("weight {i} is {}", state.net.params[i]);
        return Err(diverged(state.epoch, last_batch, &what));
    }
    let validation_loss = (!validation.is_empty()).then(|| loss(&state.net, validation, target));
    let end = config.target_at(config.epochs.saturating_sub(1));
    let validation_loss_at_end = match validation_loss {
        Some(_) if end != target => Some(loss(&state.net, validation, end)),
        same => same,
    };
    if let Some(v) = validation_loss.filter(|v| !v.is_finite()) {
        let what = format!("the validation loss is {v}");
        return Err(diverged(state.epoch, last_batch, &what));
    }
    state.epoch += 1;
    Ok(EpochReport {
        epoch: state.epoch,
        train_loss: loss_sum / train.len().max(1) as f64,
        validation_loss,
        validation_loss_at_end,
        lr,
        lambda: target.lambda,
    })
}

/// The error of a run that stopped being numbers at batch `batch` (0-based) of the epoch after
/// `epochs_done`.
fn diverged(epochs_done: usize, batch: usize, what: &str) -> String {
    format!(
        "epoch {}, batch {}: {what}: the run has diverged (not a finite number)",
        epochs_done + 1,
        batch + 1
    )
}

#[cfg(test)]
mod tests;
