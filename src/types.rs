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

/// A score in centipawns from the side to move's point of view, a tablebase result or a mate.
///
/// Three bands, from the top: mates, `MATE - ply` (we mate at `ply`) down to `MATE_BOUND`;
/// tablebase wins, `TB_WIN - ply` (a position the tables call won, reached at `ply`) down to
/// `TB_WIN_BOUND`, below every mate, so that a mate found by search is preferred to a won
/// ending; then every evaluation, which [`Score::clamp_to_eval`] keeps below both. Losses
/// mirror them. A score in either upper band is *decisive* ([`Score::is_decisive`]): search
/// margins mean nothing to it, and the table stores it relative to the storing node.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Score(pub i32);

impl Score {
    pub const ZERO: Score = Score(0);
    pub const DRAW: Score = Score(0);
    /// Mate at the root (ply 0): larger than any evaluation.
    pub const MATE: Score = Score(32_000);
    /// Scores at or beyond this are mates found within `MAX_PLY`.
    pub const MATE_BOUND: Score = Score(32_000 - MAX_PLY as i32);
    /// A tablebase win at the root (ply 0): just below every mate.
    pub const TB_WIN: Score = Score(Self::MATE_BOUND.0 - 1);
    /// Scores at or beyond this (and below `MATE_BOUND`) are tablebase wins within `MAX_PLY`.
    pub const TB_WIN_BOUND: Score = Score(Self::TB_WIN.0 - MAX_PLY as i32);
    /// How UCI prints a tablebase win at the root: `cp 20000`, less a centipawn a ply (as
    /// Stockfish does; `mate` is kept for mates).
    pub const TB_WIN_CP: i32 = 20_000;
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

    /// The score for the side to move reaching a tablebase win at `ply`.
    pub const fn tb_win_in(ply: Ply) -> Score {
        Score(Self::TB_WIN.0 - ply as i32)
    }

    /// The score for the side to move reaching a tablebase loss at `ply`.
    pub const fn tb_loss_in(ply: Ply) -> Score {
        Score(-Self::TB_WIN.0 + ply as i32)
    }

    /// A mate, for either side.
    pub const fn is_mate(self) -> bool {
        self.0 >= Self::MATE_BOUND.0 || self.0 <= -Self::MATE_BOUND.0
    }

    /// A tablebase win or loss (not a mate).
    pub const fn is_tb(self) -> bool {
        let a = self.0.abs();
        a >= Self::TB_WIN_BOUND.0 && a < Self::MATE_BOUND.0
    }

    /// A proven result: a mate or a tablebase win or loss, which no margin or evaluation
    /// reaches.
    pub const fn is_decisive(self) -> bool {
        self.0 >= Self::TB_WIN_BOUND.0 || self.0 <= -Self::TB_WIN_BOUND.0
    }

    /// The score with an evaluation's range: below the tablebase and mate bands.
    #[inline]
    pub const fn clamp_to_eval(self) -> Score {
        let limit = Self::TB_WIN_BOUND.0 - 1;
        Score(if self.0 > limit {
            limit
        } else if self.0 < -limit {
            -limit
        } else {
            self.0
        })
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
    /// the transposition table: mate and tablebase distances are kept from the node, not the
    /// root.
    pub fn to_tt(self, ply: Ply) -> Score {
        if self.0 >= Self::TB_WIN_BOUND.0 {
            Score(self.0 + ply as i32)
        } else if self.0 <= -Self::TB_WIN_BOUND.0 {
            Score(self.0 - ply as i32)
        } else {
            self
        }
    }

    /// Inverse of [`Score::to_tt`].
    pub fn from_tt(self, ply: Ply) -> Score {
        if self.0 >= Self::TB_WIN_BOUND.0 {
            Score(self.0 - ply as i32)
        } else if self.0 <= -Self::TB_WIN_BOUND.0 {
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

/// UCI form: `cp 31`, `mate -2`, or for a tablebase result `cp 19995` (20000 less the plies
/// to the won position; negated for a loss).
impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(m) = self.mate_moves() {
            return write!(f, "mate {m}");
        }
        if self.is_tb() {
            let plies = Self::TB_WIN.0 - self.0.abs();
            let cp = Self::TB_WIN_CP - plies;
            return write!(f, "cp {}", if self.0 > 0 { cp } else { -cp });
        }
        write!(f, "cp {}", self.0)
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
    /// Whether a score with this bound decides a node searched with window (`alpha`,
    /// `beta`): an exact value, a lower bound at or above beta, or an upper bound at or below
    /// alpha.
    #[inline]
    pub fn settles(self, score: Score, alpha: Score, beta: Score) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
        }
    }

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
        // So is a tablebase win, and a loss, in their band.
        assert_eq!(Score::tb_win_in(7).to_tt(4), Score::tb_win_in(3));
        assert_eq!(Score::tb_loss_in(7).to_tt(4), Score::tb_loss_in(3));
        assert_eq!(
            Score::tb_loss_in(9).to_tt(5).from_tt(5),
            Score::tb_loss_in(9)
        );
    }

    /// Mates above tablebase wins above every evaluation; the tests of each band tell them
    /// apart, and a tablebase score prints as centipawns, not as a mate.
    #[test]
    fn the_bands_are_ordered_and_told_apart() {
        let deepest_mate = Score::mate_in(MAX_PLY);
        let shortest_tb = Score::tb_win_in(0);
        let deepest_tb = Score::tb_win_in(MAX_PLY);
        let best_eval = Score(i32::MAX / 4).clamp_to_eval();
        assert!(deepest_mate > shortest_tb && deepest_tb > best_eval);
        assert!(deepest_mate.is_mate() && !deepest_mate.is_tb() && deepest_mate.is_decisive());
        assert!(shortest_tb.is_tb() && !shortest_tb.is_mate() && shortest_tb.is_decisive());
        assert!(deepest_tb.is_tb() && (-deepest_tb).is_tb() && (-deepest_tb).is_decisive());
        assert!(!best_eval.is_decisive() && !(-best_eval).is_decisive());
        assert_eq!((-best_eval), Score(i32::MIN / 4).clamp_to_eval());
        assert_eq!(Score(123).clamp_to_eval(), Score(123));
        assert_eq!(Score::tb_win_in(0).to_string(), "cp 20000");
        assert_eq!(Score::tb_win_in(5).to_string(), "cp 19995");
        assert_eq!(Score::tb_loss_in(4).to_string(), "cp -19996");
        assert_eq!(Score::tb_win_in(5).mate_moves(), None);
    }
}
