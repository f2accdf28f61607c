//! The main search: negamax alpha-beta, fail-soft (a node may return a score outside its
//! window, which makes the stored bounds tighter).

use arrayvec::ArrayVec;
use shakmaty::{Chess, Move, Position};

use super::config::TtPolicy;
use super::ordering::{is_tactical, History, MovePicker};
use super::worker::Worker;
#[cfg(not(feature = "tune"))]
use std::sync::OnceLock;

use crate::params::*;
use crate::position::{child_key, gives_check, null_move, Key};
use crate::tt::PackedMove;
use crate::types::{Bound, Depth, Ply, Score, MAX_PLY};

/// What the move loop needs to know of its node, fixed once the node's own pruning is done.
#[derive(Clone, Copy)]
struct Node {
    depth: Depth,
    ply: Ply,
    /// An open window: the node is on the principal variation.
    pv_node: bool,
    in_check: bool,
}

impl Worker<'_> {
    /// The value of `pos` (whose key is on top of the key stack) searched to `depth`.
    /// Steps as in Ethereal; the Elo of each is its SPRT in docs/strength.md (20k nodes/move).
    pub(super) fn alpha_beta(
        &mut self,
        pos: &Chess,
        key: Key,
        depth: Depth,
        ply: Ply,
        alpha: Score,
        beta: Score,
    ) -> Score {
        // Step 1: draws, the horizon (quiescence), the stop flag and the ply limit.
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
            return self.eval_cache.evaluate(pos);
        }
        // A node on the principal variation has an open window; every other node is searched
        // with a null window, only to learn whether it beats alpha.
        let pv_node = beta.0 - alpha.0 > 1;

        // Step 2: the transposition table may settle the node at once.
        let tt_move = match self.probe_table(key, depth, ply, alpha, beta, pv_node) {
            Ok(tt_move) => tt_move,
            Err(settled) => return settled,
        };

        // Step 3 (+29.0 ± 17.5): internal iterative reduction, where no table move guides
        // the ordering.
        let depth = if self.config.internal_iterative_reduction
            && tt_move.is_none()
            && depth >= iir_min_depth()
        {
            depth - 1
        } else {
            depth
        };

        let in_check = pos.is_check();
        let static_eval = if in_check {
            -Score::INFINITE
        } else {
            self.eval_cache.evaluate(pos)
        };
        self.stack[ply].static_eval = static_eval;

        let node = Node {
            depth,
            ply,
            pv_node,
            in_check,
        };
        // Step 4 (+32.4 ± 18.7): reverse futility pruning.
        if self.reverse_futility_cuts(&node, beta) {
            return static_eval;
        }

        // Step 5 (+36.6 ± 20.2): null-move pruning. If even passing leaves us at or above
        // beta, a real move will too (barring zugzwang, which is why it needs pieces besides
        // pawns).
        if self.config.null_move_pruning
            && !pv_node
            && !in_check
            && depth >= nmp_min_depth()
            && static_eval >= beta
            && !beta.is_mate()
            && !self.stack[ply].null_moved
            && has_pieces(pos)
        {
            if let Some(score) = self.null_move_search(pos, key, depth, ply, beta) {
                return score;
            }
        }

        self.search_moves(pos, key, node, alpha, beta, tt_move)
    }

    /// Step 2: probes the table. `Err(score)` when a deep enough entry settles the node (never
    /// at PV nodes, where it would cut the principal variation short), else the table's move.
    fn probe_table(
        &mut self,
        key: Key,
        depth: Depth,
        ply: Ply,
        alpha: Score,
        beta: Score,
        pv_node: bool,
    ) -> Result<PackedMove, Score> {
        self.stats.tt_probes += 1;
        let Some(hit) = self.tt.probe(key, ply) else {
            return Ok(PackedMove::NONE);
        };
        self.stats.tt_hits += 1;
        let deep_enough = match self.config.tt_policy {
            TtPolicy::Cutoffs => hit.depth >= depth,
            TtPolicy::SameDepthCutoffs => hit.depth == depth,
            TtPolicy::MoveOnly => false,
        };
        if deep_enough && !pv_node {
            let settles = match hit.bound {
                Bound::Exact => true,
                Bound::Lower => hit.score >= beta,
                Bound::Upper => hit.score <= alpha,
            };
            if settles {
                return Err(hit.score);
            }
        }
        Ok(hit.mv)
    }

    /// Step 5: passes and searches the opponent's reply at a reduced depth with a null window
    /// at beta. `Some` when the node is done: it failed high, or the search was stopped.
    fn null_move_search(
        &mut self,
        pos: &Chess,
        key: Key,
        depth: Depth,
        ply: Ply,
        beta: Score,
    ) -> Option<Score> {
        let (null, null_key) = null_move(pos, key)?;
        let reduction = nmp_base_reduction() + depth / nmp_depth_divisor();
        let floor = std::mem::replace(&mut self.repetition_floor, self.keys.len());
        self.keys.push(null_key);
        self.stack[ply + 1].null_moved = true;
        let score = -self.alpha_beta(
            &null,
            null_key,
            depth - 1 - reduction,
            ply + 1,
            -beta,
            -beta + 1,
        );
        self.stack[ply + 1].null_moved = false;
        self.keys.pop();
        self.repetition_floor = floor;
        if self.stopped {
            return Some(Score::ZERO);
        }
        // A mate found after passing is not proven for real moves.
        (score >= beta).then(|| if score.is_mate() { beta } else { score })
    }

    /// Steps 6 to 9: the moves in order, each perhaps pruned, reduced and searched by PVS;
    /// the result goes to the table.
    fn search_moves(
        &mut self,
        pos: &Chess,
        key: Key,
        node: Node,
        mut alpha: Score,
        beta: Score,
        tt_move: PackedMove,
    ) -> Score {
        let Node { depth, ply, .. } = node;
        let mut moves = pos.legal_moves();
        if moves.is_empty() {
            return if node.in_check {
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
        // Step 6 (SEE: +167.7 ± 38.9, with quiescence SEE pruning): ordering (table move,
        // SEE-ordered captures, killers, history).
        let mut picker = MovePicker::new(
            pos,
            &mut moves,
            tt_move,
            self.stack[ply].killers.get(),
            self.history,
            self.config.see_ordering,
        );
        let mut best = -Score::INFINITE;
        let mut best_move: Option<Move> = None;
        let mut quiets: ArrayVec<Move, QUIETS_REMEMBERED> = ArrayVec::new();

        let mut quiets_searched: Depth = 0;
        for (index, m) in (&mut picker).enumerate() {
            let quiet = !is_tactical(&m);
            // Read from the attack tables: a pruned move is never copied and played.
            let gives_check = gives_check(pos, &m);
            // Step 7 (+108.9 ± 35.3): futility and late-move pruning of quiet moves that do
            // not give check (checks are how sacrifices pay off).
            if quiet && !gives_check && self.skips_quiet(&node, quiets_searched, best, alpha) {
                continue;
            }
            if quiet {
                quiets_searched += 1;
            }
            let mut child = pos.clone();
            child.play_unchecked(m);
            let child_key = child_key(pos, key, m, &child);
            self.keys.push(child_key);
            // Step 8 (off: +3.1 ± 25.0, inconclusive): check extension.
            let extension = Depth::from(self.config.check_extension && gives_check);
            // Step 9 (+43.8 ± 22.4 for LMR, +30.4 ± 18.0 for PVS): reduced null-window
            // search of late quiet moves, re-searched when they beat alpha.
            let reduction = self.reduction(&node, index, quiet, gives_check);
            let score = self.principal_variation_search(
                &child,
                child_key,
                depth - 1 + extension,
                ply + 1,
                alpha,
                beta,
                index == 0,
                reduction,
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
            if quiet {
                let _ = quiets.try_push(m);
            }
        }

        let bound = Bound::of(best, beta, best_move.is_some());
        self.tt.store(key, ply, depth, best, bound, best_move);
        best
    }

    /// Step 4: whether the static evaluation is so far above beta that a shallow search would
    /// not come back down.
    #[inline]
    fn reverse_futility_cuts(&self, node: &Node, beta: Score) -> bool {
        self.config.reverse_futility_pruning
            && !node.pv_node
            && !node.in_check
            && node.depth <= rfp_max_depth()
            && !beta.is_mate()
            && self.stack[node.ply].static_eval - rfp_margin() * node.depth >= beta
    }

    /// Step 7: whether a quiet, non-checking move is skipped: near the leaves, once a move has
    /// kept us off a mate, after enough quiet moves (LMP) or too far below alpha (futility).
    #[inline]
    fn skips_quiet(&self, node: &Node, quiets_searched: Depth, best: Score, alpha: Score) -> bool {
        let depth = node.depth;
        self.config.futility_and_late_move_pruning
            && !node.pv_node
            && !node.in_check
            && best > -Score::MATE_BOUND
            && ((depth <= lmp_max_depth() && quiets_searched >= lmp_base() + depth * depth)
                || (depth <= fp_max_depth()
                    && self.stack[node.ply].static_eval + fp_base() + fp_margin() * depth <= alpha))
    }

    /// Step 9: the late-move reduction of the move at `index` (none for the first moves,
    /// tactical moves, checks and evasions; one ply less at PV nodes).
    #[inline]
    fn reduction(&self, node: &Node, index: usize, quiet: bool, gives_check: bool) -> Depth {
        let depth = node.depth;
        if self.config.late_move_reductions
            && depth >= lmr_min_depth()
            && index >= lmr_min_move_index()
            && !node.in_check
            && quiet
            && !gives_check
        {
            (late_move_reduction(depth, index) - i32::from(node.pv_node)).clamp(0, depth - 2)
        } else {
            0
        }
    }

    /// Principal variation search: the first move gets the full window; the others are
    /// expected to be worse, so a cheap null window (at a depth cut by `reduction` for late
    /// moves) only proves it, and a move that beats alpha after all is searched again: first
    /// unreduced, then with the full window. Returns the child's score from this node's side.
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
        reduction: Depth,
    ) -> Score {
        if first {
            return -self.alpha_beta(child, child_key, depth, child_ply, -beta, -alpha);
        }
        let mut score = -self.alpha_beta(
            child,
            child_key,
            depth - reduction,
            child_ply,
            -alpha - 1,
            -alpha,
        );
        if score > alpha && reduction > 0 && !self.stopped {
            score = -self.alpha_beta(child, child_key, depth, child_ply, -alpha - 1, -alpha);
        }
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
        self.stats.count_cutoff(index);
        if !is_tactical(&m) {
            self.stack[ply].killers.add(m);
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
        let reversible = (pos.halfmoves() as usize).min(n - 1 - self.repetition_floor);
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

/// The late-move reduction at `depth` for the move at `index`: `lmr_base + ln(depth) *
/// ln(index) / lmr_divisor` plies, rounded down.
fn reduction_formula(depth: usize, index: usize) -> u8 {
    if depth == 0 || index == 0 {
        return 0;
    }
    let base = f64::from(lmr_base_hundredths()) / 100.0;
    let divisor = f64::from(lmr_divisor_hundredths()) / 100.0;
    let value = base + (depth as f64).ln() * (index as f64).ln() / divisor;
    value.max(0.0) as u8
}

/// The late-move reduction table, by depth and move index (computed once from the defaults).
#[cfg(not(feature = "tune"))]
fn late_move_reduction(depth: Depth, index: usize) -> Depth {
    static TABLE: OnceLock<[[u8; 64]; 64]> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let mut t = [[0u8; 64]; 64];
        for (d, row) in t.iter_mut().enumerate() {
            for (i, r) in row.iter_mut().enumerate() {
                *r = reduction_formula(d, i);
            }
        }
        t
    });
    Depth::from(table[(depth as usize).min(63)][index.min(63)])
}

/// The tuning build computes each reduction afresh: its parameters change between searches.
#[cfg(feature = "tune")]
fn late_move_reduction(depth: Depth, index: usize) -> Depth {
    Depth::from(reduction_formula((depth as usize).min(63), index.min(63)))
}

/// Whether the side to move has a piece besides king and pawns (zugzwang is then unlikely).
#[inline]
fn has_pieces(pos: &Chess) -> bool {
    let board = pos.board();
    let ours = board.by_color(pos.turn());
    !(ours & !board.pawns() & !board.kings()).is_empty()
}

/// Insufficient material to mate (shakmaty's rule), tested only when few pieces are left.
#[inline]
fn is_dead_draw(pos: &Chess) -> bool {
    pos.board().occupied().count() <= 4 && pos.is_insufficient_material()
}
