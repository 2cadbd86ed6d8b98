//! Double round robin (C.05 Annex 1): two cycles of the Berger table, colours reversed in the
//! second.
//!
//! FIDE text: "For a double-round tournament it is recommended to reverse the order of the last
//! two rounds of the first cycle. This is to avoid three consecutive games with the same colour."
//! The second cycle repeats the first with colours reversed.
//!
//! Reading adopted (ADR `docs/decisions/roundrobin-001-double-round-robin-swap.md`): only the
//! *first* cycle has its last two rounds swapped; the second cycle is the printed table, in
//! printed order, with colours reversed. The property "no player has three consecutive games
//! with the same colour" is tested for 3–40 players.

use serde::{Deserialize, Serialize};

use crate::RoundRobinError;
use crate::berger_table::{Round, berger_table};

/// How the two cycles of a double round robin are ordered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum SecondCycle {
    /// FIDE's recommendation (the default): rounds `m − 1` and `m` of the first cycle are played
    /// in reverse order; the second cycle is the table with colours reversed.
    #[default]
    SwapLastTwoRoundsOfFirstCycle,
    /// Both cycles in printed order, the second with colours reversed (what the recommendation
    /// improves on; kept for events that already published such a schedule).
    AsPrinted,
}

/// The `2m` rounds of a double round robin for `players` players, numbered `1..=2m` in
/// playing order.
///
/// With `players == 2` (one round per cycle) there is nothing to swap and both options agree.
///
/// # Errors
/// [`RoundRobinError::PlayerCountOutOfRange`].
pub fn double_round_robin(players: u32, order: SecondCycle) -> Result<Vec<Round>, RoundRobinError> {
    let mut first = berger_table(players)?;
    let m = first.len();
    let second: Vec<Round> = first
        .iter()
        .zip(1u32..)
        .map(|(round, i)| round.with_colours_reversed(u32::try_from(m).unwrap_or(u32::MAX) + i))
        .collect();
    if order == SecondCycle::SwapLastTwoRoundsOfFirstCycle && m >= 2 {
        first.swap(m - 2, m - 1);
        for (round, number) in first.iter_mut().zip(1u32..) {
            round.number = number;
        }
    }
    first.extend(second);
    Ok(first)
}
