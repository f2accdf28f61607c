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

/// `go perft <depth>` inside the UCI loop: per-move counts, then the total.
pub fn uci_perft(game: &crate::position::Game, depth: u32) {
    use shakmaty::Position;
    let start = std::time::Instant::now();
    let mut total = 0u64;
    for m in game.root.legal_moves() {
        let mut child = game.root.clone();
        child.play_unchecked(m);
        let n = if depth <= 1 {
            1
        } else {
            shakmaty::perft(&child, depth - 1)
        };
        total += n;
        crate::uci::engine::send(&format!("{}: {n}", game.uci(m)));
    }
    if depth == 0 {
        total = 1;
    }
    let secs = start.elapsed().as_secs_f64().max(1e-9);
    crate::uci::engine::send("");
    crate::uci::engine::send(&format!("Nodes searched: {total}"));
    crate::uci::engine::send(&format!(
        "info string perft {total} nodes in {:.3} s ({:.0} nps)",
        secs,
        total as f64 / secs
    ));
}
