//! Baku acceleration: C.04.7 "FIDE-approved Accelerated Systems" (approved 28/10/2025,
//! applied from 1 February 2026) and its 2016 form (C.04.5, Baku 2016, in force with the
//! Dutch 2017 edition until 31 January 2026).
//!
//! - Art. 1.2 groups: before round 1, group A (GA) is the first half of the list of
//!   participants rounded **up to an even number**, `GA = 2·⌈N/4⌉` (N = 161 → 82); group B
//!   is the rest.
//! - Art. 1.3 late entries (2026 only): inserted in the list by C.04.2 Art. 2; "the last GA
//!   participant shall be the same participant as in the previous round", so a late entry
//!   ranked above that participant is in GA (GA may become odd). The 2016 form has no
//!   such article: GA is fixed before round 1 and late entries are in GB (ADR swiss-005).
//! - Art. 1.4 virtual points: the accelerated rounds are the first `A = ⌈R/2⌉` rounds;
//!   in rounds `1..=⌈A/2⌉` GA players get the points of a win, in rounds
//!   `⌈A/2⌉+1..=A` half the points of a win; GB players, and every round after `A`, get 0.
//!   (2016: "1 point" and "0.5 point", the same under its 1/½/0 premise.)

use super::{AccelerationInput, initial_list};
use crate::{Score, Tpn};
use std::collections::BTreeMap;

/// Which text of the Baku acceleration.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BakuForm {
    /// C.04.7, applied from 1 February 2026.
    C0407_2026,
    /// C.04.5 Baku 2016 (Dutch 2017 edition).
    C0405_2016,
}

/// Number of accelerated rounds, `A = ⌈R/2⌉` (C.04.7 Art. 1.4).
pub fn accelerated_rounds(total_rounds: u32) -> u32 {
    total_rounds.div_ceil(2)
}

/// Last round with the full virtual points (a win), `⌈A/2⌉` (C.04.7 Art. 1.4).
pub fn full_point_rounds(total_rounds: u32) -> u32 {
    accelerated_rounds(total_rounds).div_ceil(2)
}

/// Size of group A before round 1: the first half of `n` rounded up to an even number,
/// `2·⌈n/4⌉`, never more than `n` (C.04.7 Art. 1.2).
pub fn group_a_size(n: usize) -> usize {
    (2 * n.div_ceil(4)).min(n)
}

/// Virtual points for a win-valued round (`win`), by round, for a GA player
/// (C.04.7 Art. 1.4).
pub fn group_a_points(total_rounds: u32, round: u32, win: Score) -> Score {
    if round == 0 || round > accelerated_rounds(total_rounds) {
        0
    } else if round <= full_point_rounds(total_rounds) {
        win
    } else {
        win / 2
    }
}

/// The TPNs of group A for the round to be paired.
pub fn group_a(form: BakuForm, input: &AccelerationInput<'_>) -> Vec<Tpn> {
    let initial = initial_list(input);
    let size = group_a_size(initial.len());
    match form {
        BakuForm::C0405_2016 => initial.iter().take(size).map(|p| p.tpn).collect(),
        BakuForm::C0407_2026 => {
            // Art. 1.3: everyone ranked at or above the last GA participant of round 1.
            let Some(last) = size.checked_sub(1).and_then(|i| initial.get(i)) else {
                return Vec::new();
            };
            let mut v: Vec<Tpn> = input
                .players
                .iter()
                .filter(|p| p.tpn <= last.tpn)
                .map(|p| p.tpn)
                .collect();
            v.sort_unstable();
            v
        }
    }
}

/// Virtual points of every player (the scoring premise already checked by the caller).
pub(crate) fn virtual_points(
    form: BakuForm,
    input: &AccelerationInput<'_>,
) -> BTreeMap<Tpn, Score> {
    let ga: std::collections::BTreeSet<Tpn> = group_a(form, input).into_iter().collect();
    let pts = group_a_points(input.total_rounds, input.round, input.points.win);
    input
        .players
        .iter()
        .map(|p| (p.tpn, if ga.contains(&p.tpn) { pts } else { 0 }))
        .collect()
}
