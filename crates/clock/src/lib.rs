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
//! | [`device_stamp`] | device stamps bounded by the server's time (the authority; ADR clock-007) |
//! | [`laws`] | Laws 5, 6.9, 7.5, 9.2–9.6, A.3/A.5, Guidelines III: the [`laws::Game`] |
//! | [`laws::guidelines_ii_chess960`] | Guidelines II: Chess960 starting positions (II.2, by number and by lot), castling (II.3) |
//! | [`laws::guidelines_i_adjourned`] | Guidelines I: adjourned games (sealed move I.1, envelope I.2, resumption I.5/I.9, the arbiter's decisions I.8, I.10, I.12) |
//! | [`pgn_replay`] | replay PGN games with recorded `[%clk]`/`[%emt]` against the computed clock; export |
//!
//! ## A service around it
//!
//! ```
//! use clock::laws::{Effect, Game, GameConfig, GameEvent, MoveText, Termination};
//! use clock::{RateOfPlay, TimeControl};
//!
//! // 3 min + 2 s, Laws 2023, rate derived from the control (B.1: blitz)
//! let control = TimeControl::parse_trf222("180+2").unwrap();
//! let mut game = Game::new(GameConfig::new(control)).unwrap();
//! assert_eq!(game.config().rate, RateOfPlay::Blitz);
//! game.apply(&GameEvent::Start { at: 0 }).unwrap();
//! game.apply(&GameEvent::Move { at: 4_000, mv: MoveText::San("e4".into()) }).unwrap();
//! // schedule a flag check when Black's time runs out
//! let when = game.flag_instant().unwrap();
//! assert_eq!(when, 4_000 + 182_000);
//! let effects = game.apply(&GameEvent::FlagCheck { at: when }).unwrap();
//! assert!(matches!(effects.last(), Some(Effect::GameOver(end)) if end.termination == Termination::FlagFall));
//! // the game is over: later events are refused, the game unchanged
//! assert!(game.apply(&GameEvent::Move { at: when + 1, mv: MoveText::San("e5".into()) }).is_err());
//! ```

pub mod chess_clock;
pub mod device_stamp;
pub mod laws;
pub mod pgn_replay;
pub mod rate_of_play;
pub mod side;
pub mod time_control;

pub use chess_clock::{ChessClock, ClockError, IncrementCredit, Instant, PressReport};
pub use device_stamp::{BoundedStamp, ServerTime, StampRejection, bound_stamp};
pub use rate_of_play::{Ratability, RateOfPlay, classify, fide_ratability};
pub use side::Side;
pub use time_control::{
    Millis, MoveBonus, Period, PlayerControl, TimeControl, TimeControlError, TimeControlTag,
};
