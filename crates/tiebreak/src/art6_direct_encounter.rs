//! C.07 Art. 6: Direct Encounter (Type A, applied to each subgroup of tied participants).
//!
//! * 6.1.1 forfeits are excluded (except in round robins, Art. 15.2, or with `DE/P`);
//! * 6.1.2 repeated meetings count at their *average* score;
//! * 6.2 if all tied participants met, rank by the mini-standings and re-apply DE to each
//!   sub-group still tied;
//! * 6.3 if not all met: a participant who is alone on top "whatever the outcome of the
//!   missing games" ranks first, then the same for second, and so on; then re-apply to the
//!   rest (procedure: ADR tiebreak-006).
//!
//! Seed edition (C.06 list 2 e): if all tied players met, the *sum* of the points of these
//! games ranks them; otherwise DE does not separate.

use crate::codes::TieBreak;
use crate::edition::Edition;
use crate::exact::Exact;
use crate::unplayed_rounds::{Class, Context};
use crate::working::{Recorder, Source, TieBreakValue};
use std::collections::HashMap;

struct Mini {
    /// Mini-score per member (same order as the set), in units (exact: averages).
    score: Vec<Exact>,
    /// Tied participants this member has not met.
    missing: Vec<i64>,
}

fn mini(ctx: &Context, set: &[usize], tb: &TieBreak) -> Mini {
    let p = ctx.p;
    let pos: HashMap<usize, usize> = set.iter().enumerate().map(|(x, &i)| (i, x)).collect();
    // (a, b) -> (sum of a's points, games)
    let mut pairs: HashMap<(usize, usize), (i64, i64)> = HashMap::new();
    for (a, &i) in set.iter().enumerate() {
        for r in 0..p.rounds {
            let k = p.at(i, r);
            if !ctx.counts_as_game(k, Class::Opponents, tb.forfeits_as_played) {
                continue;
            }
            if let Some(&b) = pos.get(&p.opp[k]) {
                let e = pairs.entry((a, b)).or_insert((0, 0));
                e.0 += p.pts[k];
                e.1 += 1;
            }
        }
    }
    let mut score = vec![Exact::ZERO; set.len()];
    let mut met = vec![0i64; set.len()];
    for (&(a, _), &(sum, games)) in &pairs {
        let v = if ctx.edition == Edition::SeedC06 {
            Exact::integer(sum)
        } else {
            Exact::of(sum, games)
        };
        score[a] = score[a] + v;
        met[a] += 1;
    }
    let others = set.len() as i64 - 1;
    Mini {
        score,
        missing: met.iter().map(|m| others - m).collect(),
    }
}

/// Applies DE to one tied group: its sub-groups, best first, and the value shown for each
/// member (the mini-score over the group, with working).
pub(crate) fn apply(
    ctx: &Context,
    set: &[usize],
    tb: &TieBreak,
    working: bool,
) -> (Vec<Vec<usize>>, Vec<(usize, TieBreakValue)>) {
    let m = mini(ctx, set, tb);
    let shown = values(ctx, set, tb, &m, working);
    (order_with(ctx, set, tb, m), shown)
}

/// Orders `set` (indices of tied participants) into sub-groups, best first.
fn order(ctx: &Context, set: &[usize], tb: &TieBreak) -> Vec<Vec<usize>> {
    if set.len() <= 1 {
        return vec![set.to_vec()];
    }
    order_with(ctx, set, tb, mini(ctx, set, tb))
}

fn order_with(ctx: &Context, set: &[usize], tb: &TieBreak, m: Mini) -> Vec<Vec<usize>> {
    if set.len() <= 1 {
        return vec![set.to_vec()];
    }
    let mut idx: Vec<usize> = (0..set.len()).collect();
    idx.sort_by(|&a, &b| m.score[b].cmp(&m.score[a]).then(set[a].cmp(&set[b])));
    let all_met = m.missing.iter().all(|&x| x == 0);
    if all_met {
        let mut groups: Vec<Vec<usize>> = Vec::new();
        let mut last: Option<Exact> = None;
        for &a in &idx {
            if last == Some(m.score[a]) {
                if let Some(g) = groups.last_mut() {
                    g.push(set[a]);
                }
            } else {
                groups.push(vec![set[a]]);
                last = Some(m.score[a]);
            }
        }
        if groups.len() == 1 || ctx.edition == Edition::SeedC06 {
            return groups;
        }
        // 6.2: re-apply to each sub-group still tied.
        return groups
            .into_iter()
            .flat_map(|g| {
                if g.len() > 1 {
                    order(ctx, &g, tb)
                } else {
                    vec![g]
                }
            })
            .collect();
    }
    if ctx.edition == Edition::SeedC06 {
        return vec![set.to_vec()];
    }
    // 6.3: peel off whoever is alone on top whatever the missing games give.
    let win = ctx.p.scoring.win;
    let best_case = |a: usize| -> Exact { m.score[a] + Exact::integer(m.missing[a] * win) };
    let mut remaining = idx.clone();
    let mut out: Vec<Vec<usize>> = Vec::new();
    loop {
        if remaining.len() < 2 {
            break;
        }
        let top = remaining[0];
        let alone = remaining[1..].iter().all(|&b| m.score[top] > best_case(b));
        if !alone {
            break;
        }
        out.push(vec![set[top]]);
        remaining.remove(0);
    }
    if out.is_empty() {
        return vec![set.to_vec()];
    }
    let rest: Vec<usize> = remaining.iter().map(|&a| set[a]).collect();
    if rest.len() > 1 {
        out.extend(order(ctx, &rest, tb));
    } else if !rest.is_empty() {
        out.push(rest);
    }
    out
}

/// The DE value shown for each member of a tied group: the mini-score over the group.
fn values(
    ctx: &Context,
    set: &[usize],
    tb: &TieBreak,
    m: &Mini,
    working: bool,
) -> Vec<(usize, TieBreakValue)> {
    let upp = ctx.p.scoring.units_per_point;
    let all_met = m.missing.iter().all(|&x| x == 0);
    let members: std::collections::HashSet<usize> = set.iter().copied().collect();
    set.iter()
        .enumerate()
        .map(|(a, &i)| {
            let mut rec = Recorder::new(working);
            let p = ctx.p;
            for r in 0..p.rounds {
                let k = p.at(i, r);
                if ctx.counts_as_game(k, Class::Opponents, tb.forfeits_as_played)
                    && members.contains(&p.opp[k])
                {
                    rec.push(
                        Some(r),
                        Source::Opponent {
                            tpn: p.tpn[p.opp[k]],
                        },
                        Exact::of(p.pts[k], upp),
                        false,
                    );
                }
            }
            let v = Exact::of(m.score[a].numerator(), m.score[a].denominator() * upp);
            let note = format!(
                "score among {} tied participants{}",
                set.len(),
                if all_met {
                    String::new()
                } else {
                    format!("; {} of them not met (Art. 6.3)", m.missing[a])
                }
            );
            (i, rec.finish(Some(v), Some(note)))
        })
        .collect()
}
