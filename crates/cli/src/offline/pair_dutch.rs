//! `arbiter pair --system dutch --trf FILE`: the TRF → [`swiss::TournamentState`] adapter of
//! `arbiter-pairings` (`pairings::trf_input`, shared, not copied), optional acceleration
//! (`swiss::acceleration`), then [`swiss::pair`] (C.04.3).
use ::trf::TrfDocument;

use super::pair_trf::{DutchOptions, PairedRound, invalid, no_pairing};
use crate::Failure;

fn edition_name(e: swiss::Edition) -> &'static str {
    match e {
        swiss::Edition::Dutch2026 => "dutch-2026",
        swiss::Edition::Dutch2017 => "dutch-2017",
    }
}

pub fn pair(doc: &TrfDocument, round: usize, o: &DutchOptions) -> Result<PairedRound, Failure> {
    let edition = o
        .edition
        .or_else(|| pairings::trf_input::edition_hint(doc))
        .unwrap_or_default();
    let state = pairings::trf_input::state_before(doc, round, edition).map_err(invalid)?;
    let state = pairings::accelerate(doc, state, round, o.acceleration).map_err(invalid)?;
    let p = swiss::pair(&state, edition, &swiss::Options::default()).map_err(|e| match e {
        swiss::NoValidPairing::InvalidState(_) => invalid(format!("round {round}: {e}")),
        _ => no_pairing(format!("round {round}: {e}")),
    })?;
    let mut notes = vec![("edition", edition_name(edition).to_string())];
    if let Some(a) = o.acceleration {
        notes.push(("acceleration", a.name().to_string()));
    }
    Ok(PairedRound {
        round,
        boards: p.boards.iter().map(|b| (b.white, b.black)).collect(),
        bye: p.bye,
        notes,
    })
}
