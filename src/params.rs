//! Every tunable number of the search and time manager, in one place, named.

/// Nodes between two looks at the clock and the stop flag.
pub const POLL_INTERVAL_NODES: u64 = 1024;

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
/// History scores stay within +-`HISTORY_MAX` (so they always sort below killers).
pub const HISTORY_MAX: i32 = 16_384;

/// Aspiration windows: from this depth on, an iteration starts with a window this wide
/// (centipawns) around the previous score, widening by `ASPIRATION_GROWTH_PERCENT` on
/// every fail.
pub const ASPIRATION_MIN_DEPTH: i32 = 4;
pub const ASPIRATION_WINDOW: i32 = 25;
pub const ASPIRATION_GROWTH_PERCENT: i32 = 200;
