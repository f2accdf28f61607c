//! Golden-section search: the minimum of a function of one number that has one minimum in a
//! range. The Texel tuner ([`crate::tune`]) and the net trainer ([`crate::train`]) each fit
//! their `K` with it, and neither may import the other.

/// The argument in `range` that minimises `f`, to within `tolerance`: for a function with one
/// minimum there (the tuner's and the trainer's error as a function of their `K`).
pub fn minimise(range: (f64, f64), tolerance: f64, f: impl Fn(f64) -> f64) -> f64 {
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let (mut lo, mut hi) = range;
    let mut a = hi - ratio * (hi - lo);
    let mut b = lo + ratio * (hi - lo);
    let (mut fa, mut fb) = (f(a), f(b));
    while hi - lo > tolerance {
        if fa < fb {
            hi = b;
            b = a;
            fb = fa;
            a = hi - ratio * (hi - lo);
            fa = f(a);
        } else {
            lo = a;
            a = b;
            fa = fb;
            b = lo + ratio * (hi - lo);
            fb = f(b);
        }
    }
    (lo + hi) / 2.0
}
