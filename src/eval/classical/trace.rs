//! Who watches the evaluation add up its terms.
//!
//! The evaluation is written once, generic over a [`Trace`]: the search uses [`NoTrace`], whose
//! calls compile to nothing; the tuner records each parameter's coefficient ([`Coefficients`]);
//! the `eval` command sums each group's contribution per colour ([`Terms`]).

use shakmaty::Color;

use super::params;
use super::taper::Taper;
use super::weights::WEIGHTS;

/// Receives "parameter `index` counts `count` times for `color`".
pub trait Trace {
    /// Whether cached partial sums may stand in for terms (only when nobody watches them).
    const CACHEABLE: bool = false;
    fn add(&mut self, index: usize, color: Color, count: i32);
}

/// The search's trace: nothing is recorded.
pub struct NoTrace;

impl Trace for NoTrace {
    const CACHEABLE: bool = true;
    #[inline(always)]
    fn add(&mut self, _: usize, _: Color, _: i32) {}
}

/// Each parameter's net coefficient from White's side (White's count minus Black's): the
/// evaluation's middlegame and endgame sums are these coefficients times the weights.
#[derive(Clone, Debug)]
pub struct Coefficients(pub Vec<i32>);

impl Default for Coefficients {
    fn default() -> Coefficients {
        Coefficients(vec![0; params::COUNT])
    }
}

impl Trace for Coefficients {
    #[inline]
    fn add(&mut self, index: usize, color: Color, count: i32) {
        self.0[index] += if color.is_white() { count } else { -count };
    }
}

/// Each group's contribution per colour, for the `eval` command.
#[derive(Clone, Debug)]
pub struct Terms {
    /// Indexed like `params::GROUPS`: White's sum, Black's sum.
    pub by_group: Vec<[Taper; 2]>,
}

impl Default for Terms {
    fn default() -> Terms {
        Terms {
            by_group: vec![[Taper::default(); 2]; params::GROUPS.len()],
        }
    }
}

impl Trace for Terms {
    fn add(&mut self, index: usize, color: Color, count: i32) {
        let group = params::GROUPS
            .iter()
            .position(|&(_, start, len)| index >= start && index < start + len)
            .expect("index below COUNT");
        self.by_group[group][usize::from(color.is_black())] += WEIGHTS[index] * count;
    }
}
