//! What bounds a search: the limits of `go`, which the UCI parser reads straight into
//! [`Limits`], both sides' clocks among them. Plain data, which the stop policy (`stop/mod.rs`)
//! and the time budget (`time.rs`) read; the side to move's [`Clock`] is picked here, once.

use std::time::Duration;

use shakmaty::{ByColor, Color, Move};

use crate::types::{Depth, MAX_PLY};

/// The deepest iteration the driver starts.
pub const MAX_DEPTH: Depth = MAX_PLY as Depth - 8;

/// The clocks as `go` gives them: each side's time left (`wtime`, `btime`) and increment
/// (`winc`, `binc`), and the moves to the next time control (`movestogo`). Which side's the
/// search reads is known only at the root (`Clocks::of`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clocks {
    pub time: ByColor<Option<Duration>>,
    pub increment: ByColor<Option<Duration>>,
    pub moves_to_go: Option<u32>,
}

/// The side to move's clock, as the time manager budgets from it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Clock {
    pub time: Duration,
    pub increment: Duration,
    pub moves_to_go: Option<u32>,
}

impl Clocks {
    /// Whether a clock was given (for either side).
    pub fn is_set(&self) -> bool {
        self.time.white.is_some() || self.time.black.is_some()
    }

    /// The clock of `side`, the side to move: its own time, else the other side's (a clock
    /// given only for the other side still bounds the search); its own increment (none: zero);
    /// `movestogo 0` read as not given. `None` without a clock.
    pub(super) fn of(&self, side: Color) -> Option<Clock> {
        let time = self
            .time
            .get(side)
            .or(self.time.white)
            .or(self.time.black)?;
        Some(Clock {
            time,
            increment: self.increment.get(side).unwrap_or_default(),
            moves_to_go: self.moves_to_go.filter(|&n| n > 0),
        })
    }
}

/// What bounds one search. Everything `None`/empty means "search until stopped".
#[derive(Clone, Debug, Default, PartialEq, Eq)]
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
    pub clocks: Clocks,
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
                && !self.clocks.is_set())
    }

    /// Both sides with `ms` on the clock and `inc_ms` of increment (the tests' clock).
    #[cfg(test)]
    pub(crate) fn clock(ms: u64, inc_ms: u64, moves_to_go: Option<u32>) -> Limits {
        let both = |ms| ByColor {
            white: Some(Duration::from_millis(ms)),
            black: Some(Duration::from_millis(ms)),
        };
        Limits {
            clocks: Clocks {
                time: both(ms),
                increment: both(inc_ms),
                moves_to_go,
            },
            ..Limits::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `go wtime 1000 winc 10 btime 2000 binc 20 movestogo 0` read for each side: its own time
    /// and increment; a clock given only for the other side is used; `movestogo 0` is none.
    #[test]
    fn the_side_to_move_reads_its_own_clock_else_the_other_sides() {
        let ms = |ms| Some(Duration::from_millis(ms));
        let both = Clocks {
            time: ByColor {
                white: ms(1000),
                black: ms(2000),
            },
            increment: ByColor {
                white: ms(10),
                black: ms(20),
            },
            moves_to_go: Some(0),
        };
        let black = both.of(Color::Black).unwrap();
        assert_eq!(
            (black.time, black.increment),
            (ms(2000).unwrap(), ms(20).unwrap())
        );
        assert_eq!(both.of(Color::White).unwrap().time, ms(1000).unwrap());
        assert_eq!(black.moves_to_go, None);
        let white_only = Clocks {
            time: ByColor {
                white: ms(1000),
                black: None,
            },
            moves_to_go: Some(5),
            ..Clocks::default()
        };
        let black = white_only.of(Color::Black).unwrap();
        assert_eq!(black.time, ms(1000).unwrap());
        assert_eq!(
            (black.increment, black.moves_to_go),
            (Duration::ZERO, Some(5))
        );
        assert!(Clocks::default().of(Color::White).is_none());
        assert!(!Clocks::default().is_set() && white_only.is_set());
    }
}
