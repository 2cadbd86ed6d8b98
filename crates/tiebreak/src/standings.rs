//! Standings: points, then the tie-break list applied in order to each subgroup still tied
//! (C.07 Art. 4.2), then shared places or drawing of lots with a recorded seed.

use crate::art6_direct_encounter as de;
use crate::art7_own_results as art7;
use crate::art8_buchholz as art8;
use crate::art9_sonneborn_berger_koya as art9;
use crate::art10_rating as art10;
use crate::codes::{Kind, TieBreak};
use crate::crosstable::{Crosstable, EventKind, Prepared};
use crate::edition::Edition;
use crate::error::Error;
use crate::exact::Exact;
use crate::unplayed_rounds::Context;
use crate::working::{Env, TieBreakValue, Working};
use rand::SeedableRng;
use rand::seq::SliceRandom;
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;

/// What to do with participants still tied after the whole list (Art. 2.1, 4.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum TieResolution {
    /// Tied participants share the place (same rank).
    #[default]
    Shared,
    /// Draw lots (Art. 4.2), reproducibly: a ChaCha8 generator seeded with `seed` shuffles
    /// each tied group (members taken in TPN order), groups taken from the top.
    ByLot { seed: u64 },
}

/// Options announced before the event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Options {
    pub ties: TieResolution,
    /// Rating used for unrated participants in rating-based tie-breaks, if the regulations
    /// announced one. Without it, rating-based tie-breaks are dropped when an unrated
    /// participant is present (Art. 10 preamble).
    pub unrated_rating: Option<u32>,
    /// Permit BH/FB/AOB in a round robin although the 2026 Art. 8 note forbids it.
    pub allow_buchholz_in_round_robin: bool,
    /// Record the contributions behind every value (costs memory on huge events).
    pub with_working: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            ties: TieResolution::Shared,
            unrated_rating: None,
            allow_buchholz_in_round_robin: false,
            with_working: true,
        }
    }
}

/// A tie-break removed from the list before ranking, with the reason.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DroppedTieBreak {
    pub tie_break: TieBreak,
    /// 1-based position in the list given.
    pub position: usize,
    pub reason: String,
}

/// One line of the standings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Row {
    /// 1-based place; tied participants share the place of the first of them.
    pub rank: u32,
    pub tpn: u32,
    /// Final score in points.
    pub points: Exact,
    /// One value per applied tie-break, in the order of [`Standings::tie_breaks`].
    pub values: Vec<TieBreakValue>,
    /// Whether the place was decided by lot.
    pub by_lot: bool,
}

/// The result of [`standings`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standings {
    pub edition: Edition,
    /// The tie-breaks actually applied (the list given minus the dropped ones).
    pub tie_breaks: Vec<TieBreak>,
    pub dropped: Vec<DroppedTieBreak>,
    /// Rows in standing order.
    pub rows: Vec<Row>,
    /// The seed used to draw lots, if lots were drawn.
    pub lot_seed: Option<u64>,
}

/// Computes the standings of `crosstable` under `edition` with the ordered `tie_breaks`.
pub fn standings(
    crosstable: &Crosstable,
    edition: Edition,
    tie_breaks: &[TieBreak],
    options: &Options,
) -> Result<Standings, Error> {
    let prepared = Prepared::new(crosstable)?;
    let p = &prepared;
    // Check the list against the edition and the event.
    let has_unrated = p.rating.iter().any(Option::is_none);
    let mut applied: Vec<TieBreak> = Vec::new();
    let mut dropped = Vec::new();
    for (x, tb) in tie_breaks.iter().enumerate() {
        if tb.is_team_only() {
            return Err(Error::TeamOnly {
                code: tb.to_string(),
                position: x + 1,
            });
        }
        if !tb.exists_in(edition) {
            return Err(Error::NotInEdition {
                code: tb.to_string(),
                position: x + 1,
                edition: edition.name().to_string(),
            });
        }
        if edition == Edition::C07_2026
            && p.kind == EventKind::RoundRobin
            && tb.is_buchholz_family()
            && !options.allow_buchholz_in_round_robin
        {
            return Err(Error::NotAllowedInRoundRobin {
                code: tb.to_string(),
                position: x + 1,
            });
        }
        if tb.is_rating_based() && has_unrated && options.unrated_rating.is_none() {
            dropped.push(DroppedTieBreak {
                tie_break: *tb,
                position: x + 1,
                reason: "unrated participants present and no handling announced (C.07 Art. 10)"
                    .into(),
            });
            continue;
        }
        applied.push(*tb);
    }
    let env = Env {
        ratings: p
            .rating
            .iter()
            .map(|r| r.or(options.unrated_rating).unwrap_or(0) as i64)
            .collect(),
        working: options.with_working,
    };
    let ctx = Context::new(p, edition);
    let needs_fore = applied.iter().any(|t| {
        t.kind == Kind::ForeBuchholz || (t.kind == Kind::AverageOpponentsBuchholz && t.fore)
    });
    let fore_prepared = needs_fore.then(|| p.with_final_round_drawn());
    let fore_ctx = fore_prepared.as_ref().map(|fp| Context::new(fp, edition));
    let mut plain_bh: Option<Vec<i64>> = None;
    let mut fore_bh: Option<Vec<i64>> = None;

    // Values of every tie-break for every participant, computed once (DE: per tied group).
    let mut columns: Vec<Vec<TieBreakValue>> = Vec::with_capacity(applied.len());
    for tb in &applied {
        let col = match tb.kind {
            Kind::Wins
            | Kind::GamesWon
            | Kind::BlackGames
            | Kind::BlackWins
            | Kind::ProgressiveScores
            | Kind::RoundsElectedToPlay
            | Kind::StandardPoints
            | Kind::PairingNumber => art7::compute(&ctx, tb, &env),
            Kind::Buchholz => art8::compute_sum(&ctx, tb, &env),
            Kind::SonnebornBerger => art9::compute_sonneborn_berger(&ctx, tb, &env),
            Kind::ForeBuchholz => art8::compute_sum(fore_ctx.as_ref().unwrap_or(&ctx), tb, &env),
            Kind::AverageOpponentsBuchholz | Kind::SumOfBuchholz => {
                let bh = if tb.fore {
                    fore_bh.get_or_insert_with(|| {
                        art8::plain_buchholz(fore_ctx.as_ref().unwrap_or(&ctx))
                    })
                } else {
                    plain_bh.get_or_insert_with(|| art8::plain_buchholz(&ctx))
                };
                art8::compute_opponents_buchholz(&ctx, tb, bh, &env)
            }
            Kind::Solkoff => art8::compute_solkoff(&ctx, tb, &env),
            // Refused above (team tie-breaks, see team_standings).
            Kind::MatchOrGamePoints
            | Kind::ExtendedSonnebornBerger { .. }
            | Kind::ExtendedDirectEncounter(_)
            | Kind::ScoreStrengthCombination
            | Kind::BoardCount
            | Kind::TopBoardResult
            | Kind::BottomBoardElimination
            | Kind::CombinedPoints => vec![TieBreakValue::default(); p.n],
            Kind::Koya => art9::compute_koya(&ctx, tb, &env),
            Kind::AverageRatingOfOpponents
            | Kind::PerformanceRating
            | Kind::PerfectPerformance
            | Kind::AverageOpponentsPerformance
            | Kind::AverageOpponentsPerfectPerformance
            | Kind::Rating => art10::compute(&ctx, tb, &env),
            Kind::DirectEncounter => (0..p.n)
                .map(|_| TieBreakValue {
                    value: None,
                    working: Working {
                        contributions: Vec::new(),
                        note: env
                            .working
                            .then(|| "not applied: not tied when DE was reached".into()),
                    },
                })
                .collect(),
        };
        columns.push(col);
    }

    // Art. 4.2: points, then each tie-break on each subgroup still tied.
    let mut order: Vec<usize> = (0..p.n).collect();
    order.sort_by(|&a, &b| p.total[b].cmp(&p.total[a]).then(p.tpn[a].cmp(&p.tpn[b])));
    // Groups are ranges of `order`, best first; each tie-break splits the ranges still tied.
    let mut groups: Vec<(usize, usize)> = Vec::new();
    let mut s0 = 0;
    for x in 1..=order.len() {
        if x == order.len() || p.total[order[x]] != p.total[order[s0]] {
            groups.push((s0, x));
            s0 = x;
        }
    }
    for (c, tb) in applied.iter().enumerate() {
        let mut next = Vec::with_capacity(groups.len());
        for (start, end) in groups {
            if end - start < 2 {
                next.push((start, end));
                continue;
            }
            if tb.kind == Kind::DirectEncounter {
                let members = order[start..end].to_vec();
                let (subs, shown) = de::apply(&ctx, &members, tb, env.working);
                for (i, v) in shown {
                    columns[c][i] = v;
                }
                place_subgroups(&mut order, start, subs, &mut next);
            } else {
                let lower = tb.lower_is_better();
                split_by_values(
                    &mut order,
                    (start, end),
                    &columns[c],
                    lower,
                    &p.tpn,
                    &mut next,
                );
            }
        }
        groups = next;
    }

    let mut rows = Vec::with_capacity(p.n);
    let mut lot_seed = None;
    let mut rng = match options.ties {
        TieResolution::ByLot { seed } => Some(rand_chacha::ChaCha8Rng::seed_from_u64(seed)),
        TieResolution::Shared => None,
    };
    for (start, end) in groups {
        let g = &mut order[start..end];
        g.sort_by_key(|&i| p.tpn[i]);
        let by_lot = g.len() > 1 && rng.is_some();
        if let (true, Some(rng)) = (by_lot, rng.as_mut()) {
            g.shuffle(rng);
            if let TieResolution::ByLot { seed } = options.ties {
                lot_seed = Some(seed);
            }
        }
        let place = start as u32 + 1;
        for (x, &i) in g.iter().enumerate() {
            rows.push(Row {
                rank: if by_lot { place + x as u32 } else { place },
                tpn: p.tpn[i],
                points: Exact::of(p.total[i], p.scoring.units_per_point),
                values: columns
                    .iter_mut()
                    .map(|col| std::mem::take(&mut col[i]))
                    .collect(),
                by_lot,
            });
        }
    }
    Ok(Standings {
        edition,
        tie_breaks: applied,
        dropped,
        rows,
        lot_seed,
    })
}

/// Writes the ordered subgroups a grouped tie-break (DE, EDE, board results) made of the
/// tied group starting at `start` back into `order`, each as a group still to break.
pub(crate) fn place_subgroups(
    order: &mut [usize],
    start: usize,
    subs: Vec<Vec<usize>>,
    next: &mut Vec<(usize, usize)>,
) {
    let mut x = start;
    for sub in subs {
        let y = x + sub.len();
        order[x..y].copy_from_slice(&sub);
        next.push((x, y));
        x = y;
    }
}

/// Orders the tied group `order[start..end]` by one tie-break's values (best first, then
/// pairing number) and pushes the runs of equal values as the groups still to break.
pub(crate) fn split_by_values(
    order: &mut [usize],
    (start, end): (usize, usize),
    col: &[TieBreakValue],
    lower_is_better: bool,
    tpn: &[u32],
    next: &mut Vec<(usize, usize)>,
) {
    order[start..end].sort_by(|&a, &b| {
        compare(&col[a].value, &col[b].value, lower_is_better).then(tpn[a].cmp(&tpn[b]))
    });
    let mut s1 = start;
    for x in start + 1..=end {
        if x == end || col[order[x]].value != col[order[s1]].value {
            next.push((s1, x));
            s1 = x;
        }
    }
}

pub(crate) fn compare(a: &Option<Exact>, b: &Option<Exact>, lower_is_better: bool) -> Ordering {
    // best first; a missing value ranks below any value
    match (a, b) {
        (Some(x), Some(y)) => {
            if lower_is_better {
                x.cmp(y)
            } else {
                y.cmp(x)
            }
        }
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => Ordering::Equal,
    }
}

impl Standings {
    /// A plain-text explanation of one participant's place: points and every tie-break
    /// value with its working (contributions, cut values, dummies and their caps), for an
    /// arbiter to read out. `None` if the TPN is not in the standings.
    pub fn explain(&self, tpn: u32) -> Option<String> {
        use crate::working::Source;
        use std::fmt::Write;
        let row = self.rows.iter().find(|r| r.tpn == tpn)?;
        let mut out = String::new();
        let _ = writeln!(
            out,
            "TPN {tpn}: place {}{}, {} points ({})",
            row.rank,
            if row.by_lot { " (by lot)" } else { "" },
            row.points,
            self.edition
        );
        for (tb, v) in self.tie_breaks.iter().zip(&row.values) {
            let value = v.value.map_or("-".to_string(), |x| x.to_string());
            let _ = write!(out, "  {tb} = {value}");
            if let Some(note) = &v.working.note {
                let _ = write!(out, "  [{note}]");
            }
            out.push('\n');
            for c in &v.working.contributions {
                let round = c.round.map_or(String::new(), |r| format!("R{r} "));
                let from = match c.source {
                    Source::Opponent { tpn } => format!("opponent {tpn}"),
                    Source::Dummy { category, cap } => {
                        let cat = match category {
                            crate::Category::PabOrFpb => "16.2.1 PAB/FPB",
                            crate::Category::ForfeitWin => "16.2.2 forfeit win",
                            crate::Category::RequestedByeThenPlayed => "16.2.3 requested bye",
                            crate::Category::ForfeitLoss => "16.2.4 forfeit loss",
                            crate::Category::RequestedByeToTheEnd => {
                                "16.2.5 requested bye to the end"
                            }
                        };
                        match cap {
                            None => format!("dummy ({cat}, own score)"),
                            Some(crate::DummyCap::DrawTimesRounds) => {
                                format!("dummy ({cat}, capped at draw x rounds, 16.4.2)")
                            }
                            Some(crate::DummyCap::ScheduledOpponentAdjustedScore {
                                opponent_tpn,
                            }) => format!(
                                "dummy ({cat}, capped at opponent {opponent_tpn}'s adjusted score, 16.4.1)"
                            ),
                        }
                    }
                    Source::VirtualOpponent => "virtual opponent".to_string(),
                    Source::OwnRound => "own round".to_string(),
                    Source::OwnData => "own data".to_string(),
                };
                let cut = if c.cut { "  (cut)" } else { "" };
                let _ = writeln!(out, "    {round}{from}: {}{cut}", c.value);
            }
        }
        Some(out)
    }
}
