//! Pawn structure: passed pawns (by rank, blocked, safe to push, king distances), isolated,
//! doubled, backward, phalanx and defended pawns.

use shakmaty::Color;

use super::bits::{beside, file_fill, forward, front_span, pawn_attacks, relative_rank, squares};
use super::params::{
    BACKWARD, DEFENDED_PAWN, DOUBLED, ISOLATED, PASSED, PASSED_BLOCKED, PASSED_ENEMY_KING_DISTANCE,
    PASSED_OWN_KING_DISTANCE, PASSED_SAFE_PUSH, PHALANX,
};
use super::trace::Trace;
use super::Eval;

/// Chebyshev distance: the king moves it takes.
fn distance(a: u32, b: u32) -> i32 {
    let (fa, ra) = ((a % 8) as i32, (a / 8) as i32);
    let (fb, rb) = ((b % 8) as i32, (b / 8) as i32);
    (fa - fb).abs().max((ra - rb).abs())
}

impl<T: Trace> Eval<'_, T> {
    /// The pawn terms of `color`.
    pub(super) fn pawns(&mut self, color: Color) {
        let us = self.pawns_of(color);
        let them = self.pawns_of(!color);
        let their_attacks = self.side(!color).pawn_attacks;
        // Squares a pawn of ours must not stand behind (on its file or a neighbour) to be passed.
        let blocked_by_them = {
            let span = front_span(!color, them);
            span | beside(span)
        };
        for sq in squares(us) {
            let b = 1u64 << sq;
            let rank = relative_rank(color, sq);
            let neighbours = beside(file_fill(b)) & us;
            if neighbours == 0 {
                self.add(ISOLATED, color, 1);
            }
            if front_span(color, b) & us != 0 {
                self.add(DOUBLED, color, 1);
            }
            // Backward: no pawn of ours beside it or behind it on a neighbouring file can come
            // to defend it, and an enemy pawn stops it from advancing.
            let level_or_behind = beside(b | front_span(!color, b));
            if neighbours != 0
                && level_or_behind & us == 0
                && forward(color, b) & their_attacks != 0
            {
                self.add(BACKWARD, color, 1);
            }
            if beside(b) & us != 0 {
                self.add(PHALANX + rank, color, 1);
            }
            if pawn_attacks(!color, b) & us != 0 {
                self.add(DEFENDED_PAWN + rank, color, 1);
            }
            if b & blocked_by_them == 0 && front_span(color, b) & us == 0 {
                self.passed(color, sq, rank);
            }
        }
    }

    /// The extra terms of a passed pawn of `color` on `sq` (relative `rank`).
    fn passed(&mut self, color: Color, sq: u32, rank: usize) {
        self.add(PASSED + rank, color, 1);
        let stop = forward(color, 1u64 << sq);
        if stop == 0 {
            return;
        }
        if stop & self.occupied != 0 {
            self.add(PASSED_BLOCKED + rank, color, 1);
        }
        if stop & self.side(!color).all == 0 {
            self.add(PASSED_SAFE_PUSH + rank, color, 1);
        }
        let stop_sq = stop.trailing_zeros();
        if let Some(king) = self.king(color) {
            self.add(
                PASSED_OWN_KING_DISTANCE + rank,
                color,
                distance(king, stop_sq),
            );
        }
        if let Some(king) = self.king(!color) {
            self.add(
                PASSED_ENEMY_KING_DISTANCE + rank,
                color,
                distance(king, stop_sq),
            );
        }
    }
}
