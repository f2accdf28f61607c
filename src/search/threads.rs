//! Lazy SMP: helper threads search the same root as the main thread, each with its own history
//! table, and share only the transposition table. What one thread stores, the others
//! find, so that together they reach a given depth sooner; the helpers' own results are never
//! used. The main thread keeps the clock, reports and decides the move.
//!
//! The helpers are started once and parked on a channel between searches, so a search costs
//! no thread start-up. A pool of our own rather than rayon's: a helper's job runs for the whole
//! search and must keep its history from one search to the next, which rayon's tasks cannot.

use std::any::Any;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Instant;

use shakmaty::Move;

use super::config::{Settings, Steps};
use super::root::{root_keys, root_moves, RootSearch};
use super::shared::Shared;
use super::stats::Stats;
use super::stop::Control;
use super::stop::StopPolicy;
use super::worker::{Published, ThreadData, Worker, WorkerSetup};
use crate::eval::EvaluatorKind;
use crate::memory::THREAD_STACK_BYTES;
use crate::position::Game;

/// What a helper searches: the main thread's root under its settings.
pub(super) struct Job {
    pub game: Game,
    /// Root moves to restrict the search to (empty: all).
    pub searchmoves: Vec<Move>,
    pub shared: Arc<Shared>,
    pub steps: Steps,
    pub settings: Settings,
}

enum Message {
    Search(Arc<Job>),
    /// Forget the history table (a new game).
    Clear,
}

/// A parked helper thread and how to reach it.
struct Helper {
    /// Dropping it ends the thread's loop.
    sender: Option<Sender<Message>>,
    handle: Option<JoinHandle<()>>,
}

impl Drop for Helper {
    fn drop(&mut self) {
        self.sender.take();
        if let Some(handle) = self.handle.take() {
            let _ = handle.join();
        }
    }
}

/// The helper threads of a [`super::Searcher`] (none when it searches with one thread).
pub(super) struct HelperPool {
    helpers: Vec<Helper>,
    /// Each helper's counters, published at every poll, summed into the main thread's reports.
    counters: Vec<Arc<Published>>,
    /// The helpers' stop flag. Only the main thread stops them, once it has decided, so that
    /// `stop`, `ponderhit` and `quit` reach the helpers through it.
    control: Arc<Control>,
    /// Each helper sends its counters here when its search ends.
    results: Receiver<Stats>,
    results_sender: Sender<Stats>,
    /// Helpers that were given the running search and have not reported yet.
    running: usize,
}

impl Default for HelperPool {
    fn default() -> Self {
        let (results_sender, results) = mpsc::channel();
        HelperPool {
            helpers: Vec::new(),
            counters: Vec::new(),
            control: Arc::new(Control::default()),
            results,
            results_sender,
            running: 0,
        }
    }
}

impl HelperPool {
    /// Threads searching, the main thread included.
    pub fn threads(&self) -> usize {
        self.helpers.len() + 1
    }

    /// Starts or ends helpers so that `threads` threads search (between searches only).
    /// When a thread cannot be started, keeps the previous number and says so.
    pub fn set_threads(&mut self, threads: usize) -> Result<(), String> {
        let previous = self.helpers.len();
        let wanted = threads.max(1) - 1;
        self.helpers.truncate(wanted);
        self.counters.truncate(wanted);
        while self.helpers.len() < wanted {
            if let Err(e) = self.spawn() {
                self.helpers.truncate(previous);
                self.counters.truncate(previous);
                return Err(format!("cannot start search thread: {e}"));
            }
        }
        Ok(())
    }

    fn spawn(&mut self) -> std::io::Result<()> {
        let index = self.helpers.len() + 1;
        let (sender, receiver) = mpsc::channel();
        let counters = Arc::new(Published::default());
        let control = Arc::clone(&self.control);
        let results = self.results_sender.clone();
        let published = Arc::clone(&counters);
        let handle = std::thread::Builder::new()
            .name(format!("helper {index}"))
            .stack_size(THREAD_STACK_BYTES)
            .spawn(move || helper_loop(index, &receiver, &control, &published, &results))?;
        self.helpers.push(Helper {
            sender: Some(sender),
            handle: Some(handle),
        });
        self.counters.push(counters);
        Ok(())
    }

    /// The helpers' published counters.
    pub fn counters(&self) -> &[Arc<Published>] {
        &self.counters
    }

    /// Has every helper forget its history table before its next search.
    pub fn clear(&self) {
        for helper in &self.helpers {
            if let Some(sender) = &helper.sender {
                let _ = sender.send(Message::Clear);
            }
        }
    }

    /// Sets the helpers searching `job`.
    pub fn start(&mut self, job: Job) {
        if self.helpers.is_empty() {
            return;
        }
        self.control.begin(false);
        for c in &self.counters {
            c.clear();
        }
        let job = Arc::new(job);
        for helper in &self.helpers {
            let sent = helper
                .sender
                .as_ref()
                .is_some_and(|s| s.send(Message::Search(Arc::clone(&job))).is_ok());
            if sent {
                self.running += 1;
            }
        }
    }

    /// Stops the helpers, waits until every one has let go of the search, and returns their
    /// counters summed.
    pub fn stop(&mut self) -> Stats {
        let mut total = Stats::default();
        if self.running == 0 {
            return total;
        }
        self.control.stop();
        while self.running > 0 {
            match self.results.recv() {
                Ok(stats) => total.absorb(&stats),
                // Never happens: the pool holds a sender itself.
                Err(_) => break,
            }
            self.running -= 1;
        }
        self.running = 0;
        total
    }
}

/// A helper thread: waits for a message, searches or clears, and reports each search's
/// counters. It ends when the pool drops its sender.
fn helper_loop(
    index: usize,
    receiver: &Receiver<Message>,
    control: &Control,
    published: &Published,
    results: &Sender<Stats>,
) {
    let mut thread = ThreadData::new(EvaluatorKind::default(), None);
    while let Ok(message) = receiver.recv() {
        match message {
            Message::Clear => thread.history.clear(),
            Message::Search(job) => {
                let network = job.shared.network.get();
                thread.use_evaluator(job.settings.effective_evaluator(), network.as_ref());
                thread.evaluator.set_checking(job.settings.verify_net);
                let stats = guarded(index, || {
                    helper_search(&job, &mut thread, index, control, published)
                });
                // Let go of the table before reporting, so it can be resized at once.
                drop(job);
                let _ = results.send(stats);
            }
        }
    }
}

/// Runs a helper's search, turning a panic into a failure its counters carry. A panicking
/// helper must still report, or the main thread would wait forever; and it must not pass
/// unseen, or a check that fails only in a helper (the net's, under `verify_net`) would fail
/// nothing. Its history is then only a move ordering hint, safe to keep, and its evaluator is
/// set up afresh at the next root.
fn guarded(index: usize, search: impl FnOnce() -> Stats) -> Stats {
    catch_unwind(AssertUnwindSafe(search)).unwrap_or_else(|panic| Stats {
        helper_failures: vec![format!(
            "helper thread {index} failed: {}",
            panic_message(panic.as_ref())
        )],
        ..Stats::default()
    })
}

/// What a caught panic said: its message, if it carried one.
pub(super) fn panic_message(panic: &(dyn Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".to_string())
}

/// A helper thread's share of a search: iterative deepening over the main thread's root with
/// its own history, evaluator and stack, skipping some depths, reporting nothing, until the
/// main thread stops it (or it runs out of depth). Returns its counters.
fn helper_search(
    job: &Job,
    thread: &mut ThreadData,
    thread_index: usize,
    control: &Control,
    published: &Published,
) -> Stats {
    let game = &job.game;
    let root_moves = root_moves(game, &job.searchmoves);
    if root_moves.is_empty() {
        return Stats::default();
    }
    // A helper's lines are never reported: it searches the best one only.
    let settings = Settings {
        multipv: 1,
        ..job.settings
    };
    let mut worker = Worker::new(WorkerSetup {
        shared: &job.shared,
        thread,
        control,
        keys: root_keys(game),
        steps: job.steps,
        settings,
    });
    worker.thread_index = thread_index;
    worker.published = Some(published);
    worker.stop = StopPolicy::helper();
    let mut silent = ();
    let mut root = RootSearch::new(worker, game, root_moves, Instant::now(), &mut silent);
    root.iterate();
    let (outcome, _) = root.finish();
    published.store(&outcome.stats);
    outcome.stats
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_helper_that_panics_reports_its_message_as_a_failure() {
        let failed = guarded(3, || panic!("incremental and fresh values differ"));
        assert_eq!(
            failed.helper_failures,
            ["helper thread 3 failed: incremental and fresh values differ"]
        );
        let nodes = 7;
        let failed = guarded(2, || panic!("{nodes} nodes"));
        assert_eq!(failed.helper_failures, ["helper thread 2 failed: 7 nodes"]);
        let fine = guarded(1, || Stats {
            nodes,
            ..Stats::default()
        });
        assert_eq!((fine.nodes, fine.helper_failures.len()), (7, 0));
        let mut total = Stats::default();
        total.absorb(&failed);
        total.absorb(&fine);
        assert_eq!((total.nodes, total.helper_failures.len()), (7, 1));
    }
}
