//! # arbiter-tiebreak: standings with every FIDE tie-break, by rule edition
//!
//! Pure: no I/O, no clock, deterministic. Input is a [`Crosstable`] (format-independent),
//! output [`Standings`] with every tie-break value *and its working*.
//!
//! Where each rule lives (C.07 "Play-Off and Tie-Break Regulations", 1 March 2026):
//!
//! | Article | Module |
//! |---|---|
//! | Art. 4 (order of application, lots) | [`standings`](mod@standings) |
//! | Art. 5 table / MTB26 codes, seed codes | [`codes`] |
//! | Art. 6 Direct Encounter | `art6_direct_encounter` |
//! | Art. 7 WIN WON BPG BWG PS REP STD TPN | `art7_own_results` |
//! | Art. 8 BH AOB FB (+ seed BHSUM, draughts Solkoff) | `art8_buchholz` |
//! | Art. 9 SB KS (+ KS/L limit 14.5) | `art9_sonneborn_berger_koya` |
//! | Art. 10 ARO TPR PTP APRO APPO RTNG (+ seed TPR 350) | `art10_rating` |
//! | Art. 12 BC TBR BBE (team matches) | `art12_team_boards` |
//! | Art. 13 MPvGP, EMMSB EMGSB EGMSB EGGSB, EDE (+ EDEBT EDEBB EDET EDEB), SSSC (+ seed MP+GP) | `art13_team` |
//! | Team events: board results → match result, MP/GP views | [`team_crosstable`](mod@team_crosstable) |
//! | Team standings (Art. 4 for teams, `:MP`/`:GP` selectors) | [`team_standings`](mod@team_standings) |
//! | TRF `013` teams → [`TeamCrosstable`] | [`trf_team_crosstable`] |
//! | Art. 14 modifiers + 16.5 VUR-first cut | `modifiers` |
//! | Arts. 15–16 unplayed rounds, dummy and caps, seed virtual opponent | [`unplayed_rounds`] |
//! | B.02 §8.1 tables (dp, PD) | [`rating_tables`] |
//!
//! Editions: [`Edition::C07_2026`] (default), [`Edition::C07_2024`] (uncapped dummy),
//! [`Edition::SeedC06`] (virtual opponent). Decisions on ambiguous points are recorded in
//! `docs/decisions/tiebreak-*.md`.
//!
//! ```
//! use tiebreak::*;
//! let w = |o| RoundEntry::Played { opponent: o, colour: Colour::White, result: GameResult::Win };
//! let l = |o| RoundEntry::Played { opponent: o, colour: Colour::Black, result: GameResult::Loss };
//! let ct = Crosstable {
//!     kind: EventKind::Swiss,
//!     rounds_played: 1,
//!     scoring: Scoring::classical(),
//!     players: vec![
//!         Participant { tpn: 1, rating: Some(2000), federation: None, name: None, entries: vec![w(2)] },
//!         Participant { tpn: 2, rating: Some(1900), federation: None, name: None, entries: vec![l(1)] },
//!     ],
//! };
//! let list = parse_list(&["BH", "SB"], Edition::default()).unwrap();
//! let s = standings(&ct, Edition::default(), &list, &Options::default()).unwrap();
//! assert_eq!(s.rows[0].tpn, 1);
//! assert_eq!(s.rows[0].values[0].value, Some(Exact::integer(0)));
//! ```

mod art10_rating;
mod art12_team_boards;
mod art13_team;
mod art6_direct_encounter;
mod art7_own_results;
mod art8_buchholz;
mod art9_sonneborn_berger_koya;
pub mod codes;
mod crosstable;
mod edition;
mod error;
mod exact;
pub mod generated;
mod modifiers;
pub mod rating_tables;
pub mod standings;
pub mod team_crosstable;
pub mod team_standings;
pub mod trf_crosstable;
pub mod trf_team_crosstable;
pub mod unplayed_rounds;
mod working;

pub use codes::{EdeChain, Kind, Modifier, TieBreak, parse_list};
pub use crosstable::{Colour, Crosstable, EventKind, GameResult, Participant, RoundEntry, Scoring};
pub use edition::Edition;
pub use error::Error;
pub use exact::{Exact, round_half_up};
pub use standings::{DroppedTieBreak, Options, Row, Standings, TieResolution, standings};
pub use team_crosstable::{
    BoardResult, PointType, Team, TeamCrosstable, TeamRoundEntry, TeamRoundScore, TeamScoring,
};
pub use team_standings::{TeamRow, TeamStandings, team_standings};
pub use unplayed_rounds::{Category, DummyCap};
pub use working::{Contribution, Source, TieBreakValue, Working};
