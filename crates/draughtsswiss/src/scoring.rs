//! Annex V art. 8.1 scoring (2/1/0), the provisional Solkoff and Sonneborn-Berger of art. 4.1 and
//! 6.1.5, the order inside score groups and the median participant of art. 6.1.6.

use std::collections::BTreeMap;

use crate::state::Participant;

/// Points for a win (art. 8.1).
pub const WIN: u32 = 2;
/// Points for a draw (art. 8.1; also an unfinished game for pairing, art. 8.8).
pub const DRAW: u32 = 1;
/// Points for a loss (art. 8.1).
pub const LOSS: u32 = 0;
/// Points for a rest (art. 8.2).
pub const REST: u32 = 2;

/// Provisional Solkoff (art. 4.1, 6.1.5 1): the sum of the current scores of the opponents met
/// over the board. Games not played (forfeits) do not count (ADR draughtsswiss-001).
#[must_use]
pub fn solkoff(p: &Participant, scores: &BTreeMap<u32, u32>) -> u64 {
    p.games
        .iter()
        .filter(|g| g.colour.is_some())
        .map(|g| u64::from(scores.get(&g.opponent).copied().unwrap_or(0)))
        .sum()
}

/// Provisional Sonneborn-Berger (art. 4.1, 6.1.5 2): for each game played, the points scored
/// (2/1/0) times the opponent's current score. On the 2/1/0 scale this is twice the classical
/// "scores of beaten opponents plus half the scores of drawn opponents"; the order it gives is
/// the same.
#[must_use]
pub fn sonneborn_berger(p: &Participant, scores: &BTreeMap<u32, u32>) -> u64 {
    p.games
        .iter()
        .filter(|g| g.colour.is_some())
        .map(|g| u64::from(g.points) * u64::from(scores.get(&g.opponent).copied().unwrap_or(0)))
        .sum()
}

/// Sort key of the ranking (art. 6.1.5, 6.2.4): score, Solkoff, Sonneborn-Berger descending,
/// then the identification number ascending.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct RankKey {
    neg_score: i64,
    neg_solkoff: i64,
    neg_sb: i64,
    id: u32,
}

/// The ranking key of every participant, by identification number.
#[must_use]
pub fn rank_keys(participants: &[Participant]) -> BTreeMap<u32, RankKey> {
    let scores: BTreeMap<u32, u32> = participants.iter().map(|p| (p.id, p.score())).collect();
    participants
        .iter()
        .map(|p| {
            let clamp = |x: u64| i64::try_from(x).unwrap_or(i64::MAX);
            (
                p.id,
                RankKey {
                    neg_score: -i64::from(p.score()),
                    neg_solkoff: -clamp(solkoff(p, &scores)),
                    neg_sb: -clamp(sonneborn_berger(p, &scores)),
                    id: p.id,
                },
            )
        })
        .collect()
}

/// Art. 6.1.6: the median participant is the one in the middle of the ranking; with an even
/// number, the lower-ranked of the two in the middle. `ranked` is in ranking order. Returns its
/// index, `None` for an empty list.
#[must_use]
pub fn median_index(ranked_len: usize) -> Option<usize> {
    if ranked_len == 0 {
        None
    } else {
        Some(ranked_len / 2)
    }
}
