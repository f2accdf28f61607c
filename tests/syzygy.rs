//! Syzygy tablebases through UCI: `SyzygyPath` finds the tables and says how many; bad paths,
//! truncated, padded, renamed and damaged tables are named in errors and never crash a later
//! search, and the loader and `cutoff syzygy verify` refuse exactly the same files; a table
//! beyond the bytes checksummed at load answers only once its checksum passed; a root in the
//! tables plays a move that keeps its outcome; the search probes tables below the root.
//!
//! The tests that need tables read `../shared/syzygy` (all 3- and 4-piece tables; CI has it)
//! and print that they were skipped where it is missing. The independent check of the played
//! moves against python-chess's prober is `tools/syzygy_check.py` (`syzygy_moves_agree_with_python_chess`).

mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use common::{is_error_report, Engine};
use shakmaty::Position;

const SEARCH: Duration = Duration::from_secs(30);

/// The shared tables, or `None` (and a note on stderr) where this machine has none.
fn tables(test: &str) -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/syzygy");
    if dir.join("KQvK.rtbw").exists() {
        Some(dir.canonicalize().unwrap())
    } else {
        common::skip(
            test,
            common::Need::Shared,
            &format!("no Syzygy tables at {}", dir.display()),
        );
        None
    }
}

fn set_path(e: &mut Engine, path: &str) -> Vec<String> {
    e.send(&format!("setoption name SyzygyPath value {path}"));
    e.sync()
}

fn found(lines: &[String]) -> Option<usize> {
    lines.iter().find_map(|l| {
        l.strip_prefix("info string Found ")?
            .split_whitespace()
            .next()?
            .parse()
            .ok()
    })
}

/// A fresh, empty directory of this test run.
fn fresh_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cutoff-syzygy-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// A fresh directory with both files of each table of `materials` (`KQvK`), writable copies
/// (the shared ones are read-only), to damage.
fn dir_with(tables: &Path, name: &str, materials: &[&str]) -> PathBuf {
    let dir = fresh_dir(name);
    for material in materials {
        for ext in ["rtbw", "rtbz"] {
            let file = format!("{material}.{ext}");
            fs::write(dir.join(&file), fs::read(tables.join(&file)).unwrap()).unwrap();
        }
    }
    dir
}

/// Cuts `file` to `len` bytes.
fn cut(file: &Path, len: u64) {
    let f = fs::OpenOptions::new().write(true).open(file).unwrap();
    f.set_len(len).unwrap();
}

/// Whether some `info string error` names `what`.
fn names(lines: &[String], what: &str) -> bool {
    lines.iter().any(|l| is_error_report(l) && l.contains(what))
}

/// The `tbhits` of a depth-6 search of a won KQvK root.
fn kqvk_tbhits(e: &mut Engine) -> u64 {
    let r = e.search(
        "position fen 8/8/8/8/8/3k4/8/3KQ3 w - - 0 1",
        "go depth 6",
        SEARCH,
    );
    r.last_score_info().tbhits.unwrap_or(0)
}

/// A copy of the tables in a fresh directory, to damage.
fn copy_of(tables: &Path, name: &str) -> PathBuf {
    let dir = fresh_dir(name);
    for entry in fs::read_dir(tables).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "rtbw" || e == "rtbz") {
            fs::copy(&path, dir.join(path.file_name().unwrap())).unwrap();
        }
    }
    dir
}

#[test]
fn syzygy_path_finds_all_35_tables_and_says_so() {
    let Some(tables) = tables("syzygy_path_finds_all_35_tables_and_says_so") else {
        return;
    };
    let mut e = Engine::started();
    let lines = set_path(&mut e, tables.to_str().unwrap());
    assert_eq!(found(&lines), Some(35), "{lines:?}");
    assert!(!lines.iter().any(|l| is_error_report(l)), "{lines:?}");
    // `<empty>` drops them.
    let lines = set_path(&mut e, "<empty>");
    assert_eq!(found(&lines), Some(0), "{lines:?}");
}

#[test]
fn a_missing_directory_is_named_and_the_previous_tables_stay() {
    let Some(tables) = tables("a_missing_directory_is_named_and_the_previous_tables_stay") else {
        return;
    };
    let mut e = Engine::started();
    set_path(&mut e, tables.to_str().unwrap());
    let lines = set_path(&mut e, "/no/such/syzygy/dir");
    assert!(
        lines
            .iter()
            .any(|l| is_error_report(l) && l.contains("/no/such/syzygy/dir")),
        "{lines:?}"
    );
    assert_eq!(found(&lines), None, "{lines:?}");
    // Still probing the old tables: a KQvK root is ranked (tbhits) and won.
    let r = e.search(
        "position fen 8/8/8/8/8/3k4/8/3KQ3 w - - 0 1",
        "go depth 6",
        SEARCH,
    );
    let info = r.last_score_info();
    assert!(info.tbhits.unwrap() > 0, "{}", info.raw);
}

#[test]
fn truncated_and_damaged_tables_are_named_and_never_crash_a_search() {
    let Some(tables) = tables("truncated_and_damaged_tables_are_named_and_never_crash_a_search")
    else {
        return;
    };
    let dir = copy_of(&tables, "damaged");
    // Truncated to a size no table has: refused when loading, named.
    let kqvk = dir.join("KQvK.rtbw");
    let bytes = fs::read(&kqvk).unwrap();
    fs::write(&kqvk, &bytes[..bytes.len() / 2 + 3]).unwrap();
    // Truncated to a size a table could have: refused when loading too (its header's layout
    // needs more bytes).
    let krvk = dir.join("KRvK.rtbw");
    let bytes = fs::read(&krvk).unwrap();
    fs::write(&krvk, &bytes[..80]).unwrap();
    // Damaged in the middle: refused by its checksum when loading (before issue 56 it was
    // read, perhaps wrongly); the searches below never crash either way.
    let kpvk = dir.join("KPvK.rtbz");
    let mut bytes = fs::read(&kpvk).unwrap();
    let mid = bytes.len() / 2;
    for b in &mut bytes[mid..mid + 64] {
        *b ^= 0x5a;
    }
    fs::write(&kpvk, &bytes).unwrap();
    // Not a table at all, with a table's name.
    fs::write(dir.join("KNvKP.rtbw"), vec![7u8; 80]).unwrap();

    let mut e = Engine::started();
    let lines = set_path(&mut e, dir.to_str().unwrap());
    for name in ["KQvK.rtbw", "KNvKP.rtbw", "KRvK.rtbw"] {
        assert!(
            lines.iter().any(|l| is_error_report(l) && l.contains(name)),
            "{name} not named: {lines:?}"
        );
    }
    assert_eq!(found(&lines), Some(32), "{lines:?}");
    for fen in [
        "8/8/8/8/8/3k4/8/3KQ3 w - - 0 1",
        "8/8/8/8/8/3k4/8/3KR3 w - - 0 1",
        "8/8/8/8/3k4/8/3P4/3K4 w - - 0 1",
        "8/8/3k4/8/8/3P4/8/3K2R1 b - - 0 1",
        "8/8/3n4/8/3k4/3P4/8/3K4 w - - 0 1",
    ] {
        let r = e.search(&format!("position fen {fen}"), "go depth 8", SEARCH);
        assert_ne!(r.bestmove, "(none)", "{fen}");
    }
    let _ = fs::remove_dir_all(&dir);
}

/// A FIFO with a table's name used to hang the engine in the blocking open of its magic
/// check (no `readyok`, no `quit`): it is refused without blocking, named, and the rest load.
#[cfg(unix)]
#[test]
fn a_named_pipe_among_the_tables_is_named_and_the_engine_stays_ready() {
    let Some(tables) = tables("a_named_pipe_among_the_tables_is_named_and_the_engine_stays_ready")
    else {
        return;
    };
    let dir = dir_with(&tables, "pipe", &["KRvK"]);
    let pipe = std::ffi::CString::new(dir.join("KQvK.rtbw").to_str().unwrap()).unwrap();
    // SAFETY: `pipe` is a valid NUL-terminated path that outlives the call.
    assert_eq!(unsafe { libc::mkfifo(pipe.as_ptr(), 0o600) }, 0);
    let mut e = Engine::started();
    let sent = Instant::now();
    let lines = set_path(&mut e, dir.to_str().unwrap());
    assert!(
        sent.elapsed() < Duration::from_secs(2),
        "{:?}",
        sent.elapsed()
    );
    assert!(
        lines.iter().any(|l| is_error_report(l)
            && l.contains("KQvK.rtbw")
            && l.contains("a named pipe, not a regular file")),
        "{lines:?}"
    );
    assert_eq!(found(&lines), Some(1), "{lines:?}");
    e.send("quit");
    assert!(e.wait_exit(Duration::from_secs(5)).is_some(), "no exit");
    let _ = fs::remove_dir_all(&dir);
}

/// A WDL table cut to 144 bytes (a size a table can have) used to load with no error and
/// then answer nothing (`tbhits=0` in KQvK): it is checked when loaded, named and dropped,
/// and its whole DTZ partner, useless without it, is named as not used and not counted
/// (issue 56, item 3: it used to be, `(3 files`).
#[test]
fn a_wdl_table_cut_short_is_named_when_loaded_and_dropped() {
    let Some(tables) = tables("a_wdl_table_cut_short_is_named_when_loaded_and_dropped") else {
        return;
    };
    let dir = dir_with(&tables, "cut-wdl", &["KQvK", "KRvK"]);
    cut(&dir.join("KQvK.rtbw"), 144);
    let mut e = Engine::started();
    let lines = set_path(&mut e, dir.to_str().unwrap());
    assert!(names(&lines, "KQvK.rtbw"), "{lines:?}");
    assert!(
        lines
            .iter()
            .any(|l| is_error_report(l) && l.contains("KQvK.rtbz") && l.contains("its WDL table")),
        "{lines:?}"
    );
    assert!(!names(&lines, "KRvK"), "{lines:?}");
    assert_eq!(found(&lines), Some(1), "{lines:?}");
    assert!(lines.iter().any(|l| l.contains("(2 files")), "{lines:?}");
    let _ = fs::remove_dir_all(&dir);
}

/// A DTZ table cut to 2,000 bytes (shakmaty-syzygy's size check lets it through) used to load
/// with no error and then be useless (a won root scored without its distance): it is named
/// and dropped when loaded, and its WDL partner still probed.
#[test]
fn a_dtz_table_cut_short_is_named_when_loaded_and_its_wdl_partner_kept() {
    let Some(tables) =
        tables("a_dtz_table_cut_short_is_named_when_loaded_and_its_wdl_partner_kept")
    else {
        return;
    };
    let dir = dir_with(&tables, "cut-dtz", &["KQvK", "KRvK"]);
    cut(&dir.join("KQvK.rtbz"), 2000);
    let mut e = Engine::started();
    let lines = set_path(&mut e, dir.to_str().unwrap());
    assert!(names(&lines, "KQvK.rtbz"), "{lines:?}");
    assert!(!names(&lines, "KQvK.rtbw"), "{lines:?}");
    assert_eq!(found(&lines), Some(2), "{lines:?}");
    assert!(lines.iter().any(|l| l.contains("(3 files")), "{lines:?}");
    assert!(kqvk_tbhits(&mut e) > 0);
    let _ = fs::remove_dir_all(&dir);
}

/// A zero-filled file with the WDL magic and a size the size check accepts (2^30 + 16 bytes,
/// sparse: no disk) used to load with no error and answer nothing: its header is refused.
#[test]
fn a_zero_filled_table_of_an_accepted_size_is_refused_when_loaded() {
    let Some(tables) = tables("a_zero_filled_table_of_an_accepted_size_is_refused_when_loaded")
    else {
        return;
    };
    let dir = dir_with(&tables, "zero", &["KRvK"]);
    let kqvk = dir.join("KQvK.rtbw");
    let mut f = fs::File::create(&kqvk).unwrap();
    std::io::Write::write_all(&mut f, &[0x71, 0xe8, 0x23, 0x5d]).unwrap();
    f.set_len((1 << 30) + 16).unwrap();
    drop(f);
    let mut e = Engine::started();
    let lines = set_path(&mut e, dir.to_str().unwrap());
    assert!(names(&lines, "KQvK.rtbw"), "{lines:?}");
    assert_eq!(found(&lines), Some(1), "{lines:?}");
    let _ = fs::remove_dir_all(&dir);
}

/// A folder with no table used to replace the loaded tables by none (`Found 0 tablebases`):
/// it is named in an error and the previous tables stay. `<empty>` and an empty value still
/// unload them.
#[test]
fn a_folder_with_no_tables_keeps_the_previous_ones_and_empty_still_unloads_them() {
    let Some(tables) =
        tables("a_folder_with_no_tables_keeps_the_previous_ones_and_empty_still_unloads_them")
    else {
        return;
    };
    let empty = fresh_dir("no-tables");
    fs::write(empty.join("README.txt"), "not a table").unwrap();
    let mut e = Engine::started();
    assert_eq!(found(&set_path(&mut e, tables.to_str().unwrap())), Some(35));
    let lines = set_path(&mut e, empty.to_str().unwrap());
    assert!(names(&lines, empty.to_str().unwrap()), "{lines:?}");
    assert_eq!(found(&lines), None, "{lines:?}");
    assert!(kqvk_tbhits(&mut e) > 0);
    for value in ["<empty>", ""] {
        assert_eq!(found(&set_path(&mut e, tables.to_str().unwrap())), Some(35));
        let lines = set_path(&mut e, value);
        assert_eq!(found(&lines), Some(0), "{value:?}: {lines:?}");
        assert!(!lines.iter().any(|l| is_error_report(l)), "{lines:?}");
        assert_eq!(kqvk_tbhits(&mut e), 0, "{value:?}");
    }
    let _ = fs::remove_dir_all(&empty);
}

/// Won, drawn and lost roots: the score is the tables' outcome and the move played keeps it.
/// The outcomes are python-chess's (`chess.syzygy`, probing ../shared/syzygy), written here so
/// that the test does not need it:
/// - `8/8/8/8/8/3k4/8/3KR3 w`: KRvK, WDL +2; every rook move that does not hang the rook wins.
/// - `k7/8/8/8/8/8/8/5KQq w`: KQvKQ, WDL +2, won only by g1h1 (every other move draws or loses).
/// - `8/8/8/2k5/8/8/1r6/R3K3 w`: KRvKR, WDL 0; a1a2 and a1b1 hang the rook and lose (WDL −2
///   after them), the ten other moves keep the draw.
/// - `3k4/8/8/8/8/8/8/q2K2R1 w`: KRvKQ, WDL −2; all three moves (d1c2, d1d2, d1e2) lose.
///
/// Besides the score, the tables are probed after the move played, for every root: it must
/// leave the opponent the opposite outcome (a loss after a win, a draw after a draw, a win
/// after a loss), else a right score with a move that throws the win away would pass.
#[test]
fn a_root_in_the_tables_scores_its_outcome_and_plays_a_move_that_keeps_it() {
    let Some(tables) =
        tables("a_root_in_the_tables_scores_its_outcome_and_plays_a_move_that_keeps_it")
    else {
        return;
    };
    let mut e = Engine::started();
    set_path(&mut e, tables.to_str().unwrap());
    let (tb, loaded) = cutoff::tablebase::Tablebases::load(tables.to_str().unwrap());
    assert!(loaded.tables > 0, "{:?}", loaded.errors);
    enum Outcome {
        Win,
        Draw { losing: &'static [&'static str] },
        Loss,
    }
    for (fen, outcome, only_move) in [
        ("8/8/8/8/8/3k4/8/3KR3 w - - 0 1", Outcome::Win, None),
        ("k7/8/8/8/8/8/8/5KQq w - - 0 1", Outcome::Win, Some("g1h1")),
        (
            "8/8/8/2k5/8/8/1r6/R3K3 w - - 0 1",
            Outcome::Draw {
                losing: &["a1a2", "a1b1"],
            },
            None,
        ),
        ("3k4/8/8/8/8/8/8/q2K2R1 w - - 0 1", Outcome::Loss, None),
    ] {
        let r = e.search(&format!("position fen {fen}"), "go depth 6", SEARCH);
        let info = r.last_score_info();
        assert!(info.tbhits.unwrap() > 0, "{fen}: {}", info.raw);
        assert!(info.is_exact(), "{fen}: {}", info.raw);
        if let Some(m) = only_move {
            assert_eq!(r.bestmove, m, "{fen}");
        }
        // The tables' outcome for the opponent after the move played.
        let after = common::play_moves(&common::pos_from_fen(fen), &[r.bestmove.as_str()]);
        let expected = match outcome {
            Outcome::Win => cutoff::tablebase::Outcome::Loss,
            Outcome::Draw { .. } => cutoff::tablebase::Outcome::Draw,
            Outcome::Loss => cutoff::tablebase::Outcome::Win,
        };
        let mated = matches!(outcome, Outcome::Win) && after.is_checkmate();
        assert!(
            mated || tb.probe_wdl(&after) == Some(expected),
            "{fen}: {} leaves the opponent {:?}, not {expected:?}",
            r.bestmove,
            tb.probe_wdl(&after)
        );
        let score = info.raw.as_str();
        match outcome {
            // A tablebase win is scored in the band below mate (`cp 199xx`) or as a mate.
            Outcome::Win => assert!(
                score.contains("score cp 199") || score.contains("score mate "),
                "{fen}: {score}"
            ),
            Outcome::Draw { losing } => {
                assert!(score.contains("score cp 0 "), "{fen}: {score}");
                assert!(!losing.contains(&r.bestmove.as_str()), "{fen}: {score}");
            }
            Outcome::Loss => assert!(
                score.contains("score cp -199") || score.contains("score mate -"),
                "{fen}: {score}"
            ),
        }
    }
}

/// Below a root with more pieces than the tables, the search probes them (`tbhits`): from a
/// KRPvKR root, taking the rook leaves a KRPvK the tables call won, which the search scores
/// in the tablebase band (`cp 1999x`: a win a few plies away) and plays.
#[test]
fn the_search_probes_the_tables_below_the_root() {
    let Some(tables) = tables("the_search_probes_the_tables_below_the_root") else {
        return;
    };
    let mut e = Engine::started();
    set_path(&mut e, tables.to_str().unwrap());
    let r = e.search(
        "position fen 4k3/8/8/8/8/8/3PK3/1R5r w - - 0 1",
        "go depth 8",
        SEARCH,
    );
    let info = r.last_score_info();
    assert!(info.tbhits.unwrap() > 0, "{}", info.raw);
    assert_eq!(r.bestmove, "b1h1", "{}", info.raw);
    assert!(info.raw.contains("score cp 1999"), "{}", info.raw);
}

/// `searchmoves` and MultiPV hold with a root in the tables: only the moves asked for, and
/// three distinct lines of the best outcome. An aspiration window that fails at a tablebase
/// root may report a line early, with the tables' score and no bound (as Stockfish does), so
/// the lines are read as a GUI keeps them: the last report of each index. The depth's final
/// block must still be whole and last: indices 1, 2, 3 in order, with nothing after it.
#[test]
fn searchmoves_and_multipv_hold_at_a_tablebase_root() {
    let Some(tables) = tables("searchmoves_and_multipv_hold_at_a_tablebase_root") else {
        return;
    };
    let mut e = Engine::started();
    set_path(&mut e, tables.to_str().unwrap());
    e.send("position fen 8/8/8/8/8/3k4/8/3KR3 w - - 0 1");
    // Re1-e3+ is a rook move that hangs the rook to the king: a draw.
    let r = e.go("go depth 5 searchmoves e1e3 e1e8", SEARCH);
    assert_eq!(r.bestmove, "e1e8");
    e.send("setoption name MultiPV value 3");
    let r = e.go("go depth 5", SEARCH);
    let infos = r.score_infos();
    let last_block: Vec<_> = infos.iter().rev().take(3).rev().collect();
    let block_indices: Vec<_> = last_block.iter().map(|i| (i.depth, i.multipv)).collect();
    assert_eq!(
        block_indices,
        [(Some(5), Some(1)), (Some(5), Some(2)), (Some(5), Some(3))],
        "{:?}",
        r.lines
    );
    let lines = common::last_per_multipv(infos.iter().filter(|i| i.depth == Some(5)));
    let indices: Vec<_> = lines.keys().copied().collect();
    assert_eq!(indices, [Some(1), Some(2), Some(3)], "{:?}", r.lines);
    let firsts: std::collections::BTreeSet<&str> =
        lines.values().map(|i| i.pv[0].as_str()).collect();
    assert_eq!(firsts.len(), 3, "distinct first moves: {:?}", r.lines);
    assert_eq!(r.bestmove, lines[&Some(1)].pv[0], "{:?}", r.lines);
    for i in lines.values() {
        assert!(i.is_exact(), "{}", i.raw);
        assert!(
            i.raw.contains("score cp 199") || i.raw.contains("score mate"),
            "{}",
            i.raw
        );
    }
}

/// Every move Cutoff plays from 1,000 random positions of at most four pieces keeps the
/// outcome that python-chess reads from the same tables (`tools/syzygy_check.py`). Skipped,
/// saying so, where python-chess or the tables are missing.
#[test]
fn syzygy_moves_agree_with_python_chess() {
    let Some(tables) = tables("syzygy_moves_agree_with_python_chess") else {
        return;
    };
    let has_chess = Command::new("python3")
        .args(["-c", "import chess.syzygy"])
        .status()
        .is_ok_and(|s| s.success());
    if !has_chess {
        common::skip(
            "syzygy_moves_agree_with_python_chess",
            common::Need::PythonChess,
            "no python-chess (pip install chess)",
        );
        return;
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tools/syzygy_check.py");
    let out = Command::new("python3")
        .arg(script)
        .args(["--engine", env!("CARGO_BIN_EXE_cutoff")])
        .args(["--tables", tables.to_str().unwrap()])
        .args([
            "--positions",
            "1000",
            "--seed",
            "7",
            "--nodes",
            "3000",
            "--quiet",
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("checked 1000 positions: 1000 kept the outcome, 0 failed"),
        "{stdout}"
    );
}

/// The line `info string Found N tablebases (M files, ...)`'s M.
fn files_found(lines: &[String]) -> Option<usize> {
    lines.iter().find_map(|l| {
        let rest = l.strip_prefix("info string Found ")?;
        rest.split_once('(')?
            .1
            .split_whitespace()
            .next()?
            .parse()
            .ok()
    })
}

/// Flips `count` bytes of `file` from three quarters of its length on: a damaged body, the
/// header whole (in `KQvKR.rtbw`, 3,000 bytes there pass the load-time probes: `Found 35`).
fn flip_body(file: &Path, count: usize) {
    let mut bytes = fs::read(file).unwrap();
    let from = bytes.len() * 3 / 4;
    for b in &mut bytes[from..from + count] {
        *b ^= 0xff;
    }
    fs::write(file, &bytes).unwrap();
}

/// Issue 56, item 2: `SyzygyPath good:cut` with `cut/KQvK.rtbw` cut to 144 bytes used to name
/// the cut file and then lose KQvK (`Found 34`, `tbhits 0` in KQ v K) though `good/KQvK.rtbw`
/// is whole; a DTZ cut to 2,000 bytes in the later folder dropped the good DTZ the same way.
/// A file refused in a later folder now leaves the good one of an earlier folder in use.
#[test]
fn a_table_refused_in_a_later_folder_never_displaces_the_good_one_before_it() {
    let Some(tables) =
        tables("a_table_refused_in_a_later_folder_never_displaces_the_good_one_before_it")
    else {
        return;
    };
    for (name, len) in [("KQvK.rtbw", 144), ("KQvK.rtbz", 2000)] {
        let cut_dir = fresh_dir(&format!("later-{name}"));
        fs::copy(tables.join(name), cut_dir.join(name)).unwrap();
        cut(&cut_dir.join(name), len);
        let mut e = Engine::started();
        let path = format!("{}:{}", tables.display(), cut_dir.display());
        let lines = set_path(&mut e, &path);
        assert!(
            names(&lines, &cut_dir.join(name).display().to_string()),
            "{name}: {lines:?}"
        );
        assert_eq!(found(&lines), Some(35), "{name}: {lines:?}");
        assert_eq!(files_found(&lines), Some(70), "{name}: {lines:?}");
        assert!(kqvk_tbhits(&mut e) > 0, "{name}");
        let _ = fs::remove_dir_all(&cut_dir);
    }
}

/// Issue 56, item 3: with both KQvK files cut to 16 bytes beside a good KRvK pair, the cut DTZ
/// was counted (`Found 1 tablebases (3 files)`) and never checked, its WDL partner being
/// refused. A DTZ table is now counted only beside a WDL table that passed.
#[test]
fn a_dtz_table_whose_wdl_partner_is_refused_is_not_counted() {
    let Some(tables) = tables("a_dtz_table_whose_wdl_partner_is_refused_is_not_counted") else {
        return;
    };
    let dir = dir_with(&tables, "cut-16", &["KQvK", "KRvK"]);
    cut(&dir.join("KQvK.rtbw"), 16);
    cut(&dir.join("KQvK.rtbz"), 16);
    let mut e = Engine::started();
    let lines = set_path(&mut e, dir.to_str().unwrap());
    assert!(names(&lines, "KQvK.rtbw"), "{lines:?}");
    assert!(names(&lines, "KQvK.rtbz"), "{lines:?}");
    assert_eq!(found(&lines), Some(1), "{lines:?}");
    assert_eq!(files_found(&lines), Some(2), "{lines:?}");
    let _ = fs::remove_dir_all(&dir);
}

/// Issue 56, item 4: `KQvKR.rtbw` with 3,000 bytes flipped in its body loaded (`Found 35
/// tablebases (70 files`: the probes at load missed it) and answered wrongly (in
/// `4K3/2R5/8/8/8/4q3/8/7k w`, lost for White, a win by python-chess on the damaged file).
/// Its embedded checksum no longer matches, so it is refused when loaded, named with the
/// reason, and its DTZ partner with it.
#[test]
fn a_table_with_a_damaged_body_is_refused_by_its_checksum_when_loaded() {
    let Some(tables) = tables("a_table_with_a_damaged_body_is_refused_by_its_checksum_when_loaded")
    else {
        return;
    };
    let dir = copy_of(&tables, "flipped");
    flip_body(&dir.join("KQvKR.rtbw"), 3000);
    let mut e = Engine::started();
    let lines = set_path(&mut e, dir.to_str().unwrap());
    assert!(
        lines
            .iter()
            .any(|l| is_error_report(l) && l.contains("KQvKR.rtbw") && l.contains("checksum")),
        "{lines:?}"
    );
    assert_eq!(found(&lines), Some(34), "{lines:?}");
    assert_eq!(files_found(&lines), Some(68), "{lines:?}");
    let _ = fs::remove_dir_all(&dir);
}

/// Runs `cutoff syzygy verify` on `paths`: the exit code, and stdout and stderr together.
fn verify(paths: &[&Path]) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_cutoff"))
        .args(["syzygy", "verify"])
        .args(paths)
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.code(), text)
}

/// `cutoff syzygy verify PATH...` checks every table file's embedded checksum as the
/// generator's `tbcheck` does: all 70 good files pass (exit 0); in a damaged copy every file
/// that fails is named with its reason, the good ones pass, and the exit is non-zero.
#[test]
fn syzygy_verify_checks_every_files_checksum_and_names_each_that_fails() {
    let Some(tables) =
        tables("syzygy_verify_checks_every_files_checksum_and_names_each_that_fails")
    else {
        return;
    };
    let (code, text) = verify(&[&tables]);
    assert_eq!(code, Some(0), "{text}");
    assert_eq!(text.matches(": OK").count(), 70, "{text}");
    assert!(text.contains("70 files checked, 0 failed"), "{text}");

    let dir = copy_of(&tables, "verify");
    flip_body(&dir.join("KQvKR.rtbw"), 3000);
    let krvk = dir.join("KRvK.rtbz");
    let mut bytes = fs::read(&krvk).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1; // the stored checksum itself
    fs::write(&krvk, &bytes).unwrap();
    cut(&dir.join("KQvK.rtbw"), 144);
    cut(&dir.join("KPvK.rtbz"), 1000);
    let (code, text) = verify(&[&dir, &tables.join("KNvK.rtbw")]);
    assert_eq!(code, Some(1), "{text}");
    for (name, why) in [
        ("KQvKR.rtbw", "checksum mismatch"),
        ("KRvK.rtbz", "checksum mismatch"),
        // Found from its header, before the checksum: its layout needs more bytes.
        ("KQvK.rtbw", "smaller than its header's layout needs"),
    ] {
        assert!(
            text.lines()
                .any(|l| l.starts_with("error: ") && l.contains(name) && l.contains(why)),
            "{name}: {text}"
        );
    }
    assert!(
        text.lines().any(|l| l.starts_with("error: ")
            && l.contains("KPvK.rtbz")
            && l.contains("1000 bytes, not the size of a table")),
        "{text}"
    );
    assert!(text.contains("71 files checked, 4 failed"), "{text}");
    assert_eq!(text.matches(": OK").count(), 67, "{text}");
    let (code, text) = verify(&[Path::new("/no/such/tables")]);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("/no/such/tables: no such file or directory"),
        "{text}"
    );
    assert!(
        text.contains("0 files checked, 0 failed, 1 paths not read"),
        "{text}"
    );
    let _ = fs::remove_dir_all(&dir);
}

/// Flips 3,000 bytes of `file` from 40 % of its length on: in `KQvKR.rtbw` a damage the
/// probes at load miss and that misleads the search (`8/K7/8/2Q5/7r/3k4/8/2n5 w` scored
/// `cp 259` at depth 12, `cp 19999` with the good file).
fn flip_at_two_fifths(file: &Path) {
    let mut bytes = fs::read(file).unwrap();
    let from = bytes.len() * 2 / 5;
    for b in &mut bytes[from..from + 3000] {
        *b ^= 0xff;
    }
    fs::write(file, &bytes).unwrap();
}

/// Extends `file` to `len` bytes with zeros, sparse (no disk).
fn pad_to(file: &Path, len: u64) {
    let f = fs::OpenOptions::new().write(true).open(file).unwrap();
    assert!(f.metadata().unwrap().len() <= len);
    f.set_len(len).unwrap();
}

/// Issue 80, case 1: `KQvKR.rtbw` damaged in its body and padded with zeros past 1 MiB (to
/// 1 MiB + 656 bytes, a size the size rule takes) loaded with no error (`Found 35 tablebases`:
/// the checksum was checked only up to 1 MiB, the probes at load missed the damage) and
/// misled the search (`cp 259` for a won position). The file is larger than its header's
/// layout allows: refused when loaded, named with the reason, its DTZ partner with it; and
/// `cutoff syzygy verify` refuses it for the same reason.
#[test]
fn a_damaged_table_padded_past_a_mebibyte_is_refused_when_loaded() {
    let Some(tables) = tables("a_damaged_table_padded_past_a_mebibyte_is_refused_when_loaded")
    else {
        return;
    };
    let dir = copy_of(&tables, "padded");
    let kqvkr = dir.join("KQvKR.rtbw");
    flip_at_two_fifths(&kqvkr);
    pad_to(&kqvkr, (1 << 20) + 656);
    let mut e = Engine::started();
    let lines = set_path(&mut e, dir.to_str().unwrap());
    let refused = |l: &&String| {
        is_error_report(l) && l.contains("KQvKR.rtbw") && l.contains("than its header")
    };
    assert!(lines.iter().any(|l| refused(&l)), "{lines:?}");
    assert_eq!(found(&lines), Some(34), "{lines:?}");
    assert_eq!(files_found(&lines), Some(68), "{lines:?}");
    let (code, text) = verify(&[&kqvkr]);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.lines()
            .any(|l| l.starts_with("error: ") && l.contains("than its header")),
        "{text}"
    );
    let _ = fs::remove_dir_all(&dir);
}

/// Issue 80, case 1: a real table's header (all of `KQvKR.rtbw`) followed by 4 GiB of zeros
/// (a sparse file: no disk) loaded with no error, and `cutoff syzygy verify` read all of it
/// before refusing it (29 s). Both refuse it by its size against its header's layout, without
/// reading the zeros: the reason says so, and it is given at once.
#[test]
fn a_sparse_table_of_a_real_header_and_gigabytes_of_zeros_is_refused_unread() {
    let Some(tables) =
        tables("a_sparse_table_of_a_real_header_and_gigabytes_of_zeros_is_refused_unread")
    else {
        return;
    };
    let dir = dir_with(&tables, "sparse", &["KQvKR", "KRvK"]);
    let kqvkr = dir.join("KQvKR.rtbw");
    pad_to(&kqvkr, (4 << 30) + 16);
    let mut e = Engine::started();
    let lines = set_path(&mut e, dir.to_str().unwrap());
    assert!(
        lines.iter().any(|l| is_error_report(l)
            && l.contains("KQvKR.rtbw")
            && l.contains("4294967312 bytes")
            && l.contains("than its header")),
        "{lines:?}"
    );
    assert_eq!(found(&lines), Some(1), "{lines:?}");
    let (code, text) = verify(&[&kqvkr]);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.lines().any(|l| l.starts_with("error: ")
            && l.contains("4294967312 bytes")
            && l.contains("than its header")),
        "{text}"
    );
    let _ = fs::remove_dir_all(&dir);
}

/// The files an `info string error` of a `SyzygyPath` load names as refused for what they
/// are (not the DTZ files left out because their WDL partner was refused).
fn refused_when_loaded(lines: &[String]) -> std::collections::BTreeSet<String> {
    lines
        .iter()
        .filter(|l| is_error_report(l) && !l.contains("its WDL table"))
        .filter_map(|l| {
            let file = l
                .split(": ")
                .find(|part| part.ends_with(".rtbw") || part.ends_with(".rtbz"))?;
            Some(Path::new(file).file_name()?.to_str()?.to_string())
        })
        .collect()
}

/// The files `cutoff syzygy verify` names in an `error:` line, and those it passes.
fn verify_verdicts(
    text: &str,
) -> (
    std::collections::BTreeSet<String>,
    std::collections::BTreeSet<String>,
) {
    let name = |path: &str| {
        Path::new(path)
            .file_name()
            .unwrap()
            .to_str()
            .unwrap()
            .to_string()
    };
    let refused = text
        .lines()
        .filter_map(|l| l.strip_prefix("error: "))
        .filter_map(|l| l.split(": ").next())
        .map(name)
        .collect();
    let passed = text
        .lines()
        .filter_map(|l| l.strip_suffix(": OK"))
        .map(name)
        .collect();
    (refused, passed)
}

/// Issue 80, case 7: `cutoff syzygy verify` checked only the checksum, so it passed a WDL
/// file copied over its DTZ file's name (`KQvK.rtbz`: the engine says bad magic) and one
/// table under another's name (`KQvKR.rtbw` as `KNNvK.rtbw`: the engine says "not that of a
/// KNNvK table"), while the engine took what verify refused. One check serves both now: over
/// a folder of good files and of each kind of bad one, the files the engine refuses when it
/// loads them are exactly those verify names, and every other file passes both.
#[test]
fn syzygy_verify_and_the_loader_refuse_exactly_the_same_files() {
    let Some(tables) = tables("syzygy_verify_and_the_loader_refuse_exactly_the_same_files") else {
        return;
    };
    let dir = copy_of(&tables, "same-verdicts");
    // A WDL file under its DTZ file's name.
    fs::copy(tables.join("KQvK.rtbw"), dir.join("KQvK.rtbz")).unwrap();
    // A table under another material's name.
    fs::copy(tables.join("KQvKR.rtbw"), dir.join("KNNvK.rtbw")).unwrap();
    // Damaged in its body, and padded past 1 MiB.
    flip_at_two_fifths(&dir.join("KRvKN.rtbw"));
    pad_to(&dir.join("KRvKN.rtbw"), (1 << 20) + 656);
    // Damaged in its body only.
    flip_at_two_fifths(&dir.join("KRvKP.rtbz"));
    // A real header and gigabytes of zeros.
    pad_to(&dir.join("KQvKB.rtbz"), (4 << 30) + 16);
    // Cut short, to a size a table can have.
    cut(&dir.join("KBPvK.rtbw"), 144);
    let mut e = Engine::started();
    let lines = set_path(&mut e, dir.to_str().unwrap());
    let by_engine = refused_when_loaded(&lines);
    let (code, text) = verify(&[&dir]);
    let (by_verify, passed) = verify_verdicts(&text);
    let expected: std::collections::BTreeSet<String> = [
        "KQvK.rtbz",
        "KNNvK.rtbw",
        "KRvKN.rtbw",
        "KRvKP.rtbz",
        "KQvKB.rtbz",
        "KBPvK.rtbw",
    ]
    .into_iter()
    .map(String::from)
    .collect();
    assert_eq!(by_engine, expected, "{lines:?}");
    assert_eq!(by_verify, expected, "{text}");
    assert_eq!(code, Some(1), "{text}");
    assert_eq!(passed.len(), 70 - expected.len(), "{text}");
    assert!(passed.is_disjoint(&expected), "{text}");
    let _ = fs::remove_dir_all(&dir);
}

/// Issue 80, case 1, for the tables beyond the bytes checksummed at load (5 pieces and up; here
/// the budget is 0, so every file is one): such a table is registered but gated, gives no
/// answer from its first probe until its checksum passed in the background, and answers after;
/// one that fails (`KQvKR.rtbw` damaged in its body, which the probes at load used to miss) is
/// reported, naming it, and never answers. Before, a table over 1 MiB was only probed in a few
/// positions when loaded and then read unchecked.
#[test]
fn a_table_beyond_the_load_budget_answers_only_once_its_checksum_passed() {
    let Some(tables) =
        tables("a_table_beyond_the_load_budget_answers_only_once_its_checksum_passed")
    else {
        return;
    };
    use cutoff::tablebase::{LoadOptions, Outcome, Tablebases};
    use std::sync::{Arc, Mutex};
    let dir = dir_with(&tables, "beyond-budget", &["KQvK", "KRvK", "KQvKR"]);
    flip_at_two_fifths(&dir.join("KQvKR.rtbw"));
    let reported = Arc::new(Mutex::new(Vec::<String>::new()));
    let sink = Arc::clone(&reported);
    let options = LoadOptions {
        checksum_at_load: 0,
        report: Some(Arc::new(move |line: &str| {
            sink.lock().unwrap().push(line.to_string())
        })),
    };
    let (tb, loaded) = Tablebases::load_with(dir.to_str().unwrap(), &options);
    assert!(loaded.errors.is_empty(), "{:?}", loaded.errors);
    assert_eq!((loaded.tables, loaded.files, loaded.pending), (3, 6, 6));
    assert_eq!(tb.pending(), 6);
    let pos = |fen: &str| common::pos_from_fen(fen);
    let kqvk = pos("8/8/8/8/8/3k4/8/3KQ3 w - - 0 1");
    assert_eq!(tb.probe_wdl(&kqvk), None, "probed before its checksum");
    // A generous bound for a busy machine: the file is 272 bytes.
    let deadline = Instant::now() + Duration::from_secs(60);
    let answer = loop {
        if let Some(outcome) = tb.probe_wdl(&kqvk) {
            break outcome;
        }
        assert!(Instant::now() < deadline, "KQvK never checked");
        std::thread::sleep(Duration::from_millis(5));
    };
    assert_eq!(answer, Outcome::Win);
    let kqvkr = pos("8/K7/8/2Q5/7r/3k4/8/8 w - - 0 1");
    let refused = |lines: &[String]| {
        lines
            .iter()
            .any(|l| l.contains("KQvKR.rtbw") && l.contains("checksum mismatch"))
    };
    while !refused(&reported.lock().unwrap()) {
        assert_eq!(tb.probe_wdl(&kqvkr), None, "the damaged KQvKR answered");
        assert!(Instant::now() < deadline, "KQvKR.rtbw never reported");
        std::thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(tb.probe_wdl(&kqvkr), None, "the damaged KQvKR answered");
    assert!(refused(&tb.refused_since_loaded()));
    let _ = fs::remove_dir_all(&dir);
}
