//! Team standings (issue 43): teams ordered by the primary score (MP or GP), then the
//! tie-break list applied to each subgroup still tied (C.07 Art. 4.2), as in
//! [`crate::standings()`].
//!
//! Every individual tie-break that rests on scores applies to teams on the score its `:MP` /
//! `:GP` selector names (the primary score without one); those that count rounds (WIN, WON,
//! BPG, BWG, REP) count matches; rating-based ones are refused (teams have no rating here).
//! Team tie-breaks: Art. 12 in `art12_team_boards`, Art. 13 in `art13_team`.

use crate::art6_direct_encounter as de;
use crate::art7_own_results as art7;
use crate::art8_buchholz as art8;
use crate::art9_sonneborn_berger_koya as art9;
use crate::art12_team_boards as art12;
use crate::art13_team as art13;
use crate::codes::{Kind, TieBreak};
use crate::crosstable::{EventKind, Prepared};
use crate::edition::Edition;
use crate::error::Error;
use crate::exact::Exact;
use crate::standings::{Options, TieResolution, place_subgroups, split_by_values};
use crate::team_crosstable::{PointType, TeamCrosstable, TeamPrepared};
use crate::unplayed_rounds::Context;
use crate::working::{Env, TieBreakValue, Working};
use rand::SeedableRng;
use rand::seq::SliceRandom;
use serde::{Deserialize, Serialize};

/// This project's team lists when neither the caller nor the file (record 202) names one
/// (no FIDE rule names a default; ADR tiebreak-012): a Swiss `MPvGP, EGGSB, BH:MP`; a round
/// robin, where C.07 Art. 8 forbids Buchholz, the order of the seed's team round robin
/// (game points, match points, direct encounter, Sonneborn-Berger): `MPvGP, EDE, EGGSB`.
#[must_use]
pub fn default_team_tiebreaks(kind: EventKind) -> &'static [&'static str] {
    match kind {
        EventKind::Swiss => &["MPvGP", "EGGSB", "BH:MP"],
        EventKind::RoundRobin => &["MPvGP", "EDE", "EGGSB"],
    }
}

/// One line of the team standings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamRow {
    /// 1-based place; tied teams share the place of the first of them.
    pub rank: u32,
    pub tpn: u32,
    pub name: Option<String>,
    pub match_points: Exact,
    pub game_points: Exact,
    /// One value per tie-break, in the order of [`TeamStandings::tie_breaks`].
    pub values: Vec<TieBreakValue>,
    pub by_lot: bool,
}

/// The result of [`team_standings`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamStandings {
    pub edition: Edition,
    /// The score teams are ranked on first.
    pub primary: PointType,
    pub tie_breaks: Vec<TieBreak>,
    pub rows: Vec<TeamRow>,
    pub lot_seed: Option<u64>,
}

/// How a tie-break orders a tied group.
enum Column {
    /// A value per team, computed once.
    Values(Vec<TieBreakValue>),
    /// Depends on the group (DE, EDE, TBR, BBE).
    Group,
}

/// Computes the team standings of `crosstable` under `edition` with the ordered `tie_breaks`.
///
/// ```
/// use tiebreak::*;
/// use BoardResult::{Draw, Loss, Win};
/// let m = |opponent, colour, boards: &[BoardResult]| TeamRoundEntry::Match {
///     opponent,
///     colour: Some(colour),
///     boards: boards.to_vec(),
/// };
/// let ct = TeamCrosstable {
///     kind: EventKind::Swiss,
///     rounds_played: 1,
///     boards: 2,
///     scoring: TeamScoring::standard(),
///     primary: PointType::Match,
///     teams: vec![
///         Team { tpn: 1, name: None, entries: vec![m(2, Colour::White, &[Win, Draw])] },
///         Team { tpn: 2, name: None, entries: vec![m(1, Colour::Black, &[Loss, Draw])] },
///     ],
/// };
/// let list = parse_list(&["MPvGP", "EGGSB", "BH:MP"], Edition::default()).unwrap();
/// let s = team_standings(&ct, Edition::default(), &list, &Options::default()).unwrap();
/// assert_eq!(s.rows[0].tpn, 1);
/// assert_eq!(s.rows[0].match_points, Exact::integer(2));
/// assert_eq!(s.rows[0].values[0].value, Exact::ratio(3, 2)); // GP
/// assert_eq!(s.rows[0].values[1].value, Exact::ratio(3, 4)); // ½ GP × 1½ GP
/// ```
pub fn team_standings(
    crosstable: &TeamCrosstable,
    edition: Edition,
    tie_breaks: &[TieBreak],
    options: &Options,
) -> Result<TeamStandings, Error> {
    let tp = TeamPrepared::new(crosstable)?;
    let n = tp.mp.n;
    for (x, tb) in tie_breaks.iter().enumerate() {
        let position = x + 1;
        if tb.is_rating_based() || tb.kind == Kind::Rating {
            return Err(Error::NotForTeams {
                code: tb.to_string(),
                position,
            });
        }
        if !tb.exists_in(edition) {
            return Err(Error::NotInEdition {
                code: tb.to_string(),
                position,
                edition: edition.name().to_string(),
            });
        }
        if tb.points.is_some() && !tb.takes_point_selector() {
            return Err(Error::InvalidModifier {
                code: tb.to_string(),
                position,
                reason: "this tie-break takes no :MP/:GP selector".into(),
            });
        }
        if edition == Edition::C07_2026
            && crosstable.kind == EventKind::RoundRobin
            && (tb.is_buchholz_family() || tb.kind == Kind::ScoreStrengthCombination)
            && !options.allow_buchholz_in_round_robin
        {
            return Err(Error::NotAllowedInRoundRobin {
                code: tb.to_string(),
                position,
            });
        }
    }
    let env = Env {
        ratings: vec![0; n],
        working: options.with_working,
    };
    let primary = tp.primary;
    let mp_ctx = Context::new(&tp.mp, edition);
    let gp_ctx = Context::new(&tp.gp, edition);
    let ctx_of = |t: PointType| match t {
        PointType::Match => &mp_ctx,
        PointType::Game => &gp_ctx,
    };
    let fore_mp = tie_breaks
        .iter()
        .any(|t| t.fore || t.kind == Kind::ForeBuchholz)
        .then(|| {
            (
                tp.mp.with_final_round_drawn(),
                tp.gp.with_final_round_drawn(),
            )
        });
    let fore_ctx = fore_mp
        .as_ref()
        .map(|(m, g)| (Context::new(m, edition), Context::new(g, edition)));
    let fore_of = |t: PointType| -> &Context {
        match (&fore_ctx, t) {
            (Some((m, _)), PointType::Match) => m,
            (Some((_, g)), PointType::Game) => g,
            (None, t) => ctx_of(t),
        }
    };

    let mut columns: Vec<Column> = Vec::with_capacity(tie_breaks.len());
    for tb in tie_breaks {
        let on = tb.points.unwrap_or(primary);
        let ctx = ctx_of(on);
        let col = match tb.kind {
            Kind::Wins
            | Kind::GamesWon
            | Kind::BlackGames
            | Kind::BlackWins
            | Kind::RoundsElectedToPlay
            | Kind::PairingNumber => Column::Values(art7::compute(&mp_ctx, tb, &env)),
            Kind::ProgressiveScores | Kind::StandardPoints => {
                Column::Values(art7::compute(ctx, tb, &env))
            }
            Kind::Buchholz | Kind::SonnebornBerger => {
                Column::Values(art8::compute_sum(ctx, tb, &env))
            }
            Kind::ForeBuchholz => Column::Values(art8::compute_sum(fore_of(on), tb, &env)),
            Kind::AverageOpponentsBuchholz | Kind::SumOfBuchholz => {
                let bh = art8::plain_buchholz(if tb.fore { fore_of(on) } else { ctx });
                Column::Values(art8::compute_opponents_buchholz(ctx, tb, &bh, &env))
            }
            Kind::Koya => Column::Values(art9::compute_koya(ctx, tb, &env)),
            Kind::Solkoff => Column::Values(art8::compute_solkoff(ctx, tb, &env)),
            Kind::MatchOrGamePoints => Column::Values(art13::total(
                art13::view(&tp, primary.other()),
                env.working,
                &format!("{} (Art. 13.1)", primary.other().code()),
            )),
            Kind::CombinedPoints => Column::Values(art13::combined(&tp, env.working)),
            Kind::ExtendedSonnebornBerger { opponent, scored } => {
                Column::Values(art13::extended_sonneborn_berger(
                    ctx_of(opponent),
                    art13::view(&tp, scored),
                    tb,
                    env.working,
                ))
            }
            Kind::ScoreStrengthCombination => {
                let bh_ctx = if tb.fore {
                    fore_of(primary)
                } else {
                    ctx_of(primary)
                };
                Column::Values(art13::score_strength_combination(
                    bh_ctx,
                    art13::view(&tp, primary.other()),
                    tb,
                    env.working,
                ))
            }
            Kind::BoardCount => Column::Values(
                (0..n)
                    .map(|i| art12::board_count(&tp, i, None, env.working))
                    .collect(),
            ),
            Kind::DirectEncounter
            | Kind::ExtendedDirectEncounter(_)
            | Kind::TopBoardResult
            | Kind::BottomBoardElimination => Column::Group,
            Kind::AverageRatingOfOpponents
            | Kind::PerformanceRating
            | Kind::PerfectPerformance
            | Kind::AverageOpponentsPerformance
            | Kind::AverageOpponentsPerfectPerformance
            | Kind::Rating => unreachable_refused(),
        };
        columns.push(col);
    }
    let mut values: Vec<Vec<TieBreakValue>> = columns
        .iter()
        .map(|c| match c {
            Column::Values(v) => v.clone(),
            Column::Group => (0..n)
                .map(|_| TieBreakValue {
                    value: None,
                    working: Working {
                        contributions: Vec::new(),
                        note: env
                            .working
                            .then(|| "not applied: not tied when it was reached".into()),
                    },
                })
                .collect(),
        })
        .collect();

    // Art. 4.2: the primary score, then each tie-break on each subgroup still tied.
    let prim: &Prepared = tp.view(primary);
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| {
        prim.total[b]
            .cmp(&prim.total[a])
            .then(prim.tpn[a].cmp(&prim.tpn[b]))
    });
    let mut groups: Vec<(usize, usize)> = Vec::new();
    let mut s0 = 0;
    for x in 1..=order.len() {
        if x == order.len() || prim.total[order[x]] != prim.total[order[s0]] {
            groups.push((s0, x));
            s0 = x;
        }
    }
    for (c, tb) in tie_breaks.iter().enumerate() {
        let mut next = Vec::with_capacity(groups.len());
        for (start, end) in groups {
            if end - start < 2 {
                next.push((start, end));
                continue;
            }
            let members = order[start..end].to_vec();
            let on = tb.points.unwrap_or(primary);
            let grouped = match tb.kind {
                Kind::DirectEncounter => Some(de::apply(ctx_of(on), &members, tb, env.working)),
                Kind::ExtendedDirectEncounter(chain) => {
                    let ede = art13::Ede {
                        tp: &tp,
                        primary: ctx_of(primary),
                        secondary: ctx_of(primary.other()),
                        chain,
                        tb: *tb,
                    };
                    Some((ede.order(&members), ede.shown(&members, env.working)))
                }
                Kind::TopBoardResult => Some(art12::apply(&tp, &members, false, None, env.working)),
                Kind::BottomBoardElimination => {
                    Some(art12::apply(&tp, &members, true, None, env.working))
                }
                _ => None,
            };
            if let Some((subs, shown)) = grouped {
                for (i, v) in shown {
                    values[c][i] = v;
                }
                place_subgroups(&mut order, start, subs, &mut next);
            } else {
                let lower = tb.lower_is_better();
                split_by_values(
                    &mut order,
                    (start, end),
                    &values[c],
                    lower,
                    &prim.tpn,
                    &mut next,
                );
            }
        }
        groups = next;
    }

    let mut rows = Vec::with_capacity(n);
    let mut lot_seed = None;
    let mut rng = match options.ties {
        TieResolution::ByLot { seed } => Some(rand_chacha::ChaCha8Rng::seed_from_u64(seed)),
        TieResolution::Shared => None,
    };
    let upp = tp.mp.scoring.units_per_point;
    for (start, end) in groups {
        let g = &mut order[start..end];
        g.sort_by_key(|&i| prim.tpn[i]);
        let by_lot = g.len() > 1 && rng.is_some();
        if let (true, Some(rng)) = (by_lot, rng.as_mut()) {
            g.shuffle(rng);
            if let TieResolution::ByLot { seed } = options.ties {
                lot_seed = Some(seed);
            }
        }
        let place = start as u32 + 1;
        for (x, &i) in g.iter().enumerate() {
            rows.push(TeamRow {
                rank: if by_lot { place + x as u32 } else { place },
                tpn: prim.tpn[i],
                name: crosstable.teams[i].name.clone(),
                match_points: Exact::of(tp.mp.total[i], upp),
                game_points: Exact::of(tp.gp.total[i], upp),
                values: values
                    .iter_mut()
                    .map(|col| std::mem::take(&mut col[i]))
                    .collect(),
                by_lot,
            });
        }
    }
    Ok(TeamStandings {
        edition,
        primary,
        tie_breaks: tie_breaks.to_vec(),
        rows,
        lot_seed,
    })
}

/// Rating-based codes are refused before any value is computed.
fn unreachable_refused() -> Column {
    Column::Values(Vec::new())
}

impl TeamStandings {
    /// The row of team `tpn`.
    pub fn row(&self, tpn: u32) -> Option<&TeamRow> {
        self.rows.iter().find(|r| r.tpn == tpn)
    }

    /// The value of the tie-break at `column` for team `tpn`.
    pub fn value(&self, tpn: u32, column: usize) -> Option<Exact> {
        self.row(tpn)?.values.get(column)?.value
    }

    /// A plain-text explanation of one team's place: MP, GP and every tie-break value with
    /// its working. `None` if the TPN is not in the standings.
    pub fn explain(&self, tpn: u32) -> Option<String> {
        use crate::working::Source;
        use std::fmt::Write;
        let row = self.row(tpn)?;
        let mut out = String::new();
        let _ = writeln!(
            out,
            "team {tpn}{}: place {}{}, {} MP, {} GP ({}, ranked on {})",
            row.name
                .as_ref()
                .map_or(String::new(), |n| format!(" ({n})")),
            row.rank,
            if row.by_lot { " (by lot)" } else { "" },
            row.match_points,
            row.game_points,
            self.edition,
            self.primary.code()
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
                        format!(
                            "dummy ({category:?}{})",
                            cap.map_or(String::new(), |c| format!(", cap {c:?}"))
                        )
                    }
                    Source::VirtualOpponent => "virtual opponent".into(),
                    Source::OwnRound => "own round".into(),
                    Source::OwnData => "own data".into(),
                };
                let cut = if c.cut { "  (cut)" } else { "" };
                let _ = writeln!(out, "    {round}{from}: {}{cut}", c.value);
            }
        }
        Some(out)
    }
}
