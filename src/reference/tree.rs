//! `cutoff tree` (to be written).

use std::process::ExitCode;

/// Command-line arguments of `cutoff tree`.
#[derive(clap::Args, Debug)]
pub struct Args {}

pub fn run(_args: Args) -> ExitCode {
    eprintln!("tree: not written yet");
    ExitCode::FAILURE
}
