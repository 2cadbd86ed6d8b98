//! Absolute criteria C1–C3 (C.04.3 2026 Art. 2.1; 2017 C.1–C.3), topscorers (2026 Art. 1.8;
//! 2017 A.7) and PAB eligibility (C.04.1 Art. 4).

use crate::colour::{ColourState, Strength};
use crate::model::{Player, TournamentState};

/// Topscorer (Art. 1.8): when the final round is paired, a player with more than 50 % of the
/// maximum possible score (points for a win × rounds played).
pub fn is_topscorer(state: &TournamentState, p: &Player) -> bool {
    let last_round = state.rounds_played + 1 >= state.total_rounds && state.total_rounds > 0;
    last_round
        && u64::from(p.score) * 2 > u64::from(state.points_for_win) * u64::from(state.rounds_played)
}

/// C2 / C.04.1 Art. 4: may receive the pairing-allocated bye.
pub fn pab_eligible(p: &Player) -> bool {
    !p.had_pab && !p.had_unplayed_win
}

/// C3: two non-topscorers with the same absolute colour preference shall not meet.
/// (When either player is a topscorer the pair is allowed; see ADR swiss-001.)
pub fn c3_allows(a: &ColourState, a_top: bool, b: &ColourState, b_top: bool) -> bool {
    if a_top || b_top {
        return true;
    }
    !(a.strength == Strength::Absolute
        && b.strength == Strength::Absolute
        && a.preference == b.preference)
}

/// C1: no rematch (played games only, GHR 3.5), plus pairs forbidden by the arbiter.
pub fn c1_allows(state: &TournamentState, a: &Player, b: &Player) -> bool {
    !a.opponents.contains(&b.tpn)
        && !b.opponents.contains(&a.tpn)
        && !state
            .forbidden_pairs
            .iter()
            .any(|&(x, y)| (x == a.tpn && y == b.tpn) || (x == b.tpn && y == a.tpn))
}
