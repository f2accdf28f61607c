//! A node's best move so far and the window it narrows: the one update of both that the main
//! search's move loop and quiescence's run after each searched move.

use shakmaty::Move;

use crate::types::Score;

/// The best score a node has found, the move that raised alpha last, and alpha itself.
#[derive(Clone, Copy, Debug)]
pub(super) struct BestSoFar {
    /// The best score of the moves searched (or the floor the node started from).
    pub(super) score: Score,
    /// The window's lower bound: the best score once it beat the alpha the node was given.
    pub(super) alpha: Score,
    /// The move whose score last beat alpha; `None` while no move has (an upper bound).
    pub(super) mv: Option<Move>,
}

/// What one searched move's score did to the node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Improvement {
    /// Not above alpha: the window stays (the best score may have risen below it).
    None,
    /// A new best move inside the window: alpha rose to its score.
    RaisedAlpha,
    /// At or above beta: the node fails high and searches no further moves.
    FailedHigh,
}

impl BestSoFar {
    /// A node that has searched nothing: `floor` as its best score (a stand-pat score, a
    /// tablebase floor, or minus infinity) and `alpha` as its window's lower bound.
    #[inline(always)]
    pub(super) fn new(floor: Score, alpha: Score) -> BestSoFar {
        BestSoFar {
            score: floor,
            alpha,
            mv: None,
        }
    }

    /// Takes move `m`'s `score` into account against the window's `beta`.
    #[inline(always)]
    pub(super) fn consider(&mut self, score: Score, m: Move, beta: Score) -> Improvement {
        if score <= self.score {
            return Improvement::None;
        }
        self.score = score;
        if score <= self.alpha {
            return Improvement::None;
        }
        self.alpha = score;
        self.mv = Some(m);
        if score >= beta {
            Improvement::FailedHigh
        } else {
            Improvement::RaisedAlpha
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Role, Square};

    fn mv(to: Square) -> Move {
        Move::Normal {
            role: Role::Knight,
            from: Square::G1,
            capture: None,
            to,
            promotion: None,
        }
    }

    #[test]
    fn a_score_raises_alpha_only_above_it_and_fails_high_at_beta() {
        let (alpha, beta) = (Score(10), Score(50));
        let mut best = BestSoFar::new(-Score::INFINITE, alpha);
        assert_eq!(
            best.consider(Score(5), mv(Square::F3), beta),
            Improvement::None
        );
        assert_eq!((best.score, best.alpha, best.mv), (Score(5), alpha, None));
        assert_eq!(
            best.consider(Score(3), mv(Square::H3), beta),
            Improvement::None
        );
        assert_eq!(best.score, Score(5), "a worse score leaves the best one");
        assert_eq!(
            best.consider(alpha, mv(Square::H3), beta),
            Improvement::None
        );
        let at_alpha = (best.score, best.alpha, best.mv);
        assert_eq!(
            at_alpha,
            (alpha, alpha, None),
            "alpha itself raises no bound"
        );
        let raised = best.consider(Score(20), mv(Square::E2), beta);
        assert_eq!(raised, Improvement::RaisedAlpha);
        assert_eq!((best.score, best.alpha), (Score(20), Score(20)));
        assert_eq!(best.mv, Some(mv(Square::E2)));
        assert_eq!(
            best.consider(Score(20), mv(Square::F3), beta),
            Improvement::None
        );
        assert_eq!(best.mv, Some(mv(Square::E2)), "a tie keeps the first move");
        let cut = best.consider(Score(50), mv(Square::H3), beta);
        assert_eq!(cut, Improvement::FailedHigh);
        assert_eq!((best.score, best.mv), (Score(50), Some(mv(Square::H3))));
    }
}
