//! Searching EPD test positions ([`crate::epd`]) for `cutoff epd`: each problem on a cleared
//! searcher, so its result does not depend on the order, its chosen move judged against its
//! `bm`, `am` and `c0`; a whole suite on parallel workers, each with its own searcher and
//! table, its results handed back in input order as they complete. It sits above the search,
//! which the EPD format (read by the perft suites too) must not.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use shakmaty::Move;

use crate::epd::problem::{Problem, Tally, Verdict};
use crate::position::Game;
use crate::search::{Limits, Searcher};
use crate::threads::worker_pool;

/// What searching one position gave.
#[derive(Clone, Debug)]
pub struct Attempt {
    pub chosen: Option<Move>,
    pub depth: i32,
    pub elapsed: Duration,
    pub verdict: Verdict,
}

/// Searches one problem with a cleared searcher, so results do not depend on the order.
pub fn attempt(searcher: &mut Searcher, problem: &Problem, limits: &Limits) -> Attempt {
    searcher.clear();
    let game = Game::new(
        problem.record.position.clone(),
        problem.record.castling_mode,
    );
    let outcome = searcher.run(&game, limits);
    Attempt {
        chosen: outcome.best_move,
        depth: outcome.depth,
        elapsed: outcome.elapsed,
        verdict: problem.judge(outcome.best_move),
    }
}

/// How the positions are spread: `jobs` at a time, each on a searcher with a `hash_mb` table
/// and `threads` threads.
#[derive(Clone, Copy, Debug)]
pub struct Workers {
    pub jobs: usize,
    pub hash_mb: usize,
    pub threads: usize,
}

/// What a suite run tells as it goes.
#[derive(Debug)]
pub enum Solved<'a> {
    /// A worker's searcher could not get the threads asked for, and searches with fewer.
    Warning(String),
    /// One more position searched (in any order).
    Searched,
    /// The next position in input order, and what its search gave.
    Row {
        problem: &'a Problem,
        attempt: &'a Attempt,
    },
}

/// A worker's message to the run.
enum Message {
    Warning(String),
    Done(usize, Attempt),
}

/// Searches `problems` on the `workers` (as many as the system gives), telling `observe` of each
/// search as it ends and of each row in input order; the tally of the verdicts. An error where
/// not one worker thread can be started.
pub fn solve(
    problems: &[Problem],
    limits: &Limits,
    workers: Workers,
    mut observe: impl FnMut(Solved),
) -> Result<Tally, String> {
    let Workers {
        jobs,
        hash_mb,
        threads,
    } = workers;
    let Some(pool) = worker_pool(jobs, "epd") else {
        return Err("cannot start any worker thread".to_string());
    };
    // As many workers as the pool could get.
    let jobs = pool.current_num_threads();
    let next = AtomicUsize::new(0);
    let mut tally = Tally::default();
    pool.in_place_scope(|scope| {
        let (sender, receiver) = mpsc::channel::<Message>();
        for _ in 0..jobs {
            let sender = sender.clone();
            let next = &next;
            scope.spawn(move |_| {
                let mut searcher = Searcher::new(hash_mb);
                if let Err(e) = searcher.set_threads(threads) {
                    let warning = format!("{e}; searching with {} threads", searcher.threads());
                    // The run ends only when every worker has: its receiver is there.
                    let _ = sender.send(Message::Warning(warning));
                }
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(problem) = problems.get(i) else {
                        break;
                    };
                    let done = Message::Done(i, attempt(&mut searcher, problem, limits));
                    if sender.send(done).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        let mut pending = BTreeMap::new();
        let mut shown = 0;
        for message in receiver {
            let (i, result) = match message {
                Message::Warning(warning) => {
                    observe(Solved::Warning(warning));
                    continue;
                }
                Message::Done(i, result) => (i, result),
            };
            observe(Solved::Searched);
            pending.insert(i, result);
            while let Some(attempt) = pending.remove(&shown) {
                let problem = &problems[shown];
                tally.add(problem, attempt.verdict);
                observe(Solved::Row {
                    problem,
                    attempt: &attempt,
                });
                shown += 1;
            }
        }
    });
    Ok(tally)
}
