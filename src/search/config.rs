//! How a search searches, in two values set by the caller (the UCI options, a test) and read
//! by the search: [`Steps`], which of the selective steps run, and [`Settings`], how the engine
//! is set up (lines reported, time kept back, the evaluator, the table's use). How long it
//! searches is [`super::Limits`]; what every thread shares (the table) is `super::shared`.

use std::time::Duration;

use super::params::DEFAULT_MOVE_OVERHEAD_MS;
use crate::eval::EvaluatorKind;

/// How the search may use what the transposition table returns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TtPolicy {
    /// A stored result at least as deep as needed settles the node (normal play).
    #[default]
    Cutoffs,
    /// Only a result of exactly the needed depth settles the node. The search then returns the
    /// same fixed-depth value as without a table, which the tests use to check the table.
    SameDepthCutoffs,
    /// The table only orders moves (its move goes first); it never settles a node.
    MoveOnly,
}

/// Which selective steps of the search run: one `bool` per step, read where the step is taken,
/// so that a test can switch one off alone (`tests/search_correctness.rs` does, to show each
/// is wired).
///
/// [`Steps::default`] is the engine that plays: every step in it passed its SPRT against the
/// build before it (the Elo in each field's comment, at 20k nodes per move unless said; the
/// record is in docs/strength.md), except the check extension, the one open candidate. Steps
/// that failed their SPRT are not kept switched off here: they leave the code, and their
/// record stays in docs/strength.md. Step numbers are those of `alphabeta.rs`, in the order
/// the steps run; each selective step's condition and action, which read its switch here, are
/// in its file under `selectivity/`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Steps {
    /// Step 3 (+29.0 ± 17.5, 1046 games): internal iterative reduction, one ply less where no
    /// table move guides the ordering.
    pub internal_iterative_reduction: bool,
    /// Step 4b (package, see below): the static evaluation is corrected by the errors the
    /// search found in it for the same pawn structure (correction history).
    pub correction_history: bool,
    /// Step 4d (+14.4 ± 8.0, 3,926 games): the correction also learns by each side's pieces
    /// other than pawns (two more tables, their entries and the pawns' summed).
    pub non_pawn_correction: bool,
    /// Step 4e (+6.6 ± 5.2, 9,812 games): and by the minor pieces' and the major pieces'
    /// placement (both colours, each with the kings), the five entries summed.
    pub minor_major_correction: bool,
    /// Step 4c (package): an `improving` flag (the static evaluation is above the one two
    /// plies before) widens reverse futility pruning's margin by a ply, halves late-move
    /// pruning's count and adds a ply of LMR when false.
    pub improving: bool,
    /// Step 5 (+32.4 ± 18.7, 860 games): reverse futility pruning.
    pub reverse_futility_pruning: bool,
    /// Step 6 (+36.6 ± 20.2): null-move pruning.
    pub null_move_pruning: bool,
    /// Step 7 (+17.6 ± 12.7, 1800 games): probcut. A capture whose reduced search beats beta
    /// by a margin is taken to make the full node fail high.
    pub probcut: bool,
    /// Step 8: captures that lose material by static exchange are ordered after the quiet
    /// moves. Only ordering: the fixed-depth value of the plain search does not depend on it.
    /// Proven together with `quiescence_see_pruning` (+167.7 ± 38.9, 232 games).
    pub see_ordering: bool,
    /// Step 8b (package, +28.6 ± 18.7 alone): quiet moves are also ordered by their history
    /// after each of the two moves before them (continuation history).
    pub continuation_history: bool,
    /// Step 8c (package): captures are also ordered by their own history (by piece, square
    /// and victim), in the main search and in quiescence.
    pub capture_history: bool,
    /// Step 8d (+29.2 ± 13.1, 1548 games): the quiet (butterfly) history is also keyed by
    /// whether the opponent attacks the move's from- and to-square (threat-aware history).
    pub threat_history: bool,
    /// Step 9 (+108.9 ± 35.3, 290 games): futility and late-move pruning of quiet moves.
    pub futility_and_late_move_pruning: bool,
    /// Step 9b (package; alone −25.7, H0, kept with the package it passed in): quiet moves
    /// with a bad history are skipped near the leaves.
    pub history_pruning: bool,
    /// Step 9c (+71.2 ± 20.3, 668 games): moves that lose too much by static exchange are skipped near the
    /// leaves, quiet ones and captures each by their own depth-scaled margin.
    pub see_pruning: bool,
    /// Step 10a (package, +58.5 alone): singular extensions, with multi-cut and negative
    /// extensions.
    pub singular_extensions: bool,
    /// Step 10b: one ply more for moves that give check. The one open candidate: two SPRTs
    /// stopped inconclusive (+10.4 ± 20.7 in 634 games, +3.1 ± 25.0 in 448), so off.
    pub check_extension: bool,
    /// Step 10c (+8.0 ± 5.5, 8,854 games in seven streams pooled): a table move far below the
    /// singular margin (`se_double_margin` more) is extended by two plies, at most
    /// `se_double_max` times on one path.
    pub double_extensions: bool,
    /// Step 11 (+43.8 ± 22.4): late-move reductions.
    pub late_move_reductions: bool,
    /// Step 11b (package): LMR reduces quiet moves with a good history less, with a bad one
    /// more.
    pub history_reductions: bool,
    /// Quiescence step 2 (package, +34.6 ± 19.6 alone): quiescence probes the table (any entry
    /// may settle it) and stores its results at depth 0.
    pub quiescence_tt: bool,
    /// Quiescence step 3b (+15 at 20k nodes, SPRT seed 7702; docs/strength.md, search round
    /// 4): standing pat takes the table's score where its bound points past the evaluation.
    pub quiescence_tt_stand_pat: bool,
    /// Quiescence step 4: captures that lose material by static exchange are skipped (see
    /// `see_ordering`).
    pub quiescence_see_pruning: bool,
    /// Narrow root windows around the previous iteration's score, widened on a fail. Only
    /// speed: the value of the plain search does not depend on the window.
    pub aspiration_windows: bool,
    /// The time manager gives more time while the best move changes, the score falls or the
    /// other root moves take a large share of the nodes, less once it has settled (+30.2 ±
    /// 18.0 in 714 games at 10+0.1, SPRT 0/10, H1).
    pub time_manager_scaling: bool,
}

// The package: steps 4b, 4c, 8b, 8c, 9b, 10a, 11b and quiescence step 2 were proven together,
// +80.9 ± 30.3 in 354 games (SPRT against the build without them, 20k nodes); each alone is
// the package against itself without it (docs/strength.md, 26 Nov).

impl Default for Steps {
    fn default() -> Self {
        Steps {
            internal_iterative_reduction: true,
            correction_history: true,
            non_pawn_correction: true,
            minor_major_correction: true,
            improving: true,
            reverse_futility_pruning: true,
            null_move_pruning: true,
            probcut: true,
            see_ordering: true,
            continuation_history: true,
            capture_history: true,
            threat_history: true,
            futility_and_late_move_pruning: true,
            history_pruning: true,
            see_pruning: true,
            singular_extensions: true,
            check_extension: false,
            double_extensions: true,
            late_move_reductions: true,
            history_reductions: true,
            quiescence_tt: true,
            quiescence_tt_stand_pat: true,
            quiescence_see_pruning: true,
            aspiration_windows: true,
            time_manager_scaling: true,
        }
    }
}

impl Steps {
    /// The correction tables in use besides the pawns' (steps 4d and 4e).
    #[inline]
    pub(crate) fn correction_tables(&self) -> super::tables::correction::Tables {
        super::tables::correction::Tables {
            non_pawn: self.non_pawn_correction,
            minor_major: self.minor_major_correction,
        }
    }

    /// Plain alpha-beta with quiescence: every step that prunes, reduces or extends is off,
    /// so the fixed-depth value does not depend on move order or window (the tests compare
    /// the selective search and the table against it). The steps that only order moves or
    /// narrow windows (`see_ordering`, the histories, `aspiration_windows`) stay as in the
    /// default: they make it faster without changing its value.
    pub fn plain() -> Steps {
        Steps {
            internal_iterative_reduction: false,
            correction_history: false,
            non_pawn_correction: false,
            minor_major_correction: false,
            improving: false,
            reverse_futility_pruning: false,
            null_move_pruning: false,
            probcut: false,
            futility_and_late_move_pruning: false,
            history_pruning: false,
            see_pruning: false,
            singular_extensions: false,
            check_extension: false,
            double_extensions: false,
            late_move_reductions: false,
            history_reductions: false,
            quiescence_tt: false,
            quiescence_tt_stand_pat: false,
            quiescence_see_pruning: false,
            ..Steps::default()
        }
    }
}

/// How the engine is set up, apart from which steps run: what the UCI options and the tools
/// set. A new setting (a tablebase probe depth, a strength limit) goes here; a resource that
/// every thread reads (tablebases, a net's weights) goes to `super::shared::Shared` instead.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Lines to report per iteration (UCI `MultiPV`).
    pub multipv: usize,
    /// Subtracted from every time budget for GUI and pipe latency (UCI `Move Overhead`).
    pub move_overhead: Duration,
    /// Which evaluation every thread's evaluator computes. Changing it empties the table,
    /// whose stored evaluations are the old evaluator's.
    pub evaluator: EvaluatorKind,
    /// How the search may use what the table returns (tests change it).
    pub tt_policy: TtPolicy,
    /// Tablebases are probed in the search from this depth on (UCI `SyzygyProbeDepth`),
    /// and at any depth below the largest tables' piece count.
    pub tb_probe_depth: i32,
    /// Positions with more pieces than this are not probed (UCI `SyzygyProbeLimit`).
    pub tb_probe_limit: usize,
    /// Wins the 50-move rule spoils count as draws (UCI `Syzygy50MoveRule`).
    pub tb_fifty_move_rule: bool,
    /// Tests: every network evaluation is checked against one from scratch (slow).
    pub verify_net: bool,
    /// Play at this Elo (UCI `UCI_LimitStrength` with `UCI_Elo`; `super::strength`), or at
    /// full strength.
    pub strength_elo: Option<i32>,
}

impl Settings {
    /// The evaluation the search runs: the chosen one, but the classical one under a strength
    /// limit, whose levels were calibrated in games with it (docs/strength.md) and would play
    /// stronger than their labels with the net.
    pub fn effective_evaluator(&self) -> EvaluatorKind {
        if self.strength_elo.is_some() {
            EvaluatorKind::Classical
        } else {
            self.evaluator
        }
    }
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            multipv: 1,
            move_overhead: Duration::from_millis(DEFAULT_MOVE_OVERHEAD_MS),
            evaluator: EvaluatorKind::default(),
            tt_policy: TtPolicy::Cutoffs,
            tb_probe_depth: 1,
            tb_probe_limit: 7,
            tb_fifty_move_rule: true,
            verify_net: false,
            strength_elo: None,
        }
    }
}
