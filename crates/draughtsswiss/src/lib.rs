//! The official Swiss system of the draughts federations: seed 002, "Annexe V — Règlement du
//! système suisse officiel", adopted by the General Assembly of 29–30 November 1986 (FMJD).
//! Pure: no I/O, no clock, no global state, deterministic.
//!
//! | rule | where |
//! |---|---|
//! | art. 3 identification numbers; art. 8 scoring 2/1/0, rest = 2 points | [`state`], [`scoring`] |
//! | art. 4.1/6.1.5 provisional Solkoff and Sonneborn-Berger; order inside a score group | [`scoring`] |
//! | art. 5 first round and rest; art. 6.1.6 median group and order of groups | [`round_pairing`] |
//! | art. 6.1.7–6.1.32 odd groups, floaters, order of pairings (the list of 15 for six) | [`group_pairing`] |
//! | art. 6.2 initial list by lot: best against worst | [`group_pairing`], [`round_pairing`] |
//! | art. 7 colours (7.1 ranking list, 7.2 lot) | [`colours`] |
//! | art. 9.1 quarters; art. 9.2 Haley ranking points | [`round_pairing`] |
//! | the search itself (the first pairing in the order of 6.1.19–6.1.25 and 6.2.2, the fewest floaters, 6.1.32) and its look-ahead (Edmonds' blossom maximum matching; changes no result, prevents exponential backtracking): the search shared with Lim and Italo-Swiss, `matching::ordered_search` of the crate `arbiter-matching` | [`maximum_matching`] |
//!
//! Scores are on the federation's own 2/1/0 scale (art. 8.1), as exact integers. There is one
//! edition (1986) and no selector. Decisions on ambiguous points:
//! `docs/decisions/draughtsswiss-*.md`.

pub mod colours;
pub mod error;
pub mod group_pairing;
pub mod round_pairing;
pub mod scoring;
pub mod state;

/// The look-ahead matcher (Edmonds' blossom), the shared crate `arbiter-matching`, re-exported
/// under the path it had when this crate carried its own copy.
pub use matching as maximum_matching;

pub use error::DraughtsSwissError;
pub use group_pairing::{FloatReason, pairings_in_priority_order};
pub use round_pairing::{
    Board, Direction, DraughtsPairing, Explanation, HALEY_RANKING_POINTS, SEARCH_BUDGET,
    pair_round, ranking,
};
pub use scoring::{solkoff, sonneborn_berger};
pub use state::{Acceleration, Colour, DraughtsSwissState, Game, InitialOrder, Participant};
