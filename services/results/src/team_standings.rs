//! Team standings served by the results service (C.07 Arts. 12–13; ADR tiebreak-013),
//! pure: the tournament's TRF document as the registry exports it (team records 310/013,
//! board games in 001, MP from 362), read by `tiebreak::trf_team_crosstable` and ranked by
//! `tiebreak::team_standings` — the same reading as the offline
//! `arbiter standings --trf FILE --teams` (`crates/cli/src/offline/standings/teams.rs`).
//!
//! Kept apart from `standings_projection.rs` (the individual standings); `lib.rs`'s
//! `GetStandings` calls [`compute`] when the request asks for teams.
use arbiter_proto::v1::{StandingRow, Tournament};
use arbiter_registry::roster::Roster;
use arbiter_registry::tournament::FieldError;
use arbiter_registry::trf_export::{ExportOptions, export_doc};
use tiebreak::trf_team_crosstable::{self, TeamAdapterOptions};
use tiebreak::{Edition, Options, PointType, TieResolution};

fn err(field: &'static str, message: impl Into<String>) -> FieldError {
    FieldError {
        field,
        message: message.into(),
    }
}

/// The team standings as answered.
#[derive(Debug, Clone, PartialEq)]
pub struct TeamAnswer {
    /// Rounds the standings are after.
    pub after_round: u32,
    /// Tie-break names, in order.
    pub tiebreaks: Vec<String>,
    /// One row per team: tpn = team number, name = team name, points = match points.
    pub rows: Vec<StandingRow>,
    /// The working of the team asked for (empty: none asked).
    pub explanation: String,
    /// The standings as JSON, in the shape of the offline `--teams --json` (match and
    /// game points, values, boards, rounds).
    pub document: String,
}

/// "mp" (default) or "gp".
pub fn primary(name: &str) -> Result<PointType, FieldError> {
    match name.trim().to_ascii_lowercase().as_str() {
        "" | "mp" => Ok(PointType::Match),
        "gp" => Ok(PointType::Game),
        other => Err(err("primary", format!("{other:?}: mp (default) or gp"))),
    }
}

/// What a team standings request asks.
#[derive(Debug, Clone, Copy)]
pub struct TeamQuery<'a> {
    /// After this round (0 = every paired round).
    pub round: u32,
    /// Tie-break codes, comma-separated ("" = record 202, else the default list).
    pub list: &'a str,
    pub edition: Edition,
    pub primary: PointType,
    /// A team number or name whose working is shown ("" = none).
    pub explain_team: &'a str,
    /// The board prizes too, with this least number of games (0 = the default).
    pub board_prizes: Option<u32>,
}

/// The team standings of tournament `t` as `q` asks.
pub fn compute(
    t: &Tournament,
    roster: &Roster,
    q: &TeamQuery<'_>,
) -> Result<TeamAnswer, FieldError> {
    let TeamQuery {
        round,
        list,
        edition,
        primary,
        explain_team,
        board_prizes,
    } = *q;
    if roster.teams.teams.is_empty() {
        return Err(err(
            "teams",
            "this tournament has no teams (team standings need a team tournament: `arbiter team add`, or a team TRF imported)",
        ));
    }
    let (doc, after) = export_doc(
        t,
        roster,
        &ExportOptions {
            round,
            ..ExportOptions::default()
        },
    )?;
    let mut codes: Vec<String> = list
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(String::from)
        .collect();
    if codes.is_empty() {
        codes = doc.header().tie_breaks;
    }
    let kind = tiebreak::trf_crosstable::event_kind(&doc);
    if codes.is_empty() {
        // As offline (ADR tiebreak-012).
        codes = tiebreak::team_standings::default_team_tiebreaks(kind)
            .iter()
            .map(|c| (*c).to_owned())
            .collect();
    }
    let tie_breaks =
        tiebreak::parse_list(&codes, edition).map_err(|e| err("tiebreaks", e.to_string()))?;
    let ct = trf_team_crosstable::from_trf(
        &doc,
        &TeamAdapterOptions {
            kind,
            rounds: None,
            primary,
            forfeits_from_points: false,
        },
    )
    .map_err(|e| {
        err(
            "teams",
            format!("the tournament's team record: {}", e.message),
        )
    })?;
    let explain: Option<u32> = if explain_team.trim().is_empty() {
        None
    } else {
        let x = explain_team.trim();
        let team = roster
            .teams
            .resolve(x)
            .map_err(|e| err("explain_player", e.message))?;
        Some(team.number)
    };
    let options = Options {
        ties: TieResolution::Shared,
        unrated_rating: None,
        allow_buchholz_in_round_robin: false,
        with_working: explain.is_some(),
    };
    let s = tiebreak::team_standings(&ct.crosstable, edition, &tie_breaks, &options)
        .map_err(|e| err("tiebreaks", e.to_string()))?;
    let value = |v: &tiebreak::TieBreakValue| v.value.map_or_else(|| "-".into(), |x| x.to_string());
    let mut shared_ranks = std::collections::BTreeMap::<u32, usize>::new();
    for r in &s.rows {
        *shared_ranks.entry(r.rank).or_default() += 1;
    }
    let rows = s
        .rows
        .iter()
        .map(|r| StandingRow {
            rank: r.rank,
            shared: shared_ranks.get(&r.rank).copied().unwrap_or(0) > 1,
            tpn: r.tpn,
            player_id: String::new(),
            name: r.name.clone().unwrap_or_default(),
            rating: 0,
            points: r.match_points.to_string(),
            tiebreak_values: r.values.iter().map(value).collect(),
        })
        .collect();
    let explanation = explain.and_then(|x| s.explain(x)).unwrap_or_default();
    let json_rows: Vec<serde_json::Value> = s
        .rows
        .iter()
        .map(|r| {
            serde_json::json!({
                "rank": r.rank,
                "team": r.tpn,
                "name": r.name,
                "match_points": r.match_points.to_string(),
                "game_points": r.game_points.to_string(),
                "values": r.values.iter().map(|v| v.value.map_or(serde_json::Value::Null, |x| serde_json::json!(x.to_string()))).collect::<Vec<_>>(),
                "by_lot": r.by_lot,
            })
        })
        .collect();
    let prizes = board_prizes
        .map(|min_games| crate::board_prizes::compute(roster, after, min_games))
        .transpose()?;
    let mut document = serde_json::json!({
        "edition": s.edition.name(),
        "teams": s.rows.len(),
        "boards": ct.crosstable.boards,
        "rounds": ct.crosstable.rounds_played,
        "primary": match s.primary { PointType::Match => "MP", PointType::Game => "GP" },
        "tie_breaks": s.tie_breaks.iter().map(ToString::to_string).collect::<Vec<_>>(),
        "lot_seed": s.lot_seed,
        "rows": json_rows,
    });
    if let Some(p) = &prizes {
        document["board_prizes"] = crate::board_prizes::to_json(p);
    }
    let document = document.to_string();
    Ok(TeamAnswer {
        document,
        after_round: after,
        tiebreaks: s.tie_breaks.iter().map(ToString::to_string).collect(),
        rows,
        explanation,
    })
}
