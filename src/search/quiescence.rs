//! Quiescence search: at the horizon, keep playing captures and promotions until the position
//! is quiet, so that the static evaluation is never taken in the middle of an exchange.

use shakmaty::{Chess, Position};

use super::ordering::MovePicker;
use super::see::see_at_least;
use super::worker::Worker;
use crate::eval::evaluate;
use crate::position::{child_key, Key};
use crate::types::{Bound, Ply, Score, MAX_PLY};

impl Worker<'_> {
    /// The quiescence value of `pos`, whose key is `key` (0 when the table is not used here).
    pub(super) fn quiescence(
        &mut self,
        pos: &Chess,
        key: Key,
        ply: Ply,
        mut alpha: Score,
        beta: Score,
    ) -> Score {
        self.pv.clear(ply);
        self.count_node(ply);
        self.stats.qnodes += 1;
        if self.stopped {
            return Score::ZERO;
        }
        if ply >= MAX_PLY - 1 {
            return evaluate(pos);
        }
        // Any stored result settles a quiescence node when its bound allows: every entry is
        // at least as deep as quiescence.
        let use_tt = self.config.quiescence_tt;
        if use_tt {
            if let Some(hit) = self.tt.probe(key, ply) {
                let settles = match hit.bound {
                    Bound::Exact => true,
                    Bound::Lower => hit.score >= beta,
                    Bound::Upper => hit.score <= alpha,
                };
                if settles {
                    return hit.score;
                }
            }
        }
        let alpha_before = alpha;

        let in_check = pos.is_check();
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return if in_check {
                Score::mated_in(ply)
            } else {
                Score::DRAW
            };
        }

        let (mut best, picker) = if in_check {
            // No standing pat in check: every evasion is searched.
            (-Score::INFINITE, MovePicker::by_mvv_lva(moves))
        } else {
            // Standing pat: the side to move may decline every capture.
            let mut stand_pat = evaluate(pos);
            if self.config.correction_history {
                stand_pat = self.history.correction.correct(pos, stand_pat);
            }
            if stand_pat >= beta {
                if use_tt {
                    self.tt.store(key, ply, 0, stand_pat, Bound::Lower, None);
                }
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            (
                stand_pat,
                MovePicker::tactical(
                    pos,
                    moves,
                    self.config.capture_history.then_some(&*self.history),
                ),
            )
        };

        let mut best_move = None;
        for (index, m) in picker.enumerate() {
            // Captures that lose material by static exchange cannot raise a standing pat.
            if self.config.quiescence_see_pruning && !in_check && !see_at_least(pos, &m, 0) {
                continue;
            }
            let mut child = pos.clone();
            child.play_unchecked(m);
            let child_key = if use_tt {
                child_key(pos, key, m, &child)
            } else {
                0
            };
            let score = -self.quiescence(&child, child_key, ply + 1, -beta, -alpha);
            if self.stopped {
                return Score::ZERO;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = Some(m);
                    if score >= beta {
                        self.stats.count_cutoff(index);
                        break;
                    }
                }
            }
        }
        if use_tt {
            let bound = if best >= beta {
                Bound::Lower
            } else if best > alpha_before && best_move.is_some() {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.tt.store(key, ply, 0, best, bound, best_move);
        }
        best
    }
}
