//! Test positions: an EPD record with its moves resolved, and how a chosen move fares on it.
//!
//! `bm` lists the moves to find (the chosen move must be one of them), `am` the moves to avoid
//! (it must be none of them), and an STS-style `c0 "move=points, ..."` table gives the chosen
//! move its points.

use shakmaty::Move;

use super::format::{parse_line, EpdRecord};

/// A test position: a record with its moves resolved, ready to judge a chosen move.
#[derive(Clone, Debug)]
pub struct Problem {
    /// 1-based line number in the suite file.
    pub line: usize,
    pub record: EpdRecord,
    /// `bm`: the chosen move must be one of these (when not empty).
    pub best: Vec<Move>,
    /// `am`: the chosen move must be none of these.
    pub avoid: Vec<Move>,
    /// STS `c0` table: points for each listed move; others earn 0.
    pub points: Option<Vec<(Move, i32)>>,
}

/// How a chosen move fared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// `None` when the position has neither `bm` nor `am`.
    pub solved: Option<bool>,
    /// Points earned, when the position has a `c0` table.
    pub points: Option<i32>,
}

impl Problem {
    /// Resolves the moves of a record; an illegal or unreadable move makes the position unusable.
    pub fn new(line: usize, record: EpdRecord) -> Result<Problem, String> {
        Ok(Problem {
            line,
            best: record.moves("bm")?,
            avoid: record.moves("am")?,
            points: record.move_points()?,
            record,
        })
    }

    /// Parses a line straight into a problem (`Ok(None)` for blank and comment lines).
    pub fn parse(line: usize, text: &str) -> Result<Option<Problem>, String> {
        parse_line(text)?
            .map(|record| Problem::new(line, record))
            .transpose()
    }

    /// Judges `chosen` (`None`: the search found no move).
    pub fn judge(&self, chosen: Option<Move>) -> Verdict {
        let checks = !self.best.is_empty() || !self.avoid.is_empty();
        let solved = checks.then(|| {
            chosen.is_some_and(|m| {
                (self.best.is_empty() || self.best.contains(&m)) && !self.avoid.contains(&m)
            })
        });
        let points = self.points.as_ref().map(|table| {
            chosen
                .and_then(|m| table.iter().find(|(t, _)| *t == m))
                .map_or(0, |&(_, p)| p)
        });
        Verdict { solved, points }
    }

    /// The most points any move earns here.
    pub fn max_points(&self) -> Option<i32> {
        self.points
            .as_ref()
            .map(|table| table.iter().map(|&(_, p)| p).max().unwrap_or(0))
    }

    /// What the position asks for, as written: `bm Qd1+`, `am Rd6 bm Rb6 Rg5+`.
    pub fn expected(&self) -> String {
        ["am", "bm"]
            .iter()
            .filter_map(|code| self.record.operation(code))
            .map(|op| format!("{} {}", op.opcode, op.operands.join(" ")))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The `id`, or the line number when there is none.
    pub fn name(&self) -> String {
        self.record
            .id()
            .map_or_else(|| format!("line {}", self.line), str::to_owned)
    }
}

/// A suite file's problems, and its lines that did not read.
#[derive(Clone, Debug, Default)]
pub struct Suite {
    pub problems: Vec<Problem>,
    /// The line number and the reason of each line that is neither a problem nor blank nor a
    /// comment.
    pub unreadable: Vec<(usize, String)>,
}

impl Suite {
    /// The problems of a file's numbered lines (as [`crate::files::read_lines`] gives them).
    pub fn parse(lines: &[(usize, String)]) -> Suite {
        let mut suite = Suite::default();
        for (line, text) in lines {
            match Problem::parse(*line, text) {
                Ok(Some(p)) => suite.problems.push(p),
                Ok(None) => {}
                Err(e) => suite.unreadable.push((*line, e)),
            }
        }
        suite
    }
}

/// Totals over a suite run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub solved: usize,
    /// Positions with a `bm` or `am` to check.
    pub judged: usize,
    pub points: i64,
    pub max_points: i64,
}

impl Tally {
    pub fn add(&mut self, problem: &Problem, verdict: Verdict) {
        if let Some(solved) = verdict.solved {
            self.judged += 1;
            self.solved += usize::from(solved);
        }
        if let (Some(p), Some(max)) = (verdict.points, problem.max_points()) {
            self.points += i64::from(p);
            self.max_points += i64::from(max);
        }
    }
}
