//! Move ordering: which moves to try first so that alpha-beta cuts early.

use shakmaty::{Move, Role};

/// Value of a role for MVV-LVA (only the order matters).
const fn role_value(role: Role) -> i32 {
    match role {
        Role::Pawn => 1,
        Role::Knight => 3,
        Role::Bishop => 3,
        Role::Rook => 5,
        Role::Queen => 9,
        Role::King => 20,
    }
}

/// Most Valuable Victim, Least Valuable Attacker: captures of big pieces by small ones first,
/// promotions by the promoted piece. Quiet moves score 0, every capture or promotion above 0.
pub fn mvv_lva(m: &Move) -> i32 {
    let victim = match m {
        Move::EnPassant { .. } => role_value(Role::Pawn),
        _ => m.capture().map_or(0, role_value),
    };
    let promotion = m.promotion().map_or(0, role_value);
    if victim == 0 && promotion == 0 {
        return 0;
    }
    100 * (victim + promotion) - role_value(m.role()) + 100
}
