//! FIDE (Dutch) Swiss pairing system, C.04.3 — exact, pure (no I/O).
//!
//! Entry point: [`pair`]. Editions: [`Edition::Dutch2026`] (default, rules applied from
//! 1 February 2026) and [`Edition::Dutch2017`] (Baku 2016 text).
//!
//! Module map (where to find each rule):
//! - [`model`]: the state read and the pairing produced.
//! - [`colour`]: colour preferences (Art. 1.7 / 2017 A.6) and allocation (Art. 5.2 / 2017 E).
//! - [`criteria`]: absolute criteria C1–C3, topscorers (Art. 1.8), PAB eligibility (C.04.1 Art. 4).
//! - [`weight`]: lexicographic wide weights encoding the criteria.
//! - [`blossom`]: maximum-weight matching.
//! - [`dutch`]: the bracket-by-bracket process (Art. 3–4) and the generation order (MDP
//!   sets, transpositions, exchanges); `dutch/quality_criteria.rs`: criteria C4–C21 (and
//!   2017 C.4–C.19) as weight fields; `dutch/board_order.rs`: C.04.2 Art. 3.6 board order.
//! - `two_threads`: the passes over millions of pairs on a second core (same result).
//! - [`stop`]: a caller's signal that stops a pairing on every thread (ADR pairing-003).
//! - [`acceleration`]: virtual points of accelerated pairings (C.04.7 Baku 2026, Baku 2016,
//!   Haley, degressive) for [`Player::acceleration`].

pub mod acceleration;
pub mod blossom;
pub mod model;
pub mod weight;

pub use acceleration::{AccelerationError, AccelerationMethod, accelerate, virtual_points};
pub use model::*;
pub mod colour;
pub mod criteria;
pub mod dutch;
pub mod stop;
mod two_threads;

pub use stop::StopSignal;

/// Pairs the next round of `state` by the FIDE (Dutch) system, `edition` (C.04.3).
///
/// The round paired is `state.rounds_played + 1`; absent players are not paired.
/// Returns the boards in C.04.2 Art. 3.6 order, the PAB receiver and (with
/// `options.explain`) a per-bracket explanation; or [`NoValidPairing`] when no pairing
/// complies with the absolute criteria.
pub fn pair(
    state: &TournamentState,
    edition: Edition,
    options: &Options,
) -> Result<RoundPairing, NoValidPairing> {
    dutch::pair_round_unstopped(state, edition, options, EnginePath::Fast, &mut |_| {})
}

/// [`pair`] on a chosen [`EnginePath`], reporting each bracket to `progress` before it is
/// paired (for a progress indication on long pairings; the callback cannot change the
/// result). Both paths give the identical pairing; [`EnginePath::Reference`] is the plain
/// algorithm kept as the oracle of the fast one.
pub fn pair_with(
    state: &TournamentState,
    edition: Edition,
    options: &Options,
    path: EnginePath,
    progress: &mut dyn FnMut(&Progress),
) -> Result<RoundPairing, NoValidPairing> {
    dutch::pair_round_unstopped(state, edition, options, path, progress)
}

pub use dutch::pair_round as pair_stoppable;
