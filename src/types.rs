//! Small value types that give the search's integers a meaning.

use std::fmt;
use std::ops::{Add, AddAssign, Neg, Sub, SubAssign};
use std::time::Duration;

/// Remaining search depth, in plies. Signed so that reductions may take it below zero.
pub type Depth = i32;

/// Distance from the root of the current search, in plies.
pub type Ply = usize;

/// The deepest ply the search ever reaches; sizes every per-ply array.
pub const MAX_PLY: Ply = 128;

/// Nodes (or positions, or games) per second over `elapsed`: the one rate every tool and the
/// search print. A run too short to time counts as one microsecond, so the rate stays finite.
pub fn nps(nodes: u64, elapsed: Duration) -> f64 {
    nodes as f64 / elapsed.as_secs_f64().max(1e-6)
}

/// A score in centipawns from the side to move's point of view, or a mate score.
///
/// Mate scores are `MATE - ply` (we mate) and `-(MATE - ply)` (we are mated), so that a shorter
/// mate always scores higher; everything with `abs() >= MATE_BOUND` is a mate.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Score(pub i32);

impl Score {
    pub const ZERO: Score = Score(0);
    pub const DRAW: Score = Score(0);
    /// Mate at the root (ply 0): larger than any evaluation.
    pub const MATE: Score = Score(32_000);
    /// Scores at or beyond this are mates found within `MAX_PLY`.
    pub const MATE_BOUND: Score = Score(32_000 - MAX_PLY as i32);
    /// Larger than any real score; the initial window.
    pub const INFINITE: Score = Score(32_500);
    /// Marks "no score" in tables; never a search result.
    pub const NONE: Score = Score(32_700);

    /// The score for the side to move being checkmated at `ply`.
    pub const fn mated_in(ply: Ply) -> Score {
        Score(-Self::MATE.0 + ply as i32)
    }

    /// The score for the side to move giving mate at `ply`.
    pub const fn mate_in(ply: Ply) -> Score {
        Score(Self::MATE.0 - ply as i32)
    }

    pub const fn is_mate(self) -> bool {
        self.0 >= Self::MATE_BOUND.0 || self.0 <= -Self::MATE_BOUND.0
    }

    /// Moves (not plies) to mate as UCI prints them: positive when we mate, negative when mated.
    pub fn mate_moves(self) -> Option<i32> {
        if !self.is_mate() {
            None
        } else if self.0 > 0 {
            Some((Self::MATE.0 - self.0 + 1) / 2)
        } else {
            Some(-(Self::MATE.0 + self.0) / 2)
        }
    }

    /// Converts a score relative to the root into one relative to this node, for storing in
    /// the transposition table: mate distances are kept from the node, not the root.
    pub fn to_tt(self, ply: Ply) -> Score {
        if self.0 >= Self::MATE_BOUND.0 {
            Score(self.0 + ply as i32)
        } else if self.0 <= -Self::MATE_BOUND.0 {
            Score(self.0 - ply as i32)
        } else {
            self
        }
    }

    /// Inverse of [`Score::to_tt`].
    pub fn from_tt(self, ply: Ply) -> Score {
        if self.0 >= Self::MATE_BOUND.0 {
            Score(self.0 - ply as i32)
        } else if self.0 <= -Self::MATE_BOUND.0 {
            Score(self.0 + ply as i32)
        } else {
            self
        }
    }
}

impl Neg for Score {
    type Output = Score;
    fn neg(self) -> Score {
        Score(-self.0)
    }
}

impl Add<i32> for Score {
    type Output = Score;
    fn add(self, rhs: i32) -> Score {
        Score(self.0 + rhs)
    }
}

impl Sub<i32> for Score {
    type Output = Score;
    fn sub(self, rhs: i32) -> Score {
        Score(self.0 - rhs)
    }
}

impl AddAssign<i32> for Score {
    fn add_assign(&mut self, rhs: i32) {
        self.0 += rhs;
    }
}

impl SubAssign<i32> for Score {
    fn sub_assign(&mut self, rhs: i32) {
        self.0 -= rhs;
    }
}

/// UCI form: `cp 31` or `mate -2`.
impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.mate_moves() {
            Some(m) => write!(f, "mate {m}"),
            None => write!(f, "cp {}", self.0),
        }
    }
}

/// What a stored or returned score says about the true value.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value is exactly this score.
    Exact,
    /// The search failed high: the true value is at least this score.
    Lower,
    /// The search failed low: the true value is at most this score.
    Upper,
}

impl Bound {
    /// The bound a fail-soft search proved: `best` at or above `beta` is a lower bound, a move
    /// that raised alpha makes it exact, and otherwise every move failed low.
    #[inline]
    pub fn of(best: Score, beta: Score, raised_alpha: bool) -> Bound {
        if best >= beta {
            Bound::Lower
        } else if raised_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_print_in_moves() {
        assert_eq!(Score::mate_in(1).mate_moves(), Some(1));
        assert_eq!(Score::mate_in(3).mate_moves(), Some(2));
        assert_eq!(Score::mated_in(0).mate_moves(), Some(0));
        assert_eq!(Score::mated_in(2).mate_moves(), Some(-1));
        assert_eq!(Score::mated_in(4).mate_moves(), Some(-2));
        assert_eq!(Score(35).mate_moves(), None);
        assert_eq!(Score::mate_in(5).to_string(), "mate 3");
        assert_eq!(Score(-12).to_string(), "cp -12");
    }

    #[test]
    fn nps_is_nodes_per_second_and_finite_for_an_instant_run() {
        assert_eq!(nps(3_000, Duration::from_millis(1500)), 2_000.0);
        assert_eq!(nps(0, Duration::ZERO), 0.0);
        assert_eq!(nps(5, Duration::ZERO), 5e6);
    }

    #[test]
    fn tt_mate_adjustment_round_trips() {
        for s in [
            Score::mate_in(7),
            Score::mated_in(9),
            Score(123),
            Score(-40),
        ] {
            assert_eq!(s.to_tt(5).from_tt(5), s);
        }
        // A mate 3 plies below a node at ply 4 is stored as mate in 3 from that node.
        assert_eq!(Score::mate_in(7).to_tt(4), Score::mate_in(3));
    }
}
