//! Check information: whether a move gives check, read from the attack tables without
//! playing it ([`gives_check`], and [`CheckInfo`] for a node that asks for many moves).

use shakmaty::attacks::{self, bishop_attacks, rook_attacks};
use shakmaty::{Bitboard, Chess, Move, Piece, Position, Role, Square};

use super::movegen::pinned_candidates;

/// Whether the legal move `m` gives check: exactly `is_check()` of the position after it, read
/// from the attack tables without playing the move, so the search need not copy and play the
/// moves it prunes. One move's question; a node that asks for many moves builds one
/// [`CheckInfo`] and asks it.
#[inline]
pub fn gives_check(pos: &Chess, m: &Move) -> bool {
    CheckInfo::new(pos).gives_check(pos, m)
}

/// What a node needs to tell whether each of its moves gives check, worked out once: the
/// squares from which each kind of piece of ours would attack the enemy king, and our pieces
/// whose leaving the line uncovers a slider of ours aimed at it (Stockfish's check squares and
/// discovered-check candidates). Per move it is then one or two bitboard tests instead of an
/// attack-table lookup from the move's square (`shakmaty::attacks::attacks` was 7 % of a
/// search's `perf` samples).
///
/// A move checks directly (the piece it puts on `to` attacks the king) or by discovery (a
/// slider of ours sees the king through the square the move empties). `pos` must be legal as
/// [`read_fen`](super::read_fen) makes it: the side not to move is not in check, so no piece
/// of ours attacks the king already. Promotions, en passant and castling, rare, are worked out
/// in full.
#[derive(Clone, Copy, Debug)]
pub struct CheckInfo {
    /// The enemy king, `None` in a position without one (then nothing checks).
    king: Option<Square>,
    /// Indexed by `Role as usize` (pawn = 1 ... king = 6): where that piece of ours would give
    /// check from, with the board's occupancy as it is.
    check_squares: [Bitboard; 7],
    /// Our pieces alone between the enemy king and a slider of ours aimed at it.
    discoverers: Bitboard,
}

impl CheckInfo {
    #[inline]
    pub fn new(pos: &Chess) -> CheckInfo {
        let board = pos.board();
        let us = pos.turn();
        let Some(king) = board.king_of(!us) else {
            return CheckInfo {
                king: None,
                check_squares: [Bitboard(0); 7],
                discoverers: Bitboard(0),
            };
        };
        let occupied = board.occupied();
        let bishop = bishop_attacks(king, occupied);
        let rook = rook_attacks(king, occupied);
        let ours = board.by_color(us);
        CheckInfo {
            king: Some(king),
            check_squares: [
                Bitboard(0),
                attacks::pawn_attacks(!us, king),
                attacks::knight_attacks(king),
                bishop,
                rook,
                bishop | rook,
                Bitboard(0),
            ],
            discoverers: pinned_candidates(board, ours, king) & ours,
        }
    }

    /// Whether the legal move `m` of the node's position `pos` gives check. Always inlined:
    /// the search asks it of every quiet move left when late-move pruning starts, and the
    /// call cost as much as the two bitboard tests.
    #[inline(always)]
    pub fn gives_check(&self, pos: &Chess, m: &Move) -> bool {
        let Some(king) = self.king else {
            return false;
        };
        match *m {
            Move::Normal {
                role,
                from,
                to,
                promotion: None,
                ..
            } => self.ordinary_move_checks(role, from, to, king),
            Move::Normal { .. } | Move::EnPassant { .. } => gives_check_in_full(pos, m, king),
            Move::Castle { .. } | Move::Put { .. } => {
                let mut child = pos.clone();
                child.play_unchecked(*m);
                child.is_check()
            }
        }
    }

    /// Whether an ordinary move (no promotion, not en passant) of `role` from `from` to `to`
    /// checks the king on `king`: onto a check square, or off a discoverer's line. The
    /// occupancy differs from the node's only on `from` and `to`: `to` cannot lie between
    /// itself and the king, and `from` could only if the piece had seen the king before,
    /// which a legal position rules out.
    #[inline(always)]
    fn ordinary_move_checks(&self, role: Role, from: Square, to: Square, king: Square) -> bool {
        self.check_squares[role as usize].contains(to)
            || (self.discoverers.contains(from) && !attacks::aligned(from, to, king))
    }

    /// Whether surely none of `quiets`, legal moves of the node that neither capture nor
    /// promote, gives check: each ordinary move by [`CheckInfo::gives_check`]'s two tests, in
    /// one pass that reads nothing else; a castling move (worked out in full there) answers
    /// `false`, as "ask move by move". So `true` is exact, and the search may take every one
    /// of them for a move that does not check.
    #[inline]
    pub fn surely_no_quiet_check(&self, quiets: &[Move]) -> bool {
        let Some(king) = self.king else {
            return true;
        };
        quiets.iter().all(|m| match *m {
            Move::Normal {
                role,
                from,
                to,
                promotion: None,
                ..
            } => !self.ordinary_move_checks(role, from, to, king),
            _ => false,
        })
    }
}

/// [`CheckInfo::gives_check`] for a promotion or en passant, from the attack tables with the
/// occupancy after the move: the piece on `to`, and a discovery through any square emptied.
fn gives_check_in_full(pos: &Chess, m: &Move, king: Square) -> bool {
    let board = pos.board();
    let us = pos.turn();
    let (role, from, to, emptied) = match *m {
        Move::Normal {
            role,
            from,
            to,
            promotion,
            ..
        } => (promotion.unwrap_or(role), from, to, Bitboard::from(from)),
        Move::EnPassant { from, to } => {
            let taken = Square::from_coords(to.file(), from.rank());
            (Role::Pawn, from, to, Bitboard::from(from) | taken)
        }
        Move::Castle { .. } | Move::Put { .. } => unreachable!("castling is played in full"),
    };
    let occupied = (board.occupied() & !emptied) | to;
    if attacks::attacks(to, Piece { color: us, role }, occupied).contains(king) {
        return true;
    }
    // A discovery needs an emptied square on a line through the king; it is given by a slider
    // of ours that stayed where it was (the moved piece was looked at above).
    if emptied
        .into_iter()
        .all(|sq| attacks::ray(king, sq).is_empty())
    {
        return false;
    }
    let ours = board.by_color(us) & !Bitboard::from(from);
    (rook_attacks(king, occupied) & board.rooks_and_queens() & ours).any()
        || (bishop_attacks(king, occupied) & board.bishops_and_queens() & ours).any()
}
