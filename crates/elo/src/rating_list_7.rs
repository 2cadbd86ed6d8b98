//! B.02 §7: the rating list as pure functions — closing date, which list an event goes on,
//! the floor, inactivity.
//!
//! * §7.1: a list on the first day of each month; the rating period is the period in which a
//!   list is valid.
//! * §7.1.3: "The closing date for tournaments on a list is 3 days before the list date";
//!   official FIDE events may be rated even if they end on the last day before the list date.
//! * §7.2.1: players whose rating drops below 1400 are shown as unrated on the next list and
//!   are then treated as unrated (2014 §7.21: the floor was 1000).
//! * §7.2.2 (2014 §7.23): a player becomes inactive after no rated game in one year, and is
//!   active again after one rated game in a period, listed active on the next list.

use crate::calendar::{CalendarDate, ListMonth};
use crate::edition::Edition;
use crate::numbers::Rating;
use serde::{Deserialize, Serialize};

/// Days between the closing date and the list date (§7.1.3).
pub const CLOSING_DAYS_BEFORE_LIST: u8 = 3;
/// Months without a rated game after which a player is inactive (§7.2.2).
pub const INACTIVE_AFTER_MONTHS: i64 = 12;

/// The rating floor of the edition: 1400 (2024, §7.2.1) or 1000 (2014, §7.21).
pub fn rating_floor(edition: Edition) -> Rating {
    match edition {
        Edition::Fide2014 => 1000,
        Edition::Fide2024 | Edition::Fide2026 => 1400,
    }
}

/// A player's status on the next list after applying the floor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum FloorStatus {
    /// Stays on the list with this rating.
    Rated(Rating),
    /// Dropped below the floor: shown as unrated, treated as unrated from now on.
    Unrated,
}

/// §7.2.1: apply the floor to a freshly computed rating.
pub fn apply_floor(edition: Edition, new_rating: i64) -> FloorStatus {
    if new_rating < rating_floor(edition) as i64 {
        FloorStatus::Unrated
    } else {
        match Rating::try_from(new_rating) {
            Ok(r) => FloorStatus::Rated(r),
            Err(_) => FloorStatus::Rated(Rating::MAX),
        }
    }
}

/// §7.1.3: the closing date of a list (3 days before the list date).
pub fn closing_date(list: ListMonth) -> CalendarDate {
    list.list_date().minus_days(CLOSING_DAYS_BEFORE_LIST)
}

/// §7.1.3: the first list an event ending on `end` can be rated on: the first list whose
/// closing date is on or after `end`; for an official FIDE event, the first list dated after
/// `end` (it may end on the last day before the list date).
pub fn first_list_for_event(end: CalendarDate, official_fide_event: bool) -> ListMonth {
    let mut list = ListMonth {
        year: end.year,
        month: end.month,
    }
    .next();
    // the list of the following month always has its closing date after `end` (≥ 28 days)
    if !official_fide_event && closing_date(list) < end {
        list = list.next();
    }
    list
}

/// §7.2.2: whether a player is inactive on `list`, given the last list whose calculation
/// included a rated game of theirs (`None`: never). Inactive when that list is 12 or more
/// months before `list` (ADR elo-007).
pub fn is_inactive(list: ListMonth, last_list_with_games: Option<ListMonth>) -> bool {
    match last_list_with_games {
        None => true,
        Some(last) => list.months_since(last) >= INACTIVE_AFTER_MONTHS,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(y: i32, m: u8, dd: u8) -> CalendarDate {
        CalendarDate::new(y, m, dd).unwrap()
    }
    fn lm(y: i32, m: u8) -> ListMonth {
        ListMonth::new(y, m).unwrap()
    }

    #[test]
    fn closing_date_three_days_before() {
        assert_eq!(closing_date(lm(2026, 3)), d(2026, 2, 26));
        assert_eq!(closing_date(lm(2024, 3)), d(2024, 2, 27)); // leap year
        assert_eq!(closing_date(lm(2026, 1)), d(2025, 12, 29));
        assert_eq!(closing_date(lm(2026, 5)), d(2026, 4, 28));
    }

    #[test]
    fn event_list_assignment() {
        assert_eq!(first_list_for_event(d(2026, 4, 28), false), lm(2026, 5));
        assert_eq!(first_list_for_event(d(2026, 4, 29), false), lm(2026, 6));
        assert_eq!(first_list_for_event(d(2026, 4, 30), true), lm(2026, 5));
        assert_eq!(first_list_for_event(d(2026, 12, 31), false), lm(2027, 2));
        assert_eq!(first_list_for_event(d(2026, 12, 31), true), lm(2027, 1));
        assert_eq!(first_list_for_event(d(2026, 5, 1), false), lm(2026, 6));
    }

    #[test]
    fn floor_1400_and_2014_floor_1000() {
        assert_eq!(
            apply_floor(Edition::Fide2026, 1400),
            FloorStatus::Rated(1400)
        );
        assert_eq!(apply_floor(Edition::Fide2026, 1399), FloorStatus::Unrated);
        assert_eq!(
            apply_floor(Edition::Fide2014, 1399),
            FloorStatus::Rated(1399)
        );
        assert_eq!(apply_floor(Edition::Fide2014, 999), FloorStatus::Unrated);
        assert_eq!(apply_floor(Edition::Fide2026, -5), FloorStatus::Unrated);
    }

    #[test]
    fn inactivity_after_one_year() {
        let last = Some(lm(2025, 6));
        assert!(!is_inactive(lm(2026, 5), last));
        assert!(is_inactive(lm(2026, 6), last));
        assert!(!is_inactive(lm(2025, 6), last));
        assert!(is_inactive(lm(2026, 6), None));
    }
}

#[cfg(test)]
mod extreme_tests {
    use super::*;

    #[test]
    fn extreme_years_do_not_panic() {
        for year in [i32::MIN, i32::MAX] {
            for month in [0u8, 1, 12, 13, 255] {
                let l = ListMonth { year, month };
                let _ = closing_date(l);
                let _ = l.next();
                let _ = is_inactive(l, Some(l));
                let _ = first_list_for_event(
                    CalendarDate {
                        year,
                        month,
                        day: 31,
                    },
                    false,
                );
            }
        }
    }
}
