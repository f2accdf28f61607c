//! Move ordering: which moves to try first so that alpha-beta cuts early. The hash move, then
//! captures and promotions by MVV-LVA, then the killer moves, then quiet moves by history:
//! the keys the picker (`movepick`) sorts by, and the buffer it works in.

use arrayvec::ArrayVec;
use shakmaty::{Bitboard, Chess, Color, Move, MoveList, Position, Role};

use super::params::*;
use super::see::see_at_least;
use super::tables::history::{Continuation, History};
use super::tables::tt::PackedMove;

/// Value of a role for MVV-LVA (only the order matters).
const fn role_value(role: Role) -> i32 {
    MVV_LVA_VALUES[role as usize - 1]
}

/// Most Valuable Victim, Least Valuable Attacker: captures of big pieces by small ones first,
/// promotions by the promoted piece. Quiet moves score 0, every capture or promotion above 0.
pub fn mvv_lva(m: &Move) -> i32 {
    let victim = match m {
        Move::EnPassant { .. } => role_value(Role::Pawn),
        _ => m.capture().map_or(0, role_value),
    };
    let promotion = m.promotion().map_or(0, role_value);
    if victim == 0 && promotion == 0 {
        return 0;
    }
    100 * (victim + promotion) - role_value(m.role()) + 100
}

/// Whether a move changes material (a capture or a promotion): the moves quiescence searches
/// and the ones killers and history leave alone.
#[inline]
pub fn is_tactical(m: &Move) -> bool {
    match *m {
        // Most moves: one match instead of shakmaty's two accessors.
        Move::Normal {
            capture, promotion, ..
        } => capture.is_some() || promotion.is_some(),
        _ => m.is_capture() || m.is_promotion(),
    }
}

/// The index of the first of the highest of `keys` (not empty), as the picker selects. One
/// pass, the first of equal keys kept (strictly greater replaces): a vectorized maximum
/// followed by a search for where it occurs mispredicts that search's exit.
#[inline]
pub(super) fn first_highest(keys: &[i32]) -> usize {
    let mut best = 0;
    let mut best_key = keys[0];
    for (i, &k) in keys.iter().enumerate().skip(1) {
        if k > best_key {
            best_key = k;
            best = i;
        }
    }
    best
}

/// How the move picker orders: which of the search's ordering steps are on.
#[derive(Clone, Copy)]
pub struct Heuristics<'a> {
    pub history: &'a History,
    /// The moves before this node, when continuation history is on.
    pub continuation: Option<Continuation>,
    /// Captures are ordered by capture history as well as MVV-LVA.
    pub capture_history: bool,
    pub see_ordering: bool,
    /// The squares the opponent attacks, which key the quiet history (empty when off).
    pub threats: Bitboard,
}

/// The main search's sort key: the table's move, then captures and promotions good by SEE,
/// the killers, the quiet moves by history, and the captures that lose material last.
#[inline]
pub(super) fn main_search_key<'h>(
    pos: &'h Chess,
    tt_move: PackedMove,
    killers: [Option<Move>; 2],
    ordering: Heuristics<'h>,
) -> impl Fn(&Move) -> i32 + 'h {
    let side = pos.turn();
    let history = ordering.history;
    let capture_history = ordering.capture_history.then_some(history);
    let (continuation, threats) = (ordering.continuation, ordering.threats);
    move |m: &Move| {
        if tt_move.matches(*m) {
            ORDER_TT_MOVE
        } else if is_tactical(m) {
            let base = if !ordering.see_ordering || see_at_least(pos, m, 0) {
                ORDER_GOOD_CAPTURE
            } else {
                ORDER_BAD_CAPTURE
            };
            base + capture_key(side, m, capture_history)
        } else if killers[0] == Some(*m) {
            ORDER_FIRST_KILLER
        } else if killers[1] == Some(*m) {
            ORDER_SECOND_KILLER
        } else {
            history.quiet_score(side, m, threats, continuation.as_ref())
        }
    }
}

/// A capture's sort key within its class (good or bad by SEE): MVV-LVA, and with a capture
/// history its history, which may reorder captures of neighbouring victims.
#[inline]
pub(super) fn capture_key(side: Color, m: &Move, capture_history: Option<&History>) -> i32 {
    // An ordinary move, nearly every capture, read in one match, where MVV-LVA and the
    // history's index asked shakmaty's accessors five times (each a match of its own): the
    // same key, a third fewer instructions in keying the captures.
    if let Move::Normal {
        role,
        capture,
        to,
        promotion,
        ..
    } = *m
    {
        let (victim, promoted) = (
            capture.map_or(0, role_value),
            promotion.map_or(0, role_value),
        );
        let mvv_lva = if victim == 0 && promoted == 0 {
            0
        } else {
            100 * (victim + promoted) - role_value(role) + 100
        };
        return match capture_history {
            Some(history) => 8 * mvv_lva + history.capture_score_of(side, role, to, capture) / 4,
            None => mvv_lva,
        };
    }
    match capture_history {
        Some(history) => 8 * mvv_lva(m) + history.capture_score(side, m) / 4,
        None => mvv_lva(m),
    }
}

/// A node's moves and their ordering keys, in the caller's frame. The picker works in it and
/// holds only references: a picker that held its keys (1 KB) was copied whenever it was
/// returned, a `memcpy` per node (about 1.7 % of `cutoff bench 8`'s instructions).
pub struct MoveBuffer {
    pub moves: MoveList,
    /// One key per move, in the moves' order; filled without first zeroing 256 of them.
    pub keys: ArrayVec<i32, 256>,
}

impl MoveBuffer {
    #[inline]
    pub fn new() -> MoveBuffer {
        MoveBuffer {
            moves: MoveList::new(),
            keys: ArrayVec::new(),
        }
    }
}

impl Default for MoveBuffer {
    fn default() -> MoveBuffer {
        MoveBuffer::new()
    }
}

/// The largest history score of a quiet move: butterfly plus two continuation entries.
const QUIET_SCORE_MAX: i32 = 3 * HISTORY_MAX;

// The classes of keys must not overlap: good captures (at least `ORDER_GOOD_CAPTURE` less a
// quarter of the largest capture history) above the killers, the killers above every history
// score, and every bad capture below them.
const _: () = assert!(ORDER_GOOD_CAPTURE - HISTORY_MAX / 4 > ORDER_FIRST_KILLER);
const _: () = assert!(ORDER_SECOND_KILLER > QUIET_SCORE_MAX);
const _: () = assert!(
    ORDER_BAD_CAPTURE + 8 * (100 * 2 * MVV_LVA_VALUES[4] + 100) + HISTORY_MAX / 4
        < -QUIET_SCORE_MAX
);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::pos;

    /// The capture key read in one match is the key of its definition, MVV-LVA and capture
    /// history through shakmaty's accessors, for every tactical move (captures, promotions with
    /// and without capture, en passant) of either side, with a history whose every slot these
    /// moves touch holds a different value.
    #[test]
    fn a_capture_key_is_mvv_lva_and_capture_history_as_defined() {
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N w - - 0 1",
        ];
        let mut history = History::default();
        let mut tactical = 0;
        for (i, fen) in fens.iter().enumerate() {
            let p = pos(fen);
            for (j, m) in p.legal_moves().iter().enumerate() {
                history.update_capture(p.turn(), m, 37 * (i as i32 + 1) + 11 * j as i32);
            }
        }
        for fen in fens {
            let p = pos(fen);
            let side = p.turn();
            for m in p.legal_moves().iter().filter(|m| is_tactical(m)) {
                let defined = 8 * mvv_lva(m) + history.capture_score(side, m) / 4;
                assert_eq!(capture_key(side, m, Some(&history)), defined, "{fen}: {m}");
                assert_eq!(capture_key(side, m, None), mvv_lva(m), "{fen}: {m}");
                assert_ne!(history.capture_score(side, m), 0, "{fen}: {m}");
                tactical += 1;
            }
        }
        assert!(tactical > 40, "{tactical}");
    }
}
