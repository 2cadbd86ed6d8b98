//! Library side of `arbiter-pairings`: the TRF → [`swiss::TournamentState`] adapter
//! ([`trf_input`]), shared with the `arbiter pair` command, and the acceleration of a TRF
//! tournament that declares an accelerated system without `XXA`/`250` records
//! ([`trf_input::accelerate_from_method`]); the random tournament generator ([`generator`],
//! `-g`) and the per-player check-list of a pairing ([`checklist`], `-l`). No I/O here.

pub mod checklist;
pub mod generator;
pub mod other_systems;
pub mod trf_input;

use swiss::AccelerationMethod;
use swiss::acceleration::{DegressiveGroups, HaleyRemoval};

/// The accelerated systems accepted on the command line (`--acceleration NAME`):
/// `baku` (C.04.7, 2026), `baku-2016`, `haley` (seed 000 Example 1), `haley-example-2`,
/// `degressive` (rating limits 2000/1600) or `degressive:A_MIN:C_BELOW`.
pub const ACCELERATION_NAMES: &str =
    "baku|baku-2016|haley|haley-example-2|degressive[:A_MIN:C_BELOW]";

/// Parses an `--acceleration` value (see [`ACCELERATION_NAMES`]).
pub fn acceleration_method(name: &str) -> Result<AccelerationMethod, String> {
    match name {
        "baku" => Ok(AccelerationMethod::Baku),
        "baku-2016" => Ok(AccelerationMethod::Baku2016),
        "haley" => Ok(AccelerationMethod::Haley(HaleyRemoval::AfterRoundTwo)),
        "haley-example-2" => Ok(AccelerationMethod::Haley(HaleyRemoval::HalfAfterRoundTwo)),
        "degressive" => Ok(AccelerationMethod::Degressive(DegressiveGroups::USUAL)),
        other => {
            let limits = other
                .strip_prefix("degressive:")
                .and_then(|rest| rest.split_once(':'))
                .and_then(|(a, c)| Some((a.parse().ok()?, c.parse().ok()?)));
            match limits {
                Some((a_min, c_below)) => Ok(AccelerationMethod::Degressive(DegressiveGroups {
                    a_min,
                    c_below,
                })),
                None => Err(format!(
                    "unknown acceleration {other:?} (expected {ACCELERATION_NAMES})"
                )),
            }
        }
    }
}

/// Applies `--acceleration` to the state of `round`: with no method, the state as the file
/// gives it (`XXA`/`250` virtual points included); with a method, the computed virtual
/// points, and an error ("both given") when the file already has `XXA`/`250` records.
pub fn accelerate(
    doc: &trf::TrfDocument,
    state: swiss::TournamentState,
    round: usize,
    method: Option<AccelerationMethod>,
) -> Result<swiss::TournamentState, String> {
    let Some(method) = method else {
        return Ok(state);
    };
    if trf_input::has_acceleration_records(doc) {
        return Err(format!(
            "both given: the file has acceleration records (XXA/250) and --acceleration {} was given; use one",
            method.name()
        ));
    }
    trf_input::accelerate_from_method(doc, &state, round, &method)
}

/// The acceleration a file declares by its record 192 (`FIDE_DUTCH_2026_BAKU`,
/// `FIDE_DUTCH_2017_BAKU`: ETT26), when it carries no virtual points of its own
/// (`XXA`/`250`): Baku (C.04.7), or its 2016 form for the 2017 edition.
pub fn declared_acceleration(
    doc: &trf::TrfDocument,
    edition: swiss::Edition,
) -> Option<AccelerationMethod> {
    let code = doc.header_value(trf::HeaderKind::EncodedTournamentType)?;
    let code = code.trim().to_ascii_uppercase();
    if !code.starts_with("FIDE_DUTCH") || !code.ends_with("_BAKU") {
        return None;
    }
    if trf_input::has_acceleration_records(doc) {
        return None;
    }
    Some(match edition {
        swiss::Edition::Dutch2017 => AccelerationMethod::Baku2016,
        swiss::Edition::Dutch2026 => AccelerationMethod::Baku,
    })
}
