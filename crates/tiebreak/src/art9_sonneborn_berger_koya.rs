//! C.07 Art. 9: Sonneborn-Berger (9.1) and the Koya system (9.2, limit 14.5).
//!
//! SB = Σ over rounds of (opponent's adjusted score, or the Art. 16.4 dummy / seed virtual
//! opponent for own unplayed rounds) × points scored in that round; it shares the per-round
//! computation and the Cut modifiers (with the 16.5 exception) with Buchholz.

use crate::codes::TieBreak;
use crate::exact::Exact;
use crate::unplayed_rounds::{Class, Context};
use crate::working::{Env, Recorder, Source, TieBreakValue};

/// SB, SB/C1, SB/C2, SB/P (9.1, 14.1, 14.2, 16.5).
pub(crate) fn compute_sonneborn_berger(
    ctx: &Context,
    tb: &TieBreak,
    env: &Env,
) -> Vec<TieBreakValue> {
    crate::art8_buchholz::compute_sum(ctx, tb, env)
}

/// KS (9.2): points scored against participants with at least 50 % of the maximum
/// possible score; `/L±n` moves the threshold by n half points (14.5), where a half point
/// is half the points of a win. Opponents' actual final scores are used (Art. 16 does not
/// cover KS, 15.3).
pub(crate) fn compute_koya(ctx: &Context, tb: &TieBreak, env: &Env) -> Vec<TieBreakValue> {
    let p = ctx.p;
    let upp = p.scoring.units_per_point;
    let win = p.scoring.win;
    // 2·score ≥ win·rounds + n·win  ⇔  score ≥ 50 % of max + n half points
    let threshold2 = win * p.rounds as i64 + tb.koya_limit as i64 * win;
    let note = format!(
        "opponents with at least {} points (cut = below the Koya limit)",
        Exact::of(threshold2, 2 * upp)
    );
    (0..p.n)
        .map(|i| {
            let mut rec = Recorder::new(env.working);
            let mut sum = 0;
            for r in 0..p.rounds {
                let k = p.at(i, r);
                if !ctx.counts_as_game(k, Class::Opponents, false) {
                    continue;
                }
                let j = p.opp[k];
                let qualifies = 2 * p.total[j] >= threshold2;
                if qualifies {
                    sum += p.pts[k];
                }
                rec.push_with(
                    Some(r),
                    Source::Opponent { tpn: p.tpn[j] },
                    || Exact::of(p.pts[k], upp),
                    !qualifies,
                );
            }
            let note = rec.on.then(|| note.clone());
            rec.finish(Some(Exact::of(sum, upp)), note)
        })
        .collect()
}
