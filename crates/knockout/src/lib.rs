//! Knockout ("K.O.") pairing systems and play-offs. Pure: no I/O, no clock, no global state.
//!
//! | rule | module |
//! |---|---|
//! | Seed 000 "Systèmes K.O.": power-of-two brackets, preliminary round (47-player example), bye in each odd round | [`mod@bracket`] |
//! | Standard seeding 1 v N (seed 000 "Playoff" 3 and 7) | [`seeding`] |
//! | Seed 000 "Systèmes K.O.": "joué en une seule partie ou un nombre fixé d'avance de parties, avec système de départage en cas d'égalité" — match of N games, colour alternation, rapid/blitz/Armageddon tie-breaks | [`match_play`] |
//! | Seed 000 "Systèmes K.O.": "système de Belgrade" (eliminated after losing 2 or 3 points) | [`belgrade`] |
//! | Seed 000 "Système de départage", 6. "Playoff" (k) 1–10: schemes for 2–11+ tied players | [`playoff`] |
//! | A knockout in progress replayed from its games (every round one game of every undecided match; ADR knockout-005): the next round, or the champion | [`history`] |

pub mod belgrade;
pub mod bracket;
pub mod error;
pub mod history;
pub mod match_play;
pub mod playoff;
pub mod seeding;

pub use bracket::{
    Bracket, BracketFormat, BracketMatch, BracketProgress, Entrant, KnockoutRound, bracket,
};
pub use error::KnockoutError;
pub use history::{
    GameOutcome, HistoryError, KnockoutBoard, KnockoutNext, KnockoutOptions, KnockoutPairing,
    ReplayError, RoundRecords, next_round,
};
pub use seeding::bracket_order;
