//! The command-line tools, side by side: each file is one subcommand's arguments (clap `Args`),
//! its `run`, and what it prints. The work itself is in the library modules below them
//! ([`crate::perft`], [`crate::epd`], [`crate::eval::explain`], [`crate::bench`], [`crate::datagen`], [`crate::tune`], [`crate::train`],
//! [`crate::reference`], [`crate::tablebase`]), and what the commands share in [`crate::util`]. No command imports
//! another.

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

use crate::eval::EvaluatorKind;

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

/// The parser of a `usize` count that cannot be zero (`--threads`, `--jobs`, `--hidden`, ...):
/// 0 is a usage error (exit 2) naming the flag, rather than silently taken as 1 or found out
/// after the work has started. (`u64` counts use `clap::value_parser!(u64).range(1..)`.)
pub fn at_least_one() -> clap::builder::RangedU64ValueParser<usize> {
    clap::builder::RangedU64ValueParser::<usize>::new().range(1..)
}

/// The values a count flag with a ceiling takes: a whole number from `low` to `high`, said in
/// words when refused, as [`FloatRange`] says its range (a count whose only bound is 0 uses
/// [`at_least_one`]). The ceiling is what a run can hold: `train --batch 1000000000` aborted
/// allocating 68 GB, and `--batch 4611686018427387904` panicked (`capacity overflow`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CountRange {
    low: usize,
    high: usize,
}

impl CountRange {
    /// From `low` to `high`, both taken.
    pub const fn from_to(low: usize, high: usize) -> CountRange {
        CountRange { low, high }
    }

    /// The largest count taken.
    pub const fn high(&self) -> usize {
        self.high
    }

    /// `value` read as a count in the range; the error says what the flag takes (clap names
    /// the flag and the value before it). Digits past `usize` are out of range, not "not a
    /// number".
    pub fn parse(&self, value: &str) -> Result<usize, String> {
        let digits = !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit());
        match value.parse::<usize>() {
            Ok(n) if (self.low..=self.high).contains(&n) => Ok(n),
            Ok(_) => Err(format!("out of range: it takes {self}")),
            Err(_) if digits => Err(format!("out of range: it takes {self}")),
            Err(_) => Err(format!("not a whole number: it takes {self}")),
        }
    }

    /// The clap value parser of a flag of this range: anything outside it is a usage error
    /// (exit 2) before any work.
    pub fn parser(self) -> impl Fn(&str) -> Result<usize, String> + Clone + Send + Sync + 'static {
        move |value: &str| self.parse(value)
    }
}

impl std::fmt::Display for CountRange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "a whole number from {} to {}", self.low, self.high)
    }
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
    use super::{CountRange, FloatRange};

    /// A count past either bound, past `usize`, negative or not a number is refused, saying
    /// what the flag takes; the bounds themselves are taken.
    #[test]
    fn a_count_range_refuses_counts_outside_it_and_says_what_it_takes() {
        let batch = CountRange::from_to(1, 262_144);
        assert_eq!(batch.parse("1"), Ok(1));
        assert_eq!(batch.parse("262144"), Ok(262_144));
        for (bad, why) in [
            (
                "0",
                "out of range: it takes a whole number from 1 to 262144",
            ),
            ("262145", "out of range"),
            ("1000000000", "out of range"),
            ("4611686018427387904", "out of range"),
            ("99999999999999999999999999", "out of range"),
            (
                "-1",
                "not a whole number: it takes a whole number from 1 to 262144",
            ),
            ("1e6", "not a whole number"),
            ("", "not a whole number"),
        ] {
            let e = batch.parse(bad).unwrap_err();
            assert!(e.contains(why), "{bad}: {e}");
        }
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
