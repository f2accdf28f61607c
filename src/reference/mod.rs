//! Plain reference minimax and alpha-beta over a game-tree trait, separate from the production
//! search, to check Cutoff's founding claim: alpha-beta returns exactly the minimax value while
//! visiting far fewer nodes, and move ordering, the transposition table and iterative deepening
//! make the pruning bite.
//!
//! - [`minimax`]: the [`minimax::GameTree`] trait, minimax, fail-hard alpha-beta (explicit
//!   Max/Min, cut on α ≥ β), move orders, and the counters. Counter meanings match
//!   [`crate::search::Stats`]: `nodes` is every position visited (root and leaves included);
//!   a beta cutoff is a node where a move's score reached β (for Min: fell to α — the same event
//!   in negamax terms) and ended that node's search; `first_move_cutoffs` are those made by the
//!   first move searched. `leaves` counts the static evaluations actually made.
//! - [`bracket`]: trees written as nested brackets, for `cutoff tree`.
//! - [`chess`]: shakmaty positions searched to a fixed depth, and the orderings of
//!   `cutoff compare`.
//! - [`tree`], [`compare`]: what the two subcommands ([`crate::cli::tree`],
//!   [`crate::cli::compare`]) run and print; [`svg`]: the nodes-per-depth plot. Their web pages
//!   (`--html`) are drawn in [`crate::pages`] from this data, never the other way round.
//!   [`cost`]: what a `compare` depth will cost, from perft counts, said before it starts.
//!
//! This code is for teaching and testing, not speed: it allocates a move list per node and
//! clones positions (copy-make).

pub mod bracket;
pub mod chess;
pub mod compare;
pub mod cost;
pub mod minimax;
pub mod svg;
pub mod tree;
