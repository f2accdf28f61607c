//! King safety, credited to the defending side: the danger of the attacks on its king zone
//! (non-linear through the `KING_DANGER` table), safe checks, pawn shield and storm, and open
//! files next to the king.

use shakmaty::attacks::{bishop_attacks, knight_attacks, rook_attacks};
use shakmaty::{Bitboard, Color, Square};

use super::bits::{count, front_span, FILE_A};
use super::params::{
    KING_DANGER, KING_FILE, KING_ZONE_ATTACKS, PAWN_SHIELD, PAWN_STORM, SAFE_CHECK,
};
use super::trace::Trace;
use super::Eval;

/// The last `KING_DANGER` index: more attack units count as this many.
const MAX_UNITS: i32 = 24;
/// Shield and storm distances of three or more ranks share an entry.
const MAX_PAWN_DISTANCE: u32 = 3;

impl<T: Trace> Eval<'_, T> {
    /// The safety of `color`'s king.
    pub(super) fn king_safety(&mut self, color: Color) {
        let Some(king) = self.king(color) else {
            return;
        };
        let side = *self.side(color);
        self.add(
            KING_DANGER + side.zone_units.min(MAX_UNITS) as usize,
            color,
            1,
        );
        self.add(KING_ZONE_ATTACKS, color, side.zone_attacks);
        self.safe_checks(color, king);
        self.shelter(color, king);
    }

    /// Squares from which an enemy piece that can reach them would check `color`'s king, and
    /// that `color` does not defend.
    fn safe_checks(&mut self, color: Color, king: u32) {
        let enemy = *self.side(!color);
        let safe = !self.side(color).all & !self.side(color).king_zone & !self.pieces_of(!color);
        let square = Square::new(king);
        let occupied = Bitboard(self.occupied);
        let diagonal = u64::from(bishop_attacks(square, occupied));
        let straight = u64::from(rook_attacks(square, occupied));
        let checks = [
            u64::from(knight_attacks(square)) & enemy.by_role[1],
            diagonal & enemy.by_role[2],
            straight & enemy.by_role[3],
            (diagonal | straight) & enemy.by_role[4],
        ];
        for (i, squares) in checks.into_iter().enumerate() {
            self.add(SAFE_CHECK + i, color, count(squares & safe));
        }
    }

    /// Own pawns in front of the king, enemy pawns coming at it, and files without own pawns,
    /// on the king's file and its two neighbours (b–g: a king on a corner file counts b, c).
    fn shelter(&mut self, color: Color, king: u32) {
        let (us, them) = (self.pawns_of(color), self.pawns_of(!color));
        let centre = (king % 8).clamp(1, 6);
        let king_bit = 1u64 << king;
        for file in centre - 1..=centre + 1 {
            let file_mask = FILE_A << file;
            let ahead = front_span(color, level(king_bit, file));
            let shield = nearest(color, ahead & us, king);
            self.add(PAWN_SHIELD + shield, color, 1);
            let storm = nearest(color, ahead & them, king);
            self.add(PAWN_STORM + storm, color, 1);
            if file_mask & us == 0 {
                let open = usize::from(file_mask & them == 0);
                self.add(KING_FILE + open, color, 1);
            }
        }
    }
}

/// The square on `file` on the rank of `king_bit`.
fn level(king_bit: u64, file: u32) -> u64 {
    let rank = king_bit.trailing_zeros() / 8;
    1u64 << (rank * 8 + file)
}

/// 0 when `pawns` is empty, else the rank distance (1 to 3, capped) from the king of the pawn
/// nearest to it among `pawns` (all in front of the king on one file).
fn nearest(color: Color, pawns: u64, king: u32) -> usize {
    if pawns == 0 {
        return 0;
    }
    let sq = if color.is_white() {
        pawns.trailing_zeros()
    } else {
        63 - pawns.leading_zeros()
    };
    let distance = (sq / 8).abs_diff(king / 8);
    distance.clamp(1, MAX_PAWN_DISTANCE) as usize
}
