//! Quiescence search: at the horizon, keep playing captures and promotions until the position
//! is quiet, so that the static evaluation is never taken in the middle of an exchange.

use shakmaty::{Chess, MoveList, Position};

use super::ordering::MovePicker;
use super::see::{self, see_at_least};
use super::worker::Worker;
use crate::params::qs_delta_margin;
use crate::position::{full_key, key_after, tactical_moves, Key};
use crate::tt::Stored;
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
            return self.eval_cache.evaluate(pos);
        }
        // Any stored result settles a quiescence node when its bound allows: every entry is
        // at least as deep as quiescence.
        let use_tt = self.config.quiescence_tt;
        let hit = use_tt.then(|| self.tt.probe(key, ply)).flatten();
        if let Some(hit) = hit {
            if hit.settles(alpha, beta) {
                return hit.score;
            }
        }

        let in_check = pos.is_check();
        let mut moves = MoveList::new();
        let mut raw_eval = None;
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
            let (raw, stand_pat) = self.static_eval(pos, false, hit.and_then(|hit| hit.eval));
            raw_eval = Some(raw);
            if stand_pat >= beta {
                if use_tt {
                    let stored = Stored {
                        depth: 0,
                        score: stand_pat,
                        bound: Bound::Lower,
                        mv: None,
                        eval: raw_eval,
                    };
                    self.tt.store(key, ply, stored);
                }
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            tactical_moves(pos, &mut moves);
            stand_pat
        };
        let capture_history = (self.config.capture_history && !in_check).then_some(&*self.history);
        let mut picker = MovePicker::for_quiescence(pos, &mut moves, capture_history);

        let mut best_move = None;
        let delta_base =
            (self.config.quiescence_delta_pruning && !in_check).then(|| best.0 + qs_delta_margin());
        for (index, m) in (&mut picker).enumerate() {
            // Captures that lose material by static exchange cannot raise a standing pat.
            if self.config.quiescence_see_pruning && !in_check && !see_at_least(pos, &m, 0) {
                continue;
            }
            // Delta pruning (off, not proven): nor can one whose victim is worth too little
            // to reach alpha.
            if let Some(base) = delta_base {
                if m.promotion().is_none() && base + m.capture().map_or(0, see::value) <= alpha.0 {
                    continue;
                }
            }
            let early_key = if use_tt { key_after(pos, key, m) } else { None };
            if let Some(k) = early_key {
                self.tt.prefetch(k);
            }
            let mut child = pos.clone();
            child.play_unchecked(m);
            let child_key = match early_key {
                Some(k) => k,
                None if use_tt => full_key(&child),
                None => 0,
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
            let stored = Stored {
                depth: 0,
                score: best,
                bound: Bound::of(best, beta, best_move.is_some()),
                mv: best_move,
                eval: raw_eval,
            };
            self.tt.store(key, ply, stored);
        }
        best
    }
}
