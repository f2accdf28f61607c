//! `cutoff compare` (to be written).

use std::process::ExitCode;

/// Command-line arguments of `cutoff compare`.
#[derive(clap::Args, Debug)]
pub struct Args {}

pub fn run(_args: Args) -> ExitCode {
    eprintln!("compare: not written yet");
    ExitCode::FAILURE
}
