//! The Italo-Swiss pairing system, as described in seed 000 (FEFB Vade-mecum 2018, "Le système
//! italo-suisse"). Pure: no I/O, no clock, no global state, deterministic.
//!
//! "Its advantage is that it is automatic, so that nothing is left to the arbiter's decision."
//!
//! | rule | where |
//! |---|---|
//! | round 1: numbers drawn by lot, 1-2, 3-4, … | [`rotation_pairing`] |
//! | round 2 and later: rotation from the last player of the list to have had White, never going back; next in the group, else first possible of the next group; regroupings | [`rotation_pairing`] |
//! | colour order (fewer Whites; Black most recently; fewer points; smaller number) | [`colours`] |
//! | adjourned games paired "with one point"; withdrawals: the last of the standings gets the point | [`state`], [`rotation_pairing`] |
//! | the search itself (the rotation, regrouping when a choice leaves somebody without an opponent) and its look-ahead (Edmonds' blossom maximum matching; changes no result, prevents exponential backtracking): the search shared with Lim and draughts Swiss, `matching::ordered_search` of the crate `arbiter-matching` | [`maximum_matching`] |
//!
//! Not a FIDE system; the 2026 FIDE rules do not mention it, so there is one edition (the seed's)
//! and no selector. Decisions: `docs/decisions/italoswiss-*.md`.

pub mod colours;
pub mod error;
pub mod rotation_pairing;
pub mod state;

/// The look-ahead matcher (Edmonds' blossom), the shared crate `arbiter-matching`, re-exported
/// under the path it had when this crate carried its own copy.
pub use matching as maximum_matching;

pub use error::ItaloSwissError;
pub use rotation_pairing::{
    Board, Explanation, ItaloPairing, SEARCH_BUDGET, pair_round, rounds_are_enough,
};
pub use state::{Colour, ItaloSwissState, Player};
