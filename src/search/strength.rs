//! Play at a chosen level (UCI `UCI_LimitStrength`, `UCI_Elo`), the same on any machine and
//! at any clock: the level sets a node budget per move, log-linear in the Elo (each
//! `ELO_PER_DOUBLING` more doubles it), and below full strength the move is picked among the
//! best few lines with a seeded random push, as Stockfish's skill level does: the weaker the
//! level, the more a line's deficit is forgiven and the larger the push (at most a pawn's
//! worth), so that from 2000 up no level leaves a queen hanging (the weakest levels may, as
//! Stockfish's level 0 does). The clock is still kept, and
//! every `go` still gets one `bestmove`.
//!
//! The numbers are a first guess awaiting calibration in games (issue 32; docs/strength.md):
//! `UCI_Elo` is not yet on any rating list's scale.

use super::root::RootMove;
use crate::rng::Rng;

/// The lowest and highest `UCI_Elo`.
pub const ELO_MIN: i32 = 1320;
pub const ELO_MAX: i32 = 3000;
/// Nodes a move at `ELO_MIN`.
const FLOOR_NODES: f64 = 400.0;
/// Elo for each doubling of the node budget.
const ELO_PER_DOUBLING: f64 = 110.0;
/// Lines searched to pick a move among, below full strength.
pub const LINES: usize = 4;
/// The budget is kept this many nodes below the level's, so that the few nodes a stopping
/// search still counts never take `info nodes` past it.
const STOP_MARGIN: u64 = 16;

/// The node budget of a move at `elo` (clamped to the range): 400 nodes at 1320, doubling
/// every 110 Elo.
pub fn node_budget(elo: i32) -> u64 {
    let elo = elo.clamp(ELO_MIN, ELO_MAX);
    let doublings = f64::from(elo - ELO_MIN) / ELO_PER_DOUBLING;
    (FLOOR_NODES * doublings.exp2()).round() as u64 - STOP_MARGIN
}

/// How much of a line's deficit is forgiven, in 128ths (Stockfish's `120 − 2·level` over
/// levels 0 to 20 spread on the Elo range); `None` at full strength, where the best line is
/// played.
pub fn weakness(elo: i32) -> Option<i32> {
    let elo = elo.clamp(ELO_MIN, ELO_MAX);
    if elo >= ELO_MAX {
        return None;
    }
    let level = 20 * (elo - ELO_MIN) / (ELO_MAX - ELO_MIN);
    Some(120 - 2 * level)
}

/// The index of the line to play among the first `lines` of `root_moves` (best first, their
/// scores from this search): each line's score plus a push of the forgiven part of its deficit
/// and a random share of `delta` (the spread of the lines, at most a pawn).
pub(super) fn pick(root_moves: &[RootMove], lines: usize, weakness: i32, rng: &mut Rng) -> usize {
    let lines = lines.min(root_moves.len());
    if lines <= 1 {
        return 0;
    }
    let top = root_moves[0].score.0;
    let delta = (top - root_moves[lines - 1].score.0).clamp(0, 100);
    let mut best = 0;
    let mut best_value = i32::MIN;
    for (i, rm) in root_moves[..lines].iter().enumerate() {
        if rm.score.is_decisive() && i > 0 {
            continue;
        }
        let random = rng.below(weakness as usize) as i32;
        let push = (weakness * (top - rm.score.0) + delta * random) / 128;
        let value = rm.score.0 + push;
        if value >= best_value {
            best_value = value;
            best = i;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Game;
    use crate::types::Score;

    fn lines(scores: &[i32]) -> Vec<RootMove> {
        let game = Game::default();
        let mut moves = super::super::root::root_moves(&game, &[]);
        for (rm, &s) in moves.iter_mut().zip(scores) {
            rm.score = Score(s);
        }
        moves.truncate(scores.len());
        moves
    }

    /// Weak levels vary their moves among close lines; from 2000 up no level picks a line a
    /// queen worse (the weakest, like Stockfish's level 0, may), and none walks into a mate.
    #[test]
    fn the_pick_varies_among_close_lines_and_never_hangs_a_queen() {
        let close = lines(&[30, 20, 10, 0]);
        let hanging = lines(&[30, 20, 10, -870]);
        let mated = lines(&[30, 25, Score::mated_in(4).0, 20]);
        for elo in [ELO_MIN, 1600, 2000, 2600] {
            let w = weakness(elo).unwrap();
            let mut rng = Rng::new(elo as u64);
            let mut picked = [0; 4];
            for _ in 0..400 {
                picked[pick(&close, LINES, w, &mut rng)] += 1;
                if elo >= 2000 {
                    assert_ne!(pick(&hanging, LINES, w, &mut rng), 3, "{elo}");
                }
                assert_ne!(pick(&mated, LINES, w, &mut rng), 2, "{elo}");
            }
            assert!(
                picked.iter().filter(|&&n| n > 0).count() >= 2,
                "{elo}: {picked:?}"
            );
        }
    }

    #[test]
    fn the_budget_grows_with_the_elo_and_full_strength_plays_the_best_line() {
        let mut last = 0;
        for elo in (ELO_MIN..=ELO_MAX).step_by(10) {
            let budget = node_budget(elo);
            assert!(budget > last, "{elo}");
            last = budget;
        }
        assert_eq!(node_budget(ELO_MIN), 384);
        assert_eq!(node_budget(ELO_MIN + 110), 784);
        assert_eq!(node_budget(0), node_budget(ELO_MIN));
        let mut last = 121;
        for elo in (ELO_MIN..ELO_MAX).step_by(10) {
            let w = weakness(elo).unwrap();
            assert!(w <= last && w > 0, "{elo}");
            last = w;
        }
        assert_eq!(weakness(ELO_MAX), None);
    }
}
