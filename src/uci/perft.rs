//! `go perft <depth>`: the perft count inside the UCI loop.

use std::time::Instant;

use super::output::{send, send_error};
use crate::perft::{divide, MAX_DEPTH};
use crate::position::Game;
use crate::threads::default_threads;
use crate::types::nps;

/// Prints the count in Stockfish's format: `<move>: <count>` per root move in the game's
/// castling notation, a blank line, `Nodes searched: <total>`, then the speed as an
/// `info string`. Uses every core and no hash table (exact, and nothing to size).
pub fn uci_perft(game: &Game, depth: u32) {
    if depth > MAX_DEPTH {
        return send_error(&format!(
            "go perft: depth {depth} is beyond the maximum {MAX_DEPTH}"
        ));
    }
    let start = Instant::now();
    let moves = divide(&game.root, depth, default_threads(), 0);
    let total: u64 = if depth == 0 {
        1
    } else {
        moves.iter().map(|(_, n)| n).sum()
    };
    let elapsed = start.elapsed();
    for (m, n) in &moves {
        send(&format!("{}: {n}", game.uci(*m)));
    }
    send("");
    send(&format!("Nodes searched: {total}"));
    send(&format!(
        "info string perft {total} nodes in {} ms ({:.1} Mnps)",
        elapsed.as_millis(),
        nps(total, elapsed) / 1e6
    ));
}
