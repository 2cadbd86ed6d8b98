//! The Laws of Chess a machine can apply (Laws 2023; 2018 as a named edition).
//!
//! * [`game`]: the [`Game`] state machine (5, 6.9, 7.5, 9.2–9.6, A.3/A.5, Guidelines III);
//! * [`dead_position`]: 5.2.2 and the "cannot checkmate" test of 6.9 / 7.5.5;
//! * [`repetition`]: 9.2.3 position identity for 9.2 and 9.6.1;
//! * [`penalties`]: 7.5.5 / 9.5.3 penalty times by rate and edition (A.3, 2018 B.2).

pub mod dead_position;
pub mod game;
pub mod penalties;
pub mod repetition;

pub use game::{
    ClaimRule, Effect, Game, GameConfig, GameEnd, GameEvent, GameResult, MoveText, PlyRecord,
    QuickplayDecision, Rejection, Supervision, Termination, format_clk,
};
pub use penalties::LawsEdition;
