//! B.02 §8.3.3: the development coefficient K.
//!
//! 2024 text (standard; the rapid/blitz chapter has the same K rules, applied to the player's
//! rapid or blitz rating and games):
//!
//! * K = 40 for a player new to the rating list until they have completed events with at least
//!   30 games;
//! * K = 20 as long as the player's rating remains under 2400;
//! * K = 10 once the player's published rating has reached 2400, and remains at that level
//!   subsequently, even if the rating drops below 2400;
//! * K = 40 for all players until the end of the year of their 18th birthday, as long as their
//!   rating remains under 2300;
//! * if the number of games n for a player on any list for a rating period multiplied by K
//!   exceeds 700, K shall be the largest whole number such that K × n does not exceed 700.
//!
//! 2014 (seed §8.56): the same four values, but the junior rule runs "jusqu'à leur 18 ans"
//! (until the 18th birthday) and there is no K × n cap.
//!
//! Precedence and the moment K changes are decided in ADR elo-004: ever published ≥ 2400 → 10;
//! junior who never had a published rating ≥ 2300 → 40; fewer than 30 games completed → 40;
//! otherwise 20. Rating conditions use published ratings (they change only at a list); the
//! 30-game condition counts rated games of events completed before the event being rated, so
//! it can change between two events of the same rating period.

use crate::calendar::ListMonth;
use crate::edition::Edition;
use crate::numbers::Rating;
use serde::{Deserialize, Serialize};

/// Games a new player must complete before leaving K = 40.
pub const NEW_PLAYER_GAMES: u32 = 30;
/// Published rating from which K = 10 for ever.
pub const K10_FROM: Rating = 2400;
/// Junior K = 40 only while the rating stays under this.
pub const JUNIOR_BELOW: Rating = 2300;
/// K × n may not exceed this in one rating period (2024 onwards).
pub const K_TIMES_GAMES_CAP: u32 = 700;

/// A (possibly partial) date of birth; the list publishes the year only.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct BirthDate {
    /// Year of birth.
    pub year: i32,
    /// Month and day of birth, if known (only the 2014 junior rule can use them).
    pub month_day: Option<(u8, u8)>,
}

/// What K depends on, about one player, at the start of a rating period.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct KProfile {
    /// Rated games of this kind completed in events before this rating period (for the
    /// 30-game rule; a player rated before the rule existed can be given 30 or more).
    pub games_before_period: u32,
    /// Whether a published rating of this player ever reached 2400 (the current one counts
    /// automatically).
    pub ever_published_2400: bool,
    /// Whether a published rating of this player ever reached 2300 (ends the junior K = 40;
    /// the current one counts automatically).
    pub ever_published_2300: bool,
    /// Date of birth if known; without it the junior rule never applies.
    pub birth: Option<BirthDate>,
}

/// Which rule of §8.3.3 set K.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum KRule {
    /// K = 10: a published rating reached 2400.
    Reached2400,
    /// K = 40: junior (2024: to the end of the year of the 18th birthday; 2014: until the
    /// 18th birthday) never rated 2300.
    Junior,
    /// K = 40: fewer than 30 rated games completed.
    NewPlayer,
    /// K = 20: the general case under 2400.
    Below2400,
}

/// K for one event, with the working.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct KDetermination {
    /// K actually used.
    pub k: u32,
    /// K before the K × n ≤ 700 cap.
    pub base_k: u32,
    /// The rule that set `base_k`.
    pub rule: KRule,
    /// `Some(n)` when the K × n ≤ 700 cap reduced K, n being the period's rated games.
    pub capped_for_games: Option<u32>,
}

/// Whether the junior rule covers a player born `birth` in the rating period of `period`.
///
/// 2024: "until the end of the year of their 18th birthday": the year of the list month is at
/// most birth year + 18. 2014: "until their 18th birthday": the first day of the list month is
/// before the 18th birthday; if only the year of birth is known, junior only when the whole
/// list year is before the birthday year (period year < birth year + 18), so that no player is
/// given K = 40 on a guess.
pub fn is_junior(edition: Edition, birth: BirthDate, period: ListMonth) -> bool {
    let eighteen = birth.year.saturating_add(18);
    match edition {
        Edition::Fide2024 | Edition::Fide2026 => period.year <= eighteen,
        Edition::Fide2014 => match birth.month_day {
            Some((m, d)) => (period.year, period.month, 1u8) < (eighteen, m, d),
            None => period.year < eighteen,
        },
    }
}

/// K before the K × n cap, for a player rated `published` on the list of `period`, who has
/// completed `games_completed` rated games before the event being rated.
pub fn base_k(
    edition: Edition,
    published: Rating,
    profile: &KProfile,
    games_completed: u32,
    period: ListMonth,
) -> (u32, KRule) {
    let ever_2400 = profile.ever_published_2400 || published >= K10_FROM;
    let ever_2300 = profile.ever_published_2300 || published >= JUNIOR_BELOW;
    if ever_2400 {
        (10, KRule::Reached2400)
    } else if !ever_2300 && profile.birth.is_some_and(|b| is_junior(edition, b, period)) {
        (40, KRule::Junior)
    } else if games_completed < NEW_PLAYER_GAMES {
        (40, KRule::NewPlayer)
    } else {
        (20, KRule::Below2400)
    }
}

/// The K × n ≤ 700 cap (2024 onwards): K is lowered to the largest whole number with
/// K × n ≤ 700 when `n` rated games in the period would exceed it. Returns (K, capped?).
pub fn cap_k_for_games(edition: Edition, k: u32, games_in_period: u32) -> (u32, bool) {
    if edition == Edition::Fide2014 || games_in_period == 0 {
        return (k, false);
    }
    let limit = K_TIMES_GAMES_CAP / games_in_period;
    if k > limit { (limit, true) } else { (k, false) }
}

/// K for one event: [`base_k`] then [`cap_k_for_games`].
pub fn k_for_event(
    edition: Edition,
    published: Rating,
    profile: &KProfile,
    games_completed: u32,
    games_in_period: u32,
    period: ListMonth,
) -> KDetermination {
    let (base, rule) = base_k(edition, published, profile, games_completed, period);
    let (k, capped) = cap_k_for_games(edition, base, games_in_period);
    KDetermination {
        k,
        base_k: base,
        rule,
        capped_for_games: capped.then_some(games_in_period),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lm(y: i32, m: u8) -> ListMonth {
        ListMonth::new(y, m).unwrap()
    }

    fn adult(games: u32) -> KProfile {
        KProfile {
            games_before_period: games,
            ever_published_2400: false,
            ever_published_2300: false,
            birth: Some(BirthDate {
                year: 1990,
                month_day: None,
            }),
        }
    }

    #[test]
    fn new_player_40_until_30_games_then_20() {
        let e = Edition::Fide2026;
        let p = adult(0);
        assert_eq!(base_k(e, 1800, &p, 29, lm(2026, 5)), (40, KRule::NewPlayer));
        assert_eq!(base_k(e, 1800, &p, 30, lm(2026, 5)), (20, KRule::Below2400));
    }

    #[test]
    fn k10_once_2400_even_after_dropping() {
        let e = Edition::Fide2026;
        let mut p = adult(100);
        assert_eq!(
            base_k(e, 2400, &p, 100, lm(2026, 5)),
            (10, KRule::Reached2400)
        );
        assert_eq!(
            base_k(e, 2399, &p, 100, lm(2026, 5)),
            (20, KRule::Below2400)
        );
        p.ever_published_2400 = true;
        assert_eq!(
            base_k(e, 2350, &p, 100, lm(2026, 5)),
            (10, KRule::Reached2400)
        );
    }

    #[test]
    fn junior_until_end_of_year_of_18th_birthday_2024() {
        let e = Edition::Fide2026;
        let p = KProfile {
            games_before_period: 200,
            ever_published_2400: false,
            ever_published_2300: false,
            birth: Some(BirthDate {
                year: 2008,
                month_day: Some((2, 10)),
            }),
        };
        // turns 18 in 2026: K = 40 through the December 2026 list
        assert_eq!(base_k(e, 2100, &p, 200, lm(2026, 12)), (40, KRule::Junior));
        assert_eq!(
            base_k(e, 2100, &p, 200, lm(2027, 1)),
            (20, KRule::Below2400)
        );
        // 2300 ends it
        assert_eq!(
            base_k(e, 2300, &p, 200, lm(2026, 6)),
            (20, KRule::Below2400)
        );
        let mut q = p;
        q.ever_published_2300 = true;
        assert_eq!(
            base_k(e, 2250, &q, 200, lm(2026, 6)),
            (20, KRule::Below2400)
        );
    }

    #[test]
    fn junior_until_18th_birthday_2014() {
        let e = Edition::Fide2014;
        let b = BirthDate {
            year: 1996,
            month_day: Some((7, 15)),
        };
        assert!(is_junior(e, b, lm(2014, 7)));
        assert!(!is_junior(e, b, lm(2014, 8)));
        // year only: cautious
        let y = BirthDate {
            year: 1996,
            month_day: None,
        };
        assert!(is_junior(e, y, lm(2013, 12)));
        assert!(!is_junior(e, y, lm(2014, 1)));
        // 2024 rule would still cover all of 2014
        assert!(is_junior(Edition::Fide2024, b, lm(2014, 12)));
    }

    #[test]
    fn cap_700() {
        let e = Edition::Fide2026;
        assert_eq!(cap_k_for_games(e, 40, 17), (40, false)); // 680
        assert_eq!(cap_k_for_games(e, 40, 18), (38, true)); // 38 × 18 = 684 ≤ 700
        assert_eq!(cap_k_for_games(e, 20, 35), (20, false)); // 700 exactly
        assert_eq!(cap_k_for_games(e, 20, 36), (19, true));
        assert_eq!(cap_k_for_games(e, 10, 71), (9, true));
        assert_eq!(cap_k_for_games(e, 10, 0), (10, false));
        assert_eq!(cap_k_for_games(Edition::Fide2014, 40, 40), (40, false));
        let d = k_for_event(e, 1800, &adult(0), 0, 20, lm(2026, 1));
        assert_eq!(d.k, 35);
        assert_eq!(d.base_k, 40);
        assert_eq!(d.capped_for_games, Some(20));
    }
}
