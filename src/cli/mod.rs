//! The command-line tools, side by side: each file is one subcommand's arguments (clap `Args`),
//! its `run`, and what it prints. The work itself is in the library modules below them
//! ([`crate::perft`], [`crate::epd`], [`crate::eval::explain`], [`crate::bench`], [`crate::datagen`], [`crate::tune`], [`crate::train`],
//! [`crate::reference`], [`crate::tablebase`]), and what the commands share in [`crate::util`]. No command imports
//! another.

pub mod bench;
pub mod compare;
pub mod datagen;
pub mod epd;
pub mod explain;
pub mod perft;
pub mod syzygy;
pub mod train;
pub mod tree;
pub mod tune;

use crate::eval::EvaluatorKind;

/// The evaluation a command's searches run (`--eval`; UCI `Evaluation`): the net by default,
/// the classical one to reproduce what was measured or generated with it.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EvalArg {
    #[default]
    Net,
    Classical,
}

impl From<EvalArg> for EvaluatorKind {
    fn from(arg: EvalArg) -> EvaluatorKind {
        match arg {
            EvalArg::Net => EvaluatorKind::Net,
            EvalArg::Classical => EvaluatorKind::Classical,
        }
    }
}

/// The parser of a `usize` count that cannot be zero (`--threads`, `--jobs`, `--hidden`, ...):
/// 0 is a usage error (exit 2) naming the flag, rather than silently taken as 1 or found out
/// after the work has started. (`u64` counts use `clap::value_parser!(u64).range(1..)`.)
pub fn at_least_one() -> clap::builder::RangedU64ValueParser<usize> {
    clap::builder::RangedU64ValueParser::<usize>::new().range(1..)
}
