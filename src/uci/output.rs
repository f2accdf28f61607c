//! Writing protocol lines: everything the UCI loop says goes through [`send`].

use std::io::Write;

/// Writes one protocol line to stdout and flushes it at once.
pub fn send(line: &str) {
    let written = {
        let mut out = std::io::stdout().lock();
        writeln!(out, "{line}").and_then(|()| out.flush())
    };
    // A closed stdout means the GUI went away: nobody can read a move any more, so leave
    // quietly instead of searching on (or panicking) with no one listening.
    if written.is_err() {
        std::process::exit(0);
    }
}

/// Writes `info string error: ...`.
pub fn send_error(message: &str) {
    send(&format!("info string error: {message}"));
}
