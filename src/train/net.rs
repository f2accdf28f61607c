//! The net in floating point, as it is trained: `768 → N` feature transformer shared by both
//! perspectives, SCReLU, and one output over both accumulators (the side to move's first), from
//! the output layer of the position's bucket (by piece count, `format::bucket`: 1 bucket or 8).
//! All parameters live in one flat vector (`W1 | b1 | W2 | b2`, `W2` and `b2` bucket by bucket)
//! so that the optimizer, the gradient sums and the checkpoint treat them alike.

use super::data::Sample;
use crate::eval::nnue::format::{self, Layout, INPUTS};
use crate::rng::Rng;

/// Centipawns per unit of output: the evaluation is `y * SCALE` (the net format's scale).
pub const SCALE: f32 = format::SCALE as f32;
/// Bound of `W2` after every step, so that `round(w * 64)` fits an `i8`-sized ±127 (the
/// quantised product `c * w2 * c` then stays far inside `i32`).
pub const W2_CLIP: f32 = 1.98;

/// `clamp(x, 0, 1)^2`.
#[inline]
pub fn screlu(x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    c * c
}

/// Lanes of [`screlu_dot`]'s sum: one AVX-512 register, two AVX2 ones.
const DOT_LANES: usize = 16;

/// `Σ screlu(a[i]) · w[i]`, summed in [`DOT_LANES`] lanes (lane `j` takes the terms
/// `j, j + 16, …` in order) which are then added in lane order, and any tail after them. The
/// order is fixed by the code, not the compiler, so every build gives the same bits; and since
/// no lane waits on another, the AVX-512 and AVX2 copies run them side by side in registers,
/// where one running sum waited on each of its 512 adds in turn.
#[inline(always)]
fn screlu_dot(a: &[f32], w: &[f32]) -> f32 {
    let mut lanes = [0.0f32; DOT_LANES];
    let (a_chunks, w_chunks) = (a.chunks_exact(DOT_LANES), w.chunks_exact(DOT_LANES));
    let tail = a_chunks.remainder().iter().zip(w_chunks.remainder());
    for (a, w) in a_chunks.zip(w_chunks) {
        for j in 0..DOT_LANES {
            lanes[j] += screlu(a[j]) * w[j];
        }
    }
    let mut sum = lanes.iter().sum::<f32>();
    for (a, w) in tail {
        sum += screlu(*a) * w;
    }
    sum
}

/// The logistic function `1 / (1 + e^-x)`.
#[inline]
pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// What a position is fitted to: `λ·result + (1 − λ)·sigmoid(score / K)`, side to move's view.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Target {
    /// The score scale fitted to the results (centipawns).
    pub k: f64,
    pub lambda: f64,
}

impl Target {
    #[inline]
    pub fn of(&self, s: &Sample) -> f64 {
        self.lambda * f64::from(s.result())
            + (1.0 - self.lambda) * sigmoid(f64::from(s.score()) / self.k)
    }
}

/// The float net.
#[derive(Clone, Debug, PartialEq)]
pub struct Net {
    pub hidden: usize,
    /// Output buckets: 1 or `format::OUTPUT_BUCKETS`.
    pub buckets: usize,
    /// How its inputs see the board: the samples it is trained on are seen so
    /// (`Sample::new`), and its file says it.
    pub layout: Layout,
    /// `W1` (input-major, `inputs × N`: [`Layout::inputs`]), `b1` (`N`), `W2` (per bucket
    /// `2N`, side to move first), `b2` (one per bucket).
    pub params: Vec<f32>,
}

impl Net {
    /// Parameters of a net of inputs `layout` with `hidden` neurons and `buckets` output
    /// buckets.
    pub fn param_count(layout: Layout, hidden: usize, buckets: usize) -> usize {
        layout.inputs() * hidden + hidden + buckets * (2 * hidden + 1)
    }

    /// [`Net::of_layout`] of plain inputs.
    pub fn new(hidden: usize, buckets: usize, seed: u64) -> Net {
        Net::of_layout(Layout::Plain, hidden, buckets, seed)
    }

    /// `W1` and `W2` uniform in ±1/sqrt(fan-in) from the seeded generator (`W1`, then every
    /// bucket's `W2` in turn: a net of one bucket draws what nets drew before buckets), biases
    /// zero. `W1`'s bound is that of 768 inputs in every layout: a position has as many active
    /// inputs with king buckets as without. Plain and mirrored inputs draw the same weights
    /// (the layout may be set afterwards: it does not change the size); king buckets have
    /// four times the rows, so their net is made in its layout.
    pub fn of_layout(layout: Layout, hidden: usize, buckets: usize, seed: u64) -> Net {
        let mut net = Net {
            hidden,
            buckets,
            layout,
            params: vec![0.0; Net::param_count(layout, hidden, buckets)],
        };
        let mut rng = Rng::for_game(seed, 0x4e4e_5545);
        let mut uniform = |bound: f32| {
            let unit = (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
            (2.0 * unit - 1.0) * bound
        };
        let w1_bound = 1.0 / (INPUTS as f32).sqrt();
        for w in net.w1_mut() {
            *w = uniform(w1_bound);
        }
        let w2_bound = 1.0 / ((2 * hidden) as f32).sqrt();
        for w in net.w2_mut() {
            *w = uniform(w2_bound);
        }
        net
    }

    /// The input rows of `W1`: the layout's ([`Layout::inputs`]).
    #[inline(always)]
    fn inputs(&self) -> usize {
        self.layout.inputs()
    }
    pub fn w1(&self) -> &[f32] {
        &self.params[..self.inputs() * self.hidden]
    }
    pub fn b1(&self) -> &[f32] {
        let start = self.inputs() * self.hidden;
        &self.params[start..start + self.hidden]
    }
    /// Every bucket's `2N` output weights, bucket after bucket.
    pub fn w2(&self) -> &[f32] {
        &self.params[self.w2_range()]
    }
    /// The `2N` output weights of `bucket`.
    pub fn w2_row(&self, bucket: usize) -> &[f32] {
        let start = self.w2_range().start + bucket * 2 * self.hidden;
        &self.params[start..start + 2 * self.hidden]
    }
    /// The output biases, one per bucket.
    pub fn b2(&self) -> &[f32] {
        &self.params[self.b2_range()]
    }
    pub fn w1_mut(&mut self) -> &mut [f32] {
        let end = self.inputs() * self.hidden;
        &mut self.params[..end]
    }
    pub fn w2_mut(&mut self) -> &mut [f32] {
        let range = self.w2_range();
        &mut self.params[range]
    }
    /// Where `b1` lies in `params`.
    pub fn b1_range(&self) -> std::ops::Range<usize> {
        self.inputs() * self.hidden..(self.inputs() + 1) * self.hidden
    }
    /// Where `W2` lies in `params`.
    pub fn w2_range(&self) -> std::ops::Range<usize> {
        let start = (self.inputs() + 1) * self.hidden;
        start..start + self.buckets * 2 * self.hidden
    }
    /// Where the `b2`s lie in `params`: the last `buckets` values.
    pub fn b2_range(&self) -> std::ops::Range<usize> {
        self.params.len() - self.buckets..self.params.len()
    }

    /// The output bucket of `s` in this net.
    #[inline(always)]
    pub fn bucket(&self, s: &Sample) -> usize {
        format::bucket(s.pieces(), self.buckets)
    }

    /// Keeps `W2` where the quantised file can hold it.
    pub fn clip(&mut self) {
        for w in self.w2_mut() {
            *w = w.clamp(-W2_CLIP, W2_CLIP);
        }
    }

    /// `b1 + Σ W1[f]` into `acc`.
    #[inline(always)]
    fn accumulate(&self, features: impl Iterator<Item = usize>, acc: &mut [f32]) {
        let n = self.hidden;
        acc.copy_from_slice(self.b1());
        let w1 = self.w1();
        for f in features {
            for (a, w) in acc.iter_mut().zip(&w1[f * n..(f + 1) * n]) {
                *a += w;
            }
        }
    }

    /// The output `y` from the two accumulators, through `bucket`'s row.
    #[inline(always)]
    fn output(&self, stm: &[f32], nstm: &[f32], bucket: usize) -> f32 {
        let (w_stm, w_nstm) = self.w2_row(bucket).split_at(self.hidden);
        self.b2()[bucket] + screlu_dot(stm, w_stm) + screlu_dot(nstm, w_nstm)
    }

    /// The raw output `y` of a sample (the evaluation is `y * SCALE` centipawns).
    pub fn forward(&self, s: &Sample) -> f32 {
        let mut stm = vec![0.0; self.hidden];
        let mut nstm = vec![0.0; self.hidden];
        self.accumulate(s.stm_features(), &mut stm);
        self.accumulate(s.nstm_features(), &mut nstm);
        self.output(&stm, &nstm, self.bucket(s))
    }

    /// The evaluation of a sample in centipawns, side to move's view.
    pub fn evaluate(&self, s: &Sample) -> f32 {
        self.forward(s) * SCALE
    }

    /// The summed squared error of `samples` against `target`, and with `grad` the summed
    /// gradient added into it (`grad` has the net's layout). Sums in sample order, so the same
    /// samples give the same bits.
    ///
    /// Where the CPU has AVX-512 or AVX2, the same code runs compiled for it (four or two times
    /// the lanes on every elementwise loop; every sum in the order the code fixes, the output's
    /// in `screlu_dot`'s lanes): the same bits as the portable build; 1.7 times the positions
    /// a second on an AVX-512 machine (docs/nets.md).
    pub fn loss_and_gradient(
        &self,
        samples: impl Iterator<Item = Sample>,
        target: Target,
        grad: Option<&mut [f32]>,
    ) -> f64 {
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx512f") {
                // SAFETY: the CPU has AVX-512F, checked just above, which is all the function's
                // `target_feature` asks of it; the body is the portable one, with no intrinsics.
                return unsafe { self.loss_and_gradient_avx512(samples, target, grad) };
            }
            if std::arch::is_x86_feature_detected!("avx2") {
                // SAFETY: as above, for AVX2.
                return unsafe { self.loss_and_gradient_avx2(samples, target, grad) };
            }
        }
        self.loss_and_gradient_portable(samples, target, grad)
    }

    /// [`Self::loss_and_gradient`]'s body compiled with AVX-512F enabled.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f")]
    pub(super) fn loss_and_gradient_avx512(
        &self,
        samples: impl Iterator<Item = Sample>,
        target: Target,
        grad: Option<&mut [f32]>,
    ) -> f64 {
        self.loss_and_gradient_portable(samples, target, grad)
    }

    /// [`Self::loss_and_gradient`]'s body compiled with AVX2 enabled.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    pub(super) fn loss_and_gradient_avx2(
        &self,
        samples: impl Iterator<Item = Sample>,
        target: Target,
        grad: Option<&mut [f32]>,
    ) -> f64 {
        self.loss_and_gradient_portable(samples, target, grad)
    }

    /// [`Self::loss_and_gradient`] for any CPU; inlined into its AVX-512 and AVX2 copies, with
    /// the helpers it calls, so that they too are compiled for those there.
    #[inline(always)]
    pub(super) fn loss_and_gradient_portable(
        &self,
        samples: impl Iterator<Item = Sample>,
        target: Target,
        mut grad: Option<&mut [f32]>,
    ) -> f64 {
        let n = self.hidden;
        let mut stm = vec![0.0f32; n];
        let mut nstm = vec![0.0f32; n];
        let mut d_stm = vec![0.0f32; n];
        let mut d_nstm = vec![0.0f32; n];
        let mut total = 0.0;
        let slope = f64::from(SCALE) / target.k;
        for s in samples {
            self.accumulate(s.stm_features(), &mut stm);
            self.accumulate(s.nstm_features(), &mut nstm);
            let y = self.output(&stm, &nstm, self.bucket(&s));
            let p = sigmoid(f64::from(y) * slope);
            let diff = p - target.of(&s);
            total += diff * diff;
            if let Some(g) = grad.as_deref_mut() {
                // d loss / d y = 2 (p − t) · p (1 − p) · SCALE / K.
                let dy = (2.0 * diff * p * (1.0 - p) * slope) as f32;
                let (acc, d) = ((&stm[..], &nstm[..]), (&mut d_stm[..], &mut d_nstm[..]));
                self.backward(&s, acc, d, dy, g);
            }
        }
        total
    }

    /// Adds the gradient of one sample, given its accumulators and `d loss / d y`, into `g`
    /// (`d` is scratch space for the accumulators' gradients). Of the output layers only the
    /// sample's bucket's is touched: the others took no part in `y`.
    #[inline(always)]
    fn backward(
        &self,
        s: &Sample,
        (stm, nstm): (&[f32], &[f32]),
        (d_stm, d_nstm): (&mut [f32], &mut [f32]),
        dy: f32,
        g: &mut [f32],
    ) {
        let n = self.hidden;
        let bucket = self.bucket(s);
        let (g_w1, rest) = g.split_at_mut(self.inputs() * n);
        let (g_b1, rest) = rest.split_at_mut(n);
        let (g_w2, g_b2) = rest.split_at_mut(self.buckets * 2 * n);
        let g_w2 = &mut g_w2[bucket * 2 * n..(bucket + 1) * 2 * n];
        g_b2[bucket] += dy;
        let w2 = self.w2_row(bucket);
        for i in 0..n {
            g_w2[i] += dy * screlu(stm[i]);
            g_w2[n + i] += dy * screlu(nstm[i]);
            // screlu'(x) = 2x inside (0, 1), else 0.
            d_stm[i] = if stm[i] > 0.0 && stm[i] < 1.0 {
                dy * w2[i] * 2.0 * stm[i]
            } else {
                0.0
            };
            d_nstm[i] = if nstm[i] > 0.0 && nstm[i] < 1.0 {
                dy * w2[n + i] * 2.0 * nstm[i]
            } else {
                0.0
            };
            g_b1[i] += d_stm[i] + d_nstm[i];
        }
        for f in s.stm_features() {
            for (g, d) in g_w1[f * n..(f + 1) * n].iter_mut().zip(d_stm.iter()) {
                *g += d;
            }
        }
        for f in s.nstm_features() {
            for (g, d) in g_w1[f * n..(f + 1) * n].iter_mut().zip(d_nstm.iter()) {
                *g += d;
            }
        }
    }
}
