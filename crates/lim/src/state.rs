//! The pure tournament state the Lim pairing reads (Lim art. 7: pairing numbers; art. 8: bye;
//! GHR 3.4: colour history counts played games only).

use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

use crate::error::LimError;

/// A colour on the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Colour {
    /// White.
    White,
    /// Black.
    Black,
}

impl Colour {
    /// The other colour.
    #[must_use]
    pub fn opposite(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }
}

/// Direction in which a player floated (Lim art. 10.2): to a lower or to a higher scoregroup.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum FloatDirection {
    /// Transferred to the next lower scoregroup (pairing downwards).
    Down,
    /// Transferred to the next higher scoregroup (pairing upwards).
    Up,
}

/// One player as the pairing sees him.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    /// Pairing number (art. 7): 1 is the highest-placed player. Unique, at least 1.
    pub pairing_number: u32,
    /// Rating used for the maxi-tournament 100-point rule (art. 10.2, 10.8, 12.7).
    pub rating: u32,
    /// Score in exact half-points (a win is 2, a draw 1, a loss 0; a bye or forfeit win is 2).
    pub score_half_points: u32,
    /// Colours of the games actually played, oldest first (unplayed rounds are left out, GHR 3.4).
    pub colours: Vec<Colour>,
    /// Pairing numbers of the opponents already met (art. 2: no rematch).
    pub opponents: Vec<u32>,
    /// Float of the previous round, if the player floated then (art. 10.10).
    pub floated_last_round: Option<FloatDirection>,
    /// Absent for this round: not paired, no bye (preamble "Un joueur qui n'est pas présent ne peut
    /// pas recevoir de bye").
    pub absent: bool,
    /// Has already had a bye or scored a win by forfeit: may not receive the bye (art. 8.2).
    pub bye_ineligible: bool,
}

impl Player {
    /// A present player with no history yet (round 1).
    #[must_use]
    pub fn new(pairing_number: u32, rating: u32) -> Player {
        Player {
            pairing_number,
            rating,
            score_half_points: 0,
            colours: Vec::new(),
            opponents: Vec::new(),
            floated_last_round: None,
            absent: false,
            bye_ineligible: false,
        }
    }
}

/// The tournament as it stands before pairing `round`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TournamentState {
    /// Number of rounds declared beforehand (art. 1); decides the maxi-tournament test and the
    /// last-round exception (art. 13).
    pub total_rounds: u32,
    /// Round to pair, 1-based.
    pub round: u32,
    /// Colour of player no. 1 in round 1, drawn by lot (art. 14.2; the only drawing of lots).
    pub initial_colour: Colour,
    /// All registered players (absent ones included, flagged).
    pub players: Vec<Player>,
}

impl TournamentState {
    /// A maxi-tournament has more players than 2 to the power of the number of rounds
    /// (art. 10.2, parenthesis). All registered players count (ADR lim-003).
    #[must_use]
    pub fn is_maxi_tournament(&self) -> bool {
        let players = self.players.len() as u128;
        if self.total_rounds >= 127 {
            return false;
        }
        players > (1u128 << self.total_rounds)
    }

    /// The median score in half-points: half the points of the rounds played (art. 9.2).
    /// With `round - 1` rounds played that is `round - 1` half-points.
    #[must_use]
    pub fn median_score_half_points(&self) -> u32 {
        self.round.saturating_sub(1)
    }

    /// Checks numbers, histories and the round; returns the index of each pairing number.
    pub(crate) fn validate(&self) -> Result<BTreeMap<u32, usize>, LimError> {
        if self.round == 0 || self.round > self.total_rounds {
            return Err(LimError::RoundOutOfRange {
                round: self.round,
                total_rounds: self.total_rounds,
            });
        }
        let played = self.round - 1;
        let mut index = BTreeMap::new();
        for (position, p) in self.players.iter().enumerate() {
            if p.pairing_number == 0 {
                return Err(LimError::ZeroPairingNumber { position });
            }
            if index.insert(p.pairing_number, position).is_some() {
                return Err(LimError::DuplicatePairingNumber {
                    pairing_number: p.pairing_number,
                });
            }
        }
        let inconsistent = |p: &Player, problem: String| LimError::InconsistentHistory {
            player: p.pairing_number,
            problem,
            round: self.round,
            played,
        };
        for p in &self.players {
            if u64::from(p.score_half_points) > 2 * u64::from(played) {
                return Err(inconsistent(
                    p,
                    format!(
                        "score of {} half-points is more than a win in every round",
                        p.score_half_points
                    ),
                ));
            }
            if p.colours.len() as u64 > u64::from(played) {
                return Err(inconsistent(
                    p,
                    format!("{} colours recorded", p.colours.len()),
                ));
            }
            if p.opponents.len() as u64 > u64::from(played) {
                return Err(inconsistent(
                    p,
                    format!("{} opponents recorded", p.opponents.len()),
                ));
            }
            let mut seen = BTreeSet::new();
            for &o in &p.opponents {
                if o == p.pairing_number || !index.contains_key(&o) {
                    return Err(LimError::UnknownOpponent {
                        player: p.pairing_number,
                        opponent: o,
                    });
                }
                if !seen.insert(o) {
                    return Err(inconsistent(
                        p,
                        format!("opponent {o} is listed twice (art. 2 forbids a rematch)"),
                    ));
                }
            }
        }
        Ok(index)
    }
}
