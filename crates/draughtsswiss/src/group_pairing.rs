//! Pairing one score group: Annex V art. 6.1.7–6.1.32 (initial list by ranking) and 6.2.2–6.2.3
//! (initial list by lot).
//!
//! The group is handed over *oriented*: the first participant is paired first. For the median
//! group and the groups above it that is the best-ranked (6.1.16); below the median the list is
//! reversed so the weakest is paired first and every rule applies "in reverse" (6.1.18, 6.1.26).

use std::cell::Cell;
use std::collections::BTreeSet;

use matching::{PairingOrder, fewest_left_out};
use serde::{Deserialize, Serialize};

use crate::error::DraughtsSwissError;
use crate::state::{Colour, InitialOrder};

/// Why a participant left his score group.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum FloatReason {
    /// Art. 6.1.27/6.1.28: he has met everybody in his group (or colours forbid every game).
    MetWholeGroup,
    /// Art. 6.1.7/6.1.11/6.2.3: the group has an odd number of participants.
    OddGroup,
    /// Art. 6.1.8/6.1.12/6.1.32: the group could not be paired completely otherwise.
    GroupInsoluble,
}

/// Read-only view of the round plus the search budget.
pub(crate) struct Ctx {
    /// Played colours of each participant (by index).
    pub colours: Vec<Vec<Colour>>,
    pub met: BTreeSet<(usize, usize)>,
    pub order: InitialOrder,
    /// Art. 7.2.2: lot-drawn event pairing after an odd round: split groups into B and N.
    pub split_by_colour: bool,
    pub steps: Cell<u64>,
    pub budget: u64,
}

/// Whites minus Blacks.
fn colour_balance(colours: &[Colour]) -> i64 {
    colours
        .iter()
        .map(|c| if *c == Colour::White { 1 } else { -1 })
        .sum()
}

/// Would `colour` give this history the same colour three times in a row (art. 7.1.6)?
#[must_use]
pub fn third_in_a_row(colours: &[Colour], colour: Colour) -> bool {
    let n = colours.len();
    n >= 2 && colours[n - 1] == colour && colours[n - 2] == colour
}

impl Ctx {
    /// Art. 2.3 (never twice the same opponent) and art. 7.1.6 (a colour allocation without a
    /// third colour in a row exists, ADR draughtsswiss-002).
    pub fn compatible(&self, a: usize, b: usize) -> bool {
        a != b
            && !self.met.contains(&(a.min(b), a.max(b)))
            && [Colour::White, Colour::Black].into_iter().any(|c| {
                !third_in_a_row(&self.colours[a], c)
                    && !third_in_a_row(&self.colours[b], c.opposite())
            })
    }
    fn tick(&self) -> Result<(), DraughtsSwissError> {
        let s = self.steps.get() + 1;
        self.steps.set(s);
        if s > self.budget {
            Err(DraughtsSwissError::SearchBudgetExceeded {
                budget: self.budget,
            })
        } else {
            Ok(())
        }
    }
}

/// A score group ready to be paired.
pub(crate) struct GroupInput {
    /// Oriented list (first = paired first).
    pub list: Vec<usize>,
    /// The first `lead` participants came from another group and are paired first, with the
    /// best-placed participant of this group they have not met (6.1.7, 6.1.11, 6.2.3).
    pub lead: usize,
    /// Residents of the group a floater would go to (6.1.9, 6.1.13); empty for the last group.
    pub adjacent: Vec<usize>,
    /// Must be paired completely (the median group, or the last group).
    pub must_complete: bool,
}

/// Result of pairing one group.
pub(crate) struct GroupOutcome {
    pub pairs: Vec<(usize, usize)>,
    pub floaters: Vec<(usize, FloatReason)>,
}

/// Order of opponents tried for the first participant of `rest`.
///
/// - A leading floater: the residents in order, then the other floaters.
/// - Initial list by ranking (6.1.19–6.1.25): with 2N left, N+1, N+2, …, 2N, then N, N−1, …, 2.
/// - Initial list by lot (6.2.2): the best meets the worst: 2N, 2N−1, …, 2; after an odd round
///   (7.2.2) those of the other colour sub-group (B: more Whites, N: more Blacks) first.
fn candidates(ctx: &Ctx, rest: &[usize], lead: usize) -> Vec<usize> {
    if lead > 0 {
        let lead = lead.min(rest.len());
        let mut out = rest[lead..].to_vec();
        out.extend_from_slice(&rest[1..lead]);
        return out;
    }
    match ctx.order {
        InitialOrder::RankingList => {
            let half = (rest.len() / 2).max(1);
            let mut out = rest[half..].to_vec();
            out.extend(rest[1..half].iter().rev().copied());
            out
        }
        InitialOrder::DrawnLots => {
            let from_worst = rest[1..].iter().rev().copied();
            if !ctx.split_by_colour {
                return from_worst.collect();
            }
            // 7.2.2: after odd rounds, the B sub-group (more Whites) plays the N sub-group
            // (more Blacks): opponents of the other sub-group (or of neither) first.
            let side = |i: usize| colour_balance(&ctx.colours[i]).signum();
            let me = side(rest[0]);
            let (other, same): (Vec<usize>, Vec<usize>) =
                from_worst.partition(|&c| me == 0 || side(c) != me);
            other.into_iter().chain(same).collect()
        }
    }
}

/// The pairing order of Annex V as the rules of the shared search (`matching::ordered_search`):
/// the first participant of the list takes his opponents in the order of [`candidates`],
/// passing over a choice after which the others cannot all be paired.
struct GroupOrder<'c> {
    ctx: &'c Ctx,
    /// The participants who came from another group (paired first): those still in a list
    /// lead it.
    incoming: &'c BTreeSet<usize>,
}

impl PairingOrder for GroupOrder<'_> {
    type Error = DraughtsSwissError;
    fn may_meet(&self, a: usize, b: usize) -> bool {
        self.ctx.compatible(a, b)
    }
    fn opponents(&self, rest: &[usize]) -> Vec<usize> {
        let lead = rest
            .iter()
            .take_while(|x| self.incoming.contains(x))
            .count();
        candidates(self.ctx, rest, lead)
    }
    fn step(&mut self) -> Result<(), DraughtsSwissError> {
        self.ctx.tick()
    }
}

/// Pairs one group with the fewest floaters (6.1.32). The floaters are taken from the end of the
/// oriented list (the lowest-ranked above the median, 6.1.7; the best-ranked below, 6.1.11),
/// passing over those who have met everybody in the adjacent group (6.1.9, 6.1.13) and those who
/// came in as floaters, and moving up when the rest cannot be paired (6.1.8, 6.1.12).
/// Returns `None` only for a `must_complete` group that cannot be paired completely.
pub(crate) fn pair_group(
    ctx: &Ctx,
    g: &GroupInput,
) -> Result<Option<GroupOutcome>, DraughtsSwissError> {
    let incoming: BTreeSet<usize> = g.list[..g.lead.min(g.list.len())].iter().copied().collect();
    let mut keyed: Vec<((bool, bool, usize), usize)> = g
        .list
        .iter()
        .rev()
        .enumerate()
        .map(|(pos, &i)| {
            let no_adjacent =
                !g.adjacent.is_empty() && !g.adjacent.iter().any(|&a| ctx.compatible(i, a));
            ((incoming.contains(&i), no_adjacent, pos), i)
        })
        .collect();
    keyed.sort();
    let preference: Vec<usize> = keyed.into_iter().map(|(_, i)| i).collect();
    let mut order = GroupOrder {
        ctx,
        incoming: &incoming,
    };
    let Some(found) = fewest_left_out(&mut order, &g.list, &preference, g.must_complete)? else {
        return Ok(None);
    };
    let reason = if found.first_choice {
        FloatReason::OddGroup
    } else {
        FloatReason::GroupInsoluble
    };
    let mut floaters: Vec<(usize, FloatReason)> = found
        .unpairable
        .iter()
        .map(|&i| (i, FloatReason::MetWholeGroup))
        .collect();
    floaters.extend(found.left_out.iter().map(|&i| (i, reason)));
    Ok(Some(GroupOutcome {
        pairs: found.pairs,
        floaters,
    }))
}

/// Art. 6.1.25: every way to pair a group of `n` participants (numbered 1..=n in group order),
/// in the order of priority in which they are tried. For six participants this is the seed's
/// list of fifteen. Empty for odd `n`; `n` above 12 is refused (`None`) as the list explodes.
#[must_use]
pub fn pairings_in_priority_order(n: u32) -> Option<Vec<Vec<(u32, u32)>>> {
    if n > 12 {
        return None;
    }
    if n % 2 == 1 {
        return Some(Vec::new());
    }
    fn rec(rest: &[u32], prefix: &mut Vec<(u32, u32)>, out: &mut Vec<Vec<(u32, u32)>>) {
        let Some(&top) = rest.first() else {
            out.push(prefix.clone());
            return;
        };
        let half = (rest.len() / 2).max(1);
        let mut cands = rest[half..].to_vec();
        cands.extend(rest[1..half].iter().rev().copied());
        for c in cands {
            let next: Vec<u32> = rest
                .iter()
                .copied()
                .filter(|&x| x != top && x != c)
                .collect();
            prefix.push((top, c));
            rec(&next, prefix, out);
            prefix.pop();
        }
    }
    let all: Vec<u32> = (1..=n).collect();
    let mut out = Vec::new();
    rec(&all, &mut Vec::new(), &mut out);
    Some(out)
}
