//! C.07 Art. 10: rating-based tie-breaks (Type D): ARO (10.1) with Cut/Median, TPR (10.2),
//! PTP (10.3), APRO (10.4), APPO (10.5), RTNG (10.6, 2026); the seed's TPR with the
//! 350-point rule (5 c1).
//!
//! Only games played over the board count (forfeits stay unplayed, 2026 Art. 15.2 also in
//! round robins). Results enter TPR/PTP as 1 / ½ / 0 whatever the event's scoring.

use crate::codes::{Kind, TieBreak};
use crate::crosstable::{GameResult, Slot};
use crate::exact::{Exact, round_half_up};
use crate::modifiers::{Item, VurRule, cut_flags};
use crate::rating_tables::{dp, expected_score};
use crate::unplayed_rounds::{Class, Context};
use crate::working::{Env, Recorder, Source, TieBreakValue};

/// The rated games of participant `i`: (round, opponent index, half points scored).
fn games(ctx: &Context, i: usize) -> Vec<(usize, usize, i64)> {
    let p = ctx.p;
    (0..p.rounds)
        .filter_map(|r| {
            let k = p.at(i, r);
            if !ctx.counts_as_game(k, Class::Rating, false) {
                return None;
            }
            let h = match p.slots[k] {
                Slot::Game(GameResult::Win, _) | Slot::ForfeitWin(_) => 2,
                Slot::Game(GameResult::Draw, _) => 1,
                _ => 0,
            };
            Some((r, p.opp[k], h))
        })
        .collect()
}

/// Opponent rating, optionally limited to ±350 around the participant's (seed 5 c1).
fn opp_rating(env: &Env, i: usize, j: usize, rule_350: bool) -> i64 {
    let r = env.ratings[j];
    if rule_350 {
        let own = env.ratings[i];
        r.clamp(own - 350, own + 350)
    } else {
        r
    }
}

/// p in hundredths, 0.5 rounded up (ADR tiebreak-002): 100·h / (2·g).
pub(crate) fn percentage(half_points: i64, games: i64) -> i64 {
    (100 * half_points + games).div_euclid(2 * games)
}

/// TPR (10.2) = ARO + dp(p) from participant `i`'s rated games `g`; `None` without any.
/// Returns (TPR, ARO, p in hundredths).
fn tpr(g: &[(usize, usize, i64)], env: &Env, i: usize, rule_350: bool) -> Option<(i64, i64, i64)> {
    if g.is_empty() {
        return None;
    }
    let n = g.len() as i64;
    let sum: i64 = g
        .iter()
        .map(|&(_, j, _)| opp_rating(env, i, j, rule_350))
        .sum();
    let aro = round_half_up(sum, n)?;
    let h: i64 = g.iter().map(|&(_, _, h)| h).sum();
    let pct = percentage(h, n);
    Some((aro + dp(pct), aro, pct))
}

/// PTP (10.3): lowest integer R with Σ PD(R − Rᵢ) ≥ score over the full scale. A zero
/// score gives the lowest-rated opponent − 800 (the search's lower end); 100 % gives the
/// highest-rated opponent + 736 (ADR tiebreak-002).
fn ptp(g: &[(usize, usize, i64)], env: &Env) -> Option<i64> {
    if g.is_empty() {
        return None;
    }
    let ratings: Vec<i64> = g.iter().map(|&(_, j, _)| env.ratings[j]).collect();
    let h: i64 = g.iter().map(|&(_, _, h)| h).sum();
    let target = 50 * h; // score in hundredths
    let meets = |r: i64| {
        ratings
            .iter()
            .map(|&ri| expected_score(r - ri))
            .sum::<i64>()
            >= target
    };
    let mut lo = ratings.iter().copied().min()? - 800;
    let mut hi = ratings.iter().copied().max()? + 736;
    if meets(lo) {
        return Some(lo);
    }
    // invariant: !meets(lo), meets(hi)
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if meets(mid) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Some(hi)
}

pub(crate) fn compute(ctx: &Context, tb: &TieBreak, env: &Env) -> Vec<TieBreakValue> {
    let p = ctx.p;
    // Opponents' performances are needed by APRO/APPO: compute once.
    let perf: Vec<Option<i64>> = match tb.kind {
        Kind::AverageOpponentsPerformance => (0..p.n)
            .map(|j| tpr(&games(ctx, j), env, j, false).map(|t| t.0))
            .collect(),
        Kind::AverageOpponentsPerfectPerformance => {
            (0..p.n).map(|j| ptp(&games(ctx, j), env)).collect()
        }
        _ => Vec::new(),
    };
    (0..p.n)
        .map(|i| {
            let mut rec = Recorder::new(env.working);
            let g = games(ctx, i);
            match tb.kind {
                Kind::AverageRatingOfOpponents => {
                    let items: Vec<Item> = g
                        .iter()
                        .map(|&(_, j, _)| {
                            let v = env.ratings[j];
                            Item {
                                value: v,
                                key: v,
                                vur: false,
                            }
                        })
                        .collect();
                    let cut = cut_flags(&items, tb.modifier, VurRule::None);
                    let (mut sum, mut n) = (0, 0);
                    for (x, &(r, j, _)) in g.iter().enumerate() {
                        if !cut[x] {
                            sum += items[x].value;
                            n += 1;
                        }
                        rec.push(
                            Some(r),
                            Source::Opponent { tpn: p.tpn[j] },
                            Exact::integer(items[x].value),
                            cut[x],
                        );
                    }
                    let v = round_half_up(sum, n);
                    let note = match (v, rec.on) {
                        (Some(_), true) => Some(format!("{sum}/{n} rounded, 0.5 up")),
                        _ => None,
                    };
                    rec.finish(v.map(Exact::integer), note)
                }
                Kind::PerformanceRating => {
                    if rec.on {
                        for &(r, j, h) in &g {
                            rec.push(
                                Some(r),
                                Source::Opponent { tpn: p.tpn[j] },
                                Exact::of(h, 2),
                                false,
                            );
                        }
                    }
                    match tpr(&g, env, i, tb.rule_350) {
                        Some((t, aro, pct)) => {
                            let note = format!(
                                "ARO {aro}{} + dp(p = {}.{:02}) = {}",
                                if tb.rule_350 { " (350-point rule)" } else { "" },
                                pct / 100,
                                pct % 100,
                                dp(pct)
                            );
                            rec.finish(Some(Exact::integer(t)), Some(note))
                        }
                        None => rec.finish(None, Some("no rated game".into())),
                    }
                }
                Kind::PerfectPerformance => {
                    if rec.on {
                        for &(r, j, h) in &g {
                            rec.push(
                                Some(r),
                                Source::Opponent { tpn: p.tpn[j] },
                                Exact::of(h, 2),
                                false,
                            );
                        }
                    }
                    let v = ptp(&g, env);
                    rec.finish(v.map(Exact::integer), None)
                }
                Kind::AverageOpponentsPerformance | Kind::AverageOpponentsPerfectPerformance => {
                    let (mut sum, mut n) = (0, 0);
                    for &(r, j, _) in &g {
                        if let Some(v) = perf[j] {
                            sum += v;
                            n += 1;
                            rec.push(
                                Some(r),
                                Source::Opponent { tpn: p.tpn[j] },
                                Exact::integer(v),
                                false,
                            );
                        }
                    }
                    let v = round_half_up(sum, n);
                    rec.finish(v.map(Exact::integer), Some("mean, 0.5 rounded up".into()))
                }
                Kind::Rating => {
                    let v = Exact::integer(env.ratings[i]);
                    rec.push(None, Source::OwnData, v, false);
                    rec.finish(Some(v), None)
                }
                _ => rec.finish(None, None),
            }
        })
        .collect()
}
