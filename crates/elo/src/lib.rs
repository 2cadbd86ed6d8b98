//! # FIDE Elo rating system (Handbook B.02), pure
//!
//! Functional core of Arbiter's rating work: no I/O, no clock, deterministic, exact integer
//! arithmetic (expectations and rating changes are carried in hundredths, see [`Hundredths`]).
//!
//! Where each rule lives (file names follow the articles of the FIDE Rating Regulations
//! applied from 1 March 2024, with the 1 October 2025 amendment, and their rapid/blitz chapter):
//!
//! | article | module |
//! |---|---|
//! | §1 rate of play (standard), R&B §1 rapid/blitz classification | [`rate_of_play_1`] |
//! | §7 rating list: monthly list, closing date, publication of new players, floor 1400, inactivity | [`rating_list_7`] |
//! | §8.1 conversion tables 8.1.1 (p → dp) and 8.1.2 (D → PD) | [`conversion_tables_8_1`] |
//! | §8.2 initial rating of unrated players (and the 2014 method) | [`initial_rating_8_2`] |
//! | §8.3.1 rating difference D: the 400-point rule, the 2650 exemption, the 600/2600 rapid/blitz rule | [`rating_difference_8_3_1`] |
//! | §8.3.2 and §8.3.4 per-game ΔR, per-event and per-period change, rounding | [`rating_change_8_3`] |
//! | §8.3.3 K factor (new player, junior, 2400, K × n ≤ 700) | [`k_factor_8_3_3`] |
//! | one-off adjustment of the March 2024 list | [`march_2024_adjustment`] |
//! | a whole rating period for a whole list, index-based | [`period_batch`] |
//!
//! Rule editions are explicit ([`Edition`]); the default is the rule in force in 2026.

pub mod calendar;
pub mod conversion_tables_8_1;
pub mod edition;
pub mod error;
pub mod initial_rating_8_2;
pub mod k_factor_8_3_3;
pub mod march_2024_adjustment;
pub mod numbers;
pub mod period_batch;
pub mod rate_of_play_1;
pub mod rating_change_8_3;
pub mod rating_difference_8_3_1;
pub mod rating_list_7;

pub use calendar::{CalendarDate, ListMonth};
pub use edition::{Edition, RatingKind, Rules};
pub use error::EloError;
pub use numbers::{GameScore, Hundredths, Rating};
