//! B.02 §8.3.1: the rating difference D, the 400-point rule and its exceptions, and the
//! rapid/blitz 600-point rule.
//!
//! * 2014 (seed §8.54) and 2024: "A difference in rating of more than 400 points shall be
//!   counted for rating purposes as though it were a difference of 400 points" — for everyone.
//! * Standard, effective 1 October 2025 (edition `Fide2026`): the cap applies "for players
//!   rated below 2650. For players rated 2650 and above, the difference between ratings shall
//!   be used in all cases." "Players rated" is read as the player whose change is computed
//!   (ADR elo-002): a 2813 player facing a 2400 uses D = 413, the 2400 player uses D = −400.
//! * Rapid/blitz: the plain 400 cap for everyone; and "Effective from 1 December 2024: Games
//!   played between players with a rating difference of 600 points or more shall not be rated
//!   if at least one of the players is rated above 2600 on the relevant list."

use crate::conversion_tables_8_1::pd_from_d;
use crate::edition::{Edition, Rules};
use crate::numbers::{Hundredths, Rating};
use serde::{Deserialize, Serialize};

/// The 400-point rule's cap.
pub const DIFFERENCE_CAP: i32 = 400;
/// Standard, from 1 October 2025: players rated this or more are not capped.
pub const NO_CAP_FROM_RATING: Rating = 2650;
/// Rapid/blitz, from 1 December 2024: a difference of this or more …
pub const RAPID_BLITZ_EXCLUDED_DIFFERENCE: i32 = 600;
/// … is not rated if a player is rated above this.
pub const RAPID_BLITZ_EXCLUSION_ABOVE: Rating = 2600;

/// Why a game between two rated players is not rated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum NotRatedReason {
    /// Rapid/blitz 1 December 2024 rule: difference ≥ 600 and a player above 2600.
    RapidBlitz600Above2600,
    /// The opponent is unrated (§8.3.1: D is determined only "for each game against a rated
    /// player"); relevant for the rated player's change.
    OpponentUnrated,
}

/// D for one game, as used for the player whose change is computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RatingDifference {
    /// Player's rating minus opponent's rating.
    pub actual: i32,
    /// The difference used with table 8.1.2 (after the 400-point rule, if it applies).
    pub used: i32,
    /// Whether the 400-point rule changed the difference.
    pub capped: bool,
}

/// Whether a game between two rated players is rated at all (the rapid/blitz 600/2600 rule).
pub fn game_exclusion(rules: Rules, a: Rating, b: Rating) -> Option<NotRatedReason> {
    if rules.kind.is_rapid_or_blitz() && rules.edition == Edition::Fide2026 {
        let diff = (a as i32 - b as i32).abs();
        if diff >= RAPID_BLITZ_EXCLUDED_DIFFERENCE
            && (a > RAPID_BLITZ_EXCLUSION_ABOVE || b > RAPID_BLITZ_EXCLUSION_ABOVE)
        {
            return Some(NotRatedReason::RapidBlitz600Above2600);
        }
    }
    None
}

/// D for `player` against `opponent` (§8.3.1 with the 400-point rule of the edition).
pub fn rating_difference(rules: Rules, player: Rating, opponent: Rating) -> RatingDifference {
    let actual = player as i32 - opponent as i32;
    let cap_applies = match (rules.edition, rules.kind.is_rapid_or_blitz()) {
        (Edition::Fide2026, false) => player < NO_CAP_FROM_RATING,
        _ => true,
    };
    let used = if cap_applies {
        actual.clamp(-DIFFERENCE_CAP, DIFFERENCE_CAP)
    } else {
        actual
    };
    RatingDifference {
        actual,
        used,
        capped: used != actual,
    }
}

/// PD for `player` against `opponent`: D with the 400-point rule, then table 8.1.2.
pub fn expected_score(rules: Rules, player: Rating, opponent: Rating) -> Hundredths {
    pd_from_d(
        rules.edition,
        rating_difference(rules, player, opponent).used,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edition::RatingKind;

    #[test]
    fn cap_400_below_2650_standard_2026() {
        let r = Rules::standard();
        // 2649 vs 2100: capped, PD(400) = .92
        let d = rating_difference(r, 2649, 2100);
        assert_eq!((d.actual, d.used, d.capped), (549, 400, true));
        assert_eq!(expected_score(r, 2649, 2100), Hundredths(92));
        // 2650 vs 2100: not capped, 550 → .97
        let d = rating_difference(r, 2650, 2100);
        assert_eq!((d.actual, d.used, d.capped), (550, 550, false));
        assert_eq!(expected_score(r, 2650, 2100), Hundredths(97));
        // the 2100 player is still capped: −400 → .08
        assert_eq!(expected_score(r, 2100, 2650), Hundredths(8));
    }

    #[test]
    fn settled_reading_2813_vs_2400() {
        // §3.6 of the reference notes: the 2813 player uses D = 413 (PD .93), the 2400 opponent
        // is capped at 400 (PD .08). The expectations no longer sum to 1.
        let r = Rules::standard();
        assert_eq!(expected_score(r, 2813, 2400), Hundredths(93));
        assert_eq!(expected_score(r, 2400, 2813), Hundredths(8));
    }

    #[test]
    fn cap_for_all_in_2014_2024_and_rapid_blitz() {
        for rules in [
            Rules::new(Edition::Fide2014, RatingKind::Standard),
            Rules::new(Edition::Fide2024, RatingKind::Standard),
            Rules::rapid(),
            Rules::blitz(),
        ] {
            assert_eq!(rating_difference(rules, 2800, 2300).used, 400, "{rules:?}");
            assert_eq!(expected_score(rules, 2800, 2300), Hundredths(92));
        }
    }

    #[test]
    fn rapid_blitz_600_2600_rule() {
        // 2601 vs 2001: difference 600, a player above 2600 → not rated.
        assert_eq!(
            game_exclusion(Rules::rapid(), 2601, 2001),
            Some(NotRatedReason::RapidBlitz600Above2600)
        );
        assert_eq!(
            game_exclusion(Rules::blitz(), 2001, 2601),
            Some(NotRatedReason::RapidBlitz600Above2600)
        );
        // exactly 2600 is not "above 2600"
        assert_eq!(game_exclusion(Rules::rapid(), 2600, 2000), None);
        // 599 points: rated
        assert_eq!(game_exclusion(Rules::rapid(), 2700, 2101), None);
        // standard: never excluded by this rule
        assert_eq!(game_exclusion(Rules::standard(), 2800, 1900), None);
        // rapid before 1 December 2024
        assert_eq!(
            game_exclusion(Rules::new(Edition::Fide2024, RatingKind::Rapid), 2800, 1900),
            None
        );
    }
}
