//! The UCI protocol: `command` parses lines, `engine` executes them.

/// Runs the UCI loop on stdin/stdout until `quit` or end of input.
pub fn run() {}
