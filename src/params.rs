//! Every tunable number of the search and time manager, in one place, named.
//! Which steps the search takes is not set here but in `search::SearchConfig`, at run time.

/// Nodes between two looks at the clock and the stop flag.
pub const POLL_INTERVAL_NODES: u64 = 1024;

/// Lazy SMP: helper thread `i` (1 and up) skips the iterations at the depths `d` for which
/// `(d + HELPER_SKIP_PHASE[j]) / HELPER_SKIP_SIZE[j]` is odd, `j = (i - 1) % 20`, so that the
/// helpers spread over neighbouring depths (Stockfish 8's tables): the first two take turns,
/// later ones skip pairs, triples, fours.
pub const HELPER_SKIP_SIZE: [i32; 20] =
    [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
pub const HELPER_SKIP_PHASE: [i32; 20] =
    [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];

/// Time manager: moves assumed left in the game when the GUI sends no `movestogo`.
pub const DEFAULT_MOVES_TO_GO: u32 = 25;
/// Share of the increment the soft target spends, in percent.
pub const INCREMENT_USE_PERCENT: u32 = 75;
/// The hard limit is at most this many soft targets...
pub const HARD_LIMIT_SOFT_MULTIPLE: u32 = 4;
/// ...and at most this share of the remaining time, in percent.
pub const HARD_LIMIT_MAX_PERCENT: u32 = 40;
/// With `movestogo 1` the whole remainder is ours; keep this share of it in reserve, in percent.
pub const LAST_MOVE_RESERVE_PERCENT: u32 = 20;
/// Do not start another iteration after this share of the soft target is used, in percent
/// (the next one would take several times longer than the last).
pub const NEW_ITERATION_MAX_PERCENT: u32 = 55;
/// Default of the `Move Overhead` option, in milliseconds.
pub const DEFAULT_MOVE_OVERHEAD_MS: u64 = 20;

/// Move ordering: sort keys, highest first.
pub const ORDER_TT_MOVE: i32 = 1 << 30;
pub const ORDER_GOOD_CAPTURE: i32 = 1 << 28;
pub const ORDER_FIRST_KILLER: i32 = 1 << 27;
pub const ORDER_SECOND_KILLER: i32 = (1 << 27) - 1;
/// Captures that lose material by static exchange go after every quiet move.
pub const ORDER_BAD_CAPTURE: i32 = -(1 << 20);
/// History scores stay within +-`HISTORY_MAX` (so they always sort below killers).
pub const HISTORY_MAX: i32 = 16_384;

/// Aspiration windows: from this depth on, an iteration starts with a window this wide
/// (centipawns) around the previous score, widening by `ASPIRATION_GROWTH_PERCENT` on
/// every fail.
pub const ASPIRATION_MIN_DEPTH: i32 = 4;
pub const ASPIRATION_WINDOW: i32 = 25;
pub const ASPIRATION_GROWTH_PERCENT: i32 = 200;

/// Null-move pruning: from this depth on, a side that could pass and still reach beta at a
/// depth reduced by `NMP_BASE_REDUCTION + depth / NMP_DEPTH_DIVISOR` is assumed to fail high.
pub const NMP_MIN_DEPTH: i32 = 3;
pub const NMP_BASE_REDUCTION: i32 = 3;
pub const NMP_DEPTH_DIVISOR: i32 = 4;

/// Late-move reductions: quiet moves after the first `LMR_MIN_MOVE_INDEX` at depth
/// `LMR_MIN_DEPTH` or more are searched `LMR_BASE + ln(depth) * ln(move number) / LMR_DIVISOR`
/// plies shallower (one less at PV nodes), and again at full depth if they beat alpha.
pub const LMR_MIN_DEPTH: i32 = 3;
pub const LMR_MIN_MOVE_INDEX: usize = 2;
pub const LMR_BASE: f64 = 0.75;
pub const LMR_DIVISOR: f64 = 2.25;

/// Reverse futility pruning: at depth `RFP_MAX_DEPTH` or less, a node whose static evaluation
/// beats beta by `RFP_MARGIN` per ply of depth is assumed to fail high.
pub const RFP_MAX_DEPTH: i32 = 6;
pub const RFP_MARGIN: i32 = 80;

/// Futility pruning: at depth `FP_MAX_DEPTH` or less, quiet moves are skipped when the static
/// evaluation plus `FP_BASE + FP_MARGIN * depth` still cannot reach alpha.
pub const FP_MAX_DEPTH: i32 = 6;
pub const FP_BASE: i32 = 100;
pub const FP_MARGIN: i32 = 90;
/// Late-move pruning: at depth `LMP_MAX_DEPTH` or less, quiet moves after the first
/// `LMP_BASE + depth * depth` quiet ones are skipped.
pub const LMP_MAX_DEPTH: i32 = 6;
pub const LMP_BASE: i32 = 3;

/// Internal iterative reduction: a node at depth `IIR_MIN_DEPTH` or more with no move from the
/// table is searched one ply shallower (it was probably not worth a table entry before).
pub const IIR_MIN_DEPTH: i32 = 4;

/// Time manager, per completed iteration: the soft target is scaled (in percent) by how
/// settled the search looks. A best move that just changed earns `TM_UNSTABLE_PERCENT`; one
/// unchanged for `TM_STABLE_ITERATIONS` iterations only `TM_STABLE_PERCENT`. A score that
/// dropped by `TM_SCORE_DROP_CP` or more since the last iteration adds `TM_SCORE_DROP_PERCENT`.
pub const TM_UNSTABLE_PERCENT: u32 = 140;
pub const TM_STABLE_PERCENT: u32 = 75;
pub const TM_STABLE_ITERATIONS: u32 = 4;
pub const TM_SCORE_DROP_CP: i32 = 25;
pub const TM_SCORE_DROP_PERCENT: u32 = 40;
