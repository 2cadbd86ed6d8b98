//! The Belgrade variant of the knockout. Seed 000, "Systèmes K.O.": "On peut aussi appliquer le
//! système de Belgrade où un joueur n'est éliminé qu'après avoir perdu 2 ou 3 points (2 nulles =
//! 1 point)."
//!
//! Each player accumulates *lost points*: 1 for a loss, ½ for a draw, 0 for a win or a bye. A
//! player is eliminated once the lost points reach the threshold (2 or 3). The event goes on
//! until one player is left.
//!
//! The seed does not say how survivors are paired. Decision (ADR
//! `docs/decisions/knockout-003-belgrade-variant.md`): survivors are ranked by lost points, then
//! seed; the first unpaired player meets the next unpaired one they have not met yet (or, if
//! they have met everyone left, the next unpaired one); an odd player out is the lowest-ranked
//! survivor who has not yet had a bye (else the lowest-ranked). White goes to the player with
//! fewer Whites so far, then to the better seed.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use crate::KnockoutError;

/// Lost points after which a player is eliminated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum BelgradeThreshold {
    /// Eliminated after losing 2 points.
    TwoPoints,
    /// Eliminated after losing 3 points.
    ThreePoints,
}

impl BelgradeThreshold {
    fn half_points(self) -> u32 {
        match self {
            BelgradeThreshold::TwoPoints => 4,
            BelgradeThreshold::ThreePoints => 6,
        }
    }
}

/// A game of a Belgrade round: seeds of White and Black.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct BelgradeGame {
    /// Seed with White.
    pub white: u32,
    /// Seed with Black.
    pub black: u32,
}

/// The pairings of one Belgrade round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BelgradeRound {
    /// Round number, 1-based.
    pub number: u32,
    /// Games in ranking order.
    pub games: Vec<BelgradeGame>,
    /// The survivor without an opponent, if the number of survivors is odd.
    pub bye: Option<u32>,
}

/// Result of a Belgrade game, from White's point of view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum BelgradeResult {
    /// 1-0.
    WhiteWins,
    /// ½-½.
    Draw,
    /// 0-1.
    BlackWins,
}

/// Where the event stands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum BelgradeStatus {
    /// More than one survivor: pair another round.
    InProgress {
        /// Seeds still in, in ranking order.
        survivors: Vec<u32>,
    },
    /// One survivor: the winner.
    Winner(u32),
    /// The last survivors were all eliminated in the same round (e.g. a final draw between two
    /// players each ½ point from the threshold): the regulations must separate them (playoff).
    AllEliminatedTogether(Vec<u32>),
}

/// A Belgrade-variant event in progress.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BelgradeEvent {
    threshold: BelgradeThreshold,
    /// Lost half-points per seed (index = seed − 1).
    lost: Vec<u32>,
    whites: Vec<u32>,
    had_bye: Vec<bool>,
    met: BTreeSet<(u32, u32)>,
    rounds_played: u32,
    pending: Option<BelgradeRound>,
    last_round_players: Vec<u32>,
}

/// Largest field accepted.
pub const MAX_BELGRADE_PLAYERS: usize = 4096;

impl BelgradeEvent {
    /// A new event for seeds `1..=players`.
    ///
    /// # Errors
    /// [`KnockoutError::PlayerCountOutOfRange`] unless `2 <= players <= 4096`.
    pub fn new(players: u32, threshold: BelgradeThreshold) -> Result<Self, KnockoutError> {
        let n = usize::try_from(players).unwrap_or(usize::MAX);
        if !(2..=MAX_BELGRADE_PLAYERS).contains(&n) {
            return Err(KnockoutError::PlayerCountOutOfRange {
                what: "a Belgrade knockout",
                got: n,
                min: 2,
                max: MAX_BELGRADE_PLAYERS,
            });
        }
        Ok(BelgradeEvent {
            threshold,
            lost: vec![0; n],
            whites: vec![0; n],
            had_bye: vec![false; n],
            met: BTreeSet::new(),
            rounds_played: 0,
            pending: None,
            last_round_players: Vec::new(),
        })
    }

    fn idx(seed: u32) -> usize {
        usize::try_from(seed)
            .unwrap_or(usize::MAX)
            .saturating_sub(1)
    }

    /// Lost points of `seed`, in half-points (`None` for an unknown seed).
    #[must_use]
    pub fn lost_half_points(&self, seed: u32) -> Option<u32> {
        if seed == 0 {
            return None;
        }
        self.lost.get(Self::idx(seed)).copied()
    }

    /// Whether `seed` is eliminated.
    #[must_use]
    pub fn is_eliminated(&self, seed: u32) -> bool {
        self.lost_half_points(seed)
            .is_none_or(|l| l >= self.threshold.half_points())
    }

    /// Survivors in ranking order: fewer lost points first, then better seed.
    #[must_use]
    pub fn survivors(&self) -> Vec<u32> {
        let mut s: Vec<u32> = (1..=u32::try_from(self.lost.len()).unwrap_or(0))
            .filter(|&p| !self.is_eliminated(p))
            .collect();
        s.sort_by_key(|&p| (self.lost.get(Self::idx(p)).copied().unwrap_or(u32::MAX), p));
        s
    }

    /// Where the event stands.
    #[must_use]
    pub fn status(&self) -> BelgradeStatus {
        let survivors = self.survivors();
        match survivors.len() {
            0 => BelgradeStatus::AllEliminatedTogether(self.last_round_players.clone()),
            1 => BelgradeStatus::Winner(survivors.first().copied().unwrap_or(0)),
            _ => BelgradeStatus::InProgress { survivors },
        }
    }

    /// Pairs the next round (idempotent until its results are recorded).
    ///
    /// # Errors
    /// [`KnockoutError::BelgradeOver`] when there is a winner or nobody left.
    pub fn pair_next_round(&mut self) -> Result<BelgradeRound, KnockoutError> {
        if let Some(p) = &self.pending {
            return Ok(p.clone());
        }
        let survivors = match self.status() {
            BelgradeStatus::InProgress { survivors } => survivors,
            other => return Err(KnockoutError::BelgradeOver(format!("{other:?}"))),
        };
        let mut unpaired = survivors.clone();
        let mut bye = None;
        if unpaired.len() % 2 == 1 {
            let pos = unpaired
                .iter()
                .rposition(|&p| !self.had_bye.get(Self::idx(p)).copied().unwrap_or(true))
                .unwrap_or(unpaired.len() - 1);
            bye = Some(unpaired.remove(pos));
        }
        let mut games = Vec::new();
        while !unpaired.is_empty() {
            let first = unpaired.remove(0);
            let pos = unpaired
                .iter()
                .position(|&q| !self.met.contains(&(first.min(q), first.max(q))))
                .unwrap_or(0);
            if pos >= unpaired.len() {
                break;
            }
            let second = unpaired.remove(pos);
            let (wf, ws) = (
                self.whites.get(Self::idx(first)).copied().unwrap_or(0),
                self.whites.get(Self::idx(second)).copied().unwrap_or(0),
            );
            let first_white = wf < ws || (wf == ws && first < second);
            let (white, black) = if first_white {
                (first, second)
            } else {
                (second, first)
            };
            games.push(BelgradeGame { white, black });
        }
        let round = BelgradeRound {
            number: self.rounds_played + 1,
            games,
            bye,
        };
        self.pending = Some(round.clone());
        Ok(round)
    }

    /// Records the results of the pending round: `results[i]` is the result of game `i`.
    /// Returns the seeds eliminated in this round.
    ///
    /// # Errors
    /// [`KnockoutError::BelgradeResults`] if no round is pending or the number of results
    /// differs from the number of games; nothing is recorded then.
    pub fn record_round(&mut self, results: &[BelgradeResult]) -> Result<Vec<u32>, KnockoutError> {
        let round_number = self.rounds_played + 1;
        let Some(round) = self.pending.clone() else {
            return Err(KnockoutError::BelgradeResults {
                round: round_number,
                problem: "no round is paired".into(),
            });
        };
        if results.len() != round.games.len() {
            return Err(KnockoutError::BelgradeResults {
                round: round_number,
                problem: format!("{} results for {} games", results.len(), round.games.len()),
            });
        }
        let before: BTreeSet<u32> = self.survivors().into_iter().collect();
        for (g, r) in round.games.iter().zip(results) {
            let (lw, lb) = match r {
                BelgradeResult::WhiteWins => (0, 2),
                BelgradeResult::Draw => (1, 1),
                BelgradeResult::BlackWins => (2, 0),
            };
            if let Some(l) = self.lost.get_mut(Self::idx(g.white)) {
                *l += lw;
            }
            if let Some(l) = self.lost.get_mut(Self::idx(g.black)) {
                *l += lb;
            }
            if let Some(w) = self.whites.get_mut(Self::idx(g.white)) {
                *w += 1;
            }
            self.met
                .insert((g.white.min(g.black), g.white.max(g.black)));
        }
        if let Some(b) = round.bye.and_then(|b| self.had_bye.get_mut(Self::idx(b))) {
            *b = true;
        }
        self.last_round_players = before.iter().copied().collect();
        self.rounds_played += 1;
        self.pending = None;
        let after: BTreeSet<u32> = self.survivors().into_iter().collect();
        Ok(before.difference(&after).copied().collect())
    }
}
