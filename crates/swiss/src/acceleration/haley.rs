//! Haley system (seed 000, "Appariements accélérés — Système de Haley", French federation
//! text in the FEFB vade-mecum 2018).
//!
//! - Application: for round 1 the pairing list is split, in decreasing order, into four
//!   groups A, B, C, D "having as far as possible the same number of players"; A and B get
//!   one fictitious point ("comme s'il était le résultat d'une ronde précédemment jouée":
//!   as if they had won a previous round, so the points of a win). Round 1 then pairs A
//!   against B and C against D (the Dutch pairing of the two score groups does that).
//! - The fictitious point is kept for the pairing of round 2 and removed at the end of
//!   round 2 (Example 1): round 3 onwards is paired on real points.
//! - Example 2: only ½ point is removed at the end of round 2, round 3 is paired with the
//!   remaining ½ point, which is removed at the end of round 3.
//!
//! Group sizes: `N = 4q + r`; the `r` extra players go to the highest groups (A, then B,
//! then C), so A ∪ B holds `2q + min(r, 2)` players. Late entries are not on the round-1
//! list and get no fictitious point (ADR swiss-005).

use super::{AccelerationInput, initial_list};
use crate::{Score, Tpn};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// When the fictitious point is removed (seed 000, Examples 1 and 2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum HaleyRemoval {
    /// Example 1: "+1 point" for the pairings of rounds 1 and 2, removed at the end of
    /// round 2.
    #[default]
    AfterRoundTwo,
    /// Example 2: ½ point removed at the end of round 2, the last ½ point at the end of
    /// round 3.
    HalfAfterRoundTwo,
}

/// Size of A ∪ B for `n` players on the round-1 list: four groups as equal as possible,
/// the larger ones first.
pub fn groups_a_and_b_size(n: usize) -> usize {
    2 * (n / 4) + (n % 4).min(2)
}

/// Fictitious points of an A or B player for the pairing of `round`.
pub fn fictitious_points(removal: HaleyRemoval, round: u32, win: Score) -> Score {
    match (removal, round) {
        (_, 1 | 2) => win,
        (HaleyRemoval::HalfAfterRoundTwo, 3) => win / 2,
        _ => 0,
    }
}

/// TPNs of groups A and B.
pub fn groups_a_and_b(input: &AccelerationInput<'_>) -> Vec<Tpn> {
    let initial = initial_list(input);
    let k = groups_a_and_b_size(initial.len());
    initial.iter().take(k).map(|p| p.tpn).collect()
}

pub(crate) fn virtual_points(
    removal: HaleyRemoval,
    input: &AccelerationInput<'_>,
) -> BTreeMap<Tpn, Score> {
    let ab: std::collections::BTreeSet<Tpn> = groups_a_and_b(input).into_iter().collect();
    let pts = fictitious_points(removal, input.round, input.points.win);
    input
        .players
        .iter()
        .map(|p| (p.tpn, if ab.contains(&p.tpn) { pts } else { 0 }))
        .collect()
}
