//! Rate of play for rating purposes: B.02 §1 (standard) and §1 of the rapid/blitz chapter.
//!
//! * Standard 2024 §1.1: each player must have at least, "assuming the game lasts 60 moves",
//!   120 minutes if either player is rated 2400 or more, 90 minutes if either is rated 1800 or
//!   more, 60 minutes if both are rated below 1800. §1.2: a first control with a move count
//!   must be at least 30 moves.
//! * Standard 2014 (seed §1.1, §1.3): 120 / 90 / 60 minutes with thresholds 2200 / 1600, taken
//!   over the players of the *tournament*; a first control with a move count is of 40 moves.
//! * Rapid: a fixed time, or time + 60 × increment, of more than 10 and less than 60 minutes
//!   for each player. Blitz: more than 3 and at most 10 minutes. R&B §1.2: games where the
//!   players have different playing times are not rated.
//!
//! Time for a game is computed for 60 moves: the base time of every control reached within
//! 60 moves plus the increment of each of the 60 moves (ADR elo-009 for unequal standard
//! times and for the increment in standard play).

use crate::edition::Edition;
use crate::error::EloError;
use crate::numbers::Rating;
use serde::{Deserialize, Serialize};

/// Moves assumed for the length of a game.
pub const ASSUMED_MOVES: u32 = 60;

/// One period of a time control: `moves` moves (or the rest of the game if `None`) in
/// `base_seconds`, plus `increment_seconds` per move made during the period.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TimeControlPeriod {
    /// Moves in this period; `None` for the last (rest of the game) period.
    pub moves: Option<u32>,
    /// Time added at the start of the period, in seconds.
    pub base_seconds: u32,
    /// Increment per move in this period, in seconds.
    pub increment_seconds: u32,
}

/// A player's time control: periods in order; the last has `moves: None`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TimeControl {
    /// The periods.
    pub periods: Vec<TimeControlPeriod>,
}

impl TimeControl {
    /// A single period "base + increment" control (e.g. 90 min + 30 s).
    pub fn simple(base_seconds: u32, increment_seconds: u32) -> Self {
        TimeControl {
            periods: vec![TimeControlPeriod {
                moves: None,
                base_seconds,
                increment_seconds,
            }],
        }
    }

    fn validate(&self) -> Result<(), EloError> {
        let Some(last) = self.periods.last() else {
            return Err(EloError::InvalidTimeControl { what: "no period" });
        };
        if last.moves.is_some() {
            return Err(EloError::InvalidTimeControl {
                what: "the last period must cover the rest of the game (moves: None)",
            });
        }
        if self.periods[..self.periods.len() - 1]
            .iter()
            .any(|p| p.moves.is_none_or(|m| m == 0))
        {
            return Err(EloError::InvalidTimeControl {
                what: "every period but the last needs a positive move count",
            });
        }
        Ok(())
    }

    /// Seconds available for a game of 60 moves.
    pub fn seconds_for_60_moves(&self) -> Result<u64, EloError> {
        self.validate()?;
        let mut total = 0u64;
        let mut first_move_of_period = 1u32;
        for p in &self.periods {
            if first_move_of_period > ASSUMED_MOVES {
                break;
            }
            total += p.base_seconds as u64;
            let last = match p.moves {
                Some(m) => first_move_of_period
                    .saturating_add(m - 1)
                    .min(ASSUMED_MOVES),
                None => ASSUMED_MOVES,
            };
            total += (last - first_move_of_period + 1) as u64 * p.increment_seconds as u64;
            first_move_of_period = last.saturating_add(1);
        }
        Ok(total)
    }
}

/// How a game is classified for rating.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum RatingClassification {
    /// Rated for the standard list.
    Standard,
    /// Rated for the rapid list.
    Rapid,
    /// Rated for the blitz list.
    Blitz,
    /// Not rated.
    NotRated(NotRatedRateOfPlay),
}

/// Why a rate of play is not rated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum NotRatedRateOfPlay {
    /// 3 minutes or less.
    TooFast,
    /// Rapid/blitz range but the two players have different times (R&B §1.2, e.g. Armageddon).
    UnequalTimes,
    /// At least 60 minutes but less than the standard minimum for these ratings.
    BelowStandardMinimum {
        /// The minimum that applied, in minutes.
        required_minutes: u32,
    },
    /// The first control with a move count has too few moves (2024: < 30; 2014: ≠ 40).
    FirstControlMoves {
        /// The moves of the first control.
        moves: u32,
    },
}

/// Minimum minutes per player for a standard game (for 60 moves), given the highest rating
/// concerned (2024: of the two players; 2014: of the tournament). Unrated players count as
/// below every threshold.
pub fn standard_minimum_minutes(edition: Edition, highest_rating: Option<Rating>) -> u32 {
    let r = highest_rating.unwrap_or(0);
    let (top, mid) = match edition {
        Edition::Fide2014 => (2200, 1600),
        Edition::Fide2024 | Edition::Fide2026 => (2400, 1800),
    };
    if r >= top {
        120
    } else if r >= mid {
        90
    } else {
        60
    }
}

fn first_control_ok(edition: Edition, tc: &TimeControl) -> Result<(), NotRatedRateOfPlay> {
    match tc.periods.first().and_then(|p| p.moves) {
        None => Ok(()),
        Some(m) => {
            let ok = match edition {
                Edition::Fide2014 => m == 40,
                Edition::Fide2024 | Edition::Fide2026 => m >= 30,
            };
            if ok {
                Ok(())
            } else {
                Err(NotRatedRateOfPlay::FirstControlMoves { moves: m })
            }
        }
    }
}

/// Classify a game for rating from each player's time control and the highest rating
/// concerned (see [`standard_minimum_minutes`]).
///
/// Each player's 60-move time is classified; in the rapid/blitz range both must have the same
/// time control. In the standard range each player must reach the minimum (ADR elo-009).
pub fn classify_rate_of_play(
    edition: Edition,
    white: &TimeControl,
    black: &TimeControl,
    highest_rating: Option<Rating>,
) -> Result<RatingClassification, EloError> {
    let tw = white.seconds_for_60_moves()?;
    let tb = black.seconds_for_60_moves()?;
    let min_standard = 60 * standard_minimum_minutes(edition, highest_rating) as u64;
    let slowest_short = tw.min(tb);
    if slowest_short >= 60 * 60 {
        // standard range for both
        for tc in [white, black] {
            if let Err(e) = first_control_ok(edition, tc) {
                return Ok(RatingClassification::NotRated(e));
            }
        }
        if slowest_short < min_standard {
            return Ok(RatingClassification::NotRated(
                NotRatedRateOfPlay::BelowStandardMinimum {
                    required_minutes: (min_standard / 60) as u32,
                },
            ));
        }
        return Ok(RatingClassification::Standard);
    }
    if white != black {
        if tw.max(tb) <= 3 * 60 {
            return Ok(RatingClassification::NotRated(NotRatedRateOfPlay::TooFast));
        }
        return Ok(RatingClassification::NotRated(
            NotRatedRateOfPlay::UnequalTimes,
        ));
    }
    Ok(match tw {
        t if t > 10 * 60 => RatingClassification::Rapid,
        t if t > 3 * 60 => RatingClassification::Blitz,
        _ => RatingClassification::NotRated(NotRatedRateOfPlay::TooFast),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const E: Edition = Edition::Fide2026;

    fn classify_same(tc: TimeControl, r: Rating) -> RatingClassification {
        classify_rate_of_play(E, &tc, &tc, Some(r)).unwrap()
    }

    #[test]
    fn sixty_move_time() {
        // 90 min + 30 s: 90 + 30 = 120 minutes
        assert_eq!(
            TimeControl::simple(5400, 30).seconds_for_60_moves(),
            Ok(7200)
        );
        // 40 moves in 90 min, then 30 min, +30 s from move 1: 120 + 30 = 150 min
        let tc = TimeControl {
            periods: vec![
                TimeControlPeriod {
                    moves: Some(40),
                    base_seconds: 5400,
                    increment_seconds: 30,
                },
                TimeControlPeriod {
                    moves: None,
                    base_seconds: 1800,
                    increment_seconds: 30,
                },
            ],
        };
        assert_eq!(tc.seconds_for_60_moves(), Ok(9000));
        // a control reached after move 60 does not count
        let tc = TimeControl {
            periods: vec![
                TimeControlPeriod {
                    moves: Some(60),
                    base_seconds: 3600,
                    increment_seconds: 0,
                },
                TimeControlPeriod {
                    moves: None,
                    base_seconds: 1800,
                    increment_seconds: 0,
                },
            ],
        };
        assert_eq!(tc.seconds_for_60_moves(), Ok(3600));
        assert!(
            TimeControl { periods: vec![] }
                .seconds_for_60_moves()
                .is_err()
        );
    }

    #[test]
    fn standard_bands_2024() {
        // 90 + 30 s = 120 min: fine for everyone
        assert_eq!(
            classify_same(TimeControl::simple(5400, 30), 2700),
            RatingClassification::Standard
        );
        // 60 + 30 s = 90 min: fine below 2400, not at 2400
        assert_eq!(
            classify_same(TimeControl::simple(3600, 30), 2399),
            RatingClassification::Standard
        );
        assert_eq!(
            classify_same(TimeControl::simple(3600, 30), 2400),
            RatingClassification::NotRated(NotRatedRateOfPlay::BelowStandardMinimum {
                required_minutes: 120
            })
        );
        // 60 min flat: only if both below 1800
        assert_eq!(
            classify_same(TimeControl::simple(3600, 0), 1799),
            RatingClassification::Standard
        );
        assert_eq!(
            classify_same(TimeControl::simple(3600, 0), 1800),
            RatingClassification::NotRated(NotRatedRateOfPlay::BelowStandardMinimum {
                required_minutes: 90
            })
        );
    }

    #[test]
    fn standard_bands_2014() {
        assert_eq!(standard_minimum_minutes(Edition::Fide2014, Some(2200)), 120);
        assert_eq!(standard_minimum_minutes(Edition::Fide2014, Some(2199)), 90);
        assert_eq!(standard_minimum_minutes(Edition::Fide2014, Some(1600)), 90);
        assert_eq!(standard_minimum_minutes(Edition::Fide2014, Some(1599)), 60);
        assert_eq!(standard_minimum_minutes(E, None), 60);
    }

    #[test]
    fn first_control_moves() {
        let tc = |m| TimeControl {
            periods: vec![
                TimeControlPeriod {
                    moves: Some(m),
                    base_seconds: 7200,
                    increment_seconds: 0,
                },
                TimeControlPeriod {
                    moves: None,
                    base_seconds: 1800,
                    increment_seconds: 0,
                },
            ],
        };
        assert_eq!(classify_same(tc(30), 2000), RatingClassification::Standard);
        assert_eq!(
            classify_same(tc(25), 2000),
            RatingClassification::NotRated(NotRatedRateOfPlay::FirstControlMoves { moves: 25 })
        );
        let t = tc(30);
        assert_eq!(
            classify_rate_of_play(Edition::Fide2014, &t, &t, Some(2000)).unwrap(),
            RatingClassification::NotRated(NotRatedRateOfPlay::FirstControlMoves { moves: 30 })
        );
    }

    #[test]
    fn rapid_and_blitz_boundaries() {
        // 15 + 10: 15 + 10 = 25 min → rapid
        assert_eq!(
            classify_same(TimeControl::simple(900, 10), 2000),
            RatingClassification::Rapid
        );
        // 10 + 0: exactly 10 → blitz (not more than 10)
        assert_eq!(
            classify_same(TimeControl::simple(600, 0), 2000),
            RatingClassification::Blitz
        );
        // 10 + 1 s: 11 min → rapid
        assert_eq!(
            classify_same(TimeControl::simple(600, 1), 2000),
            RatingClassification::Rapid
        );
        // 3 + 2: 3 + 2 = 5 min → blitz
        assert_eq!(
            classify_same(TimeControl::simple(180, 2), 2000),
            RatingClassification::Blitz
        );
        // 3 + 0: exactly 3 → not rated
        assert_eq!(
            classify_same(TimeControl::simple(180, 0), 2000),
            RatingClassification::NotRated(NotRatedRateOfPlay::TooFast)
        );
        // 59 + 0 → rapid; 60 + 0 → standard range (rated standard only below 1800)
        assert_eq!(
            classify_same(TimeControl::simple(3540, 0), 2000),
            RatingClassification::Rapid
        );
    }

    #[test]
    fn armageddon_not_rated() {
        let w = TimeControl::simple(300, 0);
        let b = TimeControl::simple(240, 0);
        assert_eq!(
            classify_rate_of_play(E, &w, &b, Some(2000)).unwrap(),
            RatingClassification::NotRated(NotRatedRateOfPlay::UnequalTimes)
        );
    }
}
