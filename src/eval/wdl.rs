//! Win/draw/loss odds from a score (UCI `UCI_ShowWDL`): Stockfish's model, fitted to Cutoff's
//! own self-play games by `tools/wdl_fit.py` (docs/wdl.md). From the side to move's view, with
//! `v` the score in centipawns and `m` the material on the board (pawn 1, minor 3, rook 5,
//! queen 9, clamped to 17..=78, over 58): `win = 1 / (1 + e^((a(m) − v) / b(m)))`, `loss` the
//! same at `−v`, `draw` the rest; `a` and `b` cubic in `m`.
//!
//! A model belongs to an evaluation: its scores are what it was fitted on, so the net and the
//! classical evaluation each have their own.

use shakmaty::{Board, Role};

use super::evaluator::EvaluatorKind;
use crate::types::Score;

/// One evaluation's fitted model: the coefficients of `a(m)` and `b(m)`, constant term first.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WdlModel {
    pub a: [f64; 4],
    pub b: [f64; 4],
}

/// The classical evaluation's model (`tools/wdl_fit.py`, docs/wdl.md: 430,503 positions of
/// `Bench: 2266636` self-play at 5,000 nodes a move; on 49,497 held-out positions log-loss
/// 0.668 against 1.095 for the result frequencies alone, Brier 0.374 against 0.664).
pub const CLASSICAL: WdlModel = WdlModel {
    a: [308.286, -370.708, 67.339, 63.403],
    b: [83.357, 6.983, -31.577, 34.984],
};

/// The built-in net's model (`tools/wdl_fit.py`, docs/wdl.md): fitted on 499,495 positions of
/// two chunks of `Bench: 1484865` self-play with generation 3's final net at 5,000 nodes a move
/// (`data/selfplay-1484865-s9632.vf`, `-s9633.vf`). On the 55,549 held-out positions (one game
/// in ten) log-loss 0.5192 and Brier 0.3082, against 0.5240 and 0.3104 for the third net's model
/// it replaces, and better on each chunk's held-out games alone.
pub const NET: WdlModel = WdlModel {
    a: [284.928, -299.892, 47.567, 40.397],
    b: [50.676, 44.476, -17.295, 4.214],
};

/// The model of an evaluation, if it has one (both have).
pub fn model(kind: EvaluatorKind) -> Option<&'static WdlModel> {
    match kind {
        EvaluatorKind::Classical => Some(&CLASSICAL),
        EvaluatorKind::Net => Some(&NET),
    }
}

/// The material count the model reads: pawn 1, knight and bishop 3, rook 5, queen 9.
pub fn material(board: &Board) -> i32 {
    let count = |role: Role| board.by_role(role).count() as i32;
    count(Role::Pawn)
        + 3 * (count(Role::Knight) + count(Role::Bishop))
        + 5 * count(Role::Rook)
        + 9 * count(Role::Queen)
}

impl WdlModel {
    fn params(&self, material: i32) -> (f64, f64) {
        let m = f64::from(material.clamp(17, 78)) / 58.0;
        let poly = |c: &[f64; 4]| c[0] + m * (c[1] + m * (c[2] + m * c[3]));
        (poly(&self.a), poly(&self.b).max(1.0))
    }

    /// The chance in per mille that the side to move wins with `cp`, at `material`.
    fn win_per_mille(&self, cp: f64, material: i32) -> f64 {
        let (a, b) = self.params(material);
        1000.0 / (1.0 + ((a - cp) / b).exp())
    }

    /// Win, draw and loss per mille for the side to move, summing to 1000. Proven results
    /// (mates, tablebase wins and losses) are certain.
    pub fn wdl(&self, score: Score, material: i32) -> (u32, u32, u32) {
        if score.is_decisive() {
            return if score > Score::ZERO {
                (1000, 0, 0)
            } else {
                (0, 0, 1000)
            };
        }
        let cp = f64::from(score.0);
        let win = self.win_per_mille(cp, material).round() as u32;
        let loss = self.win_per_mille(-cp, material).round() as u32;
        let (win, loss) = (win.min(1000), loss.min(1000 - win.min(1000)));
        (win, 1000 - win - loss, loss)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both evaluations' models, at every material.
    #[test]
    fn the_odds_sum_to_1000_and_rise_with_the_score() {
        for kind in [EvaluatorKind::Classical, EvaluatorKind::Net] {
            let model = model(kind).unwrap();
            for material in [0, 17, 30, 58, 78, 100] {
                let mut last_win = 0;
                let mut last_loss = 1000;
                for cp in (-1500..=1500).step_by(25) {
                    let (w, d, l) = model.wdl(Score(cp), material);
                    assert_eq!(w + d + l, 1000, "{kind:?}: {cp} cp at {material}");
                    assert!(
                        w >= last_win && l <= last_loss,
                        "{kind:?}: {cp} cp at {material}"
                    );
                    (last_win, last_loss) = (w, l);
                }
                let (w, d, _) = model.wdl(Score(0), material);
                assert!(w < 500 && d > 0, "{kind:?}: an equal score is no win");
            }
            assert_eq!(model.wdl(Score::mate_in(3), 40), (1000, 0, 0));
            assert_eq!(model.wdl(Score::tb_loss_in(3), 40), (0, 0, 1000));
            let (w, _, l) = model.wdl(Score(0), 58);
            assert_eq!(w, l, "an equal score is as likely won as lost");
        }
    }

    /// The net's model says what `tools/wdl_fit.py` printed for its fit (docs/wdl.md): the
    /// coefficients were copied whole.
    #[test]
    fn the_net_model_reads_as_its_fit_printed() {
        let printed = [
            (30, [106, 334, 678], [106, 28, 7]),
            (58, [291, 582, 825], [291, 108, 35]),
            (78, [324, 594, 817], [324, 135, 49]),
        ];
        for (material, wins, losses) in printed {
            for (i, cp) in [0, 100, 200].into_iter().enumerate() {
                let (w, _, l) = NET.wdl(Score(cp), material);
                assert_eq!((w, l), (wins[i], losses[i]), "{cp} cp at {material}");
            }
        }
    }

    /// The model as written in the fit's terms (a plain reference, every term spelled out).
    #[test]
    fn the_model_agrees_with_a_plain_reference() {
        let reference = |cp: f64, material: f64| {
            let m = material.clamp(17.0, 78.0) / 58.0;
            let a = 308.286 - 370.708 * m + 67.339 * m * m + 63.403 * m * m * m;
            let b = 83.357 + 6.983 * m - 31.577 * m * m + 34.984 * m * m * m;
            (
                1000.0 / (1.0 + ((a - cp) / b).exp()),
                1000.0 / (1.0 + ((a + cp) / b).exp()),
            )
        };
        for (cp, material) in [(0, 58), (100, 58), (250, 30), (-80, 70), (600, 20)] {
            let (w, _, l) = CLASSICAL.wdl(Score(cp), material);
            let (rw, rl) = reference(f64::from(cp), f64::from(material));
            assert_eq!(w, rw.round() as u32, "{cp} at {material}");
            assert_eq!(l, rl.round() as u32, "{cp} at {material}");
        }
    }
}
