//! Piece terms: mobility (which also builds the attack maps the other terms read), threats,
//! the bishop pair, rooks on open files and the seventh rank, outposts.

use shakmaty::attacks::{bishop_attacks, knight_attacks, queen_attacks, rook_attacks};
use shakmaty::{Bitboard, Color, Role, Square};

use super::bits::{beside, count, file_fill, front_span, pawn_attacks, relative_rank, squares};
use super::params::{
    BISHOP_PAIR, HANGING, MOBILITY_BISHOP, MOBILITY_KNIGHT, MOBILITY_QUEEN, MOBILITY_ROOK, OUTPOST,
    ROOK_FILE, ROOK_SEVENTH, THREAT_BY_MINOR, THREAT_BY_PAWN, THREAT_BY_ROOK,
};
use super::trace::Trace;
use super::Eval;

/// King-zone attack units per attacking piece, by role (pawn to king): the weights of the
/// `KING_DANGER` index.
const ATTACK_UNITS: [i32; 6] = [0, 2, 2, 3, 5, 0];
/// The mobility table of each piece role (pawn and king have none).
const MOBILITY: [usize; 6] = [
    0,
    MOBILITY_KNIGHT,
    MOBILITY_BISHOP,
    MOBILITY_ROOK,
    MOBILITY_QUEEN,
    0,
];

/// Role index 0 (pawn) to 5 (king).
fn index(role: Role) -> usize {
    role as usize - 1
}

impl<T: Trace> Eval<'_, T> {
    /// Mobility of `color`'s pieces; fills in their attack maps and the attacks on the enemy
    /// king zone.
    pub(super) fn mobility(&mut self, color: Color) {
        let own = self.pieces_of(color);
        let area = !own & !self.side(!color).pawn_attacks;
        let enemy_zone = self.side(!color).king_zone;
        for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
            let pieces = u64::from(self.board.by_piece(role.of(color)));
            for sq in squares(pieces) {
                let attacks = attacks_of(role, sq, self.occupied);
                self.add(
                    MOBILITY[index(role)] + count(attacks & area) as usize,
                    color,
                    1,
                );
                let side = self.side_mut(color);
                side.by_role[index(role)] |= attacks;
                side.twice |= side.all & attacks;
                side.all |= attacks;
                if attacks & enemy_zone != 0 {
                    let enemy = self.side_mut(!color);
                    enemy.zone_units += ATTACK_UNITS[index(role)];
                    enemy.zone_attacks += count(attacks & enemy_zone);
                }
            }
        }
    }

    /// What `color`'s pieces attack that the enemy would rather keep.
    pub(super) fn threats(&mut self, color: Color) {
        let ours = *self.side(color);
        let theirs = *self.side(!color);
        let minors = ours.by_role[index(Role::Knight)] | ours.by_role[index(Role::Bishop)];
        let rooks = ours.by_role[index(Role::Rook)];
        for (i, role) in Role::ALL.into_iter().take(5).enumerate() {
            let targets = u64::from(self.board.by_piece(role.of(!color)));
            if role != Role::Pawn {
                self.add(
                    THREAT_BY_PAWN + i - 1,
                    color,
                    count(targets & ours.pawn_attacks),
                );
            }
            self.add(THREAT_BY_MINOR + i, color, count(targets & minors));
            self.add(THREAT_BY_ROOK + i, color, count(targets & rooks));
        }
        let pieces = self.pieces_of(!color) & !self.pawns_of(!color) & !self.kings();
        self.add(HANGING, color, count(pieces & ours.all & !theirs.all));
    }

    /// Bishop pair, rook files and the seventh rank, outposts.
    pub(super) fn piece_extras(&mut self, color: Color) {
        let board = self.board;
        let bishops = u64::from(board.by_piece(Role::Bishop.of(color)));
        if bishops.count_ones() >= 2 {
            self.add(BISHOP_PAIR, color, 1);
        }
        let (us, them) = (self.pawns_of(color), self.pawns_of(!color));
        for sq in squares(u64::from(board.by_piece(Role::Rook.of(color)))) {
            let file = file_fill(1 << sq);
            if file & (us | them) == 0 {
                self.add(ROOK_FILE, color, 1);
            } else if file & us == 0 {
                self.add(ROOK_FILE + 1, color, 1);
            }
            if relative_rank(color, sq) == 6 {
                self.add(ROOK_SEVENTH, color, 1);
            }
        }
        for (i, role) in [Role::Knight, Role::Bishop].into_iter().enumerate() {
            for sq in squares(u64::from(board.by_piece(role.of(color)))) {
                let b = 1u64 << sq;
                let rank = relative_rank(color, sq);
                let defended = pawn_attacks(!color, b) & us != 0;
                let out_of_reach = beside(front_span(color, b)) & them == 0;
                if (3..=5).contains(&rank) && defended && out_of_reach {
                    self.add(OUTPOST + i, color, 1);
                }
            }
        }
    }
}

/// The squares a `role` on `sq` attacks with `occupied` blocking sliders.
#[inline]
pub fn attacks_of(role: Role, sq: u32, occupied: u64) -> u64 {
    let square = Square::new(sq);
    let occupied = Bitboard(occupied);
    u64::from(match role {
        Role::Knight => knight_attacks(square),
        Role::Bishop => bishop_attacks(square, occupied),
        Role::Rook => rook_attacks(square, occupied),
        _ => queen_attacks(square, occupied),
    })
}
