//! The killer moves: per ply, the quiet moves that last cut there.

use shakmaty::Move;

/// The two quiet moves that last caused a beta cutoff at one ply elsewhere in the tree
/// (siblings often share a refutation), the newest first.
#[derive(Clone, Copy, Debug, Default)]
pub struct Killers([Option<Move>; 2]);

impl Killers {
    #[inline]
    pub fn get(&self) -> [Option<Move>; 2] {
        self.0
    }

    #[inline]
    pub fn add(&mut self, m: Move) {
        if self.0[0] != Some(m) {
            self.0[1] = self.0[0];
            self.0[0] = Some(m);
        }
    }
}
