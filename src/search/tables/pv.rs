//! The triangular principal-variation table: row `ply` holds the best line found from the node
//! at that ply, built from the child's row whenever a move raises alpha.

use shakmaty::Move;

use crate::types::{Ply, MAX_PLY};

pub struct PvTable {
    lines: Box<[[Option<Move>; MAX_PLY + 1]; MAX_PLY + 1]>,
    lengths: [usize; MAX_PLY + 2],
}

impl Default for PvTable {
    fn default() -> Self {
        PvTable {
            lines: Box::new([[None; MAX_PLY + 1]; MAX_PLY + 1]),
            lengths: [0; MAX_PLY + 2],
        }
    }
}

impl PvTable {
    /// Empties the line at `ply` (a node starts with no line).
    #[inline]
    pub fn clear(&mut self, ply: Ply) {
        self.lengths[ply] = 0;
    }

    /// The line at `ply` becomes `m` followed by the line at `ply + 1`.
    #[inline]
    pub fn update(&mut self, ply: Ply, m: Move) {
        let child_len = if ply < MAX_PLY {
            self.lengths[ply + 1]
        } else {
            0
        };
        let len = (child_len + 1).min(MAX_PLY + 1 - ply);
        let (head, tail) = self.lines.split_at_mut(ply + 1);
        let row = &mut head[ply];
        row[0] = Some(m);
        if len > 1 {
            row[1..len].copy_from_slice(&tail[0][..len - 1]);
        }
        self.lengths[ply] = len;
    }

    pub fn line(&self, ply: Ply) -> impl Iterator<Item = Move> + '_ {
        self.lines[ply][..self.lengths[ply]]
            .iter()
            .flatten()
            .copied()
    }
}
