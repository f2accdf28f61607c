//! The classical evaluation: hand-written terms, linear in their parameters, fitted by
//! `cutoff tune`.
//!
//! Material and piece-square tables relative to both kings form the root; mobility, pawn
//! structure, king safety, threats and piece terms are added, each a named group of the one
//! weight table ([`params`], [`weights`]). Every term has a middlegame and an endgame value; the
//! two sums are blended by the game phase (how much non-pawn material is left), the endgame sum
//! first scaled down in drawish endings ([`scale`]).
//!
//! The code is written once, generic over a [`trace::Trace`]: the search pays nothing for it,
//! the tuner reads each parameter's coefficient from it, and the `eval` command each term's
//! contribution.

pub mod bits;
mod king;
pub mod params;
mod pawn_cache;
mod pawns;
mod pieces;
pub mod report;
pub mod scale;
pub mod taper;
pub mod trace;
pub mod weights;

use shakmaty::attacks::king_attacks;
use shakmaty::{Board, Chess, Color, Position, Role, Square};

use crate::types::Score;
use bits::pawn_attacks;
use params::{MATERIAL, PST_ENEMY_KING, PST_OWN_KING, TEMPO};
use taper::Packed;
pub use taper::Taper;
use trace::{NoTrace, Trace};
use weights::WEIGHTS;

pub use pawn_cache::PawnCache;

/// How much each role counts towards the middlegame phase; a full board is `MAX_PHASE`.
pub const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];
pub const MAX_PHASE: i32 = 24;

/// The parts of an evaluation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Breakdown {
    /// White's middlegame and endgame sums minus Black's.
    pub white_minus_black: Taper,
    /// 0 (bare kings and pawns) to `MAX_PHASE` (all pieces on the board).
    pub phase: i32,
    /// Endgame scale, `scale::SCALE_NORMAL` when nothing is drawish.
    pub scale: i32,
    /// The blended value from White's side.
    pub white: i32,
}

/// The blend of a middlegame/endgame sum: `(mg·phase + eg·scale/128·(24 − phase)) / 24`, in
/// integers (the tuner reproduces it exactly).
#[inline]
pub fn blend(sum: Taper, phase: i32, scale: i32) -> i32 {
    let normal = scale::SCALE_NORMAL;
    (sum.mg * phase * normal + sum.eg * (MAX_PHASE - phase) * scale) / (MAX_PHASE * normal)
}

/// [`WEIGHTS`], packed for the running sums.
static PACKED_WEIGHTS: [Packed; params::COUNT] = {
    let mut packed = [Packed::new(Taper { mg: 0, eg: 0 }); params::COUNT];
    let mut i = 0;
    while i < params::COUNT {
        packed[i] = Packed::new(WEIGHTS[i]);
        i += 1;
    }
    packed
};

/// Material and both placement entries of a piece summed, `[role][own mirror][enemy
/// mirror][relative square]` (a mirror index 1 when that king stands on the a–d files): the
/// search adds one packed value per piece where the tracing evaluation adds three terms. The
/// sums are the same integers, so the result is too.
static PLACEMENT: [[[[Packed; 64]; 2]; 2]; 6] = {
    let mut table = [[[[Packed::new(Taper { mg: 0, eg: 0 }); 64]; 2]; 2]; 6];
    let mut r = 0;
    while r < 6 {
        let mut own = 0;
        while own < 2 {
            let mut enemy = 0;
            while enemy < 2 {
                let mut sq = 0;
                while sq < 64 {
                    let own_sq = sq ^ (own * 7);
                    let enemy_sq = sq ^ (enemy * 7);
                    let sum = add_tapers(
                        WEIGHTS[MATERIAL + r],
                        add_tapers(
                            WEIGHTS[PST_OWN_KING + r * 64 + own_sq],
                            WEIGHTS[PST_ENEMY_KING + r * 64 + enemy_sq],
                        ),
                    );
                    table[r][own][enemy][sq] = Packed::new(sum);
                    sq += 1;
                }
                enemy += 1;
            }
            own += 1;
        }
        r += 1;
    }
    table
};

/// `a + b` where a constant needs it (`Add` is not `const`).
const fn add_tapers(a: Taper, b: Taper) -> Taper {
    Taper {
        mg: a.mg + b.mg,
        eg: a.eg + b.eg,
    }
}

/// What one side attacks, filled in as the evaluation goes.
#[derive(Clone, Copy, Debug, Default)]
struct Side {
    pawn_attacks: u64,
    /// Attacks by role (pawn to king).
    by_role: [u64; 6],
    all: u64,
    /// Squares attacked at least twice.
    twice: u64,
    /// The king's square and its neighbours.
    king_zone: u64,
    /// Attack units of enemy pieces on this side's king zone, and their attacks on it.
    zone_units: i32,
    zone_attacks: i32,
}

/// One evaluation in progress.
struct Eval<'a, T: Trace> {
    board: &'a Board,
    occupied: u64,
    /// White's side, Black's side.
    sides: [Side; 2],
    /// White's and Black's sums.
    score: [Packed; 2],
    trace: &'a mut T,
    /// Where the pawn-only terms of earlier pawn structures are kept (the search's evaluator
    /// has one; the tools evaluate without).
    pawn_cache: Option<&'a mut PawnCache>,
}

fn side_index(color: Color) -> usize {
    usize::from(color.is_black())
}

impl<'a, T: Trace> Eval<'a, T> {
    /// Parameter `index` counts `count` times for `color`.
    #[inline]
    fn add(&mut self, index: usize, color: Color, count: i32) {
        self.score[side_index(color)] += PACKED_WEIGHTS[index] * count;
        self.trace.add(index, color, count);
    }

    fn side(&self, color: Color) -> &Side {
        &self.sides[side_index(color)]
    }

    fn side_mut(&mut self, color: Color) -> &mut Side {
        &mut self.sides[side_index(color)]
    }

    fn pawns_of(&self, color: Color) -> u64 {
        u64::from(self.board.by_piece(Role::Pawn.of(color)))
    }

    fn pieces_of(&self, color: Color) -> u64 {
        u64::from(self.board.by_color(color))
    }

    fn kings(&self) -> u64 {
        u64::from(self.board.kings())
    }

    fn king(&self, color: Color) -> Option<u32> {
        self.board.king_of(color).map(u32::from)
    }

    /// Material and both king-relative placement tables; returns the phase.
    fn material_and_placement(&mut self) -> i32 {
        // A king on the a–d files mirrors the board so that it stands on the e–h half.
        let mirrors = [Color::White, Color::Black]
            .map(|c| self.king(c).map_or(0, |k| if k % 8 < 4 { 7 } else { 0 }));
        let mut phase = 0;
        for color in Color::ALL {
            let own_side = if color.is_white() { 0 } else { 56 };
            let own_mirror = mirrors[side_index(color)];
            let enemy_mirror = mirrors[side_index(!color)];
            for role in Role::ALL {
                let r = role as usize - 1;
                let pieces = u64::from(self.board.by_piece(role.of(color)));
                phase += PHASE_WEIGHT[r] * bits::count(pieces);
                if T::CACHEABLE {
                    // Nobody watches the terms: one summed entry per piece.
                    let table =
                        &PLACEMENT[r][usize::from(own_mirror != 0)][usize::from(enemy_mirror != 0)];
                    let mut sum = Packed::default();
                    for sq in bits::squares(pieces) {
                        sum += table[sq as usize ^ own_side];
                    }
                    self.score[side_index(color)] += sum;
                    continue;
                }
                for sq in bits::squares(pieces) {
                    let relative = sq as usize ^ own_side;
                    self.add(MATERIAL + r, color, 1);
                    self.add(PST_OWN_KING + r * 64 + (relative ^ own_mirror), color, 1);
                    self.add(
                        PST_ENEMY_KING + r * 64 + (relative ^ enemy_mirror),
                        color,
                        1,
                    );
                }
            }
        }
        phase.min(MAX_PHASE)
    }

    /// Pawn and king attacks and the king zone of `color`: what the other terms start from.
    fn init_side(&mut self, color: Color) {
        let pawns = pawn_attacks(color, self.pawns_of(color));
        let king = self.king(color);
        let king_attacks = king.map_or(0, |k| u64::from(king_attacks(Square::new(k))));
        let side = self.side_mut(color);
        side.pawn_attacks = pawns;
        side.by_role[0] = pawns;
        side.by_role[5] = king_attacks;
        side.twice = pawns & king_attacks;
        side.all = pawns | king_attacks;
        side.king_zone = king_attacks | king.map_or(0, |k| 1u64 << k);
    }

    fn run(mut self, turn: Color) -> Breakdown {
        let phase = self.material_and_placement();
        for color in Color::ALL {
            self.init_side(color);
        }
        for color in Color::ALL {
            self.mobility(color);
        }
        self.pawns();
        for color in Color::ALL {
            self.king_safety(color);
            self.threats(color);
            self.piece_extras(color);
        }
        self.add(TEMPO, turn, 1);
        let sum = (self.score[0] - self.score[1]).unpack();
        let scale = scale::endgame_scale(self.board, sum.eg);
        Breakdown {
            white_minus_black: sum,
            phase,
            scale,
            white: blend(sum, phase, scale),
        }
    }
}

/// Evaluates `board` with `turn` to move from White's side, telling `trace` every term.
pub fn traced<T: Trace>(board: &Board, turn: Color, trace: &mut T) -> Breakdown {
    Eval {
        board,
        occupied: u64::from(board.occupied()),
        sides: [Side::default(); 2],
        score: [Packed::default(); 2],
        trace,
        pawn_cache: None,
    }
    .run(turn)
}

/// The position's value for the side to move, in centipawns, with the pawn-only terms kept in
/// `cache`: the same value as [`evaluate`], faster. The search's evaluator calls it.
#[inline]
pub fn evaluate_cached(pos: &Chess, cache: &mut PawnCache) -> Score {
    let board = pos.board();
    let white = Eval {
        board,
        occupied: u64::from(board.occupied()),
        sides: [Side::default(); 2],
        score: [Packed::default(); 2],
        trace: &mut NoTrace,
        pawn_cache: Some(cache),
    }
    .run(pos.turn())
    .white;
    for_side_to_move(pos, white)
}

/// A value from White's side as the side to move sees it.
#[inline]
fn for_side_to_move(pos: &Chess, white: i32) -> Score {
    Score(match pos.turn() {
        Color::White => white,
        Color::Black => -white,
    })
}

/// Evaluates the position from White's side.
pub fn breakdown(pos: &Chess) -> Breakdown {
    traced(pos.board(), pos.turn(), &mut NoTrace)
}

/// The position's value for the side to move, in centipawns (no cache: for the tools and
/// tests; the search evaluates through its `eval::Evaluator`).
#[inline]
pub fn evaluate(pos: &Chess) -> Score {
    for_side_to_move(pos, breakdown(pos).white)
}

#[cfg(test)]
mod tests;
