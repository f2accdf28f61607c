//! The history tables: what the search learnt about moves, kept from one search to the next
//! (butterfly, continuation and capture histories), and the keys they are indexed by.

use shakmaty::{Color, Move, Role};

use super::correction::CorrectionHistory;
use crate::params::*;
use crate::types::Depth;

/// A piece of one colour arriving on a square (12 × 64 values): what the continuation and
/// capture histories are keyed by, since "a knight to f5" means more than "g3 to f5".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceTo(u16);

/// The number of [`PieceTo`] values.
const PIECE_TO: usize = 12 * 64;

impl PieceTo {
    #[inline]
    pub fn of(side: Color, m: &Move) -> PieceTo {
        PieceTo::new(side, m.role(), usize::from(m.to()))
    }

    /// A `side` `role` arriving on square index `to`.
    #[inline]
    fn new(side: Color, role: Role, to: usize) -> PieceTo {
        let piece = side as usize * 6 + (role as usize - 1);
        PieceTo((piece * 64 + to) as u16)
    }

    #[inline]
    fn index(self) -> usize {
        usize::from(self.0)
    }
}

/// The moves that led to a node, newest first: the opponent's last move and ours before it
/// (`None` after a null move or near the root). Continuation history scores a quiet move by
/// how well it answered the same moves elsewhere in the tree.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Continuation(pub [Option<PieceTo>; 2]);

/// Moves a gravity entry towards `bonus`'s sign: `entry` stays within `HISTORY_MAX`, and
/// old knowledge fades as new arrives.
#[inline]
fn gravity(entry: &mut i16, bonus: i32) {
    let e = i32::from(*entry);
    *entry = (e + bonus - e * bonus.abs() / HISTORY_MAX) as i16;
}

/// What the search learnt about moves, kept from one search to the next: how often a quiet
/// move (by side, from- and to-square) caused cutoffs (the butterfly history), the same after
/// each of the two moves before it (continuation history), and how often a capture (by piece,
/// square and victim) did (capture history). Every value ages by gravity.
pub struct History {
    quiet: Box<[[[i32; 64]; 64]; 2]>,
    /// Indexed by the earlier move's [`PieceTo`], then this move's.
    continuation: Box<[[i16; PIECE_TO]]>,
    /// Indexed by the capture's [`PieceTo`], then the victim's role (0: none, a promotion).
    capture: Box<[[i16; 7]]>,
    /// Not about moves, but learnt and kept the same way: the evaluation's errors.
    pub correction: CorrectionHistory,
}

impl Default for History {
    fn default() -> Self {
        // Built on the heap: the continuation table (1.2 MB) would not fit a test thread's stack.
        History {
            quiet: Box::new([[[0; 64]; 64]; 2]),
            continuation: vec![[0; PIECE_TO]; PIECE_TO].into_boxed_slice(),
            capture: vec![[0; 7]; PIECE_TO].into_boxed_slice(),
            correction: CorrectionHistory::default(),
        }
    }
}

impl History {
    #[inline]
    fn slot(&mut self, side: Color, m: &Move) -> &mut i32 {
        let from = m.from().map_or(0, usize::from);
        &mut self.quiet[side as usize][from][usize::from(m.to())]
    }

    /// The butterfly history of a quiet move.
    #[inline]
    pub fn get(&self, side: Color, m: &Move) -> i32 {
        let from = m.from().map_or(0, usize::from);
        self.quiet[side as usize][from][usize::from(m.to())]
    }

    /// A quiet move's ordering score: its butterfly history plus, with `continuation`, its
    /// history after each of the moves that led here.
    #[inline]
    pub fn quiet_score(&self, side: Color, m: &Move, context: Option<&Continuation>) -> i32 {
        // One match on the move for all three tables (shakmaty's accessors each match again).
        let (role, from, to) = match *m {
            Move::Normal { role, from, to, .. } => (role, usize::from(from), usize::from(to)),
            _ => (
                m.role(),
                m.from().map_or(0, usize::from),
                usize::from(m.to()),
            ),
        };
        // Squares are below 64: the masks let the compiler drop the bounds checks.
        let mut score = self.quiet[side as usize][from & 63][to & 63];
        if let Some(&Continuation([previous, before])) = context {
            // The two entries read one by one (a loop over them cost a third of the call).
            let piece_to = PieceTo::new(side, role, to & 63).index();
            if let Some(prev) = previous {
                score += i32::from(self.continuation[prev.index()][piece_to]);
            }
            if let Some(prev) = before {
                score += i32::from(self.continuation[prev.index()][piece_to]);
            }
        }
        score
    }

    /// A capture's (or promotion's) history.
    #[inline]
    pub fn capture_score(&self, side: Color, m: &Move) -> i32 {
        i32::from(self.capture[PieceTo::of(side, m).index()][victim_index(m)])
    }

    /// Rewards (positive `bonus`) or punishes a move; the "gravity" term keeps values within
    /// `HISTORY_MAX` and lets old knowledge fade.
    pub fn update(&mut self, side: Color, m: &Move, bonus: i32) {
        let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        let h = self.slot(side, m);
        *h += bonus - *h * bonus.abs() / HISTORY_MAX;
    }

    /// Rewards or punishes a quiet move after the moves in `context`.
    pub fn update_continuation(
        &mut self,
        side: Color,
        m: &Move,
        context: &Continuation,
        bonus: i32,
    ) {
        let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        let to = PieceTo::of(side, m).index();
        for prev in context.0.iter().flatten() {
            gravity(&mut self.continuation[prev.index()][to], bonus);
        }
    }

    /// Rewards or punishes a capture or promotion.
    pub fn update_capture(&mut self, side: Color, m: &Move, bonus: i32) {
        let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        let slot = &mut self.capture[PieceTo::of(side, m).index()][victim_index(m)];
        gravity(slot, bonus);
    }

    /// The bonus for a cutoff at `depth`: deeper cutoffs save more work.
    pub fn bonus(depth: Depth) -> i32 {
        (depth * depth * history_bonus_scale()).min(HISTORY_MAX)
    }

    pub fn clear(&mut self) {
        *self.quiet = [[[0; 64]; 64]; 2];
        self.continuation.fill([0; PIECE_TO]);
        self.capture.fill([0; 7]);
        self.correction.clear();
    }
}

/// The capture history's victim index: the captured role (a pawn for en passant), 0 for none.
#[inline]
fn victim_index(m: &Move) -> usize {
    match m {
        Move::EnPassant { .. } => Role::Pawn as usize,
        _ => m.capture().map_or(0, |r| r as usize),
    }
}
