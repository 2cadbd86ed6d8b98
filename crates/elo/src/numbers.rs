//! Exact numbers: ratings are integers, expectations and changes are hundredths.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A published FIDE rating (an integer; the list prints whole numbers).
pub type Rating = u16;

/// A quantity in hundredths, exact: `Hundredths(33)` is 0.33, `Hundredths(-560)` is −5.60.
///
/// Table 8.1.2 gives PD to two decimals and a game score is 0, ½ or 1, so every ΔR and every
/// K × ΣΔR is an exact number of hundredths; nothing in the rating change needs floating point.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize,
)]
pub struct Hundredths(pub i64);

impl Hundredths {
    /// Zero.
    pub const ZERO: Hundredths = Hundredths(0);

    /// Round to the nearest whole number, .5 away from zero (B.02 §8.3.4; 2014 §8.57).
    pub fn round_half_away_from_zero(self) -> i64 {
        let v = self.0;
        let a = v.unsigned_abs();
        let m = (a / 100 + u64::from(a % 100 >= 50)) as i64;
        if v < 0 { -m } else { m }
    }
}

impl fmt::Display for Hundredths {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        let a = self.0.unsigned_abs();
        write!(f, "{sign}{}.{:02}", a / 100, a % 100)
    }
}

impl std::ops::Add for Hundredths {
    type Output = Hundredths;
    fn add(self, o: Hundredths) -> Hundredths {
        Hundredths(self.0.saturating_add(o.0))
    }
}

impl std::ops::Sub for Hundredths {
    type Output = Hundredths;
    fn sub(self, o: Hundredths) -> Hundredths {
        Hundredths(self.0.saturating_sub(o.0))
    }
}

impl std::iter::Sum for Hundredths {
    fn sum<I: Iterator<Item = Hundredths>>(iter: I) -> Hundredths {
        iter.fold(Hundredths::ZERO, |a, b| a + b)
    }
}

/// The score of one game for the player whose rating is being computed (§8.3.2 b: 1, 0.5, 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GameScore {
    /// 1 point.
    Win,
    /// ½ point.
    Draw,
    /// 0 points.
    Loss,
}

impl GameScore {
    /// The score in hundredths (100, 50, 0).
    pub const fn hundredths(self) -> Hundredths {
        Hundredths(self.half_points() as i64 * 50)
    }

    /// The score in half points (2, 1, 0).
    pub const fn half_points(self) -> u32 {
        match self {
            GameScore::Win => 2,
            GameScore::Draw => 1,
            GameScore::Loss => 0,
        }
    }

    /// The opponent's score in the same game.
    pub const fn reversed(self) -> GameScore {
        match self {
            GameScore::Win => GameScore::Loss,
            GameScore::Draw => GameScore::Draw,
            GameScore::Loss => GameScore::Win,
        }
    }
}

/// `num / den` rounded to the nearest integer, halves towards +∞ (`den > 0`).
pub(crate) fn div_round_half_up(num: i64, den: i64) -> i64 {
    let (num, den) = (num as i128, den.max(1) as i128);
    let q = (2 * num + den).div_euclid(2 * den);
    q.clamp(i64::MIN as i128, i64::MAX as i128) as i64
}
