//! One `go`'s search, run on the search thread: what the session hands over (the searcher, the
//! game, the limits, the settings), and the answer printed once the search is done (failures,
//! the statistics, `bestmove`).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use super::info::UciReporter;
use super::output::{send, send_error};
use crate::eval::wdl::WdlModel;
use crate::memory::THREAD_STACK_BYTES;
use crate::position::Game;
use crate::search::{Control, Limits, Searcher, Settings};

/// How deep a search goes when no thread could be started for it and it runs on the input
/// thread, which cannot read `stop` meanwhile: a legal move at once (milliseconds), whatever
/// the `go` asked.
pub(super) const FALLBACK_DEPTH: i32 = 1;

/// One `go`'s search and its answer, run on the search thread (or, when that cannot start,
/// on the input thread as [`SearchTask::fallback`]).
pub(super) struct SearchTask {
    pub searcher: Arc<Mutex<Searcher>>,
    pub game: Game,
    pub limits: Limits,
    /// The stop and ponder flags the input thread sets.
    pub control: Arc<Control>,
    /// The settings of this search (the options at the `go`).
    pub config: Settings,
    /// With `UCI_ShowWDL`: the evaluation's model and the root's material.
    pub wdl: Option<(&'static WdlModel, i32)>,
    /// Cleared once the move is decided, before `bestmove` is printed.
    pub searching: Arc<AtomicBool>,
}

impl SearchTask {
    /// Runs the search on a thread of its own, whose handle it returns. Where no thread can be
    /// started, `go` is answered anyway (a GUI waiting for `bestmove` would lose on time): by a
    /// [`SearchTask::fallback`] on this thread, which cannot read `stop` while it searches, so
    /// the search is a short one; then there is no thread (`None`).
    pub fn start(self) -> Option<JoinHandle<()>> {
        let fallback = self.fallback();
        let spawned = std::thread::Builder::new()
            .name("search".into())
            .stack_size(THREAD_STACK_BYTES)
            .spawn(move || self.run());
        match spawned {
            Ok(handle) => Some(handle),
            Err(e) => {
                fallback.control.begin(false);
                send_error(&format!(
                    "cannot start the search thread: {e}; answering from a depth-{} search on \
                     the input thread",
                    FALLBACK_DEPTH
                ));
                fallback.run();
                None
            }
        }
    }

    /// The same search bounded to [`FALLBACK_DEPTH`], not pondering: it ends on its own.
    fn fallback(&self) -> SearchTask {
        SearchTask {
            searcher: Arc::clone(&self.searcher),
            game: self.game.clone(),
            limits: Limits {
                depth: Some(FALLBACK_DEPTH),
                searchmoves: self.limits.searchmoves.clone(),
                ..Limits::default()
            },
            control: Arc::clone(&self.control),
            config: self.config,
            wdl: self.wdl,
            searching: Arc::clone(&self.searching),
        }
    }

    /// Searches, then prints the statistics and `bestmove`.
    pub fn run(self) {
        let SearchTask {
            searcher,
            game,
            limits,
            control,
            config,
            wdl,
            searching,
        } = self;
        let mut searcher = searcher.lock().unwrap_or_else(|e| e.into_inner());
        searcher.set_settings(config);
        let mut reporter = UciReporter {
            mode: game.castling_mode,
            wdl,
        };
        let outcome = searcher.search(&game, &limits, &control, &mut reporter);
        searching.store(false, Ordering::SeqCst);
        for failure in &outcome.stats.helper_failures {
            send_error(&format!("{failure}; the move is the main thread's"));
        }
        if let Some(failure) = &outcome.failure {
            send_error(&format!(
                "{failure}; the move is the last one it reported, else the first legal one"
            ));
        }
        send(&format!(
            "info string {}",
            outcome.stats.summary(outcome.elapsed)
        ));
        match outcome.best_move {
            Some(best) => {
                let mut line = format!("bestmove {}", game.uci(best));
                if let Some(reply) = outcome.ponder_move {
                    line += &format!(" ponder {}", game.uci(reply));
                }
                send(&line);
            }
            None => {
                send(&format!("info depth 0 score {}", outcome.score));
                send("bestmove (none)");
            }
        }
    }
}
