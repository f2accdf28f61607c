//! README's options table says what `uci` says: every option the engine declares is in the
//! table with the same type, default and range (or choices), and the table has no other.

use std::io::Write;
use std::process::{Command, Stdio};

/// One option as both README and `uci` can state it.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Declared {
    name: String,
    kind: String,
    default: String,
    /// `min–max` of a spin, the vars of a combo joined by ` / `, else empty.
    range: String,
}

/// The `option name ... type ...` lines of the engine's `uci` answer.
fn from_uci() -> Vec<Declared> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cutoff"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"uci\nquit\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let mut options: Vec<Declared> = text
        .lines()
        .filter_map(|l| l.strip_prefix("option name "))
        .map(parse_uci_line)
        .collect();
    options.sort();
    options
}

fn parse_uci_line(rest: &str) -> Declared {
    let (name, rest) = rest.split_once(" type ").unwrap();
    let words: Vec<&str> = rest.split_whitespace().collect();
    let after = |key: &str| -> Vec<&str> {
        match words.iter().position(|w| *w == key) {
            Some(i) => words[i + 1..]
                .iter()
                .take_while(|w| !["default", "min", "max", "var"].contains(w))
                .copied()
                .collect(),
            None => Vec::new(),
        }
    };
    let kind = words[0].to_string();
    let default = after("default").join(" ");
    let range = match kind.as_str() {
        "spin" => format!("{}–{}", after("min").join(" "), after("max").join(" ")),
        "combo" => words
            .windows(2)
            .filter(|w| w[0] == "var")
            .map(|w| w[1])
            .collect::<Vec<_>>()
            .join(" / "),
        _ => String::new(),
    };
    Declared {
        name: name.to_string(),
        kind,
        default: if default == "<empty>" {
            String::new()
        } else {
            default
        },
        range,
    }
}

/// The rows of README's options table: `| \`Name\` | type | default | range | what |`.
fn from_readme() -> Vec<Declared> {
    let readme = include_str!("../README.md");
    let table = readme
        .split("| option | type | default | range | what it does |")
        .nth(1)
        .expect("README has the options table");
    let mut options: Vec<Declared> = table
        .lines()
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(|row| {
            let cells: Vec<&str> = row.split('|').map(str::trim).collect();
            // `<empty>` is how both write a string option's empty default.
            let unquote = |s: &str| s.trim_matches('`').replace("<empty>", "");
            Declared {
                name: unquote(cells[1]),
                kind: cells[2].to_string(),
                default: unquote(cells[3]),
                range: cells[4].replace('`', ""),
            }
        })
        .collect();
    options.sort();
    options
}

#[test]
fn readme_lists_every_uci_option_as_declared() {
    let uci = from_uci();
    assert!(uci.len() >= 7, "{uci:?}");
    assert_eq!(from_readme(), uci);
}
