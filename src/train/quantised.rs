//! The net file the engine reads: integers, so that the engine's accumulators add `i16`s and
//! its output is exact and the same on every machine. `W1` and `b1` are scaled by `QA = 255`
//! (an accumulator of 1.0, where SCReLU saturates, is 255), `W2` by `QB = 64`, `b2` by both.
//! A 64-byte header names the shape and ends with an FNV-1a hash of the payload, so a cut or
//! damaged file is refused rather than played. The layout is in docs/nets.md.

use std::path::Path;

use super::data::{fnv1a64, Sample, INPUTS};
use super::net::{Net, SCALE};

pub const MAGIC: &[u8; 8] = b"CUTOFFNN";
pub const VERSION: u32 = 1;
/// Activation code of SCReLU.
pub const ACTIVATION_SCRELU: u32 = 1;
pub const QA: i32 = 255;
pub const QB: i32 = 64;
pub const HEADER_BYTES: usize = 64;

/// A quantised net.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuantisedNet {
    pub hidden: usize,
    /// Feature-major, `768 × N`.
    pub w1: Vec<i16>,
    pub b1: Vec<i16>,
    /// `2N`, the side to move's half first.
    pub w2: Vec<i16>,
    pub b2: i32,
}

/// `round(x * scale)` saturated to `i16` (only a runaway weight saturates; `W2` is clipped).
fn q16(x: f32, scale: i32) -> i16 {
    (x * scale as f32)
        .round()
        .clamp(f32::from(i16::MIN), f32::from(i16::MAX)) as i16
}

/// The file's size for `hidden` neurons.
pub fn file_size(hidden: usize) -> usize {
    HEADER_BYTES + 2 * INPUTS * hidden + 2 * hidden + 4 * hidden + 4
}

impl QuantisedNet {
    pub fn from_float(net: &Net) -> QuantisedNet {
        QuantisedNet {
            hidden: net.hidden,
            w1: net.w1().iter().map(|&w| q16(w, QA)).collect(),
            b1: net.b1().iter().map(|&b| q16(b, QA)).collect(),
            w2: net.w2().iter().map(|&w| q16(w, QB)).collect(),
            b2: (f64::from(net.b2()) * f64::from(QA * QB)).round() as i32,
        }
    }

    /// The float net these integers stand for (each weight divided by its scale): the float
    /// net's evaluation less the rounding of the weights.
    pub fn to_float(&self) -> Net {
        let (qa, qb) = (QA as f32, QB as f32);
        let mut params: Vec<f32> = self.w1.iter().map(|&w| f32::from(w) / qa).collect();
        params.extend(self.b1.iter().map(|&b| f32::from(b) / qa));
        params.extend(self.w2.iter().map(|&w| f32::from(w) / qb));
        params.push(self.b2 as f32 / (qa * qb));
        Net {
            hidden: self.hidden,
            params,
        }
    }

    /// The file's bytes: header, then the payload.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut payload = Vec::with_capacity(file_size(self.hidden) - HEADER_BYTES);
        for v in self.w1.iter().chain(&self.b1).chain(&self.w2) {
            payload.extend_from_slice(&v.to_le_bytes());
        }
        payload.extend_from_slice(&self.b2.to_le_bytes());
        let mut out = Vec::with_capacity(file_size(self.hidden));
        out.extend_from_slice(MAGIC);
        for field in [
            VERSION,
            INPUTS as u32,
            self.hidden as u32,
            ACTIVATION_SCRELU,
            QA as u32,
            QB as u32,
            SCALE as u32,
        ] {
            out.extend_from_slice(&field.to_le_bytes());
        }
        out.resize(56, 0);
        out.extend_from_slice(&fnv1a64(&payload).to_le_bytes());
        out.extend_from_slice(&payload);
        out
    }

    /// Reads a file's bytes, checking every header field and the hash.
    pub fn from_bytes(bytes: &[u8]) -> Result<QuantisedNet, String> {
        if bytes.len() < HEADER_BYTES || &bytes[..8] != MAGIC {
            return Err("not a Cutoff net (no CUTOFFNN header)".into());
        }
        let u32_at =
            |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
        let expect = [
            (8, VERSION, "version"),
            (12, INPUTS as u32, "inputs"),
            (20, ACTIVATION_SCRELU, "activation"),
            (24, QA as u32, "QA"),
            (28, QB as u32, "QB"),
            (32, SCALE as u32, "scale"),
        ];
        for (at, want, what) in expect {
            if u32_at(at) != want {
                return Err(format!("{what} is {}, expected {want}", u32_at(at)));
            }
        }
        let hidden = u32_at(16) as usize;
        if hidden == 0 || hidden > 1 << 16 || bytes.len() != file_size(hidden) {
            return Err(format!(
                "{} bytes do not make a net of {hidden} neurons",
                bytes.len()
            ));
        }
        let mut hash = [0u8; 8];
        hash.copy_from_slice(&bytes[56..64]);
        let payload = &bytes[HEADER_BYTES..];
        if u64::from_le_bytes(hash) != fnv1a64(payload) {
            return Err("the payload does not match its hash (a damaged file)".into());
        }
        let words: Vec<i16> = payload[..payload.len() - 4]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect();
        let (w1, rest) = words.split_at(INPUTS * hidden);
        let (b1, w2) = rest.split_at(hidden);
        let tail = &payload[payload.len() - 4..];
        Ok(QuantisedNet {
            hidden,
            w1: w1.to_vec(),
            b1: b1.to_vec(),
            w2: w2.to_vec(),
            b2: i32::from_le_bytes([tail[0], tail[1], tail[2], tail[3]]),
        })
    }

    /// `b1 + Σ W1[f]`, in `i32`.
    fn accumulate(&self, features: impl Iterator<Item = usize>) -> Vec<i32> {
        let n = self.hidden;
        let mut acc: Vec<i32> = self.b1.iter().map(|&b| i32::from(b)).collect();
        for f in features {
            for (a, &w) in acc.iter_mut().zip(&self.w1[f * n..(f + 1) * n]) {
                *a += i32::from(w);
            }
        }
        acc
    }

    /// The evaluation in centipawns, side to move's view, as the engine computes it: each term
    /// `(c * w2) * c` with `c = clamp(acc, 0, QA)` in `i32`, their sum in `i64`, divided by
    /// `QA` once, then the bias and the scale.
    pub fn evaluate(
        &self,
        stm: impl Iterator<Item = usize>,
        nstm: impl Iterator<Item = usize>,
    ) -> i64 {
        let (acc_stm, acc_nstm) = (self.accumulate(stm), self.accumulate(nstm));
        let (w_stm, w_nstm) = self.w2.split_at(self.hidden);
        let mut sum: i64 = 0;
        for (acc, w2) in [(&acc_stm, w_stm), (&acc_nstm, w_nstm)] {
            for (&a, &w) in acc.iter().zip(w2) {
                let c = a.clamp(0, QA);
                sum += i64::from((c * i32::from(w)) * c);
            }
        }
        (sum / i64::from(QA) + i64::from(self.b2)) * i64::from(SCALE as u32) / i64::from(QA * QB)
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
        let float = f64::from(net.forward(s) * SCALE);
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

/// `net` quantised, with `b2` moved so that the quantised evaluations of `calibration` (up to
/// [`CALIBRATION_POSITIONS`] of them, evenly spread) are on average the float net's. Rounding
/// `W2` to 1/64 leaves each neuron's weight off by up to 1/128, and since most positions light
/// up many of the same neurons, those errors add up to an offset nearly every position shares:
/// the fifth net's quantised evaluations were 8.79 cp below its float net's on average
/// (docs/nets.md), a stray tempo. The offset is the one
/// part of the rounding a single number removes; with no positions the net is only rounded.
pub fn quantise_centred(net: &Net, calibration: &[Sample]) -> QuantisedNet {
    let mut q = QuantisedNet::from_float(net);
    if calibration.is_empty() {
        return q;
    }
    let step = calibration.len().div_ceil(CALIBRATION_POSITIONS);
    let spread: Vec<Sample> = calibration.iter().step_by(step).copied().collect();
    let offset = rounding_error(net, &q, &spread).mean;
    // One unit of b2 is SCALE / (QA·QB) = 0.0245 cp.
    let units = (offset * f64::from(QA * QB) / f64::from(SCALE)).round();
    q.b2 = (f64::from(q.b2) + units).clamp(f64::from(i32::MIN), f64::from(i32::MAX)) as i32;
    q
}

/// Writes `q` to `path`, through a temporary file and a rename so that a reader never sees
/// half a net.
pub fn write_net(path: &Path, q: &QuantisedNet) -> Result<(), String> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, q.to_bytes())
        .and_then(|()| std::fs::rename(&tmp, path))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}
