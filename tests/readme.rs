//! README's figures of "today's build" against the binary: the `Bench:` signatures its Measured
//! section names must be the ones `cutoff bench` and `cutoff bench --eval classical` print, so
//! that the commit which moves the bench updates README with it. (The options table is held to
//! the `uci` answer by `tests/readme_options.rs`.)

use std::process::Command;

fn readme() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap()
}

/// The paragraph of README that names today's build: from "Today's build" to the next blank
/// line. README must have exactly one, or two "today's" figures could contradict each other.
fn todays_paragraph(readme: &str) -> String {
    let lower = readme.to_lowercase();
    let starts: Vec<usize> = lower
        .match_indices("today's build")
        .map(|(i, _)| i)
        .collect();
    assert_eq!(
        starts.len(),
        1,
        "README should name today's build once, found {}",
        starts.len()
    );
    let rest = &readme[starts[0]..];
    let end = rest.find("\n\n").unwrap_or(rest.len());
    rest[..end].to_string()
}

/// The number of the first `Bench: N` in `text` after `after` (backquotes and bold around it
/// allowed, digits only: `Bench: 1484865`).
fn bench_after(text: &str, after: &str) -> Option<u64> {
    let from = text.find(after)? + after.len();
    let at = text[from..].find("Bench: ")? + from + "Bench: ".len();
    let digits: String = text[at..]
        .chars()
        .take_while(|c| c.is_ascii_digit())
        .collect();
    digits.parse().ok()
}

/// The node count of `cutoff bench <args>`'s last line, `Bench: <N> nodes <M> nps`.
fn bench(args: &[&str]) -> u64 {
    let out = Command::new(env!("CARGO_BIN_EXE_cutoff"))
        .arg("bench")
        .args(args)
        .output()
        .unwrap();
    assert!(out.status.success(), "cutoff bench {args:?}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    let last = stdout.lines().last().unwrap_or_default().to_string();
    bench_after(&last, "").unwrap_or_else(|| panic!("no signature in {last:?}"))
}

#[test]
fn readme_names_the_bench_that_cutoff_bench_prints_as_todays_build() {
    let paragraph = todays_paragraph(&readme());
    let net = bench_after(&paragraph, "Today's build")
        .unwrap_or_else(|| panic!("no `Bench: N` in README's today's build: {paragraph}"));
    let classical = bench_after(&paragraph, "--eval classical").unwrap_or_else(|| {
        panic!("no `--eval classical` ... `Bench: N` in README's today's build: {paragraph}")
    });
    assert_eq!(
        net,
        bench(&[]),
        "README's today's build is not what `cutoff bench` prints: {paragraph}"
    );
    assert_eq!(
        classical,
        bench(&["--eval", "classical"]),
        "README's classical bench is not what `cutoff bench --eval classical` prints: {paragraph}"
    );
}

/// The helpers read what they should: else the test above could pass on nothing.
#[test]
fn the_readme_reader_finds_todays_bench_and_the_classical_one() {
    let text = "x\n\nToday's build: **`Bench: 1484865`** (`cutoff bench`; with `--eval classical`:\n`Bench: 1631856`), since 30 Nov.\n\nLater `Bench: 99`.";
    let paragraph = todays_paragraph(text);
    assert_eq!(bench_after(&paragraph, "Today's build"), Some(1_484_865));
    assert_eq!(bench_after(&paragraph, "--eval classical"), Some(1_631_856));
    assert!(!paragraph.contains("99"));
    assert_eq!(
        bench_after("Bench: 1484865 nodes 1700000 nps", ""),
        Some(1_484_865)
    );
}
