//! Where each evaluation parameter lives in the one weight table [`super::weights::WEIGHTS`].
//!
//! The evaluation is linear in these parameters (given the phase and the endgame scale), which
//! is what lets `cutoff tune` fit them all with exact gradients. Each group is a named slice of
//! the table; its length is fixed here, its values are the tuner's.

/// Declares each group's first index and length, in table order, and the list of groups.
macro_rules! groups {
    ($($(#[$doc:meta])* $name:ident: $len:expr;)*) => {
        groups!(@offsets 0usize; $($(#[$doc])* $name: $len;)*);
        /// Every group: name, first index, length.
        pub const GROUPS: &[(&str, usize, usize)] = &[$((stringify!($name), $name, $len)),*];
    };
    (@offsets $at:expr; $(#[$doc:meta])* $name:ident: $len:expr; $($rest:tt)*) => {
        $(#[$doc])*
        pub const $name: usize = $at;
        groups!(@offsets $at + $len; $($rest)*);
    };
    (@offsets $at:expr;) => {
        /// Parameters in all.
        pub const COUNT: usize = $at;
    };
}

groups! {
    /// Piece values, by role (pawn to king).
    MATERIAL: 6;
    /// Placement `[role][square]` seen from the piece's owner, the board mirrored so that the
    /// owner's king stands on the e–h half: a pawn on g2 in front of a castled king and one on b2
    /// in front of a queenside king share an entry.
    PST_OWN_KING: 6 * 64;
    /// The same, mirrored by the opponent king's half: where a piece stands relative to the
    /// king it attacks.
    PST_ENEMY_KING: 6 * 64;
    /// Knight mobility: squares attacked, not held by own pieces nor attacked by enemy pawns.
    MOBILITY_KNIGHT: 9;
    MOBILITY_BISHOP: 14;
    MOBILITY_ROOK: 15;
    MOBILITY_QUEEN: 28;
    /// Passed pawn by relative rank.
    PASSED: 8;
    /// Passed pawn whose stop square is occupied, by rank.
    PASSED_BLOCKED: 8;
    /// Passed pawn whose stop square no enemy piece attacks, by rank.
    PASSED_SAFE_PUSH: 8;
    /// Per square of king distance (own king to the stop square), by rank of the passer.
    PASSED_OWN_KING_DISTANCE: 8;
    /// Per square of king distance (enemy king to the stop square), by rank of the passer.
    PASSED_ENEMY_KING_DISTANCE: 8;
    /// A pawn with no own pawn on either neighbouring file.
    ISOLATED: 1;
    /// A pawn with an own pawn in front of it on its file.
    DOUBLED: 1;
    /// A pawn that no own pawn can defend any more and whose stop square an enemy pawn attacks.
    BACKWARD: 1;
    /// A pawn with an own pawn beside it, by rank.
    PHALANX: 8;
    /// A pawn defended by an own pawn, by rank.
    DEFENDED_PAWN: 8;
    /// King-zone attack units (2 per knight or bishop, 3 per rook, 5 per queen attacking the
    /// zone, capped): the table makes the danger grow faster than the count.
    KING_DANGER: 25;
    /// Per attack of an enemy piece on a square of the king zone.
    KING_ZONE_ATTACKS: 1;
    /// Safe checks available to the enemy, by checking role (knight, bishop, rook, queen).
    SAFE_CHECK: 4;
    /// Own pawn shield on each of the three files around the king: none, one rank ahead, two,
    /// three or more.
    PAWN_SHIELD: 4;
    /// Enemy pawn storm on those files: none, one rank from the king, two, three or more.
    PAWN_STORM: 4;
    /// Files around the king without own pawns: per file, semi-open (enemy pawns) then open.
    KING_FILE: 2;
    /// Our pawns attacking enemy pieces, by attacked role (knight, bishop, rook, queen).
    THREAT_BY_PAWN: 4;
    /// Our knights and bishops attacking enemy pieces, by role (pawn to queen).
    THREAT_BY_MINOR: 5;
    /// Our rooks attacking enemy pieces, by role (pawn to queen).
    THREAT_BY_ROOK: 5;
    /// Enemy pieces (not pawns) that we attack and they do not defend.
    HANGING: 1;
    BISHOP_PAIR: 1;
    /// Rook on a file with no pawns, then on a file with only enemy pawns.
    ROOK_FILE: 2;
    /// Rook on the seventh rank.
    ROOK_SEVENTH: 1;
    /// Knight, then bishop, on a square of ranks 4–6 defended by an own pawn and out of reach
    /// of enemy pawns.
    OUTPOST: 2;
    /// The side to move's bonus.
    TEMPO: 1;
}

/// The group holding parameter `index` and the index's place in it.
pub fn group_of(index: usize) -> (&'static str, usize) {
    GROUPS
        .iter()
        .find(|&&(_, start, len)| index >= start && index < start + len)
        .map(|&(name, start, _)| (name, index - start))
        .expect("index below COUNT")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_tile_the_table_in_order() {
        let mut at = 0;
        for &(name, start, len) in GROUPS {
            assert_eq!(start, at, "{name}");
            assert!(len > 0, "{name}");
            at += len;
        }
        assert_eq!(at, COUNT);
        assert_eq!(group_of(PST_OWN_KING + 70), ("PST_OWN_KING", 70));
        assert_eq!(group_of(COUNT - 1), ("TEMPO", 0));
    }
}
