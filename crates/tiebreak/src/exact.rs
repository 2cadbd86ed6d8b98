//! Exact tie-break values.
//!
//! Points are never floating point in this crate: every score is an integer number of
//! scoring *units* (see [`crate::Scoring::units_per_point`]) and every reported value is an
//! [`Exact`] rational number, reduced, with a positive denominator. Averages that C.07 says
//! must be rounded (ARO, TPR, APRO, APPO: Art. 10, "0.5 rounded up") are rounded by
//! [`round_half_up`] and reported as integers.

use serde::{Deserialize, Serialize};
use std::cmp::Ordering;
use std::fmt;

/// An exact rational value `num / den`, always reduced, `den > 0`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Exact {
    num: i64,
    den: i64,
}

fn gcd(mut a: i64, mut b: i64) -> i64 {
    a = a.abs();
    b = b.abs();
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    a
}

impl Exact {
    /// Zero.
    pub const ZERO: Exact = Exact { num: 0, den: 1 };

    /// `num / den`, reduced. A zero denominator yields `None` (never panics).
    pub fn ratio(num: i64, den: i64) -> Option<Exact> {
        if den == 0 {
            return None;
        }
        let (mut n, mut d) = if den < 0 { (-num, -den) } else { (num, den) };
        let g = gcd(n, d);
        if g > 1 {
            n /= g;
            d /= g;
        }
        Some(Exact { num: n, den: d })
    }

    /// Internal constructor for denominators known to be non-zero.
    pub(crate) fn of(num: i64, den: i64) -> Exact {
        Exact::ratio(num, den).unwrap_or(Exact::ZERO)
    }

    /// An integer value.
    pub fn integer(n: i64) -> Exact {
        Exact { num: n, den: 1 }
    }

    /// Numerator (reduced).
    pub fn numerator(self) -> i64 {
        self.num
    }

    /// Denominator (reduced, positive).
    pub fn denominator(self) -> i64 {
        self.den
    }

    /// Exact sum (saturates rather than overflowing on absurd inputs).
    pub fn plus(self, other: Exact) -> Exact {
        let num = self.num as i128 * other.den as i128 + other.num as i128 * self.den as i128;
        let den = self.den as i128 * other.den as i128;
        let g = {
            let (mut a, mut b) = (num.abs(), den.abs());
            while b != 0 {
                let t = a % b;
                a = b;
                b = t;
            }
            a.max(1)
        };
        let (n, d) = (num / g, den / g);
        let clamp = |x: i128| x.clamp(i64::MIN as i128, i64::MAX as i128) as i64;
        Exact::of(clamp(n), clamp(d))
    }

    /// Approximation for display or charts only; never used for ranking.
    pub fn to_f64(self) -> f64 {
        self.num as f64 / self.den as f64
    }
}

impl std::ops::Add for Exact {
    type Output = Exact;
    fn add(self, other: Exact) -> Exact {
        self.plus(other)
    }
}

impl Ord for Exact {
    fn cmp(&self, other: &Self) -> Ordering {
        (self.num as i128 * other.den as i128).cmp(&(other.num as i128 * self.den as i128))
    }
}

impl PartialOrd for Exact {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Exact {
    /// Integers print as integers; values whose denominator divides 10⁴ print as exact
    /// decimals (`15.5`, `7.25`); anything else prints as a fraction (`31/3`), so the
    /// display is always exact.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.den == 1 {
            return write!(f, "{}", self.num);
        }
        if 10_000 % self.den == 0 {
            let scaled = self.num as i128 * (10_000 / self.den) as i128;
            let sign = if scaled < 0 { "-" } else { "" };
            let a = scaled.abs();
            let int = a / 10_000;
            let mut frac = format!("{:04}", a % 10_000);
            while frac.ends_with('0') {
                frac.pop();
            }
            return write!(f, "{sign}{int}.{frac}");
        }
        write!(f, "{}/{}", self.num, self.den)
    }
}

/// `sum / count` rounded to the nearest integer, 0.5 rounded up (C.07 Art. 10.1).
/// Returns `None` when `count == 0`.
pub fn round_half_up(sum: i64, count: i64) -> Option<i64> {
    if count <= 0 {
        return None;
    }
    // floor((sum / count) + 1/2) = floor((2·sum + count) / (2·count))
    Some((2 * sum + count).div_euclid(2 * count))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reduces_and_orders() {
        assert_eq!(Exact::of(10, 20), Exact::of(1, 2));
        assert!(Exact::of(1, 3) < Exact::of(1, 2));
        assert_eq!(Exact::of(-2, -4), Exact::of(1, 2));
        assert_eq!(Exact::ratio(1, 0), None);
    }

    #[test]
    fn displays_exactly() {
        assert_eq!(Exact::of(31, 2).to_string(), "15.5");
        assert_eq!(Exact::of(29, 4).to_string(), "7.25");
        assert_eq!(Exact::of(31, 3).to_string(), "31/3");
        assert_eq!(Exact::of(-1, 2).to_string(), "-0.5");
        assert_eq!(Exact::integer(7).to_string(), "7");
    }

    #[test]
    fn art_10_1_rounds_half_up() {
        // (1500 + 1501) / 2 = 1500.5 -> 1501
        assert_eq!(round_half_up(3001, 2), Some(1501));
        // 4501 / 3 = 1500.33 -> 1500
        assert_eq!(round_half_up(4501, 3), Some(1500));
        // 4502 / 3 = 1500.67 -> 1501
        assert_eq!(round_half_up(4502, 3), Some(1501));
        // negative half rounds up towards +inf: -1.5 -> -1
        assert_eq!(round_half_up(-3, 2), Some(-1));
        assert_eq!(round_half_up(5, 0), None);
    }
}
