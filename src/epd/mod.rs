//! EPD test positions: [`format`](mod@format) reads a line into a position and its operations
//! (for `cutoff epd` and the perft suites), [`problem`] judges a chosen move against `bm`, `am`
//! and `c0`, and reads a suite file's lines into problems. Searching them is above the search,
//! in [`crate::solve`].

pub mod format;
pub mod problem;
