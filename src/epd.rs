//! `cutoff epd` (to be written).

use std::process::ExitCode;

/// Command-line arguments of `cutoff epd`.
#[derive(clap::Args, Debug)]
pub struct Args {}

pub fn run(_args: Args) -> ExitCode {
    eprintln!("epd: not written yet");
    ExitCode::FAILURE
}
