//! Static evaluation: two evaluations, each in its own room, and one door to them.
//!
//! - [`classical`]: hand-written terms (material, piece-square tables relative to both kings,
//!   mobility, pawn structure, king safety, threats), their weights fitted by `cutoff tune`;
//!   traced, so the tuner and the `eval` command can watch each term.
//! - [`nnue`]: the learned net over the 768 piece-square inputs, trained on self-play by
//!   `cutoff train`; the engine's default.
//! - [`Evaluator`] (`evaluator.rs`), the door: what a search thread owns and asks for a value,
//!   whichever evaluation it runs. [`wdl`] turns either evaluation's score into win/draw/loss
//!   odds with that evaluation's own fitted model. [`explain`] asks either evaluation, through
//!   the door, what each piece is worth and where each piece stands best.
//!
//! The two rooms do not import each other, nor anything beside them here: the door and the
//! WDL model import the rooms, never the other way (tests/architecture.rs).

pub mod classical;
mod evaluator;
pub mod explain;
pub mod nnue;
pub mod wdl;

pub use evaluator::{Evaluator, EvaluatorKind};
pub use nnue::Network;
