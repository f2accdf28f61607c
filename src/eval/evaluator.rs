//! The one door through which the search evaluates: each search thread owns an [`Evaluator`],
//! asks it for a position's value, and tells it of every move made on the path (the hooks the
//! learned evaluation keeps its per-ply accumulators with; the classical evaluation needs none
//! and only keeps its pawn cache).

use std::sync::Arc;

use shakmaty::Chess;

use super::classical::{self, PawnCache};
use super::nnue::{Accumulators, Network};
use crate::position::MoveDelta;
use crate::types::{Ply, Score};

/// Which evaluation an [`Evaluator`] computes (UCI `Evaluation`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EvaluatorKind {
    /// The hand-written, tuned evaluation of [`classical::evaluate`] (the lab, `eval`'s trace and
    /// `cutoff tune` read it; the search runs it on request).
    Classical,
    /// The learned network of [`super::nnue`]: the default since it beat the classical
    /// evaluation in games (docs/nets.md).
    #[default]
    Net,
}

impl EvaluatorKind {
    /// The evaluation an evaluator asked for `self` computes: the net needs one (`network`),
    /// and without one the evaluation is the classical one. The one place that says so: the
    /// evaluator is built by it, and the searcher reports by it which evaluation runs.
    pub fn with_network(self, network: Option<&Arc<Network>>) -> EvaluatorKind {
        match (self, network) {
            (EvaluatorKind::Net, None) => EvaluatorKind::Classical,
            (kind, _) => kind,
        }
    }
}

/// One search thread's evaluation state: what the chosen evaluation keeps between calls.
pub struct Evaluator {
    kind: EvaluatorKind,
    /// The classical evaluation's pawn-only terms of recent pawn structures.
    pawns: PawnCache,
    /// The network's accumulators along the search path (with `Net` only).
    net: Option<Accumulators>,
    /// Tests: every network evaluation is checked against one from scratch.
    checking: bool,
}

impl Evaluator {
    /// An evaluator of `kind`; `Net` needs a `network` (without one it evaluates classically,
    /// and says so through [`Evaluator::kind`]).
    pub fn new(kind: EvaluatorKind, network: Option<&Arc<Network>>) -> Evaluator {
        let kind = kind.with_network(network);
        let net = match kind {
            EvaluatorKind::Net => network.map(|n| Accumulators::new(Arc::clone(n))),
            EvaluatorKind::Classical => None,
        };
        Evaluator {
            kind,
            pawns: PawnCache::default(),
            net,
            checking: false,
        }
    }

    pub fn kind(&self) -> EvaluatorKind {
        self.kind
    }

    /// The network this evaluator runs, if it is the learned one.
    pub fn network(&self) -> Option<&Arc<Network>> {
        self.net.as_ref().map(Accumulators::network)
    }

    /// Checks every incremental network evaluation against one from scratch (slow: tests).
    pub fn set_checking(&mut self, on: bool) {
        self.checking = on;
    }

    /// The value of `pos` (the node at `ply` of the current path) for the side to move, always
    /// below the tablebase and mate bands, so that no evaluation reads as a proven result.
    #[inline]
    pub fn evaluate(&mut self, pos: &Chess, ply: Ply) -> Score {
        let score = match &self.net {
            None => classical::evaluate_cached(pos, &mut self.pawns),
            Some(acc) => {
                let score = acc.evaluate(ply, pos);
                if self.checking {
                    let fresh = acc.network().evaluate(pos);
                    assert_eq!(score, fresh, "incremental and fresh network values differ");
                }
                score
            }
        };
        score.clamp_to_eval()
    }

    /// A search starts from `root` at ply 0: the accumulators are built from scratch here.
    #[inline]
    pub fn set_root(&mut self, root: &Chess) {
        if let Some(acc) = &mut self.net {
            acc.refresh(root, 0);
        }
    }

    /// A move was played at `ply`, changing the board as `delta` says (the move door's one
    /// breakdown of the move, which the key reads too), giving the position at `ply + 1`,
    /// whose board is `child` (a net of mirrored inputs rebuilds a side from it when its king
    /// crosses the d/e boundary).
    #[inline]
    pub fn on_move(&mut self, delta: MoveDelta, ply: Ply, child: &shakmaty::Board) {
        if let Some(acc) = &mut self.net {
            acc.update(delta, ply, child);
        }
    }

    /// A null move was made at `ply`: the position at `ply + 1` has the same pieces.
    #[inline]
    pub fn on_null_move(&mut self, ply: Ply) {
        if let Some(acc) = &mut self.net {
            acc.copy_to_child(ply);
        }
    }

    /// The move made at `ply` (real or null) was taken back: the accumulators are kept per
    /// ply, so there is nothing to undo.
    #[inline]
    pub fn on_undo(&mut self, _ply: Ply) {}
}

impl Default for Evaluator {
    fn default() -> Self {
        Evaluator::new(EvaluatorKind::default(), None)
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
                    classical::evaluate(&pos),
                    "{fen}, round {round}"
                );
            }
        }
    }

    /// Asked for the net without one, the evaluator stays classical and says so.
    #[test]
    fn the_net_without_a_network_is_the_classical_evaluation() {
        assert_eq!(
            Evaluator::new(EvaluatorKind::Net, None).kind(),
            EvaluatorKind::Classical
        );
    }
}
