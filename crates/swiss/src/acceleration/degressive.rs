//! Degressive acceleration (seed 000, "Accéléré dégressif", French federation text in the
//! FEFB vade-mecum 2018).
//!
//! Global score SG = real score SR + fictitious points PF, `0 ≤ PF ≤ 2`:
//! - Groups A, B, C by rating; each holds at least 25% and at most 50% of the players;
//!   the arbiter fixes the rating limits before round 1 ("généralement" A ≥ 2000,
//!   C < 1600: [`DegressiveGroups::USUAL`]).
//! - At the start: A has PF = 2, B has PF = 1, C has PF = 0.
//! - A B or C player who has scored at least 1½ gains ½; at 3 points, another ½ (B thus
//!   reaches 2). A C player who has scored at least 4½ gains a third ½.
//! - When SR reaches `n/2` (n = number of rounds), PF becomes 2.
//! - From the pairing of the penultimate round (`n − 1`) on, PF = 0: a full Swiss.
//!
//! "Point" is read as the points of a win, so ½ point is half a win; the thresholds are on
//! the player's real score, byes included (ADR swiss-005).

use super::{AccelerationError, AccelerationInput, initial_list};
use crate::{Score, Tpn};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The arbiter's rating limits: group A = rating ≥ `a_min`, group C = rating < `c_below`,
/// group B = the others.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct DegressiveGroups {
    pub a_min: u32,
    pub c_below: u32,
}

impl DegressiveGroups {
    /// The usual limits of the text: A ≥ 2000, C < 1600.
    pub const USUAL: DegressiveGroups = DegressiveGroups {
        a_min: 2000,
        c_below: 1600,
    };

    /// The group ('A', 'B' or 'C') of a rating.
    pub fn group(&self, rating: u32) -> char {
        if rating >= self.a_min {
            'A'
        } else if rating < self.c_below {
            'C'
        } else {
            'B'
        }
    }
}

impl Default for DegressiveGroups {
    fn default() -> Self {
        DegressiveGroups::USUAL
    }
}

/// Fictitious points of a player of `group` with real score `score` for the pairing of
/// `round` of an `n`-round tournament; `win` = points of a win (must be even).
pub fn fictitious_points(group: char, score: Score, round: u32, n: u32, win: Score) -> Score {
    if round + 1 >= n {
        // Penultimate and last rounds: a full Swiss (also every round when n <= 2).
        return 0;
    }
    let half = win / 2;
    let max = 2 * win;
    // SR >= n/2  <=>  2·SR >= n·win (in points of a win).
    if u64::from(score) * 2 >= u64::from(n) * u64::from(win) {
        return max;
    }
    let mut pf = match group {
        'A' => max,
        'B' => win,
        _ => 0,
    };
    if group != 'A' {
        if score >= 3 * half {
            pf += half;
        }
        if score >= 6 * half {
            pf += half;
        }
        if group == 'C' && score >= 9 * half {
            pf += half;
        }
    }
    pf.min(max)
}

pub(crate) fn virtual_points(
    groups: &DegressiveGroups,
    input: &AccelerationInput<'_>,
) -> Result<BTreeMap<Tpn, Score>, AccelerationError> {
    if groups.a_min < groups.c_below {
        return Err(AccelerationError::DegressiveLimits {
            a_min: groups.a_min,
            c_below: groups.c_below,
        });
    }
    let initial = initial_list(input);
    let total = initial.len();
    if total > 0 {
        for g in ['A', 'B', 'C'] {
            let count = initial
                .iter()
                .filter(|p| groups.group(p.rating) == g)
                .count();
            if count * 4 < total || count * 2 > total {
                return Err(AccelerationError::DegressiveGroupSize {
                    group: g,
                    count,
                    total,
                    a_min: groups.a_min,
                    c_below: groups.c_below,
                });
            }
        }
    }
    Ok(input
        .players
        .iter()
        .map(|p| {
            (
                p.tpn,
                fictitious_points(
                    groups.group(p.rating),
                    p.score,
                    input.round,
                    input.total_rounds,
                    input.points.win,
                ),
            )
        })
        .collect())
}
