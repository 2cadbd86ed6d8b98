//! Round-robin ("tournoi toutes rondes") pairing by the FIDE Berger tables.
//!
//! Pure: no I/O, no clock, no global state. Every function is deterministic.
//!
//! Where to find what:
//!
//! | rule | module |
//! |---|---|
//! | FIDE C.05 Annex 1, "Berger Tables for Round-Robin Tournaments" (any number of players; odd: highest number is the bye) | [`mod@berger_table`] |
//! | C.05 Annex 1, double round robin, "reverse the order of the last two rounds of the first cycle" | [`mod@double_round_robin`] |
//! | Seed 000 (FEFB Vade-mecum 2018), "Tournoi toutes rondes", "Procédé d'établissement des rondes" (x = ronde + 1, y = joueurs + ronde) and the colour "lois" | [`seed_procedure`] |
//! | Seed 000, "Chaque joueur reçoit par tirage au sort un numéro" (drawing of lots for pairing numbers) | [`drawing_of_lots`] |
//!
//! Pairing numbers are 1-based, as in the tables.
//!
//! Editions: the Berger tables in seed 000 (FEFB 2018) and in FIDE C.05 Annex 1 as in force in
//! 2026 are the same tables, apart from one misprint in the seed (ADR
//! `docs/decisions/roundrobin-003-seed-berger-misprint.md`), so there is a single edition and no
//! edition selector. Varma tables (C.05 restricted drawing of lots) are not implemented.

pub mod berger_table;
pub mod double_round_robin;
pub mod drawing_of_lots;
pub mod error;
pub mod seed_procedure;

pub use berger_table::{Game, Round, berger_round, berger_table, rounds_in_cycle};
pub use double_round_robin::{SecondCycle, double_round_robin};
pub use drawing_of_lots::{
    DrawSeed, Drawing, EntrantGame, EntrantRound, assign_entrants, draw_pairing_numbers,
    given_pairing_numbers,
};
pub use error::RoundRobinError;

/// A player's pairing number in a round robin, 1-based (`1..=players`).
pub type PairingNumber = u32;

/// Smallest number of players a round robin is built for (a two-player match).
pub const MIN_PLAYERS: u32 = 2;

/// Largest number of players accepted. A full table has n²/2 games; above this the caller almost
/// certainly made a mistake, and refusing is better than allocating without bound.
pub const MAX_PLAYERS: u32 = 1000;
