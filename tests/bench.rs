//! `cutoff bench` must give the same node count on every run (OpenBench checks it against the
//! `Bench: N` of the commit) and end with the line OpenBench reads.

use std::process::Command;

use cutoff::bench::{bench, positions, POSITIONS};
use shakmaty::Position;

/// Shallow enough to run in a moment, deep enough to use the table, ordering and pruning.
const TEST_DEPTH: i32 = 7;

#[test]
fn bench_node_count_is_the_same_on_every_run() {
    let mut first_run = Vec::new();
    let first = bench(TEST_DEPTH, |_, outcome| first_run.push(outcome.nodes));
    let mut second_run = Vec::new();
    let second = bench(TEST_DEPTH, |_, outcome| second_run.push(outcome.nodes));
    assert_eq!(first_run, second_run, "per-position node counts differ");
    assert_eq!(first.nodes, second.nodes);
    assert_eq!(first_run.len(), POSITIONS.len());
}

/// `--hash` sizes the table: a larger table gives the same result line (other node counts are
/// allowed, the table's replacement differs), and a size the engine cannot use is refused.
#[test]
fn bench_takes_a_table_size_and_refuses_zero() {
    let run = |hash: &str| {
        Command::new(env!("CARGO_BIN_EXE_cutoff"))
            .args(["bench", "2", "--hash", hash])
            .output()
            .unwrap()
    };
    let out = run("64");
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        stdout.lines().last().unwrap().starts_with("Bench: "),
        "{stdout}"
    );
    let refused = run("0");
    assert!(!refused.status.success());
    assert!(refused.stdout.is_empty());
    let stderr = String::from_utf8(refused.stderr).unwrap();
    assert!(stderr.contains("--hash"), "{stderr}");
}

#[test]
fn bench_positions_are_legal_and_none_is_over() {
    for (pos, fen) in positions().iter().zip(POSITIONS) {
        assert!(!pos.legal_moves().is_empty(), "no legal move in {fen}");
    }
}

#[test]
fn bench_output_ends_with_nodes_and_nps_as_openbench_reads_them() {
    let out = Command::new(env!("CARGO_BIN_EXE_cutoff"))
        .args(["bench", "2"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    let last = stdout.lines().last().unwrap();
    let words: Vec<&str> = last.split_whitespace().collect();
    let number_before = |unit: &str| {
        let i = words
            .iter()
            .position(|w| *w == unit)
            .unwrap_or_else(|| panic!("{last}"));
        words[i - 1]
            .parse::<u64>()
            .unwrap_or_else(|_| panic!("{last}"))
    };
    assert!(number_before("nodes") > 0, "{last}");
    number_before("nps");
    assert_eq!(
        stdout
            .lines()
            .filter(|l| l.starts_with("position "))
            .count(),
        POSITIONS.len()
    );
}

/// `cutoff --version` names the bench of its build from `cutoff::bench::SIGNATURE`: it must be
/// what `cutoff bench` prints, or the version would name another build. A change of the search
/// or the evaluation that moves the bench fails here until the constant (and README's
/// Measured section, `tests/readme.rs`) follows.
#[test]
fn the_bench_signature_constant_is_what_cutoff_bench_prints() {
    let out = Command::new(env!("CARGO_BIN_EXE_cutoff"))
        .arg("bench")
        .output()
        .unwrap();
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    let last = stdout.lines().last().unwrap();
    assert!(
        last.starts_with(&format!("Bench: {} nodes ", cutoff::bench::SIGNATURE)),
        "cutoff bench printed {last:?}, the constant says {}",
        cutoff::bench::SIGNATURE
    );
}

/// `--eval-file` searches the same positions with another net: the built-in net's own file
/// gives the signature's node count, another net (here the mirrored one, a format of its own)
/// another; a file that is not a net, or a net beside the classical evaluation, is refused
/// before any search, with nothing on stdout.
#[test]
fn bench_searches_with_a_net_file_and_refuses_a_bad_one() {
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_cutoff"))
            .args(["bench", "3"])
            .args(args)
            .output()
            .unwrap();
        let stdout = String::from_utf8(out.stdout).unwrap();
        let stderr = String::from_utf8(out.stderr).unwrap();
        (out.status.code(), stdout, stderr)
    };
    let bench_line = |stdout: &str| stdout.lines().last().unwrap().to_owned();
    let nodes = |stdout: &str| bench_line(stdout).split(' ').nth(1).unwrap().to_owned();
    let (code, built_in, err) = run(&[]);
    assert_eq!(code, Some(0), "{err}");
    let (code, same, err) = run(&[
        "--eval-file",
        "nets/cutoff-256-m40-l10-30-d60-lr5e6-b8.nnue",
    ]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(nodes(&same), nodes(&built_in), "{same}");
    assert!(
        same.contains("the net nets/cutoff-256-m40-l10-30-d60-lr5e6-b8.nnue's evaluation"),
        "{same}"
    );
    let (code, other, err) = run(&[
        "--eval-file",
        "nets/cutoff-256-hm-m80-l10-30-d60-lr5e6-b8.nnue",
    ]);
    assert_eq!(code, Some(0), "{err}");
    assert_ne!(nodes(&other), nodes(&built_in), "{other}");

    let dir = std::env::temp_dir().join(format!("cutoff-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.nnue");
    std::fs::write(&bad, b"CUTOFFNN but not a net").unwrap();
    let (code, out, err) = run(&["--eval-file", bad.to_str().unwrap()]);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(code, Some(2));
    assert!(out.is_empty(), "{out}");
    assert!(
        err.contains(&format!(
            "error: --eval-file: {}: not a Cutoff net file",
            bad.display()
        )),
        "{err}"
    );
    let (code, out, err) = run(&[
        "--eval",
        "classical",
        "--eval-file",
        "nets/cutoff-256-m40-l10-30-d60-lr5e6-b8.nnue",
    ]);
    assert_eq!(code, Some(2));
    assert!(out.is_empty(), "{out}");
    assert!(
        err.contains("--eval-file needs the net evaluation"),
        "{err}"
    );
}
