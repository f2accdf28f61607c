//! Zobrist keys: a position's from scratch ([`full_key`]), a child's updated move by move
//! ([`key_after`], [`child_key`]), and a null move's ([`null_move`]).

use shakmaty::attacks;
use shakmaty::zobrist::{Zobrist64, ZobristValue};
use shakmaty::{Bitboard, Chess, Color, EnPassantMode, Move, Piece, Position, Role, Square};

use super::delta::MoveDelta;

/// Zobrist key of a position, as the transposition table and repetition detection use it.
pub type Key = u64;

/// The full hash of a position, computed from scratch.
pub fn full_key(pos: &Chess) -> Key {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

/// The key of `pos` after playing the legal move `m` (whose result is `child`), updated
/// incrementally for every move.
#[inline]
pub fn child_key(pos: &Chess, key: Key, m: Move, child: &Chess) -> Key {
    key_after(pos, key, MoveDelta::of(pos, &m)).finish(child)
}

/// A child's key computed before its move is played, so that the search can prefetch the
/// child's table slot while it plays the move. It is the child's key exactly, except where the
/// move is a double push beside an enemy pawn: whether the child then has a *legal* en-passant
/// capture (the keys follow shakmaty's `EnPassantMode::Legal`) needs the child, and
/// [`EarlyKey::finish`] adds its file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EarlyKey {
    /// The child's key, less its en-passant file where `check_ep` is set.
    pub key: Key,
    check_ep: bool,
}

impl EarlyKey {
    /// The child's key, given the child (read only after a double push beside an enemy pawn).
    #[inline]
    pub fn finish(self, child: &Chess) -> Key {
        match self.check_ep.then(|| child.ep_square(EnPassantMode::Legal)) {
            Some(Some(sq)) => self.key ^ Zobrist64::zobrist_for_en_passant_file(sq.file()).0,
            _ => self.key,
        }
    }
}

/// The key of `pos` after a legal move, from `pos`'s key and the move's `delta`
/// ([`MoveDelta::of`], worked out once at the move door for the key and the accumulators
/// alike), for every kind of move: the side to move; the pieces that leave and arrive (the
/// delta's); the castling rights the move loses (a king move loses its side's, a move from or
/// onto a right's rook square that right); the parent's en-passant file if it had a legal
/// capture; the child's is settled by [`EarlyKey::finish`]. Equal to [`full_key`] of the child
/// (a test walks the perft suites' trees to hold it to that).
#[inline]
pub fn key_after(pos: &Chess, key: Key, delta: MoveDelta) -> EarlyKey {
    let us = pos.turn();
    // Each of the four entries read as it lies, an empty one as 0: a loop over the present
    // ones made this function 60 % dearer (callgrind, `cutoff bench 6`: 44.7 M instructions
    // against 27.9 M).
    let z = |change: Option<(Piece, Square)>| {
        change.map_or(0, |(piece, sq)| Zobrist64::zobrist_for_piece(sq, piece).0)
    };
    let [moved, taken] = delta.removed;
    let [arrived, rook] = delta.added;
    let mut k = key ^ Zobrist64::zobrist_for_white_turn().0;
    k ^= z(moved) ^ z(taken) ^ z(arrived) ^ z(rook);
    let mut check_ep = false;
    // The squares whose castling rights the move ends (the mover's origin and destination: en
    // passant's are never a rook's corner, castling's king loses its side's rights anyway),
    // and whether it is a king move.
    let (touched, king_move) = match (moved, arrived) {
        (Some((piece, from)), Some((_, to))) => {
            if piece.role == Role::Pawn && from.distance(to) == 2 {
                // Our pawn on the passed square attacks exactly the squares beside `to`.
                let passed = Square::new((u32::from(from) + u32::from(to)) / 2);
                let board = pos.board();
                check_ep =
                    (attacks::pawn_attacks(us, passed) & board.pawns() & board.by_color(!us)).any();
            }
            (Bitboard::from(from) | to, piece.role == Role::King)
        }
        _ => (Bitboard::EMPTY, false),
    };
    let castles = pos.castles();
    if castles.any() {
        for color in Color::ALL {
            for side in shakmaty::CastlingSide::ALL {
                let lost = castles
                    .rook(color, side)
                    .is_some_and(|sq| (king_move && color == us) || touched.contains(sq));
                if lost {
                    k ^= Zobrist64::zobrist_for_castling_right(color, side).0;
                }
            }
        }
    }
    if let Some(sq) = pos.ep_square(EnPassantMode::Legal) {
        k ^= Zobrist64::zobrist_for_en_passant_file(sq.file()).0;
    }
    EarlyKey { key: k, check_ep }
}

/// The position after the side to move passes (a null move), with its key updated
/// incrementally; `None` in check, where passing is illegal. shakmaty rebuilds the position
/// for this, so it is far dearer than a real move: use it sparingly.
pub fn null_move(pos: &Chess, key: Key) -> Option<(Chess, Key)> {
    let mut k = Zobrist64(key);
    k ^= Zobrist64::zobrist_for_white_turn();
    if let Some(sq) = pos.ep_square(EnPassantMode::Legal) {
        k ^= Zobrist64::zobrist_for_en_passant_file(sq.file());
    }
    let child = pos.clone().swap_turn().ok()?;
    Some((child, k.0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Game;
    use shakmaty::CastlingMode;

    #[test]
    fn keys_known_before_the_move_match_the_child_hashed_from_scratch() {
        // Castling both ways, en passant, promotions with and without capture, checks.
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        ];
        let (mut answered, mut moves) = (0, 0);
        for fen in fens {
            let pos = Game::from_fen(fen, CastlingMode::Standard).unwrap().root;
            let key = full_key(&pos);
            for m in pos.legal_moves() {
                let mut child = pos.clone();
                child.play_unchecked(m);
                let early = key_after(&pos, key, MoveDelta::of(&pos, &m));
                moves += 1;
                if early.key == full_key(&child) {
                    answered += 1;
                }
                assert_eq!(
                    child_key(&pos, key, m, &child),
                    full_key(&child),
                    "{fen}: {m}"
                );
            }
        }
        // Every move here but the double pushes beside an enemy pawn has its key before it is
        // played (f2f4 in the second position; the whole trees: tests/perft_suites.rs).
        assert!(
            moves > 100 && answered + 2 >= moves,
            "key_after exact {answered} times in {moves}"
        );
    }

    #[test]
    fn null_move_keys_match_full_keys() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
        ] {
            let g = Game::from_fen(fen, CastlingMode::Standard).unwrap();
            let (child, key) = null_move(&g.root, g.root_key).unwrap();
            assert_eq!(key, full_key(&child), "{fen}");
            assert_ne!(child.turn(), g.root.turn());
        }
        let in_check =
            Game::from_fen("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1", CastlingMode::Standard).unwrap();
        assert!(null_move(&in_check.root, in_check.root_key).is_none());
    }
}
