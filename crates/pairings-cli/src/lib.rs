//! The pure parts of the `arbiter-pairings` command line, reusable by services, examples and
//! benchmarks:
//! - [`trf_input`]: a parsed TRF document → the [`swiss::TournamentState`] before a round;
//! - [`generator`]: the random tournament generator (`-g`, FIDE C.04.A style);
//! - [`checklist`]: the per-player check-list of a pairing (`-l`).
//!
//! No I/O here: the binary (`src/main.rs`) reads and writes the files.

pub mod checklist;
pub mod generator;
pub mod trf_input;
