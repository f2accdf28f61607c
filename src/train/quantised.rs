//! The trainer's integer net: the float net quantised as the engine runs it, integers so that
//! the engine's accumulators add `i16`s and its output is exact and the same on every machine.
//! `W1` and `b1` are scaled by `QA = 255` (an accumulator of 1.0, where SCReLU saturates, is
//! 255), `W2` by `QB = 64`, `b2` by both. Its bytes are the engine's net format
//! ([`crate::eval::nnue::format`], the one definition of the file, docs/nets.md): written and
//! read through it, so a net the engine would refuse is never written.

use std::path::Path;

use super::data::Sample;
use super::net::Net;
use crate::eval::nnue::format::{self, Weights, QA, QB, SCALE};

/// A quantised net: the engine format's layer table ([`Weights`]), which the engine reads
/// back exactly.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuantisedNet {
    pub weights: Weights,
}

/// `round(x * scale)` saturated to `i16` (only a runaway weight saturates; `W2` is clipped).
fn q16(x: f32, scale: i32) -> i16 {
    (x * scale as f32)
        .round()
        .clamp(f32::from(i16::MIN), f32::from(i16::MAX)) as i16
}

impl QuantisedNet {
    pub fn from_float(net: &Net) -> QuantisedNet {
        let weights = Weights {
            layout: net.layout,
            w1: net.w1().iter().map(|&w| q16(w, QA)).collect(),
            b1: net.b1().iter().map(|&b| q16(b, QA)).collect(),
            w2: net.w2().iter().map(|&w| q16(w, QB)).collect(),
            b2: net
                .b2()
                .iter()
                .map(|&b| (f64::from(b) * f64::from(QA * QB)).round() as i32)
                .collect(),
        };
        QuantisedNet { weights }
    }

    /// The hidden layer's width.
    pub fn hidden(&self) -> usize {
        self.weights.hidden()
    }

    /// Output buckets: 1 or `format::OUTPUT_BUCKETS`.
    pub fn buckets(&self) -> usize {
        self.weights.b2.len()
    }

    /// The float net these integers stand for (each weight divided by its scale): the float
    /// net's evaluation less the rounding of the weights.
    pub fn to_float(&self) -> Net {
        let (qa, qb) = (QA as f32, QB as f32);
        let mut params: Vec<f32> = self.weights.w1.iter().map(|&w| f32::from(w) / qa).collect();
        params.extend(self.weights.b1.iter().map(|&b| f32::from(b) / qa));
        params.extend(self.weights.w2.iter().map(|&w| f32::from(w) / qb));
        params.extend(self.weights.b2.iter().map(|&b| b as f32 / (qa * qb)));
        Net {
            hidden: self.hidden(),
            buckets: self.buckets(),
            layout: self.weights.layout,
            params,
        }
    }

    /// The file's bytes ([`format::write()`]), or why the engine would refuse them: a width it
    /// does not load, or weights whose integer sums could wrap in its lanes.
    pub fn to_bytes(&self) -> Result<Vec<u8>, String> {
        format::write(self.weights.layers())
    }

    /// Reads a file's bytes through the engine's own reader ([`format::read`]): every header
    /// byte, the size, the hash and the range check.
    pub fn from_bytes(bytes: &[u8]) -> Result<QuantisedNet, String> {
        let (weights, _) = format::read(bytes)?;
        Ok(QuantisedNet { weights })
    }

    /// `b1 + Σ W1[f]`, in `i32`, and how many features there were.
    fn accumulate(&self, features: impl Iterator<Item = usize>) -> (Vec<i32>, u32) {
        let n = self.hidden();
        let mut acc: Vec<i32> = self.weights.b1.iter().map(|&b| i32::from(b)).collect();
        let mut count = 0;
        for f in features {
            count += 1;
            for (a, &w) in acc.iter_mut().zip(&self.weights.w1[f * n..(f + 1) * n]) {
                *a += i32::from(w);
            }
        }
        (acc, count)
    }

    /// The evaluation in centipawns, side to move's view, as the engine computes it: each term
    /// `(c * w2) * c` with `c = clamp(acc, 0, QA)` in `i32`, their sum in `i64`, divided by
    /// `QA` once, then the bias and the scale; `W2` and `b2` those of the position's bucket
    /// (its piece count is the number of the side to move's features: one per piece).
    pub fn evaluate(
        &self,
        stm: impl Iterator<Item = usize>,
        nstm: impl Iterator<Item = usize>,
    ) -> i64 {
        let ((acc_stm, pieces), (acc_nstm, _)) = (self.accumulate(stm), self.accumulate(nstm));
        let (n, bucket) = (self.hidden(), format::bucket(pieces, self.buckets()));
        let (w_stm, w_nstm) = self.weights.w2[2 * n * bucket..2 * n * (bucket + 1)].split_at(n);
        let mut sum: i64 = 0;
        for (acc, w2) in [(&acc_stm, w_stm), (&acc_nstm, w_nstm)] {
            for (&a, &w) in acc.iter().zip(w2) {
                let c = a.clamp(0, QA);
                sum += i64::from((c * i32::from(w)) * c);
            }
        }
        (sum / i64::from(QA) + i64::from(self.weights.b2[bucket])) * i64::from(SCALE)
            / i64::from(QA * QB)
    }
}

/// How far a quantised net's evaluations are from the float net's, in centipawns.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Rounding {
    /// Mean of `|float − quantised|`.
    pub mean_abs: f64,
    /// Mean of `float − quantised`: the part of the rounding every position shares.
    pub mean: f64,
    /// Largest `|float − quantised|`.
    pub worst: f64,
}

/// [`Rounding`] of `q` against `net` on `samples` (zeros for no samples).
pub fn rounding_error(net: &Net, q: &QuantisedNet, samples: &[Sample]) -> Rounding {
    let (mut abs, mut signed, mut worst) = (0.0, 0.0, 0.0f64);
    for s in samples {
        let float = f64::from(net.forward(s) * SCALE as f32);
        let diff = float - q.evaluate(s.stm_features(), s.nstm_features()) as f64;
        abs += diff.abs();
        signed += diff;
        worst = worst.max(diff.abs());
    }
    let n = samples.len().max(1) as f64;
    Rounding {
        mean_abs: abs / n,
        mean: signed / n,
        worst,
    }
}

/// At most this many positions measure the shared part of the rounding (about a second).
pub const CALIBRATION_POSITIONS: usize = 65_536;

/// `net` quantised, with each bucket's `b2` moved so that the quantised evaluations of that
/// bucket's positions among `calibration` (up to [`CALIBRATION_POSITIONS`] of them in all,
/// evenly spread) are on average the float net's; a bucket with none of them is only rounded. Rounding
/// `W2` to 1/64 leaves each neuron's weight off by up to 1/128, and since most positions light
/// up many of the same neurons, those errors add up to an offset nearly every position shares:
/// the fifth net's quantised evaluations were 8.79 cp below its float net's on average
/// (docs/nets.md), a stray tempo. The offset is the one
/// part of the rounding a single number removes (per bucket: each has its own `W2`, so its own
/// offset); with no positions the net is only rounded.
pub fn quantise_centred(net: &Net, calibration: &[Sample]) -> QuantisedNet {
    let mut q = QuantisedNet::from_float(net);
    if calibration.is_empty() {
        return q;
    }
    let step = calibration.len().div_ceil(CALIBRATION_POSITIONS);
    let spread: Vec<Sample> = calibration.iter().step_by(step).copied().collect();
    for bucket in 0..net.buckets {
        let own: Vec<Sample> = spread
            .iter()
            .filter(|s| net.bucket(s) == bucket)
            .copied()
            .collect();
        if own.is_empty() {
            continue;
        }
        let offset = rounding_error(net, &q, &own).mean;
        // One unit of b2 is SCALE / (QA·QB) = 0.0245 cp.
        let units = (offset * f64::from(QA * QB) / f64::from(SCALE)).round();
        let b2 = &mut q.weights.b2[bucket];
        *b2 = (f64::from(*b2) + units).clamp(f64::from(i32::MIN), f64::from(i32::MAX)) as i32;
    }
    q
}

/// Writes `q` to `path`, through a temporary file and a rename so that a reader never sees
/// half a net; a net the engine would refuse is not written, and the error says why.
pub fn write_net(path: &Path, q: &QuantisedNet) -> Result<(), String> {
    let bytes = q
        .to_bytes()
        .map_err(|e| format!("not writing {}: {e}", path.display()))?;
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    crate::files::write_whole(path, &bytes).map_err(|e| format!("cannot write {e}"))
}
