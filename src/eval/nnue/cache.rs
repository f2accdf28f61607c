//! The refresh cache of a net of mirrored inputs: where a king crosses the d/e boundary, its
//! side sees every piece flipped and its accumulator must be rebuilt. Rebuilt from the bias,
//! that is a row per piece on the board (about 120 instructions a node of the search, a
//! twelfth of its evaluation's share, on 2 Dec's callgrind run of the first mirrored net);
//! rebuilt from the accumulator the same side last had with its king on that half, it is a
//! row per piece that has moved since (an accumulator cache, Koivisto's "Finny table").

use shakmaty::{Bitboard, Board, Color, File, Piece, Role, Square};

use crate::eval::nnue::aligned::Aligned;
use crate::eval::nnue::kernels::{add_assign, sub_assign};

/// For each perspective and each half of the board its king may stand on, the accumulator it
/// last had there and the pieces it was built from: exact for those pieces, whatever came
/// between (wrapping sums, so the order of the rows does not matter).
#[derive(Clone, Debug)]
pub(super) struct RefreshCache {
    /// The net's width: each accumulator's length.
    hidden: usize,
    /// Four accumulators, `[perspective (White, Black)][half (a-d, e-h)]`.
    accs: Aligned,
    /// The pieces each accumulator holds, by colour and role (`[slot][colour · 6 + role − 1]`).
    pieces: [[Bitboard; 12]; 4],
}

impl RefreshCache {
    /// Every slot empty: the net's bias `b1` alone, built from no piece.
    pub(super) fn new(b1: &[i16]) -> RefreshCache {
        let hidden = b1.len();
        let mut accs = Aligned::zeroed(4 * hidden);
        for slot in accs.chunks_exact_mut(hidden) {
            slot.copy_from_slice(b1);
        }
        RefreshCache {
            hidden,
            accs,
            pieces: [[Bitboard::EMPTY; 12]; 4],
        }
    }

    /// `acc` becomes the accumulator of `board` as `perspective`, whose king stands on `king`,
    /// sees it (what `Network::refresh_perspective` builds from scratch): the slot of its
    /// king's half brought up to `board`, a row out for each piece gone from a square, in for
    /// each come, then copied. `row` gives a piece's weights as this perspective sees it with
    /// its king there (the input's flip is the same anywhere on one half).
    pub(super) fn refresh<'w>(
        &mut self,
        board: &Board,
        perspective: Color,
        king: Square,
        row: impl Fn(Color, Role, Square) -> &'w [i16],
        acc: &mut [i16],
    ) {
        let slot = 2 * usize::from(perspective.is_black()) + usize::from(king.file() >= File::E);
        let n = self.hidden;
        let cached = &mut self.accs[slot * n..(slot + 1) * n];
        let mut kind = 0;
        for color in Color::ALL {
            for role in Role::ALL {
                let now = board.by_piece(Piece { color, role });
                let was = std::mem::replace(&mut self.pieces[slot][kind], now);
                kind += 1;
                for sq in was & !now {
                    sub_assign(cached, row(color, role, sq));
                }
                for sq in now & !was {
                    add_assign(cached, row(color, role, sq));
                }
            }
        }
        acc.copy_from_slice(cached);
    }
}
