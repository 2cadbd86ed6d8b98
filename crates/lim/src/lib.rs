//! The Lim Swiss pairing system.
//!
//! Source: seed 000 (FEFB Vade-mecum 2018), "Règlements pour les tournois au système suisse
//! (Système Lim)", approved by the FIDE General Assembly 1987, amended 1988–1999; in force in
//! 2026 as FIDE C.04.4.3 with the content unchanged apart from renumbering (reference §4.5). The
//! article numbers below are the seed's. Pure: no I/O, no clock, no global state, deterministic.
//!
//! | rule | where |
//! |---|---|
//! | art. 7 pairing numbers, state of a player (scores in exact half-points) | [`state`] |
//! | art. 8 bye: lowest-placed of the lowest scoregroup, once, not after a forfeit win | [`round_pairing::pair_round`] |
//! | art. 9.1 compatibility; art. 12 colour allocation; art. 13 last round | [`colour_allocation`] |
//! | art. 9.2 median scoregroup, top-down then bottom-up, median last | [`round_pairing`] |
//! | art. 9.3–9.5 floaters out, proposed pairings 1 v n/2+1 | [`scoregroup_pairing`] |
//! | art. 9.6 blocked median group | [`round_pairing`] |
//! | art. 10 floater selection, order of pairing floaters, 10.8 opponent of a floater | [`scoregroup_pairing`] |
//! | art. 10.2/10.8/12.7 maxi-tournament 100-point rule | [`scoregroup_pairing`], [`state::TournamentState::is_maxi_tournament`] |
//! | art. 11 exchange rules (the order of the seed's exchange tables) | [`scoregroup_pairing`] |
//! | art. 12.2 second examination (exchanges for colours) | [`scoregroup_pairing`] |
//! | art. 14 first round (1 v n/2+1, colours by lot for no. 1) | [`round_pairing`] |
//! | the search itself (the first pairing in the order of art. 11, the fewest floaters in the order of art. 10) and its look-ahead (Edmonds' blossom maximum matching; changes no result, prevents exponential backtracking): the search shared with Italo-Swiss and draughts Swiss, `matching::ordered_search` of the crate `arbiter-matching` | [`maximum_matching`] |
//!
//! Editions: the seed (1999 text) and FIDE C.04.4.3 (2026) have the same content, so there is a
//! single edition and no selector. Decisions on ambiguous points: `docs/decisions/lim-*.md`.

pub mod colour_allocation;
pub mod error;
pub mod round_pairing;
pub mod scoregroup_pairing;
pub mod state;

/// The look-ahead matcher (Edmonds' blossom), the shared crate `arbiter-matching`, re-exported
/// under the path it had when this crate carried its own copy.
pub use matching as maximum_matching;

pub use error::LimError;
pub use round_pairing::{Board, RoundPairing, SEARCH_BUDGET, pair_round};
pub use scoregroup_pairing::{Explanation, FloatReason};
pub use state::{Colour, FloatDirection, Player, TournamentState};
