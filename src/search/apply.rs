//! The move doors: the only places the search makes a child position. A real move
//! ([`Worker::visit_child`]) and a null move ([`Worker::visit_null_child`]) each play the move
//! on a copy, compute the child's key (prefetching its table slot), put the key on the
//! repetition stack and the move in the frame, tell the evaluator, run the caller's search of
//! the child, and take all of it back: as Ethereal's `apply` and `revert`, in one place, so
//! that an incremental evaluator or a new per-ply record has one door to hook, not five.

use shakmaty::{Chess, Move, Position};

use super::tables::correction::CorrectionKeys;
use super::tables::history::PieceTo;
use super::worker::Worker;
use crate::position::{key_after, null_move, Key, MoveDelta};
use crate::types::{Ply, Score};

/// The position after the legal move `m` from `pos` (whose key is `key`), and its key: the
/// pure part of the move door, also for looking a move ahead outside the search (a ponder move
/// from the table).
#[inline]
pub(super) fn child_position(pos: &Chess, key: Key, m: Move) -> (Chess, Key) {
    let early = key_after(pos, key, MoveDelta::of(pos, &m));
    let mut child = pos.clone();
    child.play_unchecked(m);
    let child_key = early.finish(&child);
    (child, child_key)
}

impl Worker<'_> {
    /// Plays the legal move `m` from `pos` (the node at `ply`, whose key is `key`) and runs
    /// `search` on the child with its key on the repetition stack, the move in the frame (for
    /// continuation history and the null-move rule below) and the evaluator told; then takes
    /// them back. Returns what `search` returns.
    #[inline]
    pub(super) fn visit_child(
        &mut self,
        pos: &Chess,
        key: Key,
        ply: Ply,
        m: Move,
        search: impl FnOnce(&mut Self, &Chess, Key) -> Score,
    ) -> Score {
        // The move's delta once, for the key and the evaluator; the key first, so that the slot
        // is on its way while the move is played (for every move: the early key is exact but for
        // a double push whose child can take en passant).
        let delta = MoveDelta::of(pos, &m);
        let early = key_after(pos, key, delta);
        self.shared.tt.prefetch(early.key);
        let mut child = pos.clone();
        child.play_unchecked(m);
        // The child's correction keys, found once here: the prefetch, its static evaluation
        // and its update read them from its frame.
        let correction_keys = CorrectionKeys::of(&child);
        self.stack[ply + 1].correction_keys = correction_keys;
        self.history.correction.prefetch(
            &correction_keys,
            child.turn(),
            self.steps.correction_tables(),
        );
        let child_key = early.finish(&child);
        self.keys.push(child_key);
        self.stack[ply].moved = Some(PieceTo::of(pos.turn(), &m));
        self.evaluator.on_move(delta, ply, child.board());
        let score = search(self, &child, child_key);
        self.evaluator.on_undo(ply);
        self.keys.pop();
        score
    }

    /// Passes (a null move) from `pos` (the node at `ply`, whose key is `key`) and runs
    /// `search` on the child. The positions before it cannot be repeated through it, and the
    /// frame records no move (so the child passes no more). `None` in check, where passing is
    /// illegal.
    #[inline]
    pub(super) fn visit_null_child(
        &mut self,
        pos: &Chess,
        key: Key,
        ply: Ply,
        search: impl FnOnce(&mut Self, &Chess, Key) -> Score,
    ) -> Option<Score> {
        let (child, child_key) = null_move(pos, key)?;
        let floor = std::mem::replace(&mut self.repetition_floor, self.keys.len());
        self.keys.push(child_key);
        self.stack[ply].moved = None;
        self.stack[ply + 1].correction_keys = self.stack[ply].correction_keys;
        self.evaluator.on_null_move(ply);
        let score = search(self, &child, child_key);
        self.evaluator.on_undo(ply);
        self.keys.pop();
        self.repetition_floor = floor;
        Some(score)
    }
}
