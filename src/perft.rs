//! `cutoff perft` and `cutoff perft-suite` (to be written).

use std::process::ExitCode;

/// Command-line arguments of `cutoff perft`.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Command-line arguments of `cutoff perft-suite`.
#[derive(clap::Args, Debug)]
pub struct SuiteArgs {}

pub fn run(_args: Args) -> ExitCode {
    eprintln!("perft: not written yet");
    ExitCode::FAILURE
}

pub fn run_suite(_args: SuiteArgs) -> ExitCode {
    eprintln!("perft-suite: not written yet");
    ExitCode::FAILURE
}
