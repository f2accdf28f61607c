//! Static evaluation: material plus tapered piece-square tables.
//!
//! Every piece contributes a middlegame and an endgame value; the two sums are blended by the
//! game phase (how much non-pawn material is left), so that, say, the king hides in the
//! middlegame and walks to the centre in the endgame without a jump in between.

pub mod pst;
pub mod weights;

use shakmaty::{Chess, Color, Position};

use crate::types::Score;
use pst::{Taper, MAX_PHASE};

/// The parts of an evaluation, for the `eval` debugging command.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Breakdown {
    /// White's middlegame and endgame sums minus Black's.
    pub white_minus_black: Taper,
    /// 0 (bare kings and pawns) to `MAX_PHASE` (all pieces on the board).
    pub phase: i32,
    /// The blended value from White's side.
    pub white: i32,
}

/// Evaluates the board from White's side.
pub fn breakdown(pos: &Chess) -> Breakdown {
    let board = pos.board();
    let mut sum = Taper::default();
    let mut phase = 0;
    for (square, piece) in board {
        let (sign, sq) = match piece.color {
            Color::White => (1, usize::from(square)),
            Color::Black => (-1, usize::from(square) ^ 56),
        };
        let t = pst::entry(piece.role, sq);
        sum.mg += sign * t.mg;
        sum.eg += sign * t.eg;
        phase += pst::phase_weight(piece.role);
    }
    let phase = phase.min(MAX_PHASE);
    let white = (sum.mg * phase + sum.eg * (MAX_PHASE - phase)) / MAX_PHASE;
    Breakdown {
        white_minus_black: sum,
        phase,
        white,
    }
}

/// The position's value for the side to move, in centipawns.
#[inline]
pub fn evaluate(pos: &Chess) -> Score {
    let white = breakdown(pos).white;
    Score(match pos.turn() {
        Color::White => white,
        Color::Black => -white,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, EnPassantMode};

    fn pos(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap()
    }

    /// The same position with colours swapped and the board flipped top to bottom.
    fn mirrored(p: &Chess) -> Chess {
        p.to_setup(EnPassantMode::Legal)
            .into_mirrored()
            .position(CastlingMode::Standard)
            .unwrap()
    }

    #[test]
    fn start_position_is_balanced() {
        assert_eq!(evaluate(&Chess::default()), Score(0));
    }

    #[test]
    fn evaluation_is_colour_symmetric() {
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "6k1/5ppp/8/8/8/8/1Q3PPP/6K1 b - - 0 1",
        ] {
            let p = pos(fen);
            assert_eq!(evaluate(&p), evaluate(&mirrored(&p)), "{fen}");
        }
    }

    #[test]
    fn extra_material_is_good_for_its_owner() {
        let up_a_queen = pos("4k3/8/8/8/8/8/8/3QK3 w - - 0 1");
        assert!(evaluate(&up_a_queen) > Score(800));
        let same_black_to_move = pos("4k3/8/8/8/8/8/8/3QK3 b - - 0 1");
        assert!(evaluate(&same_black_to_move) < Score(-800));
    }

    #[test]
    fn phase_runs_from_full_board_to_bare_kings() {
        assert_eq!(breakdown(&Chess::default()).phase, MAX_PHASE);
        assert_eq!(
            breakdown(&pos("4k3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1")).phase,
            0
        );
    }
}
