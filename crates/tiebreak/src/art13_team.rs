//! C.07 Art. 13 (team tournaments): MPvGP (13.1), Extended Sonneborn-Berger EMMSB / EMGSB /
//! EGMSB / EGGSB (13.2, with Cut-1/Cut-2 of 14.1.2 and Art. 16), Extended Direct Encounter
//! and its 2026 chains EDEBT / EDEBB / EDET / EDEB (13.3), SSSC (13.4); and the seed's
//! combined MP + GP (C.06 list 3 c).
//!
//! ESB: Σ over rounds of the opponent's score of the first kind (adjusted, Art. 16.3; the
//! Art. 16.4 dummy or the seed's virtual opponent for the team's own unplayed rounds) × the
//! points of the second kind the team scored in that round. EMMSB = SB:MP, EGGSB = SB:GP.

use crate::art6_direct_encounter as de;
use crate::art8_buchholz::{opponent_score_sum, source_of};
use crate::art12_team_boards as art12;
use crate::codes::{EdeChain, Kind, TieBreak};
use crate::crosstable::Prepared;
use crate::exact::Exact;
use crate::modifiers::{Item, VurRule, cut_flags};
use crate::team_crosstable::{PointType, TeamPrepared};
use crate::unplayed_rounds::Context;
use crate::working::{Recorder, Source, TieBreakValue};

/// A plain score total of one view (MP, GP, MPvGP), with one contribution per round.
pub(crate) fn total(p: &Prepared, working: bool, note: &str) -> Vec<TieBreakValue> {
    let upp = p.scoring.units_per_point;
    (0..p.n)
        .map(|i| {
            let mut rec = Recorder::new(working);
            for r in 0..p.rounds {
                rec.push_with(
                    Some(r),
                    Source::OwnRound,
                    || Exact::of(p.pts[p.at(i, r)], upp),
                    false,
                );
            }
            rec.finish(Some(Exact::of(p.total[i], upp)), Some(note.to_string()))
        })
        .collect()
}

/// Seed 3 (c): MP + GP.
pub(crate) fn combined(tp: &TeamPrepared, working: bool) -> Vec<TieBreakValue> {
    let upp = tp.mp.scoring.units_per_point;
    (0..tp.mp.n)
        .map(|i| {
            let mut rec = Recorder::new(working);
            rec.push(None, Source::OwnData, Exact::of(tp.mp.total[i], upp), false);
            rec.push(None, Source::OwnData, Exact::of(tp.gp.total[i], upp), false);
            rec.finish(
                Some(Exact::of(tp.mp.total[i] + tp.gp.total[i], upp)),
                Some("match points + game points (seed 3 c)".into()),
            )
        })
        .collect()
}

/// ESB (13.2): `opp` is the context of the opponent's score kind, `scored` the view of the
/// points scored. Cuts follow 14.1.2 with the 16.5 SB rule (value = product, least
/// significant = lowest opponent score).
pub(crate) fn extended_sonneborn_berger(
    opp: &Context,
    scored: &Prepared,
    tb: &TieBreak,
    working: bool,
) -> Vec<TieBreakValue> {
    let p = opp.p;
    let den = p.scoring.units_per_point * scored.scoring.units_per_point;
    let rule = if opp.edition.uses_dummy() {
        VurRule::SonnebornBerger
    } else {
        VurRule::None
    };
    (0..p.n)
        .map(|i| {
            let mut rec = Recorder::new(working);
            let mut items = Vec::with_capacity(p.rounds);
            let mut sources = Vec::with_capacity(p.rounds);
            for r in 0..p.rounds {
                let (score, source, vur) = opp.round_score(i, r, tb.forfeits_as_played);
                items.push(Item {
                    value: score * scored.pts[scored.at(i, r)],
                    key: score,
                    vur,
                });
                sources.push(source);
            }
            let cut = cut_flags(&items, tb.modifier, rule);
            let mut sum = 0;
            for (r, item) in items.iter().enumerate() {
                if !cut[r] {
                    sum += item.value;
                }
                if rec.on {
                    rec.push(
                        Some(r),
                        source_of(opp, sources[r]),
                        Exact::of(item.value, den),
                        cut[r],
                    );
                }
            }
            let note = format!(
                "Σ opponent's {} × {} scored against them",
                opp_code(tb),
                scored_code(tb)
            );
            rec.finish(Some(Exact::of(sum, den)), Some(note))
        })
        .collect()
}

fn opp_code(tb: &TieBreak) -> &'static str {
    match tb.kind {
        Kind::ExtendedSonnebornBerger { opponent, .. } => opponent.code(),
        _ => "",
    }
}

fn scored_code(tb: &TieBreak) -> &'static str {
    match tb.kind {
        Kind::ExtendedSonnebornBerger { scored, .. } => scored.code(),
        _ => "",
    }
}

/// The default SSSC normaliser (ADR tiebreak-010): the most primary points an event allows
/// divided by the most secondary points one match gives, rounded down, at least 1.
pub(crate) fn default_normaliser(primary: &Prepared, secondary: &Prepared) -> i64 {
    let most_primary = primary.scoring.win * primary.rounds as i64;
    (most_primary / secondary.scoring.win.max(1)).max(1)
}

/// SSSC (13.4): secondary score + BH(primary) / K. `bh_ctx` is the primary view's context
/// (its Fore Buchholz version with `/F`).
pub(crate) fn score_strength_combination(
    bh_ctx: &Context,
    secondary: &Prepared,
    tb: &TieBreak,
    working: bool,
) -> Vec<TieBreakValue> {
    let primary = bh_ctx.p;
    let k = tb
        .normaliser
        .map(i64::from)
        .unwrap_or_else(|| default_normaliser(primary, secondary));
    let mut bh_tb = TieBreak::plain(Kind::Buchholz);
    bh_tb.forfeits_as_played = tb.forfeits_as_played;
    let upp_p = primary.scoring.units_per_point;
    let upp_s = secondary.scoring.units_per_point;
    (0..primary.n)
        .map(|i| {
            let mut rec = Recorder::new(working);
            let bh = opponent_score_sum(bh_ctx, i, &bh_tb, false, &mut rec);
            let value = Exact::of(secondary.total[i], upp_s) + Exact::of(bh, upp_p * k);
            let note = format!(
                "secondary score {} + {}BH {} / {k}",
                Exact::of(secondary.total[i], upp_s),
                if tb.fore { "Fore " } else { "" },
                Exact::of(bh, upp_p)
            );
            rec.finish(Some(value), Some(note))
        })
        .collect()
}

/// EDE (13.3) on one tied group: the mini-standings on the primary score among the tied
/// teams, then on the secondary score, each split re-applied from the primary score; when
/// exactly two teams are still tied, the chain's board tie-breaks over their matches against
/// each other (ADR tiebreak-010).
pub(crate) struct Ede<'a> {
    pub tp: &'a TeamPrepared,
    pub primary: &'a Context<'a>,
    pub secondary: &'a Context<'a>,
    pub chain: EdeChain,
    pub tb: TieBreak,
}

impl Ede<'_> {
    pub(crate) fn order(&self, set: &[usize]) -> Vec<Vec<usize>> {
        if set.len() < 2 {
            return vec![set.to_vec()];
        }
        for ctx in [self.primary, self.secondary] {
            let (subs, _) = de::apply(ctx, set, &self.tb, false);
            if subs.len() > 1 {
                return subs.iter().flat_map(|s| self.order(s)).collect();
            }
        }
        if set.len() == 2 {
            for &step in self.steps() {
                let subs = match step {
                    Step::BoardCount => {
                        let bc: Vec<Exact> = set
                            .iter()
                            .map(|&i| {
                                art12::board_count(self.tp, i, Some(set), false)
                                    .value
                                    .unwrap_or(Exact::ZERO)
                            })
                            .collect();
                        match bc[0].cmp(&bc[1]) {
                            std::cmp::Ordering::Less => vec![vec![set[0]], vec![set[1]]],
                            std::cmp::Ordering::Greater => vec![vec![set[1]], vec![set[0]]],
                            std::cmp::Ordering::Equal => vec![set.to_vec()],
                        }
                    }
                    Step::TopBoard | Step::BottomBoard => {
                        art12::apply(self.tp, set, step == Step::BottomBoard, Some(set), false).0
                    }
                };
                if subs.len() > 1 {
                    return subs;
                }
            }
        }
        vec![set.to_vec()]
    }

    fn steps(&self) -> &'static [Step] {
        match self.chain {
            EdeChain::Plain => &[],
            EdeChain::BoardCountTopBoard => &[Step::BoardCount, Step::TopBoard],
            EdeChain::BoardCountBottomBoard => &[Step::BoardCount, Step::BottomBoard],
            EdeChain::TopBoard => &[Step::TopBoard],
            EdeChain::BottomBoard => &[Step::BottomBoard],
        }
    }

    /// Values shown for the group: the mini-score on the primary and the secondary score.
    pub(crate) fn shown(&self, set: &[usize], working: bool) -> Vec<(usize, TieBreakValue)> {
        let (_, prim) = de::apply(self.primary, set, &self.tb, working);
        let (_, sec) = de::apply(self.secondary, set, &self.tb, working);
        prim.into_iter()
            .zip(sec)
            .map(|((i, mut v), (_, s))| {
                if working {
                    let sv = s.value.map_or("-".to_string(), |x| x.to_string());
                    let old = v.working.note.take().unwrap_or_default();
                    v.working.note = Some(format!(
                        "{} among the tied: {old}; {} among the tied: {sv}",
                        self.primary_code(),
                        self.primary_code_other()
                    ));
                }
                (i, v)
            })
            .collect()
    }

    fn primary_code(&self) -> &'static str {
        self.tp.primary.code()
    }

    fn primary_code_other(&self) -> &'static str {
        self.tp.primary.other().code()
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Step {
    BoardCount,
    TopBoard,
    BottomBoard,
}

/// The view of a point type.
pub(crate) fn view(tp: &TeamPrepared, t: PointType) -> &Prepared {
    tp.view(t)
}
