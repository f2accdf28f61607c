//! The main search: negamax alpha-beta, fail-soft (a node may return a score outside its
//! window, which makes the stored bounds tighter).

use arrayvec::ArrayVec;
use shakmaty::{Chess, Move, Position};

use super::config::TtPolicy;
use super::ordering::{is_tactical, Heuristics, MoveBuffer};
use super::staged::StagedPicker;
use super::tables::history::{Continuation, History};
use super::tables::tt::{Hit, PackedMove, Stored};
use super::worker::{KnownCheck, Worker};
#[cfg(not(feature = "tune"))]
use std::sync::OnceLock;

use crate::params::*;
use crate::position::{CheckInfo, Key};
use crate::types::{Bound, Depth, Ply, Score, MAX_PLY};

/// The moves a node has searched so far, by kind, to punish their history when another cuts.
#[derive(Default)]
struct Tried {
    quiets: ArrayVec<Move, QUIETS_REMEMBERED>,
    captures: ArrayVec<Move, QUIETS_REMEMBERED>,
}

impl Tried {
    #[inline]
    fn push(&mut self, m: Move, quiet: bool) {
        // A node with more moves than remembered forgets the last ones: they matter least.
        let _ = if quiet {
            self.quiets.try_push(m)
        } else {
            self.captures.try_push(m)
        };
    }
}

/// What the singular-extension search (step 10a) decided about the table's move.
enum Singular {
    /// Search it this many plies deeper (negative: shallower).
    Extend(Depth),
    /// The node fails high with this score without searching further.
    MultiCut(Score),
}

/// What the move loop needs to know of its node, fixed once the node's own pruning is done.
#[derive(Clone, Copy)]
struct Node {
    /// The position's key.
    key: Key,
    depth: Depth,
    ply: Ply,
    /// An open window: the node is on the principal variation.
    pv_node: bool,
    in_check: bool,
    /// The static evaluation is above the one two plies before (our previous move helped).
    improving: bool,
    /// The evaluation before correction (`-INFINITE` in check), which correction history
    /// learns from.
    raw_eval: Score,
    /// The corrected static evaluation: what the node's pruning compares with the window.
    static_eval: Score,
    /// The move a singular-extension search of this node leaves out (step 10a).
    excluded: Option<Move>,
    /// What the tablebases say the node's value is at least and at most (step 2b; at PV
    /// nodes, where they bound the search's result rather than settle it).
    tb_floor: Score,
    tb_ceiling: Score,
}

impl Worker<'_> {
    /// The value of `pos` (whose key is on top of the key stack) searched to `depth`.
    /// Numbered steps in the order they run, as in Ethereal; the Elo of each is its SPRT in
    /// docs/strength.md (20k nodes/move; "package" marks the eight steps proven together, see
    /// `config.rs`).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn alpha_beta(
        &mut self,
        pos: &Chess,
        key: Key,
        depth: Depth,
        ply: Ply,
        alpha: Score,
        beta: Score,
        check: KnownCheck,
    ) -> Score {
        // Step 1: draws, the horizon (quiescence), the stop flag and the ply limit.
        self.pv.clear(ply);
        if self.is_repetition(pos) || is_dead_draw(pos) {
            return Score::DRAW;
        }
        if depth <= 0 {
            return self.quiescence(pos, key, ply, alpha, beta, check);
        }
        self.count_node(ply);
        if self.stopped {
            return Score::ZERO;
        }
        if ply >= MAX_PLY - 1 {
            return self.evaluate(pos, ply);
        }
        // Step 1b (−0.3 ± 3.5 at 5k nodes, a non-regression SPRT): mate distance pruning.
        let (mut alpha, beta) = match mate_distance_window(ply, alpha, beta) {
            Ok(window) => window,
            Err(settled) => return settled,
        };
        // A node on the principal variation has an open window; every other node is searched
        // with a null window, only to learn whether it beats alpha.
        let pv_node = beta.0 - alpha.0 > 1;

        // A singular-extension search of this node leaves one move out (step 10a): the table
        // holds the full node's result, which neither settles nor may be replaced by it.
        let excluded = self.stack[ply].excluded;

        // Step 2: the transposition table may settle the node at once.
        let tt_hit = if excluded.is_some() {
            None
        } else {
            match self.probe_table(key, depth, ply, alpha, beta, pv_node) {
                Ok(hit) => hit,
                Err(settled) => return settled,
            }
        };
        let tt_move = tt_hit.map_or(PackedMove::NONE, |hit| hit.mv);

        // Step 2b: the tablebases may settle the node, or bound a PV node's value.
        let (tb_floor, tb_ceiling) = if self.tb_cardinality == 0 || excluded.is_some() {
            (-Score::INFINITE, Score::INFINITE)
        } else {
            match self.probe_tablebases(pos, key, depth, ply, alpha, beta, pv_node) {
                Ok(bounds) => bounds,
                Err(settled) => return settled,
            }
        };
        alpha = alpha.max(tb_floor);

        // Step 3 (+29.0 ± 17.5): internal iterative reduction, where no table move guides
        // the ordering.
        let depth = self.reduced_without_table_move(depth, tt_move, excluded);

        // Step 4: the static evaluation (from the table where it kept one), 4b corrected by
        // correction history (package), and 4c whether it improved on two plies before
        // (package).
        let in_check = check.resolve(pos);
        let tt_eval = tt_hit.and_then(|hit| hit.eval);
        let (raw_eval, static_eval) = self.static_eval(pos, ply, in_check, tt_eval);
        self.stack[ply].static_eval = static_eval;

        let node = Node {
            key,
            depth,
            ply,
            pv_node,
            in_check,
            improving: self.steps.improving
                && !in_check
                && ply >= 2
                && static_eval > self.stack[ply - 2].static_eval,
            raw_eval,
            static_eval,
            excluded,
            tb_floor,
            tb_ceiling,
        };
        // Steps 5 to 7: the node's own pruning, before any move is searched.
        if let Some(score) = self.prune_node(pos, &node, beta, tt_hit) {
            return score;
        }

        self.search_moves(pos, node, alpha, beta, tt_hit)
    }

    /// Steps 5 to 7: the pruning a node may do on its static evaluation and shallow
    /// searches alone. `Some` when the node is settled without searching its moves.
    #[inline]
    fn prune_node(
        &mut self,
        pos: &Chess,
        node: &Node,
        beta: Score,
        tt_hit: Option<Hit>,
    ) -> Option<Score> {
        // Step 5 (+32.4 ± 18.7): reverse futility pruning.
        if self.reverse_futility_cuts(node, beta) {
            return Some(node.static_eval);
        }

        // Step 6 (+36.6 ± 20.2): null-move pruning.
        if self.tries_null_move(pos, node, beta) {
            if let Some(score) = self.null_move_search(pos, node, beta) {
                return Some(score);
            }
        }

        // Step 7 (+17.6 ± 12.7): probcut.
        if let Some(score) = self.probcut(pos, node, beta, tt_hit) {
            return Some(score);
        }
        None
    }

    /// Step 2b: probes the tablebases where they are exact and worth it (Stockfish's
    /// conditions): few enough pieces, deep enough (any depth below the largest tables' piece
    /// count), just after a capture or pawn move (the half-move clock is 0, so WDL is exact),
    /// no castling rights. A sure result settles the node and goes to the table; at a PV node
    /// a result that does not settle it bounds it: `Ok((floor, ceiling))`.
    #[allow(clippy::too_many_arguments)]
    fn probe_tablebases(
        &mut self,
        pos: &Chess,
        key: Key,
        depth: Depth,
        ply: Ply,
        alpha: Score,
        beta: Score,
        pv_node: bool,
    ) -> Result<(Score, Score), Score> {
        let open = Ok((-Score::INFINITE, Score::INFINITE));
        let pieces = pos.board().occupied().count();
        let cardinality = self.tb_cardinality;
        if pieces > cardinality
            || (pieces == cardinality && depth < self.settings.tb_probe_depth)
            || pos.halfmoves() != 0
            || pos.castles().any()
        {
            return open;
        }
        let Some(outcome) = self.shared.tablebases.probe_wdl(pos) else {
            return open;
        };
        self.stats.tb_hits += 1;
        let draw_band = i32::from(self.settings.tb_fifty_move_rule);
        let wdl = outcome.signum2();
        let (score, bound) = if wdl < -draw_band {
            (Score::tb_loss_in(ply), Bound::Upper)
        } else if wdl > draw_band {
            (Score::tb_win_in(ply), Bound::Lower)
        } else {
            (Score::DRAW + 2 * wdl * draw_band, Bound::Exact)
        };
        if bound.settles(score, alpha, beta) {
            let stored = Stored {
                depth: (depth + TB_STORE_DEPTH_BONUS).min(MAX_PLY as Depth - 1),
                score,
                bound,
                mv: None,
                eval: None,
            };
            self.shared.tt.store(key, ply, stored);
            return Err(score);
        }
        Ok(match (pv_node, bound) {
            (true, Bound::Lower) => (score, Score::INFINITE),
            (true, _) => (-Score::INFINITE, score),
            (false, _) => (-Score::INFINITE, Score::INFINITE),
        })
    }

    /// Step 2: probes the table. `Err(score)` when a deep enough entry settles the node (never
    /// at PV nodes, where it would cut the principal variation short), else what it found.
    fn probe_table(
        &mut self,
        key: Key,
        depth: Depth,
        ply: Ply,
        alpha: Score,
        beta: Score,
        pv_node: bool,
    ) -> Result<Option<Hit>, Score> {
        self.stats.tt_probes += 1;
        let Some(hit) = self.shared.tt.probe(key, ply) else {
            return Ok(None);
        };
        self.stats.tt_hits += 1;
        let deep_enough = match self.settings.tt_policy {
            TtPolicy::Cutoffs => hit.depth >= depth,
            TtPolicy::SameDepthCutoffs => hit.depth == depth,
            TtPolicy::MoveOnly => false,
        };
        if deep_enough && !pv_node && hit.settles(alpha, beta) {
            return Err(hit.score);
        }
        Ok(Some(hit))
    }

    /// Step 7: probcut. A good capture whose quiescence value and then a search
    /// `PROBCUT_REDUCTION` plies shallower both beat `beta + probcut_margin` would very likely
    /// beat beta at full depth: the node fails high with that score, which the table keeps.
    fn probcut(
        &mut self,
        pos: &Chess,
        node: &Node,
        beta: Score,
        tt_hit: Option<Hit>,
    ) -> Option<Score> {
        let probcut_beta = beta + probcut_margin();
        if !self.steps.probcut
            || node.pv_node
            || node.in_check
            || node.excluded.is_some()
            || node.depth < probcut_min_depth()
            || beta.is_decisive()
            // A stored search as deep as probcut's own already says the captures do not reach it.
            || tt_hit.is_some_and(|hit| {
                hit.depth >= node.depth - PROBCUT_REDUCTION && hit.score < probcut_beta
            })
        {
            return None;
        }
        let Node {
            key, depth, ply, ..
        } = *node;
        // Only captures that win at least the margin over the static evaluation by exchange.
        let threshold = probcut_beta.0 - node.static_eval.0;
        let mut buffer = MoveBuffer::new();
        let mut picker = StagedPicker::probcut(&mut buffer, self.steps.capture_history, threshold);
        while let Some(m) = picker.next(pos, self.history) {
            let score = self.visit_child(pos, key, ply, m, |worker, child, child_key| {
                let window = (-probcut_beta, -probcut_beta + 1);
                let score = -worker.quiescence(
                    child,
                    child_key,
                    ply + 1,
                    window.0,
                    window.1,
                    KnownCheck::Unknown,
                );
                if score < probcut_beta {
                    return score;
                }
                let depth = depth - 1 - PROBCUT_REDUCTION;
                -worker.alpha_beta(
                    child,
                    child_key,
                    depth,
                    ply + 1,
                    window.0,
                    window.1,
                    KnownCheck::Unknown,
                )
            });
            if self.stopped {
                return Some(Score::ZERO);
            }
            if score >= probcut_beta {
                let stored = Stored {
                    depth: depth - PROBCUT_REDUCTION,
                    score,
                    bound: Bound::Lower,
                    mv: Some(m),
                    eval: Some(node.raw_eval),
                };
                self.shared.tt.store(key, ply, stored);
                return Some(score);
            }
        }
        None
    }

    /// Step 6: whether to try a null move. If even passing leaves us at or above beta, a real
    /// move will too (barring zugzwang, which is why it needs pieces besides pawns).
    #[inline]
    fn tries_null_move(&self, pos: &Chess, node: &Node, beta: Score) -> bool {
        self.steps.null_move_pruning
            && !node.pv_node
            && !node.in_check
            && node.depth >= nmp_min_depth()
            && node.static_eval >= beta
            && !beta.is_decisive()
            && !self.after_null_move(node.ply)
            && node.excluded.is_none()
            && has_pieces(pos)
    }

    /// Step 6: passes and searches the opponent's reply at a reduced depth with a null window
    /// at beta. `Some` when the node is done: it failed high, or the search was stopped.
    fn null_move_search(&mut self, pos: &Chess, node: &Node, beta: Score) -> Option<Score> {
        let Node {
            key, depth, ply, ..
        } = *node;
        let reduction = nmp_base_reduction() + depth / nmp_depth_divisor();
        let score = -self.visit_null_child(pos, key, ply, |worker, child, child_key| {
            let depth = depth - 1 - reduction;
            // The opponent is never in check after our pass: we were not.
            let check = KnownCheck::Known(false);
            worker.alpha_beta(child, child_key, depth, ply + 1, -beta, -beta + 1, check)
        })?;
        if self.stopped {
            return Some(Score::ZERO);
        }
        // A mate or tablebase win found after passing is not proven for real moves.
        (score >= beta).then(|| if score.is_decisive() { beta } else { score })
    }

    /// Steps 8 to 12: the moves in order, each perhaps pruned, extended or reduced and
    /// searched by PVS; the result goes to the table.
    fn search_moves(
        &mut self,
        pos: &Chess,
        node: Node,
        mut alpha: Score,
        beta: Score,
        tt_hit: Option<Hit>,
    ) -> Score {
        let Node {
            key, depth, ply, ..
        } = node;
        let tt_move = tt_hit.map_or(PackedMove::NONE, |hit| hit.mv);
        let side = pos.turn();
        let continuation = self.continuation(ply);
        if let Some(draw_or_mate) = fifty_move_rule(pos, &node) {
            return draw_or_mate;
        }
        let mut buffer = MoveBuffer::new();
        let mut picker = self.order_moves(pos, &node, tt_move, continuation, &mut buffer);
        let mut best = node.tb_floor;
        let mut best_move: Option<Move> = None;
        let mut tried = Tried::default();
        let mut quiets_searched: Depth = 0;
        let checks = CheckInfo::new(pos);
        while let Some(m) = picker.next(pos, self.history) {
            let index = picker.handed_out() - 1;
            if node.excluded == Some(m) {
                continue;
            }
            let quiet = !is_tactical(&m);
            let is_tt_move = index == 0 && tt_move.matches(m);
            // From the node's check squares: a pruned move is never copied and played.
            let gives_check = checks.gives_check(pos, &m);
            // Step 9 (+108.9 ± 35.3): futility and late-move pruning of quiet moves that do
            // not give check (checks are how sacrifices pay off), decided before the move's
            // history is read: they do not depend on the move.
            let prunable = quiet && !gives_check && self.may_prune_quiets(&node, best);
            if prunable && self.prunes_late_quiets(&node, quiets_searched, alpha) {
                picker.end_pruned_quiets(|m| checks.gives_check(pos, m));
                continue;
            }
            // Read afresh (not the picker's sort key): the siblings searched since the quiet
            // moves were scored have taught the history.
            let history = self.quiet_history(side, &m, quiet, &continuation);
            // Step 9b (package): history pruning.
            if prunable && self.prunes_by_history(&node, history) {
                continue;
            }
            if quiet {
                quiets_searched += 1;
            }
            // Step 10: extensions (the table's move only when first, for singularity).
            let singular_candidate = tt_hit.filter(|_| is_tt_move);
            let extension =
                match self.extension(pos, &node, singular_candidate, m, gives_check, beta) {
                    Ok(plies) => plies,
                    Err(multi_cut) => return multi_cut,
                };
            // Step 11 (+43.8 ± 22.4 for LMR, +30.4 ± 18.0 for PVS): reduced null-window
            // search of late quiet moves, re-searched when they beat alpha.
            let reduction = self.reduction(&node, index, quiet, gives_check, history);
            let score = self.visit_child(pos, key, ply, m, |worker, child, child_key| {
                worker.principal_variation_search(
                    child,
                    child_key,
                    depth - 1 + extension,
                    ply + 1,
                    alpha,
                    beta,
                    index == 0,
                    reduction,
                    KnownCheck::Known(gives_check),
                )
            });
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
                        self.on_beta_cutoff(index, m, side, depth, ply, &tried);
                        break;
                    }
                }
            }
            tried.push(m, quiet);
        }

        // No legal move at all: mate or stalemate.
        if picker.handed_out() == 0 {
            return no_legal_move(&node);
        }
        // Step 12: the result to the table (and what it teaches the correction history); a
        // cutoff has taught the move ordering above. No more than the tables allow.
        self.result_to_table(pos, &node, best, beta, best_move)
    }

    /// Step 12: `best`, capped by the tablebases' ceiling, goes to the table and teaches the
    /// correction history, unless the node left a move out for the singular search.
    #[inline]
    fn result_to_table(
        &mut self,
        pos: &Chess,
        node: &Node,
        best: Score,
        beta: Score,
        best_move: Option<Move>,
    ) -> Score {
        let best = best.min(node.tb_ceiling);
        if node.excluded.is_some() {
            return best;
        }
        let bound = Bound::of(best, beta, best_move.is_some());
        let stored = Stored {
            depth: node.depth,
            score: best,
            bound,
            mv: best_move,
            eval: (!node.in_check).then_some(node.raw_eval),
        };
        self.shared.tt.store(node.key, node.ply, stored);
        self.learn_correction(pos, node, best, bound, best_move);
        best
    }

    /// Step 3's depth: one ply less where no table move guides the ordering (not in a singular
    /// search, and from `iir_min_depth` up).
    #[inline]
    fn reduced_without_table_move(
        &self,
        depth: Depth,
        tt_move: PackedMove,
        excluded: Option<Move>,
    ) -> Depth {
        if self.steps.internal_iterative_reduction
            && tt_move.is_none()
            && excluded.is_none()
            && depth >= iir_min_depth()
        {
            depth - 1
        } else {
            depth
        }
    }

    /// Step 4b's learning: the searched value against the raw evaluation, where the value
    /// means something about the evaluation (not in check, no capture decided it) and its
    /// bound points the way of the error.
    fn learn_correction(
        &mut self,
        pos: &Chess,
        node: &Node,
        best: Score,
        bound: Bound,
        best_move: Option<Move>,
    ) {
        if !self.steps.correction_history
            || node.in_check
            || best.is_decisive()
            || best_move.is_some_and(|m| is_tactical(&m))
        {
            return;
        }
        let static_eval = node.static_eval;
        let agrees = match bound {
            Bound::Exact => true,
            Bound::Lower => best > static_eval,
            Bound::Upper => best < static_eval,
        };
        if agrees {
            self.history
                .correction
                .update(pos, node.depth, node.raw_eval, best);
        }
    }

    /// A quiet move's history (butterfly, and continuation when on; 0 for a tactical move),
    /// read only where a step uses it (history pruning or reductions).
    #[inline]
    fn quiet_history(
        &self,
        side: shakmaty::Color,
        m: &Move,
        quiet: bool,
        continuation: &Continuation,
    ) -> i32 {
        if !quiet || (!self.steps.history_pruning && !self.steps.history_reductions) {
            return 0;
        }
        let context = self.steps.continuation_history.then_some(continuation);
        self.history.quiet_score(side, m, context)
    }

    /// Step 10: how many plies deeper `m` is searched. 10a (package):
    /// a singular table move one more, a table move that is not alone one less, and `Err`
    /// with the node's value when even the other moves reach beta (multi-cut). 10b (off: +3.1
    /// ± 25.0, inconclusive): a check one more.
    fn extension(
        &mut self,
        pos: &Chess,
        node: &Node,
        singular_candidate: Option<Hit>,
        m: Move,
        gives_check: bool,
        beta: Score,
    ) -> Result<Depth, Score> {
        if let Some(hit) = singular_candidate {
            match self.singular(pos, node, &hit, m, beta) {
                Singular::Extend(0) => {}
                Singular::Extend(plies) => return Ok(plies),
                Singular::MultiCut(score) => return Err(score),
            }
        }
        Ok(Depth::from(self.steps.check_extension && gives_check))
    }

    /// Step 10a: whether the table's move `m` is singular: searched without it, at half the
    /// depth, the node stays below `singular_beta`, a margin under the stored score. Then `m`
    /// is extended. If the other moves reach
    /// `singular_beta` and that is at least beta, several moves cut: the node fails high
    /// (multi-cut). If they reach it and the stored score is at least beta, `m` is likely
    /// not the only good move: it is searched a ply shallower (negative extension).
    fn singular(&mut self, pos: &Chess, node: &Node, hit: &Hit, m: Move, beta: Score) -> Singular {
        let depth = node.depth;
        if !self.steps.singular_extensions
            || node.ply == 0
            || depth < se_min_depth()
            || node.excluded.is_some()
            || hit.bound == Bound::Upper
            || hit.depth < depth - 3
            || hit.score.is_decisive()
        {
            return Singular::Extend(0);
        }
        let singular_beta = hit.score - se_margin() * depth;
        self.stack[node.ply].excluded = Some(m);
        let score = self.alpha_beta(
            pos,
            node.key,
            (depth - 1) / 2,
            node.ply,
            singular_beta - 1,
            singular_beta,
            KnownCheck::Known(node.in_check),
        );
        self.stack[node.ply].excluded = None;
        if self.stopped {
            return Singular::Extend(0);
        }
        if score < singular_beta {
            Singular::Extend(1)
        } else if singular_beta >= beta {
            Singular::MultiCut(singular_beta)
        } else if hit.score >= beta {
            Singular::Extend(-1)
        } else {
            Singular::Extend(0)
        }
    }

    /// Step 8 (SEE ordering: +167.7 ± 38.9, with quiescence SEE pruning): the moves in
    /// stages (`staged`): the table's move, captures, killers, quiet moves and losing
    /// captures, each generated when reached.
    fn order_moves<'m>(
        &self,
        pos: &Chess,
        node: &Node,
        tt_move: PackedMove,
        continuation: Continuation,
        buffer: &'m mut MoveBuffer,
    ) -> StagedPicker<'m> {
        StagedPicker::new(
            pos,
            node.in_check,
            buffer,
            tt_move,
            self.stack[node.ply].killers.get(),
            self.heuristics(continuation),
        )
    }

    /// Which ordering steps are on, with the history they read.
    #[inline]
    fn heuristics(&self, continuation: Continuation) -> Heuristics<'_> {
        Heuristics {
            history: self.history,
            continuation: self.steps.continuation_history.then_some(continuation),
            capture_history: self.steps.capture_history,
            see_ordering: self.steps.see_ordering,
        }
    }

    /// Step 5: whether the static evaluation is so far above beta that a shallow search would
    /// not come back down (a ply's margin less when improving).
    #[inline]
    fn reverse_futility_cuts(&self, node: &Node, beta: Score) -> bool {
        let depth = node.depth - Depth::from(node.improving);
        self.steps.reverse_futility_pruning
            && node.excluded.is_none()
            && !node.pv_node
            && !node.in_check
            && node.depth <= rfp_max_depth()
            && !beta.is_decisive()
            && node.static_eval - rfp_margin() * depth >= beta
    }

    /// Step 9: whether quiet, non-checking moves may be pruned at this node at all: not on
    /// the principal variation, not in check, and only once a move has kept us off a mate.
    #[inline]
    fn may_prune_quiets(&self, node: &Node, best: Score) -> bool {
        self.steps.futility_and_late_move_pruning
            && !node.pv_node
            && !node.in_check
            && best > -Score::TB_WIN_BOUND
    }

    /// Step 9: whether the quiet moves from here on are skipped, whichever they are: near the
    /// leaves after enough quiet moves (LMP; half as many when not improving), or too far
    /// below alpha (futility). Neither reads the move, so the move's history is not read for
    /// the moves they prune.
    #[inline]
    fn prunes_late_quiets(&self, node: &Node, quiets_searched: Depth, alpha: Score) -> bool {
        let depth = node.depth;
        let mut late_moves = lmp_base() + depth * depth;
        if self.steps.improving && !node.improving {
            late_moves /= 2;
        }
        (depth <= lmp_max_depth() && quiets_searched >= late_moves)
            || (depth <= fp_max_depth()
                && node.static_eval + fp_base() + fp_margin() * depth <= alpha)
    }

    /// Step 9b: whether a quiet move is skipped for its bad history (history pruning).
    #[inline]
    fn prunes_by_history(&self, node: &Node, history: i32) -> bool {
        self.steps.history_pruning
            && node.depth <= history_pruning_max_depth()
            && history < -history_pruning_margin() * node.depth
    }

    /// Step 11: the late-move reduction of the move at `index` (none for the first moves,
    /// tactical moves, checks and evasions; one ply less at PV nodes, one more when not
    /// improving, and less or more by the move's history).
    #[inline]
    fn reduction(
        &self,
        node: &Node,
        index: usize,
        quiet: bool,
        gives_check: bool,
        history: i32,
    ) -> Depth {
        let depth = node.depth;
        if self.steps.late_move_reductions
            && depth >= lmr_min_depth()
            && index >= lmr_min_move_index()
            && !node.in_check
            && quiet
            && !gives_check
        {
            let mut r = late_move_reduction(depth, index) - i32::from(node.pv_node);
            if self.steps.improving && !node.improving {
                r += 1;
            }
            if self.steps.history_reductions {
                r -= history / lmr_history_divisor();
            }
            r.clamp(0, depth - 2)
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
        check: KnownCheck,
    ) -> Score {
        if first {
            return -self.alpha_beta(child, child_key, depth, child_ply, -beta, -alpha, check);
        }
        let null_window = (-alpha - 1, -alpha);
        let mut score = -self.alpha_beta(
            child,
            child_key,
            depth - reduction,
            child_ply,
            null_window.0,
            null_window.1,
            check,
        );
        if score > alpha && reduction > 0 && !self.stopped {
            score = -self.alpha_beta(
                child,
                child_key,
                depth,
                child_ply,
                null_window.0,
                null_window.1,
                check,
            );
        }
        if score > alpha && score < beta && !self.stopped {
            -self.alpha_beta(child, child_key, depth, child_ply, -beta, -alpha, check)
        } else {
            score
        }
    }

    /// Counts the cutoff and teaches the ordering heuristics about it: the move that cut earns
    /// a bonus, the moves of its kind tried before it lose as much (and a quiet cut also
    /// punishes the captures tried before it, which did not cut).
    fn on_beta_cutoff(
        &mut self,
        index: usize,
        m: Move,
        side: shakmaty::Color,
        depth: Depth,
        ply: Ply,
        tried: &Tried,
    ) {
        self.stats.count_cutoff(index);
        let bonus = History::bonus(depth);
        if !is_tactical(&m) {
            self.stack[ply].killers.add(m);
            self.history.update(side, &m, bonus);
            for q in &tried.quiets {
                self.history.update(side, q, -bonus);
            }
            if self.steps.continuation_history {
                let context = self.continuation(ply);
                self.history.update_continuation(side, &m, &context, bonus);
                for q in &tried.quiets {
                    self.history.update_continuation(side, q, &context, -bonus);
                }
            }
        } else if self.steps.capture_history {
            self.history.update_capture(side, &m, bonus);
        }
        if self.steps.capture_history {
            for c in &tried.captures {
                self.history.update_capture(side, c, -bonus);
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

/// The value of a node with no legal move: mated in check, else stalemate.
#[inline]
fn no_legal_move(node: &Node) -> Score {
    if node.in_check {
        Score::mated_in(node.ply)
    } else {
        Score::DRAW
    }
}

/// The fifty-move rule's draw, after mate (which takes precedence): only a side in check can
/// be mated, so only then are the moves generated to tell. `None` while the rule is not due.
#[inline]
fn fifty_move_rule(pos: &Chess, node: &Node) -> Option<Score> {
    if pos.halfmoves() < 100 {
        return None;
    }
    Some(if node.in_check && pos.legal_moves().is_empty() {
        no_legal_move(node)
    } else {
        Score::DRAW
    })
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

/// Mate distance pruning: nothing at `ply` scores better than mating at the next ply or worse
/// than being mated now, so the window shrinks to those bounds, and an empty window is settled
/// (`Err`). Once a mate is found every longer line is cut at once instead of searched: a mate
/// in 1 took over a second to reach depth 20 under `go ponder` without it, and ran past the
/// hard limit after `ponderhit`.
#[inline]
fn mate_distance_window(ply: Ply, alpha: Score, beta: Score) -> Result<(Score, Score), Score> {
    let alpha = alpha.max(Score::mated_in(ply));
    let beta = beta.min(Score::mate_in(ply + 1));
    if alpha >= beta {
        Err(alpha)
    } else {
        Ok((alpha, beta))
    }
}
