//! Typed errors: each says what is wrong and where.

use thiserror::Error;

/// Everything that can go wrong computing standings.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum Error {
    /// A tie-break code that is not known at all (MTB26 grammar, seed lists).
    #[error("unknown tie-break code {code:?} at position {position} of the list")]
    UnknownCode { code: String, position: usize },
    /// A known acronym with a modifier it does not accept.
    #[error("tie-break code {code:?} at position {position}: {reason}")]
    InvalidModifier {
        code: String,
        position: usize,
        reason: String,
    },
    /// A tie-break that does not exist in the chosen rule edition.
    #[error("tie-break {code} (position {position}) does not exist in edition {edition}")]
    NotInEdition {
        code: String,
        position: usize,
        edition: String,
    },
    /// C.07 (2026) Art. 8 note: the Buchholz family must not be used in round robins.
    #[error(
        "tie-break {code} (position {position}) must not be used in a round robin (C.07 2026 Art. 8 note)"
    )]
    NotAllowedInRoundRobin { code: String, position: usize },
    /// A team tie-break (Arts. 12–13, or a `:MP`/`:GP` selector) in an individual event.
    #[error("tie-break {code} (position {position}) is a team tie-break; use team_standings")]
    TeamOnly { code: String, position: usize },
    /// A tie-break that has no meaning for teams (ratings, pairing numbers of players).
    #[error("tie-break {code} (position {position}) is not defined for team events")]
    NotForTeams { code: String, position: usize },
    #[error("two participants share pairing number {0}")]
    DuplicateTpn(u32),
    #[error("participant {tpn} has {found} round entries, expected {expected}")]
    WrongRoundCount {
        tpn: u32,
        expected: usize,
        found: usize,
    },
    #[error("participant {tpn}, round {round}: opponent {opponent} is not in the crosstable")]
    UnknownOpponent { tpn: u32, round: u32, opponent: u32 },
    #[error("participant {tpn}, round {round}: {detail}")]
    InconsistentPairing {
        tpn: u32,
        round: u32,
        detail: String,
    },
    #[error("invalid scoring: {0}")]
    InvalidScoring(String),
}
