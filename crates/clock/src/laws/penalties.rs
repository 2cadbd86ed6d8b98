//! Time penalties of Articles 7.5.5 (first completed illegal move) and 9.5.3 (incorrect draw
//! claim): two minutes to the opponent in standard play; one minute in rapid and blitz under
//! Laws 2023 A.3 (applies to blitz through B.3). Under the Laws of 1 January 2018 (seed 004) the
//! one-minute rule existed only for blitz (B.2); rapid kept two minutes.

use crate::rate_of_play::RateOfPlay;
use crate::time_control::Millis;
use serde::{Deserialize, Serialize};

/// Which edition of the Laws of Chess applies. The default is the one in force today.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub enum LawsEdition {
    /// Laws of Chess effective 1 January 2023 (seed 001), in force in 2026.
    #[default]
    Laws2023,
    /// Laws of Chess effective 1 January 2018 (seed 004 for rapid/blitz).
    Laws2018,
}

/// The time given to the opponent for a first completed illegal move (7.5.5) or an incorrect
/// draw claim (9.5.3).
pub fn penalty_time(edition: LawsEdition, rate: RateOfPlay) -> Millis {
    match (edition, rate) {
        (_, RateOfPlay::Standard) => 120_000,
        (LawsEdition::Laws2023, RateOfPlay::Rapid | RateOfPlay::Blitz) => 60_000,
        (LawsEdition::Laws2018, RateOfPlay::Rapid) => 120_000,
        (LawsEdition::Laws2018, RateOfPlay::Blitz) => 60_000,
    }
}

/// Guidelines III.4 / III.5.2 / III.5.3: the opponent's extra two minutes.
pub const QUICKPLAY_EXTRA_TIME: Millis = 120_000;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a3_one_minute_in_rapid_and_blitz_2023_two_in_standard() {
        assert_eq!(
            penalty_time(LawsEdition::Laws2023, RateOfPlay::Standard),
            120_000
        );
        assert_eq!(
            penalty_time(LawsEdition::Laws2023, RateOfPlay::Rapid),
            60_000
        );
        assert_eq!(
            penalty_time(LawsEdition::Laws2023, RateOfPlay::Blitz),
            60_000
        );
    }

    #[test]
    fn laws_2018_rapid_kept_two_minutes_blitz_b2_one() {
        assert_eq!(
            penalty_time(LawsEdition::Laws2018, RateOfPlay::Rapid),
            120_000
        );
        assert_eq!(
            penalty_time(LawsEdition::Laws2018, RateOfPlay::Blitz),
            60_000
        );
    }
}
