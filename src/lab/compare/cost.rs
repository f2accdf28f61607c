//! What a `cutoff compare` depth will cost, known before it starts. Minimax visits every node
//! of the legal move tree (`tests/compare.rs` holds it to the perft counts), so its node count
//! to depth D is perft(0) + perft(1) + ... + perft(D): counted exactly with the fast perft
//! while that is cheap, and beyond it extrapolated by the branching of the last counted plies.
//! Minimax is most of a run's time (at depth 6 of the start position 42.5 of 50.7 s,
//! docs/alphabeta.md), so its count, at the rate it is measured to run, is the run's cost.

use shakmaty::Chess;

use crate::perft::perft;
use crate::types::Depth;

/// A ply is counted exactly only while the ply before it has at most this many leaves: perft's
/// cost is about one move generation per node of the ply before the last (a few milliseconds
/// here), so the estimate never costs a noticeable part of what it estimates.
const COUNT_LIMIT: u64 = 200_000;

/// The counted leaves of each ply, and the growth a ply beyond them.
#[derive(Clone, Debug, PartialEq)]
pub struct CostModel {
    /// perft(0), perft(1), ... as far as counted (perft(0) = 1: the root).
    leaves: Vec<u64>,
    /// Leaves per leaf a ply beyond the counted ones: the geometric mean of the last two
    /// counted plies' growth, so that the two sides' different move counts even out.
    branching: f64,
}

impl CostModel {
    /// Counts `pos`'s move tree ply by ply up to `depth`, while the ply before has at most
    /// 200,000 leaves (`COUNT_LIMIT`).
    pub fn new(pos: &Chess, depth: Depth) -> CostModel {
        let mut leaves = vec![1u64];
        for d in 1..=depth.max(0) as u32 {
            let last = *leaves.last().expect("the root is counted");
            if last == 0 || last > COUNT_LIMIT {
                break;
            }
            leaves.push(perft(pos, d));
        }
        let k = leaves.len() - 1;
        let branching = match k {
            0 => 0.0,
            1 => leaves[1] as f64,
            _ => (leaves[k] as f64 / leaves[k - 2].max(1) as f64).sqrt(),
        };
        CostModel { leaves, branching }
    }

    /// The deepest ply counted exactly.
    fn counted(&self) -> usize {
        self.leaves.len() - 1
    }

    /// Whether [`minimax_nodes`](Self::minimax_nodes) at `depth` is an exact count: every ply
    /// to it was counted, or the tree ended before it (every line mated or stalemated).
    pub fn is_exact(&self, depth: Depth) -> bool {
        depth.max(0) as usize <= self.counted() || self.leaves.last() == Some(&0)
    }

    /// The leaves per leaf a ply beyond the counted plies.
    pub fn branching(&self) -> f64 {
        self.branching
    }

    /// The nodes minimax visits searching to `depth`, the root included: exact where
    /// [`is_exact`](Self::is_exact), else the counted plies and the extrapolated ones.
    pub fn minimax_nodes(&self, depth: Depth) -> f64 {
        let depth = depth.max(0) as usize;
        let counted = self.counted();
        let exact: u64 = self.leaves.iter().take(depth + 1).sum();
        let last = self.leaves[counted] as f64;
        let beyond: f64 = (counted + 1..=depth)
            .map(|d| last * self.branching.powi((d - counted) as i32))
            .sum();
        exact as f64 + beyond
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::pos;

    /// Perft position 3's counts (1, 14, 191, 2 812, 43 238, 674 624): all but the last are
    /// counted before the limit stops the counting.
    #[test]
    fn the_plies_are_counted_until_the_ply_before_passes_the_limit() {
        let model = CostModel::new(&pos("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"), 9);
        assert_eq!(model.leaves, [1, 14, 191, 2_812, 43_238, 674_624]);
        assert!(model.is_exact(5) && !model.is_exact(6));
        assert_eq!(model.minimax_nodes(5), 720_880.0);
        let growth = (674_624.0f64 / 2_812.0).sqrt();
        assert!((model.branching() - growth).abs() < 1e-9);
        let six = 720_880.0 + 674_624.0 * growth;
        assert!((model.minimax_nodes(6) - six).abs() < 1e-3);
        assert_eq!(CostModel::new(&Chess::default(), 0).minimax_nodes(0), 1.0);
    }
}
