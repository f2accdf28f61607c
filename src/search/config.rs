//! How a search searches: one [`SearchConfig`] value, set by the caller (the UCI options, a
//! test) and read by every step of the search. How long it searches is [`super::Limits`].

use std::time::Duration;

use crate::params::DEFAULT_MOVE_OVERHEAD_MS;

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

/// Everything about a search that a caller may switch. Each selective step of the search is a
/// plain `bool` read where the step is taken, so that a test can switch one off alone.
///
/// [`SearchConfig::default`] is the engine that plays: a step is on there only once its SPRT
/// against the build before it passed (the Elo in each field's comment; the record is in
/// docs/strength.md, at 20k nodes per move). A step that is written but not proven stays off
/// there, so that the next round of testing can switch it on and measure it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchConfig {
    /// `alpha_beta` step 3 (+29.0 ± 17.5, 1046 games): internal iterative reduction, one ply
    /// less where no table move guides the ordering.
    pub internal_iterative_reduction: bool,
    /// Step 4 (+32.4 ± 18.7, 860 games): reverse futility pruning.
    pub reverse_futility_pruning: bool,
    /// Step 5 (+36.6 ± 20.2): null-move pruning.
    pub null_move_pruning: bool,
    /// Step 6: captures that lose material by static exchange are ordered after the quiet
    /// moves. Only ordering: the fixed-depth value of the plain search does not depend on it.
    /// Proven together with `quiescence_see_pruning` (+167.7 ± 38.9, 232 games).
    pub see_ordering: bool,
    /// Quiescence skips captures that lose material by static exchange (see `see_ordering`).
    pub quiescence_see_pruning: bool,
    /// Step 7 (+108.9 ± 35.3, 290 games): futility and late-move pruning of quiet moves.
    pub futility_and_late_move_pruning: bool,
    // The eight steps below were proven together, +80.9 ± 30.3 in 354 games (SPRT against
    // the build without them, 20k nodes; docs/strength.md). Each alone (the package against
    // itself without it): singular extensions +58.5, quiescence's table +34.6, continuation
    // history +28.6, the others within ±8 of nothing (history pruning −25.7, H0);
    // docs/strength.md, 26 Nov.
    /// Step 6b: quiet moves are also ordered by their history after each of the two moves
    /// before them (continuation history).
    pub continuation_history: bool,
    /// Step 6c: captures are also ordered by their own history (by piece, square and victim),
    /// in the main search and in quiescence.
    pub capture_history: bool,
    /// An `improving` flag (the static evaluation is above the one two plies before) widens
    /// RFP's margin by a ply, halves LMP's count and adds a ply of LMR when false.
    pub improving: bool,
    /// Step 7b: quiet moves with a bad history are skipped near the leaves.
    pub history_pruning: bool,
    /// Step 9b: LMR reduces quiet moves with a good history less, with a bad one more.
    pub history_reductions: bool,
    /// Quiescence probes the table (any entry may settle it) and stores its results at depth
    /// 0.
    pub quiescence_tt: bool,
    /// Step 3b: the static evaluation is corrected by the errors the search found in it for
    /// the same pawn structure (correction history).
    pub correction_history: bool,
    /// Step 8a: singular extensions, with multi-cut and negative extensions.
    pub singular_extensions: bool,
    /// Step 8a, double: a singular move at a non-PV node whose alternatives stay far below
    /// `singular_beta` is extended two plies (at most `se_double_max` times on a path), as in
    /// Stockfish. Off: −9.8 ± 23.8 in 570 games (stopped leaning H0).
    pub double_extensions: bool,
    /// Step 3c: razoring and the null move compare the table's score instead of the static
    /// evaluation with the window where the score's bound says the value lies beyond the
    /// evaluation. Reverse futility pruning once read it too; that version passed in a package
    /// with delta pruning and the table's buckets (+18.4 ± 13.2, 1588 games; alone +12.7 ± 22.0
    /// in 686, stopped) but hid the quiet-sacrifice mate in two of `tests/uci_search.rs` up to
    /// depth 12, and reverse futility pruning was the step that did it. Off until this
    /// version has its own SPRT. This version (the null move only): −7.8 ± 20.0 in 716
    /// games, stopped; off.
    pub tt_adjusted_eval: bool,
    /// Step 4b: razoring. Near the leaves, a node whose static evaluation is far below alpha
    /// is settled by quiescence when even the captures cannot lift it to alpha. Not proven
    /// (+6.4 ± 11.0 in 2338 games, stopped inconclusive), so off by default.
    pub razoring: bool,
    /// Step 5a: the null move's reduction grows by a ply per `nmp_eval_divisor` centipawns
    /// the evaluation stands above beta (at most `nmp_eval_max_reduction`), as in Stockfish
    /// and Ethereal. Not proven, so off by default.
    pub nmp_eval_reduction: bool,
    /// Quiescence skips a capture that cannot reach alpha even if the captured piece came
    /// for free plus `qs_delta_margin` (delta pruning). Passed only in the package with step
    /// 3c (+18.4 ± 13.2), which came off; alone +15.3 ± 25.4 in 410 games, with the table's
    /// buckets +2.3 ± 21.6 (both stopped): off until an SPRT of its own passes.
    pub quiescence_delta_pruning: bool,
    /// Step 5b (+17.6 ± 12.7, 1800 games): probcut. A capture whose reduced search beats beta
    /// by a margin is taken to make the full node fail high.
    pub probcut: bool,
    /// Step 8: one ply more for moves that give check. Not proven (two SPRTs stopped
    /// inconclusive: +10.4 ± 20.7 in 634 games, +3.1 ± 25.0 in 448), so off by default.
    pub check_extension: bool,
    /// Step 9 (+43.8 ± 22.4): late-move reductions.
    pub late_move_reductions: bool,
    /// Step 9c: LMR reduces `lmr_cut_node` plies more at expected cut nodes (a null-window
    /// child that its parent expects to fail high, as in Stockfish's `cutNode`). Off: −6.5
    /// ± 19.0 in 808 games (stopped, no gain shown).
    pub cut_node_reductions: bool,
    /// Step 9d: LMR reduces quiet moves a ply more when the table's best move is a capture
    /// (Stockfish's `ttCapture`): the quiet moves after it rarely beat it. Off: +1.3 ± 18.9
    /// in 816 games (stopped, no gain shown).
    pub tt_capture_reductions: bool,
    /// Narrow root windows around the previous iteration's score, widened on a fail. Only
    /// speed: the value of the plain search does not depend on the window.
    pub aspiration_windows: bool,
    /// Step 6d: quiet moves are scored by history only when the move picker first reaches
    /// them, so a node that cuts on the table move, a capture or a killer never reads their
    /// history, and the later ones read it after the first moves' subtrees have updated it;
    /// LMR and history pruning then reuse the score the move was ordered by. Fewer
    /// instructions per node; it changes the tree, so it is on only once its SPRT passes.
    pub lazy_quiet_scoring: bool,
    /// The time manager gives more time while the best move changes, the score falls or the
    /// other root moves take a large share of the nodes, less once it has settled. On:
    /// +30.2 ± 18.0 in 714 games at 10+0.1 (SPRT 0/10, H1; docs/strength.md).
    pub time_manager_scaling: bool,
    pub tt_policy: TtPolicy,
    /// Lines to report per iteration (UCI `MultiPV`).
    pub multipv: usize,
    /// Subtracted from every time budget for GUI and pipe latency (UCI `Move Overhead`).
    pub move_overhead: Duration,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            internal_iterative_reduction: true,
            reverse_futility_pruning: true,
            null_move_pruning: true,
            see_ordering: true,
            quiescence_see_pruning: true,
            futility_and_late_move_pruning: true,
            continuation_history: true,
            capture_history: true,
            improving: true,
            history_pruning: true,
            history_reductions: true,
            quiescence_tt: true,
            correction_history: true,
            singular_extensions: true,
            double_extensions: false,
            tt_adjusted_eval: false,
            razoring: false,
            nmp_eval_reduction: false,
            quiescence_delta_pruning: false,
            probcut: true,
            check_extension: false,
            late_move_reductions: true,
            cut_node_reductions: false,
            tt_capture_reductions: false,
            aspiration_windows: true,
            lazy_quiet_scoring: false,
            time_manager_scaling: true,
            tt_policy: TtPolicy::Cutoffs,
            multipv: 1,
            move_overhead: Duration::from_millis(DEFAULT_MOVE_OVERHEAD_MS),
        }
    }
}

impl SearchConfig {
    /// Plain alpha-beta with quiescence: every step that prunes, reduces or extends is off,
    /// so the fixed-depth value does not depend on move order or window (the tests compare
    /// the selective search and the table against it). The steps that only order moves or
    /// narrow windows (`see_ordering`, `aspiration_windows`) stay as in the default: they make
    /// it faster without changing its value.
    pub fn plain() -> SearchConfig {
        SearchConfig {
            internal_iterative_reduction: false,
            reverse_futility_pruning: false,
            null_move_pruning: false,
            quiescence_see_pruning: false,
            futility_and_late_move_pruning: false,
            improving: false,
            history_pruning: false,
            history_reductions: false,
            quiescence_tt: false,
            correction_history: false,
            singular_extensions: false,
            double_extensions: false,
            tt_adjusted_eval: false,
            razoring: false,
            nmp_eval_reduction: false,
            quiescence_delta_pruning: false,
            probcut: false,
            check_extension: false,
            late_move_reductions: false,
            cut_node_reductions: false,
            tt_capture_reductions: false,
            ..SearchConfig::default()
        }
    }
}
