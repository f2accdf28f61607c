//! Move ordering: which moves to try first so that alpha-beta cuts early. The hash move, then
//! captures and promotions by MVV-LVA, then the killer moves, then quiet moves by history.

use shakmaty::{Chess, Color, Move, MoveList, Position, Role};

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
    m.is_capture() || m.is_promotion()
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

/// How often a quiet move (by side, from- and to-square) caused cutoffs, ageing as it goes.
pub struct History(Box<[[[i32; 64]; 64]; 2]>);

impl Default for History {
    fn default() -> Self {
        History(Box::new([[[0; 64]; 64]; 2]))
    }
}

impl History {
    #[inline]
    fn slot(&mut self, side: Color, m: &Move) -> &mut i32 {
        let from = m.from().map_or(0, usize::from);
        &mut self.0[side as usize][from][usize::from(m.to())]
    }

    #[inline]
    pub fn get(&self, side: Color, m: &Move) -> i32 {
        let from = m.from().map_or(0, usize::from);
        self.0[side as usize][from][usize::from(m.to())]
    }

    /// Rewards (positive `bonus`) or punishes a move; the "gravity" term keeps values within
    /// `HISTORY_MAX` and lets old knowledge fade.
    pub fn update(&mut self, side: Color, m: &Move, bonus: i32) {
        let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        let h = self.slot(side, m);
        *h += bonus - *h * bonus.abs() / HISTORY_MAX;
    }

    /// The bonus for a cutoff at `depth`: deeper cutoffs save more work.
    pub fn bonus(depth: Depth) -> i32 {
        (depth * depth * history_bonus_scale()).min(HISTORY_MAX)
    }

    pub fn clear(&mut self) {
        *self.0 = [[[0; 64]; 64]; 2];
    }
}

/// Legal moves with their ordering keys, handed out best first by selection: at a node that
/// cuts after one or two moves the rest are never sorted. The moves stay in the caller's list
/// (reordered there): a list is over a kilobyte, and the picker is built at every node.
pub struct MovePicker<'a> {
    moves: &'a mut MoveList,
    keys: [i32; 256],
    next: usize,
}

impl<'a> MovePicker<'a> {
    /// Orders all moves (main search).
    #[inline]
    pub fn new(
        pos: &Chess,
        moves: &'a mut MoveList,
        tt_move: PackedMove,
        killers: [Option<Move>; 2],
        history: &History,
        see_ordering: bool,
    ) -> MovePicker<'a> {
        let side = pos.turn();
        let mut keys = [0; 256];
        for (key, m) in keys.iter_mut().zip(moves.iter()) {
            *key = if tt_move.matches(*m) {
                ORDER_TT_MOVE
            } else if is_tactical(m) {
                let base = if !see_ordering || see_at_least(pos, m, 0) {
                    ORDER_GOOD_CAPTURE
                } else {
                    ORDER_BAD_CAPTURE
                };
                base + mvv_lva(m)
            } else if killers[0] == Some(*m) {
                ORDER_FIRST_KILLER
            } else if killers[1] == Some(*m) {
                ORDER_SECOND_KILLER
            } else {
                history.get(side, m)
            };
        }
        MovePicker {
            moves,
            keys,
            next: 0,
        }
    }

    /// Orders by MVV-LVA only (quiescence: the captures and queen promotions of
    /// `position::tactical_moves`, or in check every evasion).
    #[inline]
    pub fn by_mvv_lva(moves: &'a mut MoveList) -> MovePicker<'a> {
        let mut keys = [0; 256];
        for (key, m) in keys.iter_mut().zip(moves.iter()) {
            *key = mvv_lva(m);
        }
        MovePicker {
            moves,
            keys,
            next: 0,
        }
    }

    pub fn len(&self) -> usize {
        self.moves.len()
    }

    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }
}

impl Iterator for MovePicker<'_> {
    type Item = Move;

    #[inline]
    fn next(&mut self) -> Option<Move> {
        let n = self.moves.len();
        if self.next >= n {
            return None;
        }
        // The first of the highest keys: the maximum in one pass the compiler vectorizes, then
        // where it first occurs.
        let keys = &self.keys[self.next..n];
        let best_key = keys.iter().copied().fold(i32::MIN, i32::max);
        let offset = keys.iter().position(|&k| k == best_key).unwrap_or(0);
        let best = self.next + offset;
        self.moves.swap(self.next, best);
        self.keys.swap(self.next, best);
        self.next += 1;
        Some(self.moves[self.next - 1])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Chess, Position};

    #[test]
    fn captures_of_big_pieces_by_small_ones_come_first() {
        // White can take the queen on d5 with the pawn (e4) or the knight (c3), or a pawn on a5.
        let pos: Chess = "4k3/8/8/p2q4/4P3/2N5/8/4K3 w - - 0 1"
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        let mut moves = pos.legal_moves();
        let mut picker = MovePicker::new(
            &pos,
            &mut moves,
            PackedMove::NONE,
            [None; 2],
            &History::default(),
            true,
        );
        let first = picker.next().unwrap();
        assert_eq!(first.to_string(), "e4xd5");
        let second = picker.next().unwrap();
        assert_eq!(second.to_string(), "Nc3xd5");
    }

    /// With SEE ordering on, a losing capture goes after every quiet move; off, captures all
    /// come first by MVV-LVA.
    #[test]
    fn losing_captures_go_after_quiet_moves_only_with_see_ordering() {
        // Qxd5 wins a pawn but loses the queen to the e6 pawn.
        let pos: Chess = "4k3/8/4p3/3p4/8/8/8/3QK3 w - - 0 1"
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        for see_ordering in [true, false] {
            let mut moves = pos.legal_moves();
            let picker = MovePicker::new(
                &pos,
                &mut moves,
                PackedMove::NONE,
                [None; 2],
                &History::default(),
                see_ordering,
            );
            let order: Vec<String> = picker.map(|m| m.to_string()).collect();
            let expected_at = if see_ordering { order.len() - 1 } else { 0 };
            assert_eq!(order[expected_at], "Qd1xd5", "{see_ordering}: {order:?}");
        }
    }

    /// The selection the picker started with: scan for the first highest key, swap it to the
    /// front. Its order among equal keys is what `Bench: N` was measured with.
    fn reference_order(mut moves: Vec<Move>, mut keys: Vec<i32>) -> Vec<Move> {
        for next in 0..moves.len() {
            let mut best = next;
            for i in next + 1..moves.len() {
                if keys[i] > keys[best] {
                    best = i;
                }
            }
            moves.swap(next, best);
            keys.swap(next, best);
        }
        moves
    }

    /// Faster selection must not change the order, ties included (many moves share a history
    /// score of 0): the same keys, the same moves in the same order as the reference.
    #[test]
    fn selection_order_matches_the_reference_with_ties() {
        let moves = Chess::default().legal_moves();
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        for round in 0..2000 {
            let n = 1 + round % moves.len();
            let spread = [1, 2, 3, 1000][round % 4];
            let keys: Vec<i32> = (0..n)
                .map(|_| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    (state % spread) as i32 - 1
                })
                .collect();
            let mut list = moves.iter().take(n).copied().collect();
            let mut picker = MovePicker::by_mvv_lva(&mut list);
            picker.keys[..n].copy_from_slice(&keys);
            let expected = reference_order(moves[..n].to_vec(), keys);
            assert_eq!(picker.collect::<Vec<_>>(), expected, "round {round}");
        }
    }

    #[test]
    fn tt_move_comes_first_even_if_quiet() {
        let pos = Chess::default();
        let mut moves = pos.legal_moves();
        let wanted = moves[7];
        let mut picker = MovePicker::new(
            &pos,
            &mut moves,
            PackedMove::new(wanted),
            [None; 2],
            &History::default(),
            true,
        );
        assert_eq!(picker.next(), Some(wanted));
        assert_eq!(picker.count(), 19);
    }
}
