//! `arbiter pair --system dutch|lim|italo-swiss|draughts-swiss --trf FILE`: the next round
//! of a TRF file paired by the pure crate of the system. This file reads the TRF (errors
//! as FILE:LINE:COL, exit 3), dispatches to the per-system adapters (`pair_dutch`,
//! `pair_lim`, `pair_italoswiss`, `pair_draughtsswiss`) and prints the boards.
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
}

impl SwissSystem {
    fn name(self) -> &'static str {
        match self {
            SwissSystem::Dutch => "dutch",
            SwissSystem::Lim => "lim",
            SwissSystem::ItaloSwiss => "italo-swiss",
            SwissSystem::DraughtsSwiss => "draughts-swiss",
        }
    }

    fn title(self) -> &'static str {
        match self {
            SwissSystem::Dutch => "FIDE (Dutch) system, C.04.3",
            SwissSystem::Lim => "Lim system, C.04.4.3",
            SwissSystem::ItaloSwiss => "Italo-Swiss system",
            SwissSystem::DraughtsSwiss => "FMJD draughts Swiss system",
        }
    }
}

/// Options of the Dutch system (rejected for the other systems).
#[derive(Debug, Clone, Default)]
pub struct DutchOptions {
    pub edition: Option<swiss::Edition>,
    pub acceleration: Option<swiss::AccelerationMethod>,
}

/// One round as every system returns it: boards (pairing numbers) in board order, bye.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PairedRound {
    pub round: usize,
    pub boards: Vec<(u32, u32)>,
    pub bye: Option<u32>,
    /// Facts shown above the boards and in the JSON (edition, acceleration, …).
    pub notes: Vec<(&'static str, String)>,
}

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

/// Reads and validates the TRF file (the checks of `arbiter trf check`); a file that
/// cannot be read as TRF, or any error finding, is exit 3 with FILE:LINE:COL.
fn load(path: &Path) -> Result<TrfDocument, Failure> {
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
        SwissSystem::Lim => super::pair_lim::pair(&doc, round).map_err(|f| prefix(path, f))?,
        SwissSystem::ItaloSwiss => {
            super::pair_italoswiss::pair(&doc, round).map_err(|f| prefix(path, f))?
        }
        SwissSystem::DraughtsSwiss => {
            super::pair_draughtsswiss::pair(&doc, round).map_err(|f| prefix(path, f))?
        }
    };
    print(cli, system, &paired);
    Ok(())
}

fn prefix(path: &Path, f: Failure) -> Failure {
    Failure {
        code: f.code,
        message: format!("{}: {}", path.display(), f.message),
    }
}

/// The 1/½/0 scoring the Lim, Italo-Swiss and draughts crates count in (half-points, or
/// 2/1/0): the file's scoring must be win 1, draw ½, loss 0. Returns the tenths per
/// half-point (5).
pub(crate) fn require_one_half_zero(doc: &TrfDocument, system: &str) -> Result<u32, Failure> {
    let s = pairings::trf_input::scoring(doc);
    if s.win != 10 || s.draw != 5 || s.loss != 0 {
        return Err(invalid(format!(
            "the {system} system scores 1/½/0; the file's scoring (162/XXS/BB*) gives win {}, draw {}, loss {}",
            tenths(s.win),
            tenths(s.draw),
            tenths(s.loss)
        )));
    }
    Ok(5)
}

fn tenths(v: u32) -> String {
    format!("{}.{}", v / 10, v % 10)
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
