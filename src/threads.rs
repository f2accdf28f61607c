//! Worker threads: how many to start when none is asked for, the most a command accepts, and
//! the one pool builder (each worker with the large search stack of [`crate::memory`]) that
//! falls back to fewer threads where the system will not give that many. The commands, the
//! threaded perft (also behind the UCI's `go perft`) and its suite checker use it.

use std::time::Duration;

use crate::memory::THREAD_STACK_BYTES;

/// The number of threads to use when none is given: every core.
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Most worker threads a command accepts (`--threads`, `--jobs`): each gets a large stack.
pub const MAX_THREADS: usize = 1024;

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
