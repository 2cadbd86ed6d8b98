//! Rule editions. The default is the rule in force today; older rules are selected explicitly.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Which tie-break regulations apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub enum Edition {
    /// FIDE C.07 "Play-Off and Tie-Break Regulations", applied from 1 March 2026:
    /// capped dummy (Art. 16.4.1/16.4.2), STD/TPN/RTNG, Art. 15.2 exceptions for round
    /// robins, Buchholz banned in round robins.
    #[default]
    C07_2026,
    /// FIDE C.07 applied 1 August 2024 – 28 February 2026: uncapped dummy (the dummy ends
    /// the event with the participant's own score), forfeits in round robins count as
    /// regular games everywhere, no STD/TPN/RTNG.
    C07_2024,
    /// The C.06-era list of the seed (FEFB vade-mecum 2018, "Systèmes de départage"):
    /// virtual opponent `Ov = Sp + (1 − Sr) + 0.5 × (N − R)` for one's own unplayed games,
    /// the opponents' unplayed games counted as draws.
    SeedC06,
}

impl Edition {
    /// Short name used in messages.
    pub fn name(self) -> &'static str {
        match self {
            Edition::C07_2026 => "C.07 (2026)",
            Edition::C07_2024 => "C.07 (2024)",
            Edition::SeedC06 => "seed C.06 list",
        }
    }

    /// Whether Arts. 15–16 (categories, adjusted scores, dummy, VUR-first cut) apply.
    pub(crate) fn uses_dummy(self) -> bool {
        !matches!(self, Edition::SeedC06)
    }
}

impl fmt::Display for Edition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
