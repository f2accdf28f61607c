//! Static exchange evaluation: what a capture wins once every piece that attacks the target
//! square has joined in, cheapest first. It tells a pawn taking a queen from a queen taking a
//! defended pawn, which MVV-LVA alone cannot.

use shakmaty::attacks::{bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks};
use shakmaty::{Bitboard, Board, Chess, Color, Move, Position, Role, Square};

use super::params::{see_bishop, see_knight, see_pawn, see_queen, see_rook, SEE_KING};

/// Exchange values (only their order and rough ratios matter).
pub fn value(role: Role) -> i32 {
    match role {
        Role::Pawn => see_pawn(),
        Role::Knight => see_knight(),
        Role::Bishop => see_bishop(),
        Role::Rook => see_rook(),
        Role::Queen => see_queen(),
        Role::King => SEE_KING,
    }
}

const CHEAPEST_FIRST: [Role; 6] = [
    Role::Pawn,
    Role::Knight,
    Role::Bishop,
    Role::Rook,
    Role::Queen,
    Role::King,
];

/// Whether the exchange that `m` starts on its target square wins at least `threshold`
/// centipawns for the side to move (both sides may stop capturing when it suits them).
pub fn see_at_least(pos: &Chess, m: &Move, threshold: i32) -> bool {
    let (from, to) = match *m {
        Move::Normal { from, to, .. } | Move::EnPassant { from, to } => (from, to),
        // Castling and drops exchange nothing.
        _ => return 0 >= threshold,
    };
    let board = pos.board();
    let captured = match m {
        Move::EnPassant { .. } => value(Role::Pawn),
        _ => m.capture().map_or(0, value),
    };
    let promotion_gain = m.promotion().map_or(0, |r| value(r) - value(Role::Pawn));
    let mut balance = captured + promotion_gain - threshold;
    if balance < 0 {
        return false;
    }
    // Assume the moved piece is lost next; if that still leaves us at the threshold, done.
    let moved = m.promotion().unwrap_or(m.role());
    balance -= value(moved);
    if balance >= 0 {
        return true;
    }

    let mut occupied = board.occupied() ^ Bitboard::from(from) | Bitboard::from(to);
    if let Move::EnPassant { .. } = m {
        let captured_square = shakmaty::Square::from_coords(to.file(), from.rank());
        occupied ^= Bitboard::from(captured_square);
    }
    let diagonal = board.bishops_and_queens();
    let straight = board.rooks_and_queens();
    let mut attackers = attackers_of(board, to, occupied) & occupied;
    let mut side = !pos.turn();

    loop {
        let ours = attackers & board.by_color(side);
        if ours.is_empty() {
            break;
        }
        let role = CHEAPEST_FIRST
            .into_iter()
            .find(|&r| !(ours & board.by_role(r)).is_empty())
            .expect("an attacker has a role");
        let square = (ours & board.by_role(role)).first().expect("non-empty");
        occupied ^= Bitboard::from(square);
        // Removing the piece may uncover a slider behind it.
        if matches!(role, Role::Pawn | Role::Bishop | Role::Queen) {
            attackers |= bishop_attacks(to, occupied) & diagonal;
        }
        if matches!(role, Role::Rook | Role::Queen) {
            attackers |= rook_attacks(to, occupied) & straight;
        }
        attackers &= occupied;
        side = !side;
        balance = -balance - 1 - value(role);
        if balance >= 0 {
            // A king may only recapture if the other side has nothing left to take back with.
            if role == Role::King && !(attackers & board.by_color(side)).is_empty() {
                side = !side;
            }
            break;
        }
    }
    // The side that ran out of good captures (or attackers) lost the exchange.
    side != pos.turn()
}

/// Both sides' pieces that attack `to` through `occupied`, in one set: each slider ray looked
/// up once, where shakmaty's `attacks_to` of each colour looks both up again.
#[inline]
fn attackers_of(board: &Board, to: Square, occupied: Bitboard) -> Bitboard {
    let pawns = board.pawns();
    (rook_attacks(to, occupied) & board.rooks_and_queens())
        | (bishop_attacks(to, occupied) & board.bishops_and_queens())
        | (knight_attacks(to) & board.knights())
        | (king_attacks(to) & board.kings())
        | (pawn_attacks(Color::Black, to) & pawns & board.white())
        | (pawn_attacks(Color::White, to) & pawns & board.black())
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::uci::UciMove;
    use shakmaty::CastlingMode;

    fn check(fen: &str, uci: &str, threshold: i32) -> bool {
        let pos: Chess = fen
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        let m = uci.parse::<UciMove>().unwrap().to_move(&pos).unwrap();
        see_at_least(&pos, &m, threshold)
    }

    /// The one-set attackers equal the union of shakmaty's per-colour `attacks_to`, on every
    /// square of positions with every piece kind, under the full and a thinned occupancy.
    #[test]
    fn one_attackers_set_equals_both_colours_attacks_to() {
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1",
        ] {
            let pos: Chess = fen
                .parse::<Fen>()
                .unwrap()
                .into_position(CastlingMode::Standard)
                .unwrap();
            let board = pos.board();
            for occupied in [
                board.occupied(),
                board.occupied() & Bitboard(0x55AA_55AA_55AA_55AA),
            ] {
                for to in Square::ALL {
                    let expected = board.attacks_to(to, Color::White, occupied)
                        | board.attacks_to(to, Color::Black, occupied);
                    assert_eq!(attackers_of(board, to, occupied), expected, "{fen} {to}");
                }
            }
        }
    }

    #[test]
    fn winning_and_losing_captures_are_told_apart() {
        // Rook takes an undefended pawn: +100.
        let fen = "1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1";
        assert!(check(fen, "e1e5", 100));
        assert!(!check(fen, "e1e5", 101));
        // Knight takes a pawn defended by a pawn... and a queen behind: loses the knight.
        let fen = "1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1";
        assert!(!check(fen, "d3e5", 0));
        assert!(check(fen, "d3e5", -300));
    }

    #[test]
    fn xrayed_defenders_are_counted() {
        // Rook takes a pawn defended by a rook, with our second rook behind the first: the
        // exchange RxP RxR RxR wins a pawn.
        let fen = "3r2k1/8/8/3p4/8/8/3R4/3R2K1 w - - 0 1";
        assert!(check(fen, "d2d5", 100));
        // Without the second rook it loses the exchange.
        let fen = "3r2k1/8/8/3p4/8/8/3R4/6K1 w - - 0 1";
        assert!(!check(fen, "d2d5", 0));
    }

    #[test]
    fn quiet_moves_to_attacked_squares_lose_the_piece() {
        // The knight steps onto c5, which the b6 pawn attacks; c3 is safe.
        let fen = "4k3/8/1p6/8/4N3/8/8/4K3 w - - 0 1";
        assert!(!check(fen, "e4c5", 0));
        assert!(check(fen, "e4c3", 0));
    }
}
