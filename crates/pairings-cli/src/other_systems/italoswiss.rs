//! `arbiter pair --system italo-swiss --trf FILE`: TRF → [`italoswiss::ItaloSwissState`]
//! (seed 000, "Le système italo-suisse"), built from the shared Dutch adapter's state
//! (`pairings::trf_input`). The list number is the TRF pairing number; adjourned games are
//! not represented in a TRF and are taken as none.
use crate::trf_input;
use trf::TrfDocument;

use super::{PairError, PairedRound, invalid, no_pairing, require_one_half_zero};

pub fn pair(doc: &TrfDocument, round: usize) -> Result<PairedRound, PairError> {
    let per_half = require_one_half_zero(doc, "Italo-Swiss")?;
    let st = trf_input::state_before(doc, round, swiss::Edition::Dutch2026).map_err(invalid)?;
    let played = st.rounds_played;
    let players = st
        .players
        .iter()
        .map(|p| {
            let mut score = p.score / per_half;
            if p.absent {
                score = score.min(2 * played);
            }
            italoswiss::Player {
                number: p.tpn,
                score_half_points: score,
                colours: p
                    .colours
                    .iter()
                    .flatten()
                    .map(|c| match c {
                        swiss::Colour::White => italoswiss::Colour::White,
                        swiss::Colour::Black => italoswiss::Colour::Black,
                    })
                    .collect(),
                opponents: p.opponents.clone(),
                adjourned: false,
                had_bye: p.had_pab,
                absent: p.absent,
            }
        })
        .collect();
    let state = italoswiss::ItaloSwissState {
        total_rounds: st.total_rounds,
        round: played + 1,
        players,
    };
    let p = italoswiss::pair_round(&state).map_err(|e| match e {
        italoswiss::ItaloSwissError::NoByeCandidate { .. }
        | italoswiss::ItaloSwissError::NoLegalPairing { .. }
        | italoswiss::ItaloSwissError::SearchBudgetExceeded { .. } => {
            no_pairing(format!("round {round}: {e}"))
        }
        _ => invalid(format!("round {round}: {e}")),
    })?;
    Ok(PairedRound {
        round,
        boards: p.boards.iter().map(|b| (b.white, b.black)).collect(),
        bye: p.bye,
        notes: vec![],
    })
}
