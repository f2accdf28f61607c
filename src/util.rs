//! What the command-line tools share: reading a suite file with limits, a progress bar, the
//! `--threads` check, and one worker pool builder that falls back to fewer threads.
//!
//! It sits below the commands and below `perft`, whose threaded divide (also behind the UCI's
//! `go perft`) and suite checker use the same pool.

use std::path::Path;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};

use crate::memory::THREAD_STACK_BYTES;

/// The largest suite file read: far above any real suite, and a bound on the memory that
/// reading an endless input (`/dev/zero`, a FIFO) could take.
pub const MAX_FILE_BYTES: u64 = 256 << 20;

/// The lines of a text file with their 1-based numbers. Refuses what is not a regular file
/// (`crate::files`), files over [`MAX_FILE_BYTES`] and files that are not UTF-8, saying where
/// the bad byte is; every error names the path.
pub fn read_lines(path: &Path) -> Result<Vec<(usize, String)>, String> {
    let bytes = crate::files::read_bounded(path, MAX_FILE_BYTES, "a suite file")?;
    let text = String::from_utf8(bytes).map_err(|e| {
        format!(
            "{}: not UTF-8 text (bad byte at offset {})",
            path.display(),
            e.utf8_error().valid_up_to()
        )
    })?;
    Ok(text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.to_string()))
        .collect())
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

/// The number of threads to use when none is given: every core.
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Most worker threads a command accepts (`--threads`, `--jobs`): each gets a large stack.
pub const MAX_THREADS: usize = 1024;

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

/// A pool of `threads` workers (at least 1), each with a [`THREAD_STACK_BYTES`] stack. When the
/// system will not give that many threads (a process or memory limit), tries half as many, and
/// so on, saying so on stderr with `what` (the command) first; `None` when not even one can be
/// started (the caller then works on its own thread or gives up). Never a panic.
pub fn worker_pool(threads: usize, what: &str) -> Option<rayon::ThreadPool> {
    let mut n = threads.max(1);
    loop {
        match rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .stack_size(THREAD_STACK_BYTES)
            .build()
        {
            Ok(pool) => return Some(pool),
            Err(e) if n > 1 => {
                eprintln!("{what}: cannot start {n} threads ({e}); trying {}", n / 2);
                n /= 2;
                // The threads of the failed attempt exit on their own: give them a moment to
                // hand back their stacks.
                std::thread::sleep(Duration::from_millis(50));
            }
            Err(e) => {
                eprintln!("{what}: cannot start a worker thread ({e}); working on the main one");
                return None;
            }
        }
    }
}

/// The argument in `range` that minimises `f`, by golden-section search to within
/// `tolerance`: for a function with one minimum there (the tuner's and the trainer's error as a
/// function of their `K`).
pub fn golden_section_min(range: (f64, f64), tolerance: f64, f: impl Fn(f64) -> f64) -> f64 {
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let (mut lo, mut hi) = range;
    let mut a = hi - ratio * (hi - lo);
    let mut b = lo + ratio * (hi - lo);
    let (mut fa, mut fb) = (f(a), f(b));
    while hi - lo > tolerance {
        if fa < fb {
            hi = b;
            b = a;
            fb = fa;
            a = hi - ratio * (hi - lo);
            fa = f(a);
        } else {
            lo = a;
            a = b;
            fa = fb;
            b = lo + ratio * (hi - lo);
            fb = f(b);
        }
    }
    (lo + hi) / 2.0
}
