//! Typed errors: every rejection says what was wrong and where.

use thiserror::Error;

/// Everything this crate can reject.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum EloError {
    /// A percentage score outside 0..=100 hundredths was given to table 8.1.1.
    #[error("table 8.1.1: percentage score p = {hundredths}/100 is outside 0..=1")]
    PercentageOutOfRange {
        /// The rejected value, in hundredths.
        hundredths: i64,
    },
    /// A calendar date that does not exist.
    #[error("invalid date {year:04}-{month:02}-{day:02}")]
    InvalidDate {
        /// Year.
        year: i32,
        /// Month.
        month: u8,
        /// Day.
        day: u8,
    },
    /// A month outside 1..=12.
    #[error("invalid list month {year:04}-{month:02}")]
    InvalidListMonth {
        /// Year.
        year: i32,
        /// Month.
        month: u8,
    },
    /// A batch game names a player index that is not in the player slice.
    #[error("game #{game}: player index {player} is out of range (only {players} players)")]
    PlayerIndexOutOfRange {
        /// Index of the game in the input slice.
        game: usize,
        /// The offending player index.
        player: u32,
        /// Number of players given.
        players: usize,
    },
    /// A batch game pairs a player with themself.
    #[error("game #{game}: player {player} is paired against themself")]
    SelfPairing {
        /// Index of the game in the input slice.
        game: usize,
        /// The player index.
        player: u32,
    },
    /// A batch game goes back to an event earlier than one the player already played in.
    #[error(
        "game #{game}: player {player} plays in event {event} after event {previous}; games must be in chronological event order"
    )]
    EventsOutOfOrder {
        /// Index of the game in the input slice.
        game: usize,
        /// The player index.
        player: u32,
        /// Event of this game.
        event: u32,
        /// Event the player was last seen in.
        previous: u32,
    },
    /// A time control with no period, or with a move-limited last period.
    #[error("time control: {what}")]
    InvalidTimeControl {
        /// What is wrong.
        what: &'static str,
    },
    /// Too many games for the exact accumulators (more than u32::MAX).
    #[error("{what}: too many games ({count})")]
    TooManyGames {
        /// Where.
        what: &'static str,
        /// How many.
        count: usize,
    },
}
