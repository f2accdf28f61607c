//! How the thread reading commands reaches a running search: the stop flag, pondering, and
//! when the clock started.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Shared between the search thread and the thread reading commands: how to stop a search and
/// when its clock started.
#[derive(Debug)]
pub struct Control {
    stop: AtomicBool,
    pondering: AtomicBool,
    clock_start: Mutex<Instant>,
}

impl Default for Control {
    fn default() -> Self {
        Control {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(false),
            clock_start: Mutex::new(Instant::now()),
        }
    }
}

impl Control {
    /// Prepares for a new search; `pondering` searches run without a clock until `ponderhit`.
    pub fn begin(&self, pondering: bool) {
        self.stop.store(false, Ordering::SeqCst);
        self.pondering.store(pondering, Ordering::SeqCst);
        *self.clock_start.lock().unwrap_or_else(|e| e.into_inner()) = Instant::now();
    }

    /// Asks the search to finish as soon as it can (`stop`, `quit`).
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }

    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The opponent played the expected move: our clock runs from now on.
    pub fn ponderhit(&self) {
        *self.clock_start.lock().unwrap_or_else(|e| e.into_inner()) = Instant::now();
        self.pondering.store(false, Ordering::SeqCst);
    }

    pub fn is_pondering(&self) -> bool {
        self.pondering.load(Ordering::Relaxed)
    }

    /// Time on our clock since the search (or the ponderhit) began.
    pub fn clock_elapsed(&self) -> Duration {
        self.clock_start
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .elapsed()
    }
}
