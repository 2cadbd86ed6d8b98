//! # arbiter-clock: time controls, the authoritative chess clock, and the Laws a machine applies
//!
//! Pure crate (no I/O, no wall clock, deterministic): every event carries its own instant as a
//! monotonic millisecond count.
//!
//! | Module | Rules |
//! |---|---|
//! | [`time_control`] | Law 6.3 (increment, delay, periods); PGN `TimeControl` tag; TRF26 record 222 |
//! | [`rate_of_play`] | Laws A.1 / B.1 classification; FIDE-ratability (B.02 §1, R&B §1) |
//! | [`chess_clock`] | Law 6: the clock state machine, flag instant, pause, adjustments |
//! | [`laws`] | Laws 5, 6.9, 7.5, 9.2–9.6, A.3/A.5, Guidelines III: the [`laws::Game`] |
//! | [`pgn_replay`] | replay PGN games with recorded `[%clk]`/`[%emt]` against the computed clock; export |

pub mod chess_clock;
pub mod laws;
pub mod pgn_replay;
pub mod rate_of_play;
pub mod side;
pub mod time_control;

pub use chess_clock::{ChessClock, ClockError, IncrementCredit, Instant, PressReport};
pub use rate_of_play::{Ratability, RateOfPlay, classify, fide_ratability};
pub use side::Side;
pub use time_control::{
    Millis, MoveBonus, Period, PlayerControl, TimeControl, TimeControlError, TimeControlTag,
};
