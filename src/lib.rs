//! Cutoff: a UCI chess engine built to show what alpha-beta pruning buys.

pub mod bench;
pub mod cli;
pub mod datagen;
pub mod epd;
pub mod eval;
pub mod files;
pub mod golden_section;
pub mod lab;
pub mod memory;
pub mod perft;
pub mod position;
pub mod rng;
pub mod search;
pub mod solve;
pub mod tablebase;
pub mod test_hooks;
pub mod threads;
pub mod train;
pub mod tune;
pub mod types;
pub mod uci;

/// What a test that cannot run says: for the unit tests only (the integration tests include
/// the same file from `tests/common`), so the library does not carry it.
#[cfg(test)]
mod testing;
