//! The refresh cache of a net of mirrored inputs: where a king crosses the d/e boundary (or,
//! with king buckets, enters another bucket), its side sees every piece anew and its
//! accumulator must be rebuilt. Rebuilt from the bias,
//! that is a row per piece on the board (about 120 instructions a node of the search, a
//! twelfth of its evaluation's share, on 2 Dec's callgrind run of the first mirrored net);
//! rebuilt from the accumulator the same side last had with its king in that view (the same
//! half and bucket), it is a row per piece that has moved since (an accumulator cache,
//! Koivisto's "Finny table").

use shakmaty::{Bitboard, Board, Color, Piece, Role, Square};

use crate::eval::nnue::aligned::Aligned;
use crate::eval::nnue::kernels::{add_assign, sub_assign};

/// For each perspective and each view its king may give it (`Layout::view_index`: the half
/// of the board, and the king bucket), the accumulator it last had there and the pieces it
/// was built from: exact for those pieces, whatever came between (wrapping sums, so the order
/// of the rows does not matter).
#[derive(Clone, Debug)]
pub(super) struct RefreshCache {
    /// The net's width: each accumulator's length.
    hidden: usize,
    /// `2 · views` accumulators, `[view][perspective (White, Black)]`.
    accs: Aligned,
    /// The pieces each accumulator holds, by colour and role (`[slot][colour · 6 + role − 1]`).
    pieces: Vec<[Bitboard; 12]>,
}

impl RefreshCache {
    /// Every slot empty, one per perspective and each of `views`: the net's bias `b1` alone,
    /// built from no piece.
    pub(super) fn new(b1: &[i16], views: usize) -> RefreshCache {
        let hidden = b1.len();
        let slots = 2 * views;
        let mut accs = Aligned::zeroed(slots * hidden);
        for slot in accs.chunks_exact_mut(hidden) {
            slot.copy_from_slice(b1);
        }
        RefreshCache {
            hidden,
            accs,
            pieces: vec![[Bitboard::EMPTY; 12]; slots],
        }
    }

    /// `acc` becomes the accumulator of `board` as `perspective`, whose king gives it the view
    /// `view` (`Layout::view_index`), sees it (what `Network::refresh_perspective` builds
    /// from scratch): the slot of that view brought up to `board`, a row out for each piece
    /// gone from a square, in for each come, then copied. `row` gives a piece's weights as
    /// this perspective sees it with its king where it stands (the same for every king square
    /// of one view).
    pub(super) fn refresh<'w>(
        &mut self,
        board: &Board,
        perspective: Color,
        view: usize,
        row: impl Fn(Color, Role, Square) -> &'w [i16],
        acc: &mut [i16],
    ) {
        let slot = 2 * view + usize::from(perspective.is_black());
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
