//! EPD test positions: [`format`](mod@format) reads a line into a position and its operations
//! (for `cutoff epd` and the perft suites), [`problem`] judges a chosen move against `bm`, `am`
//! and `c0`.

pub mod format;
pub mod problem;
