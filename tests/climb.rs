//! docs/climb.svg, the climb as a picture, is drawn by `tools/climb.py` from the gauntlet
//! tables of docs/strength.md. Its `--check` runs the parser's self-test, recomputes every
//! drawn row's Elo from its pentanomial (or W-L-D) and compares its W-L-D with the match log
//! or PGN of its seed in docs/games, and fails when the committed picture is not the one the
//! log draws now: a gauntlet added to the log without `python3 tools/climb.py` fails here.

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
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new("python3")
        .arg(root.join("tools/climb.py"))
        .arg("--check")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.contains("climb check passed"),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
