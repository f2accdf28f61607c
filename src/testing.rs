//! What a test says when it cannot run. cargo hides a passing test's stderr and stdout, so a
//! skip that only printed would look like a pass: [`skip`] also appends a line to the file
//! named by `CUTOFF_SKIPPED_LOG` (`.ci/run` lists that file at its end, so a green run names
//! what it did not check), and fails the test instead where `CUTOFF_REQUIRE` names what is
//! missing (`.ci/run` requires the tables of `../shared` and python-chess, which CI has).
//!
//! Tests only: the library declares it for its unit tests alone (`#[cfg(test)] mod testing`
//! in `lib.rs`), and the integration tests include this same file (`tests/common/mod.rs`), so
//! the built engine carries none of it. The run-time hooks that tests set in the engine's
//! environment are in `crate::test_hooks`.

use std::io::Write;

/// What a skipped check needed and did not find.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Need {
    /// The Syzygy tables (or other files) of `../shared`.
    Shared,
    /// python-chess, for the independent cross-checks.
    PythonChess,
    /// A processor feature (AVX2, AVX-512) or an operating-system file such as `/dev/zero`.
    Machine,
}

impl Need {
    /// The name `CUTOFF_REQUIRE` uses for it (comma-separated).
    pub fn name(self) -> &'static str {
        match self {
            Need::Shared => "shared",
            Need::PythonChess => "python-chess",
            Need::Machine => "machine",
        }
    }
}

/// Whether `CUTOFF_REQUIRE` (a comma-separated list) names `need`.
fn required(need: Need, list: Option<&str>) -> bool {
    list.is_some_and(|l| l.split(',').any(|n| n.trim() == need.name()))
}

/// The line a skip writes, on stdout and in the log.
pub fn skip_line(test: &str, need: Need, why: &str) -> String {
    format!("SKIPPED: {test}: {why} (needs {})", need.name())
}

/// Records that `test` skips (part of) its check because `need` is missing, saying `why`:
/// `SKIPPED: ...` on stdout and in the `CUTOFF_SKIPPED_LOG` file. Panics instead where
/// `CUTOFF_REQUIRE` names `need`, so a machine that should have it fails loudly.
pub fn skip(test: &str, need: Need, why: &str) {
    let line = skip_line(test, need, why);
    let list = std::env::var("CUTOFF_REQUIRE").ok();
    if required(need, list.as_deref()) {
        panic!(
            "{line}, but CUTOFF_REQUIRE={} requires it",
            list.unwrap_or_default()
        );
    }
    println!("{line}");
    if let Some(log) = std::env::var_os("CUTOFF_SKIPPED_LOG") {
        // One write of a short line in append mode: lines from tests running at once do not
        // interleave.
        let written = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&log)
            .and_then(|mut f| f.write_all(format!("{line}\n").as_bytes()));
        if let Err(e) = written {
            panic!("{line}; and the skip log {log:?} cannot be written: {e}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cutoff_require_names_the_needs_that_fail_instead_of_skipping() {
        assert!(required(Need::Shared, Some("shared,python-chess")));
        assert!(required(Need::PythonChess, Some("shared, python-chess")));
        assert!(!required(Need::Machine, Some("shared,python-chess")));
        assert!(!required(Need::Shared, None));
        assert!(!required(Need::Shared, Some("")));
    }

    #[test]
    fn a_skip_line_names_the_test_the_reason_and_the_need() {
        assert_eq!(
            skip_line("t", Need::PythonChess, "no python-chess"),
            "SKIPPED: t: no python-chess (needs python-chess)"
        );
    }
}
