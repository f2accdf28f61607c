//! Quiescence search: at the horizon, keep playing captures and promotions until the position
//! is quiet, so that the static evaluation is never taken in the middle of an exchange.

use shakmaty::{Chess, MoveList, Position};

use super::ordering::MovePicker;
use super::see::see_at_least;
use super::worker::Worker;
use crate::position::tactical_moves;
use crate::types::{Ply, Score, MAX_PLY};

impl Worker<'_> {
    pub(super) fn quiescence(
        &mut self,
        pos: &Chess,
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
            return self.eval_cache.evaluate(pos);
        }

        let in_check = pos.is_check();
        let mut moves = MoveList::new();
        let mut best = if in_check {
            // No standing pat in check: every evasion is searched, and none is mate.
            moves = pos.legal_moves();
            if moves.is_empty() {
                return Score::mated_in(ply);
            }
            -Score::INFINITE
        } else {
            // Standing pat: the side to move may decline every capture, so it stands pat before
            // any move is generated, and then generates the captures alone. A stalemate is
            // therefore scored by its static evaluation, as in Stockfish and Ethereal: the
            // quiet moves that would show it are the ones quiescence never looks at.
            let stand_pat = self.eval_cache.evaluate(pos);
            if stand_pat >= beta {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            tactical_moves(pos, &mut moves);
            stand_pat
        };
        let mut picker = MovePicker::by_mvv_lva(&mut moves);

        for (index, m) in (&mut picker).enumerate() {
            // Captures that lose material by static exchange cannot raise a standing pat.
            if self.config.quiescence_see_pruning && !in_check && !see_at_least(pos, &m, 0) {
                continue;
            }
            let mut child = pos.clone();
            child.play_unchecked(m);
            let score = -self.quiescence(&child, ply + 1, -beta, -alpha);
            if self.stopped {
                return Score::ZERO;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        self.stats.count_cutoff(index);
                        break;
                    }
                }
            }
        }
        best
    }
}
