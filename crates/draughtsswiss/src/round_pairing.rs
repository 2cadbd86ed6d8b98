//! Pairing a whole round: Annex V art. 5 (first round, rest), 6.1.6 (median group and order of
//! groups), 6.2 (initial list by lot), 9.1 (quarters), 9.2 (Haley ranking points).

use std::cell::Cell;
use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use crate::colours::{Side, allocate};
use crate::error::DraughtsSwissError;
use crate::group_pairing::{Ctx, FloatReason, GroupInput, pair_group};
use crate::scoring::{RankKey, median_index, rank_keys};
use crate::state::{Acceleration, Colour, DraughtsSwissState, InitialOrder};

/// Step budget of the pairing search.
pub const SEARCH_BUDGET: u64 = 2_000_000;

/// Ranking points of the Haley system (art. 9.2.2).
pub const HALEY_RANKING_POINTS: u32 = 2;

/// One board (identification numbers).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Board {
    /// White.
    pub white: u32,
    /// Black.
    pub black: u32,
}

/// Direction in which a group is paired.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Direction {
    /// From the best-ranked down (the median group and those above, 6.1.16).
    Down,
    /// From the weakest up (groups below the median, 6.1.18).
    Up,
}

/// One line of the explanation that comes with a pairing (art. 11.3: "a short report").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Explanation {
    /// Art. 5: this participant rests (2 points, art. 8.2).
    Rest {
        /// Identification number.
        participant: u32,
    },
    /// Art. 5.6/5.7/9.1.1/9.2.3: how round 1 was divided.
    FirstRound {
        /// The packets (two halves, or four quarters), identification numbers in order.
        packets: Vec<Vec<u32>>,
    },
    /// Art. 6.1.6: a score group was paired.
    GroupPaired {
        /// Pairing score of the group (2/1/0 scale, plus Haley ranking points in round 2).
        pairing_score: u32,
        /// Direction.
        direction: Direction,
        /// The median group (paired last).
        median: bool,
        /// Art. 9.1.2: paired by quarters.
        by_quarters: bool,
        /// Identification numbers in the order examined.
        participants: Vec<u32>,
    },
    /// Art. 6.1.7–6.1.14: a participant left his group.
    Floated {
        /// Identification number.
        participant: u32,
        /// Pairing score of the group he left.
        from_pairing_score: u32,
        /// Down (to a lower group) or Up.
        direction: Direction,
        /// Why.
        reason: FloatReason,
    },
    /// The median group could not be completed: this pairing of a neighbouring group was undone
    /// and its participants joined the median group (ADR draughtsswiss-003).
    MedianExtended {
        /// The undone pairing.
        undone: (u32, u32),
    },
}

/// The pairing of one round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DraughtsPairing {
    /// Boards, best pairing score first.
    pub boards: Vec<Board>,
    /// The participant who rests, if any.
    pub rest: Option<u32>,
    /// Haley system, round 1: the participants of the first two packets (art. 9.2.2). Empty
    /// otherwise.
    pub haley_group_a: Vec<u32>,
    /// Short explanation.
    pub explanation: Vec<Explanation>,
}

/// The ranking used for pairing (art. 6.1.5): score, provisional Solkoff, provisional
/// Sonneborn-Berger, identification number. All participants, identification numbers in order.
#[must_use]
pub fn ranking(state: &DraughtsSwissState) -> Vec<u32> {
    let keys = rank_keys(&state.participants);
    let mut ids: Vec<u32> = state.participants.iter().map(|p| p.id).collect();
    ids.sort_by_key(|id| keys[id]);
    ids
}

struct Round<'s> {
    state: &'s DraughtsSwissState,
    ctx: Ctx,
    keys: BTreeMap<u32, RankKey>,
    pairing_score: Vec<u32>,
}

impl Round<'_> {
    fn id(&self, i: usize) -> u32 {
        self.state.participants[i].id
    }
    fn key(&self, i: usize) -> (std::cmp::Reverse<u32>, RankKey) {
        (
            std::cmp::Reverse(self.pairing_score[i]),
            self.keys[&self.id(i)],
        )
    }
}

/// Pairs `state.round`.
///
/// # Errors
/// [`DraughtsSwissError`] for inconsistent input, when nobody may rest, or when no legal pairing
/// exists.
pub fn pair_round(state: &DraughtsSwissState) -> Result<DraughtsPairing, DraughtsSwissError> {
    let index = state.validate()?;
    let mut met = BTreeSet::new();
    for (i, p) in state.participants.iter().enumerate() {
        for g in p.games.iter().filter(|g| g.colour.is_some()) {
            if let Some(&j) = index.get(&g.opponent) {
                met.insert((i.min(j), i.max(j)));
            }
        }
    }
    let haley_round_two = state.acceleration == Acceleration::Haley && state.round == 2;
    let group_a: BTreeSet<u32> = state.haley_group_a.iter().copied().collect();
    let r = Round {
        state,
        ctx: Ctx {
            colours: state.participants.iter().map(|p| p.colours()).collect(),
            met,
            order: state.initial_order,
            split_by_colour: state.initial_order == InitialOrder::DrawnLots
                && state.round.is_multiple_of(2),
            steps: Cell::new(0),
            budget: SEARCH_BUDGET,
        },
        keys: rank_keys(&state.participants),
        pairing_score: state
            .participants
            .iter()
            .map(|p| {
                let bonus = if haley_round_two && group_a.contains(&p.id) {
                    HALEY_RANKING_POINTS
                } else {
                    0
                };
                p.score().saturating_add(bonus)
            })
            .collect(),
    };
    let mut present: Vec<usize> = (0..state.participants.len())
        .filter(|&i| !state.participants[i].absent && !state.participants[i].withdrawn)
        .collect();
    if state.round == 1 {
        present.sort_by_key(|&i| r.id(i));
    } else {
        present.sort_by_key(|&i| r.key(i));
    }
    if present.len().is_multiple_of(2) {
        return pair_present(&r, &present, None);
    }
    // Art. 5.3/5.4: the last of the list rests; 5.2/8.5: only once. Art. 8.4: preferably one who
    // has not met a withdrawn participant. If the others then cannot be paired, the next one up.
    let withdrawn: BTreeSet<u32> = state
        .participants
        .iter()
        .filter(|p| p.withdrawn)
        .map(|p| p.id)
        .collect();
    let met_withdrawn = |i: usize| {
        state.participants[i]
            .games
            .iter()
            .any(|g| g.colour.is_some() && withdrawn.contains(&g.opponent))
    };
    let mut candidates: Vec<usize> = present
        .iter()
        .rev()
        .copied()
        .filter(|&i| state.participants[i].rests == 0)
        .collect();
    candidates.sort_by_key(|&i| met_withdrawn(i));
    if candidates.is_empty() {
        return Err(DraughtsSwissError::NoRestCandidate {
            present: present.len(),
        });
    }
    for rest in candidates {
        let others: Vec<usize> = present.iter().copied().filter(|&i| i != rest).collect();
        match pair_present(&r, &others, Some(rest)) {
            Err(DraughtsSwissError::NoLegalPairing { .. }) => continue,
            other => return other,
        }
    }
    Err(DraughtsSwissError::NoLegalPairing {
        present: present.len() - 1,
    })
}

fn pair_present(
    r: &Round<'_>,
    present: &[usize],
    rest: Option<usize>,
) -> Result<DraughtsPairing, DraughtsSwissError> {
    let mut explanation = Vec::new();
    if let Some(x) = rest {
        explanation.push(Explanation::Rest {
            participant: r.id(x),
        });
    }
    let mut haley_group_a = Vec::new();
    let boards = if r.state.round == 1 {
        let (boards, packets) = first_round(r, present);
        if r.state.acceleration == Acceleration::Haley {
            haley_group_a = packets.iter().take(2).flatten().copied().collect();
        }
        explanation.push(Explanation::FirstRound { packets });
        boards
    } else {
        let pairs = later_round(r, present, &mut explanation)?;
        colours_and_order(r, pairs)
    };
    Ok(DraughtsPairing {
        boards,
        rest: rest.map(|x| r.id(x)),
        haley_group_a,
        explanation,
    })
}

/// Round 1. Basic system with a ranking list (5.6, 7.1.3): upper half against lower half, the
/// odd-placed of the upper half get the drawn colour. By lot (5.7, 7.2.1): 1-2, 3-4, … and the
/// odd numbers have White. Quarter and Haley (9.1.1, 9.2.1, 9.2.3): four packets, the first
/// against the second and the third against the fourth, colours as in 7.1.3 in each section.
fn first_round(r: &Round<'_>, present: &[usize]) -> (Vec<Board>, Vec<Vec<u32>>) {
    let ids: Vec<u32> = present.iter().map(|&i| r.id(i)).collect();
    let n = ids.len();
    let halves = |section: &[u32]| -> Vec<Board> {
        let h = section.len() / 2;
        (0..h)
            .map(|k| {
                let (up, down) = (section[k], section[k + h]);
                let c = if k % 2 == 0 {
                    r.state.first_colour
                } else {
                    r.state.first_colour.opposite()
                };
                match c {
                    Colour::White => Board {
                        white: up,
                        black: down,
                    },
                    Colour::Black => Board {
                        white: down,
                        black: up,
                    },
                }
            })
            .collect()
    };
    match (r.state.acceleration, r.state.initial_order) {
        (Acceleration::Quarter | Acceleration::Haley, _) => {
            let q = n.div_ceil(4);
            let (a, b) = ids.split_at((2 * q).min(n));
            let mut boards = halves(a);
            boards.extend(halves(b));
            let packets = vec![
                a[..a.len() / 2].to_vec(),
                a[a.len() / 2..].to_vec(),
                b[..b.len() / 2].to_vec(),
                b[b.len() / 2..].to_vec(),
            ];
            (boards, packets)
        }
        (Acceleration::None, InitialOrder::RankingList) => (
            halves(&ids),
            vec![ids[..n / 2].to_vec(), ids[n / 2..].to_vec()],
        ),
        (Acceleration::None, InitialOrder::DrawnLots) => {
            let boards = ids
                .chunks(2)
                .filter(|c| c.len() == 2)
                .map(|c| {
                    let (x, y) = (c[0], c[1]);
                    // 7.2.1: odd numbers White; if both or neither are odd, the smaller (ADR 002).
                    let x_white = x % 2 == 1 || y % 2 == 0;
                    if x_white {
                        Board { white: x, black: y }
                    } else {
                        Board { white: y, black: x }
                    }
                })
                .collect();
            (boards, vec![ids])
        }
    }
}

type Pairs = Vec<(usize, usize)>;

/// Art. 9.1.2 quarter pairing of one group (ordered by identification number, art. 3): the first
/// quarter against the second, the third against the fourth. `None` when the group is odd,
/// smaller than four, or a rematch would result (basic pairing then, ADR draughtsswiss-003).
fn quarter_pairs(r: &Round<'_>, group: &[usize]) -> Option<Pairs> {
    let n = group.len();
    if n < 4 || n % 2 == 1 {
        return None;
    }
    let mut g = group.to_vec();
    g.sort_by_key(|&i| r.id(i));
    let q = n.div_ceil(4);
    let (a, b) = g.split_at(2 * q);
    let mut pairs = Vec::new();
    for section in [a, b] {
        let h = section.len() / 2;
        for k in 0..h {
            pairs.push((section[k], section[k + h]));
        }
    }
    pairs
        .iter()
        .all(|&(x, y)| r.ctx.compatible(x, y))
        .then_some(pairs)
}

/// Rounds 2 and later (6.1.6): groups above the median top-down, groups below bottom-up, the
/// median group last. Haley round 2 (9.2.5) and lot-drawn events (6.2, ADR 003): all groups
/// top-down, the lowest group last.
fn later_round(
    r: &Round<'_>,
    present: &[usize],
    notes: &mut Vec<Explanation>,
) -> Result<Pairs, DraughtsSwissError> {
    let mut groups: BTreeMap<u32, Vec<usize>> = BTreeMap::new();
    for &i in present {
        groups.entry(r.pairing_score[i]).or_default().push(i);
    }
    for g in groups.values_mut() {
        g.sort_by_key(|&i| r.key(i));
    }
    let scores_desc: Vec<u32> = groups.keys().rev().copied().collect();
    let all_down = (r.state.acceleration == Acceleration::Haley && r.state.round == 2)
        || r.state.initial_order == InitialOrder::DrawnLots;
    let median = if all_down {
        scores_desc.last().copied().unwrap_or(0)
    } else {
        median_index(present.len()).map_or(0, |k| r.pairing_score[present[k]])
    };
    // Art. 9.1.2: quarters for the top group and the one just below when the top group is larger
    // than the number of rounds left (this one included, ADR 003).
    let rounds_left = r.state.total_rounds - r.state.round + 1;
    let quarters = r.state.acceleration == Acceleration::Quarter
        && scores_desc
            .first()
            .is_some_and(|s| groups[s].len() > rounds_left as usize);
    let above: Vec<u32> = scores_desc
        .iter()
        .copied()
        .filter(|&s| s > median)
        .collect();
    let below: Vec<u32> = scores_desc
        .iter()
        .rev()
        .copied()
        .filter(|&s| s < median)
        .collect();

    let mut made_above: Pairs = Vec::new();
    let mut made_below: Pairs = Vec::new();
    let mut down: Vec<usize> = Vec::new();
    for (k, &s) in above.iter().enumerate() {
        let residents = groups[&s].clone();
        if quarters
            && k < 2
            && down.is_empty()
            && let Some(p) = quarter_pairs(r, &residents)
        {
            notes.push(group_note(r, s, Direction::Down, false, true, &residents));
            made_above.extend(p);
            continue;
        }
        down.sort_by_key(|&i| r.key(i));
        let mut list = down.clone();
        list.extend(residents);
        let next = scores_desc.iter().copied().find(|&t| t < s);
        let adjacent = next.map(|t| groups[&t].clone()).unwrap_or_default();
        let lead = down.len();
        let (pairs, out) = run_group(r, s, Direction::Down, list, lead, adjacent, notes)?;
        made_above.extend(pairs);
        down = out;
    }
    let mut up: Vec<usize> = Vec::new();
    for &s in &below {
        let mut residents = groups[&s].clone();
        residents.reverse();
        up.sort_by_key(|&i| std::cmp::Reverse(r.key(i)));
        let mut list = up.clone();
        list.extend(residents);
        let next = scores_desc.iter().rev().copied().find(|&t| t > s);
        let adjacent = next.map(|t| groups[&t].clone()).unwrap_or_default();
        let lead = up.len();
        let (pairs, out) = run_group(r, s, Direction::Up, list, lead, adjacent, notes)?;
        made_below.extend(pairs);
        up = out;
    }
    let residents = groups.get(&median).cloned().unwrap_or_default();
    let median_quarters = quarters && above.len() < 2 && down.is_empty() && up.is_empty();
    if median_quarters && let Some(p) = quarter_pairs(r, &residents) {
        notes.push(group_note(
            r,
            median,
            Direction::Down,
            true,
            true,
            &residents,
        ));
        made_above.extend(made_below);
        made_above.extend(p);
        return Ok(made_above);
    }
    loop {
        down.sort_by_key(|&i| r.key(i));
        up.sort_by_key(|&i| r.key(i));
        let mut list = down.clone();
        list.extend(residents.iter().copied());
        list.extend(up.iter().copied());
        let g = GroupInput {
            list: list.clone(),
            lead: down.len(),
            adjacent: Vec::new(),
            must_complete: true,
        };
        if let Some(outcome) = pair_group(&r.ctx, &g)? {
            notes.push(group_note(r, median, Direction::Down, true, false, &list));
            let mut all = made_above;
            all.extend(made_below);
            all.extend(outcome.pairs);
            return Ok(all);
        }
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
            return Err(DraughtsSwissError::NoLegalPairing {
                present: present.len(),
            });
        };
        notes.push(Explanation::MedianExtended {
            undone: (r.id(a), r.id(b)),
        });
        if from_below {
            up.extend([a, b]);
        } else {
            down.extend([a, b]);
        }
    }
}

fn group_note(
    r: &Round<'_>,
    s: u32,
    direction: Direction,
    median: bool,
    by_quarters: bool,
    list: &[usize],
) -> Explanation {
    Explanation::GroupPaired {
        pairing_score: s,
        direction,
        median,
        by_quarters,
        participants: list.iter().map(|&i| r.id(i)).collect(),
    }
}

fn run_group(
    r: &Round<'_>,
    score: u32,
    direction: Direction,
    list: Vec<usize>,
    lead: usize,
    adjacent: Vec<usize>,
    notes: &mut Vec<Explanation>,
) -> Result<(Pairs, Vec<usize>), DraughtsSwissError> {
    let g = GroupInput {
        list,
        lead,
        adjacent,
        must_complete: false,
    };
    notes.push(group_note(r, score, direction, false, false, &g.list));
    let Some(outcome) = pair_group(&r.ctx, &g)? else {
        return Ok((Vec::new(), g.list));
    };
    for &(i, reason) in &outcome.floaters {
        notes.push(Explanation::Floated {
            participant: r.id(i),
            from_pairing_score: score,
            direction,
            reason,
        });
    }
    Ok((
        outcome.pairs,
        outcome.floaters.into_iter().map(|(i, _)| i).collect(),
    ))
}

/// Colours (art. 7) and board order (best pairing score first, then sum, then better rank).
fn colours_and_order(r: &Round<'_>, pairs: Pairs) -> Vec<Board> {
    let mut boards: Vec<_> = pairs
        .into_iter()
        .map(|(a, b)| {
            let (better, worse) = if r.key(a) <= r.key(b) { (a, b) } else { (b, a) };
            let side = |i: usize| Side {
                id: r.id(i),
                colours: &r.ctx.colours[i],
            };
            let (white, black) = allocate(
                side(better),
                side(worse),
                r.state.initial_order,
                r.state.first_colour,
            );
            let top = r.pairing_score[better].max(r.pairing_score[worse]);
            let sum = u64::from(r.pairing_score[better]) + u64::from(r.pairing_score[worse]);
            (
                (
                    std::cmp::Reverse(top),
                    std::cmp::Reverse(sum),
                    r.key(better),
                ),
                Board { white, black },
            )
        })
        .collect();
    boards.sort_by_key(|b| b.0);
    boards.into_iter().map(|(_, b)| b).collect()
}
