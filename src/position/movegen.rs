//! Move generation helpers beside shakmaty's own: the captures and promotions
//! ([`tactical_moves`], [`noisy_moves`]) and the quiet moves ([`quiet_moves`]) generated apart
//! for the staged search, a table move checked without generating ([`legal_move`]), and pins.

use shakmaty::attacks::{self, bishop_attacks, rook_attacks};
use shakmaty::{Bitboard, Chess, Color, File, Move, MoveList, Piece, Position, Role, Square};

/// Appends to `moves` the legal captures (under-promotions that capture included) and
/// promotions to a queen of a position whose side to move is not in check: what quiescence
/// searches when it may stand pat. The list is the caller's, so that over a kilobyte of moves is
/// not copied out of here at every quiescence node.
///
/// shakmaty 0.30 has no capture generator of its own (`capture_moves` generates every legal move
/// and drops the quiet ones), so this one reads its attack tables. The moves come in the order of
/// `legal_moves` filtered to the same moves (en passant, pawn captures towards the a-file side
/// then the h-file side, queen push-promotions, knights, bishops, rooks, queens, king), so that
/// a picker breaking ties by list position orders them the same way either way. Legality is
/// shakmaty's own test: a pinned piece moves along its pin only, the king only to unattacked
/// squares, and en passant is left to shakmaty.
pub fn tactical_moves(pos: &Chess, moves: &mut MoveList) {
    captures_and_promotions(pos, moves, &[Role::Queen]);
}

/// Appends every legal capture and promotion (what the search calls tactical) of a
/// position whose side to move is not in check: [`tactical_moves`] and the pushes that
/// under-promote. The main search's first generation stage: a node that a capture cuts never
/// generates its quiet moves.
pub fn noisy_moves(pos: &Chess, moves: &mut MoveList) {
    captures_and_promotions(
        pos,
        moves,
        &[Role::Queen, Role::Rook, Role::Bishop, Role::Knight],
    );
}

/// The captures, and the pushes that promote to one of `push_promotions`.
#[inline(always)]
fn captures_and_promotions(pos: &Chess, moves: &mut MoveList, push_promotions: &[Role]) {
    if pos.maybe_ep_square().is_some() {
        moves.extend(pos.en_passant_moves());
    }
    let board = pos.board();
    let us = pos.turn();
    let Some(king) = board.king_of(us) else {
        return;
    };
    debug_assert!(!pos.is_check(), "captures alone need a side not in check");
    let them = board.by_color(!us);
    let occupied = board.occupied();
    let pinned = pinned_candidates(board, them, king);
    let legal =
        |from: Square, to: Square| !pinned.contains(from) || attacks::aligned(from, to, king);
    let mut push = |role: Role, from: Square, to: Square, promotion: Option<Role>| {
        if legal(from, to) {
            moves.push(Move::Normal {
                role,
                from,
                capture: board.role_at(to),
                to,
                promotion,
            });
        }
    };

    // Pawn captures, one diagonal at a time, as shakmaty orders them; then pushes to a queen.
    let pawns = board.pawns() & board.by_color(us);
    let (west, east, forward) = match us {
        Color::White => (7, 9, 8),
        Color::Black => (-9, -7, -8),
    };
    for (shift, keep) in [
        (west, !Bitboard::from(File::A)),
        (east, !Bitboard::from(File::H)),
    ] {
        let targets = (pawns & keep).shift(shift) & them;
        for to in targets & !Bitboard::BACKRANKS {
            push(Role::Pawn, from_offset(to, shift), to, None);
        }
        for to in targets & Bitboard::BACKRANKS {
            for promotion in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                push(Role::Pawn, from_offset(to, shift), to, Some(promotion));
            }
        }
    }
    for to in pawns.shift(forward) & !occupied & Bitboard::BACKRANKS {
        for &promotion in push_promotions {
            push(Role::Pawn, from_offset(to, forward), to, Some(promotion));
        }
    }

    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        for from in board.by_piece(role.of(us)) {
            let piece = Piece { color: us, role };
            for to in attacks::attacks(from, piece, occupied) & them {
                push(role, from, to, None);
            }
        }
    }

    for to in attacks::king_attacks(king) & them {
        if board.attacks_to(to, !us, occupied).is_empty() {
            moves.push(Move::Normal {
                role: Role::King,
                from: king,
                capture: board.role_at(to),
                to,
                promotion: None,
            });
        }
    }
}

/// Appends to `moves` the legal quiet moves (neither capture nor promotion) of a position whose
/// side to move is not in check: the main search's last generation stage, reached only at
/// nodes that the table's move, the captures and the killers did not cut. In the order of
/// `legal_moves` filtered to the same moves (pawn pushes, double pushes, knights, bishops,
/// rooks, queens, king, castling king side then queen side), so that the picker's ties fall
/// as they did when the quiet moves were taken from shakmaty's list.
pub fn quiet_moves(pos: &Chess, moves: &mut MoveList) {
    let board = pos.board();
    let us = pos.turn();
    let Some(king) = board.king_of(us) else {
        return;
    };
    debug_assert!(
        !pos.is_check(),
        "quiet moves alone need a side not in check"
    );
    let them = board.by_color(!us);
    let occupied = board.occupied();
    let empty = !occupied;
    let pinned = pinned_candidates(board, them, king);
    let legal =
        |from: Square, to: Square| !pinned.contains(from) || attacks::aligned(from, to, king);
    let mut push = |role: Role, from: Square, to: Square| {
        if legal(from, to) {
            moves.push(Move::Normal {
                role,
                from,
                capture: None,
                to,
                promotion: None,
            });
        }
    };

    let pawns = board.pawns() & board.by_color(us);
    let (forward, double_ranks) = match us {
        Color::White => (8, Bitboard::SOUTH),
        Color::Black => (-8, Bitboard::NORTH),
    };
    let single = pawns.shift(forward) & empty;
    for to in single & !Bitboard::BACKRANKS {
        push(Role::Pawn, from_offset(to, forward), to);
    }
    for to in single.shift(forward) & double_ranks & empty {
        push(Role::Pawn, from_offset(to, 2 * forward), to);
    }
    for from in board.by_piece(Role::Knight.of(us)) {
        for to in attacks::knight_attacks(from) & empty {
            push(Role::Knight, from, to);
        }
    }
    for from in board.by_piece(Role::Bishop.of(us)) {
        for to in bishop_attacks(from, occupied) & empty {
            push(Role::Bishop, from, to);
        }
    }
    for from in board.by_piece(Role::Rook.of(us)) {
        for to in rook_attacks(from, occupied) & empty {
            push(Role::Rook, from, to);
        }
    }
    for from in board.by_piece(Role::Queen.of(us)) {
        for to in attacks::queen_attacks(from, occupied) & empty {
            push(Role::Queen, from, to);
        }
    }
    for to in attacks::king_attacks(king) & empty {
        // Not in check, so no slider looks through the king's square: the board as it is.
        if board.attacks_to(to, !us, occupied).is_empty() {
            moves.push(Move::Normal {
                role: Role::King,
                from: king,
                capture: None,
                to,
                promotion: None,
            });
        }
    }
    if pos.castles().has_color(us) {
        moves.extend(pos.castling_moves(shakmaty::CastlingSide::KingSide));
        moves.extend(pos.castling_moves(shakmaty::CastlingSide::QueenSide));
    }
}

/// The legal move of `pos` from `from` to `to` (the rook's square for castling) with
/// `promotion`, if there is one: what the table's 16-bit move means in this position, found
/// without generating the moves, so that the table's move can be searched before any other
/// move is generated. Anything else gives `None`: a colliding entry may carry any 16 bits.
/// Equal to looking the move up in `legal_moves` (a test holds it to that for every 16-bit
/// value in the perft suites' positions).
#[inline]
pub fn legal_move(pos: &Chess, from: Square, to: Square, promotion: Option<Role>) -> Option<Move> {
    let board = pos.board();
    let us = pos.turn();
    let ours = board.by_color(us);
    if !ours.contains(from) {
        return None;
    }
    let role = board.role_at(from)?;
    if ours.contains(to) {
        // Only castling lands on a piece of one's own: the king onto its rook. Rare enough to
        // leave to shakmaty (castling through check, Chess960's squares).
        let castle = Move::Castle {
            king: from,
            rook: to,
        };
        let candidate = role == Role::King && promotion.is_none() && board.rooks().contains(to);
        return (candidate && pos.is_legal(castle)).then_some(castle);
    }
    let capture = board.role_at(to);
    if capture == Some(Role::King) {
        return None;
    }
    let m = if role == Role::Pawn {
        pawn_move(pos, from, to, capture, promotion)?
    } else {
        let piece = Piece { color: us, role };
        if promotion.is_some() || !attacks::attacks(from, piece, board.occupied()).contains(to) {
            return None;
        }
        Move::Normal {
            role,
            from,
            capture,
            to,
            promotion: None,
        }
    };
    leaves_king_safe(pos, m).then_some(m)
}

/// The pawn move from `from` to `to`, if a pawn of the side to move can make it (pseudo-legal):
/// a push, a double push from its second rank, a capture, en passant onto the position's
/// en-passant square; a promotion exactly when it reaches the last rank.
#[inline]
fn pawn_move(
    pos: &Chess,
    from: Square,
    to: Square,
    capture: Option<Role>,
    promotion: Option<Role>,
) -> Option<Move> {
    let us = pos.turn();
    let last_rank = to.rank() == us.relative_rank(shakmaty::Rank::Eighth);
    let promotes_well = match promotion {
        None => !last_rank,
        Some(role) => last_rank && !matches!(role, Role::Pawn | Role::King),
    };
    if !promotes_well {
        return None;
    }
    let normal = Move::Normal {
        role: Role::Pawn,
        from,
        capture,
        to,
        promotion,
    };
    if attacks::pawn_attacks(us, from).contains(to) {
        return match capture {
            Some(_) => Some(normal),
            None if pos.maybe_ep_square() == Some(to) => Some(Move::EnPassant { from, to }),
            None => None,
        };
    }
    if capture.is_some() {
        return None;
    }
    let forward = us.fold_wb(8, -8);
    let one = from.offset(forward)?;
    if to == one {
        return Some(normal);
    }
    let from_start = from.rank() == us.relative_rank(shakmaty::Rank::Second);
    let double =
        from_start && !pos.board().occupied().contains(one) && one.offset(forward) == Some(to);
    double.then_some(normal)
}

/// Whether the pseudo-legal move `m` (not castling) leaves the mover's king unattacked: the
/// attackers of the king's square after the move, less the piece the move captures.
#[inline]
fn leaves_king_safe(pos: &Chess, m: Move) -> bool {
    let board = pos.board();
    let us = pos.turn();
    let Some(king) = board.king_of(us) else {
        return false;
    };
    let occupied = board.occupied();
    let (from, to, captured) = match m {
        Move::Normal { from, to, .. } => (from, to, to),
        Move::EnPassant { from, to } => (from, to, Square::from_coords(to.file(), from.rank())),
        _ => return false,
    };
    let after = (occupied ^ Bitboard::from_square(from) ^ Bitboard::from_square(captured))
        | Bitboard::from_square(to);
    let target = if from == king { to } else { king };
    (board.attacks_to(target, !us, after) & !Bitboard::from_square(captured)).is_empty()
}

/// The square `offset` steps back from `to` (a pawn's origin).
#[inline]
fn from_offset(to: Square, offset: i32) -> Square {
    Square::new((u32::from(to) as i32 - offset) as u32)
}

/// Pieces alone between `king` and an enemy slider aiming at it (shakmaty's slider blockers):
/// a piece of ours among them is pinned and may move only along the line.
#[inline]
pub(super) fn pinned_candidates(board: &shakmaty::Board, them: Bitboard, king: Square) -> Bitboard {
    let snipers = (rook_attacks(king, Bitboard(0)) & board.rooks_and_queens())
        | (bishop_attacks(king, Bitboard(0)) & board.bishops_and_queens());
    let mut blockers = Bitboard(0);
    for sniper in snipers & them {
        let between = attacks::between(king, sniper) & board.occupied();
        if !between.more_than_one() {
            blockers |= between;
        }
    }
    blockers
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Game;
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, EnPassantMode};

    /// From the start and from positions full of pins, promotions and en passant, random games:
    /// in every position not in check, the generated moves are exactly shakmaty's legal moves
    /// that capture or promote to a queen, in the same order.
    #[test]
    fn tactical_and_quiet_moves_come_in_shakmatys_order_and_noisy_moves_add_every_promotion() {
        let starts = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
            "8/8/8/K2pP2r/8/8/8/4k3 w - d6 0 2",
            "4k3/8/8/2KPp2q/8/8/8/8 w - e6 0 2",
            "4k3/1b6/8/3P4/4K3/8/6q1/8 w - - 0 1",
        ];
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut checked = 0;
        let mut tactical = 0;
        for fen in starts {
            for _ in 0..30 {
                let mut pos = Game::from_fen(fen, CastlingMode::Standard).unwrap().root;
                for _ in 0..80 {
                    let legal = pos.legal_moves();
                    if legal.is_empty() {
                        break;
                    }
                    if !pos.is_check() {
                        let mut expected = legal.clone();
                        expected.retain(|m| m.is_capture() || m.promotion() == Some(Role::Queen));
                        let fen = Fen::from_position(&pos, EnPassantMode::Legal);
                        let mut moves = MoveList::new();
                        tactical_moves(&pos, &mut moves);
                        assert_eq!(moves, expected, "{fen}");
                        // The main search's stage: every promotion as well, in any order.
                        let mut noisy = MoveList::new();
                        noisy_moves(&pos, &mut noisy);
                        let mut all_noisy = legal.clone();
                        all_noisy.retain(|m| m.is_capture() || m.is_promotion());
                        let key = |m: &Move| m.to_string();
                        noisy.sort_by_key(key);
                        all_noisy.sort_by_key(key);
                        assert_eq!(noisy, all_noisy, "{fen}");
                        // And the rest, the quiet moves, in shakmaty's order.
                        let mut quiet = MoveList::new();
                        quiet_moves(&pos, &mut quiet);
                        let mut all_quiet = legal.clone();
                        all_quiet.retain(|m| !m.is_capture() && !m.is_promotion());
                        assert_eq!(quiet, all_quiet, "{fen}");
                        checked += 1;
                        tactical += expected.len();
                    }
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    pos.play_unchecked(legal[(state % legal.len() as u64) as usize]);
                }
            }
        }
        assert!(
            checked > 10_000 && tactical > 20_000,
            "{checked} {tactical}"
        );
    }
}
