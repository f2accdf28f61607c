//! What bounds a search: the limits of `go` and the side to move's clock. Plain data, which
//! the stop policy (`stop/mod.rs`) and the time budget (`time.rs`) read.

use std::time::Duration;

use shakmaty::Move;

use crate::types::{Depth, MAX_PLY};

/// The deepest iteration the driver starts.
pub const MAX_DEPTH: Depth = MAX_PLY as Depth - 8;

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
    /// Start no new iteration once this many nodes are searched (data generation's soft limit:
    /// every move ends on a completed depth, unlike the hard `nodes` limit).
    pub soft_nodes: Option<u64>,
    /// `go mate N`: stop as soon as an iteration proves a mate in at most N moves. It sets no
    /// depth: pruning can hide a mate at the nominal depth 2N - 1, so iterations go on (like
    /// `go infinite`, within the other limits) until the mate shows or the search is stopped.
    pub mate: Option<u32>,
    pub movetime: Option<Duration>,
    pub clock: Option<Clock>,
    /// `go infinite`: never stop on your own; only `stop` ends it.
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

    /// Whether only `stop` can be counted on to end the search: `go infinite`, a bare `go`, or
    /// `go mate` alone (the mate may not exist). The UCI loop stops such a search at end of input.
    pub fn is_endless(&self) -> bool {
        self.infinite
            || (self.depth.is_none()
                && self.nodes.is_none()
                && self.soft_nodes.is_none()
                && self.movetime.is_none()
                && self.clock.is_none())
    }
}
