//! Rate-of-play classification: Laws of Chess 2023 Appendix A.1 (rapid) and B.1 (blitz), and
//! whether a game can be FIDE-rated as such (B.02 §1 for standard; R&B §1.1–1.2).
//!
//! The measure is `T = allotted time + 60 × any increment` "for each player" (A.1, B.1): here
//! [`PlayerControl::time_for_moves`]`(60)`, which also counts a later period that starts within
//! 60 moves. The A.1 commentary says delay modes are counted the same way.

use crate::time_control::{Millis, PlayerControl, TimeControl};
use serde::{Deserialize, Serialize};

/// The three rates of the Laws.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum RateOfPlay {
    /// Neither rapid nor blitz: T ≥ 60 min for some player.
    Standard,
    /// Laws A.1: T > 10 min and < 60 min for each player.
    Rapid,
    /// Laws B.1: T ≤ 10 min for each player.
    Blitz,
}

const MIN: Millis = 60_000;

/// `T` of one player: allotted time + 60 × any bonus, counting periods started within 60 moves.
pub fn time_for_sixty_moves(pc: &PlayerControl) -> Millis {
    pc.time_for_moves(60)
}

/// Classifies a time control by Laws A.1 / B.1.
///
/// Blitz if T ≤ 10 min for *each* player (B.1); standard if T ≥ 60 min for each player;
/// rapid otherwise. With different times per colour that straddle a limit (e.g. White 70 min /
/// Black 50 min, or 11 / 9 min) the game is rapid: neither "each player" condition of the
/// longer or shorter class holds, and rapid is the class between them. This matches the rating
/// crate's reading (ADR `elo-009`) that a game is in the standard range only when both players
/// have at least 60 minutes.
pub fn classify(tc: &TimeControl) -> RateOfPlay {
    let w = time_for_sixty_moves(&tc.white);
    let b = time_for_sixty_moves(&tc.black);
    if w.max(b) <= 10 * MIN {
        RateOfPlay::Blitz
    } else if w.min(b) >= 60 * MIN {
        RateOfPlay::Standard
    } else {
        RateOfPlay::Rapid
    }
}

/// Why a game at this control cannot be rated on the list of its rate.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum NotRatableReason {
    /// R&B §1.2: rapid/blitz games where players have different playing times are not rated
    /// (Armageddon). In standard, unequal times are rated if each player has the minimum
    /// (ADR `elo-009`).
    DifferentTimesPerColour,
    /// R&B §1.1: blitz needs T > 3 min.
    BlitzTooShort { t_ms: Millis },
    /// B.02 §1.1: standard needs at least `required_ms` for 60 moves given the players'
    /// ratings (120 min if a player ≥ 2400, 90 min if ≥ 1800, else 60 min).
    StandardTooShort { t_ms: Millis, required_ms: Millis },
    /// B.02 §1.2: a first control with a move count must be of at least 30 moves.
    FirstControlTooFewMoves { moves: u32 },
}

/// The verdict of [`fide_ratability`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ratability {
    /// The rate of play by the Laws.
    pub rate: RateOfPlay,
    /// Empty when the game is ratable on the list of `rate`.
    pub reasons: Vec<NotRatableReason>,
}

impl Ratability {
    /// Whether the game is ratable on the list of its rate.
    pub fn is_ratable(&self) -> bool {
        self.reasons.is_empty()
    }
}

/// Whether a game at `tc` between players rated `ratings` (None = unrated) is FIDE-ratable as
/// the rate it belongs to (B.02 in force since 1 Mar 2024, fide-rules-2026 §3.1 and §3.8).
pub fn fide_ratability(tc: &TimeControl, ratings: [Option<u16>; 2]) -> Ratability {
    let rate = classify(tc);
    let mut reasons = Vec::new();
    if !tc.is_symmetric() && rate != RateOfPlay::Standard {
        reasons.push(NotRatableReason::DifferentTimesPerColour);
    }
    let t = time_for_sixty_moves(&tc.white).min(time_for_sixty_moves(&tc.black));
    match rate {
        RateOfPlay::Blitz => {
            if t <= 3 * MIN {
                reasons.push(NotRatableReason::BlitzTooShort { t_ms: t });
            }
        }
        RateOfPlay::Rapid => {}
        RateOfPlay::Standard => {
            let best = ratings.iter().flatten().copied().max().unwrap_or(0);
            let required = if best >= 2400 {
                120 * MIN
            } else if best >= 1800 {
                90 * MIN
            } else {
                60 * MIN
            };
            if t < required {
                reasons.push(NotRatableReason::StandardTooShort {
                    t_ms: t,
                    required_ms: required,
                });
            }
            for pc in [&tc.white, &tc.black] {
                if let Some(m) = pc.periods()[0].moves
                    && pc.periods().len() > 1
                    && m < 30
                {
                    reasons.push(NotRatableReason::FirstControlTooFewMoves { moves: m });
                    break;
                }
            }
        }
    }
    Ratability { rate, reasons }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time_control::TimeControlTag;

    fn tc(s: &str) -> TimeControl {
        match TimeControlTag::parse(s).unwrap() {
            TimeControlTag::Timed(t) => t,
            _ => panic!(),
        }
    }

    #[test]
    fn laws_a1_example_1_thirty_plus_thirty_is_standard() {
        // A.1 commentary, example 1: 30' + 30" → 30' + 30' = 60' → standard.
        assert_eq!(classify(&tc("1800+30")), RateOfPlay::Standard);
    }

    #[test]
    fn laws_a1_example_2_ten_plus_five_is_rapid() {
        // A.1 commentary, example 2: 10' + 5" → 15' → rapid.
        assert_eq!(classify(&tc("600+5")), RateOfPlay::Rapid);
    }

    #[test]
    fn laws_b1_example_five_plus_five_is_blitz() {
        // B.1 commentary: 5' + 5" → 10' → blitz (≤ 10 min).
        assert_eq!(classify(&tc("300+5")), RateOfPlay::Blitz);
        assert_eq!(classify(&tc("600")), RateOfPlay::Blitz);
        assert_eq!(classify(&tc("601")), RateOfPlay::Rapid);
        assert_eq!(classify(&tc("3599")), RateOfPlay::Rapid);
        assert_eq!(classify(&tc("3600")), RateOfPlay::Standard);
    }

    #[test]
    fn candidates_is_standard_and_ratable() {
        let r = fide_ratability(&tc("40/7200:1800+30"), [Some(2803), Some(2789)]);
        assert_eq!(r.rate, RateOfPlay::Standard);
        assert!(r.is_ratable(), "{r:?}");
    }

    #[test]
    fn b02_minimum_standard_time_depends_on_ratings() {
        // 60 min + 30 s → 90 min for 60 moves: fine below 2400, too short at 2400.
        let t = tc("3600+30");
        assert!(fide_ratability(&t, [Some(2399), Some(2000)]).is_ratable());
        assert!(!fide_ratability(&t, [Some(2400), None]).is_ratable());
        // 60 min flat: only when both are below 1800.
        let t = tc("3600");
        assert!(fide_ratability(&t, [Some(1799), None]).is_ratable());
        assert!(!fide_ratability(&t, [Some(1800), None]).is_ratable());
        // first control of 20 moves is not allowed (B.02 §1.2)
        let t = tc("20/3600:3600");
        assert!(
            fide_ratability(&t, [None, None])
                .reasons
                .contains(&NotRatableReason::FirstControlTooFewMoves { moves: 20 })
        );
    }

    #[test]
    fn armageddon_is_blitz_but_not_ratable() {
        let arm = TimeControl::parse_trf222("W300-B240").unwrap();
        let r = fide_ratability(&arm, [Some(2700), Some(2700)]);
        assert_eq!(r.rate, RateOfPlay::Blitz);
        assert_eq!(r.reasons, vec![NotRatableReason::DifferentTimesPerColour]);
    }

    #[test]
    fn unequal_times_straddling_a_limit_are_rapid() {
        let t = TimeControl::parse_trf222("W4200-B3000").unwrap();
        assert_eq!(classify(&t), RateOfPlay::Rapid);
        let t = TimeControl::parse_trf222("W660-B540").unwrap();
        assert_eq!(classify(&t), RateOfPlay::Rapid);
        // standard with unequal times: rated if each has the minimum (elo-009)
        let t = TimeControl::parse_trf222("W7200+30-B4500+30").unwrap();
        assert_eq!(classify(&t), RateOfPlay::Standard);
        assert!(fide_ratability(&t, [Some(2000), Some(2100)]).is_ratable());
        assert!(!fide_ratability(&t, [Some(2500), Some(2100)]).is_ratable());
    }

    #[test]
    fn blitz_needs_more_than_three_minutes() {
        assert!(!fide_ratability(&tc("180"), [None, None]).is_ratable());
        assert!(fide_ratability(&tc("180+2"), [None, None]).is_ratable());
    }
}
