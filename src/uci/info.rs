//! The `info` line of each iteration a search reports: depth, score (with its bound and, with
//! `UCI_ShowWDL`, the odds), nodes, speed, table use and the principal variation.

use shakmaty::{CastlingMode, Move};

use super::output::send;
use crate::eval::wdl::WdlModel;
use crate::search::{IterationInfo, Reporter};
use crate::types::Bound;

/// Prints each iteration as an `info` line.
pub(super) struct UciReporter {
    /// How castling moves are written.
    pub mode: CastlingMode,
    /// With `UCI_ShowWDL`: the evaluation's model and the root's material.
    pub wdl: Option<(&'static WdlModel, i32)>,
}

impl Reporter for UciReporter {
    fn iteration(&mut self, info: &IterationInfo<'_>) {
        let bound = match info.bound {
            Bound::Exact => "",
            Bound::Lower => " lowerbound",
            Bound::Upper => " upperbound",
        };
        let pv: Vec<String> = info
            .pv
            .iter()
            .map(|m: &Move| m.to_uci(self.mode).to_string())
            .collect();
        let wdl = match self.wdl {
            Some((model, material)) => {
                let (w, d, l) = model.wdl(info.score, material);
                format!(" wdl {w} {d} {l}")
            }
            None => String::new(),
        };
        send(&format!(
            "info depth {} seldepth {} multipv {} score {}{}{} nodes {} nps {} hashfull {} tbhits {} time {} pv {}",
            info.depth,
            info.seldepth,
            info.multipv,
            info.score,
            bound,
            wdl,
            info.nodes,
            info.nps(),
            info.hashfull,
            info.tb_hits,
            info.elapsed.as_millis(),
            pv.join(" ")
        ));
    }
}
