//! Move ordering: which moves to try first so that alpha-beta cuts early. The hash move, then
//! captures and promotions by MVV-LVA, then the killer moves, then quiet moves by history.

use arrayvec::ArrayVec;
use shakmaty::{Chess, Color, Move, MoveList, Position, Role};

use super::correction::CorrectionHistory;
use super::see::see_at_least;

use crate::params::*;
use crate::tt::PackedMove;
use crate::types::Depth;

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

/// The two quiet moves that last caused a beta cutoff at one ply elsewhere in the tree
/// (siblings often share a refutation), the newest first.
#[derive(Clone, Copy, Debug, Default)]
pub struct Killers([Option<Move>; 2]);

impl Killers {
    #[inline]
    pub fn get(&self) -> [Option<Move>; 2] {
        self.0
    }

    #[inline]
    pub fn add(&mut self, m: Move) {
        if self.0[0] != Some(m) {
            self.0[1] = self.0[0];
            self.0[0] = Some(m);
        }
    }
}

/// A piece of one colour arriving on a square (12 × 64 values): what the continuation and
/// capture histories are keyed by, since "a knight to f5" means more than "g3 to f5".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceTo(u16);

/// The number of [`PieceTo`] values.
const PIECE_TO: usize = 12 * 64;

impl PieceTo {
    #[inline]
    pub fn of(side: Color, m: &Move) -> PieceTo {
        PieceTo::new(side, m.role(), usize::from(m.to()))
    }

    /// A `side` `role` arriving on square index `to`.
    #[inline]
    fn new(side: Color, role: Role, to: usize) -> PieceTo {
        let piece = side as usize * 6 + (role as usize - 1);
        PieceTo((piece * 64 + to) as u16)
    }

    #[inline]
    fn index(self) -> usize {
        usize::from(self.0)
    }
}

/// The moves that led to a node, newest first: the opponent's last move and ours before it
/// (`None` after a null move or near the root). Continuation history scores a quiet move by
/// how well it answered the same moves elsewhere in the tree.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Continuation(pub [Option<PieceTo>; 2]);

/// Moves a gravity entry towards `bonus`'s sign: `entry` stays within `HISTORY_MAX`, and
/// old knowledge fades as new arrives.
#[inline]
fn gravity(entry: &mut i16, bonus: i32) {
    let e = i32::from(*entry);
    *entry = (e + bonus - e * bonus.abs() / HISTORY_MAX) as i16;
}

/// What the search learnt about moves, kept from one search to the next: how often a quiet
/// move (by side, from- and to-square) caused cutoffs (the butterfly history), the same after
/// each of the two moves before it (continuation history), and how often a capture (by piece,
/// square and victim) did (capture history). Every value ages by gravity.
pub struct History {
    quiet: Box<[[[i32; 64]; 64]; 2]>,
    /// Indexed by the earlier move's [`PieceTo`], then this move's.
    continuation: Box<[[i16; PIECE_TO]]>,
    /// Indexed by the capture's [`PieceTo`], then the victim's role (0: none, a promotion).
    capture: Box<[[i16; 7]]>,
    /// Not about moves, but learnt and kept the same way: the evaluation's errors.
    pub correction: CorrectionHistory,
}

impl Default for History {
    fn default() -> Self {
        // Built on the heap: the continuation table (1.2 MB) would not fit a test thread's stack.
        History {
            quiet: Box::new([[[0; 64]; 64]; 2]),
            continuation: vec![[0; PIECE_TO]; PIECE_TO].into_boxed_slice(),
            capture: vec![[0; 7]; PIECE_TO].into_boxed_slice(),
            correction: CorrectionHistory::default(),
        }
    }
}

impl History {
    #[inline]
    fn slot(&mut self, side: Color, m: &Move) -> &mut i32 {
        let from = m.from().map_or(0, usize::from);
        &mut self.quiet[side as usize][from][usize::from(m.to())]
    }

    /// The butterfly history of a quiet move.
    #[inline]
    pub fn get(&self, side: Color, m: &Move) -> i32 {
        let from = m.from().map_or(0, usize::from);
        self.quiet[side as usize][from][usize::from(m.to())]
    }

    /// A quiet move's ordering score: its butterfly history plus, with `continuation`, its
    /// history after each of the moves that led here.
    #[inline]
    pub fn quiet_score(&self, side: Color, m: &Move, context: Option<&Continuation>) -> i32 {
        // One match on the move for all three tables (shakmaty's accessors each match again).
        let (role, from, to) = match *m {
            Move::Normal { role, from, to, .. } => (role, usize::from(from), usize::from(to)),
            _ => (
                m.role(),
                m.from().map_or(0, usize::from),
                usize::from(m.to()),
            ),
        };
        // Squares are below 64: the masks let the compiler drop the bounds checks.
        let mut score = self.quiet[side as usize][from & 63][to & 63];
        if let Some(&Continuation([previous, before])) = context {
            // The two entries read one by one (a loop over them cost a third of the call).
            let piece_to = PieceTo::new(side, role, to & 63).index();
            if let Some(prev) = previous {
                score += i32::from(self.continuation[prev.index()][piece_to]);
            }
            if let Some(prev) = before {
                score += i32::from(self.continuation[prev.index()][piece_to]);
            }
        }
        score
    }

    /// A capture's (or promotion's) history.
    #[inline]
    pub fn capture_score(&self, side: Color, m: &Move) -> i32 {
        i32::from(self.capture[PieceTo::of(side, m).index()][victim_index(m)])
    }

    /// Rewards (positive `bonus`) or punishes a move; the "gravity" term keeps values within
    /// `HISTORY_MAX` and lets old knowledge fade.
    pub fn update(&mut self, side: Color, m: &Move, bonus: i32) {
        let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        let h = self.slot(side, m);
        *h += bonus - *h * bonus.abs() / HISTORY_MAX;
    }

    /// Rewards or punishes a quiet move after the moves in `context`.
    pub fn update_continuation(
        &mut self,
        side: Color,
        m: &Move,
        context: &Continuation,
        bonus: i32,
    ) {
        let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        let to = PieceTo::of(side, m).index();
        for prev in context.0.iter().flatten() {
            gravity(&mut self.continuation[prev.index()][to], bonus);
        }
    }

    /// Rewards or punishes a capture or promotion.
    pub fn update_capture(&mut self, side: Color, m: &Move, bonus: i32) {
        let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        let slot = &mut self.capture[PieceTo::of(side, m).index()][victim_index(m)];
        gravity(slot, bonus);
    }

    /// The bonus for a cutoff at `depth`: deeper cutoffs save more work.
    pub fn bonus(depth: Depth) -> i32 {
        (depth * depth * history_bonus_scale()).min(HISTORY_MAX)
    }

    pub fn clear(&mut self) {
        *self.quiet = [[[0; 64]; 64]; 2];
        self.continuation.fill([0; PIECE_TO]);
        self.capture.fill([0; 7]);
        self.correction.clear();
    }
}

/// The capture history's victim index: the captured role (a pawn for en passant), 0 for none.
#[inline]
fn victim_index(m: &Move) -> usize {
    match m {
        Move::EnPassant { .. } => Role::Pawn as usize,
        _ => m.capture().map_or(0, |r| r as usize),
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
    let continuation = ordering.continuation;
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
            history.quiet_score(side, m, continuation.as_ref())
        }
    }
}

/// A capture's sort key within its class (good or bad by SEE): MVV-LVA, and with a capture
/// history its history, which may reorder captures of neighbouring victims.
#[inline]
pub(super) fn capture_key(side: Color, m: &Move, capture_history: Option<&History>) -> i32 {
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
