//! The move delta: what a move changes on the board, as pieces leaving and entering squares,
//! worked out once at the move door and read by everything updated incrementally (the Zobrist
//! key, the net's accumulators), so that a move is broken down in one place.

use shakmaty::{CastlingSide, Chess, Color, Move, Piece, Position, Role, Square};

/// The pieces a legal move takes off squares and puts on squares, for every kind of move: a
/// quiet move or a capture (the captured piece leaves its square), en passant (the taken pawn
/// leaves the square beside), a promotion (a pawn leaves, the new piece arrives), castling,
/// Chess960's included (king and rook leave, then arrive: the king may land where the rook
/// stood), and a drop (a piece arrives). What is not a piece on a square (the side to move,
/// castling rights, the en-passant file) is the key's own business.
///
/// The entries of each side are filled from the first: `removed[0]` is the moving piece on its
/// origin, `added[0]` the piece arriving on the destination (the king for castling).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveDelta {
    /// The pieces taken off the board, each with the square it stood on.
    pub removed: [Option<(Piece, Square)>; 2],
    /// The pieces put on the board, each with the square it stands on.
    pub added: [Option<(Piece, Square)>; 2],
}

impl MoveDelta {
    /// The delta of the legal move `m` played from `pos`.
    #[inline]
    pub fn of(pos: &Chess, m: &Move) -> MoveDelta {
        let us = pos.turn();
        let piece = |color: Color, role: Role, sq: Square| Some((Piece { color, role }, sq));
        match *m {
            Move::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            } => MoveDelta {
                removed: [
                    piece(us, role, from),
                    capture.and_then(|taken| piece(!us, taken, to)),
                ],
                added: [piece(us, promotion.unwrap_or(role), to), None],
            },
            Move::EnPassant { from, to } => MoveDelta {
                removed: [
                    piece(us, Role::Pawn, from),
                    piece(!us, Role::Pawn, Square::from_coords(to.file(), from.rank())),
                ],
                added: [piece(us, Role::Pawn, to), None],
            },
            Move::Castle { king, rook } => {
                let side = CastlingSide::from_queen_side(rook < king);
                MoveDelta {
                    removed: [piece(us, Role::King, king), piece(us, Role::Rook, rook)],
                    added: [
                        piece(us, Role::King, side.king_to(us)),
                        piece(us, Role::Rook, side.rook_to(us)),
                    ],
                }
            }
            Move::Put { role, to } => MoveDelta {
                removed: [None, None],
                added: [piece(us, role, to), None],
            },
        }
    }

    /// The pieces taken off the board.
    #[inline]
    pub fn removed(&self) -> impl Iterator<Item = (Piece, Square)> {
        self.removed.into_iter().flatten()
    }

    /// The pieces put on the board.
    #[inline]
    pub fn added(&self) -> impl Iterator<Item = (Piece, Square)> {
        self.added.into_iter().flatten()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::{read_fen, FenPolicy};
    use shakmaty::{Board, CastlingMode};

    /// Every legal move of positions with both castlings (standard and Chess960, the king
    /// landing on its rook's square), en passant, promotions with and without capture: the
    /// board before it, less what the delta removes, plus what it adds, is the board after it.
    #[test]
    fn the_delta_turns_the_board_before_a_move_into_the_board_after_it() {
        let fens = [
            (
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                CastlingMode::Standard,
            ),
            (
                "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
                CastlingMode::Standard,
            ),
            (
                "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
                CastlingMode::Standard,
            ),
            (
                "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
                CastlingMode::Standard,
            ),
            (
                "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1",
                CastlingMode::Chess960,
            ),
            (
                "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
                CastlingMode::Chess960,
            ),
        ];
        let mut moves = 0;
        for (fen, mode) in fens {
            let pos = read_fen(fen, mode, FenPolicy::Strict).unwrap();
            for m in pos.legal_moves() {
                let delta = MoveDelta::of(&pos, &m);
                let mut board: Board = pos.board().clone();
                for (piece, sq) in delta.removed() {
                    assert_eq!(board.remove_piece_at(sq), Some(piece), "{fen}: {m}");
                }
                for (piece, sq) in delta.added() {
                    assert_eq!(board.piece_at(sq), None, "{fen}: {m}");
                    board.set_piece_at(sq, piece);
                }
                let mut child = pos.clone();
                child.play_unchecked(m);
                assert_eq!(&board, child.board(), "{fen}: {m}");
                moves += 1;
            }
        }
        assert!(moves > 150, "{moves} moves");
    }
}
