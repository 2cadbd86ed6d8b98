//! Exact scores: points are counted in tenths of a point, never in floating point.
//!
//! TRF writes points as `11.5` (player record `001` columns 81–84, record `162`, `XXS`, `BB?`,
//! `250`, `299`, `310`, `320`). Every value FIDE uses (1, ½, 0, 3/1/0, 2/1/0, …) is a whole number
//! of tenths, so [`Score`] stores an `i32` of tenths and all arithmetic is exact.

use std::fmt;
use std::iter::Sum;
use std::ops::{Add, AddAssign, Neg, Sub};

/// A number of points, stored exactly as tenths of a point (`Score::from_tenths(15)` is 1.5).
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Default,
    serde::Serialize,
    serde::Deserialize,
)]
pub struct Score(i32);

impl Score {
    /// No points.
    pub const ZERO: Score = Score(0);
    /// Half a point (the default draw value).
    pub const HALF: Score = Score(5);
    /// One point (the default win value).
    pub const ONE: Score = Score(10);

    /// A score of `tenths` tenths of a point.
    pub const fn from_tenths(tenths: i32) -> Score {
        Score(tenths)
    }

    /// A score of `halves` half points (saturating).
    pub const fn from_halves(halves: i32) -> Score {
        Score(halves.saturating_mul(5))
    }

    /// A whole number of points (saturating).
    pub const fn from_points(points: i32) -> Score {
        Score(points.saturating_mul(10))
    }

    /// The score in tenths of a point.
    pub const fn tenths(self) -> i32 {
        self.0
    }

    /// Parses the TRF number format `[-]11.5`: optional sign, digits, optionally a dot and
    /// decimals. Decimals beyond the first must be zeros (`1.50` is accepted, `1.25` is not).
    /// Returns `None` for anything else (empty text, letters, overflow).
    pub fn parse(text: &str) -> Option<Score> {
        let (negative, rest) = match text.strip_prefix('-') {
            Some(r) => (true, r),
            None => (false, text.strip_prefix('+').unwrap_or(text)),
        };
        let (int_part, frac_part) = match rest.split_once('.') {
            Some((i, f)) => (i, Some(f)),
            None => (rest, None),
        };
        if int_part.is_empty() && frac_part.is_none_or(str::is_empty) {
            return None;
        }
        if !int_part.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let mut tenths: i32 = 0;
        for b in int_part.bytes() {
            tenths = tenths.checked_mul(10)?.checked_add(i32::from(b - b'0'))?;
        }
        tenths = tenths.checked_mul(10)?;
        if let Some(frac) = frac_part {
            let mut bytes = frac.bytes();
            if !frac.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            if let Some(first) = bytes.next() {
                tenths = tenths.checked_add(i32::from(first - b'0'))?;
            }
            if bytes.any(|b| b != b'0') {
                return None;
            }
        }
        Some(Score(if negative { -tenths } else { tenths }))
    }
}

impl fmt::Display for Score {
    /// Formats as TRF does: `4.5`, `17.0`, `-1.5`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        let abs = self.0.unsigned_abs();
        write!(f, "{sign}{}.{}", abs / 10, abs % 10)
    }
}

impl Add for Score {
    type Output = Score;
    fn add(self, rhs: Score) -> Score {
        Score(self.0.saturating_add(rhs.0))
    }
}

impl Sub for Score {
    type Output = Score;
    fn sub(self, rhs: Score) -> Score {
        Score(self.0.saturating_sub(rhs.0))
    }
}

impl Neg for Score {
    type Output = Score;
    fn neg(self) -> Score {
        Score(self.0.saturating_neg())
    }
}

impl AddAssign for Score {
    fn add_assign(&mut self, rhs: Score) {
        *self = *self + rhs;
    }
}

impl Sum for Score {
    fn sum<I: Iterator<Item = Score>>(iter: I) -> Score {
        iter.fold(Score::ZERO, Add::add)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_trf_number_format() {
        assert_eq!(Score::parse("11.5"), Some(Score::from_tenths(115)));
        assert_eq!(Score::parse("0.0"), Some(Score::ZERO));
        assert_eq!(Score::parse("3"), Some(Score::from_points(3)));
        assert_eq!(Score::parse("-1.5"), Some(Score::from_tenths(-15)));
        assert_eq!(Score::parse(".5"), Some(Score::HALF));
        assert_eq!(Score::parse("1.50"), Some(Score::from_tenths(15)));
        assert_eq!(Score::parse("1.25"), None);
        assert_eq!(Score::parse(""), None);
        assert_eq!(Score::parse("-"), None);
        assert_eq!(Score::parse("a.5"), None);
        assert_eq!(Score::parse("99999999999"), None);
    }

    #[test]
    fn displays_like_trf() {
        assert_eq!(Score::from_tenths(45).to_string(), "4.5");
        assert_eq!(Score::from_tenths(170).to_string(), "17.0");
        assert_eq!(Score::from_tenths(-5).to_string(), "-0.5");
        assert_eq!(Score::from_tenths(i32::MIN).to_string(), "-214748364.8");
    }
}
