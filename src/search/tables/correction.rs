//! Correction history: how far the static evaluation missed the searched value in positions
//! with the same pawns (and, step 4d, with the same pieces of one colour), learnt as the search
//! goes and added to later static evaluations (as Stockfish, Weiss and Reckless do). The
//! evaluation misjudges some structures the same way every time; the search finds out, and
//! pruning decisions then start from a better guess.

use shakmaty::{Chess, Color, Position};

use crate::types::{Depth, Score};

/// Entries per table and side (a power of two: the index is the top bits of a key).
const ENTRIES: usize = 16_384;
/// Corrections are kept in 1/`GRAIN` centipawns, so that small updates add up.
const GRAIN: i32 = 256;
/// The largest correction, in centipawns.
const MAX_CP: i32 = 64;
/// An update moves an entry by `weight / WEIGHT_SCALE` of the way to the new error.
const WEIGHT_SCALE: i32 = 256;

/// The learnt corrections, by side to move: one table keyed by the pawns, and (step 4d) one by
/// each colour's pieces other than pawns (king included). A position's correction is the sum
/// of its entries, and each entry learns what the sum still misses, so that with the
/// non-pawn tables off the pawn table learns exactly as it did alone.
pub struct CorrectionHistory {
    pawns: Box<[[i32; ENTRIES]; 2]>,
    /// By side to move, then the colour whose pieces key the entry.
    non_pawn: Box<[[[i32; ENTRIES]; 2]; 2]>,
}

impl Default for CorrectionHistory {
    fn default() -> Self {
        CorrectionHistory {
            pawns: Box::new([[0; ENTRIES]; 2]),
            non_pawn: Box::new([[[0; ENTRIES]; 2]; 2]),
        }
    }
}

/// The top bits of a key: an entry's index.
#[inline]
fn top_bits(key: u64) -> usize {
    (key >> (64 - ENTRIES.trailing_zeros())) as usize
}

/// A hash of the pawns of both sides: the pawn table's index.
#[inline]
fn index(pos: &Chess) -> usize {
    let board = pos.board();
    let white = (board.pawns() & board.white()).0;
    let black = (board.pawns() & board.black()).0;
    top_bits(white.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ black.wrapping_mul(0xC2B2_AE3D_27D4_EB4F))
}

/// A hash of `color`'s pieces other than pawns, by kind: a non-pawn table's index.
#[inline]
fn non_pawn_index(pos: &Chess, color: Color) -> usize {
    const MULTIPLIERS: [u64; 5] = [
        0x9E37_79B9_7F4A_7C15,
        0xC2B2_AE3D_27D4_EB4F,
        0x1656_67B1_9E37_79F9,
        0x85EB_CA77_C2B2_AE63,
        0x27D4_EB2F_1656_67C5,
    ];
    let board = pos.board();
    let ours = board.by_color(color);
    let kinds = [
        board.knights(),
        board.bishops(),
        board.rooks(),
        board.queens(),
        board.kings(),
    ];
    let key = kinds
        .iter()
        .zip(MULTIPLIERS)
        .fold(0, |key, (&kind, m)| key ^ (kind & ours).0.wrapping_mul(m));
    top_bits(key)
}

#[inline]
fn side(pos: &Chess) -> usize {
    usize::from(pos.turn() == Color::White)
}

impl CorrectionHistory {
    /// The sum of `pos`'s entries, in 1/`GRAIN` centipawns (the pawn entry alone unless
    /// `non_pawn`).
    #[inline]
    fn total(&self, pos: &Chess, non_pawn: bool) -> i32 {
        let s = side(pos);
        let mut sum = self.pawns[s][index(pos)];
        if non_pawn {
            for color in Color::ALL {
                sum += self.non_pawn[s][color as usize][non_pawn_index(pos, color)];
            }
        }
        sum
    }

    /// `eval` corrected by what was learnt about positions with `pos`'s pawns (and, if
    /// `non_pawn`, with either side's other pieces where they stand).
    #[inline]
    pub fn correct(&self, pos: &Chess, eval: Score, non_pawn: bool) -> Score {
        let correction = self.total(pos, non_pawn) / GRAIN;
        let bound = Score::TB_WIN_BOUND.0 - 1;
        Score((eval.0 + correction).clamp(-bound, bound))
    }

    /// Starts loading `pos`'s entries, read by its static evaluation: called as the move to
    /// `pos` is played, so that the net's update hides the wait (the load missed the cache
    /// often enough to take 13 % of quiescence's time, `perf`, `Bench: 2229474`).
    #[inline]
    pub fn prefetch(&self, pos: &Chess, non_pawn: bool) {
        let s = side(pos);
        crate::memory::prefetch(&self.pawns[s][index(pos)]);
        if non_pawn {
            for color in Color::ALL {
                crate::memory::prefetch(
                    &self.non_pawn[s][color as usize][non_pawn_index(pos, color)],
                );
            }
        }
    }

    /// Learns from a node searched to `depth` whose static evaluation was `static_eval` (raw,
    /// uncorrected) and whose searched value is `value`: each entry moves by what the sum of
    /// the entries still misses, deeper searches more.
    pub fn update(
        &mut self,
        pos: &Chess,
        depth: Depth,
        static_eval: Score,
        value: Score,
        non_pawn: bool,
    ) {
        let error = (value.0 - static_eval.0).clamp(-MAX_CP, MAX_CP) * GRAIN;
        let total = self.total(pos, non_pawn);
        let weight = (depth + 1).min(16);
        // Each entry moves towards the error less what the other entries already give: the
        // pawn entry alone, as before step 4d, to the same integer.
        let learn = |entry: &mut i32| {
            let target = error - (total - *entry);
            *entry = (*entry * (WEIGHT_SCALE - weight) + target * weight) / WEIGHT_SCALE;
            *entry = (*entry).clamp(-MAX_CP * GRAIN, MAX_CP * GRAIN);
        };
        let s = side(pos);
        learn(&mut self.pawns[s][index(pos)]);
        if non_pawn {
            for color in Color::ALL {
                learn(&mut self.non_pawn[s][color as usize][non_pawn_index(pos, color)]);
            }
        }
    }

    pub fn clear(&mut self) {
        *self.pawns = [[0; ENTRIES]; 2];
        *self.non_pawn = [[[0; ENTRIES]; 2]; 2];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeated_errors_pull_the_correction_towards_them_within_its_limit() {
        for non_pawn in [false, true] {
            let pos = Chess::default();
            let mut c = CorrectionHistory::default();
            assert_eq!(c.correct(&pos, Score(10), non_pawn), Score(10));
            for _ in 0..500 {
                c.update(&pos, 15, Score(0), Score(40), non_pawn);
            }
            let corrected = c.correct(&pos, Score(10), non_pawn).0;
            assert!((45..=50).contains(&corrected), "{corrected}");
            for _ in 0..500 {
                c.update(&pos, 15, Score(0), Score(-1000), non_pawn);
            }
            let floor = c.correct(&pos, Score(0), non_pawn).0;
            assert!((-MAX_CP - 2..=-MAX_CP + 1).contains(&floor), "{floor}");
        }
    }
}

#[cfg(test)]
mod non_pawn_tests {
    use super::*;
    use crate::position::pos;

    /// Two positions with the same pawns and the same black pieces, the white knight moved:
    /// the pawn table cannot tell them apart, the white non-pawn table can.
    #[test]
    fn non_pawn_tables_learn_errors_the_pawns_share_and_keep_them_apart() {
        let a = pos("r1bqkbnr/pppppppp/2n5/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 0 1");
        let b = pos("r1bqkbnr/pppppppp/2n5/8/8/2N5/PPPPPPPP/R1BQKBNR w KQkq - 0 1");
        assert_eq!(index(&a), index(&b));
        assert_ne!(
            non_pawn_index(&a, Color::White),
            non_pawn_index(&b, Color::White)
        );
        let mut c = CorrectionHistory::default();
        for _ in 0..500 {
            c.update(&a, 15, Score(0), Score(40), true);
            c.update(&b, 15, Score(0), Score(-40), true);
        }
        let (ca, cb) = (
            c.correct(&a, Score(0), true).0,
            c.correct(&b, Score(0), true).0,
        );
        assert!(ca > 30 && cb < -30, "{ca} {cb}");
        // The pawn table alone learns only their average.
        let mut p = CorrectionHistory::default();
        for _ in 0..500 {
            p.update(&a, 15, Score(0), Score(40), false);
            p.update(&b, 15, Score(0), Score(-40), false);
        }
        let (pa, pb) = (
            p.correct(&a, Score(0), false).0,
            p.correct(&b, Score(0), false).0,
        );
        assert!(pa.abs() < 10 && pb.abs() < 10, "{pa} {pb}");
    }
}
