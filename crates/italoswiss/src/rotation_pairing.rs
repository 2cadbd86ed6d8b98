//! Italo-Swiss pairing (seed 000, "Le système italo-suisse"): round 1 by the drawn numbers
//! (1-2, 3-4, …); later rounds by score groups, each taken in the list's rotation that starts at
//! the last player of the list to have had White (or at the group's first player when he is not
//! in it), pairing each player with the next one "never going back", passing over opponents
//! already met, and failing that with the first possible player of the next group.

use std::collections::{BTreeMap, BTreeSet};

use matching::{PairingOrder, first_pairing};
use serde::{Deserialize, Serialize};

use crate::colours::allocate;
use crate::error::ItaloSwissError;
use crate::state::{Colour, ItaloSwissState};

/// Step budget of the search.
pub const SEARCH_BUDGET: u64 = 2_000_000;

/// One board (list numbers).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Board {
    /// White.
    pub white: u32,
    /// Black.
    pub black: u32,
}

/// A line of the explanation of a pairing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Explanation {
    /// The player who has the bye (ADR italoswiss-001).
    Bye {
        /// List number.
        player: u32,
    },
    /// A score group was taken in this rotation order.
    Rotation {
        /// Pairing score of the group, half-points.
        score_half_points: u32,
        /// List numbers in rotation order (the first is where the rotation starts).
        order: Vec<u32>,
    },
    /// A player found no opponent he had not met in his group and took the first possible
    /// player of a following group.
    AcrossGroups {
        /// The player.
        player: u32,
        /// His opponent from a lower group.
        opponent: u32,
    },
    /// The straightforward rotation left players without an opponent; earlier pairings were
    /// revised in the same order ("on peut procéder à des regroupements", ADR italoswiss-001).
    Regrouped,
}

/// The pairing of one round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ItaloPairing {
    /// Boards in the order they were formed (top group first).
    pub boards: Vec<Board>,
    /// The player with the bye, if any.
    pub bye: Option<u32>,
    /// Explanation.
    pub explanation: Vec<Explanation>,
}

/// "Le nombre de rondes ne devrait pas être inférieur à un tiers du nombre de participants".
#[must_use]
pub fn rounds_are_enough(participants: u32, rounds: u32) -> bool {
    u64::from(rounds) * 3 >= u64::from(participants)
}

/// Pairs `state.round`.
///
/// # Errors
/// [`ItaloSwissError`] for inconsistent input, when nobody may have a needed bye, or when no
/// pairing avoids a rematch.
pub fn pair_round(state: &ItaloSwissState) -> Result<ItaloPairing, ItaloSwissError> {
    let index = state.validate()?;
    let mut present: Vec<usize> = (0..state.players.len())
        .filter(|&i| !state.players[i].absent)
        .collect();
    present.sort_by_key(|&i| state.players[i].number);
    if present.len().is_multiple_of(2) {
        return pair_present(state, &index, &present, None);
    }
    // The bye: the last of the standings (fewest points, then the highest number), as the seed
    // does for a withdrawal ("le dernier classé"), once per player (ADR italoswiss-001).
    let mut candidates: Vec<usize> = present
        .iter()
        .copied()
        .filter(|&i| !state.players[i].had_bye)
        .collect();
    if candidates.is_empty() {
        return Err(ItaloSwissError::NoByeCandidate {
            present: present.len(),
        });
    }
    candidates.sort_by_key(|&i| {
        (
            state.players[i].pairing_score(),
            std::cmp::Reverse(state.players[i].number),
        )
    });
    for bye in candidates {
        let rest: Vec<usize> = present.iter().copied().filter(|&i| i != bye).collect();
        match pair_present(state, &index, &rest, Some(bye)) {
            Err(ItaloSwissError::NoLegalPairing { .. }) => continue,
            other => return other,
        }
    }
    Err(ItaloSwissError::NoLegalPairing {
        present: present.len() - 1,
    })
}

fn pair_present(
    state: &ItaloSwissState,
    index: &BTreeMap<u32, usize>,
    present: &[usize],
    bye: Option<usize>,
) -> Result<ItaloPairing, ItaloSwissError> {
    let ps = &state.players;
    let mut explanation = Vec::new();
    if let Some(b) = bye {
        explanation.push(Explanation::Bye {
            player: ps[b].number,
        });
    }
    let mut met = BTreeSet::new();
    for (i, p) in ps.iter().enumerate() {
        for o in &p.opponents {
            if let Some(&j) = index.get(o) {
                met.insert((i.min(j), i.max(j)));
            }
        }
    }
    // Round 1: 1-2, 3-4, … in list order. Later: the rotation sequence of every group.
    let sequence: Vec<usize> = if state.round == 1 {
        present.to_vec()
    } else {
        let last_white = present
            .iter()
            .copied()
            .filter(|&i| ps[i].colours.last() == Some(&Colour::White))
            .max_by_key(|&i| ps[i].number);
        let mut groups: BTreeMap<std::cmp::Reverse<u32>, Vec<usize>> = BTreeMap::new();
        for &i in present {
            groups
                .entry(std::cmp::Reverse(ps[i].pairing_score()))
                .or_default()
                .push(i);
        }
        let mut seq = Vec::new();
        for (score, mut members) in groups {
            members.sort_by_key(|&i| ps[i].number);
            let start = last_white
                .and_then(|w| members.iter().position(|&i| i == w))
                .unwrap_or(0);
            members.rotate_left(start);
            explanation.push(Explanation::Rotation {
                score_half_points: score.0,
                order: members.iter().map(|&i| ps[i].number).collect(),
            });
            seq.extend(members);
        }
        seq
    };
    let group_of: BTreeMap<usize, u32> = sequence
        .iter()
        .map(|&i| (i, ps[i].pairing_score()))
        .collect();
    let mut rotation = Rotation {
        met: &met,
        steps: 0,
    };
    let found =
        first_pairing(&mut rotation, &sequence)?.ok_or(ItaloSwissError::NoLegalPairing {
            present: present.len(),
        })?;
    if found.revised {
        explanation.push(Explanation::Regrouped);
    }
    let mut boards = Vec::new();
    for (a, b) in found.pairs {
        if state.round > 1 && group_of[&a] != group_of[&b] {
            explanation.push(Explanation::AcrossGroups {
                player: ps[a].number,
                opponent: ps[b].number,
            });
        }
        let (white, black) = allocate(&ps[a], &ps[b]);
        boards.push(Board { white, black });
    }
    Ok(ItaloPairing {
        boards,
        bye: bye.map(|b| ps[b].number),
        explanation,
    })
}

/// The rotation as the rules of the shared search (`matching::ordered_search`): the first
/// unpaired player takes the next unpaired player of the sequence he has not met ("en ne
/// revenant jamais en arrière"); the sequence runs on into the following groups. When a choice
/// leaves somebody without an opponent, the next choice is tried (regrouping).
struct Rotation<'m> {
    met: &'m BTreeSet<(usize, usize)>,
    steps: u64,
}

impl PairingOrder for Rotation<'_> {
    type Error = ItaloSwissError;
    fn may_meet(&self, a: usize, b: usize) -> bool {
        !self.met.contains(&(a.min(b), a.max(b)))
    }
    fn opponents(&self, rest: &[usize]) -> Vec<usize> {
        rest.get(1..).unwrap_or_default().to_vec()
    }
    fn step(&mut self) -> Result<(), ItaloSwissError> {
        self.steps += 1;
        if self.steps > SEARCH_BUDGET {
            return Err(ItaloSwissError::SearchBudgetExceeded {
                budget: SEARCH_BUDGET,
            });
        }
        Ok(())
    }
}
