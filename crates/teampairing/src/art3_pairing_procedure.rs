//! C.04.6 Article 3, the pairing procedure: the PAB first (3.4), then the top-scoregroup with a
//! set of upfloaters (3.5) as a bracket, paired by the first pairing in identifier order that
//! complies with the criteria (3.6), until all teams are paired; then the colours (Article 4).

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use crate::art1_definitions::{
    Points, Preference, PreferenceType, PrimaryScore, TeamState, colour_preference,
};
use crate::art2_criteria::{PairCost, colour_cost, colour_cost_lower_bound};
use crate::art4_colour_allocation::{ColourRule, ColourSettings, first_team_colour, is_first_team};
use crate::board_colours_352::{Board, BoardColourSequence, Colour, boards_of_match};
use crate::{Edition, TeamPairingError};

/// Most teams paired (ADR teampairing-002).
pub const MAX_TEAMS: usize = 200;
/// Most steps of the search of one bracket (ADR teampairing-002).
pub const SEARCH_STEP_LIMIT: u64 = 2_000_000;
/// Most upfloater sets examined for one bracket (ADR teampairing-002).
pub const UPFLOATER_SET_LIMIT: u64 = 200_000;

/// The competition's settings for C.04.6.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SwissTeamSettings {
    pub edition: Edition,
    /// 1.2 primary score (match points by default).
    pub primary: PrimaryScore,
    /// 4.2.2: use the secondary score to choose the first-team.
    pub use_secondary: bool,
    /// 1.7 preferences (Type A by default).
    pub preferences: PreferenceType,
    /// 4.1 the initial-colour drawn by lot.
    pub initial_colour: Colour,
    /// The announced number of rounds ([C7], [C10] and 1.7.2 need the last rounds).
    pub rounds: u32,
    /// Record 352, the board colours of the team named first (the team with `sequence[0]` on board 1).
    pub boards: BoardColourSequence,
}

/// One match of a Swiss team round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SwissMatch {
    /// Table number, 1-based.
    pub table: u32,
    /// The team whose first board has White (its team colour is White, 1.6.1).
    pub white: u32,
    /// The team whose first board has Black.
    pub black: u32,
    /// The first-team of 4.2.
    pub first_team: u32,
    /// The rule of 4.3 that gave the colours.
    pub colour_rule: ColourRule,
    /// Whether the two teams had different scores (1.5: both are floaters).
    pub floaters: bool,
    /// Every board with the team that has White.
    pub boards: Vec<Board>,
}

/// A paired round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SwissTeamRound {
    pub round: u32,
    pub matches: Vec<SwissMatch>,
    /// The team given the pairing-allocated bye (3.4), if the number of teams is odd.
    pub pab: Option<u32>,
}

struct Ctx<'a> {
    teams: &'a [TeamState],
    score: Vec<Points>,
    met: Vec<BTreeSet<usize>>,
    prefs: Vec<Preference>,
    floated: Vec<bool>,
    kind: PreferenceType,
    late: bool,
}

impl Ctx<'_> {
    fn legal(&self, a: usize, b: usize) -> bool {
        a != b && !self.met[a].contains(&b)
    }
    fn matchable(&self, list: &[usize]) -> bool {
        matching::perfectly_matchable(list, &|a, b| self.legal(a, b))
    }
}

/// Pairs round `round` (1-based) of a Swiss team tournament under C.04.6.
///
/// `teams`: the teams to pair this round (absent teams left out), each with its history.
///
/// # Errors
/// [`TeamPairingError`] for a bad state, more than [`MAX_TEAMS`] teams, no legal pairing (3.3.3),
/// or a search beyond its limits.
pub fn pair_round(
    settings: &SwissTeamSettings,
    round: u32,
    teams: &[TeamState],
) -> Result<SwissTeamRound, TeamPairingError> {
    if teams.len() > MAX_TEAMS {
        return Err(TeamPairingError::TooManyTeams {
            teams: teams.len(),
            limit: MAX_TEAMS,
        });
    }
    if round == 0 || round > settings.rounds {
        return Err(TeamPairingError::RoundOutOfRange {
            round,
            rounds: settings.rounds,
        });
    }
    let mut order: Vec<usize> = (0..teams.len()).collect();
    order.sort_by_key(|&i| teams[i].tpn);
    let mut seen = BTreeSet::new();
    for t in teams {
        if t.tpn == 0 {
            return Err(TeamPairingError::ZeroTpn);
        }
        if !seen.insert(t.tpn) {
            return Err(TeamPairingError::DuplicateTpn(t.tpn));
        }
    }
    let sorted: Vec<TeamState> = order.iter().map(|&i| teams[i].clone()).collect();
    let index_of = |tpn: u32| sorted.iter().position(|t| t.tpn == tpn);
    let mut met = vec![BTreeSet::new(); sorted.len()];
    for (i, t) in sorted.iter().enumerate() {
        for o in t.opponents() {
            // Opponents not in this round's field (withdrawn) cannot be met again anyway.
            if let Some(j) = index_of(o) {
                met[i].insert(j);
                met[j].insert(i);
            }
        }
    }
    let last_round = round == settings.rounds;
    let ctx = Ctx {
        teams: &sorted,
        score: sorted.iter().map(|t| t.primary(settings.primary)).collect(),
        met,
        prefs: sorted
            .iter()
            .map(|t| colour_preference(t, settings.preferences, last_round))
            .collect(),
        floated: sorted.iter().map(TeamState::floated_last_round).collect(),
        kind: settings.preferences,
        late: round + 2 > settings.rounds,
    };
    let n = sorted.len();
    let mut rest: Vec<usize> = (0..n).collect();
    let no_pairing = TeamPairingError::NoLegalPairing { round };
    // 3.4 the PAB.
    let mut pab = None;
    if n % 2 == 1 {
        let mut cands: Vec<usize> = (0..n).filter(|&i| !sorted[i].pab_barred()).collect();
        cands.sort_by_key(|&i| {
            (
                ctx.score[i],
                std::cmp::Reverse(sorted[i].matches_played()),
                std::cmp::Reverse(sorted[i].tpn),
            )
        });
        for c in cands {
            let others: Vec<usize> = rest.iter().copied().filter(|&i| i != c).collect();
            if ctx.matchable(&others) {
                pab = Some(c);
                rest = others;
                break;
            }
        }
        if pab.is_none() {
            return Err(no_pairing);
        }
    } else if !ctx.matchable(&rest) {
        return Err(no_pairing);
    }
    // 3.3.2 brackets until complete.
    let mut pairs: Vec<(usize, usize, Vec<usize>)> = Vec::new();
    while !rest.is_empty() {
        let top = rest.iter().map(|&i| ctx.score[i]).max().unwrap_or_default();
        let group: Vec<usize> = rest
            .iter()
            .copied()
            .filter(|&i| ctx.score[i] == top)
            .collect();
        let potential: Vec<usize> = rest
            .iter()
            .copied()
            .filter(|&i| ctx.score[i] < top)
            .collect();
        let ups =
            choose_upfloaters(&ctx, &group, &potential, &rest).ok_or(no_pairing.clone())??;
        let mut bracket: Vec<usize> = group.iter().chain(ups.iter()).copied().collect();
        bracket.sort_unstable();
        let paired = pair_bracket(&ctx, &bracket, &ups)?.ok_or(no_pairing.clone())?;
        for (a, b) in paired {
            pairs.push((a, b, ups.clone()));
        }
        rest.retain(|i| !bracket.contains(i));
    }
    // Article 4 and the table order (ADR teampairing-002).
    let cs = ColourSettings {
        initial_colour: settings.initial_colour,
        primary: settings.primary,
        use_secondary: settings.use_secondary,
        preferences: settings.preferences,
    };
    let mut matches: Vec<SwissMatch> = pairs
        .into_iter()
        .map(|(a, b, _)| {
            let (f, o) = if is_first_team(&sorted[a], &sorted[b], &cs) {
                (a, b)
            } else {
                (b, a)
            };
            let (c, rule) =
                first_team_colour(&sorted[f], &sorted[o], ctx.prefs[f], ctx.prefs[o], &cs);
            let (w, bl) = if c == Colour::White { (f, o) } else { (o, f) };
            let (wt, bt) = (sorted[w].tpn, sorted[bl].tpn);
            let seq = &settings.boards;
            let boards = if seq.colours()[0] == Colour::White {
                boards_of_match(wt, bt, seq.colours())
            } else {
                boards_of_match(bt, wt, seq.colours())
            };
            SwissMatch {
                table: 0,
                white: wt,
                black: bt,
                first_team: sorted[f].tpn,
                colour_rule: rule,
                floaters: ctx.score[a] != ctx.score[b],
                boards,
            }
        })
        .collect();
    let key = |m: &SwissMatch| {
        let s = |tpn: u32| {
            sorted
                .iter()
                .find(|t| t.tpn == tpn)
                .map(|t| t.primary(settings.primary))
                .unwrap_or_default()
        };
        let (hi, lo) = (s(m.white).max(s(m.black)), s(m.white).min(s(m.black)));
        (
            std::cmp::Reverse(hi),
            std::cmp::Reverse(lo),
            m.white.min(m.black),
        )
    };
    matches.sort_by_key(key);
    for (m, t) in matches.iter_mut().zip(1u32..) {
        m.table = t;
    }
    Ok(SwissTeamRound {
        round,
        matches,
        pab: pab.map(|i| sorted[i].tpn),
    })
}

fn combinations(n: usize, k: usize, mut f: impl FnMut(&[usize])) {
    let mut idx: Vec<usize> = (0..k).collect();
    if k > n {
        return;
    }
    loop {
        f(&idx);
        let mut i = k;
        loop {
            if i == 0 {
                return;
            }
            i -= 1;
            if idx[i] != i + n - k {
                break;
            }
        }
        idx[i] += 1;
        for j in i + 1..k {
            idx[j] = idx[j - 1] + 1;
        }
    }
}

/// Whether `group` with `ups` can be paired and the others left after it too ([C1], [C3]).
fn legal_set(ctx: &Ctx, group: &[usize], ups: &[usize], rest: &[usize]) -> bool {
    let bracket: Vec<usize> = group.iter().chain(ups).copied().collect();
    let others: Vec<usize> = rest
        .iter()
        .copied()
        .filter(|i| !bracket.contains(i))
        .collect();
    ctx.matchable(&bracket) && ctx.matchable(&others)
}

/// Minimal number of upfloaters of the bracket of the top-scoregroup of `rest` ([C4] as [C6]
/// needs it), or `None` when none works.
fn min_upfloaters(ctx: &Ctx, rest: &[usize]) -> Option<usize> {
    let top = rest.iter().map(|&i| ctx.score[i]).max()?;
    let group: Vec<usize> = rest
        .iter()
        .copied()
        .filter(|&i| ctx.score[i] == top)
        .collect();
    let potential: Vec<usize> = rest
        .iter()
        .copied()
        .filter(|&i| ctx.score[i] < top)
        .collect();
    let mut k = group.len() % 2;
    let mut budget = UPFLOATER_SET_LIMIT;
    while k <= potential.len() {
        let mut found = false;
        combinations(potential.len(), k, |c| {
            if found || budget == 0 {
                return;
            }
            budget -= 1;
            let ups: Vec<usize> = c.iter().map(|&i| potential[i]).collect();
            found = legal_set(ctx, &group, &ups, rest);
        });
        if found {
            return Some(k);
        }
        k += 2;
    }
    None
}

/// 3.5: the upfloaters of the bracket of `group` ([C4], [C5], [C6], [C7], then 3.5.3/3.5.4 order).
#[allow(clippy::type_complexity)]
fn choose_upfloaters(
    ctx: &Ctx,
    group: &[usize],
    potential: &[usize],
    rest: &[usize],
) -> Option<Result<Vec<usize>, TeamPairingError>> {
    let mut k = group.len() % 2;
    while k <= potential.len() {
        let mut count = 0u64;
        let mut legal: Vec<Vec<usize>> = Vec::new();
        combinations(potential.len(), k, |c| {
            count += 1;
            if count > UPFLOATER_SET_LIMIT {
                return;
            }
            let ups: Vec<usize> = c.iter().map(|&i| potential[i]).collect();
            if legal_set(ctx, group, &ups, rest) {
                legal.push(ups);
            }
        });
        if count > UPFLOATER_SET_LIMIT {
            return Some(Err(TeamPairingError::SearchLimit {
                teams: group.len() + potential.len(),
                limit: UPFLOATER_SET_LIMIT,
            }));
        }
        if !legal.is_empty() {
            // [C5] the upfloaters' scores in ascending order, the highest profile.
            let profile = |u: &Vec<usize>| {
                let mut s: Vec<Points> = u.iter().map(|&i| ctx.score[i]).collect();
                s.sort_unstable();
                s
            };
            let best = legal.iter().map(profile).max()?;
            legal.retain(|u| profile(u) == best);
            // [C6] unless the next scoregroup is emptied: fewest upfloaters in the next bracket.
            let c6 = |u: &Vec<usize>| {
                let after: Vec<usize> = rest
                    .iter()
                    .copied()
                    .filter(|i| !group.contains(i) && !u.contains(i))
                    .collect();
                let next = after.iter().map(|&i| ctx.score[i]).max();
                let next_group_left = potential
                    .iter()
                    .any(|&i| Some(ctx.score[i]) == next && !u.contains(&i));
                if after.is_empty() || !next_group_left {
                    0
                } else {
                    min_upfloaters(ctx, &after).unwrap_or(usize::MAX)
                }
            };
            if legal.len() > 1 {
                let best6 = legal.iter().map(c6).min()?;
                legal.retain(|u| c6(u) == best6);
            }
            // [C7] except in the last two rounds.
            if !ctx.late {
                let c7 = |u: &Vec<usize>| u.iter().filter(|&&i| ctx.floated[i]).count();
                let best7 = legal.iter().map(c7).min()?;
                legal.retain(|u| c7(u) == best7);
            }
            // 3.5.3 / 3.5.4: each set by descending score then ascending TPN; sets in lexicographic order.
            let ident = |u: &Vec<usize>| {
                let mut v = u.clone();
                v.sort_by_key(|&i| (std::cmp::Reverse(ctx.score[i]), ctx.teams[i].tpn));
                v.iter().map(|&i| ctx.teams[i].tpn).collect::<Vec<u32>>()
            };
            return legal.into_iter().min_by_key(ident).map(Ok);
        }
        k += 2;
    }
    None
}

/// 3.6: the first pairing of `bracket` (indices sorted by TPN) in identifier order with the least
/// [C8], [C9], [C10] cost; `ups` are the bracket's upfloaters.
fn pair_bracket(
    ctx: &Ctx,
    bracket: &[usize],
    ups: &[usize],
) -> Result<Option<Vec<(usize, usize)>>, TeamPairingError> {
    let prefs: Vec<Preference> = bracket.iter().map(|&i| ctx.prefs[i]).collect();
    let floor = colour_cost_lower_bound(&prefs, ctx.kind);
    let mut s = Search {
        ctx,
        bracket,
        ups,
        best: None,
        floor,
        steps: 0,
        tops: Vec::new(),
        done: false,
    };
    s.choose_tops(0, 0)?;
    Ok(s.best.map(|(_, p)| p))
}

struct Search<'a> {
    ctx: &'a Ctx<'a>,
    bracket: &'a [usize],
    ups: &'a [usize],
    best: Option<(PairCost, Vec<(usize, usize)>)>,
    floor: PairCost,
    steps: u64,
    tops: Vec<usize>,
    done: bool,
}

impl Search<'_> {
    fn step(&mut self) -> Result<(), TeamPairingError> {
        self.steps += 1;
        if self.steps > SEARCH_STEP_LIMIT {
            return Err(TeamPairingError::SearchLimit {
                teams: self.bracket.len(),
                limit: SEARCH_STEP_LIMIT,
            });
        }
        Ok(())
    }

    /// Phase 1: the top members (positions in the bracket) in lexicographic order; a prefix is
    /// kept only while every position so far has at least as many tops as bottoms before it.
    fn choose_tops(&mut self, pos: usize, chosen: usize) -> Result<(), TeamPairingError> {
        if self.done {
            return Ok(());
        }
        self.step()?;
        let half = self.bracket.len() / 2;
        if chosen == half {
            let tops = self.tops.clone();
            let bottoms: Vec<usize> = (0..self.bracket.len())
                .filter(|p| !tops.contains(p))
                .collect();
            let mut used = vec![false; bottoms.len()];
            let mut pairs = Vec::new();
            return self.assign(&tops, &bottoms, &mut used, &mut pairs, PairCost::default());
        }
        for p in pos..self.bracket.len() {
            // Ballot condition: positions before p not chosen become bottoms.
            let bottoms_before = p - chosen;
            if bottoms_before > chosen {
                break;
            }
            if self.bracket.len() - p < half - chosen {
                break;
            }
            self.tops.push(p);
            self.choose_tops(p + 1, chosen + 1)?;
            self.tops.pop();
            if self.done {
                return Ok(());
            }
        }
        Ok(())
    }

    fn pair_cost(&self, a: usize, b: usize) -> PairCost {
        let c = self.ctx;
        let mut cost = colour_cost(c.prefs[a], c.prefs[b], c.kind);
        if !c.late {
            cost.c10 = u32::from(self.ups.contains(&a) && c.floated[b])
                + u32::from(self.ups.contains(&b) && c.floated[a]);
        }
        cost
    }

    fn assign(
        &mut self,
        tops: &[usize],
        bottoms: &[usize],
        used: &mut Vec<bool>,
        pairs: &mut Vec<(usize, usize)>,
        cost: PairCost,
    ) -> Result<(), TeamPairingError> {
        self.step()?;
        let i = pairs.len();
        if i == tops.len() {
            if self.best.as_ref().is_none_or(|(b, _)| cost < *b) {
                self.best = Some((cost, pairs.clone()));
                if cost <= self.floor {
                    self.done = true;
                }
            }
            return Ok(());
        }
        // Completability of the rest (tops from i on with the unused bottoms).
        let left: Vec<usize> = tops[i..]
            .iter()
            .copied()
            .chain(
                bottoms
                    .iter()
                    .enumerate()
                    .filter(|(k, _)| !used[*k])
                    .map(|(_, &b)| b),
            )
            .collect();
        let top_set: BTreeSet<usize> = tops[i..].iter().copied().collect();
        let ok = matching::perfectly_matchable(&left, &|x, y| {
            let (t, b) = if top_set.contains(&x) { (x, y) } else { (y, x) };
            top_set.contains(&t)
                && !top_set.contains(&b)
                && b > t
                && self.ctx.legal(self.bracket[t], self.bracket[b])
        });
        if !ok {
            return Ok(());
        }
        let rem: Vec<Preference> = left
            .iter()
            .map(|&p| self.ctx.prefs[self.bracket[p]])
            .collect();
        let lb = cost + colour_cost_lower_bound(&rem, self.ctx.kind);
        if self.best.as_ref().is_some_and(|(b, _)| lb >= *b) {
            return Ok(());
        }
        let t = tops[i];
        for k in 0..bottoms.len() {
            let b = bottoms[k];
            if used[k] || b < t || !self.ctx.legal(self.bracket[t], self.bracket[b]) {
                continue;
            }
            used[k] = true;
            let (ta, tb) = (self.bracket[t], self.bracket[b]);
            pairs.push((ta, tb));
            let c = cost + self.pair_cost(ta, tb);
            self.assign(tops, bottoms, used, pairs, c)?;
            pairs.pop();
            used[k] = false;
            if self.done {
                return Ok(());
            }
        }
        Ok(())
    }
}
