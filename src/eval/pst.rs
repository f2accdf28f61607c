//! Material and piece-square tables, middlegame and endgame.
//!
//! Hand-set starting values (issue 6 replaces them with tuned ones). Tables are written as a
//! White player sees the board: the first row is rank 8, the last row rank 1.

use shakmaty::Role;

/// A middlegame/endgame pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Taper {
    pub mg: i32,
    pub eg: i32,
}

/// Piece values by role (pawn, knight, bishop, rook, queen, king).
pub const MATERIAL: [Taper; 6] = [
    Taper { mg: 90, eg: 115 },
    Taper { mg: 320, eg: 295 },
    Taper { mg: 335, eg: 310 },
    Taper { mg: 470, eg: 530 },
    Taper { mg: 960, eg: 960 },
    Taper { mg: 0, eg: 0 },
];

/// How much each role counts towards the middlegame phase; a full board is `MAX_PHASE`.
pub const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];
pub const MAX_PHASE: i32 = 24;

#[rustfmt::skip]
const PAWN_MG: [i32; 64] = [
      0,   0,   0,   0,   0,   0,   0,   0,
     60,  70,  60,  70,  70,  60,  70,  60,
     15,  20,  30,  35,  35,  30,  20,  15,
      0,   5,  10,  25,  25,  10,   5,   0,
     -5,   0,   5,  20,  20,   5,   0,  -5,
     -5,  -5,   0,   5,   5,  -5,  -5,  -5,
     -5,   5,   5, -15, -15,  10,  10,  -5,
      0,   0,   0,   0,   0,   0,   0,   0,
];
#[rustfmt::skip]
const PAWN_EG: [i32; 64] = [
      0,   0,   0,   0,   0,   0,   0,   0,
    120, 120, 110, 100, 100, 110, 120, 120,
     70,  70,  60,  50,  50,  60,  70,  70,
     35,  30,  25,  20,  20,  25,  30,  35,
     15,  12,   8,   5,   5,   8,  12,  15,
      5,   5,   0,   0,   0,   0,   5,   5,
      5,   5,   0,   0,   0,   0,   5,   5,
      0,   0,   0,   0,   0,   0,   0,   0,
];
#[rustfmt::skip]
const KNIGHT_MG: [i32; 64] = [
    -60, -30, -25, -20, -20, -25, -30, -60,
    -30, -15,   0,   5,   5,   0, -15, -30,
    -20,   5,  15,  20,  20,  15,   5, -20,
    -15,  10,  20,  25,  25,  20,  10, -15,
    -15,   5,  15,  20,  20,  15,   5, -15,
    -20,   0,  10,  12,  12,  10,   0, -20,
    -30, -15,   0,   5,   5,   0, -15, -30,
    -50, -25, -25, -20, -20, -25, -25, -50,
];
#[rustfmt::skip]
const KNIGHT_EG: [i32; 64] = [
    -50, -35, -25, -20, -20, -25, -35, -50,
    -35, -15,  -5,   0,   0,  -5, -15, -35,
    -25,  -5,  10,  15,  15,  10,  -5, -25,
    -20,   0,  15,  20,  20,  15,   0, -20,
    -20,   0,  15,  20,  20,  15,   0, -20,
    -25,  -5,  10,  15,  15,  10,  -5, -25,
    -35, -15,  -5,   0,   0,  -5, -15, -35,
    -50, -35, -25, -20, -20, -25, -35, -50,
];
#[rustfmt::skip]
const BISHOP_MG: [i32; 64] = [
    -20, -10, -10, -10, -10, -10, -10, -20,
    -10,   0,   0,   0,   0,   0,   0, -10,
    -10,   0,   5,  10,  10,   5,   0, -10,
    -10,   5,   5,  12,  12,   5,   5, -10,
    -10,   0,  12,  12,  12,  12,   0, -10,
    -10,  10,  10,  10,  10,  10,  10, -10,
    -10,  12,   0,   0,   0,   0,  12, -10,
    -20, -10, -15, -10, -10, -15, -10, -20,
];
#[rustfmt::skip]
const BISHOP_EG: [i32; 64] = [
    -15, -10,  -8,  -5,  -5,  -8, -10, -15,
    -10,  -3,   0,   0,   0,   0,  -3, -10,
     -8,   0,   5,   5,   5,   5,   0,  -8,
     -5,   0,   5,   8,   8,   5,   0,  -5,
     -5,   0,   5,   8,   8,   5,   0,  -5,
     -8,   0,   5,   5,   5,   5,   0,  -8,
    -10,  -3,   0,   0,   0,   0,  -3, -10,
    -15, -10,  -8,  -5,  -5,  -8, -10, -15,
];
#[rustfmt::skip]
const ROOK_MG: [i32; 64] = [
      5,  10,  10,  10,  10,  10,  10,   5,
     15,  20,  20,  20,  20,  20,  20,  15,
     -5,   0,   0,   0,   0,   0,   0,  -5,
     -5,   0,   0,   0,   0,   0,   0,  -5,
     -5,   0,   0,   0,   0,   0,   0,  -5,
     -5,   0,   0,   0,   0,   0,   0,  -5,
    -10,  -5,   0,   0,   0,   0,  -5, -10,
     -5,   0,   5,  10,  10,   5,   0,  -5,
];
#[rustfmt::skip]
const ROOK_EG: [i32; 64] = [
     10,  10,  10,  10,  10,  10,  10,  10,
     15,  15,  15,  15,  15,  15,  15,  15,
      5,   5,   5,   5,   5,   5,   5,   5,
      0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,
     -5,  -5,  -5,  -5,  -5,  -5,  -5,  -5,
     -5,   0,   0,   0,   0,   0,   0,  -5,
];
#[rustfmt::skip]
const QUEEN_MG: [i32; 64] = [
    -20, -10, -10,  -5,  -5, -10, -10, -20,
    -10,   0,   0,   0,   0,   0,   0, -10,
    -10,   0,   5,   5,   5,   5,   0, -10,
     -5,   0,   5,   5,   5,   5,   0,  -5,
     -5,   0,   5,   5,   5,   5,   0,  -5,
    -10,   5,   5,   5,   5,   5,   0, -10,
    -10,   0,   5,   0,   0,   0,   0, -10,
    -20, -10, -10,  -5,  -5, -10, -10, -20,
];
#[rustfmt::skip]
const QUEEN_EG: [i32; 64] = [
    -20, -10, -10,  -5,  -5, -10, -10, -20,
    -10,   0,   5,   5,   5,   5,   0, -10,
    -10,   5,  10,  10,  10,  10,   5, -10,
     -5,   5,  10,  15,  15,  10,   5,  -5,
     -5,   5,  10,  15,  15,  10,   5,  -5,
    -10,   5,  10,  10,  10,  10,   5, -10,
    -10,   0,   5,   5,   5,   5,   0, -10,
    -20, -10, -10,  -5,  -5, -10, -10, -20,
];
#[rustfmt::skip]
const KING_MG: [i32; 64] = [
    -40, -50, -50, -60, -60, -50, -50, -40,
    -40, -50, -50, -60, -60, -50, -50, -40,
    -40, -50, -50, -60, -60, -50, -50, -40,
    -40, -50, -50, -60, -60, -50, -50, -40,
    -30, -40, -40, -50, -50, -40, -40, -30,
    -20, -30, -30, -40, -40, -30, -30, -20,
     10,  10, -10, -20, -20, -10,  10,  10,
     20,  30,  10, -10,   0, -10,  35,  20,
];
#[rustfmt::skip]
const KING_EG: [i32; 64] = [
    -50, -35, -25, -20, -20, -25, -35, -50,
    -30, -10,   0,   5,   5,   0, -10, -30,
    -25,   0,  15,  20,  20,  15,   0, -25,
    -20,   5,  20,  30,  30,  20,   5, -20,
    -20,   5,  20,  30,  30,  20,   5, -20,
    -25,   0,  15,  20,  20,  15,   0, -25,
    -30, -15,   0,   0,   0,   0, -15, -30,
    -50, -35, -25, -20, -20, -25, -35, -50,
];

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
