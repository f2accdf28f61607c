//! The UCI protocol: [`command`] parses lines, [`engine`] executes them, [`options`] holds the
//! advertised options, [`output`] writes the lines, [`perft`] answers `go perft`. Commands are
//! read on this thread while the search runs on its own, so `isready`, `stop` and `quit` are
//! answered at once.

pub mod command;
pub mod engine;
pub mod options;
pub mod output;
pub mod perft;

use std::io::{BufRead, Read};

use engine::{Engine, Flow};
use output::send_error;

/// The longest input line read: thousands of times any real command (a `position` with a
/// 1000-move game is about 5 KB), and a bound on the memory a line without end can take.
pub const MAX_LINE_BYTES: usize = 16 << 20;

/// Runs the UCI loop on stdin/stdout until `quit` or end of input.
pub fn run() {
    let mut engine = Engine::default();
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut buffer = Vec::new();
    loop {
        buffer.clear();
        match (&mut input)
            .take(MAX_LINE_BYTES as u64 + 1)
            .read_until(b'\n', &mut buffer)
        {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        if buffer.len() > MAX_LINE_BYTES && buffer.last() != Some(&b'\n') {
            skip_line(&mut input);
            send_error(&format!(
                "line longer than {} MiB ignored",
                MAX_LINE_BYTES >> 20
            ));
            continue;
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

/// Discards input up to and including the next newline (or to the end of input).
fn skip_line(input: &mut impl BufRead) {
    loop {
        let chunk = match input.fill_buf() {
            Ok(chunk) if !chunk.is_empty() => chunk,
            _ => return,
        };
        match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => {
                input.consume(i + 1);
                return;
            }
            None => {
                let n = chunk.len();
                input.consume(n);
            }
        }
    }
}
