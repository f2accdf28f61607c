//! Correction history: how far the static evaluation missed the searched value in positions
//! with the same pawns, learnt as the search goes and added to later static evaluations
//! (as Stockfish and Weiss do). The evaluation misjudges some pawn structures the same way
//! every time; the search finds out, and pruning decisions then start from a better guess.

use shakmaty::{Chess, Color, Position};

use crate::types::{Depth, Score};

/// Entries per side (a power of two: the index is the top bits of the pawn key).
const ENTRIES: usize = 16_384;
/// Corrections are kept in 1/`GRAIN` centipawns, so that small updates add up.
const GRAIN: i32 = 256;
/// The largest correction, in centipawns.
const MAX_CP: i32 = 64;
/// An update moves an entry by `weight / WEIGHT_SCALE` of the way to the new error.
const WEIGHT_SCALE: i32 = 256;

/// The learnt corrections, by side to move and pawn structure.
pub struct CorrectionHistory(Box<[[i32; ENTRIES]; 2]>);

impl Default for CorrectionHistory {
    fn default() -> Self {
        CorrectionHistory(Box::new([[0; ENTRIES]; 2]))
    }
}

/// A hash of the pawns of both sides: the entry's index.
#[inline]
fn index(pos: &Chess) -> usize {
    let board = pos.board();
    let white = (board.pawns() & board.white()).0;
    let black = (board.pawns() & board.black()).0;
    let key = white.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ black.wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    (key >> (64 - ENTRIES.trailing_zeros())) as usize
}

#[inline]
fn side(pos: &Chess) -> usize {
    usize::from(pos.turn() == Color::White)
}

impl CorrectionHistory {
    /// `eval` corrected by what was learnt about positions with `pos`'s pawns.
    #[inline]
    pub fn correct(&self, pos: &Chess, eval: Score) -> Score {
        let correction = self.0[side(pos)][index(pos)] / GRAIN;
        let bound = Score::TB_WIN_BOUND.0 - 1;
        Score((eval.0 + correction).clamp(-bound, bound))
    }

    /// Starts loading `pos`'s entry, read by its static evaluation: called as the move to
    /// `pos` is played, so that the net's update hides the wait (the load missed the cache
    /// often enough to take 13 % of quiescence's time, `perf`, `Bench: 2229474`).
    #[inline]
    pub fn prefetch(&self, pos: &Chess) {
        crate::memory::prefetch(&self.0[side(pos)][index(pos)]);
    }

    /// Learns from a node searched to `depth` whose static evaluation was `static_eval` (raw,
    /// uncorrected) and whose searched value is `value`: deeper searches weigh more.
    pub fn update(&mut self, pos: &Chess, depth: Depth, static_eval: Score, value: Score) {
        let error = (value.0 - static_eval.0).clamp(-MAX_CP, MAX_CP) * GRAIN;
        let weight = (depth + 1).min(16);
        let entry = &mut self.0[side(pos)][index(pos)];
        *entry = (*entry * (WEIGHT_SCALE - weight) + error * weight) / WEIGHT_SCALE;
        *entry = (*entry).clamp(-MAX_CP * GRAIN, MAX_CP * GRAIN);
    }

    pub fn clear(&mut self) {
        *self.0 = [[0; ENTRIES]; 2];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeated_errors_pull_the_correction_towards_them_within_its_limit() {
        let pos = Chess::default();
        let mut c = CorrectionHistory::default();
        assert_eq!(c.correct(&pos, Score(10)), Score(10));
        for _ in 0..500 {
            c.update(&pos, 15, Score(0), Score(40));
        }
        let corrected = c.correct(&pos, Score(10)).0;
        assert!((45..=50).contains(&corrected), "{corrected}");
        for _ in 0..500 {
            c.update(&pos, 15, Score(0), Score(-1000));
        }
        let floor = c.correct(&pos, Score(0)).0;
        assert!((-MAX_CP..=-MAX_CP + 1).contains(&floor), "{floor}");
    }
}
