//! Typed errors of the round-robin crate: every error says what was wrong and where.

use thiserror::Error;

/// Everything that can go wrong when building a round-robin schedule or drawing numbers.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RoundRobinError {
    /// The number of players is outside what a Berger table can serve.
    #[error(
        "a round robin needs between {min} and {max} players, got {got} (C.05 Annex 1 Berger tables)"
    )]
    PlayerCountOutOfRange {
        /// Number of players asked for.
        got: u32,
        /// Smallest supported number.
        min: u32,
        /// Largest supported number.
        max: u32,
    },
    /// A round number outside `1..=rounds` was asked for.
    #[error(
        "round {round} does not exist: a Berger table for {players} players has rounds 1..={rounds}"
    )]
    RoundOutOfRange {
        /// Round asked for (1-based).
        round: u32,
        /// Number of players of the table.
        players: u32,
        /// Number of rounds of the cycle (or of both cycles).
        rounds: u32,
    },
    /// Given pairing numbers are not a permutation of `1..=n`.
    #[error("given pairing numbers are not a permutation of 1..={players}: {problem}")]
    InvalidGivenNumbers {
        /// Number of entrants.
        players: u32,
        /// What is wrong (duplicate, out of range, wrong count).
        problem: String,
    },
    /// A schedule refers to a pairing number that the drawing did not give out.
    #[error(
        "round {round} uses pairing number {number}, but the drawing has only {entrants} entrants"
    )]
    NumberNotDrawn {
        /// Round concerned.
        round: u32,
        /// Pairing number without an entrant.
        number: u32,
        /// Entrants in the drawing.
        entrants: usize,
    },
}
