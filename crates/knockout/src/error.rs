//! Typed errors of the knockout crate.

use thiserror::Error;

/// Everything that can go wrong when building a bracket, playing a match or planning a playoff.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum KnockoutError {
    /// The number of players is outside what the function supports.
    #[error("{what} needs between {min} and {max} players, got {got}")]
    PlayerCountOutOfRange {
        /// What was being built.
        what: &'static str,
        /// Number of players given.
        got: usize,
        /// Smallest supported number.
        min: usize,
        /// Largest supported number.
        max: usize,
    },
    /// A match format that cannot be played (no stage, a stage of zero games, …).
    #[error("invalid match format: {0}")]
    InvalidMatchFormat(String),
    /// A result was recorded for a match that is already over.
    #[error("match already decided after game {games_played}; result not recorded")]
    MatchAlreadyDecided {
        /// Games played when the match was decided.
        games_played: usize,
    },
    /// Every configured tie-break stage was played and the match is still level.
    #[error(
        "all {stages} configured stages played and the match is still level: decide by lot (`decide_by_lot`) or configure more tie-break games"
    )]
    TieBreaksExhausted {
        /// Number of stages configured.
        stages: usize,
    },
    /// `decide_by_lot` was called while the match can still be decided over the board.
    #[error("the match can still be decided over the board; drawing of lots refused")]
    LotNotAllowed,
    /// Belgrade variant: a round's results do not match the pairings issued.
    #[error("Belgrade round {round}: {problem}")]
    BelgradeResults {
        /// The round concerned.
        round: u32,
        /// What is wrong.
        problem: String,
    },
    /// Belgrade variant: the event is over, no more rounds can be paired.
    #[error("Belgrade event is over: {0}")]
    BelgradeOver(String),
    /// A bracket result refers to a match that does not exist, is not ready, or is already done.
    #[error("bracket round {round}, match {index}: {problem}")]
    BracketResult {
        /// Round number, 1-based.
        round: u32,
        /// Match index in the round, 0-based.
        index: u32,
        /// What is wrong.
        problem: &'static str,
    },
}
