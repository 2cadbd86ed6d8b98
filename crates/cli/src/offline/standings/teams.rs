//! `arbiter standings --trf FILE --teams`: the team standings (C.07 Arts. 12–13) of a TRF
//! team event, from its team records (013 or 310) and board games (001).
use serde_json::json;
use tiebreak::trf_team_crosstable::{self, TeamAdapterOptions, TrfTeamCrosstable};
use tiebreak::{Error as TbError, Options, PointType, TeamStandings, TieResolution};

use super::{
    PrimaryArg, StandingsArgs, TeamRun, error_subject, list_error, print_working, value_text,
};
use crate::offline::trf::finding_line;
use crate::offline::{failed, usage};
use crate::{Cli, Failure, output};

pub(super) fn run(cli: &Cli, a: &StandingsArgs, t: &TeamRun) -> Result<(), Failure> {
    let path = t.path.display();
    let explain: Option<u32> = match a.explain.as_deref() {
        None => None,
        Some(x) => Some(
            x.trim()
                .parse()
                .map_err(|_| usage(format!("--explain {x:?}: a team number with --teams")))?,
        ),
    };
    let primary = match a.primary {
        Some(PrimaryArg::Gp) => PointType::Game,
        Some(PrimaryArg::Mp) | None => PointType::Match,
    };
    let ct = trf_team_crosstable::from_trf(
        t.doc,
        &TeamAdapterOptions {
            kind: t.kind,
            rounds: a.rounds,
            primary,
            forfeits_from_points: a.forfeits_from_points,
        },
    )
    .map_err(|e| {
        let sep = if e.line == 0 { " " } else { "" };
        failed(format!("{path}:{sep}{e}"))
    })?;
    for n in &ct.notes {
        eprintln!("{path}:{n}");
    }
    if let Some(x) = explain
        && !ct.crosstable.teams.iter().any(|team| team.tpn == x)
    {
        return Err(usage(format!("--explain {x}: no team has number {x}")));
    }
    let options = Options {
        ties: a
            .lot_seed
            .map_or(TieResolution::Shared, |seed| TieResolution::ByLot { seed }),
        unrated_rating: None,
        allow_buchholz_in_round_robin: false,
        with_working: explain.is_some(),
    };
    let s = tiebreak::team_standings(&ct.crosstable, t.edition, t.list, &options)
        .map_err(|e| compute_error(&e, &ct, t))?;
    for w in t
        .findings
        .iter()
        .filter(|f| f.severity == trf::Severity::Warning)
    {
        eprintln!("{}", finding_line(t.path, w));
    }
    if cli.json {
        output::json(&standings_json(&s, &ct, explain));
    } else {
        print_table(&s, &ct);
        if let Some(x) = explain {
            print_explain(&s, x);
        }
    }
    Ok(())
}

/// A list error says where the list came from; a crosstable error points at the team's
/// record.
fn compute_error(e: &TbError, ct: &TrfTeamCrosstable, t: &TeamRun) -> Failure {
    let Ok(team) = error_subject(e) else {
        return list_error(e, t.from_cli, t.line_202);
    };
    let line = team.and_then(|x| {
        let i = ct.crosstable.teams.iter().position(|team| team.tpn == x)?;
        ct.team_lines.get(i).copied()
    });
    match line {
        Some(line) => failed(format!("{}:{line}: {e}", t.path.display())),
        None => failed(format!("{}: {e}", t.path.display())),
    }
}

fn primary_name(p: PointType) -> &'static str {
    match p {
        PointType::Match => "match points",
        PointType::Game => "game points",
    }
}

fn print_table(s: &TeamStandings, ct: &TrfTeamCrosstable) {
    let names: Vec<String> = s.tie_breaks.iter().map(ToString::to_string).collect();
    let mut header = vec!["Rank", "No", "Team", "MP", "GP"];
    header.extend(names.iter().map(String::as_str));
    let rows: Vec<Vec<String>> = s
        .rows
        .iter()
        .map(|r| {
            let mut row = vec![
                format!("{}{}", r.rank, if r.by_lot { "*" } else { "" }),
                r.tpn.to_string(),
                r.name.clone().unwrap_or_default(),
                r.match_points.to_string(),
                r.game_points.to_string(),
            ];
            row.extend(r.values.iter().map(value_text));
            row
        })
        .collect();
    output::table(&header, &rows);
    outln!(
        "{} teams, {} boards, {} rounds, ranked on {} first, edition {}{}",
        s.rows.len(),
        ct.crosstable.boards,
        ct.crosstable.rounds_played,
        primary_name(s.primary),
        s.edition,
        s.lot_seed.map_or(String::new(), |seed| format!(
            ", lots drawn with seed {seed} (*)"
        ))
    );
}

fn print_explain(s: &TeamStandings, team: u32) {
    let Some(row) = s.rows.iter().find(|r| r.tpn == team) else {
        return;
    };
    outln!();
    outln!(
        "Team {team} ({}): rank {}, {} match points, {} game points",
        row.name.as_deref().unwrap_or("no name"),
        row.rank,
        row.match_points,
        row.game_points
    );
    print_working(&s.tie_breaks, &row.values, "team");
}

fn standings_json(
    s: &TeamStandings,
    ct: &TrfTeamCrosstable,
    explain: Option<u32>,
) -> serde_json::Value {
    let rows: Vec<serde_json::Value> = s
        .rows
        .iter()
        .map(|r| {
            let values: Vec<serde_json::Value> = r
                .values
                .iter()
                .map(|v| {
                    v.value
                        .map_or(serde_json::Value::Null, |x| json!(x.to_string()))
                })
                .collect();
            let mut row = json!({
                "rank": r.rank,
                "team": r.tpn,
                "name": r.name,
                "match_points": r.match_points.to_string(),
                "game_points": r.game_points.to_string(),
                "values": values,
                "by_lot": r.by_lot,
            });
            if explain == Some(r.tpn) {
                row["working"] = serde_json::to_value(&r.values).unwrap_or_default();
            }
            row
        })
        .collect();
    json!({
        "edition": s.edition.name(),
        "teams": s.rows.len(),
        "boards": ct.crosstable.boards,
        "rounds": ct.crosstable.rounds_played,
        "primary": match s.primary { PointType::Match => "MP", PointType::Game => "GP" },
        "tie_breaks": s.tie_breaks.iter().map(ToString::to_string).collect::<Vec<_>>(),
        "lot_seed": s.lot_seed,
        "rows": rows,
    })
}
