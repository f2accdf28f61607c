//! Step 10: extensions. 10a singular extensions with multi-cut and negative extensions
//! (switch `singular_extensions`; tunables `se_min_depth`, `se_margin`); 10b the check
//! extension (switch `check_extension`, off); 10c double extensions (switch
//! `double_extensions`; tunables `se_double_margin`, `se_double_max`).

use shakmaty::{Chess, Move};

use crate::search::alphabeta::Node;
use crate::search::params::{se_double_margin, se_double_max, se_margin, se_min_depth};
use crate::search::tables::tt::Hit;
use crate::search::worker::{KnownCheck, Worker};
use crate::types::{Bound, Depth, Score};

/// What the singular-extension search (step 10a) decided about the table's move.
enum Singular {
    /// Search it this many plies deeper (negative: shallower).
    Extend(Depth),
    /// The node fails high with this score without searching further.
    MultiCut(Score),
}

impl Worker<'_> {
    /// Step 10: how many plies deeper `m` is searched. 10a (package):
    /// a singular table move one more, a table move that is not alone one less, and `Err`
    /// with the node's value when even the other moves reach beta (multi-cut). 10b (off: +3.1
    /// ± 25.0, inconclusive): a check one more. 10c (+8.0 ± 5.5): a very singular move two.
    pub(crate) fn extension(
        &mut self,
        pos: &Chess,
        node: &Node,
        singular_candidate: Option<Hit>,
        m: Move,
        gives_check: bool,
        beta: Score,
    ) -> Result<Depth, Score> {
        let plies = match singular_candidate.map(|hit| self.singular(pos, node, &hit, m, beta)) {
            Some(Singular::MultiCut(score)) => return Err(score),
            Some(Singular::Extend(plies)) if plies != 0 => plies,
            _ => self.check_extension(gives_check),
        };
        // Step 10c: the child's path holds this node's double extensions, and this one.
        let below = self.stack[node.ply].double_extensions + u8::from(plies >= 2);
        self.stack[node.ply + 1].double_extensions = below;
        Ok(plies)
    }

    /// Step 10a: whether the table's move may be tested for singularity: deep enough, not at
    /// the root nor inside another singular search, and the stored search says the move is at
    /// least as good as its (not decisive) score, from nearly as deep.
    #[inline]
    fn tries_singular(&self, node: &Node, hit: &Hit) -> bool {
        let depth = node.depth;
        self.steps.singular_extensions
            && node.ply != 0
            && depth >= se_min_depth()
            && node.excluded.is_none()
            && hit.bound != Bound::Upper
            && hit.depth >= depth - 3
            && !hit.score.is_decisive()
    }

    /// Step 10a: whether the table's move `m` is singular: searched without it, at half the
    /// depth, the node stays below `singular_beta`, a margin under the stored score. Then `m`
    /// is extended. If the other moves reach
    /// `singular_beta` and that is at least beta, several moves cut: the node fails high
    /// (multi-cut). If they reach it and the stored score is at least beta, `m` is likely
    /// not the only good move: it is searched a ply shallower (negative extension).
    fn singular(&mut self, pos: &Chess, node: &Node, hit: &Hit, m: Move, beta: Score) -> Singular {
        let depth = node.depth;
        if !self.tries_singular(node, hit) {
            return Singular::Extend(0);
        }
        let singular_beta = singular_beta(hit, depth);
        self.stack[node.ply].excluded = Some(m);
        let score = self.alpha_beta(
            pos,
            node.key,
            (depth - 1) / 2,
            node.ply,
            singular_beta - 1,
            singular_beta,
            KnownCheck::Known(node.in_check),
        );
        self.stack[node.ply].excluded = None;
        if self.stopped {
            return Singular::Extend(0);
        }
        match singular_verdict(score, singular_beta, hit.score, beta) {
            // Step 10c (+8.0 ± 5.5): a move far above its siblings, two plies.
            Singular::Extend(1) if self.extends_twice(node, score, singular_beta) => {
                Singular::Extend(2)
            }
            verdict => verdict,
        }
    }

    /// Step 10c: whether a singular table move (its siblings' best `score` below
    /// `singular_beta`) is so far alone that it gets a second ply: off the principal
    /// variation, `se_double_margin` further below, and not more than `se_double_max` times on
    /// the path from the root, which bounds how far a line can grow.
    #[inline]
    fn extends_twice(&self, node: &Node, score: Score, singular_beta: Score) -> bool {
        self.steps.double_extensions
            && !node.pv_node
            && score < singular_beta - se_double_margin()
            && i32::from(self.stack[node.ply].double_extensions) < se_double_max()
    }

    /// Step 10b: a check is searched one ply deeper (when the step is on).
    #[inline]
    fn check_extension(&self, gives_check: bool) -> Depth {
        Depth::from(self.steps.check_extension && gives_check)
    }
}

/// Step 10a: the window a singular search tests the other moves against: a margin under the
/// stored score, wider the deeper the node.
#[inline]
fn singular_beta(hit: &Hit, depth: Depth) -> Score {
    hit.score - se_margin() * depth
}

/// Step 10a: what the other moves' value `score` (searched below `singular_beta`) says about
/// the table's move: singular if they stay below; several moves cut if they reach it and it
/// is at least beta (multi-cut); not alone if the stored score is at least beta (a ply
/// shallower); else nothing.
#[inline]
fn singular_verdict(score: Score, singular_beta: Score, stored: Score, beta: Score) -> Singular {
    if score < singular_beta {
        Singular::Extend(1)
    } else if singular_beta >= beta {
        Singular::MultiCut(singular_beta)
    } else if stored >= beta {
        Singular::Extend(-1)
    } else {
        Singular::Extend(0)
    }
}
