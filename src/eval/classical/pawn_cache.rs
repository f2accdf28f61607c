//! The pawn cache each search thread's evaluator owns: the pawn-only part of the pawn terms
//! ([`super::pawns`]) of recent pawn structures, keyed by both pawn bitboards. It sits below the
//! pawn terms and the evaluation's front that hands it to them, so neither imports the other.

use super::taper::Packed;

/// Entries of the pawn cache (a power of two; 32 bytes each).
const PAWN_CACHE_ENTRIES: usize = 8192;

/// The pawn-only part of the pawn terms of one pawn structure.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct PawnEntry {
    /// White's and Black's pawns: the whole key, so a hit is never a collision.
    pub(super) pawns: [u64; 2],
    /// White's and Black's pawn-only score.
    pub(super) score: [Packed; 2],
    /// White's and Black's passed pawns.
    pub(super) passed: [u64; 2],
}

/// The pawn-only part of the pawn terms of recent pawn structures. A hit gives exactly what
/// computing them would (the whole key is kept), so a cache changes speed, never a value.
pub struct PawnCache(pub(super) Box<[PawnEntry]>);

impl Default for PawnCache {
    /// Zeroed entries are right for the empty key: no pawns, no score, no passers.
    fn default() -> Self {
        PawnCache(vec![PawnEntry::default(); PAWN_CACHE_ENTRIES].into_boxed_slice())
    }
}

/// The entry of a pawn structure (both sides' pawns).
pub(super) fn slot(pawns: [u64; 2]) -> usize {
    let h =
        pawns[0].wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ pawns[1].wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    (h >> 32) as usize & (PAWN_CACHE_ENTRIES - 1)
}
