//! Typed errors of the Italo-Swiss crate: every error says what was wrong and where.

use thiserror::Error;

/// Everything that can go wrong when pairing a round of the Italo-Swiss system.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ItaloSwissError {
    /// The round asked for is not in `1..=total_rounds`.
    #[error("round {round} cannot be paired: the tournament has rounds 1..={total_rounds}")]
    RoundOutOfRange {
        /// Round asked for (1-based).
        round: u32,
        /// Number of rounds.
        total_rounds: u32,
    },
    /// A list number is 0 (the drawn numbers start at 1).
    #[error("player at input position {position} has list number 0; the drawn numbers start at 1")]
    ZeroNumber {
        /// Index in the input list.
        position: usize,
    },
    /// Two players share a list number.
    #[error("list number {number} is given to more than one player")]
    DuplicateNumber {
        /// The repeated number.
        number: u32,
    },
    /// A history names an opponent who is not another player.
    #[error(
        "player {player} lists opponent {opponent}, who is not another player of this tournament"
    )]
    UnknownOpponent {
        /// The player.
        player: u32,
        /// The offending opponent.
        opponent: u32,
    },
    /// A history does not fit the round being paired.
    #[error("player {player}: {problem}")]
    InconsistentHistory {
        /// The player.
        player: u32,
        /// What is wrong.
        problem: String,
    },
    /// An odd number of players is present and all have already had a bye.
    #[error("an odd number of players ({present}) is present and all have already had a bye")]
    NoByeCandidate {
        /// Number of present players.
        present: usize,
    },
    /// Not even regrouping across score groups avoids a rematch.
    #[error(
        "no pairing of the {present} players avoids a rematch, even regrouping across score groups"
    )]
    NoLegalPairing {
        /// Number of players to pair.
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
