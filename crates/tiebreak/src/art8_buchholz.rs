//! C.07 Art. 8: Buchholz (8.1), Average of Opponents' Buchholz (8.2), Fore Buchholz (8.3);
//! the per-round machinery is shared with Art. 9.1 Sonneborn-Berger
//! (see `art9_sonneborn_berger_koya`). Also the seed's
//! "Somme Buchholz" (4 a5) and the draughts Solkoff (seed 002).
//!
//! Unplayed rounds follow Art. 16 (2024/2026) or the seed's virtual opponent (C.06 era);
//! see [`crate::unplayed_rounds`].

use crate::codes::{Kind, TieBreak};
use crate::edition::Edition;
use crate::exact::Exact;
use crate::modifiers::{Item, VurRule, cut_flags};
use crate::unplayed_rounds::{Class, Context, RoundSource};
use crate::working::{Env, Recorder, Source, TieBreakValue};

pub(crate) fn source_of(ctx: &Context, s: RoundSource) -> Source {
    match s {
        RoundSource::Opponent(j) => Source::Opponent { tpn: ctx.p.tpn[j] },
        RoundSource::Dummy { category, cap } => Source::Dummy { category, cap },
        RoundSource::Virtual => Source::VirtualOpponent,
    }
}

/// BH / FB (`sonneborn = false`) or SB (`sonneborn = true`) of participant `i`, with the
/// tie-break's Cut/Median modifier and the 16.5 exception. Returns the sum in units
/// (BH) or units² (SB).
pub(crate) fn opponent_score_sum(
    ctx: &Context,
    i: usize,
    tb: &TieBreak,
    sonneborn: bool,
    rec: &mut Recorder,
) -> i64 {
    let p = ctx.p;
    let upp = p.scoring.units_per_point;
    let den = if sonneborn { upp * upp } else { upp };
    if tb.modifier.is_none() {
        let mut sum = 0;
        for r in 0..p.rounds {
            let (score, source, _) = ctx.round_score(i, r, tb.forfeits_as_played);
            let value = if sonneborn {
                score * p.pts[p.at(i, r)]
            } else {
                score
            };
            sum += value;
            if rec.on {
                rec.push(
                    Some(r),
                    source_of(ctx, source),
                    Exact::of(value, den),
                    false,
                );
            }
        }
        return sum;
    }
    let mut items = Vec::with_capacity(p.rounds);
    let mut sources = Vec::with_capacity(p.rounds);
    for r in 0..p.rounds {
        let (score, source, vur) = ctx.round_score(i, r, tb.forfeits_as_played);
        let value = if sonneborn {
            score * p.pts[p.at(i, r)]
        } else {
            score
        };
        items.push(Item {
            value,
            key: score,
            vur,
        });
        sources.push(source);
    }
    let rule = match (ctx.edition.uses_dummy(), sonneborn) {
        (false, _) => VurRule::None,
        (true, false) => VurRule::Buchholz,
        (true, true) => VurRule::SonnebornBerger,
    };
    let cut = cut_flags(&items, tb.modifier, rule);
    let mut sum = 0;
    for (r, item) in items.iter().enumerate() {
        if !cut[r] {
            sum += item.value;
        }
        if rec.on {
            rec.push(
                Some(r),
                source_of(ctx, sources[r]),
                Exact::of(item.value, den),
                cut[r],
            );
        }
    }
    sum
}

/// Plain (uncut) Buchholz of every participant, in units.
pub(crate) fn plain_buchholz(ctx: &Context) -> Vec<i64> {
    let tb = TieBreak::plain(Kind::Buchholz);
    (0..ctx.p.n)
        .map(|i| opponent_score_sum(ctx, i, &tb, false, &mut Recorder::new(false)))
        .collect()
}

/// BH, FB (pass the "final round drawn" context), and SB (Art. 9.1).
pub(crate) fn compute_sum(ctx: &Context, tb: &TieBreak, env: &Env) -> Vec<TieBreakValue> {
    let sonneborn = tb.kind == Kind::SonnebornBerger;
    let upp = ctx.p.scoring.units_per_point;
    let den = if sonneborn { upp * upp } else { upp };
    (0..ctx.p.n)
        .map(|i| {
            let mut rec = Recorder::new(env.working);
            let sum = opponent_score_sum(ctx, i, tb, sonneborn, &mut rec);
            let note = match (ctx.edition, tb.kind) {
                _ if !rec.on => None,
                (_, Kind::ForeBuchholz) => {
                    Some("final round's paired games taken as draws (Art. 8.3)".to_string())
                }
                (Edition::SeedC06, _) => Some(
                    "own unplayed games vs virtual opponent; opponents' unplayed games as draws"
                        .to_string(),
                ),
                _ => None,
            };
            rec.finish(Some(Exact::of(sum, den)), note)
        })
        .collect()
}

/// AOB (8.2): average of the Buchholz (or, with `/F`, Fore Buchholz) of the opponents
/// played over the board; BHSUM (seed): their sum. `bh` is the plain BH/FB per index.
pub(crate) fn compute_opponents_buchholz(
    ctx: &Context,
    tb: &TieBreak,
    bh: &[i64],
    env: &Env,
) -> Vec<TieBreakValue> {
    let p = ctx.p;
    let upp = p.scoring.units_per_point;
    (0..p.n)
        .map(|i| {
            let mut rec = Recorder::new(env.working);
            let (mut sum, mut count) = (0i64, 0i64);
            for r in 0..p.rounds {
                let k = p.at(i, r);
                if !ctx.counts_as_game(k, Class::Opponents, false) {
                    continue;
                }
                let j = p.opp[k];
                sum += bh[j];
                count += 1;
                rec.push_with(
                    Some(r),
                    Source::Opponent { tpn: p.tpn[j] },
                    || Exact::of(bh[j], upp),
                    false,
                );
            }
            if tb.kind == Kind::SumOfBuchholz {
                rec.finish(Some(Exact::of(sum, upp)), None)
            } else if count == 0 {
                rec.finish(
                    Some(Exact::ZERO),
                    Some("no game played over the board".to_string()),
                )
            } else {
                let note = format!("average of {count} opponents' Buchholz (exact)");
                rec.finish(Some(Exact::of(sum, count * upp)), Some(note))
            }
        })
        .collect()
}

/// Solkoff (seed 002, draughts): sum of the final scores of the opponents met; byes and
/// forfeits contribute nothing (ADR tiebreak-005). `/C1` = "Solkoff tronqué", `/M1` =
/// "Solkoff médian".
pub(crate) fn compute_solkoff(ctx: &Context, tb: &TieBreak, env: &Env) -> Vec<TieBreakValue> {
    let p = ctx.p;
    let upp = p.scoring.units_per_point;
    (0..p.n)
        .map(|i| {
            let mut rec = Recorder::new(env.working);
            let mut items = Vec::new();
            let mut rounds = Vec::new();
            for r in 0..p.rounds {
                let k = p.at(i, r);
                if ctx.counts_as_game(k, Class::Opponents, false) {
                    let j = p.opp[k];
                    items.push(Item {
                        value: p.total[j],
                        key: p.total[j],
                        vur: false,
                    });
                    rounds.push((r, j));
                }
            }
            let cut = cut_flags(&items, tb.modifier, VurRule::None);
            let mut sum = 0;
            for (x, item) in items.iter().enumerate() {
                if !cut[x] {
                    sum += item.value;
                }
                let (r, j) = rounds[x];
                rec.push_with(
                    Some(r),
                    Source::Opponent { tpn: p.tpn[j] },
                    || Exact::of(item.value, upp),
                    cut[x],
                );
            }
            rec.finish(Some(Exact::of(sum, upp)), None)
        })
        .collect()
}
