//! The one door through which the search evaluates: each search thread owns an [`Evaluator`],
//! asks it for a position's value, and tells it of every move made and taken back on the
//! path (the hooks an incremental evaluator keeps its per-ply state with; the classical
//! evaluation needs none and only keeps its pawn cache).

use shakmaty::{Chess, Move};

use super::pawns::PawnCache;
use crate::types::{Ply, Score};

/// Which evaluation an [`Evaluator`] computes (UCI `Evaluation`, once there is a choice).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EvaluatorKind {
    /// The hand-written, tuned evaluation of [`super::evaluate`].
    #[default]
    Classical,
}

/// One search thread's evaluation state: what the chosen evaluation keeps between calls.
pub struct Evaluator {
    kind: EvaluatorKind,
    /// The classical evaluation's pawn-only terms of recent pawn structures.
    pawns: PawnCache,
}

impl Evaluator {
    pub fn new(kind: EvaluatorKind) -> Evaluator {
        Evaluator {
            kind,
            pawns: PawnCache::default(),
        }
    }

    pub fn kind(&self) -> EvaluatorKind {
        self.kind
    }

    /// The value of `pos` (the node at `ply` of the current path) for the side to move, always
    /// below the tablebase and mate bands, so that no evaluation reads as a proven result.
    #[inline]
    pub fn evaluate(&mut self, pos: &Chess, _ply: Ply) -> Score {
        let score = match self.kind {
            EvaluatorKind::Classical => super::evaluate_cached(pos, &mut self.pawns),
        };
        score.clamp_to_eval()
    }

    /// A search starts from `root` at ply 0: an incremental evaluator builds its state from
    /// scratch here.
    #[inline]
    pub fn set_root(&mut self, _root: &Chess) {}

    /// `m` was played from `parent` (at `ply`), giving `child` at `ply + 1`.
    #[inline]
    pub fn on_move(&mut self, _parent: &Chess, _m: &Move, _child: &Chess, _ply: Ply) {}

    /// A null move was made at `ply`: the position at `ply + 1` has the same pieces.
    #[inline]
    pub fn on_null_move(&mut self, _ply: Ply) {}

    /// The move made at `ply` (real or null) was taken back.
    #[inline]
    pub fn on_undo(&mut self, _ply: Ply) {}
}

impl Default for Evaluator {
    fn default() -> Self {
        Evaluator::new(EvaluatorKind::default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::{read_fen, FenPolicy};
    use shakmaty::CastlingMode;

    /// The evaluator's cached value is the plain evaluation's, whatever it saw before.
    #[test]
    fn the_classical_evaluator_gives_the_plain_evaluation() {
        let mut evaluator = Evaluator::default();
        let fens = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 b - - 0 1",
            "4k3/pp6/8/8/8/8/PP6/4K3 w - - 0 1",
        ];
        for round in 0..2 {
            for fen in fens {
                let pos = read_fen(fen, CastlingMode::Standard, FenPolicy::Strict).unwrap();
                assert_eq!(
                    evaluator.evaluate(&pos, 0),
                    super::super::evaluate(&pos),
                    "{fen}, round {round}"
                );
            }
        }
    }
}
