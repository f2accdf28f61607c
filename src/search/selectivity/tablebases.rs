//! Step 2b: the tablebases in the search (where they are exact and `SyzygyProbeDepth` allows;
//! the fixed `TB_STORE_DEPTH_BONUS`).

use shakmaty::{Chess, Position};

use crate::position::Key;
use crate::search::params::TB_STORE_DEPTH_BONUS;
use crate::search::tables::tt::Stored;
use crate::search::worker::Worker;
use crate::types::{Bound, Depth, Ply, Score, MAX_PLY};

impl Worker<'_> {
    /// Step 2b: whether the tablebases are exact and worth probing here (Stockfish's
    /// conditions): few enough pieces, deep enough (any depth below the largest tables' piece
    /// count), just after a capture or pawn move (the half-move clock is 0, so WDL is exact),
    /// no castling rights.
    #[inline]
    fn probes_tablebases(&self, pos: &Chess, depth: Depth) -> bool {
        let pieces = pos.board().occupied().count();
        let cardinality = self.tb_cardinality;
        pieces <= cardinality
            && (pieces < cardinality || depth >= self.settings.tb_probe_depth)
            && pos.halfmoves() == 0
            && !pos.castles().any()
    }

    /// Step 2b: probes the tablebases where they are exact and worth it
    /// (`probes_tablebases`). A sure result settles the node and goes to the table; at a PV node
    /// a result that does not settle it bounds it: `Ok((floor, ceiling))`.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn probe_tablebases(
        &mut self,
        pos: &Chess,
        key: Key,
        depth: Depth,
        ply: Ply,
        alpha: Score,
        beta: Score,
        pv_node: bool,
    ) -> Result<(Score, Score), Score> {
        let open = Ok((-Score::INFINITE, Score::INFINITE));
        if !self.probes_tablebases(pos, depth) {
            return open;
        }
        let Some(outcome) = self.shared.tablebases.probe_wdl(pos) else {
            return open;
        };
        self.stats.tb_hits += 1;
        let draw_band = i32::from(self.settings.tb_fifty_move_rule);
        let wdl = outcome.signum2();
        let (score, bound) = if wdl < -draw_band {
            (Score::tb_loss_in(ply), Bound::Upper)
        } else if wdl > draw_band {
            (Score::tb_win_in(ply), Bound::Lower)
        } else {
            (Score::DRAW + 2 * wdl * draw_band, Bound::Exact)
        };
        if bound.settles(score, alpha, beta) {
            let stored = Stored {
                depth: (depth + TB_STORE_DEPTH_BONUS).min(MAX_PLY as Depth - 1),
                score,
                bound,
                mv: None,
                eval: None,
            };
            self.shared.tt.store(key, ply, stored);
            return Err(score);
        }
        Ok(match (pv_node, bound) {
            (true, Bound::Lower) => (score, Score::INFINITE),
            (true, _) => (-Score::INFINITE, score),
            (false, _) => (-Score::INFINITE, Score::INFINITE),
        })
    }
}
