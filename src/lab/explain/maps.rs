//! The placement map of a piece (role and colour): over a sample of positions, the average
//! change in value from putting that piece on each empty square; for a king, from moving that
//! side's king there. Placements that leave no legal position are skipped. Measured, like a
//! piece's contribution, as differences of whole evaluations through the evaluator door
//! ([`white_value`], [`with_board`]), so the net's and the classical maps compare.

use shakmaty::{Chess, Color, Piece, Position, Role, Square};

use crate::eval::explain::{pawns, white_value, with_board};
use crate::eval::Evaluator;

/// One piece's placement map over a sample: per square, the sum of the changes in value from
/// White's side and how many sample positions gave one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlacementMap {
    pub piece: Piece,
    pub sum: [i64; 64],
    pub count: [u32; 64],
}

impl PlacementMap {
    /// The average change at `sq` in centipawns, if any sample position had a legal placement.
    pub fn mean(&self, sq: usize) -> Option<f64> {
        (self.count[sq] > 0).then(|| self.sum[sq] as f64 / f64::from(self.count[sq]))
    }
}

/// The twelve pieces in the order of the maps: White's pawn to king, then Black's.
pub fn map_pieces() -> [Piece; 12] {
    let mut pieces = [Role::Pawn.of(Color::White); 12];
    for (i, color) in [Color::White, Color::Black].into_iter().enumerate() {
        for (j, role) in Role::ALL.into_iter().enumerate() {
            pieces[i * 6 + j] = role.of(color);
        }
    }
    pieces
}

/// The boards `piece` can be put on in `pos`, with the empty square it goes to: added on every
/// empty square, or for a king, that side's king moved there.
fn placements(pos: &Chess, piece: Piece) -> Vec<(Square, shakmaty::Board)> {
    let board = pos.board();
    let king = (piece.role == Role::King).then(|| board.king_of(piece.color));
    if king.is_some_and(|k| k.is_none()) {
        return Vec::new();
    }
    (!board.occupied())
        .into_iter()
        .map(|sq| {
            let mut b = board.clone();
            if let Some(Some(from)) = king {
                b.discard_piece_at(from);
            }
            b.set_piece_at(sq, piece);
            (sq, b)
        })
        .collect()
}

/// The placement maps of all twelve pieces over `sample`, measured on `evaluator`.
pub fn placement_maps(evaluator: &mut Evaluator, sample: &[Chess]) -> Vec<PlacementMap> {
    let mut maps: Vec<PlacementMap> = map_pieces()
        .into_iter()
        .map(|piece| PlacementMap {
            piece,
            sum: [0; 64],
            count: [0; 64],
        })
        .collect();
    for pos in sample {
        let base = white_value(evaluator, pos);
        for map in &mut maps {
            for (sq, board) in placements(pos, map.piece) {
                if let Some(placed) = with_board(pos, board) {
                    map.sum[sq as usize] += i64::from(white_value(evaluator, &placed) - base);
                    map.count[sq as usize] += 1;
                }
            }
        }
    }
    maps
}

/// A map's averages as text: rank 8 first, in pawns with two decimals; a dot for a square no
/// sample position could take the piece on.
pub fn map_lines(map: &PlacementMap) -> Vec<String> {
    (0..8)
        .rev()
        .map(|rank| {
            let row: Vec<String> = (0..8)
                .map(|file| match map.mean(rank * 8 + file) {
                    Some(cp) => format!("{:>7}", pawns(cp.round() as i32)),
                    None => format!("{:>7}", "."),
                })
                .collect();
            format!("  {} {}", rank + 1, row.join(""))
        })
        .collect()
}
