//! Pairing a whole round by the Lim system: art. 8 (bye), art. 9.2 (median scoregroup, order of
//! processing), art. 9.6 (blocked median group), art. 14 (first round).

use std::cell::Cell;
use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use crate::colour_allocation::{MedianSide, allocate_colours};
use crate::error::LimError;
use crate::scoregroup_pairing::{Ctx, Explanation, GroupInput, pair_scoregroup};
use crate::state::{Colour, FloatDirection, TournamentState};

/// Step budget of the exchange search (each step examines one partial pairing).
pub const SEARCH_BUDGET: u64 = 2_000_000;

/// One board: who has White and who has Black (pairing numbers).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Board {
    /// Pairing number of the player with White.
    pub white: u32,
    /// Pairing number of the player with Black.
    pub black: u32,
}

/// The pairing of one round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundPairing {
    /// Boards in the recommended order (GHR 3.6): higher score of the pair, then sum of scores,
    /// then the smaller pairing number.
    pub boards: Vec<Board>,
    /// The player with the bye (art. 8), if the number of present players is odd.
    pub bye: Option<u32>,
    /// Short explanation: groups in processing order, floaters, exchanges, 9.6 extensions.
    pub explanation: Vec<Explanation>,
}

/// Pairs `state.round` by the Lim system.
///
/// # Errors
/// A typed [`LimError`] for inconsistent input, when nobody may take a needed bye, or when no
/// legal pairing exists.
pub fn pair_round(state: &TournamentState) -> Result<RoundPairing, LimError> {
    let index = state.validate()?;
    let mut met = BTreeSet::new();
    for (i, p) in state.players.iter().enumerate() {
        for o in &p.opponents {
            if let Some(&j) = index.get(o) {
                met.insert((i.min(j), i.max(j)));
            }
        }
    }
    let ctx = Ctx {
        players: &state.players,
        met,
        last_round: state.round == state.total_rounds,
        maxi: state.is_maxi_tournament(),
        steps: Cell::new(0),
        budget: SEARCH_BUDGET,
    };
    let mut present: Vec<usize> = (0..state.players.len())
        .filter(|&i| !state.players[i].absent)
        .collect();
    present.sort_by_key(|&i| state.players[i].pairing_number);
    if present.len().is_multiple_of(2) {
        let (pairs, explanation) = pair_present(state, &ctx, &present)?;
        return Ok(finish(state, &ctx, pairs, None, explanation));
    }
    // Art. 8.1: the lowest-placed player of the lowest scoregroup; art. 8.2: not twice, not after
    // a forfeit win. If the rest cannot then be paired, the next candidate up (ADR lim-001).
    let mut candidates: Vec<usize> = present
        .iter()
        .copied()
        .filter(|&i| !state.players[i].bye_ineligible)
        .collect();
    if candidates.is_empty() {
        return Err(LimError::NoByeCandidate {
            present: present.len(),
        });
    }
    candidates.sort_by_key(|&i| {
        (
            state.players[i].score_half_points,
            std::cmp::Reverse(state.players[i].pairing_number),
        )
    });
    for bye in candidates {
        let rest: Vec<usize> = present.iter().copied().filter(|&i| i != bye).collect();
        match pair_present(state, &ctx, &rest) {
            Ok((pairs, mut explanation)) => {
                explanation.insert(
                    0,
                    Explanation::Bye {
                        player: ctx.pn(bye),
                    },
                );
                return Ok(finish(state, &ctx, pairs, Some(bye), explanation));
            }
            Err(LimError::NoLegalPairing { .. }) => continue,
            Err(e) => return Err(e),
        }
    }
    Err(LimError::NoLegalPairing {
        present: present.len() - 1,
    })
}

type Pairs = Vec<(usize, usize)>;

fn pair_present(
    state: &TournamentState,
    ctx: &Ctx<'_>,
    present: &[usize],
) -> Result<(Pairs, Vec<Explanation>), LimError> {
    if state.round == 1 {
        return Ok((first_round(present), Vec::new()));
    }
    later_round(state, ctx, present)
}

/// Art. 14.2: the upper half of the list meets the lower half, 1 against n/2 + 1 and so on
/// (art. 9.4 on a single group). Colours are given in [`finish`].
fn first_round(present: &[usize]) -> Pairs {
    let half = present.len() / 2;
    (0..half).map(|k| (present[k], present[k + half])).collect()
}

/// Art. 9.2: groups above the median top-down, groups below bottom-up, the median last.
fn later_round(
    state: &TournamentState,
    ctx: &Ctx<'_>,
    present: &[usize],
) -> Result<(Pairs, Vec<Explanation>), LimError> {
    let median = state.median_score_half_points();
    let mut groups: BTreeMap<u32, Vec<usize>> = BTreeMap::new();
    for &i in present {
        groups.entry(ctx.score(i)).or_default().push(i);
    }
    for g in groups.values_mut() {
        g.sort_by_key(|&i| ctx.pn(i));
    }
    let scores: Vec<u32> = groups.keys().copied().collect();
    let above: Vec<u32> = scores
        .iter()
        .rev()
        .copied()
        .filter(|&s| s > median)
        .collect();
    let below: Vec<u32> = scores.iter().copied().filter(|&s| s < median).collect();
    let mut notes = Vec::new();

    // Pairings made above / below the median, in the order made (art. 9.6 undoes the last first).
    let mut made_above: Vec<(usize, usize)> = Vec::new();
    let mut made_below: Vec<(usize, usize)> = Vec::new();

    let mut down: Vec<usize> = Vec::new();
    for (k, &s) in above.iter().enumerate() {
        let residents = groups[&s].clone();
        down.sort_by_key(|&i| (std::cmp::Reverse(ctx.score(i)), ctx.pn(i)));
        let mut list = down.clone();
        list.extend(residents);
        let next_score = above
            .get(k + 1)
            .copied()
            .or_else(|| scores.iter().rev().copied().find(|&t| t < s));
        let adjacent = next_score.map(|t| groups[&t].clone()).unwrap_or_default();
        let (pairs, out) = run_group(
            ctx,
            s,
            FloatDirection::Down,
            false,
            list,
            down.len(),
            adjacent,
            &mut notes,
        )?;
        made_above.extend(pairs);
        down = out;
    }
    let mut up: Vec<usize> = Vec::new();
    for (k, &s) in below.iter().enumerate() {
        let mut residents = groups[&s].clone();
        residents.reverse();
        up.sort_by_key(|&i| (ctx.score(i), std::cmp::Reverse(ctx.pn(i))));
        let mut list = up.clone();
        list.extend(residents);
        let next_score = below
            .get(k + 1)
            .copied()
            .or_else(|| scores.iter().copied().find(|&t| t > s));
        let adjacent = next_score.map(|t| groups[&t].clone()).unwrap_or_default();
        let (pairs, out) = run_group(
            ctx,
            s,
            FloatDirection::Up,
            false,
            list,
            up.len(),
            adjacent,
            &mut notes,
        )?;
        made_below.extend(pairs);
        up = out;
    }
    // The median group (possibly empty of residents), paired downwards, last (art. 9.2), with
    // floaters from both sides: downfloaters first (art. 10.6), residents, then upfloaters
    // (ADR lim-001).
    let residents = groups.get(&median).cloned().unwrap_or_default();
    loop {
        down.sort_by_key(|&i| (std::cmp::Reverse(ctx.score(i)), ctx.pn(i)));
        up.sort_by_key(|&i| (std::cmp::Reverse(ctx.score(i)), ctx.pn(i)));
        let mut list = down.clone();
        list.extend(residents.iter().copied());
        list.extend(up.iter().copied());
        let g = GroupInput {
            incoming: down.iter().chain(up.iter()).copied().collect(),
            lead_floaters: down.len(),
            list: list.clone(),
            adjacent: Vec::new(),
            must_complete: true,
        };
        if let Some(outcome) = pair_scoregroup(ctx, &g)? {
            notes.push(Explanation::ScoregroupPaired {
                score_half_points: median,
                direction: FloatDirection::Down,
                median: true,
                players: list.iter().map(|&i| ctx.pn(i)).collect(),
            });
            notes.extend(outcome.notes);
            let mut all = made_above;
            all.extend(made_below);
            all.extend(outcome.pairs);
            return Ok((all, notes));
        }
        // Art. 9.6: more floaters from above than from below → undo the next pairing below,
        // otherwise the next pairing above.
        let from_below = if down.len() > up.len() {
            !made_below.is_empty()
        } else {
            made_above.is_empty()
        };
        let undone = if from_below {
            made_below.pop()
        } else {
            made_above.pop()
        };
        let Some((a, b)) = undone else {
            return Err(LimError::NoLegalPairing {
                present: present.len(),
            });
        };
        notes.push(Explanation::MedianExtended {
            undone: (ctx.pn(a), ctx.pn(b)),
            from_score_half_points: ctx.score(a).max(ctx.score(b)),
        });
        if from_below {
            up.extend([a, b]);
        } else {
            down.extend([a, b]);
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn run_group(
    ctx: &Ctx<'_>,
    score: u32,
    direction: FloatDirection,
    median: bool,
    list: Vec<usize>,
    lead: usize,
    adjacent: Vec<usize>,
    notes: &mut Vec<Explanation>,
) -> Result<(Pairs, Vec<usize>), LimError> {
    let g = GroupInput {
        incoming: list[..lead].iter().copied().collect(),
        lead_floaters: lead,
        list,
        adjacent,
        must_complete: false,
    };
    let outcome = pair_scoregroup(ctx, &g)?.unwrap_or_else(|| unreachable_outcome(&g));
    notes.push(Explanation::ScoregroupPaired {
        score_half_points: score,
        direction,
        median,
        players: g.list.iter().map(|&i| ctx.pn(i)).collect(),
    });
    notes.extend(outcome.notes);
    for &(i, reason) in &outcome.floaters {
        notes.push(Explanation::Floated {
            player: ctx.pn(i),
            from_score_half_points: score,
            direction,
            reason,
        });
    }
    Ok((
        outcome.pairs,
        outcome.floaters.into_iter().map(|(i, _)| i).collect(),
    ))
}

/// A group that need not be complete always yields an outcome; this keeps the code total.
fn unreachable_outcome(g: &GroupInput) -> crate::scoregroup_pairing::GroupOutcome {
    crate::scoregroup_pairing::GroupOutcome {
        pairs: Vec::new(),
        floaters: g
            .list
            .iter()
            .map(|&i| {
                (
                    i,
                    crate::scoregroup_pairing::FloatReason::NoCompatibleOpponent,
                )
            })
            .collect(),
        notes: Vec::new(),
    }
}

/// Colours (art. 12, art. 14.2 for round 1) and board order (GHR 3.6).
fn finish(
    state: &TournamentState,
    ctx: &Ctx<'_>,
    pairs: Pairs,
    bye: Option<usize>,
    explanation: Vec<Explanation>,
) -> RoundPairing {
    let median = state.median_score_half_points();
    let mut boards: Vec<(u32, u64, u32, Board)> = pairs
        .into_iter()
        .map(|(a, b)| {
            let (h, l) = if ctx.pn(a) < ctx.pn(b) {
                (a, b)
            } else {
                (b, a)
            };
            let (hp, lp) = (&state.players[h], &state.players[l]);
            let board = if state.round == 1 {
                first_round_colours(state, h, l)
            } else {
                let side = if hp.score_half_points.max(lp.score_half_points) >= median {
                    MedianSide::AtOrAbove
                } else {
                    MedianSide::Below
                };
                let (w, b) = allocate_colours(hp, lp, side, state.initial_colour);
                Board {
                    white: w.pairing_number,
                    black: b.pairing_number,
                }
            };
            let max = hp.score_half_points.max(lp.score_half_points);
            let sum = u64::from(hp.score_half_points) + u64::from(lp.score_half_points);
            (max, sum, hp.pairing_number, board)
        })
        .collect();
    boards.sort_by_key(|&(max, sum, pn, _)| (std::cmp::Reverse(max), std::cmp::Reverse(sum), pn));
    RoundPairing {
        boards: boards.into_iter().map(|t| t.3).collect(),
        bye: bye.map(|i| ctx.pn(i)),
        explanation,
    }
}

/// Art. 14.2: the odd-placed players of the upper half get the drawn colour, the even-placed the
/// other; the placing is the position in the list of present players paired this round.
fn first_round_colours(state: &TournamentState, h: usize, l: usize) -> Board {
    let mut present: Vec<u32> = state
        .players
        .iter()
        .filter(|p| !p.absent)
        .map(|p| p.pairing_number)
        .collect();
    present.sort_unstable();
    let hp = state.players[h].pairing_number;
    let lp = state.players[l].pairing_number;
    let position = present.iter().position(|&x| x == hp).unwrap_or(0) + 1;
    let colour = if position % 2 == 1 {
        state.initial_colour
    } else {
        state.initial_colour.opposite()
    };
    match colour {
        Colour::White => Board {
            white: hp,
            black: lp,
        },
        Colour::Black => Board {
            white: lp,
            black: hp,
        },
    }
}
