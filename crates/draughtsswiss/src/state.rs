//! The pure state of a draughts Swiss event (Annex V art. 3, 4, 8).

use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

use crate::error::DraughtsSwissError;

/// A colour (side) on the board.
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

/// One game of a participant (art. 4.1: colour, opponent, result).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Game {
    /// Identification number of the opponent.
    pub opponent: u32,
    /// Colour played; `None` when the game was not played (forfeit "2f"/"0f", art. 8.3):
    /// unplayed games count neither for colours (art. 7.1.8) nor for Solkoff/Sonneborn-Berger
    /// (ADR draughtsswiss-001).
    pub colour: Option<Colour>,
    /// Points scored in this game on the 2/1/0 scale (art. 8.1).
    pub points: u32,
}

/// One participant (a player or a team, preliminary remark).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Participant {
    /// Identification number (art. 3.1.5): its place in the initial list (by Capital-Points or by
    /// lot), unchanged during the event. 1 is the first.
    pub id: u32,
    /// Games paired so far, oldest first (rests are not games).
    pub games: Vec<Game>,
    /// Number of rounds without a game worth 2 points: rests ("repos", art. 5.2, 8.2) and the
    /// 2 forfeit points given for a withdrawal (art. 8.4), which the rules treat alike (8.5).
    pub rests: u32,
    /// Other points not in `games` or `rests`, on the 2/1/0 scale (e.g. an arbiter's decision).
    pub extra_points: u32,
    /// Absent for this round: not paired.
    pub absent: bool,
    /// Withdrawn from the event: not paired, not in the ranking used for pairing (art. 8.6); the
    /// rest then goes preferably to a participant who has not met him (art. 8.4).
    pub withdrawn: bool,
}

impl Participant {
    /// A present participant with no history.
    #[must_use]
    pub fn new(id: u32) -> Participant {
        Participant {
            id,
            games: Vec::new(),
            rests: 0,
            extra_points: 0,
            absent: false,
            withdrawn: false,
        }
    }

    /// Score on the 2/1/0 scale: game points, 2 per rest (art. 8.2), extra points.
    #[must_use]
    pub fn score(&self) -> u32 {
        self.games
            .iter()
            .map(|g| g.points)
            .sum::<u32>()
            .saturating_add(self.rests.saturating_mul(2))
            .saturating_add(self.extra_points)
    }

    /// Colours of the games actually played, oldest first (art. 7.1.8).
    #[must_use]
    pub fn colours(&self) -> Vec<Colour> {
        self.games.iter().filter_map(|g| g.colour).collect()
    }
}

/// How the initial list was made (art. 3): it decides the pairing and colour rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum InitialOrder {
    /// Art. 3.1: by a ranking list (Capital-Points): rules 5.6, 6.1 and 7.1.
    #[default]
    RankingList,
    /// Art. 3.2: by drawing of lots: rules 5.7, 6.2 and 7.2.
    DrawnLots,
}

/// Accelerated variants approved by the FMJD (art. 9).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Acceleration {
    /// The basic Swiss system.
    #[default]
    None,
    /// Art. 9.1: pairing by quarters.
    Quarter,
    /// Art. 9.2: ranking points (Haley system).
    Haley,
}

/// The event before pairing `round`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DraughtsSwissState {
    /// Number of rounds of the event (art. 2.4).
    pub total_rounds: u32,
    /// Round to pair, 1-based.
    pub round: u32,
    /// Colour drawn by lot for the odd-placed participants of the upper half in round 1
    /// (art. 7.1.2, 7.1.3). Ignored with [`InitialOrder::DrawnLots`] (odd numbers White, 7.2.1).
    pub first_colour: Colour,
    /// How the initial list was made.
    pub initial_order: InitialOrder,
    /// Accelerated variant, if any.
    pub acceleration: Acceleration,
    /// All participants, absent ones flagged.
    pub participants: Vec<Participant>,
    /// Haley system (art. 9.2.2) only: the participants of the first two packets of round 1, who
    /// carry two ranking points for the pairing of round 2. Round 1 returns them in
    /// [`crate::DraughtsPairing::haley_group_a`]; the caller keeps them in the state.
    pub haley_group_a: Vec<u32>,
}

impl DraughtsSwissState {
    pub(crate) fn validate(&self) -> Result<BTreeMap<u32, usize>, DraughtsSwissError> {
        if self.round == 0 || self.round > self.total_rounds {
            return Err(DraughtsSwissError::RoundOutOfRange {
                round: self.round,
                total_rounds: self.total_rounds,
            });
        }
        let played = u64::from(self.round - 1);
        let mut index = BTreeMap::new();
        for (position, p) in self.participants.iter().enumerate() {
            if p.id == 0 {
                return Err(DraughtsSwissError::ZeroId { position });
            }
            if index.insert(p.id, position).is_some() {
                return Err(DraughtsSwissError::DuplicateId { id: p.id });
            }
        }
        for p in &self.participants {
            let bad = |problem: String| DraughtsSwissError::InconsistentHistory {
                participant: p.id,
                problem,
            };
            if p.games.len() as u64 + u64::from(p.rests) > played {
                return Err(bad(format!(
                    "{} games and {} rests but only {played} rounds were played",
                    p.games.len(),
                    p.rests
                )));
            }
            if u64::from(p.extra_points) > 2 * played {
                return Err(bad(format!(
                    "{} extra points is more than a win per round",
                    p.extra_points
                )));
            }
            let mut seen = BTreeSet::new();
            for g in &p.games {
                if g.opponent == p.id || !index.contains_key(&g.opponent) {
                    return Err(DraughtsSwissError::UnknownOpponent {
                        participant: p.id,
                        opponent: g.opponent,
                    });
                }
                if g.points > 2 {
                    return Err(bad(format!(
                        "{} points in one game; the scale is 2/1/0 (art. 8.1)",
                        g.points
                    )));
                }
                if g.colour.is_some() && !seen.insert(g.opponent) {
                    return Err(bad(format!("opponent {} met twice (art. 2.3)", g.opponent)));
                }
            }
        }
        Ok(index)
    }
}
