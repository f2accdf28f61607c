//! Pawn structure: passed pawns (by rank, blocked, safe to push, king distances), isolated,
//! doubled, backward, phalanx and defended pawns.
//!
//! Everything but the passers' extra terms depends on the pawns alone, and the pawns change in
//! few moves of a search: that part and the set of passed pawns are kept in a [`PawnCache`]
//! keyed by both pawn bitboards, which each search thread's evaluator owns.

use shakmaty::Color;

use super::bits::{beside, file_fill, forward, front_span, pawn_attacks, relative_rank, squares};
use super::params::{
    BACKWARD, DEFENDED_PAWN, DOUBLED, ISOLATED, PASSED, PASSED_BLOCKED, PASSED_ENEMY_KING_DISTANCE,
    PASSED_OWN_KING_DISTANCE, PASSED_SAFE_PUSH, PHALANX,
};
use super::pawn_cache::{slot, PawnCache, PawnEntry};
use super::trace::Trace;
use super::{side_index, Eval};

/// Chebyshev distance: the king moves it takes.
fn distance(a: u32, b: u32) -> i32 {
    let (fa, ra) = ((a % 8) as i32, (a / 8) as i32);
    let (fb, rb) = ((b % 8) as i32, (b / 8) as i32);
    (fa - fb).abs().max((ra - rb).abs())
}

impl<T: Trace> Eval<'_, T> {
    /// The pawn terms of both sides: the pawn-only part from the cache when there is one and
    /// the trace allows, then the passers' terms that depend on the pieces.
    pub(super) fn pawns(&mut self) {
        let pawns = [self.pawns_of(Color::White), self.pawns_of(Color::Black)];
        let passed = match self.pawn_cache.take() {
            Some(cache) if T::CACHEABLE => {
                let passed = self.cached_pawn_structure(&mut *cache, pawns);
                self.pawn_cache = Some(cache);
                passed
            }
            none => {
                self.pawn_cache = none;
                Color::ALL.map(|c| self.pawn_structure(c))
            }
        };
        for color in Color::ALL {
            for sq in squares(passed[side_index(color)]) {
                self.passed(color, sq, relative_rank(color, sq));
            }
        }
    }

    /// Both sides' pawn-only terms and passed pawns, from `cache` or computed and stored there.
    #[inline]
    fn cached_pawn_structure(&mut self, cache: &mut PawnCache, pawns: [u64; 2]) -> [u64; 2] {
        let slot = slot(pawns);
        let cached = cache.0[slot];
        if cached.pawns == pawns {
            self.score[0] += cached.score[0];
            self.score[1] += cached.score[1];
            return cached.passed;
        }
        let before = self.score;
        let entry = PawnEntry {
            pawns,
            // `Color::ALL` is White, Black: the side order.
            passed: Color::ALL.map(|c| self.pawn_structure(c)),
            score: [self.score[0] - before[0], self.score[1] - before[1]],
        };
        cache.0[slot] = entry;
        entry.passed
    }

    /// The pawn-only terms of `color`; returns its passed pawns.
    fn pawn_structure(&mut self, color: Color) -> u64 {
        let us = self.pawns_of(color);
        let them = self.pawns_of(!color);
        let their_attacks = self.side(!color).pawn_attacks;
        // Squares a pawn of ours must not stand behind (on its file or a neighbour) to be passed.
        let blocked_by_them = {
            let span = front_span(!color, them);
            span | beside(span)
        };
        let mut passed = 0;
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
                self.add(PASSED + rank, color, 1);
                passed |= b;
            }
        }
        passed
    }

    /// The terms of a passed pawn of `color` on `sq` (relative `rank`) that read the pieces.
    fn passed(&mut self, color: Color, sq: u32, rank: usize) {
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
