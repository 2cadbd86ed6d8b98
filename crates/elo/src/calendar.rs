//! Minimal proleptic Gregorian calendar: list months and dates, no clock.

use crate::error::EloError;
use serde::{Deserialize, Serialize};

/// A calendar date.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct CalendarDate {
    /// Year.
    pub year: i32,
    /// Month 1..=12.
    pub month: u8,
    /// Day 1..=31.
    pub day: u8,
}

pub(crate) fn is_leap(year: i32) -> bool {
    (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
}

pub(crate) fn days_in_month(year: i32, month: u8) -> u8 {
    match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if is_leap(year) => 29,
        2 => 28,
        _ => 0,
    }
}

impl CalendarDate {
    /// A validated date.
    pub fn new(year: i32, month: u8, day: u8) -> Result<Self, EloError> {
        if !(1..=12).contains(&month) || day == 0 || day > days_in_month(year, month) {
            return Err(EloError::InvalidDate { year, month, day });
        }
        Ok(CalendarDate { year, month, day })
    }

    pub(crate) const fn new_unchecked(year: i32, month: u8, day: u8) -> Self {
        CalendarDate { year, month, day }
    }

    /// The date `n` days earlier (n ≤ 28 keeps this a one-step borrow).
    pub(crate) fn minus_days(self, n: u8) -> CalendarDate {
        let mut d = self;
        for _ in 0..n {
            if d.day > 1 {
                d.day -= 1;
            } else if d.month > 1 {
                d.month -= 1;
                d.day = days_in_month(d.year, d.month);
            } else {
                d.year = d.year.saturating_sub(1);
                d.month = 12;
                d.day = 31;
            }
        }
        d
    }
}

/// A monthly rating list, identified by the month it is published (on the 1st, §7.1).
/// The rating period of list `M` is the time during which list `M` is valid (§7.1.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct ListMonth {
    /// Year.
    pub year: i32,
    /// Month 1..=12.
    pub month: u8,
}

impl ListMonth {
    /// A validated list month.
    pub fn new(year: i32, month: u8) -> Result<Self, EloError> {
        if !(1..=12).contains(&month) {
            return Err(EloError::InvalidListMonth { year, month });
        }
        Ok(ListMonth { year, month })
    }

    /// Months since year 0 (for differences).
    pub fn index(self) -> i64 {
        self.year as i64 * 12 + (self.month as i64 - 1)
    }

    /// Whole months from `earlier` to `self` (negative if `earlier` is later).
    pub fn months_since(self, earlier: ListMonth) -> i64 {
        self.index() - earlier.index()
    }

    /// The next list.
    pub fn next(self) -> ListMonth {
        if self.month >= 12 {
            ListMonth {
                year: self.year.saturating_add(1),
                month: 1,
            }
        } else {
            ListMonth {
                year: self.year,
                month: self.month + 1,
            }
        }
    }

    /// The publication date of the list (the 1st of the month).
    pub fn list_date(self) -> CalendarDate {
        CalendarDate::new_unchecked(self.year, self.month, 1)
    }
}
