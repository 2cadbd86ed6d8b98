//! Rule editions and rating kinds.
//!
//! The FIDE Rating Regulations changed several times; each edition here is one coherent rule
//! set, selected explicitly. The default is what is in force in 2026.

use crate::calendar::CalendarDate;
use serde::{Deserialize, Serialize};

/// Which FIDE rating list (and therefore which chapter of B.02) a game is rated for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum RatingKind {
    /// Standard chess: B.02 main chapter.
    #[default]
    Standard,
    /// Rapid: B.02 "Rapid and Blitz Rating Regulations".
    Rapid,
    /// Blitz: B.02 "Rapid and Blitz Rating Regulations".
    Blitz,
}

impl RatingKind {
    /// Rapid or blitz (the rapid/blitz chapter applies).
    pub fn is_rapid_or_blitz(self) -> bool {
        matches!(self, RatingKind::Rapid | RatingKind::Blitz)
    }
}

/// A named edition of the FIDE Rating Regulations.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum Edition {
    /// The regulations "amended by the General Assemblies 1984 to 2010", adapted to the changes
    /// of 1 July 2014, as published in the FEFB vade-mecum 2018 (seed 000, part III):
    /// floor 1000, 400-point rule for everyone, initial rating "Ra + 20 per half point above 50%",
    /// K = 40 until the 18th birthday, rate-of-play thresholds 2200/1600, no K × n cap.
    Fide2014,
    /// B.02 applied from 1 March 2024 as first published: floor 1400, 400-point rule for
    /// everyone, initial rating with two hypothetical 1800 draws (max 2200), K = 40 until the
    /// end of the year of the 18th birthday, K × n ≤ 700. No 2650 exemption, no 600/2600 rule.
    Fide2024,
    /// In force in 2026 (default): `Fide2024` plus the rapid/blitz rule effective
    /// 1 December 2024 (games with a difference ≥ 600 are not rated when a player is above
    /// 2600) and the standard amendment effective 1 October 2025 (no 400 cap for players
    /// rated 2650 and above).
    #[default]
    Fide2026,
}

impl Edition {
    /// The edition in force for games of `kind` played on `date`.
    ///
    /// Standard: 2014 rules before 1 March 2024, then `Fide2024` until 30 September 2025,
    /// `Fide2026` from 1 October 2025. Rapid/blitz: `Fide2024` from 1 March 2024 and
    /// `Fide2026` from 1 December 2024 (the rapid/blitz chapter's only later change).
    ///
    /// Dates before July 2014 are mapped to `Fide2014` as well: the crate models no older
    /// edition (see ADR elo-001).
    pub fn in_force_on(kind: RatingKind, date: CalendarDate) -> Edition {
        let march_2024 = CalendarDate::new_unchecked(2024, 3, 1);
        let current_from = match kind {
            RatingKind::Standard => CalendarDate::new_unchecked(2025, 10, 1),
            RatingKind::Rapid | RatingKind::Blitz => CalendarDate::new_unchecked(2024, 12, 1),
        };
        if date < march_2024 {
            Edition::Fide2014
        } else if date < current_from {
            Edition::Fide2024
        } else {
            Edition::Fide2026
        }
    }
}

/// An edition together with the list it rates for. Every rule function takes one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct Rules {
    /// Which edition of the regulations.
    pub edition: Edition,
    /// Standard, rapid or blitz.
    pub kind: RatingKind,
}

impl Rules {
    /// Rules of `edition` for `kind`.
    pub const fn new(edition: Edition, kind: RatingKind) -> Self {
        Rules { edition, kind }
    }

    /// Standard rating, rules in force today.
    pub const fn standard() -> Self {
        Rules::new(Edition::Fide2026, RatingKind::Standard)
    }

    /// Rapid rating, rules in force today.
    pub const fn rapid() -> Self {
        Rules::new(Edition::Fide2026, RatingKind::Rapid)
    }

    /// Blitz rating, rules in force today.
    pub const fn blitz() -> Self {
        Rules::new(Edition::Fide2026, RatingKind::Blitz)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(y: i32, m: u8, dd: u8) -> CalendarDate {
        CalendarDate::new(y, m, dd).unwrap()
    }

    #[test]
    fn editions_by_date() {
        use RatingKind::*;
        assert_eq!(
            Edition::in_force_on(Standard, d(2024, 2, 29)),
            Edition::Fide2014
        );
        assert_eq!(
            Edition::in_force_on(Standard, d(2024, 3, 1)),
            Edition::Fide2024
        );
        assert_eq!(
            Edition::in_force_on(Standard, d(2025, 9, 30)),
            Edition::Fide2024
        );
        assert_eq!(
            Edition::in_force_on(Standard, d(2025, 10, 1)),
            Edition::Fide2026
        );
        assert_eq!(
            Edition::in_force_on(Rapid, d(2024, 11, 30)),
            Edition::Fide2024
        );
        assert_eq!(
            Edition::in_force_on(Blitz, d(2024, 12, 1)),
            Edition::Fide2026
        );
        assert_eq!(Rules::default(), Rules::standard());
        assert_eq!(Edition::default(), Edition::Fide2026);
    }
}
