//! The UCI protocol: [`command`] parses lines, [`engine`] executes them (the session: the
//! position, the options, the searcher), [`options`] holds the advertised options, [`output`]
//! writes the lines, [`perft`] answers `go perft`; `task` is one `go`'s search on its thread,
//! `info` its `info` lines, `display` the `d` and `eval` displays. Commands are
//! read on this thread while the search runs on its own, so `isready`, `stop` and `quit` are
//! answered at once.

pub mod command;
mod display;
pub mod engine;
mod info;
pub mod options;
pub mod output;
pub mod perft;
mod task;

use std::io::{BufRead, Read};

use engine::{Engine, Flow};
use output::send_error;

/// The longest input line read: thousands of times any real command (a `position` with a
/// 1000-move game is about 5 KB), and a bound on the memory a line without end can take.
pub const MAX_LINE_BYTES: usize = 16 << 20;

/// The UTF-8 byte-order mark. Editors on Windows (Notepad among them) start a saved text file
/// with it, so a command file piped to the engine (`cutoff < commands.txt`) begins with it; it
/// marks the start of a stream, not a command.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// The text of an input line as the commands read it: a byte-order mark at the start of the
/// input (`first`: the first line) dropped, as a GUI or a file's reader would, so that the
/// first command is not an unknown one; one anywhere later is not the start of a stream and
/// is left to be reported. Garbage bytes become replacement characters and then an
/// unknown-command error.
fn line_text(buffer: &[u8], first: bool) -> std::borrow::Cow<'_, str> {
    let bytes = if first {
        buffer.strip_prefix(BOM).unwrap_or(buffer)
    } else {
        buffer
    };
    String::from_utf8_lossy(bytes)
}

/// Runs the UCI loop on stdin/stdout until `quit` or end of input.
pub fn run() {
    let mut engine = Engine::default();
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut buffer = Vec::new();
    let mut first = true;
    loop {
        buffer.clear();
        match (&mut input)
            .take(MAX_LINE_BYTES as u64 + 1)
            .read_until(b'\n', &mut buffer)
        {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        let at_start = std::mem::take(&mut first);
        if buffer.len() > MAX_LINE_BYTES && buffer.last() != Some(&b'\n') {
            skip_line(&mut input);
            send_error(&format!(
                "line longer than {} MiB ignored",
                MAX_LINE_BYTES >> 20
            ));
            continue;
        }
        let line = line_text(&buffer, at_start);
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A byte-order mark before the first command made it `unknown command: \u{feff}uci`
    /// (issue 80): at the start of the input it is dropped; later it is left as sent.
    #[test]
    fn a_byte_order_mark_is_dropped_from_the_first_line_only() {
        assert_eq!(line_text(b"\xEF\xBB\xBFuci\n", true), "uci\n");
        assert_eq!(line_text(b"\xEF\xBB\xBF", true), "");
        assert_eq!(line_text(b"uci\n", true), "uci\n");
        assert_eq!(line_text(b"\xEF\xBB\xBFisready", false), "\u{feff}isready");
        // Only one mark, and only at the very start.
        assert_eq!(
            line_text(b"\xEF\xBB\xBF\xEF\xBB\xBFuci", true),
            "\u{feff}uci"
        );
        assert_eq!(line_text(b" \xEF\xBB\xBFuci", true), " \u{feff}uci");
    }
}
