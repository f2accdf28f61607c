//! The main search's selectivity: the predicates and margins of its pruning, reductions and
//! extensions, one small function each, named for the question it answers. The numbered steps
//! of `alphabeta.rs` ask them where they run (and keep each step's Elo there); each answer
//! reads only the node, the window and the steps that are on.

#[cfg(not(feature = "spsa"))]
use std::sync::OnceLock;

use shakmaty::{Chess, Move, Position};

use super::params::*;
use super::see::see_at_least;
use super::tables::tt::{Hit, PackedMove};
use super::worker::Worker;
use crate::position::Key;
use crate::types::{Bound, Depth, Ply, Score};

/// What the move loop needs to know of its node, fixed once the node's own pruning is done.
/// Defined here, beside the predicates that read it, so that `alphabeta.rs` imports this file
/// and not the other way round.
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

/// What the singular-extension search (step 10a) decided about the table's move.
pub(super) enum Singular {
    /// Search it this many plies deeper (negative: shallower).
    Extend(Depth),
    /// The node fails high with this score without searching further.
    MultiCut(Score),
}

impl Worker<'_> {
    /// Step 2b: whether the tablebases are exact and worth probing here (Stockfish's
    /// conditions): few enough pieces, deep enough (any depth below the largest tables' piece
    /// count), just after a capture or pawn move (the half-move clock is 0, so WDL is exact),
    /// no castling rights.
    #[inline]
    pub(super) fn probes_tablebases(&self, pos: &Chess, depth: Depth) -> bool {
        let pieces = pos.board().occupied().count();
        let cardinality = self.tb_cardinality;
        pieces <= cardinality
            && (pieces < cardinality || depth >= self.settings.tb_probe_depth)
            && pos.halfmoves() == 0
            && !pos.castles().any()
    }

    /// Step 3's depth: one ply less where no table move guides the ordering (not in a singular
    /// search, and from `iir_min_depth` up).
    #[inline]
    pub(super) fn reduced_without_table_move(
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

    /// Step 4c: whether the static evaluation at `ply` is above the one two plies before (our
    /// previous move helped); never in check, where there is none.
    #[inline]
    pub(super) fn is_improving(&self, ply: Ply, in_check: bool, static_eval: Score) -> bool {
        self.steps.improving
            && !in_check
            && ply >= 2
            && static_eval > self.stack[ply - 2].static_eval
    }

    /// Step 5: whether the static evaluation is so far above beta that a shallow search would
    /// not come back down (a ply's margin less when improving).
    #[inline]
    pub(super) fn reverse_futility_cuts(&self, node: &Node, beta: Score) -> bool {
        let depth = node.depth - Depth::from(node.improving);
        self.steps.reverse_futility_pruning
            && node.excluded.is_none()
            && !node.pv_node
            && !node.in_check
            && node.depth <= rfp_max_depth()
            && !beta.is_decisive()
            && node.static_eval - rfp_margin() * depth >= beta
    }

    /// Step 6: whether to try a null move. If even passing leaves us at or above beta, a real
    /// move will too (barring zugzwang, which is why it needs pieces besides pawns).
    #[inline]
    pub(super) fn tries_null_move(&self, pos: &Chess, node: &Node, beta: Score) -> bool {
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

    /// Step 7: whether to try probcut at this node, whose captures must reach `probcut_beta`
    /// (see [`probcut_beta`]).
    #[inline]
    pub(super) fn tries_probcut(
        &self,
        node: &Node,
        beta: Score,
        probcut_beta: Score,
        tt_hit: Option<Hit>,
    ) -> bool {
        self.steps.probcut
            && !node.pv_node
            && !node.in_check
            && node.excluded.is_none()
            && node.depth >= probcut_min_depth()
            && !beta.is_decisive()
            // A stored search as deep as probcut's own already says the captures do not reach it.
            && !tt_hit.is_some_and(|hit| {
                hit.depth >= node.depth - PROBCUT_REDUCTION && hit.score < probcut_beta
            })
    }

    /// Step 9: whether quiet, non-checking moves may be pruned at this node at all: not on
    /// the principal variation, not in check, and only once a move has kept us off a mate.
    #[inline]
    pub(super) fn may_prune_quiets(&self, node: &Node, best: Score) -> bool {
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
    pub(super) fn prunes_late_quiets(
        &self,
        node: &Node,
        quiets_searched: Depth,
        alpha: Score,
    ) -> bool {
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
    pub(super) fn prunes_by_history(&self, node: &Node, history: i32) -> bool {
        self.steps.history_pruning
            && node.depth <= history_pruning_max_depth()
            && history < -history_pruning_margin() * node.depth
    }

    /// Step 9c: whether a move is skipped for what it loses by static exchange near the
    /// leaves: a quiet move that puts a piece where it is lost, a capture that loses more
    /// than it takes. Never before a move has kept us off a mate (`best`), so a node always
    /// searches one move; never for a capture the picker already found not losing
    /// (`known_good`), which no negative threshold would prune.
    #[inline]
    pub(super) fn prunes_by_see(
        &self,
        pos: &Chess,
        node: &Node,
        m: &Move,
        (quiet, known_good): (bool, bool),
        best: Score,
    ) -> bool {
        let depth = node.depth;
        if !self.steps.see_pruning
            || known_good
            || depth > see_pruning_max_depth()
            || best <= -Score::TB_WIN_BOUND
        {
            return false;
        }
        let margin = if quiet {
            see_quiet_margin()
        } else {
            see_noisy_margin()
        };
        !see_at_least(pos, m, -margin * depth)
    }

    /// Step 10a: whether the table's move may be tested for singularity: deep enough, not at
    /// the root nor inside another singular search, and the stored search says the move is at
    /// least as good as its (not decisive) score, from nearly as deep.
    #[inline]
    pub(super) fn tries_singular(&self, node: &Node, hit: &Hit) -> bool {
        let depth = node.depth;
        self.steps.singular_extensions
            && node.ply != 0
            && depth >= se_min_depth()
            && node.excluded.is_none()
            && hit.bound != Bound::Upper
            && hit.depth >= depth - 3
            && !hit.score.is_decisive()
    }

    /// Step 10c: whether a singular table move (its siblings' best `score` below
    /// `singular_beta`) is so far alone that it gets a second ply: off the principal
    /// variation, `se_double_margin` further below, and not more than `se_double_max` times on
    /// the path from the root, which bounds how far a line can grow.
    #[inline]
    pub(super) fn extends_twice(&self, node: &Node, score: Score, singular_beta: Score) -> bool {
        self.steps.double_extensions
            && !node.pv_node
            && score < singular_beta - se_double_margin()
            && i32::from(self.stack[node.ply].double_extensions) < se_double_max()
    }

    /// Step 10b: a check is searched one ply deeper (when the step is on).
    #[inline]
    pub(super) fn check_extension(&self, gives_check: bool) -> Depth {
        Depth::from(self.steps.check_extension && gives_check)
    }

    /// Step 10: how many plies deeper `m` is searched. 10a (package):
    /// a singular table move one more, a table move that is not alone one less, and `Err`
    /// with the node's value when even the other moves reach beta (multi-cut). 10b (off: +3.1
    /// ± 25.0, inconclusive): a check one more. 10c (+8.0 ± 5.5): a very singular move two.
    pub(super) fn extension(
        &mut self,
        pos: &Chess,
        node: &Node,
        singular_candidate: Option<Hit>,
        m: Move,
        gives_check: bool,
        beta: Score,
    ) -> Result<Depth, Score> {
        let plies = match singular_candidate.map(|hit| self.singular(pos, node, &hit, m, beta)) {
            Some(Singular::MultiCut(score)) => return Err(score),
            Some(Singular::Extend(plies)) if plies != 0 => plies,
            _ => self.check_extension(gives_check),
        };
        // Step 10c: the child's path holds this node's double extensions, and this one.
        let below = self.stack[node.ply].double_extensions + u8::from(plies >= 2);
        self.stack[node.ply + 1].double_extensions = below;
        Ok(plies)
    }

    /// Step 11: the late-move reduction of the move at `index` (none for the first moves,
    /// tactical moves, checks and evasions; one ply less at PV nodes, one more when not
    /// improving, and less or more by the move's history).
    #[inline]
    pub(super) fn reduction(
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
}

/// Mate distance pruning: nothing at `ply` scores better than mating at the next ply or worse
/// than being mated now, so the window shrinks to those bounds, and an empty window is settled
/// (`Err`). Once a mate is found every longer line is cut at once instead of searched: a mate
/// in 1 took over a second to reach depth 20 under `go ponder` without it, and ran past the
/// hard limit after `ponderhit`.
#[inline]
pub(super) fn mate_distance_window(
    ply: Ply,
    alpha: Score,
    beta: Score,
) -> Result<(Score, Score), Score> {
    let alpha = alpha.max(Score::mated_in(ply));
    let beta = beta.min(Score::mate_in(ply + 1));
    if alpha >= beta {
        Err(alpha)
    } else {
        Ok((alpha, beta))
    }
}

/// Whether the side to move has a piece besides king and pawns (zugzwang is then unlikely).
#[inline]
fn has_pieces(pos: &Chess) -> bool {
    let board = pos.board();
    let ours = board.by_color(pos.turn());
    !(ours & !board.pawns() & !board.kings()).is_empty()
}

/// Step 6: how many plies shallower than a child the null move's reply is searched (more the
/// deeper the node).
#[inline]
pub(super) fn null_move_reduction(depth: Depth) -> Depth {
    nmp_base_reduction() + depth / nmp_depth_divisor()
}

/// Step 7: what a capture must beat for probcut: `probcut_margin` above beta.
#[inline]
pub(super) fn probcut_beta(beta: Score) -> Score {
    beta + probcut_margin()
}

/// Step 10a: the window a singular search tests the other moves against: a margin under the
/// stored score, wider the deeper the node.
#[inline]
pub(super) fn singular_beta(hit: &Hit, depth: Depth) -> Score {
    hit.score - se_margin() * depth
}

/// Step 10a: what the other moves' value `score` (searched below `singular_beta`) says about
/// the table's move: singular if they stay below; several moves cut if they reach it and it
/// is at least beta (multi-cut); not alone if the stored score is at least beta (a ply
/// shallower); else nothing.
#[inline]
pub(super) fn singular_verdict(
    score: Score,
    singular_beta: Score,
    stored: Score,
    beta: Score,
) -> Singular {
    if score < singular_beta {
        Singular::Extend(1)
    } else if singular_beta >= beta {
        Singular::MultiCut(singular_beta)
    } else if stored >= beta {
        Singular::Extend(-1)
    } else {
        Singular::Extend(0)
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
#[cfg(not(feature = "spsa"))]
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
#[cfg(feature = "spsa")]
fn late_move_reduction(depth: Depth, index: usize) -> Depth {
    Depth::from(reduction_formula((depth as usize).min(63), index.min(63)))
}
