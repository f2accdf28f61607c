//! A buffer of `i16` whose start is 32-byte aligned, for the net's weights and accumulators.
//!
//! The plain build targets x86-64-v2, whose tuning splits every *unaligned* 32-byte load and
//! store of the AVX2 kernels in two (a 16-byte move and an insert or extract). Rows of
//! `hidden` values (a multiple of 16, so of 32 bytes) that start at an aligned address are
//! all aligned, so the kernels can use aligned loads, which are never split.

use std::fmt;
use std::ops::{Deref, DerefMut};

/// Sixteen lanes: the unit of storage, 32 bytes and aligned to 32.
#[derive(Clone, Copy, PartialEq, Eq)]
#[repr(C, align(32))]
struct Lanes([i16; 16]);

/// `len` values of `i16` starting at a 32-byte boundary; reads and writes as a `[i16]`.
#[derive(Clone, PartialEq, Eq)]
pub struct Aligned {
    lanes: Vec<Lanes>,
    len: usize,
}

/// Whether `p` lies on a 32-byte boundary.
#[inline(always)]
pub fn is_aligned(p: *const i16) -> bool {
    (p as usize).is_multiple_of(32)
}

impl Aligned {
    /// `len` zeros.
    pub fn zeroed(len: usize) -> Aligned {
        Aligned {
            lanes: vec![Lanes([0; 16]); len.div_ceil(16)],
            len,
        }
    }

    /// A copy of `values`.
    pub fn from_slice(values: &[i16]) -> Aligned {
        let mut aligned = Aligned::zeroed(values.len());
        aligned.copy_from_slice(values);
        aligned
    }
}

impl Deref for Aligned {
    type Target = [i16];

    #[inline(always)]
    fn deref(&self) -> &[i16] {
        // SAFETY: `Lanes` is `repr(C)` over `[i16; 16]`: 32 bytes of 16 initialised `i16`
        // with no padding, so `lanes` is `16 · lanes.len()` contiguous `i16`, and
        // `len <= 16 · lanes.len()` (`zeroed` allocates `len.div_ceil(16)` of them and nothing
        // shrinks `lanes`). The slice borrows `self`, so the memory outlives it.
        unsafe { std::slice::from_raw_parts(self.lanes.as_ptr().cast::<i16>(), self.len) }
    }
}

impl DerefMut for Aligned {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [i16] {
        // SAFETY: as in `deref`; the slice borrows `self` mutably, so it is the only access.
        unsafe { std::slice::from_raw_parts_mut(self.lanes.as_mut_ptr().cast::<i16>(), self.len) }
    }
}

impl fmt::Debug for Aligned {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Aligned").field("len", &self.len).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_aligned_buffer_starts_on_a_32_byte_boundary_and_keeps_its_values() {
        for len in [0, 1, 15, 16, 17, 256, 768 * 256] {
            let values: Vec<i16> = (0..len).map(|i| (i as i16).wrapping_mul(7)).collect();
            let mut aligned = Aligned::from_slice(&values);
            assert_eq!(&aligned[..], &values[..]);
            assert_eq!(aligned.len(), len);
            if len > 0 {
                assert!(is_aligned(aligned.as_ptr()));
                aligned[len - 1] = 5;
                assert_eq!(aligned[len - 1], 5);
            }
            assert_eq!(aligned.clone(), aligned);
        }
    }
}
