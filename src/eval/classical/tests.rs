//! The evaluation's behaviour: colour symmetry of every term, and crafted positions where a
//! term's sign is obvious.

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};

use super::params::GROUPS;
use super::trace::Terms;
use super::*;
use crate::position::pos;

/// The same position with colours swapped and the board flipped top to bottom.
fn mirrored(p: &Chess) -> Chess {
    p.to_setup(EnPassantMode::Legal)
        .into_mirrored()
        .position(CastlingMode::Standard)
        .unwrap()
}

/// Positions from seeded random games (a tiny xorshift: no dependency on other modules).
pub(super) fn random_positions(games: u64, plies: usize) -> Vec<Chess> {
    let mut out = Vec::new();
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    for _ in 0..games {
        let mut p = Chess::default();
        for _ in 0..plies {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            p.play_unchecked(moves[(state % moves.len() as u64) as usize]);
            out.push(p.clone());
        }
    }
    out
}

fn terms(p: &Chess) -> Terms {
    let mut t = Terms::default();
    traced(p.board(), p.turn(), &mut t);
    t
}

/// The total of group `name` from White's side.
fn group(p: &Chess, name: &str) -> Taper {
    let g = GROUPS.iter().position(|g| g.0 == name).unwrap();
    let [white, black] = terms(p).by_group[g];
    white - black
}

#[test]
fn start_position_is_worth_the_tempo() {
    let b = breakdown(&Chess::default());
    assert_eq!(b.white_minus_black, WEIGHTS[TEMPO]);
    assert_eq!(b.phase, MAX_PHASE);
}

#[test]
fn every_term_is_colour_symmetric() {
    let positions = random_positions(40, 100);
    assert!(positions.len() > 2000);
    for p in &positions {
        let m = mirrored(p);
        assert_eq!(
            evaluate(p),
            evaluate(&m),
            "{}",
            Fen::from_position(p, EnPassantMode::Legal)
        );
        let (a, b) = (terms(p), terms(&m));
        for (g, &(name, _, _)) in GROUPS.iter().enumerate() {
            assert_eq!(a.by_group[g][0], b.by_group[g][1], "{name} White/Black");
            assert_eq!(a.by_group[g][1], b.by_group[g][0], "{name} Black/White");
        }
    }
}

#[test]
fn terms_add_up_to_the_evaluation() {
    for p in random_positions(10, 80) {
        let t = terms(&p);
        let sum = t
            .by_group
            .iter()
            .fold(Taper::default(), |acc, [w, b]| acc + *w - *b);
        assert_eq!(sum, breakdown(&p).white_minus_black);
    }
}

#[test]
fn extra_material_is_good_for_its_owner() {
    let up_a_queen = pos("4k3/8/8/8/8/8/8/3QK3 w - - 0 1");
    assert!(evaluate(&up_a_queen) > Score(800));
    let same_black_to_move = pos("4k3/8/8/8/8/8/8/3QK3 b - - 0 1");
    assert!(evaluate(&same_black_to_move) < Score(-800));
}

#[test]
fn phase_runs_from_full_board_to_bare_kings() {
    assert_eq!(breakdown(&Chess::default()).phase, MAX_PHASE);
    assert_eq!(
        breakdown(&pos("4k3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1")).phase,
        0
    );
}

#[test]
fn a_passed_pawn_on_the_seventh_is_worth_more_than_on_the_third() {
    let seventh = pos("8/3P4/8/8/8/8/k7/4K3 b - - 0 1");
    let third = pos("8/8/8/8/8/3P4/k7/4K3 b - - 0 1");
    let passed = |p: &Chess| {
        [
            "PASSED",
            "PASSED_SAFE_PUSH",
            "PASSED_OWN_KING_DISTANCE",
            "PASSED_ENEMY_KING_DISTANCE",
        ]
        .iter()
        .fold(Taper::default(), |acc, g| acc + group(p, g))
    };
    assert!(passed(&seventh).eg > passed(&third).eg + 30);
    assert!(group(&third, "PASSED").eg > 0);
    assert!(breakdown(&seventh).white > breakdown(&third).white);
}

#[test]
fn a_king_behind_its_pawn_shield_is_safer_than_one_without() {
    // Same material; only where White's three pawns stand differs. The shield is learnt by the
    // king-relative pawn table as much as by PAWN_SHIELD, so the whole evaluation is compared.
    let shielded = pos("r2q1rk1/ppp5/8/8/8/8/5PPP/R2Q1RK1 w - - 0 1");
    let far_wing = pos("r2q1rk1/ppp5/8/8/8/8/PPP5/R2Q1RK1 w - - 0 1");
    let pushed = pos("r2q1rk1/ppp5/8/8/8/5PPP/8/R2Q1RK1 w - - 0 1");
    assert!(evaluate(&shielded) > evaluate(&far_wing) + 20);
    assert!(evaluate(&shielded) > evaluate(&pushed));
    let stripped = pos("r5k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    assert!(
        group(&stripped, "KING_FILE").mg < 0,
        "open files next to the king"
    );
}

#[test]
fn weak_pawns_cost_their_owner() {
    // Same material in pawn endings: two connected pawns beat isolated and doubled ones. White's
    // pawns stay on the a- to c-files, where Black's a- and b-pawns keep them from being passed
    // (a passed e-pawn is worth more than the structure costs).
    let connected = evaluate(&pos("4k3/pp6/8/8/8/8/PP6/4K3 w - - 0 1"));
    for weak in [
        "4k3/pp6/8/8/8/8/P1P5/4K3 w - - 0 1",
        "4k3/pp6/8/8/8/1P6/1P6/4K3 w - - 0 1",
        "4k3/pp6/8/8/8/P7/P7/4K3 w - - 0 1",
    ] {
        assert!(evaluate(&pos(weak)) < connected, "{weak}");
    }
    let isolated = pos("4k3/pp6/8/8/8/8/P1P5/4K3 w - - 0 1");
    assert!(group(&isolated, "ISOLATED").eg < 0);
    let doubled = pos("4k3/pp6/8/8/8/P7/P7/4K3 w - - 0 1");
    assert!(group(&doubled, "DOUBLED").eg < 0);
}

#[test]
fn an_attacked_king_is_in_danger() {
    // Queen and knight bear on Black's castled king (seven attack units); White's king is left
    // alone. (A lone queen touching one zone square is learnt as close to no danger at all.)
    let attacked = pos("6k1/5ppp/8/4N1Q1/8/8/5PPP/4R1K1 b - - 0 1");
    let danger = group(&attacked, "KING_DANGER") + group(&attacked, "KING_ZONE_ATTACKS");
    assert!(danger.mg > 0, "Black's danger counts for White: {danger:?}");
}

#[test]
fn mobile_pieces_and_the_bishop_pair_are_worth_more() {
    let free = pos("4k3/8/8/8/3B4/8/8/4K3 w - - 0 1");
    let boxed = pos("4k3/8/8/8/8/8/1P6/B3K3 w - - 0 1");
    assert!(group(&free, "MOBILITY_BISHOP").mg > group(&boxed, "MOBILITY_BISHOP").mg);
    let pair = pos("2b1kb2/8/8/8/8/8/8/2B1KB2 w - - 0 1");
    let one_each = pos("2b1kn2/8/8/8/8/8/8/2B1KB2 w - - 0 1");
    assert_eq!(group(&pair, "BISHOP_PAIR"), Taper::default());
    assert!(group(&one_each, "BISHOP_PAIR").eg > 0);
}

#[test]
fn a_rook_likes_an_open_file() {
    let open = pos("4k3/pp6/8/8/8/8/PP6/3RK3 w - - 0 1");
    assert!(group(&open, "ROOK_FILE").mg > 0);
    let closed = pos("4k3/3p4/8/8/8/8/3P4/3RK3 w - - 0 1");
    assert_eq!(group(&closed, "ROOK_FILE"), Taper::default());
}

#[test]
fn a_pawn_attacking_a_piece_is_a_threat() {
    let threat = pos("4k3/8/8/2n5/3P4/8/8/4K3 b - - 0 1");
    assert!(group(&threat, "THREAT_BY_PAWN").mg > 0);
}

#[test]
fn drawish_endgames_are_scaled_down() {
    let rook_v_bishop = pos("4k3/8/8/3b4/8/8/8/R3K3 w - - 0 1");
    assert_eq!(breakdown(&rook_v_bishop).scale, 16);
    // e7 is a dark square, e2 and f7 light ones.
    let opposite_bishops = pos("4k3/p3b3/8/8/8/8/PP2B3/4K3 w - - 0 1");
    assert_eq!(breakdown(&opposite_bishops).scale, 64);
    let same_bishops = pos("4k3/p4b2/8/8/8/8/PP2B3/4K3 w - - 0 1");
    assert_eq!(breakdown(&same_bishops).scale, scale::SCALE_NORMAL);
}

#[test]
fn the_side_to_move_gets_the_tempo() {
    let w = pos("4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    let b = pos("4k3/8/8/8/8/8/8/4K3 b - - 0 1");
    assert_eq!(group(&w, "TEMPO"), WEIGHTS[TEMPO]);
    assert_eq!(group(&b, "TEMPO"), -WEIGHTS[TEMPO]);
}
