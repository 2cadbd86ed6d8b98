//! `arbiter pair --system draughts-swiss --trf FILE`: TRF → [`draughtsswiss::DraughtsSwissState`]
//! (seed 002, FMJD Swiss). Per-game points (for Solkoff and Sonneborn-Berger inside
//! scoregroups) come from `pairings::trf_input::history`; absences and the initial colour
//! from the shared Dutch adapter's state. 1/½/0 points are counted on the 2/1/0 scale;
//! a pairing-allocated bye is a rest (art. 5, 8.2); other byes are extra points. The initial
//! list is taken as a ranking list (art. 3.1), without acceleration.
use crate::trf_input::{self, HistoryEntry};
use trf::TrfDocument;

use super::{PairError, PairedRound, invalid, no_pairing, require_one_half_zero};

fn colour(c: swiss::Colour) -> draughtsswiss::Colour {
    match c {
        swiss::Colour::White => draughtsswiss::Colour::White,
        swiss::Colour::Black => draughtsswiss::Colour::Black,
    }
}

pub fn pair(doc: &TrfDocument, round: usize) -> Result<PairedRound, PairError> {
    let per_unit = require_one_half_zero(doc, "draughts Swiss")?;
    let st = trf_input::state_before(doc, round, swiss::Edition::Dutch2026).map_err(invalid)?;
    let history = trf_input::history(doc, round);
    let mut participants = Vec::with_capacity(st.players.len());
    for p in &st.players {
        let mut d = draughtsswiss::Participant::new(p.tpn);
        for e in history.get(&p.tpn).map(Vec::as_slice).unwrap_or(&[]) {
            match *e {
                HistoryEntry::Played {
                    colour: c,
                    opponent,
                    points,
                } => d.games.push(draughtsswiss::Game {
                    opponent,
                    colour: Some(colour(c)),
                    points: points / per_unit,
                }),
                HistoryEntry::Forfeit {
                    opponent: Some(opponent),
                    points,
                } => d.games.push(draughtsswiss::Game {
                    opponent,
                    colour: None,
                    points: points / per_unit,
                }),
                HistoryEntry::Pab { points }
                    if points / per_unit == draughtsswiss::scoring::REST =>
                {
                    d.rests += 1;
                }
                HistoryEntry::Forfeit { points, .. }
                | HistoryEntry::Pab { points }
                | HistoryEntry::Bye { points } => d.extra_points += points / per_unit,
                HistoryEntry::Nothing => {}
            }
        }
        d.absent = p.absent;
        participants.push(d);
    }
    let state = draughtsswiss::DraughtsSwissState {
        total_rounds: st.total_rounds,
        round: st.rounds_played + 1,
        first_colour: colour(st.initial_colour),
        initial_order: draughtsswiss::InitialOrder::RankingList,
        acceleration: draughtsswiss::Acceleration::None,
        participants,
        haley_group_a: vec![],
    };
    let p = draughtsswiss::pair_round(&state).map_err(|e| match e {
        draughtsswiss::DraughtsSwissError::NoRestCandidate { .. }
        | draughtsswiss::DraughtsSwissError::NoLegalPairing { .. }
        | draughtsswiss::DraughtsSwissError::SearchBudgetExceeded { .. } => {
            no_pairing(format!("round {round}: {e}"))
        }
        _ => invalid(format!("round {round}: {e}")),
    })?;
    Ok(PairedRound {
        round,
        boards: p.boards.iter().map(|b| (b.white, b.black)).collect(),
        bye: p.rest,
        notes: vec![],
    })
}
