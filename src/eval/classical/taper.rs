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

/// A [`Taper`] packed into one integer, `mg + eg·2³²`, for the evaluation's running sums: adding
/// a weight times a count is then one multiply and one add instead of two each. Integer sums
/// and products distribute over the packing, and [`Packed::unpack`] recovers both halves
/// exactly while each stays within `i32` (centipawn sums are far inside it), so the result is
/// the same as summing `Taper`s.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Packed(i64);

impl Packed {
    pub const fn new(t: Taper) -> Packed {
        Packed(t.mg as i64 + ((t.eg as i64) << 32))
    }

    #[inline]
    pub fn unpack(self) -> Taper {
        let mg = self.0 as i32;
        s(mg, ((self.0 - i64::from(mg)) >> 32) as i32)
    }
}

impl Add for Packed {
    type Output = Packed;
    #[inline]
    fn add(self, o: Packed) -> Packed {
        Packed(self.0 + o.0)
    }
}

impl Sub for Packed {
    type Output = Packed;
    #[inline]
    fn sub(self, o: Packed) -> Packed {
        Packed(self.0 - o.0)
    }
}

impl AddAssign for Packed {
    #[inline]
    fn add_assign(&mut self, o: Packed) {
        self.0 += o.0;
    }
}

impl Mul<i32> for Packed {
    type Output = Packed;
    #[inline]
    fn mul(self, n: i32) -> Packed {
        Packed(self.0 * i64::from(n))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sums of packed products unpack to the sums of the pairs, signs mixed.
    #[test]
    fn packed_sums_unpack_to_the_taper_sums() {
        let values = [
            s(0, 0),
            s(1, -1),
            s(-1, 1),
            s(-300, 250),
            s(12_000, -9_000),
            s(-7, -7),
        ];
        let mut packed = Packed::default();
        let mut plain = Taper::default();
        for (i, &v) in values.iter().cycle().take(60).enumerate() {
            let n = i as i32 % 9 - 4;
            packed += Packed::new(v) * n;
            plain += v * n;
            assert_eq!(packed.unpack(), plain);
            assert_eq!((packed - Packed::new(v)).unpack(), plain - v);
        }
    }
}
