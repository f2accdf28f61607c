//! Material and piece-square tables, middlegame and endgame, combined into one lookup table.
//!
//! The values themselves live in the generated [`super::weights`] (written by `cutoff tune`);
//! this module folds material into the placement tables at compile time so that the evaluation
//! does one lookup per piece.

use shakmaty::Role;

pub use super::weights::MATERIAL;
use super::weights::{
    BISHOP_EG, BISHOP_MG, KING_EG, KING_MG, KNIGHT_EG, KNIGHT_MG, PAWN_EG, PAWN_MG, QUEEN_EG,
    QUEEN_MG, ROOK_EG, ROOK_MG,
};

/// A middlegame/endgame pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Taper {
    pub mg: i32,
    pub eg: i32,
}

/// How much each role counts towards the middlegame phase; a full board is `MAX_PHASE`.
pub const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];
pub const MAX_PHASE: i32 = 24;

const fn role_index(role: Role) -> usize {
    role as usize - 1
}

/// Material plus placement for every role and square, from White's side: index
/// `[role][square]` with a1 = 0. Black pieces use the vertically mirrored square.
pub static TABLE: [[Taper; 64]; 6] = build();

const fn build() -> [[Taper; 64]; 6] {
    let mg = [
        &PAWN_MG, &KNIGHT_MG, &BISHOP_MG, &ROOK_MG, &QUEEN_MG, &KING_MG,
    ];
    let eg = [
        &PAWN_EG, &KNIGHT_EG, &BISHOP_EG, &ROOK_EG, &QUEEN_EG, &KING_EG,
    ];
    let mut table = [[Taper { mg: 0, eg: 0 }; 64]; 6];
    let mut role = 0;
    while role < 6 {
        let mut sq = 0;
        while sq < 64 {
            // The written tables start at rank 8: square a1 (0) is written at index 56.
            let written = sq ^ 56;
            table[role][sq] = Taper {
                mg: MATERIAL[role].mg + mg[role][written],
                eg: MATERIAL[role].eg + eg[role][written],
            };
            sq += 1;
        }
        role += 1;
    }
    table
}

/// The table entry for a piece of `role` on `square` seen from its own side (a1 = 0 for White;
/// Black passes the mirrored square).
#[inline]
pub fn entry(role: Role, square: usize) -> Taper {
    TABLE[role_index(role)][square]
}

#[inline]
pub fn phase_weight(role: Role) -> i32 {
    PHASE_WEIGHT[role_index(role)]
}
