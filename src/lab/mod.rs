//! The lab: the three teaching tools of the command line, each whole in its own room — what it
//! computes, the text it prints and the page it draws — over the shared page machinery.
//!
//! - [`minimax`]: plain minimax and fail-hard alpha-beta over a game-tree trait (explicit
//!   Max/Min, cut on α ≥ β), move orders, and the counters, kept apart from the production
//!   search to check Cutoff's founding claim: alpha-beta returns exactly the minimax value
//!   while visiting far fewer nodes, and move ordering, the transposition table and iterative
//!   deepening make the pruning bite. Counter meanings match [`crate::search::Stats`]: `nodes`
//!   is every position visited (root and leaves included); a beta cutoff is a node where a
//!   move's score reached β (for Min: fell to α — the same event in negamax terms) and ended
//!   that node's search; `first_move_cutoffs` are those made by the first move searched.
//!   `leaves` counts the static evaluations actually made.
//! - [`tree`]: `cutoff tree`, minimax and alpha-beta on a tree written as nested brackets.
//! - [`compare`]: `cutoff compare`, minimax against alpha-beta with several move orderings on
//!   a chess position.
//! - [`explain`]: `cutoff explain`, what each piece is worth to the net and to the classical
//!   evaluation (measured in [`crate::eval::explain`]).
//! - [`html`]: the page shell, the JSON writer and the shared style the three pages use.
//!
//! In each room the page (`page.rs`, `--html`) is drawn from the data the text report is
//! printed from, never the other way round; the command-line doors ([`crate::cli::tree`],
//! [`crate::cli::compare`], [`crate::cli::explain`]) only read the arguments and call in.
//!
//! The lab's searches are for teaching and testing, not speed: they allocate a move list per
//! node and clone positions (copy-make).

pub mod compare;
pub mod explain;
pub mod html;
pub mod minimax;
pub mod tree;
