//! The main search: negamax alpha-beta, fail-soft (a node may return a score outside its
//! window, which makes the stored bounds tighter).

use arrayvec::ArrayVec;
use shakmaty::{Bitboard, Chess, Move, Position};

use super::best::{BestSoFar, Improvement};
use super::config::TtPolicy;
use super::movepick::MovePicker;
use super::ordering::{is_tactical, Heuristics, MoveBuffer};
use super::tables::history::{Continuation, History};
use super::tables::tt::{Hit, PackedMove, Stored};
use super::worker::{KnownCheck, Worker};

use super::draws::{fifty_move_rule, is_dead_draw, no_legal_move};
use super::params::QUIETS_REMEMBERED;
use super::selectivity::mate_distance::mate_distance_window;
use crate::position::{attacked_by, CheckInfo, Key};
use crate::types::{Bound, Depth, Ply, Score, MAX_PLY};

/// What the move loop and the selective steps (`selectivity/`) need to know of a node, fixed
/// once the node's own pruning is done.
#[derive(Clone, Copy)]
pub(super) struct Node {
    /// The position's key.
    pub(super) key: Key,
    pub(super) depth: Depth,
    pub(super) ply: Ply,
    /// An open window: the node is on the principal variation.
    pub(super) pv_node: bool,
    pub(super) in_check: bool,
    /// The static evaluation is above the one two plies before (our previous move helped).
    pub(super) improving: bool,
    /// The evaluation before correction (`-INFINITE` in check), which correction history
    /// learns from.
    pub(super) raw_eval: Score,
    /// The corrected static evaluation: what the node's pruning compares with the window.
    pub(super) static_eval: Score,
    /// The move a singular-extension search of this node leaves out (step 10a).
    pub(super) excluded: Option<Move>,
    /// What the tablebases say the node's value is at least and at most (step 2b; at PV
    /// nodes, where they bound the search's result rather than settle it).
    pub(super) tb_floor: Score,
    pub(super) tb_ceiling: Score,
}

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
        // A node entered after the stop (a probcut or re-search that followed a stopped
        // child) is not searched and not counted: `go nodes N` counts at most N.
        if self.stopped {
            return Score::ZERO;
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
        // correction history (package; 4d, +14.4 ± 8.0, by the non-pawn pieces too; 4e, +6.6 ±
        // 5.2, by the minor and the major pieces), and 4c whether it improved on two plies
        // before (package).
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
            improving: self.is_improving(ply, in_check, static_eval),
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

    /// Steps 8 to 12: the moves in order, each perhaps pruned, extended or reduced and
    /// searched by PVS; the result goes to the table.
    fn search_moves(
        &mut self,
        pos: &Chess,
        node: Node,
        alpha: Score,
        beta: Score,
        tt_hit: Option<Hit>,
    ) -> Score {
        let (key, depth, ply) = (node.key, node.depth, node.ply);
        let tt_move = tt_hit.map_or(PackedMove::NONE, |hit| hit.mv);
        let side = pos.turn();
        let continuation = self.continuation(ply);
        if let Some(draw_or_mate) = fifty_move_rule(pos, node.in_check, node.ply) {
            return draw_or_mate;
        }
        let mut buffer = MoveBuffer::new();
        let mut picker = self.order_moves(pos, &node, tt_move, continuation, &mut buffer);
        let mut best = BestSoFar::new(node.tb_floor, alpha);
        let mut tried = Tried::default();
        let mut quiets_searched: Depth = 0;
        let checks = CheckInfo::new(pos);
        while let Some(m) = self.next_move(&mut picker, pos, &node, &best, quiets_searched, &checks)
        {
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
            let prunable = quiet && !gives_check && self.may_prune_quiets(&node, best.score);
            if prunable && self.prunes_late_quiets(&node, quiets_searched, best.alpha) {
                picker.end_pruned_quiets(|m| checks.gives_check(pos, m));
                continue;
            }
            // Read afresh (not the picker's sort key): the siblings searched since the quiet
            // moves were scored have taught the history.
            let history = self.quiet_history(ply, side, &m, quiet, &continuation);
            // Step 9b (package): history pruning; 9c (+71.2 ± 20.3): SEE pruning.
            let known_good = picker.gave_winning_capture();
            if (prunable && self.prunes_by_history(&node, history))
                || self.prunes_by_see(pos, &node, &m, (quiet, known_good), best.score)
            {
                continue;
            }
            if quiet {
                quiets_searched += 1;
            }
            // Step 10 (10a package, 10b off, 10c +8.0): extensions; singular: a first table move.
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
                    best.alpha,
                    beta,
                    index == 0,
                    reduction,
                    KnownCheck::Known(gives_check),
                )
            });
            if self.stopped {
                return Score::ZERO;
            }
            let improvement = best.consider(score, m, beta);
            if improvement != Improvement::None {
                self.pv.update(ply, m);
            }
            if improvement == Improvement::FailedHigh {
                self.on_beta_cutoff(index, m, side, depth, ply, &tried);
                break;
            }
            tried.push(m, quiet);
        }

        // No legal move at all: mate or stalemate.
        if picker.handed_out() == 0 {
            return no_legal_move(node.in_check, node.ply);
        }
        // Step 12: the result to the table (and what it teaches the correction history); a
        // cutoff has taught the move ordering above. No more than the tables allow.
        self.result_to_table(pos, &node, best.score, beta, best.mv)
    }

    /// The main search's next move, with step 9's rule for the quiet stage as a whole asked
    /// as the picker reaches it: the picker then need not key quiet moves that would all be
    /// pruned (`MovePicker::next_pruning`).
    #[inline(always)]
    fn next_move(
        &self,
        picker: &mut MovePicker<'_>,
        pos: &Chess,
        node: &Node,
        best: &BestSoFar,
        quiets_searched: Depth,
        checks: &CheckInfo,
    ) -> Option<Move> {
        picker.next_pruning(
            pos,
            self.history,
            || self.prunes_every_quiet(node, best.score, quiets_searched, best.alpha),
            Some(checks),
        )
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
            self.history.correction.update(
                &self.stack[node.ply].correction_keys,
                pos.turn(),
                node.depth,
                node.raw_eval,
                best,
                self.steps.correction_tables(),
            );
        }
    }

    /// A quiet move's history (butterfly, and continuation when on; 0 for a tactical move),
    /// read only where a step uses it (history pruning or reductions).
    #[inline]
    fn quiet_history(
        &self,
        ply: Ply,
        side: shakmaty::Color,
        m: &Move,
        quiet: bool,
        continuation: &Continuation,
    ) -> i32 {
        if !quiet || (!self.steps.history_pruning && !self.steps.history_reductions) {
            return 0;
        }
        let context = self.steps.continuation_history.then_some(continuation);
        let threats = self.stack[ply].threats;
        self.history.quiet_score(side, m, threats, context)
    }

    /// Step 8 (SEE ordering: +167.7 ± 38.9, with quiescence SEE pruning): the moves in
    /// stages (`movepick`): the table's move, captures, killers, quiet moves and losing
    /// captures, each generated when reached. Step 8d (+29.2 ± 13.1): the squares the
    /// opponent attacks, which key the node's quiet history, are found here, once.
    fn order_moves<'m>(
        &mut self,
        pos: &Chess,
        node: &Node,
        tt_move: PackedMove,
        continuation: Continuation,
        buffer: &'m mut MoveBuffer,
    ) -> MovePicker<'m> {
        self.stack[node.ply].threats = if self.steps.threat_history {
            attacked_by(pos.board(), !pos.turn())
        } else {
            Bitboard::EMPTY
        };
        MovePicker::new(
            pos,
            node.in_check,
            buffer,
            tt_move,
            self.stack[node.ply].killers.get(),
            self.heuristics(continuation, node.ply),
        )
    }

    /// Which ordering steps are on, with the history they read.
    #[inline]
    fn heuristics(&self, continuation: Continuation, ply: Ply) -> Heuristics<'_> {
        Heuristics {
            history: self.history,
            continuation: self.steps.continuation_history.then_some(continuation),
            capture_history: self.steps.capture_history,
            see_ordering: self.steps.see_ordering,
            threats: self.stack[ply].threats,
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
            let threats = self.stack[ply].threats;
            self.history.update(side, &m, threats, bonus);
            for q in &tried.quiets {
                self.history.update(side, q, threats, -bonus);
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
}
