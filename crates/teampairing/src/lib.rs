//! Team pairings: the team round robin on the FIDE Berger tables, with the colour of every
//! board, and the FIDE Swiss Team Pairing System C.04.6 (applied from 1 February 2026).
//!
//! Pure: no I/O, no clock, no global state. Every function is deterministic.
//!
//! | rule | module |
//! |---|---|
//! | TRF26 record 352, board colour sequence for team matches (`WBWB`); default alternating, White on board 1 for the team named first | [`mod@board_colours_352`] |
//! | C.05 Annex 1 Berger tables with teams for players, single and double cycle | [`mod@team_round_robin`] |
//! | C.04.6 Art. 1: TPN, primary/secondary score, PAB value (a draw), floater, colour difference, Type A / Type B preferences | [`mod@art1_definitions`] |
//! | C.04.6 Art. 2: absolute [C1]–[C2], completion [C3], quality [C4]–[C10] | [`mod@art2_criteria`] |
//! | C.04.6 Art. 3: PAB (3.4), upfloaters (3.5), bracket pairing in identifier order (3.6) | `art3_pairing_procedure` |
//! | C.04.6 Art. 4: initial-colour, first-team, rules 4.3.1–4.3.9 | [`mod@art4_colour_allocation`] |
//!
//! Decisions: ADR `docs/decisions/teampairing-001-team-round-robin-board-colours.md` and
//! `docs/decisions/teampairing-002-swiss-team-readings-and-limits.md`.

pub mod art1_definitions;
pub mod art2_criteria;
pub mod art3_pairing_procedure;
pub mod art4_colour_allocation;
pub mod board_colours_352;
pub mod edition;
pub mod error;
pub mod team_round_robin;

pub use art1_definitions::{
    Points, Preference, PreferenceType, PrimaryScore, RoundRecord, Strength, TeamState,
    colour_preference, pab_award,
};
pub use art3_pairing_procedure::{
    MAX_TEAMS, SwissMatch, SwissTeamRound, SwissTeamSettings, pair_round,
};
pub use art4_colour_allocation::{ColourRule, ColourSettings, first_team_colour, is_first_team};
pub use board_colours_352::{Board, BoardColourSequence, Colour, boards_of_match};
pub use edition::Edition;
pub use error::TeamPairingError;
pub use team_round_robin::{Cycles, TeamMatch, TeamRound, team_round_robin};
