//! The main search: negamax alpha-beta, fail-soft (a node may return a score outside its
//! window, which makes the stored bounds tighter).

use arrayvec::ArrayVec;
use shakmaty::{Chess, Move, Position};

use super::ordering::{is_tactical, History, MovePicker};
use super::worker::Worker;
use super::TtPolicy;
use crate::eval::evaluate;
use crate::position::{child_key, Key};
use crate::tt::PackedMove;
use crate::types::{Bound, Depth, Ply, Score, MAX_PLY};

/// Quiet moves remembered per node to punish in the history table when a later move cuts.
const QUIETS_REMEMBERED: usize = 64;

impl Worker<'_> {
    /// The value of `pos` (whose key is on top of the key stack) searched to `depth`.
    pub(super) fn alpha_beta(
        &mut self,
        pos: &Chess,
        key: Key,
        depth: Depth,
        ply: Ply,
        mut alpha: Score,
        beta: Score,
    ) -> Score {
        self.pv.clear(ply);
        if self.is_repetition(pos) || is_dead_draw(pos) {
            return Score::DRAW;
        }
        if depth <= 0 {
            return self.quiescence(pos, ply, alpha, beta);
        }
        self.count_node(ply);
        if self.stopped {
            return Score::ZERO;
        }
        if ply >= MAX_PLY - 1 {
            return evaluate(pos);
        }
        // A node on the principal variation has an open window; every other node is searched
        // with a null window, only to learn whether it beats alpha.
        let pv_node = beta.0 - alpha.0 > 1;

        // Transposition table: a deep enough result for this position may settle it at once.
        self.stats.tt_probes += 1;
        let mut tt_move = PackedMove::NONE;
        if let Some(hit) = self.tt.probe(key, ply) {
            self.stats.tt_hits += 1;
            tt_move = hit.mv;
            let deep_enough = match self.tt_policy {
                TtPolicy::Cutoffs => hit.depth >= depth,
                TtPolicy::SameDepthCutoffs => hit.depth == depth,
                TtPolicy::MoveOnly => false,
            };
            // Not at PV nodes: a table cutoff there would cut the principal variation short.
            if deep_enough && !pv_node {
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

        let moves = pos.legal_moves();
        if moves.is_empty() {
            return if pos.is_check() {
                Score::mated_in(ply)
            } else {
                Score::DRAW
            };
        }
        // Fifty moves without capture or pawn move; checked after mate, which takes precedence.
        if pos.halfmoves() >= 100 {
            return Score::DRAW;
        }

        let side = pos.turn();
        let picker = MovePicker::new(moves, tt_move, self.killers.get(ply), self.history, side);
        let mut best = -Score::INFINITE;
        let mut best_move: Option<Move> = None;
        let mut quiets: ArrayVec<Move, QUIETS_REMEMBERED> = ArrayVec::new();

        for (index, m) in picker.enumerate() {
            let mut child = pos.clone();
            child.play_unchecked(m);
            let child_key = child_key(pos, key, m, &child);
            self.keys.push(child_key);
            let score = self.principal_variation_search(
                &child,
                child_key,
                depth - 1,
                ply + 1,
                alpha,
                beta,
                index == 0,
            );
            self.keys.pop();
            if self.stopped {
                return Score::ZERO;
            }

            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = Some(m);
                    self.pv.update(ply, m);
                    if score >= beta {
                        self.on_beta_cutoff(index, m, side, depth, ply, &quiets);
                        break;
                    }
                }
            }
            if !is_tactical(&m) {
                let _ = quiets.try_push(m);
            }
        }

        let bound = if best >= beta {
            Bound::Lower
        } else if best_move.is_some() {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(key, ply, depth, best, bound, best_move);
        best
    }

    /// Principal variation search: the first move gets the full window; the others are
    /// expected to be worse, so a cheap null window only proves it, and a move that beats
    /// alpha after all is searched again with the full window. Returns the child's score from
    /// this node's side.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn principal_variation_search(
        &mut self,
        child: &Chess,
        child_key: Key,
        depth: Depth,
        child_ply: Ply,
        alpha: Score,
        beta: Score,
        first: bool,
    ) -> Score {
        if first {
            return -self.alpha_beta(child, child_key, depth, child_ply, -beta, -alpha);
        }
        let score = -self.alpha_beta(child, child_key, depth, child_ply, -alpha - 1, -alpha);
        if score > alpha && score < beta && !self.stopped {
            -self.alpha_beta(child, child_key, depth, child_ply, -beta, -alpha)
        } else {
            score
        }
    }

    /// Counts the cutoff and teaches the ordering heuristics about it.
    fn on_beta_cutoff(
        &mut self,
        index: usize,
        m: Move,
        side: shakmaty::Color,
        depth: Depth,
        ply: Ply,
        quiets_before: &[Move],
    ) {
        self.stats.beta_cutoffs += 1;
        if index == 0 {
            self.stats.first_move_cutoffs += 1;
        }
        if !is_tactical(&m) {
            self.killers.add(ply, m);
            let bonus = History::bonus(depth);
            self.history.update(side, &m, bonus);
            for q in quiets_before {
                self.history.update(side, q, -bonus);
            }
        }
    }

    /// Whether the position on top of the key stack occurred before, since the last
    /// irreversible move. One repetition is scored as a draw: if repeating is good for one
    /// side, it can repeat again.
    pub(super) fn is_repetition(&self, pos: &Chess) -> bool {
        let n = self.keys.len();
        let current = self.keys[n - 1];
        let reversible = (pos.halfmoves() as usize).min(n - 1);
        let mut back = 4;
        while back <= reversible {
            if self.keys[n - 1 - back] == current {
                return true;
            }
            back += 2;
        }
        false
    }
}

/// Insufficient material to mate (shakmaty's rule), tested only when few pieces are left.
#[inline]
fn is_dead_draw(pos: &Chess) -> bool {
    pos.board().occupied().count() <= 4 && pos.is_insufficient_material()
}
