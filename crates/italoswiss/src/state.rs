//! The pure state of an Italo-Swiss tournament (seed 000, "Le système italo-suisse").

use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

use crate::error::ItaloSwissError;

/// A colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Colour {
    /// White.
    White,
    /// Black.
    Black,
}

/// One player.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    /// The order number drawn by lot before round 1 ("tirage au sort pour donner un numéro
    /// d'ordre"), 1-based, unique; the list order of every rotation.
    pub number: u32,
    /// Score in exact half-points (win 2, draw 1, loss 0).
    pub score_half_points: u32,
    /// Colours of the games played, oldest first.
    pub colours: Vec<Colour>,
    /// Numbers of the opponents already met.
    pub opponents: Vec<u32>,
    /// Has an adjourned (unfinished) game: "paired with one point" (ADR italoswiss-002).
    pub adjourned: bool,
    /// Has already received a bye (ADR italoswiss-001).
    pub had_bye: bool,
    /// Absent or withdrawn: not paired.
    pub absent: bool,
}

impl Player {
    /// A present player without history.
    #[must_use]
    pub fn new(number: u32) -> Player {
        Player {
            number,
            score_half_points: 0,
            colours: Vec::new(),
            opponents: Vec::new(),
            adjourned: false,
            had_bye: false,
            absent: false,
        }
    }

    /// Score used for pairing: the score plus one point (2 half-points) for an adjourned game
    /// ("Tous les joueurs ayant une partie ajournée sont appariés avec un point").
    #[must_use]
    pub fn pairing_score(&self) -> u32 {
        self.score_half_points
            .saturating_add(if self.adjourned { 2 } else { 0 })
    }

    /// Number of games played with White.
    #[must_use]
    pub fn whites(&self) -> usize {
        self.colours.iter().filter(|c| **c == Colour::White).count()
    }
}

/// The tournament before pairing `round`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ItaloSwissState {
    /// Number of rounds ("ne devrait pas être inférieur à un tiers du nombre de participants":
    /// see [`crate::rounds_are_enough`]).
    pub total_rounds: u32,
    /// Round to pair, 1-based.
    pub round: u32,
    /// All players.
    pub players: Vec<Player>,
}

impl ItaloSwissState {
    pub(crate) fn validate(&self) -> Result<BTreeMap<u32, usize>, ItaloSwissError> {
        if self.round == 0 || self.round > self.total_rounds {
            return Err(ItaloSwissError::RoundOutOfRange {
                round: self.round,
                total_rounds: self.total_rounds,
            });
        }
        let played = u64::from(self.round - 1);
        let mut index = BTreeMap::new();
        for (position, p) in self.players.iter().enumerate() {
            if p.number == 0 {
                return Err(ItaloSwissError::ZeroNumber { position });
            }
            if index.insert(p.number, position).is_some() {
                return Err(ItaloSwissError::DuplicateNumber { number: p.number });
            }
        }
        for p in &self.players {
            let bad = |problem: String| ItaloSwissError::InconsistentHistory {
                player: p.number,
                problem,
            };
            if u64::from(p.score_half_points) > 2 * played {
                return Err(bad(format!(
                    "{} half-points after {played} rounds",
                    p.score_half_points
                )));
            }
            if p.colours.len() as u64 > played || p.opponents.len() as u64 > played {
                return Err(bad(format!("more games than the {played} rounds played")));
            }
            let mut seen = BTreeSet::new();
            for &o in &p.opponents {
                if o == p.number || !index.contains_key(&o) {
                    return Err(ItaloSwissError::UnknownOpponent {
                        player: p.number,
                        opponent: o,
                    });
                }
                if !seen.insert(o) {
                    return Err(bad(format!("opponent {o} listed twice")));
                }
            }
        }
        Ok(index)
    }
}
