//! `arbiter pair --system dutch|lim|italo-swiss|draughts-swiss --trf FILE`: the next round
//! of a TRF file paired by the pure crate of the system. This file reads the TRF (errors
//! as FILE:LINE:COL, exit 3), dispatches to the per-system adapters (`pair_dutch`, and
//! `pairings::other_systems::{lim, italoswiss, draughtsswiss}`) and prints the boards.
//!
//! Exit codes: 0 paired; 1 no pairing satisfies the system's absolute rules, or every
//! declared round is already paired; 2 usage; 3 the TRF (or the state it describes) is
//! invalid for the system.
use std::path::Path;

use ::trf::{Severity, TrfDocument};
use serde_json::json;

use super::read_file;
use super::trf::finding_line;
use crate::{Cli, Failure, output};

/// A Swiss system that pairs one round from a TRF file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SwissSystem {
    /// FIDE (Dutch) system, C.04.3 (crate `swiss`).
    Dutch,
    /// Lim system, C.04.4.3 (crate `lim`).
    Lim,
    /// Italo-Swiss (seed 000; crate `italoswiss`).
    ItaloSwiss,
    /// FMJD draughts Swiss (seed 002; crate `draughtsswiss`).
    DraughtsSwiss,
    /// Round robin by Berger tables (C.05 Annex 1; crate `roundrobin`), pairing number = TPN.
    RoundRobin,
    /// Double round robin (the recommended swap of the first cycle's last two rounds).
    DoubleRoundRobin,
}

impl SwissSystem {
    fn name(self) -> &'static str {
        match self {
            SwissSystem::Dutch => "dutch",
            SwissSystem::Lim => "lim",
            SwissSystem::ItaloSwiss => "italo-swiss",
            SwissSystem::DraughtsSwiss => "draughts-swiss",
            SwissSystem::RoundRobin => "round-robin",
            SwissSystem::DoubleRoundRobin => "double-round-robin",
        }
    }

    fn title(self) -> &'static str {
        match self {
            SwissSystem::Dutch => "FIDE (Dutch) system, C.04.3",
            SwissSystem::Lim => "Lim system, C.04.4.3",
            SwissSystem::ItaloSwiss => "Italo-Swiss system",
            SwissSystem::DraughtsSwiss => "FMJD draughts Swiss system",
            SwissSystem::RoundRobin => "round robin, Berger tables, C.05 Annex 1",
            SwissSystem::DoubleRoundRobin => "double round robin, Berger tables, C.05 Annex 1",
        }
    }
}

/// Options of the Dutch system (rejected for the other systems).
#[derive(Debug, Clone, Default)]
pub struct DutchOptions {
    pub edition: Option<swiss::Edition>,
    pub acceleration: Option<swiss::AccelerationMethod>,
}

pub use pairings::other_systems::PairedRound;

/// Invalid input: exit 3.
pub(crate) fn invalid(message: impl Into<String>) -> Failure {
    Failure {
        code: 3,
        message: message.into(),
    }
}

/// No pairing: exit 1.
pub(crate) fn no_pairing(message: impl Into<String>) -> Failure {
    Failure {
        code: 1,
        message: message.into(),
    }
}

fn failure(e: pairings::other_systems::PairError) -> Failure {
    match e {
        pairings::other_systems::PairError::Invalid(m) => invalid(m),
        pairings::other_systems::PairError::NoPairing(m) => no_pairing(m),
    }
}

/// Reads and validates the TRF file (the checks of `arbiter trf check`); a file that
/// cannot be read as TRF, or any error finding, is exit 3 with FILE:LINE:COL.
pub(crate) fn load(path: &Path) -> Result<TrfDocument, Failure> {
    let bytes = read_file(path)?;
    let parsed = ::trf::parse_and_validate(&bytes)
        .map_err(|e| invalid(format!("{}:1:1: {e}", path.display())))?;
    let errors: Vec<String> = parsed
        .findings
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .map(|f| finding_line(path, f))
        .collect();
    if !errors.is_empty() {
        return Err(invalid(errors.join("\n")));
    }
    Ok(parsed.doc)
}

/// Pairs the next round of `path` by `system` and prints it.
pub fn run(
    cli: &Cli,
    system: SwissSystem,
    path: &Path,
    dutch: &DutchOptions,
) -> Result<(), Failure> {
    let doc = load(path)?;
    let round = pairings::trf_input::round_to_pair(&doc);
    match pairings::trf_input::declared_rounds(&doc) {
        Some(total) if round > total as usize => {
            return Err(no_pairing(format!(
                "{}: all {total} declared rounds are already paired",
                path.display()
            )));
        }
        Some(_) => {}
        None => eprintln!(
            "note: {}: no XXR/142 record: round {round} is taken as the last round",
            path.display()
        ),
    }
    let paired = match system {
        SwissSystem::Dutch => {
            super::pair_dutch::pair(&doc, round, dutch).map_err(|f| prefix(path, f))?
        }
        SwissSystem::Lim => {
            pairings::other_systems::lim::pair(&doc, round).map_err(|e| prefix(path, failure(e)))?
        }
        SwissSystem::ItaloSwiss => pairings::other_systems::italoswiss::pair(&doc, round)
            .map_err(|e| prefix(path, failure(e)))?,
        SwissSystem::DraughtsSwiss => pairings::other_systems::draughtsswiss::pair(&doc, round)
            .map_err(|e| prefix(path, failure(e)))?,
        SwissSystem::RoundRobin | SwissSystem::DoubleRoundRobin => {
            berger_round(&doc, round, system).map_err(|f| prefix(path, f))?
        }
    };
    print(cli, system, &paired);
    Ok(())
}

pub(crate) fn prefix(path: &Path, f: Failure) -> Failure {
    Failure {
        code: f.code,
        message: format!("{}: {}", path.display(), f.message),
    }
}

fn print(cli: &Cli, system: SwissSystem, p: &PairedRound) {
    if cli.json {
        let mut v = json!({
            "system": system.name(),
            "round": p.round,
            "games": p.boards.iter().zip(1..).map(|((w, b), n): (&(u32, u32), u32)| json!({
                "board": n,
                "white": w,
                "black": b,
            })).collect::<Vec<_>>(),
            "bye": p.bye,
        });
        for (k, val) in &p.notes {
            v[*k] = json!(val);
        }
        output::json(&v);
        return;
    }
    let notes: Vec<String> = p.notes.iter().map(|(k, v)| format!("{k} {v}")).collect();
    if notes.is_empty() {
        outln!("Round {} ({})", p.round, system.title());
    } else {
        outln!(
            "Round {} ({}; {})",
            p.round,
            system.title(),
            notes.join(", ")
        );
    }
    let rows: Vec<Vec<String>> = p
        .boards
        .iter()
        .zip(1..)
        .map(|((w, b), n): (&(u32, u32), u32)| vec![n.to_string(), w.to_string(), b.to_string()])
        .collect();
    output::table(&["Board", "White", "Black"], &rows);
    if let Some(b) = p.bye {
        outln!("bye: {b}");
    }
}

/// The next round of a round robin from its TRF: pairing numbers are the file's TPNs.
fn berger_round(
    doc: &TrfDocument,
    round: usize,
    system: SwissSystem,
) -> Result<PairedRound, Failure> {
    let n = u32::try_from(doc.players().count()).unwrap_or(u32::MAX);
    let table = if system == SwissSystem::DoubleRoundRobin {
        roundrobin::double_round_robin(n, roundrobin::SecondCycle::default())
    } else {
        roundrobin::berger_table(n)
    }
    .map_err(|e| invalid(e.to_string()))?;
    let r = table
        .iter()
        .find(|r| r.number as usize == round)
        .ok_or_else(|| no_pairing(format!("the schedule of {n} players has no round {round}")))?;
    Ok(PairedRound {
        round,
        boards: r.games.iter().map(|g| (g.white, g.black)).collect(),
        bye: r.bye,
        notes: vec![],
    })
}
