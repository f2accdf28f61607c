//! `cutoff bench` (to be written).

use std::process::ExitCode;

/// Command-line arguments of `cutoff bench`.
#[derive(clap::Args, Debug)]
pub struct Args {}

pub fn run(_args: Args) -> ExitCode {
    eprintln!("bench: not written yet");
    ExitCode::FAILURE
}
