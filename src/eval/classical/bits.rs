//! Bitboard helpers the evaluation needs beyond shakmaty's (fills, spans, pawn attack sets),
//! on raw `u64`s: a1 = bit 0, h8 = bit 63.

use shakmaty::{Bitboard, Color};

pub const FILE_A: u64 = 0x0101_0101_0101_0101;
pub const FILE_H: u64 = FILE_A << 7;
/// The light squares (b1, d1, ..., a2, ...).
pub const LIGHT_SQUARES: u64 = 0x55AA_55AA_55AA_55AA;

#[inline]
pub fn north_fill(mut b: u64) -> u64 {
    b |= b << 8;
    b |= b << 16;
    b | b << 32
}

#[inline]
pub fn south_fill(mut b: u64) -> u64 {
    b |= b >> 8;
    b |= b >> 16;
    b | b >> 32
}

/// Every square of the files that hold a square of `b`.
#[inline]
pub fn file_fill(b: u64) -> u64 {
    north_fill(b) | south_fill(b)
}

/// The squares beside those of `b` on the same rank.
#[inline]
pub fn beside(b: u64) -> u64 {
    ((b << 1) & !FILE_A) | ((b >> 1) & !FILE_H)
}

/// One rank towards the other side.
#[inline]
pub fn forward(color: Color, b: u64) -> u64 {
    if color.is_white() {
        b << 8
    } else {
        b >> 8
    }
}

/// All squares strictly in front of `b` on its files, from `color`'s side.
#[inline]
pub fn front_span(color: Color, b: u64) -> u64 {
    if color.is_white() {
        north_fill(b << 8)
    } else {
        south_fill(b >> 8)
    }
}

/// The squares `color`'s pawns on `b` attack (the board's own set-wise rule, on raw bits).
#[inline]
pub fn pawn_attacks(color: Color, b: u64) -> u64 {
    crate::position::pawns_attack(color, Bitboard(b)).0
}

/// Rank 0 (own back rank) to 7, seen from `color`'s side.
#[inline]
pub fn relative_rank(color: Color, square: u32) -> usize {
    let rank = (square / 8) as usize;
    if color.is_white() {
        rank
    } else {
        7 - rank
    }
}

#[inline]
pub fn count(b: u64) -> i32 {
    b.count_ones() as i32
}

/// The squares of `b`, lowest first.
#[inline]
pub fn squares(mut b: u64) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        (b != 0).then(|| {
            let sq = b.trailing_zeros();
            b &= b - 1;
            sq
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_and_attacks_stay_on_the_board() {
        let a2 = 1u64 << 8;
        let h7 = 1u64 << 55;
        assert_eq!(pawn_attacks(Color::White, a2), 1 << 17);
        assert_eq!(pawn_attacks(Color::Black, h7), 1 << 46);
        assert_eq!(front_span(Color::White, a2).count_ones(), 6);
        assert_eq!(front_span(Color::Black, h7).count_ones(), 6);
        assert_eq!(beside(1), 2);
        assert_eq!(beside(1 << 7), 1 << 6);
        assert_eq!(file_fill(1 << 35), FILE_A << 3);
        assert_eq!(squares(0b1010).collect::<Vec<_>>(), vec![1, 3]);
        assert_eq!(relative_rank(Color::Black, 8), 6);
    }
}
