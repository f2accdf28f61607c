//! A per-thread cache of whole evaluations.
//!
//! The search evaluates the same positions again and again: every re-search (iterative
//! deepening, PVS and LMR re-searches, aspiration windows) walks the same subtrees and stands
//! pat at the same quiescence nodes. An evaluation costs thousands of instructions; finding it
//! here costs a few dozen.
//!
//! The evaluation reads only the board and the side to move, so an entry stores exactly those
//! (the six role bitboards and White's pieces, from which every square's piece follows) and is
//! used only when all of them are equal: a hit returns what [`evaluate`] would, never a
//! collision's value. The search therefore visits exactly the same tree with the cache as
//! without it.

use shakmaty::{Board, Chess, Color, Position};

use super::evaluate;
use crate::types::Score;

/// Entries (a power of two; 64 bytes each, so 512 KiB per thread).
const ENTRIES: usize = 8192;

/// One cached evaluation: one cache line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C, align(64))]
struct Entry {
    /// Pawns, knights, bishops, rooks, queens, kings, then White's pieces.
    board: [u64; 7],
    /// The score (for the side to move) in the low 32 bits, the side to move in bit 32 (set
    /// for Black) and bit 33 set once the entry is filled.
    turn_score: u64,
}

const FILLED: u64 = 1 << 33;

/// The key an entry is verified against: the whole input of the evaluation.
#[inline]
fn board_words(board: &Board) -> [u64; 7] {
    [
        board.pawns().0,
        board.knights().0,
        board.bishops().0,
        board.rooks().0,
        board.queens().0,
        board.kings().0,
        board.white().0,
    ]
}

#[inline]
fn turn_bits(turn: Color) -> u64 {
    FILLED | (u64::from(turn.is_black()) << 32)
}

/// The slot of a board: a multiplicative mix of its words (any mix would do; a poor one only
/// costs hits).
#[inline]
fn slot(words: &[u64; 7], turn: Color) -> usize {
    const MIX: [u64; 7] = [
        0x9E37_79B9_7F4A_7C15,
        0xC2B2_AE3D_27D4_EB4F,
        0x1656_67B1_9E37_79F9,
        0xD6E8_FEB8_6659_FD93,
        0xFF51_AFD7_ED55_8CCD,
        0xC4CE_B9FE_1A85_EC53,
        0x2545_F491_4F6C_DD1D,
    ];
    let mut h = u64::from(turn.is_black());
    for (w, m) in words.iter().zip(MIX) {
        h ^= w.wrapping_mul(m);
    }
    (h >> 40) as usize & (ENTRIES - 1)
}

/// A direct-mapped table of evaluations, owned by one search thread and kept between its
/// searches (the evaluation never changes, so no entry goes stale).
pub struct EvalCache(Box<[Entry]>);

impl Default for EvalCache {
    fn default() -> Self {
        EvalCache(vec![Entry::default(); ENTRIES].into_boxed_slice())
    }
}

impl EvalCache {
    /// Exactly [`evaluate`]`(pos)`, from the cache when the same board with the same side to
    /// move was evaluated before and not overwritten since.
    #[inline]
    pub fn evaluate(&mut self, pos: &Chess) -> Score {
        let words = board_words(pos.board());
        let turn = pos.turn();
        let entry = &mut self.0[slot(&words, turn)];
        let bits = turn_bits(turn);
        if entry.board == words && entry.turn_score & !0xFFFF_FFFF == bits {
            return Score(entry.turn_score as u32 as i32);
        }
        let score = evaluate(pos);
        *entry = Entry {
            board: words,
            turn_score: bits | u64::from(score.0 as u32),
        };
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::{read_fen, FenPolicy};
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, EnPassantMode};

    fn pos(fen: &str) -> Chess {
        read_fen(fen, CastlingMode::Standard, FenPolicy::Strict).unwrap()
    }

    /// Every position of seeded random games, many of them repeated and many sharing slots in
    /// a cache this small: each answer must equal a fresh evaluation.
    #[test]
    fn cached_evaluations_equal_fresh_ones() {
        let mut cache = EvalCache::default();
        let positions = crate::eval::tests::random_positions(60, 120);
        assert!(positions.len() > ENTRIES / 2);
        // Twice over, so the second pass hits where the first one left entries.
        for p in positions.iter().chain(&positions) {
            assert_eq!(
                cache.evaluate(p),
                evaluate(p),
                "{}",
                Fen::from_position(p, EnPassantMode::Legal)
            );
        }
    }

    /// The same board with the other side to move is another position for the evaluation
    /// (the tempo, and the sign): one must never be answered from the other's entry.
    #[test]
    fn the_side_to_move_is_part_of_the_key() {
        let white = pos("4k3/8/8/3q4/8/8/8/4K2R w - - 0 1");
        let black = pos("4k3/8/8/3q4/8/8/8/4K2R b - - 0 1");
        let mut cache = EvalCache::default();
        assert_eq!(cache.evaluate(&white), evaluate(&white));
        assert_eq!(cache.evaluate(&black), evaluate(&black));
        assert_eq!(cache.evaluate(&white), evaluate(&white));
        assert_ne!(evaluate(&white), evaluate(&black));
    }
}
