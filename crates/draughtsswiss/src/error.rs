//! Typed errors of the draughts Swiss crate: every error says what was wrong and where.

use thiserror::Error;

/// Everything that can go wrong when pairing a round of the draughts Swiss system.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DraughtsSwissError {
    /// The round asked for is not in `1..=total_rounds`.
    #[error("round {round} cannot be paired: the event has rounds 1..={total_rounds}")]
    RoundOutOfRange {
        /// Round asked for (1-based).
        round: u32,
        /// Number of rounds.
        total_rounds: u32,
    },
    /// An identification number is 0 (art. 3.1.5 numbers from 1).
    #[error(
        "participant at input position {position} has identification number 0; numbers start at 1"
    )]
    ZeroId {
        /// Index in the input list.
        position: usize,
    },
    /// Two participants share an identification number.
    #[error("identification number {id} is given to more than one participant")]
    DuplicateId {
        /// The repeated number.
        id: u32,
    },
    /// A game names an opponent that is not another participant.
    #[error(
        "participant {participant} has a game against {opponent}, who is not another participant"
    )]
    UnknownOpponent {
        /// The participant whose history is wrong.
        participant: u32,
        /// The offending opponent.
        opponent: u32,
    },
    /// A history is inconsistent with the round being paired or with the 2/1/0 scale.
    #[error("participant {participant}: {problem}")]
    InconsistentHistory {
        /// The participant.
        participant: u32,
        /// What is inconsistent.
        problem: String,
    },
    /// An odd number of participants and nobody may rest (art. 5.2: one rest each).
    #[error(
        "an odd number of participants ({present}) is present and all have already had a rest (art. 5.2)"
    )]
    NoRestCandidate {
        /// Number of present participants.
        present: usize,
    },
    /// No pairing without a rematch (art. 2.3) and without a third colour in a row (art. 7.1.6).
    #[error(
        "no legal pairing exists for the {present} participants to pair: every complete pairing repeats a game (art. 2.3) or gives a colour three times in a row (art. 7.1.6)"
    )]
    NoLegalPairing {
        /// Number of participants to pair.
        present: usize,
    },
    /// The search went beyond its step budget.
    #[error(
        "the pairing search needed more than {budget} steps; the input is too large or too constrained"
    )]
    SearchBudgetExceeded {
        /// The step budget.
        budget: u64,
    },
}
