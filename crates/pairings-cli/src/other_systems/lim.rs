//! `arbiter pair --system lim --trf FILE`: TRF → [`lim::TournamentState`] (C.04.4.3), built
//! from the shared Dutch adapter's state (`pairings::trf_input`: scores, played colours,
//! opponents, absences) plus the last round of each history for the float of art. 10.10.
use crate::trf_input::{self, HistoryEntry};
use trf::TrfDocument;

use super::{PairError, PairedRound, invalid, no_pairing, require_one_half_zero};

pub fn pair(doc: &TrfDocument, round: usize) -> Result<PairedRound, PairError> {
    let per_half = require_one_half_zero(doc, "Lim")?;
    // Dutch 2017 semantics of `had_unplayed_win`: forfeit wins only (Lim art. 8.2: "has
    // already had a bye or scored a win by forfeit").
    let st = trf_input::state_before(doc, round, swiss::Edition::Dutch2017).map_err(invalid)?;
    let history = trf_input::history(doc, round);
    let played = st.rounds_played;
    let players = st
        .players
        .iter()
        .map(|p| {
            let last = history.get(&p.tpn).and_then(|h| h.last()).copied();
            let floated_last_round = match last {
                Some(HistoryEntry::Played { .. }) => match p.floats.last() {
                    Some(swiss::Float::Down) => Some(lim::FloatDirection::Down),
                    Some(swiss::Float::Up) => Some(lim::FloatDirection::Up),
                    _ => None,
                },
                Some(HistoryEntry::Pab { .. }) => Some(lim::FloatDirection::Down),
                _ => None,
            };
            let mut score = p.score / per_half;
            if p.absent {
                // An absent player's bye of this round is already in the score; he is not
                // paired, so only the history's bound matters.
                score = score.min(2 * played);
            }
            lim::Player {
                pairing_number: p.tpn,
                rating: p.rating,
                score_half_points: score,
                colours: p
                    .colours
                    .iter()
                    .flatten()
                    .map(|c| match c {
                        swiss::Colour::White => lim::Colour::White,
                        swiss::Colour::Black => lim::Colour::Black,
                    })
                    .collect(),
                opponents: p.opponents.clone(),
                floated_last_round,
                absent: p.absent,
                bye_ineligible: p.had_pab || p.had_unplayed_win,
            }
        })
        .collect();
    let state = lim::TournamentState {
        total_rounds: st.total_rounds,
        round: played + 1,
        initial_colour: match st.initial_colour {
            swiss::Colour::White => lim::Colour::White,
            swiss::Colour::Black => lim::Colour::Black,
        },
        players,
    };
    let p = lim::pair_round(&state).map_err(|e| match e {
        lim::LimError::NoByeCandidate { .. }
        | lim::LimError::NoLegalPairing { .. }
        | lim::LimError::SearchBudgetExceeded { .. } => no_pairing(format!("round {round}: {e}")),
        _ => invalid(format!("round {round}: {e}")),
    })?;
    Ok(PairedRound {
        round,
        boards: p.boards.iter().map(|b| (b.white, b.black)).collect(),
        bye: p.bye,
        notes: vec![],
    })
}
