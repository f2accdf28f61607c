//! The integer kernels of the net's inference: AVX2 where the CPU has it, else portable, the
//! same numbers (every sum is in integers, wrapping as the portable definition does). Which
//! one runs is decided once, at run time, so the plain build runs on any x86-64-v2 CPU.

use arrayvec::ArrayVec;

use crate::eval::nnue::aligned::is_aligned;

/// Whether this CPU runs the AVX2 kernels (decided once).
pub(super) fn has_avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        use std::sync::OnceLock;
        static AVX2: OnceLock<bool> = OnceLock::new();
        *AVX2.get_or_init(|| std::arch::is_x86_feature_detected!("avx2"))
    }
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// The built-in net's hidden width: the AVX2 kernels have a copy compiled for this length.
pub(super) const BUILT_IN_HIDDEN: usize = 256;

/// `acc += w`, lane by lane, wrapping as 16-bit integers do.
#[inline]
pub(super) fn add_assign(acc: &mut [i16], w: &[i16]) {
    fold_row::<false>(acc, w);
}

/// `acc -= w`, lane by lane, wrapping as 16-bit integers do.
#[inline]
pub(super) fn sub_assign(acc: &mut [i16], w: &[i16]) {
    fold_row::<true>(acc, w);
}

/// `acc -= w` where `SUB`, else `acc += w`: AVX2 where the CPU has it.
#[inline]
fn fold_row<const SUB: bool>(acc: &mut [i16], w: &[i16]) {
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        // SAFETY: the CPU has AVX2 (checked at run time just above); `simd::fold_row` reads
        // and writes only within the two slices, whose equal lengths it asserts.
        unsafe { simd::fold_row::<SUB>(acc, w) };
        return;
    }
    portable::fold_row::<SUB>(acc, w);
}

/// The rows a move takes out of one perspective's accumulator and puts into it: at most two
/// each (a capture takes two out, castling two out and two in).
pub(super) type Rows<'a> = ArrayVec<&'a [i16], 2>;

/// `child = parent − Σ sub + Σ add`, lane by lane, wrapping, in one pass: each value of the
/// parent and of each row is read once and the child written once, with no copy first.
/// `simd` is the caller's choice made once ([`Accumulators::new`]); every slice is `hidden`
/// long (the net's rows and accumulators, and nothing else, reach this module-private door).
#[inline]
pub(super) fn update_into(simd: bool, child: &mut [i16], parent: &[i16], sub: &Rows, add: &Rows) {
    debug_assert!(
        child.len().is_multiple_of(16)
            && parent.len() == child.len()
            && sub.iter().chain(add).all(|r| r.len() == child.len())
    );
    #[cfg(target_arch = "x86_64")]
    if simd {
        // SAFETY: `simd` is true only where `has_avx2()` said so when the accumulators were
        // made; the kernel touches `child.len()` values of each slice, and every slice that
        // reaches here is a row or an accumulator half of one net: `hidden` values, a multiple
        // of 16 (the loader accepts no other width).
        unsafe {
            // One kernel per shape a move has, so that the rows' loop is unrolled: a quiet move
            // or a promotion (one out, one in), a capture or en passant (two out, one in),
            // castling (two out, two in).
            // The built-in width gets kernels compiled for its length, whose loops unroll
            // (about a third of the update's instructions were the loop's own), and that load
            // and store aligned (unsplit) where every slice is aligned, as the net's rows and
            // the accumulators are.
            let fixed = child.len() == BUILT_IN_HIDDEN
                && is_aligned(child.as_ptr())
                && is_aligned(parent.as_ptr())
                && sub.iter().chain(add).all(|row| is_aligned(row.as_ptr()));
            match (&sub[..], &add[..], fixed) {
                ([s], [a], true) => {
                    simd::update_into::<1, 1, BUILT_IN_HIDDEN>(child, parent, [s], [a])
                }
                ([s, t], [a], true) => {
                    simd::update_into::<2, 1, BUILT_IN_HIDDEN>(child, parent, [s, t], [a])
                }
                ([s, t], [a, b], true) => {
                    simd::update_into::<2, 2, BUILT_IN_HIDDEN>(child, parent, [s, t], [a, b])
                }
                ([s], [a], false) => simd::update_into::<1, 1, 0>(child, parent, [s], [a]),
                ([s, t], [a], false) => simd::update_into::<2, 1, 0>(child, parent, [s, t], [a]),
                ([s, t], [a, b], false) => {
                    simd::update_into::<2, 2, 0>(child, parent, [s, t], [a, b])
                }
                _ => portable::update_into(child, parent, sub, add),
            }
        }
        return;
    }
    let _ = simd;
    portable::update_into(child, parent, sub, add);
}

/// `Σ clamp(a, 0, QA) · w · clamp(a, 0, QA)`, in wrapping 32-bit arithmetic.
#[inline]
pub(super) fn screlu_dot(acc: &[i16], w: &[i16]) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        // SAFETY: AVX2 is present (checked at run time); the kernel reads within the slices
        // (with a width given, both are that long: checked here).
        return unsafe {
            if acc.len() == BUILT_IN_HIDDEN
                && w.len() == BUILT_IN_HIDDEN
                && is_aligned(acc.as_ptr())
                && is_aligned(w.as_ptr())
            {
                simd::screlu_dot::<BUILT_IN_HIDDEN>(acc, w)
            } else {
                simd::screlu_dot::<0>(acc, w)
            }
        };
    }
    portable::screlu_dot(acc, w)
}

/// Both perspectives' [`screlu_dot`]s, `(Σ us·w_us, Σ them·w_them)`: at the built-in width with
/// every slice aligned (as the accumulators and the output rows are), one AVX2 call that sums
/// both at once and folds their lanes together; otherwise the two dots one by one.
#[inline]
pub(super) fn screlu_dots(us: &[i16], w_us: &[i16], them: &[i16], w_them: &[i16]) -> (i32, i32) {
    #[cfg(target_arch = "x86_64")]
    if has_avx2()
        && [us, w_us, them, w_them]
            .iter()
            .all(|s| s.len() == BUILT_IN_HIDDEN && is_aligned(s.as_ptr()))
    {
        // SAFETY: AVX2 is present (checked at run time), and every slice is the built-in
        // width long and starts on a 32-byte boundary (checked just above), as the kernel's
        // aligned loads need.
        return unsafe { simd::screlu_dot_pair::<BUILT_IN_HIDDEN>(us, w_us, them, w_them) };
    }
    (screlu_dot(us, w_us), screlu_dot(them, w_them))
}

/// The kernels in plain Rust: the definition of what the SIMD ones compute.
pub(super) mod portable {
    // Named from the crate: tests/architecture.rs reads files, and `super` here is this file.
    use crate::eval::nnue::format::QA;

    /// `acc -= w` where `SUB`, else `acc += w`, wrapping.
    pub fn fold_row<const SUB: bool>(acc: &mut [i16], w: &[i16]) {
        for (a, &b) in acc.iter_mut().zip(w) {
            *a = if SUB {
                a.wrapping_sub(b)
            } else {
                a.wrapping_add(b)
            };
        }
    }

    pub fn update_into(child: &mut [i16], parent: &[i16], sub: &[&[i16]], add: &[&[i16]]) {
        for (i, (c, &p)) in child.iter_mut().zip(parent).enumerate() {
            let mut v = p;
            for row in sub {
                v = v.wrapping_sub(row[i]);
            }
            for row in add {
                v = v.wrapping_add(row[i]);
            }
            *c = v;
        }
    }

    pub fn screlu_dot(acc: &[i16], w: &[i16]) -> i32 {
        let mut sum = 0i32;
        for (&a, &b) in acc.iter().zip(w) {
            let c = i32::from(a).clamp(0, QA);
            // c·b fits in 16 bits (|b| ≤ 128, checked when the net is loaded), as the SIMD
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
pub(super) mod simd {
    use std::arch::x86_64::*;

    use crate::eval::nnue::format::QA;

    /// `acc -= w` where `SUB`, else `acc += w`, lane by lane, wrapping.
    ///
    /// # Safety
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    pub unsafe fn fold_row<const SUB: bool>(acc: &mut [i16], w: &[i16]) {
        assert!(acc.len() == w.len() && acc.len().is_multiple_of(16));
        for i in (0..acc.len()).step_by(16) {
            // SAFETY: i + 16 <= len for both slices (asserted above); unaligned loads and
            // stores are allowed.
            unsafe {
                let a = _mm256_loadu_si256(acc.as_ptr().add(i).cast());
                let b = _mm256_loadu_si256(w.as_ptr().add(i).cast());
                let v = if SUB {
                    _mm256_sub_epi16(a, b)
                } else {
                    _mm256_add_epi16(a, b)
                };
                _mm256_storeu_si256(acc.as_mut_ptr().add(i).cast(), v);
            }
        }
    }

    /// # Safety
    /// The CPU must support AVX2; `parent` and every row must hold at least `child.len()`
    /// values, a multiple of 16. With `N` other than 0, `N` values are updated (a length known
    /// when compiling, so the loop unrolls) with aligned loads and stores: then `child.len()`
    /// must be `N` and every slice must start on a 32-byte boundary.
    #[target_feature(enable = "avx2")]
    pub unsafe fn update_into<const S: usize, const A: usize, const N: usize>(
        child: &mut [i16],
        parent: &[i16],
        sub: [&[i16]; S],
        add: [&[i16]; A],
    ) {
        let len = if N == 0 { child.len() } else { N };
        debug_assert_eq!(len, child.len());
        for i in (0..len).step_by(16) {
            // SAFETY: i + 16 <= len == child.len() <= every other slice's length (the
            // caller's promise); unaligned loads and stores are allowed, and with `N` other
            // than 0 every slice starts on a 32-byte boundary (the caller's promise), so each
            // address, 32·k bytes further, is aligned for the aligned ones.
            unsafe {
                let load = |p: *const i16| {
                    if N == 0 {
                        _mm256_loadu_si256(p.cast())
                    } else {
                        _mm256_load_si256(p.cast())
                    }
                };
                let mut v = load(parent.as_ptr().add(i));
                for row in sub {
                    v = _mm256_sub_epi16(v, load(row.as_ptr().add(i)));
                }
                for row in add {
                    v = _mm256_add_epi16(v, load(row.as_ptr().add(i)));
                }
                let out = child.as_mut_ptr().add(i).cast();
                if N == 0 {
                    _mm256_storeu_si256(out, v);
                } else {
                    _mm256_store_si256(out, v);
                }
            }
        }
    }

    /// Both perspectives of a move at once: `child[..N] = parent[..N] − Σ white.0 + Σ
    /// white.1`, and the same for the second `N` values with `black`'s rows, with aligned
    /// loads and stores and loops of a length known when compiling (they unroll).
    ///
    /// # Safety
    /// The CPU must support AVX2; `N` must be a multiple of 16 and above 0; `parent` and
    /// `child` must hold at least `2N` values and every row at least `N`; every slice must
    /// start on a 32-byte boundary.
    #[target_feature(enable = "avx2")]
    pub unsafe fn update_pair<const S: usize, const A: usize, const N: usize>(
        child: &mut [i16],
        parent: &[i16],
        white: ([&[i16]; S], [&[i16]; A]),
        black: ([&[i16]; S], [&[i16]; A]),
    ) {
        debug_assert!(N > 0 && N.is_multiple_of(16));
        debug_assert!(child.len() >= 2 * N && parent.len() >= 2 * N);
        for (half, (sub, add)) in [(0, white), (N, black)] {
            debug_assert!(sub.iter().chain(&add).all(|row| row.len() >= N));
            for i in (0..N).step_by(16) {
                // SAFETY: half + i + 16 <= 2N for `parent` and `child`, i + 16 <= N for the
                // rows (the caller's promise on their lengths); each address is 32·k bytes
                // past a 32-byte boundary (the caller's promise on the starts), so aligned.
                unsafe {
                    let mut v = _mm256_load_si256(parent.as_ptr().add(half + i).cast());
                    for row in sub {
                        v = _mm256_sub_epi16(v, _mm256_load_si256(row.as_ptr().add(i).cast()));
                    }
                    for row in add {
                        v = _mm256_add_epi16(v, _mm256_load_si256(row.as_ptr().add(i).cast()));
                    }
                    _mm256_store_si256(child.as_mut_ptr().add(half + i).cast(), v);
                }
            }
        }
    }

    /// Two `screlu_dot`s at once, `(Σ a·wa, Σ b·wb)` in wrapping 32-bit arithmetic like the
    /// portable sum (whose order does not matter: wrapping addition is associative), their
    /// lanes folded together at the end.
    ///
    /// # Safety
    /// The CPU must support AVX2; `N` must be a multiple of 16 and above 0; the four slices
    /// must be at least `N` long and start on a 32-byte boundary.
    #[target_feature(enable = "avx2")]
    pub unsafe fn screlu_dot_pair<const N: usize>(
        a: &[i16],
        wa: &[i16],
        b: &[i16],
        wb: &[i16],
    ) -> (i32, i32) {
        debug_assert!(N > 0 && N.is_multiple_of(16));
        debug_assert!([a, wa, b, wb].iter().all(|s| s.len() >= N));
        let zero = _mm256_setzero_si256();
        let qa = _mm256_set1_epi16(QA as i16);
        let (mut sum_a, mut sum_b) = (_mm256_setzero_si256(), _mm256_setzero_si256());
        for i in (0..N).step_by(16) {
            // SAFETY: i + 16 <= N <= every slice's length, and each address is 32·k bytes
            // past an aligned start (the caller's promises).
            let (va, vwa, vb, vwb) = unsafe {
                (
                    _mm256_load_si256(a.as_ptr().add(i).cast()),
                    _mm256_load_si256(wa.as_ptr().add(i).cast()),
                    _mm256_load_si256(b.as_ptr().add(i).cast()),
                    _mm256_load_si256(wb.as_ptr().add(i).cast()),
                )
            };
            let ca = _mm256_min_epi16(_mm256_max_epi16(va, zero), qa);
            let cb = _mm256_min_epi16(_mm256_max_epi16(vb, zero), qa);
            sum_a = _mm256_add_epi32(sum_a, _mm256_madd_epi16(_mm256_mullo_epi16(ca, vwa), ca));
            sum_b = _mm256_add_epi32(sum_b, _mm256_madd_epi16(_mm256_mullo_epi16(cb, vwb), cb));
        }
        // Lanes [a0+a1, a2+a3, b0+b1, b2+b3 | a4+a5, a6+a7, b4+b5, b6+b7], the halves added,
        // then pairs again: a's total in lane 0, b's in lane 1.
        let pairs = _mm256_hadd_epi32(sum_a, sum_b);
        let halves = _mm_add_epi32(
            _mm256_castsi256_si128(pairs),
            _mm256_extracti128_si256::<1>(pairs),
        );
        let totals = _mm_hadd_epi32(halves, halves);
        (_mm_cvtsi128_si32(totals), _mm_extract_epi32::<1>(totals))
    }

    /// # Safety
    /// The CPU must support AVX2. With `N` other than 0, both slices must be `N` long (a
    /// length known when compiling, so the loop unrolls) and start on a 32-byte boundary
    /// (aligned loads).
    #[target_feature(enable = "avx2")]
    pub unsafe fn screlu_dot<const N: usize>(acc: &[i16], w: &[i16]) -> i32 {
        let len = if N == 0 { acc.len() } else { N };
        debug_assert!(N == 0 || (acc.len() == N && w.len() == N));
        assert!(N != 0 || (acc.len() == w.len() && acc.len().is_multiple_of(16)));
        let zero = _mm256_setzero_si256();
        let qa = _mm256_set1_epi16(QA as i16);
        let mut sum = _mm256_setzero_si256();
        for i in (0..len).step_by(16) {
            // SAFETY: i + 16 <= len, and both slices are len long (asserted above, or the
            // caller's promise for a width given, with both starts aligned, so each address
            // 32·k bytes further is too).
            let (a, b) = unsafe {
                let (a, b) = (acc.as_ptr().add(i).cast(), w.as_ptr().add(i).cast());
                if N == 0 {
                    (_mm256_loadu_si256(a), _mm256_loadu_si256(b))
                } else {
                    (_mm256_load_si256(a), _mm256_load_si256(b))
                }
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
