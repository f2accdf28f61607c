//! A middlegame/endgame pair: every evaluation term has one value for each, and the two sums
//! are blended by the game phase.

use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

/// A middlegame/endgame pair of centipawn values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Taper {
    pub mg: i32,
    pub eg: i32,
}

/// Shorthand for the generated weight tables.
pub const fn s(mg: i32, eg: i32) -> Taper {
    Taper { mg, eg }
}

impl Add for Taper {
    type Output = Taper;
    #[inline]
    fn add(self, o: Taper) -> Taper {
        s(self.mg + o.mg, self.eg + o.eg)
    }
}

impl Sub for Taper {
    type Output = Taper;
    #[inline]
    fn sub(self, o: Taper) -> Taper {
        s(self.mg - o.mg, self.eg - o.eg)
    }
}

impl AddAssign for Taper {
    #[inline]
    fn add_assign(&mut self, o: Taper) {
        *self = *self + o;
    }
}

impl SubAssign for Taper {
    #[inline]
    fn sub_assign(&mut self, o: Taper) {
        *self = *self - o;
    }
}

impl Mul<i32> for Taper {
    type Output = Taper;
    #[inline]
    fn mul(self, n: i32) -> Taper {
        s(self.mg * n, self.eg * n)
    }
}

impl Neg for Taper {
    type Output = Taper;
    #[inline]
    fn neg(self) -> Taper {
        s(-self.mg, -self.eg)
    }
}
