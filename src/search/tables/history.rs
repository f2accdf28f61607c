//! The history tables: what the search learnt about moves, kept from one search to the next
//! (butterfly, continuation and capture histories), and the keys they are indexed by.

use shakmaty::{Bitboard, Color, Move, Role};

use super::correction::CorrectionHistory;
use crate::search::params::*;
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

/// A quiet move's butterfly slot: its side, whether the opponent attacks its from- and its
/// to-square (`threats`; empty when threat history is off), and the squares themselves.
type Butterfly = [[[[[i32; 64]; 64]; 2]; 2]; 2];

/// The butterfly table's index of a quiet move from square `from` to `to` (indices below
/// 64), with the opponent attacking `threats`: leaving an attacked square and stepping onto
/// one are different moves (akimbo's threat-aware history).
#[inline]
fn threat_index(threats: Bitboard, from: usize, to: usize) -> (usize, usize) {
    let attacked = |sq: usize| usize::from(threats.0 >> (sq & 63) & 1 == 1);
    (attacked(from), attacked(to))
}

/// One node's quiet-move scores ([`History::quiet_scorer`]).
pub struct QuietScorer<'h> {
    /// The side to move's butterfly tables, by whether the from- and to-square are attacked.
    butterfly: &'h [[[[i32; 64]; 64]; 2]; 2],
    side: Color,
    threats: Bitboard,
    /// The continuation rows of the opponent's last move and ours before it, when known.
    rows: [Option<&'h [i16; PIECE_TO]>; 2],
}

impl QuietScorer<'_> {
    /// The move's butterfly history plus its continuation histories.
    #[inline]
    pub fn score(&self, m: &Move) -> i32 {
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
        let (from_attacked, to_attacked) = threat_index(self.threats, from, to);
        let mut score = self.butterfly[from_attacked][to_attacked][from & 63][to & 63];
        let piece_to = PieceTo::new(self.side, role, to & 63).index();
        // The two entries read one by one (a loop over them cost a third of the call).
        if let Some(row) = self.rows[0] {
            score += i32::from(row[piece_to]);
        }
        if let Some(row) = self.rows[1] {
            score += i32::from(row[piece_to]);
        }
        score
    }
}

/// What the search learnt about moves, kept from one search to the next: how often a quiet
/// move (by side, from- and to-square, and whether the opponent attacks either) caused
/// cutoffs (the butterfly history), the same after each of the two moves before it
/// (continuation history), and how often a capture (by piece, square and victim) did (capture
/// history). Every value ages by gravity.
pub struct History {
    quiet: Box<Butterfly>,
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
            quiet: Box::new([[[[[0; 64]; 64]; 2]; 2]; 2]),
            continuation: vec![[0; PIECE_TO]; PIECE_TO].into_boxed_slice(),
            capture: vec![[0; 7]; PIECE_TO].into_boxed_slice(),
            correction: CorrectionHistory::default(),
        }
    }
}

impl History {
    #[inline]
    fn slot(&mut self, side: Color, m: &Move, threats: Bitboard) -> &mut i32 {
        let (from, to) = (m.from().map_or(0, usize::from), usize::from(m.to()));
        let (from_attacked, to_attacked) = threat_index(threats, from, to);
        &mut self.quiet[side as usize][from_attacked][to_attacked][from][to]
    }

    /// A quiet move's ordering score: its butterfly history with the opponent attacking
    /// `threats`, plus, with `continuation`, its history after each of the moves that led here.
    #[inline]
    pub fn quiet_score(
        &self,
        side: Color,
        m: &Move,
        threats: Bitboard,
        context: Option<&Continuation>,
    ) -> i32 {
        self.quiet_scorer(side, threats, context).score(m)
    }

    /// [`History::quiet_score`] for many moves of one node: what every move of the node
    /// reads alike (its side's butterfly tables, the continuation rows of the moves that led
    /// here) is looked up once, not once a move.
    #[inline]
    pub fn quiet_scorer(
        &self,
        side: Color,
        threats: Bitboard,
        context: Option<&Continuation>,
    ) -> QuietScorer<'_> {
        let row = |prev: Option<PieceTo>| prev.map(|p| &self.continuation[p.index()]);
        QuietScorer {
            butterfly: &self.quiet[side as usize],
            side,
            threats,
            rows: context.map_or([None, None], |&Continuation([previous, before])| {
                [row(previous), row(before)]
            }),
        }
    }

    /// A capture's (or promotion's) history.
    #[inline]
    pub fn capture_score(&self, side: Color, m: &Move) -> i32 {
        i32::from(self.capture[PieceTo::of(side, m).index()][victim_index(m)])
    }

    /// [`History::capture_score`] of an ordinary move (`Move::Normal`) given by its parts, for
    /// a caller that has matched the move already.
    #[inline]
    pub fn capture_score_of(
        &self,
        side: Color,
        role: Role,
        to: shakmaty::Square,
        capture: Option<Role>,
    ) -> i32 {
        let piece_to = PieceTo::new(side, role, usize::from(to)).index();
        i32::from(self.capture[piece_to][capture.map_or(0, |r| r as usize)])
    }

    /// Rewards (positive `bonus`) or punishes a quiet move made with the opponent attacking
    /// `threats`; the "gravity" term keeps values within `HISTORY_MAX` and lets old
    /// knowledge fade.
    pub fn update(&mut self, side: Color, m: &Move, threats: Bitboard, bonus: i32) {
        let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        let h = self.slot(side, m, threats);
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
        *self.quiet = [[[[[0; 64]; 64]; 2]; 2]; 2];
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

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Square;

    /// The same quiet move is learnt apart by whether the opponent attacks its from- or its
    /// to-square: a cutoff with its target attacked teaches nothing about it unattacked.
    #[test]
    fn quiet_history_keeps_attacked_and_safe_squares_apart() {
        let m = Move::Normal {
            role: Role::Knight,
            from: Square::G1,
            capture: None,
            to: Square::F3,
            promotion: None,
        };
        let mut h = History::default();
        let none = Bitboard::EMPTY;
        let onto = Bitboard::from_square(Square::F3);
        let off = Bitboard::from_square(Square::G1);
        h.update(Color::White, &m, onto, 500);
        assert!(h.quiet_score(Color::White, &m, onto, None) > 0);
        for other in [none, off, onto | off] {
            assert_eq!(h.quiet_score(Color::White, &m, other, None), 0, "{other:?}");
        }
        // Squares other than the move's own do not change its slot.
        let elsewhere = onto | Bitboard::from_square(Square::A8);
        assert_eq!(
            h.quiet_score(Color::White, &m, elsewhere, None),
            h.quiet_score(Color::White, &m, onto, None)
        );
    }
}
