//! Endgame scaling: positions where the side ahead cannot make its advantage count. The
//! endgame sum is multiplied by `scale / SCALE_NORMAL`; the rules are fixed, not tuned.

use shakmaty::{Board, Color, Role};

use super::bits::LIGHT_SQUARES;

pub const SCALE_NORMAL: i32 = 128;
/// The stronger side has no pawns and at most a minor piece more: usually a draw (KR v KB,
/// KB v K, KRB v KR, ...).
const SCALE_NO_PAWNS: i32 = 16;
/// Bishops of opposite colours and nothing else but pawns.
const SCALE_PURE_OPPOSITE_BISHOPS: i32 = 64;
/// Bishops of opposite colours with other pieces.
const SCALE_OPPOSITE_BISHOPS: i32 = 96;

/// Material outside pawns and kings, in pawns (3 per minor, 5 per rook, 9 per queen).
fn piece_material(board: &Board, color: Color) -> i32 {
    let m = board.material_side(color);
    3 * i32::from(m.knight + m.bishop) + 5 * i32::from(m.rook) + 9 * i32::from(m.queen)
}

/// The endgame scale of `board` when the endgame sum from White's side is `eg`.
pub fn endgame_scale(board: &Board, eg: i32) -> i32 {
    let strong = Color::from_white(eg > 0);
    let strong_pawns = board.by_piece(Role::Pawn.of(strong));
    if strong_pawns.is_empty()
        && piece_material(board, strong) - piece_material(board, !strong) <= 3
    {
        return SCALE_NO_PAWNS;
    }
    let white_bishops = u64::from(board.by_piece(Role::Bishop.of(Color::White)));
    let black_bishops = u64::from(board.by_piece(Role::Bishop.of(Color::Black)));
    let opposite = white_bishops.count_ones() == 1
        && black_bishops.count_ones() == 1
        && (white_bishops & LIGHT_SQUARES == 0) != (black_bishops & LIGHT_SQUARES == 0);
    if opposite {
        let others = board.knights() | board.rooks() | board.queens();
        return if others.is_empty() {
            SCALE_PURE_OPPOSITE_BISHOPS
        } else {
            SCALE_OPPOSITE_BISHOPS
        };
    }
    SCALE_NORMAL
}
