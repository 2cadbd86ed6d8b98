//! Errors of the team pairings, each saying what is wrong in the arbiter's words.

use thiserror::Error;

/// Why a team pairing could not be made.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TeamPairingError {
    /// The round robin tables refused the number of teams.
    #[error("round robin: {0}")]
    RoundRobin(#[from] roundrobin::RoundRobinError),
    /// A board colour sequence (TRF26 record 352) holds something other than `W` and `B`.
    #[error("board colour sequence {sequence:?}: only W and B are allowed, found {found:?}")]
    BadColourSequence { sequence: String, found: char },
    /// A board colour sequence (TRF26 record 352) is empty.
    #[error("board colour sequence is empty: a team match needs at least one board")]
    EmptyColourSequence,
    /// The number of boards is zero.
    #[error("a team match needs at least one board")]
    NoBoards,
    /// More teams than this engine pairs (C.04.6 search limit, ADR teampairing-002).
    #[error("{teams} teams: the Swiss team engine pairs at most {limit} teams")]
    TooManyTeams { teams: usize, limit: usize },
    /// Two teams carry the same pairing number (C.04.6 1.1: TPNs are unique).
    #[error("pairing number {0} is given to two teams (C.04.6 1.1: each team has a unique TPN)")]
    DuplicateTpn(u32),
    /// A pairing number 0.
    #[error("pairing number 0: TPNs are 1-based")]
    ZeroTpn,
    /// The history names an opponent that is not in the tournament.
    #[error("team {team} has a previous opponent {opponent} that is not a team of the tournament")]
    UnknownOpponent { team: u32, opponent: u32 },
    /// No pairing complies with the absolute criteria (C.04.6 3.3.3: the Chief Arbiter decides).
    #[error(
        "no pairing of round {round} complies with the absolute criteria [C1] and [C2]: \
         under C.04.6 3.3.3 the Chief Arbiter decides what to do"
    )]
    NoLegalPairing { round: u32 },
    /// The search of a bracket exceeded its budget (ADR teampairing-002).
    #[error(
        "the search of the bracket of {teams} teams exceeded {limit} steps; \
         the pairing must be made by the arbiter"
    )]
    SearchLimit { teams: usize, limit: u64 },
    /// The round to pair is beyond the announced number of rounds.
    #[error("round {round} is beyond the {rounds} announced rounds")]
    RoundOutOfRange { round: u32, rounds: u32 },
}
