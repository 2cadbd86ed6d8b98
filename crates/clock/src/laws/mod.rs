//! The Laws of Chess a machine can apply (Laws 2023; 2018 as a named edition).
//!
//! * [`game`]: the [`Game`] state machine (5, 6.9, 7.5, 9.2–9.6, A.3/A.5, Guidelines III);
//! * [`dead_position`]: 5.2.2 and the "cannot checkmate" test of 6.9 / 7.5.5;
//! * [`repetition`]: 9.2.3 position identity for 9.2 and 9.6.1;
//! * [`penalties`]: 7.5.5 / 9.5.3 penalty times by rate and edition (A.3, 2018 B.2);
//! * [`guidelines_ii_chess960`]: Guidelines II, Chess960: the 960 starting positions by
//!   number and by lot (II.2), castling to the ordinary squares (II.3);
//! * [`guidelines_i_adjourned`]: Guidelines I, adjourned games: the sealed move, the
//!   envelope, resumption and the arbiter's decisions (I.1–I.12).

pub mod dead_position;
pub mod game;
pub mod guidelines_i_adjourned;
pub mod guidelines_ii_chess960;
pub mod penalties;
pub mod repetition;

pub use game::{
    ClaimRule, Effect, Game, GameConfig, GameEnd, GameEvent, GameResult, MoveText, PlyRecord,
    QuickplayDecision, Rejection, Supervision, Termination, format_clk,
};
pub use guidelines_ii_chess960::{Lot, StartPosition, Variant, draw_by_lot};
pub use penalties::LawsEdition;
