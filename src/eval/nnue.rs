//! The learned evaluation's inference: a (768 → N) × 2 → 1 network over piece-square inputs,
//! quantised to integers, with its first layer kept up to date incrementally as moves are made
//! and taken back (the accumulators, one per ply of the search path).
//!
//! The network, as `cutoff train` writes it (docs/nets.md): each perspective (the side to move,
//! the other) sees 768 features, one per (piece colour relative to it, role, square seen from
//! its side); its accumulator is `b1 + Σ W1[f]` over its active features. The output is
//! `Σ screlu(acc_stm)·W2[..N] + Σ screlu(acc_other)·W2[N..] + b2`, `screlu(x) = clamp(x, 0,
//! 1)²`, times `SCALE` centipawns. Quantised: W1, b1 by `QA` (i16), W2 by `QB` (i16), b2 by
//! `QA·QB` (i32); the integer result is `(Σ clamp(a, 0, QA)·w·clamp(a, 0, QA) / QA + b2) ·
//! SCALE / (QA·QB)`.
//!
//! Every sum here is in integers, so the AVX2 path and the portable one give the same
//! numbers exactly (wrapping where the hardware wraps); which one runs is decided once, at run
//! time, so the plain build runs on any x86-64-v2 CPU and uses AVX2 where there is one.

use std::sync::Arc;

use shakmaty::{Board, Chess, Color, Move, Position, Role, Square};

use crate::types::{Ply, Score, MAX_PLY};

/// Features per perspective: 2 colours × 6 roles × 64 squares.
pub const INPUTS: usize = 768;
/// Quantisation of the first layer (activations clamp at it) and of the output weights.
pub const QA: i32 = 255;
pub const QB: i32 = 64;
/// Centipawns per unit of the network's output.
pub const SCALE: i32 = 400;
/// The file's header size and its first bytes.
pub const HEADER_BYTES: usize = 64;
pub const MAGIC: &[u8; 8] = b"CUTOFFNN";
pub const VERSION: u32 = 1;
/// Activation code of SCReLU in the header.
const SCRELU: u32 = 1;
/// The widest layer accepted (a 1024-wide net is already far beyond what 2 cores can use).
const MAX_HIDDEN: usize = 1024;

/// A loaded network, shared by every search thread.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    hidden: usize,
    /// Feature-major: the `hidden` weights of feature 0, then of feature 1, ...
    w1: Vec<i16>,
    b1: Vec<i16>,
    /// The side to move's `hidden` weights, then the other side's.
    w2: Vec<i16>,
    b2: i32,
    /// The FNV-1a hash of the payload, which names the net.
    hash: u64,
}

/// FNV-1a, 64 bits: the net file's checksum.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

fn u32_at(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(bytes[at..at + 4].try_into().expect("four bytes"))
}

fn i16s(bytes: &[u8]) -> Vec<i16> {
    bytes
        .chunks_exact(2)
        .map(|c| i16::from_le_bytes([c[0], c[1]]))
        .collect()
}

impl Network {
    /// Reads a net file, checking everything the header promises: the magic, the version, the
    /// shape (768 inputs, a hidden width that is a multiple of 16), the quantisation, the size
    /// and the checksum. Any mismatch is an error that says what is wrong.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, String> {
        if bytes.len() < HEADER_BYTES || &bytes[..8] != MAGIC {
            return Err("not a Cutoff net file (no CUTOFFNN header)".into());
        }
        let field = |at: usize| u32_at(bytes, at);
        if field(8) != VERSION {
            return Err(format!(
                "net file version {} (this build reads {VERSION})",
                field(8)
            ));
        }
        let hidden = field(16) as usize;
        let shape_ok = field(12) as usize == INPUTS
            && hidden > 0
            && hidden <= MAX_HIDDEN
            && hidden.is_multiple_of(16);
        if !shape_ok {
            return Err(format!("unsupported net shape {} -> {hidden}", field(12)));
        }
        let quantisation = [field(20), field(24), field(28), field(32)];
        if quantisation != [SCRELU, QA as u32, QB as u32, SCALE as u32] {
            return Err(format!(
                "unsupported activation or quantisation {quantisation:?}"
            ));
        }
        let expected = HEADER_BYTES + 2 * INPUTS * hidden + 2 * hidden + 4 * hidden + 4;
        if bytes.len() != expected {
            return Err(format!(
                "net file of {} bytes, {expected} expected for a 768 -> {hidden} net (truncated?)",
                bytes.len()
            ));
        }
        let payload = &bytes[HEADER_BYTES..];
        let hash = fnv1a(payload);
        let stored = u64::from_le_bytes(bytes[56..64].try_into().expect("eight bytes"));
        if hash != stored {
            return Err(format!(
                "net file checksum {stored:016x}, its contents hash to {hash:016x}"
            ));
        }
        let (w1, rest) = payload.split_at(2 * INPUTS * hidden);
        let (b1, rest) = rest.split_at(2 * hidden);
        let (w2, b2) = rest.split_at(4 * hidden);
        Ok(Network {
            hidden,
            w1: i16s(w1),
            b1: i16s(b1),
            w2: i16s(w2),
            b2: i32::from_le_bytes(b2.try_into().expect("four bytes")),
            hash,
        })
    }

    /// The file bytes of this network (the inverse of [`Network::from_bytes`]).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut payload = Vec::new();
        for w in self.w1.iter().chain(&self.b1).chain(&self.w2) {
            payload.extend_from_slice(&w.to_le_bytes());
        }
        payload.extend_from_slice(&self.b2.to_le_bytes());
        let mut bytes = Vec::with_capacity(HEADER_BYTES + payload.len());
        bytes.extend_from_slice(MAGIC);
        for v in [
            VERSION,
            INPUTS as u32,
            self.hidden as u32,
            SCRELU,
            QA as u32,
            QB as u32,
        ] {
            bytes.extend_from_slice(&v.to_le_bytes());
        }
        bytes.extend_from_slice(&(SCALE as u32).to_le_bytes());
        bytes.resize(56, 0);
        bytes.extend_from_slice(&fnv1a(&payload).to_le_bytes());
        bytes.extend_from_slice(&payload);
        bytes
    }

    /// A network of the given weights (tests, and tools that build one).
    pub fn from_weights(w1: Vec<i16>, b1: Vec<i16>, w2: Vec<i16>, b2: i32) -> Network {
        let hidden = b1.len();
        assert!(hidden.is_multiple_of(16) && w1.len() == INPUTS * hidden && w2.len() == 2 * hidden);
        let mut net = Network {
            hidden,
            w1,
            b1,
            w2,
            b2,
            hash: 0,
        };
        net.hash = fnv1a(&net.to_bytes()[HEADER_BYTES..]);
        net
    }

    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// The FNV-1a hash of the weights, printed to say which net is loaded.
    pub fn hash(&self) -> u64 {
        self.hash
    }

    fn feature_weights(&self, feature: usize) -> &[i16] {
        &self.w1[feature * self.hidden..(feature + 1) * self.hidden]
    }

    /// The value of `pos` for the side to move, evaluated from scratch (the reference the
    /// incremental accumulators are tested against).
    pub fn evaluate(&self, pos: &Chess) -> Score {
        let mut acc = vec![0i16; 2 * self.hidden];
        self.refresh(pos.board(), &mut acc);
        self.output(&acc, pos.turn())
    }

    /// Both perspectives' accumulators of `board`, White's first.
    fn refresh(&self, board: &Board, acc: &mut [i16]) {
        let (white, black) = acc.split_at_mut(self.hidden);
        white.copy_from_slice(&self.b1);
        black.copy_from_slice(&self.b1);
        for (sq, piece) in board.clone() {
            let (fw, fb) = features(piece.color, piece.role, sq);
            add_assign(white, self.feature_weights(fw));
            add_assign(black, self.feature_weights(fb));
        }
    }

    /// The output for `turn` to move from both accumulators (White's first), in centipawns.
    fn output(&self, acc: &[i16], turn: Color) -> Score {
        let (white, black) = acc.split_at(self.hidden);
        let (us, them) = match turn {
            Color::White => (white, black),
            Color::Black => (black, white),
        };
        let (w_us, w_them) = self.w2.split_at(self.hidden);
        let sum = screlu_dot(us, w_us).wrapping_add(screlu_dot(them, w_them));
        let value = (sum / QA + self.b2) as i64 * i64::from(SCALE) / i64::from(QA * QB);
        Score(value as i32)
    }
}

/// The feature of a `color` `role` on `sq` as White sees it and as Black sees it.
#[inline]
fn features(color: Color, role: Role, sq: Square) -> (usize, usize) {
    let r = (role as usize - 1) * 64;
    let s = usize::from(sq);
    let white = if color.is_white() { 0 } else { 384 } + r + s;
    let black = if color.is_black() { 0 } else { 384 } + r + (s ^ 56);
    (white, black)
}

// ---- The integer kernels: AVX2 where the CPU has it, else portable, the same numbers. ----

/// Whether this CPU runs the AVX2 kernels (decided once).
fn has_avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        use std::sync::OnceLock;
        static AVX2: OnceLock<bool> = OnceLock::new();
        *AVX2.get_or_init(|| std::arch::is_x86_feature_detected!("avx2"))
    }
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// `acc += w`, lane by lane, wrapping as 16-bit integers do.
#[inline]
fn add_assign(acc: &mut [i16], w: &[i16]) {
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        // SAFETY: the CPU has AVX2 (checked at run time just above); `simd::add_assign` reads
        // and writes only within the two slices, whose equal lengths it asserts.
        unsafe { simd::add_assign(acc, w) };
        return;
    }
    portable::add_assign(acc, w);
}

/// `acc -= w`, lane by lane, wrapping.
#[inline]
fn sub_assign(acc: &mut [i16], w: &[i16]) {
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        // SAFETY: as for `add_assign`: AVX2 is present, and the kernel stays in the slices.
        unsafe { simd::sub_assign(acc, w) };
        return;
    }
    portable::sub_assign(acc, w);
}

/// `Σ clamp(a, 0, QA) · w · clamp(a, 0, QA)`, in wrapping 32-bit arithmetic.
#[inline]
fn screlu_dot(acc: &[i16], w: &[i16]) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        // SAFETY: AVX2 is present (checked at run time); the kernel reads within the slices.
        return unsafe { simd::screlu_dot(acc, w) };
    }
    portable::screlu_dot(acc, w)
}

/// The kernels in plain Rust: the definition of what the SIMD ones compute.
mod portable {
    use super::QA;

    pub fn add_assign(acc: &mut [i16], w: &[i16]) {
        for (a, &b) in acc.iter_mut().zip(w) {
            *a = a.wrapping_add(b);
        }
    }

    pub fn sub_assign(acc: &mut [i16], w: &[i16]) {
        for (a, &b) in acc.iter_mut().zip(w) {
            *a = a.wrapping_sub(b);
        }
    }

    pub fn screlu_dot(acc: &[i16], w: &[i16]) -> i32 {
        let mut sum = 0i32;
        for (&a, &b) in acc.iter().zip(w) {
            let c = i32::from(a).clamp(0, QA);
            // c·b fits in 16 bits (|b| ≤ 128 after the trainer's clipping), as the SIMD
            // kernel needs; the product with c is taken in 32 bits.
            let cb = (c * i32::from(b)) as i16;
            sum = sum.wrapping_add(i32::from(cb) * c);
        }
        sum
    }
}

/// The AVX2 kernels: 16 lanes of i16 at a time; the slices' length is a multiple of 16 (the
/// loader accepts no other width).
#[cfg(target_arch = "x86_64")]
mod simd {
    use std::arch::x86_64::*;

    use super::QA;

    /// # Safety
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    pub unsafe fn add_assign(acc: &mut [i16], w: &[i16]) {
        assert!(acc.len() == w.len() && acc.len().is_multiple_of(16));
        for i in (0..acc.len()).step_by(16) {
            // SAFETY: i + 16 <= len for both slices (asserted above); unaligned loads and
            // stores are allowed.
            unsafe {
                let a = _mm256_loadu_si256(acc.as_ptr().add(i).cast());
                let b = _mm256_loadu_si256(w.as_ptr().add(i).cast());
                _mm256_storeu_si256(acc.as_mut_ptr().add(i).cast(), _mm256_add_epi16(a, b));
            }
        }
    }

    /// # Safety
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    pub unsafe fn sub_assign(acc: &mut [i16], w: &[i16]) {
        assert!(acc.len() == w.len() && acc.len().is_multiple_of(16));
        for i in (0..acc.len()).step_by(16) {
            // SAFETY: i + 16 <= len for both slices (asserted above).
            unsafe {
                let a = _mm256_loadu_si256(acc.as_ptr().add(i).cast());
                let b = _mm256_loadu_si256(w.as_ptr().add(i).cast());
                _mm256_storeu_si256(acc.as_mut_ptr().add(i).cast(), _mm256_sub_epi16(a, b));
            }
        }
    }

    /// # Safety
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    pub unsafe fn screlu_dot(acc: &[i16], w: &[i16]) -> i32 {
        assert!(acc.len() == w.len() && acc.len().is_multiple_of(16));
        let zero = _mm256_setzero_si256();
        let qa = _mm256_set1_epi16(QA as i16);
        let mut sum = _mm256_setzero_si256();
        for i in (0..acc.len()).step_by(16) {
            // SAFETY: i + 16 <= len for both slices (asserted above).
            let (a, b) = unsafe {
                (
                    _mm256_loadu_si256(acc.as_ptr().add(i).cast()),
                    _mm256_loadu_si256(w.as_ptr().add(i).cast()),
                )
            };
            let c = _mm256_min_epi16(_mm256_max_epi16(a, zero), qa);
            // c·b in 16 bits, then (c·b)·c summed in pairs into 32 bits: the portable sum.
            let cb = _mm256_mullo_epi16(c, b);
            sum = _mm256_add_epi32(sum, _mm256_madd_epi16(cb, c));
        }
        let mut lanes = [0i32; 8];
        // SAFETY: `lanes` is 32 bytes, the size of one register.
        unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast(), sum) };
        lanes.iter().fold(0i32, |s, &x| s.wrapping_add(x))
    }
}

/// One search thread's accumulators: a pair (White's, Black's) per ply of the path, so that
/// taking a move back costs nothing and a null move is a copy.
#[derive(Clone, Debug)]
pub struct Accumulators {
    net: Arc<Network>,
    /// `MAX_PLY + 2` pairs of `2 · hidden` values, ply-major.
    stack: Vec<i16>,
}

impl Accumulators {
    pub fn new(net: Arc<Network>) -> Accumulators {
        let stack = vec![0; (MAX_PLY + 2) * 2 * net.hidden];
        Accumulators { net, stack }
    }

    pub fn network(&self) -> &Arc<Network> {
        &self.net
    }

    fn pair(&self, ply: Ply) -> &[i16] {
        let n = 2 * self.net.hidden;
        &self.stack[ply * n..(ply + 1) * n]
    }

    /// The pairs at `ply` and `ply + 1` of `stack` (pairs of `n` values), to update the
    /// second from the first.
    fn parent_and_child(stack: &mut [i16], n: usize, ply: Ply) -> (&[i16], &mut [i16]) {
        let (parent, child) = stack[ply * n..(ply + 2) * n].split_at_mut(n);
        (parent, child)
    }

    /// Builds the accumulators of `pos` at `ply` from scratch (the root).
    pub fn refresh(&mut self, pos: &Chess, ply: Ply) {
        let n = 2 * self.net.hidden;
        self.net
            .refresh(pos.board(), &mut self.stack[ply * n..(ply + 1) * n]);
    }

    /// The value of the position at `ply` for `turn` to move.
    #[inline]
    pub fn evaluate(&self, ply: Ply, turn: Color) -> Score {
        self.net.output(self.pair(ply), turn)
    }

    /// The accumulators at `ply + 1` after a null move at `ply`: the same pieces.
    #[inline]
    pub fn copy_to_child(&mut self, ply: Ply) {
        let n = 2 * self.net.hidden;
        let (parent, child) = Self::parent_and_child(&mut self.stack, n, ply);
        child.copy_from_slice(parent);
    }

    /// The accumulators at `ply + 1` after `m` is played from `parent` at `ply`: the pieces
    /// that left a square are taken out, those that arrived put in (a capture, en passant,
    /// castling, a promotion each touch their own squares).
    #[inline]
    pub fn update(&mut self, parent: &Chess, m: &Move, child: &Chess, ply: Ply) {
        let us = parent.turn();
        let mut removed: [Option<(Color, Role, Square)>; 2] = [None; 2];
        let mut added: [Option<(Color, Role, Square)>; 2] = [None; 2];
        match *m {
            Move::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            } => {
                removed[0] = Some((us, role, from));
                removed[1] = capture.map(|c| (!us, c, to));
                added[0] = Some((us, promotion.unwrap_or(role), to));
            }
            Move::EnPassant { from, to } => {
                removed[0] = Some((us, Role::Pawn, from));
                removed[1] = Some((!us, Role::Pawn, Square::from_coords(to.file(), from.rank())));
                added[0] = Some((us, Role::Pawn, to));
            }
            Move::Castle { king, rook } => {
                let side = shakmaty::CastlingSide::from_queen_side(rook < king);
                removed = [Some((us, Role::King, king)), Some((us, Role::Rook, rook))];
                added = [
                    Some((us, Role::King, side.king_to(us))),
                    Some((us, Role::Rook, side.rook_to(us))),
                ];
            }
            Move::Put { .. } => {
                // Not a move of standard chess: build the child from scratch.
                return self.refresh(child, ply + 1);
            }
        }
        let net = &*self.net;
        let hidden = net.hidden;
        let (parent_acc, child_acc) = Self::parent_and_child(&mut self.stack, 2 * hidden, ply);
        child_acc.copy_from_slice(parent_acc);
        let (white, black) = child_acc.split_at_mut(hidden);
        for (color, role, sq) in removed.into_iter().flatten() {
            let (fw, fb) = features(color, role, sq);
            sub_assign(white, net.feature_weights(fw));
            sub_assign(black, net.feature_weights(fb));
        }
        for (color, role, sq) in added.into_iter().flatten() {
            let (fw, fb) = features(color, role, sq);
            add_assign(white, net.feature_weights(fw));
            add_assign(black, net.feature_weights(fb));
        }
    }
}

#[cfg(test)]
mod tests;

/// The net built into the binary: `nets/cutoff-256-m15-l10.nnue` (394,820 bytes), trained on
/// Cutoff's own games; it beats the classical evaluation at equal nodes and on the clock
/// (docs/nets.md), and is the default evaluation; `setoption name Evaluation value classical`
/// plays without it.
static EMBEDDED: &[u8] = include_bytes!("../../nets/cutoff-256-m15-l10.nnue");

impl Network {
    /// The net built into the binary, read once (its weights copied out of the binary's bytes
    /// into the network's own vectors); `None` only if those bytes fail the checks, which a
    /// test rules out.
    pub fn embedded() -> Option<Arc<Network>> {
        use std::sync::OnceLock;
        static NET: OnceLock<Option<Arc<Network>>> = OnceLock::new();
        NET.get_or_init(|| Network::from_bytes(EMBEDDED).ok().map(Arc::new))
            .clone()
    }
}
