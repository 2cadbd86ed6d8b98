//! The tournament state the Dutch system reads, and the pairing it produces.
//!
//! Everything here is plain data: the caller (a TRF adapter, a service) derives colour and
//! float histories from the games; this crate applies the rules of C.04.1, C.04.2 and C.04.3.

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// A score as an exact integer in the tournament's smallest scoring unit
/// (e.g. half-points for 1/½/0, points for 3/1/0). Never a float.
pub type Score = u32;

/// Tournament pairing number (C.04.2 Art. 2.3), 1-based.
pub type Tpn = u32;

/// A piece colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Colour {
    White,
    Black,
}

impl Colour {
    /// The other colour.
    pub fn opposite(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }
}

/// The float a player received in one round (C.04.3 2026 Art. 1.4; 2017 A.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum Float {
    #[default]
    None,
    Down,
    Up,
}

/// Which text of the Dutch system is applied. Older rules are explicit editions, never mixed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum Edition {
    /// C.04.3 approved 28/10/2025, applied from 1 February 2026 (criteria C1–C21).
    #[default]
    Dutch2026,
    /// C.04.3 Baku 2016, applied 2017 to 31 January 2026 (criteria C.1–C.19).
    Dutch2017,
}

/// One player as the pairing sees them before the round to be paired.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    /// Tournament pairing number (unique, 1-based).
    pub tpn: Tpn,
    /// Rating (informative; the TPN already encodes the initial order).
    pub rating: u32,
    /// Points scored so far, in scoring units (see [`Score`]).
    pub score: Score,
    /// Virtual points of accelerated pairing (C.04.7 Art. 1.4) for the round to be paired.
    pub acceleration: Score,
    /// One entry per round played so far: the colour if a game was actually played
    /// (GHR 3.4: colour history uses played games only), `None` otherwise.
    pub colours: Vec<Option<Colour>>,
    /// One entry per round played so far: the float received in that round.
    pub floats: Vec<Float>,
    /// TPNs of the opponents of games actually played (C.04.1 Art. 2; GHR 3.5: a pairing
    /// that was not played does not prevent a new pairing).
    pub opponents: Vec<Tpn>,
    /// Has already received a pairing-allocated bye (C.04.1 Art. 4).
    pub had_pab: bool,
    /// Has already scored, in one round without playing, as many points as a win
    /// (2026 C.04.1 Art. 4: forfeit win, full-point bye). For the 2017 edition only forfeit
    /// wins count; the caller sets this accordingly.
    pub had_unplayed_win: bool,
    /// Absent for the round to be paired (known absence, half-point bye, withdrawn):
    /// not paired (GHR 3.2–3.3).
    pub absent: bool,
}

impl Player {
    /// The pairing score: points plus virtual points of acceleration (C.04.7 Art. 1.5).
    pub fn pairing_score(&self) -> Score {
        self.score + self.acceleration
    }

    /// Number of rounds (so far) in which the player did not play a game (C9, 2026).
    pub fn unplayed_games(&self) -> u32 {
        self.colours.iter().filter(|c| c.is_none()).count() as u32
    }
}

/// The whole tournament as needed to pair the next round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TournamentState {
    pub players: Vec<Player>,
    /// Rounds already played (the round to be paired is `rounds_played + 1`).
    pub rounds_played: u32,
    /// Total number of rounds declared beforehand (C.04.1 Art. 1).
    pub total_rounds: u32,
    /// Points for a win, in scoring units (used for topscorers, Art. 1.8).
    pub points_for_win: Score,
    /// Colour given to the higher-ranked player with an odd TPN (C.04.3 Art. 5.1 / 5.2.5).
    pub initial_colour: Colour,
    /// Pairs that must not meet (C.04.1 Art. 2 extended by the arbiter, e.g. same club/team).
    pub forbidden_pairs: Vec<(Tpn, Tpn)>,
}

/// Engine options.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Options {
    /// Record an explanation for every bracket. On the fast path it costs one exact
    /// matching per rejected decision beside the search (ADR pairing-003); the CLI's
    /// `--explain`, the pairing service always.
    pub explain: bool,
}

/// Which implementation of the same rules computes the pairing. Both give the identical
/// pairing (tested against each other); the reference path is the plain algorithm — every
/// bracket re-solved over all players still to pair — kept as the oracle of the fast path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum EnginePath {
    /// The default: the same algorithm with the hot paths optimised.
    #[default]
    Fast,
    /// The plain, untouched algorithm (`arbiter-pairings --reference-path`).
    Reference,
}

/// Where the engine is, reported before each bracket is paired (progress of long pairings).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Progress {
    /// 1-based number of the bracket about to be paired.
    pub bracket: usize,
    /// Score groups (distinct pairing scores) among the players still to pair, this
    /// bracket's included: an upper bound on the brackets left.
    pub score_groups_left: usize,
    /// Players still to pair.
    pub players_left: usize,
    /// Players paired in this round (present players).
    pub players: usize,
}

/// One board: white and black TPNs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Board {
    pub white: Tpn,
    pub black: Tpn,
}

/// Why one decision in a bracket differs from the first candidate of the generation order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Decision {
    /// What was decided (e.g. "partner of 12").
    pub subject: String,
    /// The first candidate in generation order that was rejected.
    pub rejected: String,
    /// What was chosen instead.
    pub chosen: String,
    /// The criterion (e.g. "C12") that made the rejected candidate worse.
    pub criterion: String,
}

/// Explanation of one pairing bracket.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BracketExplanation {
    /// Score of the resident players (pairing score, in scoring units).
    pub score: Score,
    /// All players of the bracket (MDPs first, then residents), by TPN.
    pub players: Vec<Tpn>,
    /// Moved-down players (MDPs) that entered the bracket.
    pub moved_down: Vec<Tpn>,
    /// Pairs made in the bracket (higher-ranked player first).
    pub pairs: Vec<(Tpn, Tpn)>,
    /// Players left unpaired (downfloaters), each with the reason.
    pub downfloaters: Vec<(Tpn, String)>,
    /// Choices that differ from the first candidate, with the deciding criterion.
    pub decisions: Vec<Decision>,
}

/// The pairing of one round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundPairing {
    /// Boards in C.04.2 Art. 3.6 order.
    pub boards: Vec<Board>,
    /// The player receiving the pairing-allocated bye, if any.
    pub bye: Option<Tpn>,
    /// Per-bracket explanation (empty unless `Options::explain`).
    pub explanation: Vec<BracketExplanation>,
}

/// No pairing complying with the absolute criteria exists (C.04.3 2026 C4 / 2017 A.9).
#[derive(Debug, Clone, PartialEq, Eq, Error, Serialize, Deserialize)]
pub enum NoValidPairing {
    #[error(
        "no pairing complies with the absolute criteria C1-C3 (C1 no rematch, C2 PAB eligibility, C3 absolute colour preferences): a maximum pairing leaves out {players:?} (0 = the pairing-allocated bye)"
    )]
    AbsoluteCriteria { players: Vec<Tpn> },
    #[error("invalid tournament state: {0}")]
    InvalidState(String),
    #[error("internal limit: {0}")]
    Limit(String),
}
