//! The options Cutoff advertises in `uci`, and reading `setoption` values for them.

use crate::params::DEFAULT_MOVE_OVERHEAD_MS;
use crate::search::Settings;

pub const HASH_DEFAULT_MB: usize = 16;
/// 1 TiB: more than most machines have. A request beyond the memory available is refused
/// when it is made (see [`crate::memory`]), so the limit need not guess the machine.
pub const HASH_MAX_MB: usize = 1 << 20;
pub const MULTIPV_MAX: usize = 256;
/// Search threads (Lazy SMP); more than the machine has cores only slows each one down.
pub const THREADS_MAX: usize = 1024;
pub const MOVE_OVERHEAD_MAX_MS: u64 = 5_000;

/// The current option values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    pub hash_mb: usize,
    pub threads: usize,
    /// The search's own settings (`MultiPV`, `Move Overhead`), handed to every search.
    pub search: Settings,
    pub ponder: bool,
    pub chess960: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            hash_mb: HASH_DEFAULT_MB,
            threads: 1,
            search: Settings::default(),
            ponder: false,
            chess960: false,
        }
    }
}

/// The `option ...` lines of the `uci` answer.
pub fn declarations() -> Vec<String> {
    let mut lines = vec![
        format!("option name Hash type spin default {HASH_DEFAULT_MB} min 1 max {HASH_MAX_MB}"),
        "option name Clear Hash type button".to_string(),
        format!("option name Threads type spin default 1 min 1 max {THREADS_MAX}"),
        format!("option name MultiPV type spin default 1 min 1 max {MULTIPV_MAX}"),
        format!(
            "option name Move Overhead type spin default {DEFAULT_MOVE_OVERHEAD_MS} min 0 max {MOVE_OVERHEAD_MAX_MS}"
        ),
        "option name Ponder type check default false".to_string(),
        "option name UCI_Chess960 type check default false".to_string(),
    ];
    // The tuning build offers every search parameter (src/params.rs) for SPSA to set.
    if cfg!(feature = "tune") {
        lines.extend(crate::params::TUNABLES.iter().map(|t| {
            format!(
                "option name {} type spin default {} min {} max {}",
                t.name, t.default, t.min, t.max
            )
        }));
    }
    lines
}

/// A `setoption` that passed checking, ready to apply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    Hash(usize),
    ClearHash,
    Threads(usize),
    MultiPv(usize),
    MoveOverhead(u64),
    Ponder(bool),
    Chess960(bool),
    /// A search parameter of the tuning build (`--features tune`), by name.
    #[cfg(feature = "tune")]
    Tunable(&'static str, i32),
}

fn spin<T: std::str::FromStr + PartialOrd + std::fmt::Display>(
    name: &str,
    value: Option<&str>,
    min: T,
    max: T,
) -> Result<T, String> {
    let v = value.ok_or_else(|| format!("option '{name}' needs a value"))?;
    let n: T = v
        .trim()
        .parse()
        .map_err(|_| format!("option '{name}': '{v}' is not a number"))?;
    if n < min || n > max {
        return Err(format!("option '{name}': {n} is outside {min}..{max}"));
    }
    Ok(n)
}

fn check(name: &str, value: Option<&str>) -> Result<bool, String> {
    match value.map(|v| v.trim().to_ascii_lowercase()).as_deref() {
        Some("true") => Ok(true),
        Some("false") => Ok(false),
        _ => Err(format!("option '{name}' takes true or false")),
    }
}

/// Checks a `setoption` (names are case-insensitive).
pub fn parse_change(name: &str, value: Option<&str>) -> Result<Change, String> {
    match name.to_ascii_lowercase().as_str() {
        "hash" => spin(name, value, 1, HASH_MAX_MB).map(Change::Hash),
        "clear hash" => Ok(Change::ClearHash),
        "threads" => spin(name, value, 1, THREADS_MAX).map(Change::Threads),
        "multipv" => spin(name, value, 1, MULTIPV_MAX).map(Change::MultiPv),
        "move overhead" => spin(name, value, 0, MOVE_OVERHEAD_MAX_MS).map(Change::MoveOverhead),
        "ponder" => check(name, value).map(Change::Ponder),
        "uci_chess960" => check(name, value).map(Change::Chess960),
        #[cfg(feature = "tune")]
        lower => match crate::params::TUNABLES.iter().find(|t| t.name == lower) {
            Some(t) => spin(name, value, t.min, t.max).map(|v| Change::Tunable(t.name, v)),
            None => Err(format!("no such option '{name}'")),
        },
        #[cfg(not(feature = "tune"))]
        _ => Err(format!("no such option '{name}'")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn option_names_are_case_insensitive() {
        assert_eq!(parse_change("hash", Some("64")), Ok(Change::Hash(64)));
        assert_eq!(
            parse_change("MOVE OVERHEAD", Some("30")),
            Ok(Change::MoveOverhead(30))
        );
        assert_eq!(
            parse_change("uci_chess960", Some("true")),
            Ok(Change::Chess960(true))
        );
        assert_eq!(parse_change("Clear Hash", None), Ok(Change::ClearHash));
        assert_eq!(parse_change("threads", Some("4")), Ok(Change::Threads(4)));
    }

    #[test]
    fn bad_values_are_refused() {
        assert!(parse_change("Hash", Some("0")).is_err());
        assert!(parse_change("Hash", Some("lots")).is_err());
        assert!(parse_change("MultiPV", None).is_err());
        assert!(parse_change("Ponder", Some("maybe")).is_err());
        assert!(parse_change("Threads", Some("0")).is_err());
        assert!(parse_change("Threads", Some("1025")).is_err());
        assert!(parse_change("Threads", None).is_err());
    }

    #[test]
    fn search_parameters_are_options_only_in_the_tuning_build() {
        let offered = parse_change("rfp_margin", Some("70")).is_ok();
        assert_eq!(offered, cfg!(feature = "tune"));
        let declared = declarations()
            .iter()
            .any(|l| l.contains("name rfp_margin "));
        assert_eq!(declared, cfg!(feature = "tune"));
        if cfg!(feature = "tune") {
            assert!(parse_change("rfp_margin", Some("1000")).is_err());
        }
    }

    #[test]
    fn spin_defaults_lie_within_their_range() {
        for line in declarations() {
            let w: Vec<&str> = line.split_whitespace().collect();
            if let Some(i) = w.iter().position(|x| *x == "spin") {
                let num = |k: &str| -> i64 {
                    let j = w.iter().position(|x| *x == k).unwrap();
                    w[j + 1].parse().unwrap()
                };
                let _ = i;
                assert!(
                    num("min") <= num("default") && num("default") <= num("max"),
                    "{line}"
                );
            }
        }
    }
}
