//! The command-line tools, side by side: each file is one subcommand's arguments (clap `Args`),
//! its `run`, and what it prints. The work itself is in the library modules below them
//! ([`crate::perft`], [`crate::epd`], [`crate::bench`], [`crate::datagen`], [`crate::tune`], [`crate::train`],
//! [`crate::lab`], [`crate::tablebase`]); what the commands share is here (the value
//! ranges of their flags, the `--threads` check, the progress bar, how a failure ends). No
//! command imports another.

pub mod bench;
pub mod compare;
pub mod datagen;
pub mod epd;
pub mod explain;
pub mod perft;
pub mod syzygy;
pub mod train;
pub mod tree;
pub mod tune;

use std::process::ExitCode;

use indicatif::{ProgressBar, ProgressStyle};

use crate::eval::EvaluatorKind;
use crate::threads::{default_threads, MAX_THREADS};

/// The evaluation a command's searches run (`--eval`; UCI `Evaluation`): the net by default,
/// the classical one to reproduce what was measured or generated with it.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EvalArg {
    #[default]
    Net,
    Classical,
}

impl From<EvalArg> for EvaluatorKind {
    fn from(arg: EvalArg) -> EvaluatorKind {
        match arg {
            EvalArg::Net => EvaluatorKind::Net,
            EvalArg::Classical => EvaluatorKind::Classical,
        }
    }
}

/// How a command that could not do its work ends: one `error: ...` line on stderr and the exit
/// status that tells a script which kind of trouble it was. clap's own refusals (an unknown
/// flag, a value out of range) are the same style: `error: ...` and exit 2.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The command cannot start as asked, found before any work: a flag's value, a FEN, a file
    /// it must read (missing, not a regular file, too large), an output path it cannot write,
    /// more memory than the machine has. Exit 2, as for clap's usage errors.
    Usage(String),
    /// The work started and failed, or found what it checks for wrong: counts that do not
    /// match, lines that do not read, damaged tables, data that is not data, a write that
    /// failed. Exit 1.
    Run(String),
}

impl Failure {
    /// Prints the error line and gives the exit status.
    pub fn exit(self) -> ExitCode {
        match self {
            Failure::Usage(message) => {
                eprintln!("error: {message}");
                ExitCode::from(2)
            }
            Failure::Run(message) => {
                eprintln!("error: {message}");
                ExitCode::FAILURE
            }
        }
    }
}

/// A library error met while working is a failed run; the checks before the work say
/// [`Failure::Usage`] themselves.
impl From<String> for Failure {
    fn from(message: String) -> Failure {
        Failure::Run(message)
    }
}

impl From<&str> for Failure {
    fn from(message: &str) -> Failure {
        Failure::Run(message.to_string())
    }
}

/// A check before the work failed: [`Failure::Usage`], for `map_err`.
pub fn usage(message: impl Into<String>) -> Failure {
    Failure::Usage(message.into())
}

/// `count` and `noun`, the noun in the plural unless the count is 1 ("1 count", "2 counts").
pub fn counted(count: usize, singular: &str, plural: &str) -> String {
    if count == 1 {
        format!("1 {singular}")
    } else {
        format!("{count} {plural}")
    }
}

/// The values a whole-number flag takes, said in words when a value is refused ("it takes a
/// whole number from 1 to 20"): clap's own ranges answer in the type's terms
/// ("0 is not in 1..18446744073709551615").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IntRange {
    low: i128,
    high: Option<i128>,
    /// Why the top is where it is, said when a value above it is refused.
    why_high: &'static str,
}

impl IntRange {
    /// `low` or more, with no top but the type's.
    pub const fn at_least(low: i64) -> IntRange {
        IntRange {
            low: low as i128,
            high: None,
            why_high: "",
        }
    }

    /// From `low` to `high`, both taken.
    pub const fn from_to(low: i64, high: i64) -> IntRange {
        IntRange {
            low: low as i128,
            high: Some(high as i128),
            why_high: "",
        }
    }

    /// The same range, saying `why` when a value above its top is refused.
    pub const fn because(self, why: &'static str) -> IntRange {
        IntRange {
            why_high: why,
            ..self
        }
    }

    /// `value` read as a whole number in the range (and in `T`); the error says what the flag
    /// takes (clap names the flag and the value before it).
    pub fn parse<T: TryFrom<i128>>(&self, value: &str) -> Result<T, String> {
        let Ok(n) = value.trim().parse::<i128>() else {
            return Err(format!("not a whole number: it takes {self}"));
        };
        let above = self.high.is_some_and(|high| n > high);
        if n < self.low || above {
            let why = if above && !self.why_high.is_empty() {
                format!(" ({})", self.why_high)
            } else {
                String::new()
            };
            return Err(format!("out of range: it takes {self}{why}"));
        }
        T::try_from(n).map_err(|_| format!("too large a number: it takes {self}"))
    }

    /// The clap value parser of a flag of this range: anything outside it is a usage error
    /// (exit 2) before any work.
    pub fn parser<T: TryFrom<i128>>(
        self,
    ) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static {
        move |value: &str| self.parse(value)
    }
}

impl std::fmt::Display for IntRange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.high {
            Some(high) => write!(f, "a whole number from {} to {high}", self.low),
            None => write!(f, "a whole number, at least {}", self.low),
        }
    }
}

/// Worker and search threads of every command (`--threads`, `--jobs`).
pub const THREADS: IntRange = IntRange::from_to(1, MAX_THREADS as i64);

/// The parser of a `usize` count that cannot be zero (`--hash`, `--epochs`, ...): 0 is a usage
/// error (exit 2) naming the flag, rather than silently taken as 1 or found out after the work
/// has started.
pub fn at_least_one<T: TryFrom<i128>>(
) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static {
    IntRange::at_least(1).parser()
}

/// The parser of `--threads` and `--jobs`: 1 to [`MAX_THREADS`].
pub fn threads<T: TryFrom<i128>>(
) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static {
    THREADS.parser()
}

/// `--threads` as given (at least 1), all cores when absent, refused beyond [`MAX_THREADS`].
pub fn checked_threads(threads: Option<usize>) -> Result<usize, String> {
    match threads {
        None => Ok(default_threads()),
        Some(n) if n > MAX_THREADS => {
            Err(format!("{n} threads is beyond the maximum {MAX_THREADS}"))
        }
        Some(n) => Ok(n.max(1)),
    }
}

/// A progress bar on stderr (hidden when stderr is not a terminal), with room after it for a
/// message (rates, counts) that a command sets.
pub fn progress_bar(len: u64, unit: &str) -> ProgressBar {
    let bar = ProgressBar::new(len);
    let template =
        format!("{{bar:40}} {{pos}}/{{len}} {unit} [{{elapsed_precise}}, eta {{eta}}] {{msg}}");
    if let Ok(style) = ProgressStyle::with_template(&template) {
        bar.set_style(style);
    }
    bar
}

/// The values a float flag takes: a finite number from `low` (or above it, when `low` itself is
/// refused) to `high`. NaN and the infinities are never in it: Rust reads `NaN`, `inf` and
/// `infinity` as floats, and a float flag without bounds took them as given (`train --lr NaN`
/// trained a net of zeros and exited 0, `tune --time-limit inf` panicked making a `Duration`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FloatRange {
    low: f64,
    /// Whether `low` itself is refused: a learning rate must be above 0, a share may be 0.
    above_low: bool,
    high: f64,
}

/// `--lambda` of `train` and `tune` (and `train --lambda-end`): the game result's share of
/// the training target, the rest the search score's expected result.
pub const LAMBDA: FloatRange = FloatRange::from_to(0.0, 1.0);

impl FloatRange {
    /// Above `low` (not `low` itself) and at most `high`.
    pub const fn above(low: f64, high: f64) -> FloatRange {
        FloatRange {
            low,
            above_low: true,
            high,
        }
    }

    /// From `low` to `high`, both taken.
    pub const fn from_to(low: f64, high: f64) -> FloatRange {
        FloatRange {
            low,
            above_low: false,
            high,
        }
    }

    /// Whether `x` is in the range (never NaN or an infinity, whatever the bounds).
    pub fn contains(&self, x: f64) -> bool {
        let low_ok = if self.above_low {
            x > self.low
        } else {
            x >= self.low
        };
        x.is_finite() && low_ok && x <= self.high
    }

    /// `value` read as a float in the range; the error says what the flag takes (clap names
    /// the flag and the value before it).
    pub fn parse(&self, value: &str) -> Result<f64, String> {
        match value.parse::<f64>() {
            Ok(x) if self.contains(x) => Ok(x),
            Ok(x) if !x.is_finite() => Err(format!("not a finite number: it takes {self}")),
            Ok(_) => Err(format!("out of range: it takes {self}")),
            Err(_) => Err(format!("not a number: it takes {self}")),
        }
    }

    /// The clap value parser of a flag of this range: anything outside it is a usage error
    /// (exit 2) before any work, as for the counts ([`at_least_one`]).
    pub fn parser(self) -> impl Fn(&str) -> Result<f64, String> + Clone + Send + Sync + 'static {
        move |value: &str| self.parse(value)
    }
}

impl std::fmt::Display for FloatRange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.above_low {
            write!(f, "a number above {} and at most {}", self.low, self.high)
        } else {
            write!(f, "a number from {} to {}", self.low, self.high)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{counted, FloatRange, IntRange};

    /// A whole number outside its range is refused in words, with the reason for the top when
    /// one is given; never in the type's terms.
    #[test]
    fn an_int_range_says_what_it_takes_in_words() {
        let depth = IntRange::from_to(1, 20).because("deeper would never finish");
        let count = IntRange::at_least(1);
        assert_eq!(depth.parse::<i32>("20"), Ok(20));
        assert_eq!(count.parse::<u64>(" 7 "), Ok(7));
        assert_eq!(
            depth.parse::<i32>("21"),
            Err(
                "out of range: it takes a whole number from 1 to 20 (deeper would never finish)"
                    .to_string()
            )
        );
        assert_eq!(
            depth.parse::<i32>("0"),
            Err("out of range: it takes a whole number from 1 to 20".to_string())
        );
        assert_eq!(
            count.parse::<u64>("0"),
            Err("out of range: it takes a whole number, at least 1".to_string())
        );
        assert_eq!(
            count.parse::<u64>("-3"),
            Err("out of range: it takes a whole number, at least 1".to_string())
        );
        assert_eq!(
            count.parse::<u64>("two"),
            Err("not a whole number: it takes a whole number, at least 1".to_string())
        );
        assert_eq!(
            count.parse::<u16>("70000"),
            Err("too large a number: it takes a whole number, at least 1".to_string())
        );
        assert!(count
            .parse::<u64>("99999999999999999999999999999999999999999")
            .is_err());
        // train --batch: a ceiling of what memory holds, and far past usize still "out of range".
        let batch = IntRange::from_to(1, 262_144);
        assert_eq!(batch.parse::<usize>("262144"), Ok(262_144));
        for bad in [
            "262145",
            "1000000000",
            "4611686018427387904",
            "99999999999999999999",
        ] {
            let e = batch.parse::<usize>(bad).unwrap_err();
            assert!(
                e.starts_with("out of range: it takes a whole number from 1 to 262144"),
                "{e}"
            );
        }
    }

    #[test]
    fn counts_take_the_plural_unless_one() {
        assert_eq!(counted(1, "count does", "counts do"), "1 count does");
        assert_eq!(counted(0, "count does", "counts do"), "0 counts do");
        assert_eq!(counted(2, "line", "lines"), "2 lines");
    }

    /// NaN, the infinities and numbers past either bound are refused, each saying what the flag
    /// takes; the bounds themselves are taken unless the range is "above" its low end.
    #[test]
    fn a_float_range_refuses_nan_infinities_and_numbers_outside_it() {
        let share = FloatRange::from_to(0.0, 1.0);
        let rate = FloatRange::above(0.0, 1.0);
        for (range, good) in [(share, &["0", "1", "0.25"][..]), (rate, &["1", "1e-9"][..])] {
            for value in good {
                assert_eq!(range.parse(value), Ok(value.parse().unwrap()), "{value}");
            }
        }
        for (range, bad, why) in [
            (
                share,
                "NaN",
                "not a finite number: it takes a number from 0 to 1",
            ),
            (share, "-inf", "not a finite number"),
            (
                rate,
                "inf",
                "not a finite number: it takes a number above 0 and at most 1",
            ),
            (rate, "infinity", "not a finite number"),
            (
                rate,
                "0",
                "out of range: it takes a number above 0 and at most 1",
            ),
            (share, "-0.1", "out of range"),
            (share, "1.0000001", "out of range"),
            (rate, "3.4e38", "out of range"),
            (
                rate,
                "x",
                "not a number: it takes a number above 0 and at most 1",
            ),
            (rate, "", "not a number"),
        ] {
            let e = range.parse(bad).unwrap_err();
            assert!(e.contains(why), "{bad}: {e}");
        }
    }
}
