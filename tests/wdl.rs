//! `UCI_ShowWDL`: every `info` line with a score carries `wdl W D L` summing to 1000, from the
//! side to move's view like the score, and python-chess reads it.

mod common;

use std::process::Command;
use std::time::Duration;

use common::Engine;

fn wdl_of(line: &str) -> Option<(u32, u32, u32)> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let i = words.iter().position(|w| *w == "wdl")?;
    let n = |k: usize| words[i + k].parse::<u32>().unwrap();
    Some((n(1), n(2), n(3)))
}

#[test]
fn every_scored_info_line_has_wdl_summing_to_1000_only_when_asked() {
    let mut e = Engine::started();
    let r = e.search("position startpos", "go depth 6", Duration::from_secs(30));
    assert!(r.score_infos().iter().all(|i| wdl_of(&i.raw).is_none()));
    e.send("setoption name UCI_ShowWDL value true");
    // Black a queen up: Black to move wins nearly always; the same position with White to
    // move is nearly always lost for White.
    for (fen, winning) in [
        (
            "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1",
            None,
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR b KQkq - 0 1",
            Some(true),
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1",
            Some(false),
        ),
    ] {
        let r = e.search(
            &format!("position fen {fen}"),
            "go depth 6",
            Duration::from_secs(30),
        );
        let infos = r.score_infos();
        assert!(!infos.is_empty());
        for info in &infos {
            let (w, d, l) = wdl_of(&info.raw).unwrap_or_else(|| panic!("no wdl: {}", info.raw));
            assert_eq!(w + d + l, 1000, "{}", info.raw);
        }
        let (w, _, l) = wdl_of(&infos.last().unwrap().raw).unwrap();
        match winning {
            Some(true) => assert!(w > 800, "{fen}: {w}"),
            Some(false) => assert!(l > 800, "{fen}: {l}"),
            None => assert!(w.abs_diff(l) < 300, "{fen}: {w} vs {l}"),
        }
    }
}

/// python-chess parses the `wdl` of the info lines (skipped, saying so, without python-chess).
#[test]
fn python_chess_reads_the_wdl() {
    let script = r#"
import sys, chess, chess.engine
engine = chess.engine.SimpleEngine.popen_uci(sys.argv[1])
engine.configure({"UCI_ShowWDL": True})
info = engine.analyse(chess.Board(), chess.engine.Limit(depth=6))
wdl = info["wdl"].relative
assert wdl.wins + wdl.draws + wdl.losses == 1000, wdl
print("wdl", wdl.wins, wdl.draws, wdl.losses)
engine.quit()
"#;
    let has_chess = Command::new("python3")
        .args(["-c", "import chess.engine"])
        .status()
        .is_ok_and(|s| s.success());
    if !has_chess {
        common::skip(
            "python_chess_reads_the_wdl",
            common::Need::PythonChess,
            "no python-chess (pip install chess)",
        );
        return;
    }
    let out = Command::new("python3")
        .args(["-c", script, env!("CARGO_BIN_EXE_cutoff")])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.starts_with("wdl "),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
