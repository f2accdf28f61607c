//! docs/climb.svg, the climb as a picture, is drawn by `tools/climb.py` from the gauntlet
//! tables of docs/strength.md. Its `--check` runs the parser's self-test, recomputes every
//! drawn row's Elo from its pentanomial (or W-L-D) and compares its W-L-D with the match log
//! or PGN of its seed in docs/games, and fails when the committed picture is not the one the
//! log draws now: a gauntlet added to the log without `python3 tools/climb.py` fails here.
//! `tools/sprt_sum.py`, the other tool that reads those logs (one SPRT's runs of several
//! sessions added), is checked on one of them here too.

mod common;

use std::path::Path;
use std::process::Command;

/// The picture is what the log draws, and the rows it draws agree with their own figures and
/// with the logs of their matches (skipped, saying so, without python3).
#[test]
fn climb_picture_is_drawn_from_the_logged_gauntlets_and_they_agree_with_their_logs() {
    let has_python = Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_python {
        common::skip(
            "climb_picture_is_drawn_from_the_logged_gauntlets_and_they_agree_with_their_logs",
            common::Need::PythonChess,
            "no python3 to run tools/climb.py --check",
        );
        return;
    }
    passes_its_check("tools/climb.py", "climb check passed");
}

/// Runs `python3 <tool> --check` from the repository and asserts it succeeds and prints
/// `passed` (the tools print their own verdict line).
fn passes_its_check(tool: &str, passed: &str) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new("python3")
        .arg(root.join(tool))
        .arg("--check")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.contains(passed),
        "{tool}: {stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `tools/sprt_sum.py --check`: a kept SPRT log read back to its printed counts and LLR, and two
/// runs added to twice the counts (skipped, saying so, without python-chess or match.py).
#[test]
fn sprt_runs_add_up_to_the_counts_and_llr_of_one_run() {
    let name = "sprt_runs_add_up_to_the_counts_and_llr_of_one_run";
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let has_chess = Command::new("python3")
        .args(["-c", "import chess.engine"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_chess {
        common::skip(
            name,
            common::Need::PythonChess,
            "no python-chess for match.py",
        );
        return;
    }
    if !root.join("../shared/tools/match.py").is_file() {
        common::skip(name, common::Need::Shared, "no ../shared/tools/match.py");
        return;
    }
    passes_its_check("tools/sprt_sum.py", "sprt_sum: check passed");
}
