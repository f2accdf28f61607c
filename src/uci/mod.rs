//! The UCI protocol: [`command`] parses lines, [`engine`] executes them, [`options`] holds the
//! advertised options. Commands are read on this thread while the search runs on its own, so
//! `isready`, `stop` and `quit` are answered at once.

pub mod command;
pub mod engine;
pub mod options;

use std::io::BufRead;

use engine::{send_error, Engine, Flow};

/// Runs the UCI loop on stdin/stdout until `quit` or end of input.
pub fn run() {
    let mut engine = Engine::default();
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut buffer = Vec::new();
    loop {
        buffer.clear();
        match input.read_until(b'\n', &mut buffer) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        // Garbage bytes become replacement characters and then an unknown-command error.
        let line = String::from_utf8_lossy(&buffer);
        match command::parse(&line) {
            Ok(cmd) => {
                if engine.execute(cmd) == Flow::Quit {
                    return;
                }
            }
            Err(e) => send_error(&e),
        }
    }
    engine.finish();
}
