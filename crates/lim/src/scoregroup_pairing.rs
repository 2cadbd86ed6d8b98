//! Pairing one scoregroup: Lim art. 9.3–9.5 (floaters out, proposed pairings), art. 10 (floater
//! selection and the order in which floaters are paired), art. 11 (exchange rules), art. 12.2
//! (second examination for colours) and the maxi-tournament 100-point rule (art. 10.2, 10.8, 12.7).
//!
//! The group is handed over *oriented*: the first player of the list is the one examined first.
//! Pairing downwards that is the highest-placed player (art. 11.1 a); pairing upwards the list is
//! reversed, so the same code examines the lowest-placed player first and exchanges the higher
//! numbers (art. 11.1 b).

use std::cell::Cell;
use std::collections::BTreeSet;

use matching::{PairingOrder, fewest_left_out};
use serde::{Deserialize, Serialize};

use crate::colour_allocation::{colours_allow_game, due_colour};
use crate::error::LimError;
use crate::state::{Colour, FloatDirection, Player};

/// Why a player left his scoregroup (art. 9.3, 11.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum FloatReason {
    /// Art. 9.3 (a)–(c): no compatible opponent at all in the group (all met, or colours).
    NoCompatibleOpponent,
    /// Art. 9.3 (d): needed to make the number of players in the group even.
    MakeEven,
    /// Art. 11.4: the exchanges could not give every remaining player a compatible opponent.
    ExchangesExhausted,
}

/// One line of the short explanation that comes with a pairing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Explanation {
    /// Art. 8.1: this player has the bye.
    Bye {
        /// Pairing number.
        player: u32,
    },
    /// Art. 9.2: a scoregroup was paired, in this direction, with these players (floaters
    /// included, in the order they were examined).
    ScoregroupPaired {
        /// Score of the group, half-points.
        score_half_points: u32,
        /// Down for groups above the median and the median itself, Up below it.
        direction: FloatDirection,
        /// Whether this is the median scoregroup (paired last).
        median: bool,
        /// Pairing numbers in examination order.
        players: Vec<u32>,
    },
    /// Art. 9.3/10: a player was transferred to the adjacent scoregroup.
    Floated {
        /// Pairing number.
        player: u32,
        /// Score of the group he left, half-points.
        from_score_half_points: u32,
        /// Down or up.
        direction: FloatDirection,
        /// Why.
        reason: FloatReason,
    },
    /// Art. 11: the proposed pairing of art. 9.4 was replaced by an exchange.
    Exchanged {
        /// The player being examined.
        player: u32,
        /// Opponent proposed by art. 9.4 (or art. 10.8 for a floater).
        proposed_opponent: u32,
        /// Opponent after the exchanges.
        paired_with: u32,
    },
    /// Art. 12.2: two lower players were exchanged between two pairings for colours.
    ColourExchange {
        /// The pairing before (higher, lower).
        first_before: (u32, u32),
        /// The other pairing before.
        second_before: (u32, u32),
    },
    /// Art. 9.6: the median group could not be paired, so this pairing of an adjacent group was
    /// undone and its players joined the median group.
    MedianExtended {
        /// The undone pairing.
        undone: (u32, u32),
        /// Score of the group it came from, half-points.
        from_score_half_points: u32,
    },
}

/// Shared, read-only view of the round plus the search budget.
pub(crate) struct Ctx<'a> {
    pub players: &'a [Player],
    pub met: BTreeSet<(usize, usize)>,
    pub last_round: bool,
    pub maxi: bool,
    pub steps: Cell<u64>,
    pub budget: u64,
}

impl Ctx<'_> {
    pub fn pn(&self, i: usize) -> u32 {
        self.players[i].pairing_number
    }
    pub fn score(&self, i: usize) -> u32 {
        self.players[i].score_half_points
    }
    fn rating_gap(&self, a: usize, b: usize) -> u32 {
        self.players[a].rating.abs_diff(self.players[b].rating)
    }
    /// Maxi-tournament 100-point rule: outside a maxi-tournament any exchange is allowed.
    fn within_100(&self, a: usize, b: usize) -> bool {
        !self.maxi || self.rating_gap(a, b) <= 100
    }
    fn due(&self, i: usize) -> Option<Colour> {
        due_colour(&self.players[i].colours).map(|d| d.colour)
    }
    /// Art. 9.1: not met before, and a colour allocation inside art. 12.1 exists.
    pub fn compatible(&self, a: usize, b: usize) -> bool {
        a != b
            && !self.met.contains(&(a.min(b), a.max(b)))
            && colours_allow_game(
                &self.players[a].colours,
                &self.players[b].colours,
                self.last_round,
            )
    }
    fn tick(&self) -> Result<(), LimError> {
        let s = self.steps.get() + 1;
        self.steps.set(s);
        if s > self.budget {
            Err(LimError::SearchBudgetExceeded {
                budget: self.budget,
            })
        } else {
            Ok(())
        }
    }
    /// Both players are due the same colour (a colour clash art. 12.2 tries to remove).
    fn clash(&self, a: usize, b: usize) -> bool {
        matches!((self.due(a), self.due(b)), (Some(x), Some(y)) if x == y)
    }
}

/// A scoregroup ready to be paired.
pub(crate) struct GroupInput {
    /// Oriented list: the first player is examined first.
    pub list: Vec<usize>,
    /// The first `lead_floaters` players are floaters paired first (art. 10.6/10.7) with the
    /// opponent chosen by art. 10.8.
    pub lead_floaters: usize,
    /// Every floater that came into this group (art. 10.9 types a/b).
    pub incoming: BTreeSet<usize>,
    /// Residents of the adjacent group a floater would go to (art. 10.3/10.4/10.9); empty for the
    /// median group.
    pub adjacent: Vec<usize>,
    /// The median group must be paired completely (art. 9.6 handles failure).
    pub must_complete: bool,
}

/// The result of pairing one scoregroup.
pub(crate) struct GroupOutcome {
    /// Pairs, the player examined first on the left.
    pub pairs: Vec<(usize, usize)>,
    /// Players transferred out, with the reason.
    pub floaters: Vec<(usize, FloatReason)>,
    /// Exchanges made (art. 11, 12.2).
    pub notes: Vec<Explanation>,
}

/// Art. 11.2/11.3 order of opponents for the first player of `rest`.
///
/// A leading floater (art. 10.8) takes the highest available resident due the other colour
/// (in a maxi-tournament only if that resident is within 100 points of the first resident),
/// then the other residents in order, then the other floaters. A resident takes the players of
/// the lower half in order and then those of the upper half from the bottom up:
/// for 1..6 that is 4, 5, 6, 3, 2, exactly the columns of art. 11.2.
fn candidates(ctx: &Ctx<'_>, rest: &[usize], lead: usize) -> Vec<usize> {
    let top = rest[0];
    if lead > 0 {
        let residents = &rest[lead.min(rest.len())..];
        let other_floaters = &rest[1..lead.min(rest.len())];
        let wants = ctx.due(top).map(Colour::opposite);
        let first = residents.first().copied();
        let preferred = |r: usize| match (wants, ctx.due(r)) {
            (Some(w), Some(d)) => d == w && first.is_none_or(|f| ctx.within_100(f, r)),
            _ => false,
        };
        let mut out: Vec<usize> = residents
            .iter()
            .copied()
            .filter(|&r| preferred(r))
            .collect();
        out.extend(residents.iter().copied().filter(|&r| !preferred(r)));
        out.extend(other_floaters.iter().copied());
        out
    } else {
        let half = rest.len() / 2;
        let mut out: Vec<usize> = rest[half.max(1)..].to_vec();
        out.extend(rest[1..half.max(1)].iter().rev().copied());
        out
    }
}

/// The exchanges of art. 11 as the rules of the shared search (`matching::ordered_search`): the
/// first player of the list takes his opponents in the order of [`candidates`], passing over
/// an exchange after which the others cannot all be paired; the first complete pairing found
/// is the one the exchange rules produce.
struct Exchanges<'c, 'a> {
    ctx: &'c Ctx<'a>,
    /// The floaters paired first (art. 10.6/10.7): those still in a list lead it.
    leaders: &'c [usize],
}

impl Exchanges<'_, '_> {
    /// How many floaters paired first lead `rest`.
    fn lead(&self, rest: &[usize]) -> usize {
        rest.iter().take_while(|x| self.leaders.contains(x)).count()
    }
}

impl PairingOrder for Exchanges<'_, '_> {
    type Error = LimError;
    fn may_meet(&self, a: usize, b: usize) -> bool {
        self.ctx.compatible(a, b)
    }
    fn opponents(&self, rest: &[usize]) -> Vec<usize> {
        candidates(self.ctx, rest, self.lead(rest))
    }
    fn step(&mut self) -> Result<(), LimError> {
        self.ctx.tick()
    }
}

/// Art. 10.2, 10.9, 10.10: the order in which players are proposed as floaters.
///
/// Sort keys, most important first: (1) art. 10.9 type — a resident with a compatible opponent in
/// the adjacent group (d) before one without (c), before an incoming floater with one (b), before
/// one without (a); (2) art. 10.10 — not having floated in the previous round; (3) art. 10.2 —
/// belonging to the colour that is in the majority among the group's due colours (in a
/// maxi-tournament only within 100 points of the default floater); (4) position from the end of
/// the list (the lowest-placed player when pairing down, the highest-placed when pairing up).
fn floater_preference(ctx: &Ctx<'_>, g: &GroupInput) -> Vec<usize> {
    let base: Vec<usize> = g.list.iter().rev().copied().collect();
    let Some(&default) = base.first() else {
        return base;
    };
    let (w, b) = g
        .list
        .iter()
        .fold((0usize, 0usize), |(w, b), &i| match ctx.due(i) {
            Some(Colour::White) => (w + 1, b),
            Some(Colour::Black) => (w, b + 1),
            None => (w, b),
        });
    let majority = match w.cmp(&b) {
        std::cmp::Ordering::Greater => Some(Colour::White),
        std::cmp::Ordering::Less => Some(Colour::Black),
        std::cmp::Ordering::Equal => None,
    };
    let mut keyed: Vec<(FloaterKey, usize)> = base
        .iter()
        .enumerate()
        .map(|(pos, &i)| {
            let no_adjacent =
                !g.adjacent.is_empty() && !g.adjacent.iter().any(|&a| ctx.compatible(i, a));
            let floated = ctx.players[i].floated_last_round.is_some();
            let colour_ok = match majority {
                None => true,
                Some(m) => ctx.due(i) == Some(m) && ctx.within_100(i, default),
            };
            (
                (
                    g.incoming.contains(&i),
                    no_adjacent,
                    floated,
                    !colour_ok,
                    pos,
                ),
                i,
            )
        })
        .collect();
    keyed.sort();
    keyed.into_iter().map(|(_, i)| i).collect()
}

/// Sort key of a proposed floater (see [`floater_preference`]).
type FloaterKey = (bool, bool, bool, bool, usize);

/// Pairs one scoregroup (art. 9.3–9.5, 10, 11, 12.2). Returns `None` only for a median group
/// (`must_complete`) that cannot be paired completely (art. 9.6 takes over).
pub(crate) fn pair_scoregroup(
    ctx: &Ctx<'_>,
    g: &GroupInput,
) -> Result<Option<GroupOutcome>, LimError> {
    let preference = floater_preference(ctx, g);
    let mut exchanges = Exchanges {
        ctx,
        leaders: &g.list[..g.lead_floaters.min(g.list.len())],
    };
    // The fewest floaters possible, the first set of them in the order of art. 10 after which
    // the exchanges of art. 11 pair the rest.
    let Some(found) = fewest_left_out(&mut exchanges, &g.list, &preference, g.must_complete)?
    else {
        return Ok(None);
    };
    let mut floaters: Vec<(usize, FloatReason)> = found
        .unpairable
        .iter()
        .map(|&i| (i, FloatReason::NoCompatibleOpponent))
        .collect();
    // The default choice (first subset of the preference order at the minimum count) is a
    // 9.3 (d) float; anything else was forced by failed exchanges (art. 11.4).
    let extra_reason = if found.first_choice {
        FloatReason::MakeEven
    } else {
        FloatReason::ExchangesExhausted
    };
    floaters.extend(found.left_out.iter().map(|&i| (i, extra_reason)));
    let mut notes = exchange_notes(ctx, g, &found.pairs, &exchanges);
    let pairs = colour_exchanges(ctx, found.pairs, &mut notes);
    Ok(Some(GroupOutcome {
        pairs,
        floaters,
        notes,
    }))
}

/// Replays the found pairing to report every place where art. 11 moved away from the
/// art. 9.4 / 10.8 proposal.
fn exchange_notes(
    ctx: &Ctx<'_>,
    g: &GroupInput,
    pairs: &[(usize, usize)],
    exchanges: &Exchanges<'_, '_>,
) -> Vec<Explanation> {
    let paired: BTreeSet<usize> = pairs.iter().flat_map(|&(a, b)| [a, b]).collect();
    let mut rest: Vec<usize> = g
        .list
        .iter()
        .copied()
        .filter(|i| paired.contains(i))
        .collect();
    let mut notes = Vec::new();
    for &(a, b) in pairs {
        if rest.first() == Some(&a)
            && let Some(&proposed) = exchanges.opponents(&rest).first()
            && proposed != b
        {
            notes.push(Explanation::Exchanged {
                player: ctx.pn(a),
                proposed_opponent: ctx.pn(proposed),
                paired_with: ctx.pn(b),
            });
        }
        rest.retain(|&x| x != a && x != b);
    }
    notes
}

/// Art. 12.2 second examination: where both players of a pairing are due the same colour, the
/// lower player is exchanged with the lower player of a later pairing if both new pairings are
/// compatible, the number of colour clashes drops, and (maxi-tournament, art. 12.7) the two
/// exchanged players are within 100 points.
fn colour_exchanges(
    ctx: &Ctx<'_>,
    mut pairs: Vec<(usize, usize)>,
    notes: &mut Vec<Explanation>,
) -> Vec<(usize, usize)> {
    for k in 0..pairs.len() {
        let (a, b) = pairs[k];
        if !ctx.clash(a, b) {
            continue;
        }
        for l in k + 1..pairs.len() {
            let (c, d) = pairs[l];
            let before = usize::from(ctx.clash(a, b)) + usize::from(ctx.clash(c, d));
            let after = usize::from(ctx.clash(a, d)) + usize::from(ctx.clash(c, b));
            if after < before
                && ctx.compatible(a, d)
                && ctx.compatible(c, b)
                && ctx.within_100(b, d)
            {
                notes.push(Explanation::ColourExchange {
                    first_before: (ctx.pn(a), ctx.pn(b)),
                    second_before: (ctx.pn(c), ctx.pn(d)),
                });
                pairs[k] = (a, d);
                pairs[l] = (c, b);
                break;
            }
        }
    }
    pairs
}
