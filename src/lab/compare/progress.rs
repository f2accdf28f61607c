//! What a `cutoff compare` run says on stderr, where stdout carries only its report: before
//! the searches, what each depth will cost ([`print_estimate`]); while they run, a line now and
//! then where no spinner is drawn ([`report_progress`]).

use std::ops::RangeInclusive;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use indicatif::{HumanCount, ProgressBar};
use shakmaty::Chess;

use super::chess::{run_mode, ChessTree, Mode};
use super::cost::CostModel;
use crate::types::Depth;

/// Below this many minimax nodes a run takes well under a second: no estimate is printed, and
/// the rate minimax runs at is measured on the deepest depth that stays below it.
const SMALL_RUN_NODES: f64 = 300_000.0;

/// The whole run's time over minimax's alone: at depth 6 of the start position the five modes
/// took 50.7 s, minimax 42.5 s of it (docs/alphabeta.md).
const ALL_MODES_OVER_MINIMAX: f64 = 1.2;

/// Says on stderr, before the searches, what each depth of the run will cost: minimax's nodes
/// (perft's counts, [`CostModel`]) at the rate minimax is measured to run here on a small
/// depth, and the other modes' share beside it. Nothing for a run of well under a second.
pub fn print_estimate(pos: &Chess, depths: RangeInclusive<Depth>) {
    let last = *depths.end();
    let model = CostModel::new(pos, last);
    if model.minimax_nodes(last) <= SMALL_RUN_NODES {
        return;
    }
    let probe = (1..last)
        .take_while(|&d| model.minimax_nodes(d) <= SMALL_RUN_NODES)
        .last()
        .unwrap_or(1);
    // A shallower search first, unmeasured: the first search of a process pays for setting
    // up what the evaluation reads, which would make the rate look several times lower.
    let tree = ChessTree::new();
    run_mode(&tree, pos, (probe - 1).max(1), Mode::Minimax);
    let started = Instant::now();
    let counted = run_mode(&tree, pos, probe, Mode::Minimax).counters.nodes;
    let rate = counted as f64 / started.elapsed().as_secs_f64().max(1e-6);
    let beyond = if model.is_exact(last) {
        String::new()
    } else {
        format!(", {:.1} a ply beyond what perft counted", model.branching())
    };
    eprintln!(
        "compare: estimate (minimax's positions from perft counts{beyond}; the time at the {} \
         positions a second minimax ran at here to depth {probe}, the other modes adding a fifth):",
        HumanCount(rate as u64)
    );
    for depth in depths {
        let nodes = model.minimax_nodes(depth);
        if nodes <= SMALL_RUN_NODES && depth < last {
            continue;
        }
        let positions = if model.is_exact(depth) {
            format!("{} positions", HumanCount(nodes as u64))
        } else {
            format!("about {}", rough_count(nodes))
        };
        let seconds = nodes / rate * ALL_MODES_OVER_MINIMAX;
        let about = if seconds < 1.0 { "" } else { "about " };
        eprintln!(
            "compare: estimate: depth {depth}: {positions}, {about}{}",
            rough_time(seconds)
        );
    }
}

/// A large count in words, to two or three figures: "124 million positions".
fn rough_count(n: f64) -> String {
    let (scaled, unit) = [
        (1e15, "quadrillion"),
        (1e12, "trillion"),
        (1e9, "billion"),
        (1e6, "million"),
    ]
    .into_iter()
    .find(|&(scale, _)| n >= scale)
    .map_or((n, ""), |(scale, unit)| (n / scale, unit));
    let figures = if scaled < 10.0 {
        format!("{scaled:.1}")
    } else {
        format!("{scaled:.0}")
    };
    if unit.is_empty() {
        format!("{} positions", HumanCount(n as u64))
    } else {
        format!("{figures} {unit} positions")
    }
}

/// A duration in the largest unit that says it: "2 s", "3 min", "5 h", "9 days", "40 years".
fn rough_time(seconds: f64) -> String {
    const MINUTE: f64 = 60.0;
    const HOUR: f64 = 3600.0;
    const DAY: f64 = 24.0 * HOUR;
    const YEAR: f64 = 365.0 * DAY;
    let (value, unit) = if seconds < 1.0 {
        return "under a second".to_string();
    } else if seconds < 2.0 * MINUTE {
        (seconds, "s")
    } else if seconds < 2.0 * HOUR {
        (seconds / MINUTE, "min")
    } else if seconds < 2.0 * DAY {
        (seconds / HOUR, "h")
    } else if seconds < 2.0 * YEAR {
        (seconds / DAY, "days")
    } else {
        (seconds / YEAR, "years")
    };
    format!("{value:.0} {unit}")
}

/// When the next progress line is due, `elapsed` into the run: every 5 s at first, then every
/// tenth of the time gone, so that an hour-long run writes some fifty lines, not seven hundred.
fn next_progress_line(elapsed: Duration) -> Duration {
    elapsed + (elapsed / 10).max(Duration::from_secs(5))
}

/// Writes the spinner's state as a line on stderr when one is due (`next_progress_line`),
/// until `finished` closes.
pub fn report_progress(progress: &ProgressBar, finished: &mpsc::Receiver<()>) {
    let mut due = next_progress_line(Duration::ZERO);
    loop {
        let wait = due.saturating_sub(progress.elapsed());
        match finished.recv_timeout(wait) {
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            _ => return,
        }
        let elapsed = progress.elapsed();
        if elapsed < due {
            continue;
        }
        eprintln!(
            "compare: {}: {} positions expanded, {} elapsed",
            progress.message(),
            HumanCount(progress.position()),
            rough_time(elapsed.as_secs_f64())
        );
        due = next_progress_line(elapsed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lines come every 5 s at first, then every tenth of the time gone.
    #[test]
    fn progress_lines_come_every_five_seconds_then_every_tenth_of_the_time_gone() {
        let s = Duration::from_secs;
        assert_eq!(next_progress_line(Duration::ZERO), s(5));
        assert_eq!(next_progress_line(s(5)), s(10));
        assert_eq!(next_progress_line(s(45)), s(50));
        assert_eq!(next_progress_line(s(100)), s(110));
        assert_eq!(next_progress_line(s(3600)), s(3960));
    }

    #[test]
    fn rough_counts_and_times_read_as_words() {
        assert_eq!(rough_count(124_132_537.0), "124 million positions");
        assert_eq!(rough_count(4.9e12), "4.9 trillion positions");
        assert_eq!(rough_count(720_880.0), "720,880 positions");
        assert_eq!(rough_time(0.3), "under a second");
        assert_eq!(rough_time(50.0), "50 s");
        assert_eq!(rough_time(600.0), "10 min");
        assert_eq!(rough_time(5.0 * 3600.0), "5 h");
        assert_eq!(rough_time(9.0 * 86400.0), "9 days");
        assert_eq!(rough_time(40.0 * 365.0 * 86400.0), "40 years");
    }
}
