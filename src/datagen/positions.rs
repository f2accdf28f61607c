//! The positions of a stored game as a trainer sees them, and the one [`Filter`] that
//! `--stats` counts with and the trainer reads with (`train::data`, `train::reader`).

use shakmaty::{Chess, Move, Position};

use super::viriformat::ScoredGame;
use super::GameResult;
use crate::types::Score;

/// One stored position with what a trainer learns from.
#[derive(Clone, Debug)]
pub struct TrainingPosition {
    /// The board, side to move, castling rights and en-passant square.
    pub pos: Chess,
    /// The search score in centipawns **from White's side**, as stored (mate scores as the
    /// engine's `±(32000 − plies)`); [`TrainingPosition::stm_score`] turns it.
    pub white_score: i16,
    pub result: GameResult,
    /// The game ply: `2·(full-move number − 1)`, plus 1 with Black to move (see [`game_ply`]).
    pub ply: u32,
    /// The move played (the search's best move).
    pub best: Move,
}

impl TrainingPosition {
    /// The search score from the side to move's view.
    pub fn stm_score(&self) -> i16 {
        if self.pos.turn().is_white() {
            self.white_score
        } else {
            self.white_score.saturating_neg()
        }
    }
}

/// The ply of a position in its game, from its move counters: what viriformat's tools filter
/// on. Games converted from 40-byte files start at full move 1 on their first searched
/// position (those files keep no move number), and book positions read from EPD start at 1.
pub fn game_ply(pos: &Chess) -> u32 {
    2 * (pos.fullmoves().get() - 1) + u32::from(pos.turn().is_black())
}

/// Which positions a trainer learns from. The default is the trainer's: the side to move not
/// in check, the move played neither a capture nor a promotion (a static evaluation cannot see
/// the tactic), game ply 16 on, and a score of at most 2000 cp that is not a mate score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Filter {
    pub min_ply: u32,
    /// Largest |score| kept, centipawns.
    pub max_score: i32,
    pub skip_in_check: bool,
    /// Skip positions whose move played captures or promotes.
    pub skip_tactical: bool,
    pub skip_mate_scores: bool,
}

impl Default for Filter {
    fn default() -> Self {
        Filter {
            min_ply: 16,
            max_score: 2000,
            skip_in_check: true,
            skip_tactical: true,
            skip_mate_scores: true,
        }
    }
}

impl Filter {
    /// Keeps everything.
    pub const ALL: Filter = Filter {
        min_ply: 0,
        max_score: i32::MAX,
        skip_in_check: false,
        skip_tactical: false,
        skip_mate_scores: false,
    };

    pub fn passes(&self, pos: &Chess, best: &Move, white_score: i16) -> bool {
        let score = i32::from(white_score);
        !(game_ply(pos) < self.min_ply
            || score.abs() > self.max_score
            || (self.skip_mate_scores && Score(score).is_mate())
            || (self.skip_in_check && pos.is_check())
            || (self.skip_tactical && (best.is_capture() || best.is_promotion())))
    }

    pub fn passes_position(&self, p: &TrainingPosition) -> bool {
        self.passes(&p.pos, &p.best, p.white_score)
    }
}

/// Every position of a game, in order.
pub fn game_positions(game: &ScoredGame) -> impl Iterator<Item = TrainingPosition> + '_ {
    game.positions()
        .map(|(pos, best, white_score)| TrainingPosition {
            ply: game_ply(&pos),
            pos,
            white_score,
            result: game.result,
            best,
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::pos;
    use shakmaty::uci::UciMove;

    fn mv(p: &Chess, uci: &str) -> Move {
        uci.parse::<UciMove>().unwrap().to_move(p).unwrap()
    }

    #[test]
    fn the_default_filter_drops_each_kind_of_position_it_names() {
        let f = Filter::default();
        // Full move 9, White to move: ply 16.
        let quiet = pos("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 9");
        let m = mv(&quiet, "f1c4");
        assert_eq!(game_ply(&quiet), 16);
        assert!(f.passes(&quiet, &m, 35));
        assert!(f.passes(&quiet, &m, -2000));
        assert!(!f.passes(&quiet, &m, 2001), "score");
        assert!(!f.passes(&quiet, &m, Score::mate_in(3).0 as i16), "mate");
        let early = pos("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 8");
        assert!(!f.passes(&early, &m, 0), "ply 14");
        assert!(Filter::ALL.passes(&early, &m, 30000));
        assert!(!f.passes(&quiet, &mv(&quiet, "f3e5"), 0), "capture");
        let check = pos("4k3/8/8/8/8/8/4r3/4K3 w - - 0 30");
        assert!(!f.passes(&check, &mv(&check, "e1e2"), 0), "in check");
        let promo = pos("4k3/1P6/8/8/8/8/8/4K3 w - - 0 30");
        assert!(!f.passes(&promo, &mv(&promo, "b7b8q"), 0), "promotion");
        assert!(f.passes(&promo, &mv(&promo, "e1d2"), 0));
    }

    #[test]
    fn scores_turn_to_the_side_to_move() {
        let p = pos("4k3/8/8/8/8/8/8/4K3 b - - 0 30");
        let best = p.legal_moves()[0];
        let t = TrainingPosition {
            pos: p,
            white_score: 120,
            result: GameResult::Draw,
            ply: 59,
            best,
        };
        assert_eq!(t.stm_score(), -120);
    }
}
