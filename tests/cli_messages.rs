//! What the command line says to a person: every `--help` gives values, not the code's constant
//! names; a value out of range is answered with what is allowed, in words; every error is one
//! `error: ...` line style on stderr, exit 2 for an invocation that cannot be done as written
//! (found before any work) and 1 for a run that failed; a hint only where it is true; a UCI
//! command typed as a subcommand is told where it belongs. README's "Command line" section
//! states the same rules.

mod common;
use common::wait_with_deadline;

use std::io::Read;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Duration;

const BIN: &str = env!("CARGO_BIN_EXE_cutoff");

/// Every case here is refused or answered before any real work: a minute is plenty.
const TIMEOUT: Duration = Duration::from_secs(60);

struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

fn run(args: &[&str]) -> Run {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start cutoff");
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let out_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = out.read_to_string(&mut s);
        s
    });
    let err_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = err.read_to_string(&mut s);
        s
    });
    let status = wait_with_deadline(&mut child, TIMEOUT)
        .unwrap_or_else(|| panic!("cutoff {args:?} still running after {TIMEOUT:?}"));
    Run {
        code: status.code(),
        stdout: out_reader.join().unwrap(),
        stderr: err_reader.join().unwrap(),
    }
}

/// A fresh file in the temp folder, removed when dropped.
struct TempFile(PathBuf);

impl TempFile {
    fn new(name: &str, contents: &str) -> TempFile {
        let path =
            std::env::temp_dir().join(format!("cutoff-cli-messages-{}-{name}", std::process::id()));
        std::fs::write(&path, contents).unwrap();
        TempFile(path)
    }

    fn path(&self) -> &str {
        self.0.to_str().unwrap()
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// Every subcommand, as `--help` takes it.
const SUBCOMMANDS: &[&[&str]] = &[
    &[],
    &["uci"],
    &["perft"],
    &["perft-suite"],
    &["epd"],
    &["bench"],
    &["tree"],
    &["compare"],
    &["explain"],
    &["datagen"],
    &["tune"],
    &["train"],
    &["syzygy"],
    &["syzygy", "verify"],
];

/// The words of `text` that read as a constant of the code: `MAX_DEPTH`, `DEFAULT_DEPTH`, a
/// name in backquotes and parentheses such as "(`LEARNING_RATE`)". The value names clap puts in
/// angle brackets (`<MAX_DEPTH>`, `[DEPTH]`) are its convention for "a value goes here", not a
/// constant, and are left out.
fn constant_names(text: &str) -> Vec<String> {
    let mut kept = String::new();
    let mut depth = 0;
    for c in text.chars() {
        match c {
            '<' | '[' => depth += 1,
            '>' | ']' => depth = i32::max(depth - 1, 0),
            _ if depth == 0 => kept.push(c),
            _ => {}
        }
    }
    let mut found = Vec::new();
    for word in kept.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '`')) {
        let bare = word.trim_matches('`');
        let shouting = bare.len() >= 2
            && bare
                .chars()
                .all(|c| c.is_ascii_uppercase() || c == '_' || c.is_ascii_digit())
            && bare.chars().any(|c| c.is_ascii_uppercase());
        let quoted = word.len() > 2 && word.starts_with('`') && word.ends_with('`');
        if shouting && (bare.contains('_') || quoted) {
            found.push(word.to_string());
        }
    }
    // A lone capital in backquotes and parentheses as a constant's name: "(`K`)" (longer
    // names are found above).
    for (i, _) in kept.match_indices("(`") {
        let rest = &kept[i + 2..];
        if let Some(end) = rest.find("`)") {
            let name = &rest[..end];
            if name.len() == 1 && name.chars().all(|c| c.is_ascii_uppercase()) {
                found.push(format!("(`{name}`)"));
            }
        }
    }
    found
}

#[test]
fn every_help_shows_values_not_constant_names() {
    let mut bad = Vec::new();
    for sub in SUBCOMMANDS {
        let mut args = sub.to_vec();
        args.push("--help");
        let r = run(&args);
        assert_eq!(r.code, Some(0), "cutoff {args:?}: {}", r.stderr);
        let names = constant_names(&r.stdout);
        if !names.is_empty() {
            bad.push(format!("cutoff {}: {names:?}", args.join(" ")));
        }
    }
    assert!(
        bad.is_empty(),
        "constant names in --help:\n{}",
        bad.join("\n")
    );
    // And the values themselves where a flag has bounds.
    let bench = run(&["bench", "--help"]).stdout;
    let default = format!("default {}", cutoff::bench::DEFAULT_DEPTH);
    let most = format!("at most {}", cutoff::bench::MAX_DEPTH);
    assert!(bench.contains(&default) && bench.contains(&most), "{bench}");
    let epd = run(&["epd", "--help"]).stdout;
    let depths = format!("1 to {}", cutoff::cli::epd::MAX_DEPTH);
    assert!(epd.contains(&depths), "{epd}");
    let compare = run(&["compare", "--help"]).stdout;
    let depths = format!("1 to {}", cutoff::cli::compare::MAX_DEPTH);
    assert!(compare.contains(&depths), "{compare}");
}

/// The helper above finds what it is meant to find (else the test above could not fail).
#[test]
fn the_constant_name_finder_finds_constants_and_leaves_value_names() {
    assert_eq!(
        constant_names("Search depth (default: DEFAULT_DEPTH, at most MAX_DEPTH)"),
        ["DEFAULT_DEPTH", "MAX_DEPTH"]
    );
    assert_eq!(
        constant_names("at most 1 (`LEARNING_RATE`)"),
        ["`LEARNING_RATE`"]
    );
    assert_eq!(constant_names("at most 100 (`K`)"), ["(`K`)"]);
    assert!(
        constant_names("--max-depth <MAX_DEPTH>  [DEPTH] a MANIFEST line, SAN, UCI").is_empty()
    );
}

/// A count out of range says what the flag takes in words ("at least 1", "from 1 to 20"), not
/// Rust's range of the type ("1..18446744073709551615", "1..=20").
#[test]
fn range_errors_say_what_is_allowed_in_words() {
    let suite = TempFile::new("range.epd", "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - bm Rd8#;\n");
    let epd = suite.path();
    let cases: &[(&[&str], &str)] = &[
        (&["perft", "3", "--threads", "0"], "from 1 to 1024"),
        (&["perft", "3", "--threads", "5000"], "from 1 to 1024"),
        (&["perft", "11"], "from 0 to 10"),
        (&["perft-suite", epd, "--max-depth", "0"], "at least 1"),
        (&["epd", epd, "--movetime", "0"], "at least 1"),
        (&["epd", epd, "--nodes", "0"], "at least 1"),
        (&["epd", epd, "--jobs", "0"], "from 1 to 1024"),
        (&["epd", epd, "--hash", "0"], "at least 1"),
        (&["epd", epd, "--depth", "31"], "from 1 to 30"),
        (&["epd", epd, "--threads", "0"], "from 1 to 1024"),
        (&["bench", "21"], "from 1 to 20"),
        (&["bench", "--", "-3"], "from 1 to 20"),
        (&["bench", "--threads", "0"], "from 1 to 1024"),
        (&["bench", "--hash", "0"], "at least 1"),
        (&["compare", "--depth", "13"], "from 1 to 12"),
    ];
    for (args, words) in cases {
        let r = run(args);
        let what = args.join(" ");
        assert_eq!(r.code, Some(2), "{what}: {}", r.stderr);
        assert!(r.stderr.starts_with("error: "), "{what}: {}", r.stderr);
        assert!(
            r.stderr.contains(words),
            "{what}: expected '{words}': {}",
            r.stderr
        );
        for code in ["18446744073709551615", "4294967295", "..=", "1.."] {
            assert!(!r.stderr.contains(code), "{what}: '{code}' in {}", r.stderr);
        }
        assert!(r.stdout.is_empty(), "{what}: {}", r.stdout);
    }
}

/// Whatever the command, an invocation that cannot be done as written (a bad FEN, a file that
/// is not there, an unknown flag) is one `error: ...` on stderr and exit 2, before any work.
#[test]
fn a_bad_invocation_is_an_error_line_and_exit_2() {
    let missing = std::env::temp_dir().join("cutoff-cli-messages-no-such-file.epd");
    let missing = missing.to_str().unwrap();
    let cases: &[&[&str]] = &[
        &["perft", "2", "--fen", "rnbqkbnr/pppppppp/8/8/8"],
        &["perft", "2", "--hash", "100000000"],
        &["perft-suite", missing],
        &["epd", missing],
        &["epd", missing, "--hash", "100000000"],
        &["bench", "1", "--hash", "100000000"],
        &["compare", "--depth", "1", "--fen", "not a fen"],
        &["explain", "--fen", "not a fen"],
        &["tree", "[[1,2"],
        &["perft", "--no-such-flag"],
    ];
    for args in cases {
        let r = run(args);
        let what = args.join(" ");
        assert_eq!(r.code, Some(2), "{what}: {}{}", r.stdout, r.stderr);
        assert!(r.stderr.starts_with("error: "), "{what}: {}", r.stderr);
    }
}

/// A run that did its work and found it wrong (a count that does not match, a line that does
/// not read) is exit 1, with the same `error: ...` line, its count in words.
#[test]
fn a_failed_run_is_an_error_line_and_exit_1_with_its_count_in_words() {
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let one = TempFile::new("one-wrong.epd", &format!("{start} ;D1 20 ;D2 401\n"));
    let r = run(&["perft-suite", one.path(), "-t", "1"]);
    assert_eq!(r.code, Some(1), "{}{}", r.stdout, r.stderr);
    assert!(
        r.stderr.starts_with("error: ") && r.stderr.contains("1 count does not match"),
        "{}",
        r.stderr
    );
    let two = TempFile::new("two-wrong.epd", &format!("{start} ;D1 21 ;D2 401\n"));
    let r = run(&["perft-suite", two.path(), "-t", "1"]);
    assert_eq!(r.code, Some(1), "{}{}", r.stdout, r.stderr);
    assert!(r.stderr.contains("2 counts do not match"), "{}", r.stderr);
    let good = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - bm Rd8#;";
    let torn = TempFile::new("torn.epd", &format!("{good}\n6k1/5ppp/8/8/8/8/5P\n"));
    let r = run(&["epd", torn.path(), "--depth", "1"]);
    assert_eq!(r.code, Some(1), "{}{}", r.stdout, r.stderr);
    assert!(
        r.stderr.contains("error: 1 line could not be read"),
        "{}",
        r.stderr
    );
}

/// `--chess960` is suggested only for a FEN that reads with it: an empty board is missing its
/// kings in any castling mode.
#[test]
fn the_chess960_hint_is_given_only_where_it_helps() {
    let r = run(&["perft", "3", "--fen", "8/8/8/8/8/8/8/8 w - - 0 1"]);
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert!(r.stderr.contains("missing king"), "{}", r.stderr);
    assert!(!r.stderr.contains("--chess960"), "{}", r.stderr);
    let shredder = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
    let r = run(&["perft", "1", "--fen", shredder]);
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert!(r.stderr.contains("--chess960"), "{}", r.stderr);
    let r = run(&["perft", "1", "--fen", shredder, "--chess960"]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
}

/// `cutoff eval`, `cutoff go depth 5`, `cutoff position ...`: UCI commands typed as subcommands
/// are told to go to the UCI loop, with the line to pipe into it.
#[test]
fn uci_commands_typed_as_subcommands_say_where_they_belong() {
    let cases: &[(&[&str], &str)] = &[
        (&["eval"], "echo 'eval' | cutoff"),
        (&["go", "depth", "5"], "echo 'go depth 5' | cutoff"),
        (
            &["position", "startpos"],
            "echo 'position startpos' | cutoff",
        ),
        (&["isready"], "echo 'isready' | cutoff"),
        (&["d"], "echo 'd' | cutoff"),
        (&["ucinewgame"], "echo 'ucinewgame' | cutoff"),
        (
            &["setoption", "name", "Hash"],
            "echo 'setoption name Hash' | cutoff",
        ),
        (&["stop"], "echo 'stop' | cutoff"),
        (&["quit"], "echo 'quit' | cutoff"),
    ];
    for (args, pipe) in cases {
        let r = run(args);
        let what = args.join(" ");
        assert_eq!(r.code, Some(2), "{what}: {}", r.stderr);
        assert!(
            r.stderr
                .starts_with(&format!("error: `{}` is a UCI command", args[0])),
            "{what}: {}",
            r.stderr
        );
        assert!(r.stderr.contains(pipe), "{what}: {}", r.stderr);
        assert!(r.stdout.is_empty(), "{what}: {}", r.stdout);
    }
    // `eval` also names the command-line tool that prints the same boards.
    assert!(run(&["eval"]).stderr.contains("cutoff explain"));
    // A word that is no UCI command keeps clap's answer.
    let r = run(&["evaluate"]);
    assert_eq!(r.code, Some(2));
    assert!(r.stderr.contains("unrecognized subcommand"), "{}", r.stderr);
}

/// `cutoff --version` (and `-V`) names the commit the binary was built from and its bench, as
/// `cutoff 0.1.0 (a2d6624, Bench: 1484865)`: a bug report or a match log then says which build
/// it was. Where git can say it (CI runs on a clone), the commit is the checkout's HEAD; a
/// build from a tarball says `unknown`.
#[test]
fn version_names_the_commit_and_the_bench_of_the_build() {
    for flag in ["--version", "-V"] {
        let r = run(&[flag]);
        assert_eq!(r.code, Some(0), "{}", r.stderr);
        let line = r.stdout.trim();
        let prefix = format!("cutoff {} (", env!("CARGO_PKG_VERSION"));
        let suffix = format!(", Bench: {})", cutoff::bench::SIGNATURE);
        assert!(
            line.starts_with(&prefix) && line.ends_with(&suffix),
            "{line}"
        );
        let commit = &line[prefix.len()..line.len() - suffix.len()];
        let head = Command::new("git")
            .args(["rev-parse", "--short", "HEAD"])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string());
        match head {
            Some(head) => assert_eq!(commit, head, "{line}"),
            None => {
                assert!(commit == "unknown" || commit.chars().all(|c| c.is_ascii_hexdigit()));
                common::skip(
                    "version_names_the_commit_and_the_bench_of_the_build",
                    common::Need::Machine,
                    "no git here: the commit is not compared with HEAD",
                );
            }
        }
    }
}
