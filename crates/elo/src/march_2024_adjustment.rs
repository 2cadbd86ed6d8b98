//! The one-off adjustment of the 1 March 2024 lists (standard, rapid and blitz): every rating
//! below 2000 was raised by 0.40 × (2000 − R); ratings of 2000 and above were unchanged. It
//! compresses 1000–2000 into 1400–2000 to match the new floor of 1400.
//!
//! 0.4 × (2000 − R) = 2(2000 − R)/5 has fractional part .0, .2, .4, .6 or .8, never .5, so
//! "round to the nearest whole number" is unambiguous; that is what is applied (ADR elo-008).
//! A migration function: apply it once to the February 2024 list to obtain the March 2024
//! starting ratings.

use crate::numbers::{Rating, div_round_half_up};
use serde::{Deserialize, Serialize};

/// Ratings at or above this are unchanged.
pub const ADJUSTMENT_CEILING: Rating = 2000;

/// One rating's adjustment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct March2024Adjustment {
    /// Rating on the February 2024 list.
    pub before: Rating,
    /// The increase, rounded to the nearest whole number.
    pub increase: Rating,
    /// Rating on the March 2024 list, before that period's games.
    pub after: Rating,
}

/// The one-off March 2024 adjustment of one rating.
pub fn march_2024_adjustment(before: Rating) -> March2024Adjustment {
    let increase = if before < ADJUSTMENT_CEILING {
        div_round_half_up(2 * (ADJUSTMENT_CEILING - before) as i64, 5) as Rating
    } else {
        0
    };
    March2024Adjustment {
        before,
        increase,
        after: before + increase,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn worked_examples() {
        // 1000 → +400 → 1400 (the old floor maps onto the new one)
        assert_eq!(march_2024_adjustment(1000).after, 1400);
        // 1500 → +200 → 1700
        assert_eq!(march_2024_adjustment(1500).after, 1700);
        // 1999 → +0.4 → 1999
        assert_eq!(march_2024_adjustment(1999).increase, 0);
        // 1998 → +0.8 → +1
        assert_eq!(march_2024_adjustment(1998).increase, 1);
        // 1233 → 0.4 × 767 = 306.8 → 307 → 1540
        assert_eq!(march_2024_adjustment(1233).after, 1540);
        assert_eq!(march_2024_adjustment(2000).after, 2000);
        assert_eq!(march_2024_adjustment(2750).after, 2750);
        assert_eq!(march_2024_adjustment(0).after, 800);
    }
}
