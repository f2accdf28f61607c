//! The options Cutoff advertises in `uci`, declared once: [`OPTIONS`] holds each option's
//! name, type, default, range or choices, and what setting it does. The `uci` answer, the
//! checking of `setoption` and its effect are all read from that table, and
//! `tests/readme_options.rs` holds README's options table to the `uci` answer.
//!
//! A new option is one row here. One that only changes a value the next search reads is an
//! [`Apply::Store`]; one the engine must act on at once (a table to resize, threads to start,
//! files to load) is an [`Apply::Act`] with an [`Action`] the engine carries out.

use std::time::Duration;

use crate::eval::EvaluatorKind;
use crate::search::params::DEFAULT_MOVE_OVERHEAD_MS;
use crate::search::strength::{ELO_MAX, ELO_MIN};
use crate::search::Settings;

pub const HASH_DEFAULT_MB: usize = 16;
/// 1 TiB: more than most machines have. A request beyond the memory available is refused
/// when it is made (see [`crate::memory`]), so the limit need not guess the machine.
pub const HASH_MAX_MB: usize = 1 << 20;
pub const MULTIPV_MAX: usize = 256;
/// Search threads (Lazy SMP); more than the machine has cores only slows each one down.
pub const THREADS_MAX: usize = 1024;
pub const MOVE_OVERHEAD_MAX_MS: u64 = 5_000;
/// How a GUI says "no value" for a `string` option (the UCI convention).
pub const EMPTY: &str = "<empty>";

/// The current values of the options the session keeps. The hash size, the threads, the net
/// and the tablebases are the searcher's, and asked of it: kept here too, they were copies that
/// had to be kept in step (issue 78).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// The search's own settings (`MultiPV`, `Move Overhead`), handed to every search.
    pub search: Settings,
    pub ponder: bool,
    pub chess960: bool,
    /// `UCI_ShowWDL`: `info` lines carry `wdl W D L`.
    pub show_wdl: bool,
    /// `UCI_LimitStrength` and `UCI_Elo`: the level the next searches play at when limited.
    pub limit_strength: bool,
    pub elo: i32,
    /// `UCI_AnalyseMode`, which GUIs (Arena, Cute Chess) send when they analyse rather than
    /// play: kept, and read by nothing. The search plays the same either way: it has no
    /// contempt or other play-only setting that analysis would want off.
    pub analyse_mode: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            search: Settings::default(),
            ponder: false,
            chess960: false,
            show_wdl: false,
            limit_strength: false,
            elo: ELO_MAX,
            analyse_mode: false,
        }
    }
}

/// An option's UCI type, with its default and range or choices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Spin {
        default: i64,
        min: i64,
        max: i64,
    },
    Check {
        default: bool,
    },
    Button,
    /// One of `vars` (matched case-insensitively, stored as declared).
    Combo {
        default: &'static str,
        vars: &'static [&'static str],
    },
    /// Any text; [`EMPTY`] (or nothing) means the empty string.
    String {
        default: &'static str,
    },
}

/// A checked `setoption` value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    Int(i64),
    Bool(bool),
    Text(String),
    /// A button's press.
    Press,
}

impl Value {
    /// The number of a checked `spin` (its range fits every option's type).
    fn int<T: TryFrom<i64>>(&self) -> T {
        match self {
            Value::Int(n) => T::try_from(*n)
                .ok()
                .expect("checked against the spin range"),
            _ => unreachable!("a spin's value is a number"),
        }
    }

    fn bool(&self) -> bool {
        matches!(self, Value::Bool(true))
    }

    fn text(&self) -> String {
        match self {
            Value::Text(t) => t.clone(),
            _ => String::new(),
        }
    }
}

/// What the engine must do for an option beyond storing a value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// Re-allocate the table (refused, keeping the old one, when the memory is not there).
    ResizeHash(usize),
    ClearHash,
    /// Start or end helper threads.
    SetThreads(usize),
    /// Switch castling notation and FEN reading.
    Chess960(bool),
    /// Open the tablebases of these directories (`:`-separated; empty: none).
    LoadTablebases(String),
    /// Evaluate with this evaluation from now on (the net needs one loaded).
    SetEvaluation(EvaluatorKind),
    /// Load the net of this file (empty: the one built in).
    LoadNet(String),
}

/// What setting an option does.
#[derive(Clone, Copy)]
pub enum Apply {
    /// Stores the value in [`Options`]; the next search reads it.
    Store(fn(&mut Options, &Value)),
    /// The engine carries out the [`Action`] (and stores the value if it succeeds).
    Act(fn(&Value) -> Action),
}

/// One declared option.
#[derive(Clone, Copy)]
pub struct Declared {
    pub name: &'static str,
    pub kind: Kind,
    pub apply: Apply,
}

/// Every option of a normal build, in the order `uci` lists them.
pub const OPTIONS: &[Declared] = &[
    Declared {
        name: "Hash",
        kind: Kind::Spin {
            default: HASH_DEFAULT_MB as i64,
            min: 1,
            max: HASH_MAX_MB as i64,
        },
        apply: Apply::Act(|v| Action::ResizeHash(v.int())),
    },
    Declared {
        name: "Clear Hash",
        kind: Kind::Button,
        apply: Apply::Act(|_| Action::ClearHash),
    },
    Declared {
        name: "Threads",
        kind: Kind::Spin {
            default: 1,
            min: 1,
            max: THREADS_MAX as i64,
        },
        apply: Apply::Act(|v| Action::SetThreads(v.int())),
    },
    Declared {
        name: "MultiPV",
        kind: Kind::Spin {
            default: 1,
            min: 1,
            max: MULTIPV_MAX as i64,
        },
        apply: Apply::Store(|o, v| o.search.multipv = v.int()),
    },
    Declared {
        name: "Move Overhead",
        kind: Kind::Spin {
            default: DEFAULT_MOVE_OVERHEAD_MS as i64,
            min: 0,
            max: MOVE_OVERHEAD_MAX_MS as i64,
        },
        apply: Apply::Store(|o, v| o.search.move_overhead = Duration::from_millis(v.int())),
    },
    Declared {
        name: "Ponder",
        kind: Kind::Check { default: false },
        apply: Apply::Store(|o, v| o.ponder = v.bool()),
    },
    Declared {
        name: "UCI_Chess960",
        kind: Kind::Check { default: false },
        apply: Apply::Act(|v| Action::Chess960(v.bool())),
    },
    Declared {
        name: "UCI_LimitStrength",
        kind: Kind::Check { default: false },
        apply: Apply::Store(|o, v| o.limit_strength = v.bool()),
    },
    Declared {
        name: "UCI_Elo",
        kind: Kind::Spin {
            default: ELO_MAX as i64,
            min: ELO_MIN as i64,
            max: ELO_MAX as i64,
        },
        apply: Apply::Store(|o, v| o.elo = v.int()),
    },
    Declared {
        name: "UCI_ShowWDL",
        kind: Kind::Check { default: false },
        apply: Apply::Store(|o, v| o.show_wdl = v.bool()),
    },
    Declared {
        name: "UCI_AnalyseMode",
        kind: Kind::Check { default: false },
        apply: Apply::Store(|o, v| o.analyse_mode = v.bool()),
    },
    Declared {
        name: "Evaluation",
        kind: Kind::Combo {
            default: "net",
            vars: &["net", "classical"],
        },
        apply: Apply::Act(|v| {
            Action::SetEvaluation(match v.text().as_str() {
                "net" => EvaluatorKind::Net,
                _ => EvaluatorKind::Classical,
            })
        }),
    },
    Declared {
        name: "EvalFile",
        kind: Kind::String { default: "" },
        apply: Apply::Act(|v| Action::LoadNet(v.text())),
    },
    Declared {
        name: "SyzygyPath",
        kind: Kind::String { default: "" },
        apply: Apply::Act(|v| Action::LoadTablebases(v.text())),
    },
    Declared {
        name: "SyzygyProbeDepth",
        kind: Kind::Spin {
            default: 1,
            min: 1,
            max: 100,
        },
        apply: Apply::Store(|o, v| o.search.tb_probe_depth = v.int()),
    },
    Declared {
        name: "SyzygyProbeLimit",
        kind: Kind::Spin {
            default: 7,
            min: 0,
            max: 7,
        },
        apply: Apply::Store(|o, v| o.search.tb_probe_limit = v.int()),
    },
    Declared {
        name: "Syzygy50MoveRule",
        kind: Kind::Check { default: true },
        apply: Apply::Store(|o, v| o.search.tb_fifty_move_rule = v.bool()),
    },
];

/// The `option ...` line of `d`.
fn declaration(d: &Declared) -> String {
    let name = d.name;
    match d.kind {
        Kind::Spin { default, min, max } => {
            format!("option name {name} type spin default {default} min {min} max {max}")
        }
        Kind::Check { default } => format!("option name {name} type check default {default}"),
        Kind::Button => format!("option name {name} type button"),
        Kind::Combo { default, vars } => {
            let vars: String = vars.iter().map(|v| format!(" var {v}")).collect();
            format!("option name {name} type combo default {default}{vars}")
        }
        Kind::String { default } => {
            let default = if default.is_empty() { EMPTY } else { default };
            format!("option name {name} type string default {default}")
        }
    }
}

/// The `option ...` lines of the `uci` answer.
pub fn declarations() -> Vec<String> {
    let mut lines: Vec<String> = OPTIONS.iter().map(declaration).collect();
    // The tuning build offers every search parameter (src/search/params.rs) for SPSA to set.
    if cfg!(feature = "spsa") {
        lines.extend(crate::search::params::TUNABLES.iter().map(|t| {
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
    /// An option of [`OPTIONS`] and its checked value.
    Declared { option: &'static str, value: Value },
    /// A search parameter of the tuning build (`--features spsa`), by name.
    #[cfg(feature = "spsa")]
    Tunable(&'static str, i32),
}

/// The declared option named `name` (exactly as declared).
pub fn declared(name: &str) -> Option<&'static Declared> {
    OPTIONS.iter().find(|o| o.name == name)
}

/// Checks `value` against an option of kind `kind` named `name`.
pub fn check_value(name: &str, kind: Kind, value: Option<&str>) -> Result<Value, String> {
    let text = value.map(str::trim);
    match kind {
        Kind::Spin { min, max, .. } => {
            let v = text.ok_or_else(|| format!("option '{name}' needs a value"))?;
            let n: i64 = v
                .parse()
                .map_err(|_| format!("option '{name}': '{v}' is not a number"))?;
            if n < min || n > max {
                return Err(format!("option '{name}': {n} is outside {min}..{max}"));
            }
            Ok(Value::Int(n))
        }
        Kind::Check { .. } => match text.map(str::to_ascii_lowercase).as_deref() {
            Some("true") => Ok(Value::Bool(true)),
            Some("false") => Ok(Value::Bool(false)),
            _ => Err(format!("option '{name}' takes true or false")),
        },
        Kind::Button => Ok(Value::Press),
        Kind::Combo { vars, .. } => {
            let v = text.unwrap_or("");
            vars.iter()
                .find(|var| var.eq_ignore_ascii_case(v))
                .map(|var| Value::Text(var.to_string()))
                .ok_or_else(|| format!("option '{name}' takes one of: {}", vars.join(", ")))
        }
        // Text as typed, repeated spaces and tabs kept (a path may hold them, even begin with
        // one); only trailing white space goes, as GUIs add it.
        Kind::String { .. } => Ok(Value::Text(match value.map(str::trim_end) {
            None => String::new(),
            Some(t) if t.trim_start() == EMPTY => String::new(),
            Some(t) => t.to_string(),
        })),
    }
}

/// Checks a `setoption` (names are case-insensitive).
pub fn parse_change(name: &str, value: Option<&str>) -> Result<Change, String> {
    if let Some(option) = OPTIONS.iter().find(|o| o.name.eq_ignore_ascii_case(name)) {
        let value = check_value(name, option.kind, value)?;
        return Ok(Change::Declared {
            option: option.name,
            value,
        });
    }
    #[cfg(feature = "spsa")]
    {
        let lower = name.to_ascii_lowercase();
        if let Some(t) = crate::search::params::TUNABLES
            .iter()
            .find(|t| t.name == lower)
        {
            let kind = Kind::Spin {
                default: i64::from(t.default),
                min: i64::from(t.min),
                max: i64::from(t.max),
            };
            let n = check_value(name, kind, value)?.int::<i32>();
            return Ok(Change::Tunable(t.name, n));
        }
    }
    Err(format!("no such option '{name}'"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn declared_change(name: &'static str, value: Value) -> Result<Change, String> {
        Ok(Change::Declared {
            option: name,
            value,
        })
    }

    #[test]
    fn option_names_are_case_insensitive() {
        assert_eq!(
            parse_change("hash", Some("64")),
            declared_change("Hash", Value::Int(64))
        );
        assert_eq!(
            parse_change("MOVE OVERHEAD", Some("30")),
            declared_change("Move Overhead", Value::Int(30))
        );
        assert_eq!(
            parse_change("uci_chess960", Some("true")),
            declared_change("UCI_Chess960", Value::Bool(true))
        );
        assert_eq!(
            parse_change("Clear Hash", None),
            declared_change("Clear Hash", Value::Press)
        );
        assert_eq!(
            parse_change("threads", Some("4")),
            declared_change("Threads", Value::Int(4))
        );
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
        assert!(parse_change("NoSuchOption", Some("1")).is_err());
    }

    /// `string` options take any text as typed but for trailing white space, `<empty>` or nothing
    /// meaning the empty string; a `combo` takes one of its vars, in any case, stored as declared.
    #[test]
    fn string_and_combo_values_follow_the_uci_conventions() {
        let string = Kind::String { default: "" };
        let text = |s: &str| Ok(Value::Text(s.to_string()));
        assert_eq!(check_value("Path", string, Some("<empty>")), text(""));
        assert_eq!(check_value("Path", string, None), text(""));
        assert_eq!(
            check_value("Path", string, Some(" /a  b/\tc \t")),
            text(" /a  b/\tc")
        );
        let combo = Kind::Combo {
            default: "net",
            vars: &["net", "classical"],
        };
        assert_eq!(
            check_value("Evaluation", combo, Some("Classical")),
            text("classical")
        );
        assert!(check_value("Evaluation", combo, Some("other")).is_err());
        assert!(check_value("Evaluation", combo, None).is_err());
        let lines = [
            declaration(&Declared {
                name: "Path",
                kind: string,
                apply: Apply::Store(|_, _| {}),
            }),
            declaration(&Declared {
                name: "Evaluation",
                kind: combo,
                apply: Apply::Store(|_, _| {}),
            }),
        ];
        assert_eq!(
            lines,
            [
                "option name Path type string default <empty>",
                "option name Evaluation type combo default net var net var classical",
            ]
        );
    }

    /// Every declared option is set by its own row: storing one changes its field and no
    /// other, and the engine's actions carry the checked value.
    #[test]
    fn each_option_applies_its_own_value() {
        for option in OPTIONS {
            let value = match option.kind {
                Kind::Spin { min, max, .. } => Value::Int(if max > min { min + 1 } else { min }),
                Kind::Check { default } => Value::Bool(!default),
                Kind::String { .. } => Value::Text("/some/dir".to_string()),
                Kind::Combo { vars, .. } => Value::Text(vars[0].to_string()),
                _ => Value::Press,
            };
            match option.apply {
                Apply::Store(store) => {
                    let mut options = Options::default();
                    store(&mut options, &value);
                    assert_ne!(options, Options::default(), "{}", option.name);
                }
                Apply::Act(act) => {
                    let action = act(&value);
                    let expected = match option.name {
                        "Hash" => Action::ResizeHash(2),
                        "Threads" => Action::SetThreads(2),
                        "Clear Hash" => Action::ClearHash,
                        "UCI_Chess960" => Action::Chess960(true),
                        "SyzygyPath" => Action::LoadTablebases("/some/dir".to_string()),
                        "Evaluation" => Action::SetEvaluation(EvaluatorKind::Net),
                        "EvalFile" => Action::LoadNet("/some/dir".to_string()),
                        other => panic!("{other}: an action not checked here"),
                    };
                    assert_eq!(action, expected);
                }
            }
        }
    }

    #[test]
    fn search_parameters_are_options_only_in_the_tuning_build() {
        let offered = parse_change("rfp_margin", Some("70")).is_ok();
        assert_eq!(offered, cfg!(feature = "spsa"));
        let declared = declarations()
            .iter()
            .any(|l| l.contains("name rfp_margin "));
        assert_eq!(declared, cfg!(feature = "spsa"));
        if cfg!(feature = "spsa") {
            assert!(parse_change("rfp_margin", Some("1000")).is_err());
        }
    }

    #[test]
    fn spin_defaults_lie_within_their_range() {
        for option in OPTIONS {
            if let Kind::Spin { default, min, max } = option.kind {
                assert!(min <= default && default <= max, "{}", option.name);
            }
        }
        for t in crate::search::params::TUNABLES {
            assert!(t.min <= t.default && t.default <= t.max, "{}", t.name);
        }
    }
}
