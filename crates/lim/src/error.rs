//! Typed errors of the Lim crate: every error says what was wrong and where.

use thiserror::Error;

/// Everything that can go wrong when pairing a round by the Lim system.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum LimError {
    /// The round asked for is not in `1..=total_rounds`.
    #[error("round {round} cannot be paired: the tournament has rounds 1..={total_rounds}")]
    RoundOutOfRange {
        /// Round asked for (1-based).
        round: u32,
        /// Number of rounds declared beforehand (Lim art. 1).
        total_rounds: u32,
    },
    /// A pairing number is 0 (Lim art. 7 numbers from 1).
    #[error("player at input position {position} has pairing number 0; pairing numbers start at 1")]
    ZeroPairingNumber {
        /// Index in the input player list.
        position: usize,
    },
    /// Two players share a pairing number.
    #[error("pairing number {pairing_number} is given to more than one player")]
    DuplicatePairingNumber {
        /// The repeated number.
        pairing_number: u32,
    },
    /// A player's history names an opponent that is not in the tournament, or himself.
    #[error(
        "player {player} lists opponent {opponent}, who is not another player of this tournament"
    )]
    UnknownOpponent {
        /// Pairing number of the player whose history is wrong.
        player: u32,
        /// The offending opponent number.
        opponent: u32,
    },
    /// A player's score or history is longer than the rounds already played.
    #[error(
        "player {player}: {problem} (round {round} is being paired, so {played} rounds have been played)"
    )]
    InconsistentHistory {
        /// Pairing number of the player.
        player: u32,
        /// What is inconsistent.
        problem: String,
        /// Round being paired.
        round: u32,
        /// Rounds already played.
        played: u32,
    },
    /// The number of present players is odd and nobody may receive the bye (art. 8.2).
    #[error(
        "an odd number of players ({present}) is present and none of them may receive the bye (art. 8.2: one bye each, none after a forfeit win)"
    )]
    NoByeCandidate {
        /// Number of present players.
        present: usize,
    },
    /// No pairing satisfies art. 2 (no rematch) and art. 9.1 (colour limits) for the present players,
    /// even after dissolving every scoregroup into the median group (art. 9.6).
    #[error(
        "no legal pairing exists for the {present} present players: every complete pairing repeats a game or breaks the colour limits of art. 9.1/12.1"
    )]
    NoLegalPairing {
        /// Number of players to pair (after the bye).
        present: usize,
    },
    /// The exhaustive search of art. 11 exchanges went beyond its step budget.
    #[error(
        "the exchange search (art. 11) needed more than {budget} steps; the input is too large or too constrained"
    )]
    SearchBudgetExceeded {
        /// The step budget.
        budget: u64,
    },
}
