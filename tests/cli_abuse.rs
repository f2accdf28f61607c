//! The command-line tools under attack: `perft`, `perft-suite`, `epd` and `tree` on inputs that
//! are empty, binary, huge, truncated mid-line or nested 100 000 levels deep, absurd depths,
//! sizes and thread counts, and stdout closed under them (`cutoff bench | head`); `datagen` and
//! `train` on missing paths, a link to `/dev/zero`, a huge chunk and an `--out` that is a
//! folder; a zero count given to any command; every tool's output path a named pipe, a folder or
//! a symbolic link (refused at once, before the work, nothing left behind), a file its user could
//! not write, two outputs naming one file, a name of 255 bytes; inputs that are not data (empty,
//! zero-filled or sparse chunks, folders without chunks); inputs within the byte limits that
//! would cost more than memory holds (a tree of 20 million leaves, `train --batch 1000000000`,
//! run under an address-space limit); `train --resume` from damaged checkpoints or none.
//!
//! Every bad input must give a clear message on stderr and a non-zero exit, never a panic,
//! a stack overflow or a hang. The bad files are generated in a fresh temporary directory.

mod common;
use common::wait_with_deadline;

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

const BIN: &str = env!("CARGO_BIN_EXE_cutoff");

/// No bad input may keep a tool busy longer than this (the machine may be loaded).
const TIMEOUT: Duration = Duration::from_secs(60);

/// A fresh directory under the system temp dir, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(what: &str) -> TempDir {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!(
            "cutoff-cli-abuse-{}-{what}-{n}",
            std::process::id()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    fn file(&self, name: &str, contents: &[u8]) -> PathBuf {
        let path = self.0.join(name);
        std::fs::write(&path, contents).unwrap();
        path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

struct Run {
    status: ExitStatus,
    stdout: String,
    stderr: String,
}

/// Runs `cutoff <args>` with `stdin` as its input, killing it after [`TIMEOUT`].
fn run_with_input(args: &[&str], stdin: &[u8]) -> Run {
    run_command(Command::new(BIN), args, stdin)
}

/// Runs `cutoff <args>` with its address space capped at 2 GiB (as `prlimit --as` does), for
/// the cases that hand it an endless input (`/dev/zero`): a regression that reads without bound
/// then fails the test by the tool dying instead of taking the machine's memory.
#[cfg(unix)]
fn run_capped(args: &[&str]) -> Run {
    let mut command = Command::new(BIN);
    common::cap_address_space(&mut command, 2 << 30);
    run_command(command, args, b"")
}

fn run_command(mut command: Command, args: &[&str], stdin: &[u8]) -> Run {
    let mut child = command
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start cutoff");
    let mut input = child.stdin.take().unwrap();
    let data = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&data);
    });
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let out_reader = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = out.read_to_end(&mut s);
        s
    });
    let err_reader = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = err.read_to_end(&mut s);
        s
    });
    let status = wait_with_deadline(&mut child, TIMEOUT)
        .unwrap_or_else(|| panic!("cutoff {args:?} still running after {TIMEOUT:?}"));
    let _ = writer.join();
    Run {
        status,
        stdout: String::from_utf8_lossy(&out_reader.join().unwrap()).into_owned(),
        stderr: String::from_utf8_lossy(&err_reader.join().unwrap()).into_owned(),
    }
}

fn run(args: &[&str]) -> Run {
    run_with_input(args, b"")
}

/// No panic, no stack overflow, no abort, whatever the outcome.
fn assert_no_crash(r: &Run, what: &str) {
    let all = format!("{}{}", r.stdout, r.stderr);
    for bad in [
        "panicked",
        "overflow",
        "RUST_BACKTRACE",
        "memory allocation",
    ] {
        assert!(!all.contains(bad), "{what}: '{bad}' in the output:\n{all}");
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        assert_eq!(r.status.signal(), None, "{what}: killed by a signal\n{all}");
    }
}

/// A refusal: non-zero exit, a message on stderr containing `expected`, no crash.
fn assert_refused(r: &Run, what: &str, expected: &str) {
    assert_no_crash(r, what);
    assert!(
        !r.status.success(),
        "{what}: exit status {:?} should be a failure\nstdout:\n{}\nstderr:\n{}",
        r.status,
        r.stdout,
        r.stderr
    );
    assert!(
        r.stderr.contains(expected) || r.stdout.contains(expected),
        "{what}: expected '{expected}' in the output\nstdout:\n{}\nstderr:\n{}",
        r.stdout,
        r.stderr
    );
    assert!(!r.stderr.trim().is_empty(), "{what}: nothing on stderr");
}

fn path_str(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Bytes that are not UTF-8 text, with NULs, high bytes and stray line ends.
fn binary_junk(len: usize) -> Vec<u8> {
    let mut x: u32 = 0x9E37_79B9;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            (x >> 24) as u8 | 0x80
        })
        .collect()
}

const GOOD_SUITE_LINE: &str =
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400";

/// The inputs every file-reading tool must refuse: (name, contents, words the message holds).
fn bad_files() -> Vec<(&'static str, Vec<u8>, &'static str)> {
    let nested_brackets = "[".repeat(100_000) + &"]".repeat(100_000);
    // An odd number: the last quoted operand never ends.
    let nested_quotes = format!("{} ;c0 {}", GOOD_SUITE_LINE, "\"".repeat(100_001));
    let huge_line = "rnbqkbnr/".repeat(1 << 20); // 9 MiB, one line, no newline
    vec![
        ("empty", Vec::new(), "no positions in"),
        (
            "blank lines only",
            b"\n\n   \n\r\n".to_vec(),
            "no positions in",
        ),
        ("binary", binary_junk(4096), "UTF-8"),
        (
            "UTF-8 then one bad byte",
            [GOOD_SUITE_LINE.as_bytes(), b"\n\xff\n"].concat(),
            "UTF-8",
        ),
        (
            "truncated mid-line",
            b"rnbqkbnr/pppppppp/8/8/8/8/PPPP".to_vec(),
            "line 1",
        ),
        ("huge single line", huge_line.into_bytes(), "line 1"),
        (
            "nested 100000 brackets",
            nested_brackets.into_bytes(),
            "line 1",
        ),
        ("nested 100000 quotes", nested_quotes.into_bytes(), "line 1"),
    ]
}

#[test]
fn perft_suite_refuses_empty_binary_huge_truncated_and_nested_files() {
    let dir = TempDir::new("suite");
    for (name, contents, expected) in bad_files() {
        let file = dir.file("suite.epd", &contents);
        let r = run(&["perft-suite", path_str(&file), "-t", "1"]);
        assert_refused(&r, &format!("perft-suite on a {name} file"), expected);
    }
}

#[test]
fn epd_refuses_empty_binary_huge_truncated_and_nested_files() {
    let dir = TempDir::new("epd");
    for (name, contents, expected) in bad_files() {
        let file = dir.file("suite.epd", &contents);
        let r = run(&["epd", path_str(&file), "--depth", "1"]);
        // `epd` skips unreadable lines (reported on stderr) and fails when nothing is left.
        let expected = if expected.starts_with("line") || expected.starts_with("no positions") {
            "no readable positions"
        } else {
            expected
        };
        assert_refused(&r, &format!("epd on a {name} file"), expected);
    }
}

#[test]
fn epd_fails_on_a_file_truncated_mid_line_after_good_lines() {
    let dir = TempDir::new("epd-truncated");
    let good = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - bm Rd8#; id \"mate\";";
    let file = dir.file(
        "suite.epd",
        format!("{good}\n{good}\n6k1/5ppp/8/8/8/8/5P").as_bytes(),
    );
    let r = run(&["epd", path_str(&file), "--depth", "1"]);
    assert_refused(&r, "epd on a file truncated after good lines", "unreadable");
    assert!(r.stderr.contains("line 3"), "{}", r.stderr);
}

#[test]
fn bench_and_epd_refuse_depths_that_would_never_finish() {
    for depth in ["21", "100000", "0", "-3"] {
        let r = run(&["bench", "--", depth]);
        assert_refused(&r, &format!("bench {depth}"), "from 1 to 20");
    }
    let dir = TempDir::new("epd-depth");
    let file = dir.file("suite.epd", b"6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - bm Rd8#;\n");
    for depth in ["31", "100000", "0"] {
        let r = run(&["epd", path_str(&file), "--depth", depth]);
        assert_refused(&r, &format!("epd --depth {depth}"), "from 1 to 30");
    }
}

#[test]
fn file_tools_refuse_missing_files_directories_and_endless_devices() {
    let dir = TempDir::new("paths");
    let missing = dir.0.join("does-not-exist.epd");
    let mut cases: Vec<(String, &str)> = vec![
        (path_str(&missing).to_string(), "cannot read"),
        (path_str(&dir.0).to_string(), "cannot read"),
    ];
    if Path::new("/dev/zero").exists() {
        // An endless input must not be read into memory without bound: a device is refused
        // before a byte is read (crate::files).
        cases.push((
            "/dev/zero".to_string(),
            "a character device, not a regular file",
        ));
    } else {
        common::skip(
            "file_tools_refuse_missing_files_directories_and_endless_devices",
            common::Need::Machine,
            "no /dev/zero: the endless-device case is not checked",
        );
    }
    for (path, expected) in &cases {
        for tool in ["perft-suite", "epd"] {
            #[cfg(unix)]
            let r = run_capped(&[tool, path]);
            #[cfg(not(unix))]
            let r = run(&[tool, path]);
            assert_refused(&r, &format!("{tool} {path}"), expected);
        }
    }
}

#[test]
fn perft_suite_refuses_an_absurd_depth_in_the_file() {
    let dir = TempDir::new("depth");
    let file = dir.file("deep.epd", format!("{GOOD_SUITE_LINE} ;D99 1\n").as_bytes());
    let r = run(&["perft-suite", path_str(&file)]);
    assert_refused(&r, "a D99 count", "D99");
    // The same line checked only to depth 2 passes.
    let r = run(&["perft-suite", path_str(&file), "--max-depth", "2"]);
    assert_no_crash(&r, "--max-depth 2");
    assert!(r.status.success(), "{}\n{}", r.stdout, r.stderr);
}

#[test]
fn perft_refuses_absurd_depths_hash_sizes_and_thread_counts() {
    let usize_max = usize::MAX.to_string();
    // (the arguments after `perft`, what the refusal must say)
    let cases: &[(&[&str], &str)] = &[
        (&["11"], "from 0 to 10 (deeper would never finish)"),
        (&["99"], "from 0 to 10"),
        (&["4294967295"], "from 0 to 10"),
        // A depth beyond u32.
        (&["99999999999999999999"], "invalid value"),
        (&["-3"], "unexpected argument '-3'"),
        (&["2", "--hash", "100000000"], "cannot allocate"),
        (&["2", "--hash", "17592186044415"], "cannot allocate"),
        (&["2", "--hash", &usize_max], "cannot allocate"),
        (&["2", "--threads", "1000000"], "from 1 to 1024"),
        // A truncated FEN.
        (&["2", "--fen", "rnbqkbnr/pppppppp/8/8/8"], "FEN"),
        // The side not to move in check.
        (
            &["2", "--fen", "4k3/4R3/8/8/8/8/8/4K3 w - - 0 1"],
            "illegal",
        ),
    ];
    for (args, expected) in cases {
        let args: Vec<&str> = ["perft"].iter().chain(args.iter()).copied().collect();
        let r = run(&args);
        assert_refused(&r, &args.join(" "), expected);
    }
}

/// The FEN reader serves `perft --fen`, suites, datagen books and tuning data alike: a move
/// counter beyond `u32` was read as 4294967295 without a word, and is now refused, naming it.
#[test]
fn perft_refuses_fen_counters_beyond_their_range_and_counts_at_the_largest() {
    let board = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";
    // (what, the FEN's counters, what the refusal must say)
    let cases = [
        (
            "a fullmove number beyond u32",
            "0 99999999999999999999",
            "fullmove number 99999999999999999999 is beyond 4294967295",
        ),
        (
            "a halfmove clock beyond u32",
            "4294967296 1",
            "halfmove clock 4294967296 is beyond 4294967295",
        ),
    ];
    for (what, counters, expected) in cases {
        let r = run(&["perft", "1", "--fen", &format!("{board} {counters}")]);
        assert_refused(&r, &format!("perft with {what}"), expected);
    }
    let r = run(&[
        "perft",
        "1",
        "--fen",
        &format!("{board} 4294967295 4294967295"),
    ]);
    assert_no_crash(&r, "perft at the largest counters");
    assert!(r.stdout.contains("Nodes searched: 20"), "{}", r.stdout);
}

#[test]
fn perft_at_the_documented_bounds_still_counts() {
    let r = run(&["perft", "3", "--hash", "1", "--threads", "2"]);
    assert_no_crash(&r, "perft 3");
    assert!(r.status.success(), "{}", r.stderr);
    assert!(r.stdout.contains("Nodes searched: 8902"), "{}", r.stdout);
    let r = run(&["perft", "0"]);
    assert!(r.stdout.contains("Nodes searched: 1"), "{}", r.stdout);
}

#[test]
fn tree_refuses_bad_trees_with_a_message_not_a_stack_overflow() {
    let deep_arg = "[".repeat(65_000) + "1" + &"]".repeat(65_000);
    let cases: Vec<(&str, String, &str)> = vec![
        ("empty", String::new(), "expected"),
        ("truncated", "[[3,12,8],[2,4".to_string(), "end of input"),
        ("trailing junk", "[1,2]]".to_string(), "after the end"),
        (
            "huge leaf",
            "[1,99999999999999999999999]".to_string(),
            "range",
        ),
        // Its `abs()` wrapped to itself and passed the range check (issue 80).
        (
            "i64::MIN leaf",
            "[-9223372036854775808]".to_string(),
            "number -9223372036854775808 out of range",
        ),
        ("nested 65000 deep", deep_arg, "nesting"),
        ("junk", "\u{fffd}[".to_string(), "expected"),
    ];
    for (name, tree, expected) in cases {
        let r = run(&["tree", &tree]);
        assert_refused(&r, &format!("tree: {name}"), expected);
    }
}

#[test]
fn tree_from_stdin_refuses_nesting_100000_deep_and_binary_input() {
    let deep = "[".repeat(100_000) + "1" + &"]".repeat(100_000);
    // (what, standard input, what the refusal must say)
    let cases = [
        ("nested 100000 deep", deep.into_bytes(), "nesting"),
        ("on binary input", binary_junk(1000), "UTF-8"),
        ("on empty input", Vec::new(), "expected"),
    ];
    for (what, input, expected) in &cases {
        let r = run_with_input(&["tree", "-"], input);
        assert_refused(&r, &format!("tree - {what}"), expected);
    }
    let r = run_with_input(&["tree", "-"], b"[[3,12,8],[2,4,6],[14,5,2]]\n");
    assert!(r.status.success(), "{}", r.stderr);
    assert!(r.stdout.contains("minimax: 3"), "{}", r.stdout);
}

#[test]
fn tree_at_the_nesting_limit_is_analysed_without_overflowing_the_stack() {
    let max = cutoff::lab::tree::bracket::MAX_NESTING;
    let tree = "[".repeat(max) + "1,2" + &"]".repeat(max);
    let r = run_with_input(&["tree", "-"], tree.as_bytes());
    assert_no_crash(&r, "tree at the nesting limit");
    assert!(r.status.success(), "{}", r.stderr);
    assert!(r.stdout.contains("minimax: "), "{}", r.stdout);
}

/// Runs `cutoff <args>` on `stdin` with its address space capped at `bytes`.
#[cfg(unix)]
fn run_capped_with_input(bytes: u64, args: &[&str], stdin: &[u8]) -> Run {
    let mut command = Command::new(BIN);
    common::cap_address_space(&mut command, bytes);
    run_command(command, args, stdin)
}

/// A tree of more nodes than `cutoff tree` analyses (1 000 000) is refused before it is built:
/// a 40 MB `[0,0,…]` on stdin (20 million leaves, under the 64 MiB input limit) aborted on
/// allocation under a 4 GB address-space limit (issue 80); here all run under 1 GiB. A tree of
/// exactly that many nodes is analysed; `--trace` and `--html`, whose output grows with every
/// node's path, take at most 10 000 nodes.
#[cfg(unix)]
#[test]
fn tree_refuses_a_tree_of_more_nodes_than_it_analyses_before_building_it() {
    let flat = |leaves: usize| format!("[{}0]", "0,".repeat(leaves - 1));
    let cap = 1 << 30;
    let r = run_capped_with_input(cap, &["tree", "-"], flat(20_000_000).as_bytes());
    assert_refused(&r, "tree - of 20 million leaves", "more than 1000000 nodes");
    assert_eq!(r.status.code(), Some(2), "{}", r.stderr);
    let r = run_capped_with_input(cap, &["tree", "-"], flat(1_000_000).as_bytes());
    assert_refused(&r, "tree - of 1000001 nodes", "more than 1000000 nodes");
    let r = run_capped_with_input(cap, &["tree", "-"], flat(999_999).as_bytes());
    assert_no_crash(&r, "tree - of 1000000 nodes");
    assert!(r.status.success(), "{}", r.stderr);
    assert!(r.stdout.contains("minimax: 0"), "{}", r.stdout);
    for flag in ["--trace", "--html"] {
        let page =
            std::env::temp_dir().join(format!("cutoff-tree-big-{}.html", std::process::id()));
        let mut args = vec!["tree", "-", flag];
        if flag == "--html" {
            args.push(path_str(&page));
        }
        let r = run_capped_with_input(cap, &args, flat(10_000).as_bytes());
        assert_refused(
            &r,
            &format!("tree {flag} of 10001 nodes"),
            "at most 10000 nodes",
        );
        assert!(!page.exists(), "a page was written");
        let r = run_capped_with_input(cap, &args, flat(9_999).as_bytes());
        assert!(
            r.status.success(),
            "tree {flag} of 10000 nodes: {}",
            r.stderr
        );
        let _ = std::fs::remove_file(&page);
    }
}

/// A deep tree within the limits is analysed in memory that does not grow with its depth:
/// 200 000 leaves under 1000 levels (400 KB of text) took 2.4 GB, every node keeping its whole
/// path from the root (issue 80); here it runs under a 1 GiB address-space limit.
#[cfg(unix)]
#[test]
fn a_deep_tree_is_analysed_in_memory_that_does_not_grow_with_its_depth() {
    let depth = cutoff::lab::tree::bracket::MAX_NESTING;
    let tree = "[".repeat(depth) + &"1,".repeat(199_999) + "1" + &"]".repeat(depth);
    let r = run_capped_with_input(1 << 30, &["tree", "-"], tree.as_bytes());
    assert_no_crash(&r, "tree - of 200000 leaves 1000 deep");
    assert!(r.status.success(), "{}", r.stderr);
    assert!(r.stdout.contains("minimax: 1"), "{}", r.stdout);
}
/// Starts `cutoff <args>`, closes its stdout at once (a reader like `head` that has gone) and
/// returns how it ended and what it wrote on stderr.
fn run_with_stdout_closed(args: &[&str]) -> (ExitStatus, String) {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start cutoff");
    drop(child.stdout.take());
    let mut err = child.stderr.take().unwrap();
    let err_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = err.read_to_string(&mut s);
        s
    });
    let status = wait_with_deadline(&mut child, TIMEOUT).unwrap_or_else(|| {
        panic!("cutoff {args:?} with stdout closed still running after {TIMEOUT:?}")
    });
    (status, err_reader.join().unwrap())
}

#[test]
fn tools_stop_quietly_when_stdout_is_closed() {
    let tree = "[[3,12,8],[2,4,6],[14,5,2]]";
    let runs: [&[&str]; 4] = [
        &["bench", "2"],
        &["perft", "2", "--divide", "-t", "1"],
        &["tree", tree, "--trace"],
        &["compare", "--depth", "1"],
    ];
    for args in runs {
        let (status, stderr) = run_with_stdout_closed(args);
        assert!(
            !stderr.contains("panicked") && !stderr.contains("Broken pipe"),
            "cutoff {args:?} | (closed): {stderr}"
        );
        #[cfg(unix)]
        {
            use std::os::unix::process::ExitStatusExt;
            // Like any Unix filter: done, or ended by SIGPIPE.
            assert!(
                status.success() || status.signal() == Some(libc_sigpipe()),
                "cutoff {args:?} | (closed) ended with {status:?}: {stderr}"
            );
        }
        #[cfg(not(unix))]
        let _ = status;
    }
}

/// SIGPIPE's number on every Unix Cutoff builds on.
#[cfg(unix)]
fn libc_sigpipe() -> i32 {
    13
}

/// Runs `cutoff <args>` under `ulimit -v <kb>` (an address-space limit, as a container might
/// impose), through `sh`.
#[cfg(target_os = "linux")]
fn run_limited(kb: u64, args: &str) -> Run {
    let script = format!("ulimit -v {kb} && exec \"$0\" {args}");
    let out = Command::new("sh")
        .args(["-c", &script, BIN])
        .stdin(Stdio::null())
        .output()
        .expect("run sh");
    Run {
        status: out.status,
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

#[cfg(target_os = "linux")]
#[test]
fn threads_the_system_will_not_give_are_reduced_not_a_panic() {
    // 1000 workers with 16-64 MB stacks each do not fit in 2 GB of address space.
    let r = run_limited(2 << 20, "perft 4 --threads 1000");
    assert_no_crash(&r, "perft 4 --threads 1000 in 2 GB");
    assert!(r.status.success(), "{}\n{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("Nodes searched: 197281"), "{}", r.stdout);
    assert!(
        r.stderr.contains("cannot start 1000 threads"),
        "{}",
        r.stderr
    );

    let dir = TempDir::new("threads");
    let suite = dir.file("suite.epd", format!("{GOOD_SUITE_LINE}\n").as_bytes());
    let r = run_limited(
        2 << 20,
        &format!("perft-suite {} --threads 1000", path_str(&suite)),
    );
    assert_no_crash(&r, "perft-suite --threads 1000 in 2 GB");
    assert!(r.status.success(), "{}\n{}", r.stdout, r.stderr);

    let epd = dir.file(
        "one.epd",
        b"6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - bm Rd8#; id \"mate\";\n",
    );
    let r = run_limited(
        2 << 20,
        &format!("epd {} --depth 2 --jobs 1000 --hash 1", path_str(&epd)),
    );
    assert_no_crash(&r, "epd --jobs 1000 in 2 GB");
    assert!(r.status.success(), "{}\n{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("solved 1/1"), "{}", r.stdout);
}

/// The committed sample chunk (20 games) for the data tools.
fn sample_chunk() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/selfplay-sample.vf")
}

#[cfg(unix)]
#[test]
fn data_tools_refuse_a_link_to_dev_zero_at_once_as_not_a_regular_file() {
    if !Path::new("/dev/zero").exists() {
        common::skip(
            "data_tools_refuse_a_link_to_dev_zero_at_once_as_not_a_regular_file",
            common::Need::Machine,
            "no /dev/zero",
        );
        return;
    }
    let dir = TempDir::new("zero-link");
    for name in ["zero.vf", "zero.bin"] {
        let link = dir.0.join(name);
        std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
        let link = path_str(&link);
        let expected = format!("{link}: a character device, not a regular file");
        let r = run_capped(&["datagen", "--stats", link]);
        assert_refused(&r, &format!("datagen --stats {name}"), &expected);
        assert!(
            r.stdout
                .ends_with("0 games, 0 positions (0 pass the trainer's default filter)\n"),
            "{}",
            r.stdout
        );
        let r = run_capped(&["datagen", "--dump", link]);
        assert_refused(&r, &format!("datagen --dump {name}"), &expected);
        let out = dir.0.join("net.nnue");
        let r = run_capped(&["train", "--data", link, "--out", path_str(&out)]);
        assert_refused(&r, &format!("train --data {name}"), &expected);
        assert!(!r.stderr.contains("epoch"), "trained: {}", r.stderr);
    }
}

/// `--dump` of a 40-byte file streams it: a 4 GiB file (sparse: the sample's records, then
/// zeros) is dumped under a 1 GiB address-space limit, its records printed before the first
/// zero record is refused. Reading the file whole would need 4 GiB and abort.
#[cfg(target_os = "linux")]
#[test]
fn datagen_dump_streams_a_huge_forty_byte_file_in_bounded_memory() {
    let dir = TempDir::new("dump-huge");
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/selfplay-sample.bin");
    let bytes = std::fs::read(&sample).unwrap();
    let big = dir.file("big.bin", &bytes);
    std::fs::OpenOptions::new()
        .write(true)
        .open(&big)
        .unwrap()
        .set_len(4 << 30)
        .unwrap();
    let r = run_limited(1 << 20, &format!("datagen --dump {}", path_str(&big)));
    assert_refused(
        &r,
        "datagen --dump of 4 GiB",
        "record 1927: illegal position",
    );
    assert_eq!(r.stdout.lines().count(), bytes.len() / 40, "{}", r.stderr);
}

#[test]
fn train_refuses_a_missing_data_path_before_training() {
    let dir = TempDir::new("train-missing");
    let missing = dir.0.join("missing");
    let out = dir.0.join("net.nnue");
    let r = run(&[
        "train",
        "--data",
        path_str(&sample_chunk()),
        path_str(&missing),
        "--out",
        path_str(&out),
        "--hidden",
        "16",
        "--epochs",
        "1",
    ]);
    let expected = format!("{}: no such file or directory", path_str(&missing));
    assert_refused(&r, "train --data with a missing path", &expected);
    assert!(!r.stderr.contains("epoch"), "trained: {}", r.stderr);
    assert!(!out.exists());
}

#[test]
fn train_refuses_an_out_that_names_a_folder_before_training() {
    let dir = TempDir::new("train-out");
    for (out, expected) in [
        (dir.0.clone(), "a directory, not a regular file".to_string()),
        (
            dir.0.join("no-such-folder/net.nnue"),
            "no-such-folder: no such file or directory".to_string(),
        ),
    ] {
        let r = run(&[
            "train",
            "--data",
            path_str(&sample_chunk()),
            "--out",
            path_str(&out),
            "--hidden",
            "16",
            "--epochs",
            "1",
        ]);
        assert_refused(&r, &format!("train --out {}", out.display()), &expected);
        assert!(!r.stderr.contains("epoch"), "trained: {}", r.stderr);
    }
    // Nothing was left in the folder (the write probe is removed).
    assert_eq!(std::fs::read_dir(&dir.0).unwrap().count(), 0);
}

/// `--hidden` takes only widths the engine loads: 17 and 1040 trained and exited 0 before,
/// writing nets the engine then refused (`unsupported net shape 768 -> 17`). Now each is a
/// usage error (exit 2) naming the rule, before any data is read or epoch trained.
#[test]
fn train_refuses_a_width_the_engine_cannot_load_before_training() {
    let dir = TempDir::new("train-width");
    let out = dir.0.join("net.nnue");
    for width in ["17", "1040", "8", "1"] {
        let r = run(&[
            "train",
            "--data",
            path_str(&sample_chunk()),
            "--out",
            path_str(&out),
            "--hidden",
            width,
            "--epochs",
            "1",
            "--threads",
            "1",
        ]);
        let what = format!("train --hidden {width}");
        assert_refused(
            &r,
            &what,
            "the engine loads a multiple of 16 from 16 to 1024",
        );
        assert_eq!(r.status.code(), Some(2), "{what}: {}", r.stderr);
        assert!(r.stderr.contains("--hidden"), "{what}: {}", r.stderr);
        assert!(!r.stderr.contains("epoch"), "{what} trained: {}", r.stderr);
        assert!(!out.exists(), "{what} wrote a net");
    }
}

/// Every float flag of `train` takes only finite numbers a run can use: `--lr NaN` (or `inf`,
/// `0`, `3.4e38`) and `--weight-decay NaN` or `inf` trained, printed `train loss NaN`, wrote a
/// net of zeros and exited 0 (issue 80). Each is a usage error (exit 2) naming the flag and what
/// it takes, before any data is read.
#[test]
fn train_refuses_nan_infinite_and_absurd_float_flags_before_training() {
    let dir = TempDir::new("train-floats");
    let out = dir.0.join("net.nnue");
    let cases: [(&str, &[&str], &str); 6] = [
        (
            "--lr",
            &["NaN", "inf", "0", "3.4e38"],
            "above 0 and at most 1",
        ),
        ("--lr-end", &["NaN", "inf"], "above 0 and at most 1"),
        ("--weight-decay", &["NaN", "inf", "-0.01"], "from 0 to 1"),
        ("--lambda", &["NaN", "-inf"], "from 0 to 1"),
        ("--lambda-end", &["NaN", "2"], "from 0 to 1"),
        ("--k", &["NaN", "inf", "0"], "above 0 and at most 100000"),
    ];
    for (flag, values, takes) in cases {
        for value in values {
            let r = run(&[
                "train",
                "--data",
                path_str(&sample_chunk()),
                "--out",
                path_str(&out),
                "--hidden",
                "16",
                "--epochs",
                "1",
                "--threads",
                "1",
                &format!("{flag}={value}"),
            ]);
            let what = format!("train {flag} {value}");
            assert_refused(&r, &what, takes);
            assert_eq!(r.status.code(), Some(2), "{what}: {}", r.stderr);
            assert!(
                r.stderr
                    .contains(&format!("invalid value '{value}' for '{flag} ")),
                "{what}: {}",
                r.stderr
            );
            assert!(!r.stderr.contains("epoch"), "{what} trained: {}", r.stderr);
            assert!(!out.exists(), "{what} wrote a net");
        }
    }
}

/// A run whose loss stops being a number stops, says so and writes no net for it: resumed from
/// a checkpoint whose `K` was NaN, `train` printed `train loss NaN`, wrote a net of zeros over
/// the good one and exited 0 (issue 80). Such a checkpoint is now refused when read; here the
/// checkpoint's numbers are all finite but so large that the first output is `inf − inf`
/// (every `b1` 1, the side to move's output weights `f32::MAX`, the other side's `−f32::MAX`),
/// and the run exits 1 naming the epoch and batch, the net and checkpoints of the epoch before
/// kept.
#[test]
fn train_stops_when_its_loss_turns_non_finite_and_writes_no_net() {
    let dir = TempDir::new("train-diverged");
    let out = dir.0.join("net.nnue");
    let ck = dir.0.join("ck");
    let chunk = sample_chunk();
    let train = |extra: &[&str]| {
        let mut args = vec![
            "train",
            "--data",
            path_str(&chunk),
            "--out",
            path_str(&out),
            "--hidden",
            "16",
            "--epochs",
            "2",
            "--threads",
            "1",
            "--k",
            "130",
            "--checkpoint",
            path_str(&ck),
        ];
        args.extend_from_slice(extra);
        run(&args)
    };
    let r = train(&[]);
    assert!(r.status.success(), "{}", r.stderr);
    let good = std::fs::read(&out).unwrap();
    // As if stopped after its first epoch (the recipe, `--epochs 2` with it, is the same).
    std::fs::remove_file(ck.join("epoch-0002.ckpt")).unwrap();
    let first = ck.join("epoch-0001.ckpt");
    let mut c = cutoff::train::checkpoint::load(&first).unwrap();
    let net = &mut c.state.net;
    let n = net.hidden;
    for b in net.b1_range() {
        net.params[b] = 1.0;
    }
    for bucket in 0..net.buckets {
        let start = net.w2_range().start + bucket * 2 * n;
        net.params[start..start + n].fill(f32::MAX);
        net.params[start + n..start + 2 * n].fill(-f32::MAX);
    }
    let recipe = c.recipe.clone().unwrap();
    cutoff::train::checkpoint::save(&ck, &c.state, c.k, &recipe).unwrap();
    let r = train(&["--resume"]);
    assert_refused(
        &r,
        "train --resume from weights whose output overflows",
        "epoch 2, batch 1: the loss is NaN",
    );
    assert_eq!(r.status.code(), Some(1), "{}", r.stderr);
    assert!(r.stderr.contains("the run has diverged"), "{}", r.stderr);
    assert!(
        r.stderr
            .contains("stopped without writing a net or a checkpoint"),
        "{}",
        r.stderr
    );
    assert!(r.stdout.is_empty(), "a summary: {}", r.stdout);
    assert!(!r.stderr.contains("train loss NaN"), "{}", r.stderr);
    assert_eq!(
        std::fs::read(&out).unwrap(),
        good,
        "the good net was overwritten"
    );
    assert!(
        !ck.join("epoch-0002.ckpt").exists(),
        "a diverged checkpoint was written"
    );
}

/// A run resumed from a checkpoint goes on as the unbroken one only under the recipe and data
/// it started with: another flag that shapes the run (another input layout among them), or
/// data that has gained a chunk since
/// (as `data/` does between sessions), is refused naming the difference, before any epoch; the
/// same flags resume it.
#[test]
fn train_resumes_only_under_the_recipe_and_data_it_started_with() {
    let dir = TempDir::new("train-recipe");
    let out = dir.0.join("net.nnue");
    let ck = dir.0.join("ck");
    let chunk = sample_chunk();
    let other = chunk.with_extension("bin");
    let train = |data: &Path, extra: &[&str]| {
        let mut args = vec![
            "train",
            "--data",
            path_str(data),
            "--out",
            path_str(&out),
            "--hidden",
            "16",
            "--epochs",
            "2",
            "--threads",
            "1",
            "--k",
            "130",
            "--checkpoint",
            path_str(&ck),
        ];
        args.extend_from_slice(extra);
        run(&args)
    };
    let r = train(&chunk, &[]);
    assert!(r.status.success(), "{}", r.stderr);
    // As if stopped after its first epoch.
    std::fs::remove_file(ck.join("epoch-0002.ckpt")).unwrap();
    for (data, extra, expected) in [
        (
            &chunk,
            vec!["--lr-end", "0.00001"],
            "--lr-end: 0.000005 there, 0.00001 here",
        ),
        // `--lambda` alone holds λ flat: not the default rise the run started with.
        (
            &chunk,
            vec!["--lambda", "0.1"],
            "--lambda-end: 0.3 there, (not given) here",
        ),
        (&chunk, vec!["--seed", "8"], "--seed: 1 there, 8 here"),
        // A net of another input layout: the checkpoint's weights mean other squares.
        (
            &chunk,
            vec!["--inputs", "mirrored"],
            "--inputs: plain there, mirrored here",
        ),
        (&other, vec![], "data: 1 chunks, "),
    ] {
        let what = format!(
            "train --data {} --resume {}",
            data.display(),
            extra.join(" ")
        );
        let mut extra = extra;
        extra.push("--resume");
        let r = train(data, &extra);
        assert_refused(&r, &what, expected);
        assert!(
            r.stderr.contains("under another recipe"),
            "{what}: {}",
            r.stderr
        );
        assert!(
            !r.stderr.contains("epoch   2"),
            "{what} trained: {}",
            r.stderr
        );
    }
    let r = train(&chunk, &["--resume"]);
    assert!(r.status.success(), "{}", r.stderr);
    assert!(
        r.stderr.contains("resuming from") && r.stderr.contains("epoch   2"),
        "{}",
        r.stderr
    );
}

/// `cutoff train` of two epochs of 16 neurons on the sample chunk, checkpoints in `ck`.
fn train_two_epochs(out: &Path, ck: &Path, extra: &[&str]) -> Run {
    let chunk = sample_chunk();
    let mut args = vec![
        "train",
        "--data",
        path_str(&chunk),
        "--out",
        path_str(out),
        "--hidden",
        "16",
        "--epochs",
        "2",
        "--threads",
        "1",
        "--k",
        "130",
        "--checkpoint",
        path_str(ck),
    ];
    args.extend_from_slice(extra);
    run(&args)
}

/// `--resume` from a checkpoint with a byte flipped went on from it without a word; one whose
/// weights, moments or `K` are not finite numbers was taken too, and trained a net of zeros
/// (issue 80). Each is refused naming the file and what is wrong, before the data is read and
/// before any epoch; the net of the run before stays. The checkpoint as written resumes.
#[test]
fn train_resume_refuses_a_damaged_or_non_finite_checkpoint_naming_it() {
    use cutoff::train::checkpoint;
    let dir = TempDir::new("train-damaged-checkpoint");
    let (out, ck) = (dir.0.join("net.nnue"), dir.0.join("ck"));
    let r = train_two_epochs(&out, &ck, &[]);
    assert!(r.status.success(), "{}", r.stderr);
    // As if stopped after its first epoch.
    std::fs::remove_file(ck.join("epoch-0002.ckpt")).unwrap();
    let first = ck.join("epoch-0001.ckpt");
    let good = std::fs::read(&first).unwrap();
    let net = std::fs::read(&out).unwrap();
    let loaded = checkpoint::load(&first).unwrap();
    // The same checkpoint changed and written whole again (its checksum then matches).
    let changed = |change: &dyn Fn(&mut checkpoint::Checkpoint)| -> Vec<u8> {
        let mut c = loaded.clone();
        change(&mut c);
        let recipe = c.recipe.clone().unwrap_or_default();
        let path = checkpoint::save(&dir.0.join("changed"), &c.state, c.k, &recipe).unwrap();
        std::fs::read(path).unwrap()
    };
    let mut flipped = good.clone();
    flipped[good.len() / 2] ^= 0x10;
    let cases = [
        ("a byte flipped", flipped, "damaged"),
        (
            "a NaN weight",
            changed(&|c| c.state.net.params[7] = f32::NAN),
            "weight 7 is NaN",
        ),
        (
            "an infinite moment",
            changed(&|c| c.state.v[3] = f32::INFINITY),
            "second moment 3 is inf",
        ),
        ("a NaN K", changed(&|c| c.k = f64::NAN), "K is NaN"),
    ];
    for (what, bytes, expected) in cases {
        std::fs::write(&first, &bytes).unwrap();
        let r = train_two_epochs(&out, &ck, &["--resume"]);
        let what = format!("train --resume from a checkpoint with {what}");
        assert_refused(&r, &what, expected);
        assert!(r.stderr.contains(path_str(&first)), "{what}: {}", r.stderr);
        assert!(
            !r.stderr.contains("chunks,"),
            "{what}: loaded the data: {}",
            r.stderr
        );
        assert!(
            !r.stderr.contains("epoch   2"),
            "{what}: trained: {}",
            r.stderr
        );
        assert_eq!(
            std::fs::read(&out).unwrap(),
            net,
            "{what}: the net was overwritten"
        );
    }
    std::fs::write(&first, &good).unwrap();
    let r = train_two_epochs(&out, &ck, &["--resume"]);
    assert!(r.status.success(), "{}", r.stderr);
    assert!(
        r.stderr.contains("resuming from") && r.stderr.contains("epoch   2"),
        "{}",
        r.stderr
    );
}

/// `--resume` from an empty folder, a folder of other files or a missing one trained from
/// scratch, saying only "no checkpoint ...; starting afresh" (issue 80): what the user asked for
/// is not there. Refused naming the folder, before the data is read; no net written.
#[test]
fn train_resume_refuses_a_folder_that_holds_no_checkpoint_naming_it() {
    let dir = TempDir::new("train-resume-nothing");
    let out = dir.0.join("net.nnue");
    let empty = dir.0.join("empty");
    std::fs::create_dir(&empty).unwrap();
    let other = dir.0.join("other");
    std::fs::create_dir(&other).unwrap();
    std::fs::write(other.join("notes.txt"), b"x").unwrap();
    std::fs::write(other.join("epoch-0001.txt"), b"x").unwrap();
    let missing = dir.0.join("missing");
    for (ck, expected) in [
        (&empty, "no checkpoint"),
        (&other, "no checkpoint"),
        (&missing, "no such file or directory"),
    ] {
        let r = train_two_epochs(&out, ck, &["--resume"]);
        let what = format!("train --resume --checkpoint {}", ck.display());
        assert_refused(&r, &what, expected);
        assert!(r.stderr.contains(path_str(ck)), "{what}: {}", r.stderr);
        assert!(
            !r.stderr.contains("chunks,"),
            "{what}: loaded the data: {}",
            r.stderr
        );
        assert!(
            !r.stderr.contains("epoch   1"),
            "{what}: trained: {}",
            r.stderr
        );
        assert!(!out.exists(), "{what}: a net was written");
    }
    assert!(!missing.exists(), "the missing folder was made");
}

/// `--batch 1000000000` aborted allocating 68 GB for the batch, and `--batch
/// 4611686018427387904` panicked (`capacity overflow`) (issue 80). Above what memory can hold
/// (262144 positions: the gradient buffers take 4 bytes a parameter for each 1024 of them) it
/// is a usage error giving the range, before anything is read; within it, a batch larger than
/// the training positions is refused after loading, naming both counts, before any epoch.
#[cfg(unix)]
#[test]
fn train_refuses_a_batch_memory_cannot_hold_or_the_data_cannot_fill_before_allocating() {
    let dir = TempDir::new("train-batch");
    let out = dir.0.join("net.nnue");
    let chunk = sample_chunk();
    let train = |batch: &str| {
        run_capped(&[
            "train",
            "--data",
            path_str(&chunk),
            "--out",
            path_str(&out),
            "--hidden",
            "16",
            "--epochs",
            "1",
            "--threads",
            "1",
            "--k",
            "130",
            "--batch",
            batch,
        ])
    };
    for batch in ["1000000000", "4611686018427387904", "262145"] {
        let r = train(batch);
        let what = format!("train --batch {batch}");
        assert_refused(&r, &what, "a whole number from 1 to 262144");
        assert_eq!(r.status.code(), Some(2), "{what}: {}", r.stderr);
        assert!(r.stderr.contains("--batch"), "{what}: {}", r.stderr);
    }
    let r = train("262144");
    assert_refused(
        &r,
        "train --batch 262144",
        "--batch 262144 is more than the ",
    );
    assert!(r.stderr.contains("training positions"), "{}", r.stderr);
    assert!(!r.stderr.contains("epoch   1"), "trained: {}", r.stderr);
    assert!(!out.exists(), "a net was written");
}

#[test]
fn train_warns_that_k_fitted_on_a_few_games_is_not_to_be_trusted() {
    let dir = TempDir::new("train-k");
    let out = dir.0.join("net.nnue");
    let r = run(&[
        "train",
        "--data",
        path_str(&sample_chunk()),
        "--out",
        path_str(&out),
        "--hidden",
        "16",
        "--epochs",
        "1",
        "--threads",
        "1",
    ]);
    assert_no_crash(&r, "train on 20 games");
    assert!(r.status.success(), "{}", r.stderr);
    assert!(
        r.stderr.contains("warning: K = ") && r.stderr.contains("too small to fit K"),
        "{}",
        r.stderr
    );
    // With `--k` nothing is fitted, and nothing warned.
    let r = run(&[
        "train",
        "--data",
        path_str(&sample_chunk()),
        "--out",
        path_str(&out),
        "--hidden",
        "16",
        "--epochs",
        "1",
        "--threads",
        "1",
        "--k",
        "130",
    ]);
    assert!(r.status.success(), "{}", r.stderr);
    assert!(!r.stderr.contains("warning"), "{}", r.stderr);
}

/// Every count that cannot be zero is refused by the argument parser: a usage error (exit 2)
/// naming the flag, before any work, rather than taken as 1 or found out later.
#[test]
fn zero_counts_are_usage_errors_for_every_command() {
    let dir = TempDir::new("zero-counts");
    let suite = dir.file("suite.epd", format!("{GOOD_SUITE_LINE}\n").as_bytes());
    let suite = path_str(&suite);
    let out = path_str(&dir.0.join("x.vf")).to_string();
    let data = path_str(&sample_chunk()).to_string();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["datagen", "--out", &out, "--threads", "0", "--games", "1"],
            "--threads",
        ),
        (
            vec!["datagen", "--out", &out, "--nodes", "0", "--games", "1"],
            "--nodes",
        ),
        (vec!["datagen", "--out", &out, "--games", "0"], "--games"),
        (
            vec!["datagen", "--out", &out, "--positions", "0"],
            "--positions",
        ),
        (
            vec!["train", "--data", &data, "--threads", "0"],
            "--threads",
        ),
        (vec!["train", "--data", &data, "--epochs", "0"], "--epochs"),
        (vec!["train", "--data", &data, "--batch", "0"], "--batch"),
        (vec!["train", "--data", &data, "--hidden", "0"], "--hidden"),
        (
            vec!["train", "--data", &data, "--hidden", "4097"],
            "--hidden",
        ),
        (
            vec!["train", "--data", &data, "--output-buckets", "3"],
            "--output-buckets",
        ),
        (
            vec!["train", "--data", &data, "--max-positions", "0"],
            "--max-positions",
        ),
        (vec!["tune", "--data", &data, "--epochs", "0"], "--epochs"),
        (vec!["tune", "--data", &data, "--threads", "0"], "--threads"),
        (
            vec!["tune", "--data", &data, "--report-every", "0"],
            "--report-every",
        ),
        (vec!["epd", suite, "--jobs", "0"], "--jobs"),
        (vec!["epd", suite, "--nodes", "0"], "--nodes"),
        (vec!["epd", suite, "--movetime", "0"], "--movetime"),
        (vec!["epd", suite, "--hash", "0"], "--hash"),
        (vec!["epd", suite, "--threads", "0"], "--threads"),
        (vec!["perft", "1", "--threads", "0"], "--threads"),
        (vec!["perft-suite", suite, "--threads", "0"], "--threads"),
        (
            vec!["perft-suite", suite, "--max-depth", "0"],
            "--max-depth",
        ),
        (vec!["bench", "1", "--hash", "0"], "--hash"),
        (vec!["bench", "1", "--threads", "0"], "--threads"),
    ];
    for (args, flag) in &cases {
        let r = run(args);
        assert_refused(&r, &args.join(" "), flag);
        assert_eq!(r.status.code(), Some(2), "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains("invalid value"), "{args:?}: {}", r.stderr);
    }
    assert!(!dir.0.join("x.vf").exists());
}

/// Runs `cutoff <args>` in `dir`, killing it after `limit`: `None` when it was still running
/// then (a tool blocked opening a named pipe waits for ever, whatever the signal).
fn run_in_for(dir: &Path, args: &[&str], limit: Duration) -> Option<Run> {
    let mut child = Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start cutoff");
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let out_reader = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = out.read_to_end(&mut s);
        s
    });
    let err_reader = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = err.read_to_end(&mut s);
        s
    });
    let status = wait_with_deadline(&mut child, limit)?;
    Some(Run {
        status,
        stdout: String::from_utf8_lossy(&out_reader.join().unwrap()).into_owned(),
        stderr: String::from_utf8_lossy(&err_reader.join().unwrap()).into_owned(),
    })
}

/// Makes a named pipe at `path`.
#[cfg(unix)]
fn mkfifo(path: &Path) {
    let c = std::ffi::CString::new(path_str(path)).unwrap();
    // SAFETY: `c` is a valid NUL-terminated path that outlives the call.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0, "mkfifo");
}

/// The committed 40-byte sample (the same 20 games).
fn sample_bin() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/selfplay-sample.bin")
}

/// Every output path of every tool, a named pipe: refused at once with the pipe named, never
/// opened (opening a pipe to write blocks until a reader comes, and no signal ends that wait:
/// datagen with its MANIFEST a pipe ignored SIGTERM for 13 minutes). Each tool gets 30 s here
/// where it needs well under one.
#[cfg(unix)]
#[test]
fn an_output_path_that_is_a_named_pipe_is_refused_at_once_by_every_tool() {
    let dir = TempDir::new("output-pipes");
    for name in ["w.rs", "p.html", "p.svg", "c.vf"] {
        mkfifo(&dir.0.join(name));
    }
    for sub in ["conv", "gen"] {
        std::fs::create_dir(dir.0.join(sub)).unwrap();
        mkfifo(&dir.0.join(sub).join("MANIFEST"));
    }
    let bin = sample_bin();
    let bin = path_str(&bin);
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["tune", "--data", bin, "--epochs", "1", "--out", "w.rs"],
            "w.rs",
        ),
        (vec!["explain", "--html", "p.html"], "p.html"),
        (vec!["compare", "--depth", "1", "--svg", "p.svg"], "p.svg"),
        (
            vec!["compare", "--depth", "1", "--html", "p.html"],
            "p.html",
        ),
        (vec!["tree", "[[1,2],[3]]", "--html", "p.html"], "p.html"),
        (vec!["datagen", "--convert", bin, "--out", "c.vf"], "c.vf"),
        (
            vec!["datagen", "--convert", bin, "--out", "conv/x.vf"],
            "conv/MANIFEST",
        ),
        (
            vec!["datagen", "--out", "c.vf", "--games", "1", "--nodes", "100"],
            "c.vf",
        ),
        (
            vec![
                "datagen", "--out", "gen/x.vf", "--games", "1", "--nodes", "100",
            ],
            "gen/MANIFEST",
        ),
    ];
    // Every case is tried, and every one that blocks or is not refused is listed.
    let mut failures = Vec::new();
    for (args, pipe) in &cases {
        let what = args.join(" ");
        let expected = format!("{pipe}: a named pipe, not a regular file");
        match run_in_for(&dir.0, args, Duration::from_secs(30)) {
            None => failures.push(format!("cutoff {what}: still blocked after 30 s")),
            Some(r) if r.status.success() || !r.stderr.contains(&expected) => failures.push(
                format!("cutoff {what}: {:?}, stderr: {}", r.status, r.stderr.trim()),
            ),
            Some(r) => assert_refused(&r, &what, &expected),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    for made in ["conv/x.vf", "gen/x.vf"] {
        assert!(!dir.0.join(made).exists(), "{made} left behind");
    }
}

/// Every output path of every tool, a symbolic link to a file: refused before the work, naming
/// the link, and the file it names left as it was, bytes and mode. `tree --html link.html`
/// replaced the file behind the link with a new one (mode 600 became 644), and `--convert`
/// appended its manifest line to whatever a `MANIFEST` link named (issue 80).
#[cfg(unix)]
#[test]
fn an_output_path_that_is_a_symlink_is_refused_and_the_file_it_names_kept_by_every_tool() {
    use std::os::unix::fs::{symlink, PermissionsExt};
    let dir = TempDir::new("output-links");
    let target = dir.file("target", b"keep");
    std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o600)).unwrap();
    for name in ["w.rs", "p.html", "p.svg", "c.vf", "n.nnue"] {
        symlink("target", dir.0.join(name)).unwrap();
    }
    std::fs::create_dir(dir.0.join("conv")).unwrap();
    symlink("../target", dir.0.join("conv/MANIFEST")).unwrap();
    let (bin, chunk) = (sample_bin(), sample_chunk());
    let (bin, chunk) = (path_str(&bin), path_str(&chunk));
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["tune", "--data", bin, "--epochs", "1", "--out", "w.rs"],
            "w.rs",
        ),
        (vec!["explain", "--html", "p.html"], "p.html"),
        (vec!["compare", "--depth", "1", "--svg", "p.svg"], "p.svg"),
        (
            vec!["compare", "--depth", "1", "--html", "p.html"],
            "p.html",
        ),
        (vec!["tree", "[[1,2],[3]]", "--html", "p.html"], "p.html"),
        (vec!["datagen", "--convert", bin, "--out", "c.vf"], "c.vf"),
        (
            vec!["datagen", "--convert", bin, "--out", "conv/x.vf"],
            "conv/MANIFEST",
        ),
        (
            vec![
                "train", "--data", chunk, "--out", "n.nnue", "--hidden", "16", "--epochs", "1",
                "--k", "130",
            ],
            "n.nnue",
        ),
    ];
    let mut failures = Vec::new();
    for (args, link) in &cases {
        let what = args.join(" ");
        let expected = format!("{link}: a symbolic link");
        let r = run_in_for(&dir.0, args, TIMEOUT).expect("a tool still running");
        if r.status.success() || !r.stderr.contains(&expected) {
            failures.push(format!(
                "cutoff {what}: {:?}, stderr: {}",
                r.status,
                r.stderr.trim()
            ));
        } else {
            assert_refused(&r, &what, &expected);
        }
        let mode = std::fs::metadata(&target).unwrap().permissions().mode() & 0o777;
        let kept = std::fs::read(&target).unwrap();
        if kept != b"keep" || mode != 0o600 {
            failures.push(format!(
                "cutoff {what}: the file behind the link is now {} bytes, mode {mode:o}",
                kept.len()
            ));
            std::fs::write(&target, b"keep").unwrap();
            std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o600)).unwrap();
        }
        let still_a_link =
            std::fs::symlink_metadata(dir.0.join(link)).is_ok_and(|m| m.file_type().is_symlink());
        if !still_a_link {
            failures.push(format!("cutoff {what}: {link} is no longer the link"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(!dir.0.join("conv/x.vf").exists(), "conv/x.vf left behind");
}

/// Runs `cutoff <args>` as the user and group `id` (as root can), killing it after [`TIMEOUT`].
#[cfg(unix)]
fn run_as(id: u32, args: &[&str]) -> Run {
    use std::os::unix::process::CommandExt;
    let mut command = Command::new(BIN);
    command.uid(id).gid(id);
    run_command(command, args, b"")
}

/// The user that owns nothing here, for the runs as another user.
#[cfg(unix)]
const NOBODY: u32 = 65534;

/// `cutoff tree [[1,2],[3]] --html <path>`, as the user `as_user` where given.
#[cfg(unix)]
fn tree_html(path: &Path, as_user: Option<u32>) -> Run {
    let args = ["tree", "[[1,2],[3]]", "--html", path_str(path)];
    match as_user {
        Some(id) => run_as(id, &args),
        None => run(&args),
    }
}

/// An output is never put over a file its user could not write: a file made read-only (mode
/// 444) even for root, a root-owned file by another user in a folder anyone may write (mode
/// 777; the file became that user's), and another user's file in a sticky folder anyone may
/// write (as `/tmp`; the kernel's `protected_regular` rule); each refused naming it, before the
/// work, the file as it was. A file the user may write is replaced keeping its mode (600 became
/// 644) (issue 80). The runs as another user need root; without it they are skipped, loudly.
#[cfg(unix)]
#[test]
fn an_output_is_never_put_over_a_file_its_user_could_not_write() {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let test = "an_output_is_never_put_over_a_file_its_user_could_not_write";
    let set_mode = |path: &Path, mode: u32| {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
    };
    let mode_of = |path: &Path| std::fs::metadata(path).unwrap().mode() & 0o7777;
    let dir = TempDir::new("output-owners");
    let read_only = dir.file("read-only.html", b"keep");
    set_mode(&read_only, 0o444);
    let r = tree_html(&read_only, None);
    assert_refused(&r, "tree --html over a read-only file", "read-only.html: ");
    assert!(r.stderr.contains("not writable"), "{}", r.stderr);
    assert_eq!(std::fs::read(&read_only).unwrap(), b"keep");
    assert_eq!(mode_of(&read_only), 0o444);

    let private = dir.file("private.html", b"old");
    set_mode(&private, 0o600);
    let r = tree_html(&private, None);
    assert!(r.status.success(), "{}", r.stderr);
    assert!(std::fs::read(&private)
        .unwrap()
        .starts_with(b"<!DOCTYPE html>"));
    assert_eq!(mode_of(&private), 0o600, "the replaced file's mode changed");

    // SAFETY: `geteuid` has no preconditions and cannot fail.
    if unsafe { libc::geteuid() } != 0 {
        common::skip(
            test,
            common::Need::Machine,
            "needs root to run as another user",
        );
        return;
    }
    // A sticky folder anyone may write (as `/tmp`): another user's file is not root's to
    // replace there, writable as it is.
    let sticky = dir.0.join("sticky");
    std::fs::create_dir(&sticky).unwrap();
    set_mode(&sticky, 0o1777);
    let theirs = sticky.join("theirs.html");
    std::fs::write(&theirs, b"keep").unwrap();
    set_mode(&theirs, 0o666);
    std::os::unix::fs::chown(&theirs, Some(NOBODY), Some(NOBODY)).unwrap();
    let r = tree_html(&theirs, None);
    assert_refused(
        &r,
        "tree --html over nobody's file in a sticky folder",
        "theirs.html: ",
    );
    assert!(r.stderr.contains("belongs to user 65534"), "{}", r.stderr);
    assert_eq!(std::fs::read(&theirs).unwrap(), b"keep");
    assert_eq!(std::fs::metadata(&theirs).unwrap().uid(), NOBODY);

    // The other user must reach the binary and the folders (a checkout under a private home
    // folder is out of its reach).
    set_mode(&dir.0, 0o755);
    let reachable = {
        use std::os::unix::process::CommandExt;
        Command::new(BIN)
            .arg("--help")
            .uid(NOBODY)
            .gid(NOBODY)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    if !reachable {
        common::skip(
            test,
            common::Need::Machine,
            "user 65534 cannot run the cutoff binary here",
        );
        return;
    }
    // A folder anyone may write, not sticky: the kernel lets anyone rename over root's file.
    let open = dir.0.join("open");
    std::fs::create_dir(&open).unwrap();
    set_mode(&open, 0o777);
    let roots = open.join("root.html");
    std::fs::write(&roots, b"keep").unwrap();
    set_mode(&roots, 0o644);
    let r = tree_html(&roots, Some(NOBODY));
    assert_refused(
        &r,
        "tree --html over root's file, as nobody",
        "root.html: permission denied",
    );
    assert_eq!(std::fs::read(&roots).unwrap(), b"keep");
    assert_eq!(
        std::fs::metadata(&roots).unwrap().uid(),
        0,
        "root's file changed owner"
    );
    // A new file there is written as ever.
    let new = open.join("new.html");
    let r = tree_html(&new, Some(NOBODY));
    assert!(r.status.success(), "{}", r.stderr);
    assert_eq!(std::fs::metadata(&new).unwrap().uid(), NOBODY);
}

/// Two outputs of one run naming one file: `compare --svg F --html F` wrote the plot, then
/// the page over it, and exited 0 (issue 80). Refused before the searches, naming both flags,
/// however the path is spelt; nothing written.
#[test]
fn two_outputs_of_one_run_naming_the_same_file_are_refused() {
    let dir = TempDir::new("same-output");
    let f = dir.0.join("F");
    let spelt = format!("{}/./F", path_str(&dir.0));
    for (svg, html) in [(path_str(&f), path_str(&f)), (path_str(&f), spelt.as_str())] {
        let r = run(&["compare", "--depth", "1", "--svg", svg, "--html", html]);
        assert_refused(&r, "compare --svg F --html F", "the same file as --svg");
        assert_eq!(r.status.code(), Some(2), "{}", r.stderr);
        assert!(!r.stdout.contains("root moves"), "searched: {}", r.stdout);
        assert!(!f.exists(), "F was written");
    }
}

/// An output name as long as the system allows (255 bytes) is written: those of 244 to 255
/// bytes were refused with "File name too long", the temporary file's name being the output's
/// name and 6 to 13 bytes more (issue 80). One byte more is refused by the system, named.
#[test]
fn an_output_name_as_long_as_the_system_allows_is_written() {
    let dir = TempDir::new("long-names");
    for len in [244, 250, 255] {
        let path = dir.0.join(format!("{}.html", "x".repeat(len - 5)));
        let r = run(&["tree", "[[1,2],[3]]", "--html", path_str(&path)]);
        assert!(r.status.success(), "a name of {len} bytes: {}", r.stderr);
        assert!(path.is_file(), "a name of {len} bytes: not written");
        let left: Vec<_> = std::fs::read_dir(&dir.0).unwrap().flatten().collect();
        assert_eq!(left.len(), 1, "a temporary file left: {left:?}");
        std::fs::remove_file(&path).unwrap();
    }
    let path = dir.0.join(format!("{}.html", "x".repeat(251)));
    let r = run(&["tree", "[[1,2],[3]]", "--html", path_str(&path)]);
    assert_refused(&r, "a name of 256 bytes", "name too long");
}

/// `--convert` with its MANIFEST a folder exited 1 saying only "Is a directory" and left the
/// converted chunk (1,876 bytes in the report) without its manifest line.
#[test]
fn convert_with_a_manifest_that_is_a_folder_names_it_and_leaves_no_chunk() {
    let dir = TempDir::new("convert-manifest-folder");
    std::fs::create_dir(dir.0.join("MANIFEST")).unwrap();
    let out = dir.0.join("x.vf");
    let r = run(&[
        "datagen",
        "--convert",
        path_str(&sample_bin()),
        "--out",
        path_str(&out),
    ]);
    let manifest = dir.0.join("MANIFEST");
    let expected = format!("{}: a directory, not a regular file", path_str(&manifest));
    assert_refused(&r, "--convert with its MANIFEST a folder", &expected);
    assert!(!out.exists(), "a chunk was left behind");
}

/// A run whose MANIFEST cannot be written left a 0-byte chunk: refused before the chunk is
/// created now, naming the manifest.
#[test]
fn datagen_with_a_manifest_that_is_a_folder_leaves_no_empty_chunk() {
    let dir = TempDir::new("datagen-manifest-folder");
    std::fs::create_dir(dir.0.join("MANIFEST")).unwrap();
    let out = dir.0.join("x.vf");
    let r = run(&[
        "datagen",
        "--out",
        path_str(&out),
        "--games",
        "1",
        "--nodes",
        "100",
        "--eval",
        "classical",
    ]);
    let manifest = dir.0.join("MANIFEST");
    let expected = format!("{}: a directory, not a regular file", path_str(&manifest));
    assert_refused(&r, "datagen with its MANIFEST a folder", &expected);
    assert!(!out.exists(), "a 0-byte chunk was left behind");
}

/// `--checkpoint` naming a file failed only after the first epoch, its net already written.
#[test]
fn train_refuses_a_checkpoint_path_that_is_a_file_before_training() {
    let dir = TempDir::new("train-checkpoint-file");
    let file = dir.file("ckpt", b"not a folder");
    let out = dir.0.join("net.nnue");
    let r = run(&[
        "train",
        "--data",
        path_str(&sample_chunk()),
        "--out",
        path_str(&out),
        "--checkpoint",
        path_str(&file),
        "--hidden",
        "16",
        "--epochs",
        "1",
        "--threads",
        "1",
    ]);
    assert_refused(&r, "train --checkpoint FILE", "exists and is not a folder");
    assert!(!r.stderr.contains("epoch"), "trained: {}", r.stderr);
    assert!(!out.exists(), "a net was left behind");
}

/// `tune` found out that `--out` could not be written only after all its epochs.
#[test]
fn tune_refuses_an_out_it_cannot_write_before_its_epochs() {
    let dir = TempDir::new("tune-out");
    let r = run(&[
        "tune",
        "--data",
        path_str(&sample_bin()),
        "--epochs",
        "3",
        "--out",
        path_str(&dir.0),
    ]);
    assert_refused(&r, "tune --out FOLDER", "a directory, not a regular file");
    assert!(!r.stderr.contains("epoch"), "tuned first: {}", r.stderr);
}

/// `tune` took `--lr`, `--l2`, `--k` and `--validation` of NaN or `inf`, ran and wrote a
/// weights file, exit 0; `--time-limit` of NaN, `inf` or `1e300` panicked converting it to a
/// `Duration` (exit 101) (issue 80). Each is a usage error (exit 2) naming the flag and what it
/// takes, before the data is read, and nothing is written.
#[test]
fn tune_refuses_nan_infinite_and_absurd_float_flags_and_time_limits() {
    let dir = TempDir::new("tune-floats");
    let out = dir.0.join("weights.rs");
    let cases: [(&str, &[&str], &str); 6] = [
        ("--lr", &["NaN", "inf"], "above 0 and at most 1000"),
        ("--l2", &["NaN", "inf"], "from 0 to 1"),
        ("--k", &["NaN", "inf"], "above 0 and at most 100"),
        ("--validation", &["NaN", "inf"], "from 0 to 0.5"),
        ("--lambda", &["NaN"], "from 0 to 1"),
        (
            "--time-limit",
            &["NaN", "inf", "1e300", "-1"],
            "above 0 and at most 31536000",
        ),
    ];
    for (flag, values, takes) in cases {
        for value in values {
            let r = run(&[
                "tune",
                "--data",
                path_str(&sample_bin()),
                "--epochs",
                "2",
                "--threads",
                "1",
                "--out",
                path_str(&out),
                &format!("{flag}={value}"),
            ]);
            let what = format!("tune {flag} {value}");
            assert_refused(&r, &what, takes);
            assert_eq!(r.status.code(), Some(2), "{what}: {}", r.stderr);
            assert!(
                r.stderr
                    .contains(&format!("invalid value '{value}' for '{flag} ")),
                "{what}: {}",
                r.stderr
            );
            assert!(!r.stderr.contains("epoch"), "{what} tuned: {}", r.stderr);
            assert!(!out.exists(), "{what} wrote weights");
        }
    }
}

/// `--convert` to a folder named `x.vf` said "exists; pass --append", then with `--append`
/// "Is a directory": both say what is wrong now.
#[test]
fn convert_to_a_folder_named_like_a_chunk_is_refused_as_a_directory_with_or_without_append() {
    let dir = TempDir::new("convert-folder-out");
    let out = dir.0.join("x.vf");
    std::fs::create_dir(&out).unwrap();
    std::fs::write(out.join("inside"), b"x").unwrap();
    let expected = format!("{}: a directory, not a regular file", path_str(&out));
    let bin = sample_bin();
    for append in [false, true] {
        let mut args = vec![
            "datagen",
            "--convert",
            path_str(&bin),
            "--out",
            path_str(&out),
        ];
        if append {
            args.push("--append");
        }
        let r = run(&args);
        assert_refused(&r, &args.join(" "), &expected);
    }
    assert!(!dir.0.join("MANIFEST").exists());
}

/// Nothing that is not data passes as data: an empty `.vf`, a zero-filled one (16 zero bytes
/// read as an empty extension record, skipped), an empty folder and a folder named `dir.vf`
/// gave `--stats` exit 0 and no word, and `--dump` of zeros exit 0.
#[test]
fn data_tools_call_an_empty_or_zero_filled_chunk_or_a_folder_without_chunks_not_data() {
    let dir = TempDir::new("not-data");
    let empty = dir.file("empty.vf", b"");
    let zero = dir.file("zero.vf", &vec![0u8; 1 << 20]);
    let folder = dir.0.join("folder");
    std::fs::create_dir(&folder).unwrap();
    let named = dir.0.join("dir.vf");
    std::fs::create_dir(&named).unwrap();
    for (path, expected) in [
        (&empty, "no whole game: not data"),
        (&zero, "zero bytes where a game should start"),
        (&folder, "a folder with no .vf or .bin file: not data"),
        (&named, "a folder with no .vf or .bin file: not data"),
    ] {
        let r = run(&["datagen", "--stats", path_str(path)]);
        let what = format!("--stats {}", path.display());
        assert_refused(&r, &what, expected);
        assert!(r.stderr.contains("1 input missing, unreadable or not data"));
    }
    for (path, expected) in [
        (&zero, "zero bytes where a game should start"),
        (&empty, "no whole game: not data"),
    ] {
        let r = run(&["datagen", "--dump", path_str(path)]);
        assert_refused(&r, &format!("--dump {}", path.display()), expected);
        assert!(r.stdout.is_empty(), "{}", r.stdout);
    }
    let empty_bin = dir.file("empty.bin", b"");
    let r = run(&["datagen", "--dump", path_str(&empty_bin)]);
    assert_refused(&r, "--dump of an empty .bin", "no whole record: not data");
}

/// `train --data small.vf zero.vf` trained and exited 0, though every input must hold data.
#[test]
fn train_refuses_a_zero_filled_chunk_beside_good_data() {
    let dir = TempDir::new("train-zero");
    let zero = dir.file("zero.vf", &vec![0u8; 1 << 20]);
    let out = dir.0.join("net.nnue");
    let r = run(&[
        "train",
        "--data",
        path_str(&sample_chunk()),
        path_str(&zero),
        "--out",
        path_str(&out),
        "--hidden",
        "16",
        "--epochs",
        "1",
        "--threads",
        "1",
    ]);
    assert_refused(&r, "train on a zero-filled chunk", "not data");
    assert!(!r.stderr.contains("epoch"), "trained: {}", r.stderr);
    assert!(!out.exists(), "a net was written");
}

/// A 1 GiB sparse `.vf` (a hole: zeros that take no disk) took 10.9 s to be read through and
/// called fine; it is refused at its first sixteen bytes now, as a zero-filled file is.
#[test]
fn a_sparse_gigabyte_chunk_is_refused_as_quickly_as_a_zero_one() {
    let dir = TempDir::new("sparse");
    let sparse = dir.file("sparse.vf", b"");
    std::fs::OpenOptions::new()
        .write(true)
        .open(&sparse)
        .unwrap()
        .set_len(1 << 30)
        .unwrap();
    let start = std::time::Instant::now();
    let r = run(&["datagen", "--stats", path_str(&sparse)]);
    let took = start.elapsed();
    assert_refused(
        &r,
        "--stats of a sparse 1 GiB chunk",
        "zero bytes where a game",
    );
    assert!(took < Duration::from_secs(5), "took {took:?}");
}

/// A book whose every position is finished (mate, stalemate) can start no game: `datagen`
/// refuses it before any game index is taken, so it leaves no chunk and no MANIFEST line
/// (a `running` line would make a later run into the folder take other game indices than a
/// clean folder's, and the same seed would no longer make the same games).
#[test]
fn datagen_refuses_a_book_of_finished_positions_and_leaves_no_manifest_line() {
    let dir = TempDir::new("finished-book");
    let book = dir.file(
        "book.epd",
        b"7k/6Q1/6K1/8/8/8/8/8 b - -\n7k/5Q2/6K1/8/8/8/8/8 b - -\n",
    );
    let out = dir.0.join("chunk.vf");
    let out = path_str(&out);
    let r = run(&[
        "datagen",
        "--out",
        out,
        "--book",
        path_str(&book),
        "--games",
        "2",
        "--nodes",
        "100",
        "--threads",
        "1",
    ]);
    assert_refused(&r, "datagen with a book of finished positions", "finished");
    assert!(!dir.0.join("chunk.vf").exists(), "a chunk was left");
    assert!(
        !dir.0.join("MANIFEST").exists(),
        "a MANIFEST line was written"
    );
}

/// A MANIFEST beside a chunk that is a named pipe, a folder, `/dev/zero`, lines that are not
/// manifest lines or bytes that are not text was read as "no manifest line" (exit 0), and the
/// chunk's positions were counted as the classical evaluation's: `--stats` names the manifest
/// and the reason (the line, for garbage), counts the chunk's evaluation as unknown, exits
/// non-zero, never waits on the pipe nor reads the device; a run or a conversion into that
/// folder is refused with the same words and creates nothing.
#[cfg(unix)]
#[test]
fn a_manifest_that_is_not_a_manifest_file_is_named_by_stats_and_runs_and_never_read_as_none() {
    let header = "# file\tbuild\tseed\tgame indices\tgames\tpositions\tsha256\tstate\tcommand\n";
    let garbage = format!("{header}garbage line\n");
    let torn_garbage = "garbage without a newline".to_string();
    type Make = Box<dyn Fn(&Path)>;
    let cases: Vec<(&str, Make, &str)> = vec![
        ("fifo", Box::new(mkfifo), "a named pipe, not a regular file"),
        (
            "folder",
            Box::new(|p| std::fs::create_dir(p).unwrap()),
            "a directory, not a regular file",
        ),
        (
            "zero",
            Box::new(|p| std::os::unix::fs::symlink("/dev/zero", p).unwrap()),
            "a character device, not a regular file",
        ),
        (
            "garbage",
            Box::new(move |p| std::fs::write(p, &garbage).unwrap()),
            "line 2: 1 tab-separated fields, not the 9",
        ),
        (
            "torn-garbage",
            Box::new(move |p| std::fs::write(p, &torn_garbage).unwrap()),
            "line 1: not the header",
        ),
        (
            "binary",
            Box::new(|p| std::fs::write(p, binary_junk(3000)).unwrap()),
            "not text (UTF-8)",
        ),
    ];
    let bin = sample_bin();
    let mut failures = Vec::new();
    for (name, make, reason) in &cases {
        let dir = TempDir::new(&format!("manifest-{name}"));
        std::fs::copy(sample_chunk(), dir.0.join("c.vf")).unwrap();
        make(&dir.0.join("MANIFEST"));
        let runs: [&[&str]; 3] = [
            &["datagen", "--stats", "c.vf"],
            &[
                "datagen", "--out", "new.vf", "--games", "1", "--nodes", "100",
            ],
            &["datagen", "--convert", path_str(&bin), "--out", "conv.vf"],
        ];
        for args in runs {
            let what = format!("{name}: cutoff {}", args.join(" "));
            let Some(r) = run_in_for(&dir.0, args, Duration::from_secs(30)) else {
                failures.push(format!("{what}: still running after 30 s"));
                continue;
            };
            let counted_as_classical = r.stdout.contains("by the classical evaluation: 1927");
            let unknown = "unknown (a MANIFEST that cannot be read): 1927";
            let stats = args[1] == "--stats";
            // A run that would append to a MANIFEST behind a link is refused for the link
            // first (no output is written through one), which names the target too.
            let named = r.stderr.contains(reason)
                || (!stats
                    && *name == "zero"
                    && r.stderr.contains("a symbolic link (to /dev/zero)"));
            if r.status.success()
                || (stats && !r.stdout.contains(unknown))
                || !(r.stderr.contains("MANIFEST: ") && named)
                || r.stdout.contains("no manifest line")
                || counted_as_classical
            {
                failures.push(format!(
                    "{what}: {:?}\nstdout: {}\nstderr: {}",
                    r.status,
                    r.stdout.trim(),
                    r.stderr.trim()
                ));
            }
        }
        for made in ["new.vf", "conv.vf"] {
            if dir.0.join(made).exists() {
                failures.push(format!("{name}: {made} left behind"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
