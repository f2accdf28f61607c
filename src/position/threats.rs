//! The squares one side attacks: what threat-aware quiet history is keyed by (a quiet move
//! that leaves an attacked square, or steps onto one, is judged apart from the same move
//! elsewhere).

use shakmaty::attacks::{bishop_attacks, king_attacks, knight_attacks, rook_attacks};
use shakmaty::{Bitboard, Board, Color, File};

/// The squares `color`'s `pawns` attack, all at once (two shifts, the edge files masked): what
/// the classical evaluation's pawn terms and [`attacked_by`] both read.
#[inline]
pub fn pawns_attack(color: Color, pawns: Bitboard) -> Bitboard {
    const FILE_A: u64 = Bitboard::from_file(File::A).0;
    const FILE_H: u64 = Bitboard::from_file(File::H).0;
    let b = pawns.0;
    Bitboard(if color.is_white() {
        ((b << 7) & !FILE_H) | ((b << 9) & !FILE_A)
    } else {
        ((b >> 9) & !FILE_H) | ((b >> 7) & !FILE_A)
    })
}

/// Every square a piece of `side` attacks on `board` (sliders stopped by any piece), whether
/// or not a piece of either colour stands there.
#[inline]
pub fn attacked_by(board: &Board, side: Color) -> Bitboard {
    let ours = board.by_color(side);
    let occupied = board.occupied();
    let mut attacked = pawns_attack(side, board.pawns() & ours);
    for sq in board.knights() & ours {
        attacked |= knight_attacks(sq);
    }
    for sq in (board.bishops() | board.queens()) & ours {
        attacked |= bishop_attacks(sq, occupied);
    }
    for sq in (board.rooks() | board.queens()) & ours {
        attacked |= rook_attacks(sq, occupied);
    }
    for sq in board.kings() & ours {
        attacked |= king_attacks(sq);
    }
    attacked
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::pos;
    use shakmaty::{Position, Square};

    /// Each piece kind adds its own squares, sliders stop at the first piece, and squares
    /// only the other side attacks are left out.
    #[test]
    fn attacked_squares_are_those_of_each_piece_of_the_side_only() {
        // Black: king e8, pawn d5 (attacks c4, e4), knight a8 (b6, c7), rook h8 blocked by
        // the h6 pawn of White; White's pieces attack other squares.
        let p = pos("n3k2r/8/7P/3p4/8/8/8/4K3 w - - 0 1");
        let black = attacked_by(p.board(), Color::Black);
        for sq in [
            Square::C4,
            Square::E4,
            Square::B6,
            Square::C7,
            Square::H6,
            Square::G8,
        ] {
            assert!(black.contains(sq), "{sq:?} not attacked");
        }
        for sq in [Square::H5, Square::D4, Square::G7, Square::E1, Square::H1] {
            assert!(!black.contains(sq), "{sq:?} attacked");
        }
        let expected: Bitboard = p
            .board()
            .by_color(Color::Black)
            .into_iter()
            .map(|sq| p.board().attacks_from(sq))
            .fold(Bitboard::EMPTY, |a, b| a | b);
        assert_eq!(black, expected);
        assert_eq!(
            attacked_by(p.board(), Color::White),
            p.board()
                .by_color(Color::White)
                .into_iter()
                .map(|sq| p.board().attacks_from(sq))
                .fold(Bitboard::EMPTY, |a, b| a | b)
        );
    }
}
