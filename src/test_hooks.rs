//! Run-time hooks for the tests that watch the built engine: each is read from the environment
//! of the process, and unset (as everywhere but in those tests) it changes nothing. They are
//! part of the library because the engine the tests start is the release one; what a test that
//! cannot run says (`src/testing.rs`) is for tests only and is not.

/// The variable of the test hook [`fail_search_at_depth`].
pub const FAIL_SEARCH_AT_DEPTH: &str = "CUTOFF_TEST_FAIL_SEARCH_AT_DEPTH";

/// A test hook, for the tests that watch what a search that failed does in the built engine:
/// with `CUTOFF_TEST_FAIL_SEARCH_AT_DEPTH=D` in its environment, every search's main thread
/// panics once it has reported its iteration at depth `D`, as a real failure would (a net check
/// that does not hold, a bug), so the path that answers it (`info string error: the search
/// failed ...`, then one `bestmove`) runs for real. Read once a process; unset (as everywhere
/// but in those tests) it changes nothing, and costs a load an iteration.
pub fn fail_search_at_depth() -> Option<i32> {
    static DEPTH: std::sync::OnceLock<Option<i32>> = std::sync::OnceLock::new();
    *DEPTH.get_or_init(|| {
        std::env::var(FAIL_SEARCH_AT_DEPTH)
            .ok()?
            .trim()
            .parse()
            .ok()
    })
}
