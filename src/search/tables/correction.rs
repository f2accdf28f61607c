//! Correction history: how far the static evaluation missed the searched value in positions
//! with the same pawns (and, step 4d, with the same pieces of one colour; step 4e, with the
//! same minor or major pieces of both colours), learnt as the search goes and added to later
//! static evaluations (as Stockfish, Weiss and Reckless do). The evaluation misjudges some
//! structures the same way every time; the search finds out, and pruning decisions then start
//! from a better guess.

use shakmaty::{Bitboard, Chess, Color, Position};

use crate::search::params::{
    corr_major_weight, corr_max_error, corr_minor_weight, corr_non_pawn_weight, corr_pawn_weight,
    corr_rate_cap, CORR_WEIGHT_SCALE,
};
use crate::types::{Depth, Score};

/// Entries per table and side (a power of two: the index is the top bits of a key).
const ENTRIES: usize = 16_384;
/// Corrections are kept in 1/`GRAIN` centipawns, so that small updates add up.
const GRAIN: i32 = 256;
/// An update moves an entry by `rate / RATE_SCALE` of the way to the new error.
const RATE_SCALE: i32 = 256;

/// Which tables key a position's correction besides the pawns' (the steps' switches).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tables {
    /// Step 4d: each colour's pieces other than pawns.
    pub non_pawn: bool,
    /// Step 4e: the minor pieces of both colours, and the major pieces, each with the kings.
    pub minor_major: bool,
}

/// The tables, in the order of `CorrectionHistory`'s rows.
const PAWNS: usize = 0;
const NON_PAWN_WHITE: usize = 1;
const NON_PAWN_BLACK: usize = 2;
const MINOR: usize = 3;
const MAJOR: usize = 4;
const TABLES: usize = 5;

/// The learnt corrections, by table and side to move: one table keyed by the pawns, (step
/// 4d) one by each colour's pieces other than pawns (king included), and (step 4e) one by the
/// minor and one by the major pieces of both colours. A position's correction is the sum of
/// its entries, and each entry learns what the sum still misses, so that with the other
/// tables off the pawn table learns exactly as it did alone.
pub struct CorrectionHistory(Box<[[[i32; ENTRIES]; 2]; TABLES]>);

impl Default for CorrectionHistory {
    fn default() -> Self {
        CorrectionHistory(Box::new([[[0; ENTRIES]; 2]; TABLES]))
    }
}

/// The top bits of a key: an entry's index.
#[inline]
fn top_bits(key: u64) -> usize {
    (key >> (64 - ENTRIES.trailing_zeros())) as usize
}

/// One multiplier for each bitboard a key hashes.
const MULTIPLIERS: [u64; 6] = [
    0x9E37_79B9_7F4A_7C15,
    0xC2B2_AE3D_27D4_EB4F,
    0x1656_67B1_9E37_79F9,
    0x85EB_CA77_C2B2_AE63,
    0x27D4_EB2F_1656_67C5,
    0xFF51_AFD7_ED55_8CCD,
];

/// A hash of some bitboards (its top bits are an entry's index).
#[inline(always)]
fn hash(boards: &[Bitboard]) -> u64 {
    boards
        .iter()
        .zip(MULTIPLIERS)
        .fold(0, |key, (&b, m)| key ^ b.0.wrapping_mul(m))
}

/// A position's keys into the correction tables, one a table in `CorrectionHistory`'s row
/// order. The move door finds the child's once, prefetches its entries with them and keeps
/// them in the child's frame, where its static evaluation and its update read them: found
/// from the bitboards at the move door and again at each read, they cost 4.1 % more
/// instructions a node in `cutoff bench 8` than kept once does (callgrind, `Bench: 1388568`,
/// docs/tools.md: 3,112.3 against 2,989.3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CorrectionKeys([u64; TABLES]);

impl CorrectionKeys {
    /// `pos`'s keys: its pawns of both colours; each colour's pieces other than pawns, by kind
    /// (king included); the minor pieces of both colours, and the major pieces, each with the
    /// kings.
    #[inline]
    pub fn of(pos: &Chess) -> CorrectionKeys {
        let board = pos.board();
        let (white, black) = (board.white(), board.black());
        let kings = board.kings();
        let non_pawn = |ours: Bitboard| {
            hash(&[
                board.knights() & ours,
                board.bishops() & ours,
                board.rooks() & ours,
                board.queens() & ours,
                kings & ours,
            ])
        };
        let pieces = |one: Bitboard, other: Bitboard| {
            hash(&[
                one & white,
                one & black,
                other & white,
                other & black,
                kings & white,
                kings & black,
            ])
        };
        let mut keys = [0; TABLES];
        keys[PAWNS] = hash(&[board.pawns() & white, board.pawns() & black]);
        keys[NON_PAWN_WHITE] = non_pawn(white);
        keys[NON_PAWN_BLACK] = non_pawn(black);
        keys[MINOR] = pieces(board.knights(), board.bishops());
        keys[MAJOR] = pieces(board.rooks(), board.queens());
        CorrectionKeys(keys)
    }
}

/// Each table's weight in the correction the evaluation takes, in `CorrectionHistory`'s row
/// order (the tunables; both colours' non-pawn tables share one).
#[inline(always)]
fn weights() -> [i32; TABLES] {
    let non_pawn = corr_non_pawn_weight();
    [
        corr_pawn_weight(),
        non_pawn,
        non_pawn,
        corr_minor_weight(),
        corr_major_weight(),
    ]
}

#[inline]
fn side(turn: Color) -> usize {
    usize::from(turn == Color::White)
}

/// A table no position reads (its switch is off).
const UNUSED: usize = usize::MAX;

/// A position's entry in each table in use, by table (`UNUSED` where off): a fixed array, built
/// inline, since a list of the tables in use cost 2.8 % of `cutoff bench 8`'s instructions.
#[derive(Clone, Copy)]
struct Slots([usize; TABLES]);

impl Slots {
    #[inline(always)]
    fn of(keys: &CorrectionKeys, tables: Tables) -> Slots {
        let mut at = [UNUSED; TABLES];
        for (t, slot) in at.iter_mut().enumerate() {
            let used = match t {
                NON_PAWN_WHITE | NON_PAWN_BLACK => tables.non_pawn,
                MINOR | MAJOR => tables.minor_major,
                _ => true,
            };
            if used {
                *slot = top_bits(keys.0[t]);
            }
        }
        Slots(at)
    }

    /// Each table in use and its entry's index.
    #[inline(always)]
    fn used(self) -> impl Iterator<Item = (usize, usize)> {
        (0..TABLES)
            .map(move |t| (t, self.0[t]))
            .filter(|&(_, i)| i != UNUSED)
            .map(|(t, i)| (t, i % ENTRIES))
    }
}

impl CorrectionHistory {
    /// The sum of the entries at `slots` for side `s`, in 1/`GRAIN` centipawns: what the
    /// tables learn together.
    #[inline]
    fn total(&self, s: usize, slots: Slots) -> i32 {
        slots.used().map(|(t, i)| self.0[t][s][i]).sum()
    }

    /// The correction the evaluation takes, in centipawns: each entry times its table's weight
    /// (`weights`, in 1/`CORR_WEIGHT_SCALE`), summed and truncated. At the weights' defaults
    /// (each `CORR_WEIGHT_SCALE`) it is [`Self::total`] over `GRAIN` to the integer: both
    /// quotients truncate the same rational number.
    #[inline]
    fn correction(&self, s: usize, slots: Slots, weights: [i32; TABLES]) -> i32 {
        let applied: i32 = slots
            .used()
            .map(|(t, i)| weights[t] * self.0[t][s][i])
            .sum();
        applied / (GRAIN * CORR_WEIGHT_SCALE)
    }

    /// `eval` corrected by what was learnt about positions with the pawns (and the pieces of
    /// the other tables in use) that `keys` hash, `turn` to move.
    #[inline]
    pub fn correct(
        &self,
        keys: &CorrectionKeys,
        turn: Color,
        eval: Score,
        tables: Tables,
    ) -> Score {
        let correction = self.correction(side(turn), Slots::of(keys, tables), weights());
        let bound = Score::TB_WIN_BOUND.0 - 1;
        Score((eval.0 + correction).clamp(-bound, bound))
    }

    /// Starts loading the entries of a position (its `keys`, `turn` to move), read by its
    /// static evaluation: called as the move to it is played, so that the net's update hides
    /// the wait (the load missed the cache often enough to take 13 % of quiescence's time,
    /// `perf`, `Bench: 2229474`).
    #[inline]
    pub fn prefetch(&self, keys: &CorrectionKeys, turn: Color, tables: Tables) {
        let s = side(turn);
        for (t, i) in Slots::of(keys, tables).used() {
            crate::memory::prefetch(&self.0[t][s][i]);
        }
    }

    /// Learns from a node (its `keys`, `turn` to move) searched to `depth` whose static
    /// evaluation was `static_eval` (raw, uncorrected) and whose searched value is `value`:
    /// each entry moves by what the sum of the entries still misses, deeper searches more.
    pub fn update(
        &mut self,
        keys: &CorrectionKeys,
        turn: Color,
        depth: Depth,
        static_eval: Score,
        value: Score,
        tables: Tables,
    ) {
        let max = corr_max_error();
        let error = (value.0 - static_eval.0).clamp(-max, max) * GRAIN;
        let s = side(turn);
        let slots = Slots::of(keys, tables);
        let total = self.total(s, slots);
        let rate = (depth + 1).min(corr_rate_cap());
        for (t, i) in slots.used() {
            // Each entry moves towards the error less what the other entries already give:
            // the pawn entry alone, as before step 4d, to the same integer.
            let entry = &mut self.0[t][s][i];
            let target = error - (total - *entry);
            *entry = (*entry * (RATE_SCALE - rate) + target * rate) / RATE_SCALE;
            *entry = (*entry).clamp(-max * GRAIN, max * GRAIN);
        }
    }

    pub fn clear(&mut self) {
        *self.0 = [[[0; ENTRIES]; 2]; TABLES];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A position's keys and its side to move, as the search passes them.
    fn at(pos: &Chess) -> (CorrectionKeys, Color) {
        (CorrectionKeys::of(pos), pos.turn())
    }

    #[test]
    fn repeated_errors_pull_the_correction_towards_them_within_its_limit() {
        for more in [false, true] {
            let tables = Tables {
                non_pawn: more,
                minor_major: more,
            };
            let (keys, turn) = at(&Chess::default());
            let mut c = CorrectionHistory::default();
            assert_eq!(c.correct(&keys, turn, Score(10), tables), Score(10));
            for _ in 0..500 {
                c.update(&keys, turn, 15, Score(0), Score(40), tables);
            }
            let corrected = c.correct(&keys, turn, Score(10), tables).0;
            assert!((45..=50).contains(&corrected), "{corrected}");
            for _ in 0..500 {
                c.update(&keys, turn, 15, Score(0), Score(-1000), tables);
            }
            let floor = c.correct(&keys, turn, Score(0), tables).0;
            let max = corr_max_error();
            assert!((-max - 4..=-max + 1).contains(&floor), "{floor}");
        }
    }

    /// An empty history but for side 0's entry at index 0 of each table `t`, which holds
    /// `entries[t]`.
    fn holding(entries: [i32; TABLES]) -> CorrectionHistory {
        let mut c = CorrectionHistory::default();
        for (t, e) in entries.into_iter().enumerate() {
            c.0[t][0][0] = e;
        }
        c
    }

    /// The weights' defaults take every table whole: the correction is the entries' sum over
    /// `GRAIN`, truncated, to the integer, for sums of either sign and any remainder (the
    /// searches of `Bench: 1388568` were measured so).
    #[test]
    fn the_default_weights_correct_by_the_entries_sum_to_the_integer() {
        let slots = Slots([0; TABLES]);
        let mut rng = crate::rng::Rng::for_game(77, 0);
        for _ in 0..10_000 {
            let mut entries = [0; TABLES];
            for e in &mut entries {
                let max = corr_max_error() * GRAIN;
                *e = (rng.next_u64() % (2 * max as u64 + 1)) as i32 - max;
            }
            let c = holding(entries);
            let sum: i32 = entries.iter().sum();
            assert_eq!(
                c.correction(0, slots, weights()),
                sum / GRAIN,
                "{entries:?}"
            );
        }
    }

    /// A table's weight scales its share alone: none at 0, half at half the scale.
    #[test]
    fn each_weight_scales_its_own_tables_share() {
        let slots = Slots([0; TABLES]);
        let c = holding([40 * GRAIN, 8 * GRAIN, -4 * GRAIN, 20 * GRAIN, -12 * GRAIN]);
        let whole = CORR_WEIGHT_SCALE;
        assert_eq!(c.correction(0, slots, [whole; TABLES]), 52);
        assert_eq!(c.correction(0, slots, [0, whole, whole, whole, whole]), 12);
        assert_eq!(
            c.correction(0, slots, [whole / 2, whole, whole, 0, whole]),
            12
        );
        assert_eq!(c.correction(0, slots, [whole, 0, 0, 0, 2 * whole]), 16);
    }

    /// Each key hashes its own pieces only: a knight's move changes the white non-pawn and
    /// the minor keys; pawn moves of both sides, the pawn key; a king's move, every key of its
    /// pieces but the pawns' and the other side's.
    #[test]
    fn each_key_changes_only_with_the_pieces_it_hashes() {
        fn keys_after(moves: &[&str]) -> CorrectionKeys {
            let mut pos = Chess::default();
            for m in moves {
                let m = m.parse::<shakmaty::uci::UciMove>().unwrap();
                let m = m.to_move(&pos).unwrap();
                pos.play_unchecked(m);
            }
            CorrectionKeys::of(&pos)
        }
        fn changed(before: &[&str], after: &[&str]) -> Vec<usize> {
            let (a, b) = (keys_after(before), keys_after(after));
            (0..TABLES).filter(|&t| a.0[t] != b.0[t]).collect()
        }
        assert_eq!(changed(&[], &["g1f3"]), [NON_PAWN_WHITE, MINOR]);
        assert_eq!(changed(&[], &["e2e4", "e7e5"]), [PAWNS]);
        assert_eq!(
            changed(&["e2e4", "e7e5"], &["e2e4", "e7e5", "e1e2"]),
            [NON_PAWN_WHITE, MINOR, MAJOR]
        );
        assert_eq!(
            changed(&["d2d4", "e7e5"], &["d2d4", "e7e5", "d1d3"]),
            [NON_PAWN_WHITE, MAJOR]
        );
    }
}

#[cfg(test)]
mod non_pawn_tests {
    use super::*;
    use crate::position::pos;

    const ON: Tables = Tables {
        non_pawn: true,
        minor_major: false,
    };
    const PAWNS_ONLY: Tables = Tables {
        non_pawn: false,
        minor_major: false,
    };
    const MINOR_MAJOR: Tables = Tables {
        non_pawn: false,
        minor_major: true,
    };

    /// Two positions with the same pawns and the same black pieces, the white knight moved:
    /// the pawn table cannot tell them apart, the white non-pawn table and the minor pieces'
    /// table can.
    #[test]
    fn non_pawn_tables_learn_errors_the_pawns_share_and_keep_them_apart() {
        let a = pos("r1bqkbnr/pppppppp/2n5/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 0 1");
        let b = pos("r1bqkbnr/pppppppp/2n5/8/8/2N5/PPPPPPPP/R1BQKBNR w KQkq - 0 1");
        let (ka, kb) = (CorrectionKeys::of(&a), CorrectionKeys::of(&b));
        assert_eq!(ka.0[PAWNS], kb.0[PAWNS]);
        assert_ne!(ka.0[NON_PAWN_WHITE], kb.0[NON_PAWN_WHITE]);
        let turn = Color::White;
        for (tables, apart) in [(ON, true), (PAWNS_ONLY, false), (MINOR_MAJOR, true)] {
            let mut c = CorrectionHistory::default();
            for _ in 0..500 {
                c.update(&ka, turn, 15, Score(0), Score(40), tables);
                c.update(&kb, turn, 15, Score(0), Score(-40), tables);
            }
            let ca = c.correct(&ka, turn, Score(0), tables).0;
            let cb = c.correct(&kb, turn, Score(0), tables).0;
            if apart {
                assert!(ca > 30 && cb < -30, "{tables:?}: {ca} {cb}");
            } else {
                // The pawn table alone learns only their average.
                assert!(ca.abs() < 10 && cb.abs() < 10, "{tables:?}: {ca} {cb}");
            }
        }
    }
}
