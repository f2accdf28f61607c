//! The main search's selective steps, one file each, in the order `alphabeta.rs` runs them:
//! each file holds its step whole — when it applies (its predicate, which reads the step's
//! switch in `Steps`), what it does (the shallow search or the extra plies it costs) and the
//! numbers it is built from (read through `search::params`, whose one table declares every
//! tunable with its range: the SPSA tools read and write that table). `alphabeta.rs` keeps the
//! numbered list, each step with its Elo, and calls these as `Worker` methods.
//!
//! | step | file |
//! |---|---|
//! | 1b mate distance pruning | `mate_distance.rs` |
//! | 2b tablebase probes | `tablebases.rs` |
//! | 3 internal iterative reduction | `iir.rs` |
//! | 4c improving | `improving.rs` |
//! | 5 reverse futility pruning | `reverse_futility.rs` |
//! | 6 null-move pruning | `null_move.rs` |
//! | 7 probcut | `probcut.rs` |
//! | 9 futility and late-move pruning | `futility.rs` |
//! | 9b history pruning | `history_pruning.rs` |
//! | 9c SEE pruning | `see_pruning.rs` |
//! | 10 extensions (10a singular, 10b check, 10c double) | `extensions.rs` |
//! | 11 late-move reductions (11b by history) | `reductions.rs` |

mod extensions;
mod futility;
mod history_pruning;
mod iir;
mod improving;
pub(super) mod mate_distance;
mod null_move;
mod probcut;
mod reductions;
mod reverse_futility;
mod see_pruning;
mod tablebases;
