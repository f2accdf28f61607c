//! The rules' own ends of a node, found before or instead of searching its moves: a repeated
//! position, too little material to mate, the fifty-move rule, and no legal move (mate or
//! stalemate).

use shakmaty::{Chess, Position};

use super::worker::Worker;
use crate::types::{Ply, Score};

impl Worker<'_> {
    /// Whether the position on top of the key stack occurred before, since the last
    /// irreversible move. One repetition is scored as a draw: if repeating is good for one
    /// side, it can repeat again.
    pub(super) fn is_repetition(&self, pos: &Chess) -> bool {
        let n = self.keys.len();
        let current = self.keys[n - 1];
        let reversible = (pos.halfmoves() as usize).min(n - 1 - self.repetition_floor);
        let mut back = 4;
        while back <= reversible {
            if self.keys[n - 1 - back] == current {
                return true;
            }
            back += 2;
        }
        false
    }
}

/// The value of a node with no legal move: mated in check, else stalemate.
#[inline]
pub(super) fn no_legal_move(in_check: bool, ply: Ply) -> Score {
    if in_check {
        Score::mated_in(ply)
    } else {
        Score::DRAW
    }
}

/// The fifty-move rule's draw, after mate (which takes precedence): only a side in check can
/// be mated, so only then are the moves generated to tell. `None` while the rule is not due.
#[inline]
pub(super) fn fifty_move_rule(pos: &Chess, in_check: bool, ply: Ply) -> Option<Score> {
    if pos.halfmoves() < 100 {
        return None;
    }
    Some(if in_check && pos.legal_moves().is_empty() {
        no_legal_move(in_check, ply)
    } else {
        Score::DRAW
    })
}

/// Insufficient material to mate (shakmaty's rule), tested only when few pieces are left.
#[inline]
pub(super) fn is_dead_draw(pos: &Chess) -> bool {
    pos.board().occupied().count() <= 4 && pos.is_insufficient_material()
}
