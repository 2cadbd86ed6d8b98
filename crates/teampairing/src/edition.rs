//! Editions of the Swiss Team Pairing System.

use serde::{Deserialize, Serialize};

/// The edition of the FIDE Swiss Team Pairing System applied.
///
/// Only the edition in force is implemented: C.04.6 approved by the Council on 28/10/2025 and
/// applied from 1 February 2026 (handbook page `SwissTeamPairingSystem202602`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum Edition {
    /// C.04.6, applied from 1 February 2026 (the default).
    #[default]
    C0406_2026,
}

impl Edition {
    /// The handbook's name of the edition.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Edition::C0406_2026 => {
                "FIDE C.04.6 Swiss Team Pairing System, applied from 1 February 2026"
            }
        }
    }
}
