//! `arbiter standings --trf FILE [--teams] [--tiebreaks LIST] [--edition E] [--explain TPN]`.
use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};
use serde_json::json;
use tiebreak::{
    Category, DummyCap, Edition, Error as TbError, EventKind, Options, Source, Standings, TieBreak,
    TieResolution,
};
use trf::HeaderKind;

use super::trf::{finding_line, load, refuse_errors};
use super::{failed, usage};
use crate::{Cli, Failure, output};
use tiebreak::trf_crosstable::{self, AdapterOptions, TrfCrosstable, UnpairedRounds};

mod teams;

#[derive(Args)]
pub struct StandingsArgs {
    /// A tournament on the server (results service; id or unique prefix; default: the
    /// one `arbiter use` set). With `--trf FILE` the standings of a file, offline.
    #[arg(conflicts_with = "trf")]
    pub id: Option<String>,
    /// The TRF file (TRF16 or TRF26), offline.
    #[arg(long)]
    trf: Option<PathBuf>,
    /// Server: standings after this round (default: every round with all its results).
    #[arg(long, conflicts_with = "trf", default_value_t = 0)]
    round: u32,
    /// Server: as the log stood at this global position (e.g. before a correction).
    #[arg(long, conflicts_with = "trf", default_value_t = 0)]
    as_of: i64,
    /// Server: output format text (default), csv, json or trf.
    #[arg(long, conflicts_with = "trf", default_value = "")]
    format: String,
    /// Ordered tie-break list, C.07 codes with modifiers, e.g. "BH/C1,BH,SB"
    /// (default: the file's record 202; none: points only, tied players share the place).
    #[arg(long)]
    tiebreaks: Option<String>,
    /// Rule edition: C.07 applied from 1 March 2026, C.07 of 1 August 2024, or the seed's C.06 list.
    #[arg(long, value_enum, default_value = "c07-2026")]
    edition: EditionArg,
    /// Print the working of every tie-break value of this participant (starting rank; on
    /// the server also a player id).
    #[arg(long, value_name = "PLAYER")]
    explain: Option<String>,
    /// Standings after this round (default: every round in the file).
    #[arg(long)]
    rounds: Option<usize>,
    /// Swiss (pairings made round by round) or round robin (pre-determined pairings,
    /// C.07 Art. 15.2). Default: from record 092.
    #[arg(long, value_enum)]
    kind: Option<KindArg>,
    /// Rating used for unrated participants in rating-based tie-breaks, if the regulations
    /// announced one (otherwise those tie-breaks are dropped when someone is unrated).
    #[arg(long)]
    unrated_rating: Option<u32>,
    /// Draw lots for participants still tied, reproducibly from this seed (C.07 Art. 4.2);
    /// default: tied participants share the place.
    #[arg(long)]
    lot_seed: Option<u64>,
    /// Unpaired rounds with no result code: "zero" as TRF says (blank = Z), or "from-points":
    /// the byes some exporters count only in the points column are taken from it (each
    /// inference is reported on stderr).
    #[arg(long, value_enum, default_value = "zero")]
    unpaired_rounds: UnpairedArg,
    /// Team standings (C.07 Arts. 12–13) of the teams of records 013 (TRF16) or 310
    /// (TRF26), match points from record 362 (default 2/1/0). The list: --tiebreaks, else
    /// record 202, else MPvGP,EGGSB,BH:MP (a round robin: MPvGP,EDE,EGGSB; this project's default). --explain takes a team
    /// number. With a tournament ID instead of --trf: the results service's team standings
    /// of that team tournament (the same reading of its TRF export).
    #[arg(long, conflicts_with_all = ["unrated_rating", "unpaired_rounds"])]
    teams: bool,
    /// With --teams: the score teams are ranked on first (default: match points).
    #[arg(long, value_enum, requires = "teams")]
    primary: Option<PrimaryArg>,
    /// With --teams: a board both sides lost by forfeit (`-`) in the file, of a player whose
    /// points column counts it as won, is read as a forfeit win (some exporters write a
    /// board won by forfeit that way; each reading is reported on stderr).
    #[arg(long, requires = "teams")]
    forfeits_from_points: bool,
    /// With --teams, a tournament on the server: the board prizes too — per board, its
    /// players by performance rating on that board (games over the board only).
    #[arg(long, requires = "teams")]
    boards: bool,
    /// With --boards: games a player needs on a board to be ranked for its prize
    /// (default: half the rounds, rounded up).
    #[arg(long, requires = "boards")]
    min_games: Option<u32>,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum PrimaryArg {
    /// Match points.
    Mp,
    /// Game points.
    Gp,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum UnpairedArg {
    Zero,
    FromPoints,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum EditionArg {
    #[value(name = "c07-2026")]
    C072026,
    #[value(name = "c07-2024")]
    C072024,
    Seed,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum KindArg {
    Swiss,
    RoundRobin,
}

/// Tie-break list errors are usage errors when the list came from the command line.
fn list_error(e: &TbError, from_cli: bool, file_line: &str) -> Failure {
    let text = match e {
        TbError::TeamOnly { code, position } => format!(
            "tie-break {code} (position {position}) is a team tie-break: --teams gives the team standings"
        ),
        _ => e.to_string(),
    };
    if from_cli {
        usage(format!("--tiebreaks: {text}"))
    } else {
        failed(format!("{file_line}: record 202: {text}"))
    }
}

impl StandingsArgs {
    /// Standings of a tournament on the server (an id given, or no `--trf`: the default
    /// tournament).
    pub fn on_server(&self) -> bool {
        self.id.is_some() || self.trf.is_none()
    }

    /// Flags of the offline form given to the server's: refused saying which flag the
    /// server's standings take instead.
    pub fn check_server_flags(&self) -> Result<(), Failure> {
        if let Some(r) = self.rounds {
            return Err(usage(format!(
                "--rounds is for --trf FILE; a tournament's standings after round {r}: --round {r}"
            )));
        }
        let offline_only = [
            (self.forfeits_from_points, "--forfeits-from-points"),
            (self.kind.is_some(), "--kind"),
            (self.unrated_rating.is_some(), "--unrated-rating"),
            (self.lot_seed.is_some(), "--lot-seed"),
        ];
        if let Some((_, flag)) = offline_only.iter().find(|(given, _)| *given) {
            return Err(usage(format!(
                "{flag} is for --trf FILE (a tournament on the server uses its own settings: `arbiter tournament settings`)"
            )));
        }
        Ok(())
    }

    /// The server query (`id` given, or the default tournament).
    pub fn query(&self) -> crate::round_results::StandingsQuery<'_> {
        crate::round_results::StandingsQuery {
            id: self.id.as_deref().unwrap_or(crate::resolve::DEFAULT),
            round: self.round,
            as_of: self.as_of,
            tiebreaks: self.tiebreaks.as_deref().unwrap_or_default(),
            edition: match self.edition {
                EditionArg::C072026 => "c07-2026",
                EditionArg::C072024 => "c07-2024",
                EditionArg::Seed => "seed",
            },
            format: &self.format,
            explain: self.explain.as_deref().unwrap_or_default(),
            teams: self.teams,
            board_prizes: self.boards.then(|| self.min_games.unwrap_or(0)),
            primary: match self.primary {
                Some(PrimaryArg::Gp) => "gp",
                Some(PrimaryArg::Mp) | None => "",
            },
        }
    }
}

pub fn run(cli: &Cli, a: &StandingsArgs) -> Result<(), Failure> {
    if a.boards {
        return Err(usage(
            "--boards is for a team tournament on the server (the board of each game is in its record, ADR results-004): give its ID instead of --trf FILE",
        ));
    }
    let Some(path) = a.trf.as_deref() else {
        return Err(usage(
            "--trf FILE (offline) or a tournament ID (server) is required",
        ));
    };
    let explain: Option<u32> = match a.explain.as_deref() {
        None => None,
        Some(t) => Some(t.trim().parse().map_err(|_| {
            usage(format!(
                "--explain {t:?}: a starting rank (a number) with --trf"
            ))
        })?),
    };
    let parsed = load(path)?;
    refuse_errors(path, &parsed.findings)?;
    let doc = &parsed.doc;
    let edition = match a.edition {
        EditionArg::C072026 => Edition::C07_2026,
        EditionArg::C072024 => Edition::C07_2024,
        EditionArg::Seed => Edition::SeedC06,
    };
    // The list: --tiebreaks, else record 202.
    let line_202 = doc
        .lines
        .iter()
        .position(
            |l| matches!(&l.record, trf::Record::Header(h) if h.kind == HeaderKind::TieBreaks),
        )
        .map_or_else(
            || path.display().to_string(),
            |i| format!("{}:{}", path.display(), i + 1),
        );
    let (mut codes, from_cli): (Vec<String>, bool) = match &a.tiebreaks {
        Some(list) => (
            list.split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(String::from)
                .collect(),
            true,
        ),
        None => (doc.header().tie_breaks, false),
    };
    let kind = match a.kind {
        Some(KindArg::Swiss) => EventKind::Swiss,
        Some(KindArg::RoundRobin) => EventKind::RoundRobin,
        None => trf_crosstable::event_kind(doc),
    };
    // Without --tiebreaks or record 202: this project's list (ADR tiebreak-012).
    if a.teams && codes.is_empty() && !from_cli {
        codes = tiebreak::team_standings::default_team_tiebreaks(kind)
            .iter()
            .map(|c| (*c).to_owned())
            .collect();
    }
    let list: Vec<TieBreak> =
        tiebreak::parse_list(&codes, edition).map_err(|e| list_error(&e, from_cli, &line_202))?;
    if a.teams {
        let parsed = TeamRun {
            path,
            doc,
            edition,
            list: &list,
            from_cli,
            line_202: &line_202,
            kind,
            findings: &parsed.findings,
        };
        return teams::run(cli, a, &parsed);
    }
    let unpaired = match a.unpaired_rounds {
        UnpairedArg::Zero => UnpairedRounds::Zero,
        UnpairedArg::FromPoints => UnpairedRounds::FromPoints,
    };
    if unpaired == UnpairedRounds::FromPoints && a.rounds.is_some() {
        return Err(usage(
            "--unpaired-rounds from-points reads the final points column; it cannot be combined \
             with --rounds",
        ));
    }
    let ct = trf_crosstable::from_trf(
        doc,
        &AdapterOptions {
            kind,
            rounds: a.rounds,
            unpaired,
        },
    )
    .map_err(|e| {
        let sep = if e.line == 0 { " " } else { "" };
        failed(format!("{}:{sep}{e}", path.display()))
    })?;
    for n in &ct.notes {
        eprintln!("{}:{n}", path.display());
    }
    if let Some(t) = explain
        && ct.line_of(t).is_none()
    {
        return Err(usage(format!(
            "--explain {t}: no participant has starting rank {t}"
        )));
    }
    let options = Options {
        ties: a
            .lot_seed
            .map_or(TieResolution::Shared, |seed| TieResolution::ByLot { seed }),
        unrated_rating: a.unrated_rating,
        allow_buchholz_in_round_robin: false,
        with_working: explain.is_some(),
    };
    let s = tiebreak::standings(&ct.crosstable, edition, &list, &options)
        .map_err(|e| compute_error(&e, &ct, path, from_cli, &line_202))?;
    for w in parsed
        .findings
        .iter()
        .filter(|f| f.severity == trf::Severity::Warning)
    {
        eprintln!("{}", finding_line(path, w));
    }
    for d in &s.dropped {
        eprintln!(
            "note: tie-break {} (position {}) dropped: {}",
            d.tie_break, d.position, d.reason
        );
    }
    if cli.json {
        output::json(&standings_json(&s, &ct, explain));
    } else {
        print_table(&s, &ct);
        if let Some(t) = explain {
            print_explain(&s, t);
        }
    }
    Ok(())
}

/// What the team standings take from the individual ones' reading of the file and list.
struct TeamRun<'a> {
    path: &'a Path,
    doc: &'a trf::TrfDocument,
    edition: Edition,
    list: &'a [TieBreak],
    from_cli: bool,
    line_202: &'a str,
    kind: EventKind,
    findings: &'a [trf::Finding],
}

/// The participant (starting rank, or team number) a computation error is about; `Err`
/// for an error of the tie-break list.
fn error_subject(e: &TbError) -> Result<Option<u32>, ()> {
    match e {
        TbError::UnknownCode { .. }
        | TbError::InvalidModifier { .. }
        | TbError::NotInEdition { .. }
        | TbError::NotAllowedInRoundRobin { .. }
        | TbError::TeamOnly { .. }
        | TbError::NotForTeams { .. } => Err(()),
        TbError::DuplicateTpn(t) => Ok(Some(*t)),
        TbError::WrongRoundCount { tpn, .. }
        | TbError::UnknownOpponent { tpn, .. }
        | TbError::InconsistentPairing { tpn, .. } => Ok(Some(*tpn)),
        TbError::InvalidScoring(_) => Ok(None),
    }
}

/// A crosstable error points at the participant's line.
fn compute_error(
    e: &TbError,
    ct: &TrfCrosstable,
    path: &Path,
    from_cli: bool,
    line_202: &str,
) -> Failure {
    let Ok(tpn) = error_subject(e) else {
        return list_error(e, from_cli, line_202);
    };
    match tpn.and_then(|t| ct.line_of(t)) {
        Some(line) => failed(format!("{}:{line}: {e}", path.display())),
        None => failed(format!("{}: {e}", path.display())),
    }
}

fn value_text(v: &tiebreak::TieBreakValue) -> String {
    v.value.map_or_else(|| "-".to_string(), |x| x.to_string())
}

fn print_table(s: &Standings, ct: &TrfCrosstable) {
    let names: Vec<String> = s.tie_breaks.iter().map(ToString::to_string).collect();
    let mut header = vec!["Rank", "TPN", "Name", "Fed", "Rtg", "Pts"];
    header.extend(names.iter().map(String::as_str));
    let rows: Vec<Vec<String>> = s
        .rows
        .iter()
        .map(|r| {
            let p = ct.crosstable.players.iter().find(|p| p.tpn == r.tpn);
            let mut row = vec![
                format!("{}{}", r.rank, if r.by_lot { "*" } else { "" }),
                r.tpn.to_string(),
                p.and_then(|p| p.name.clone()).unwrap_or_default(),
                p.and_then(|p| p.federation.clone()).unwrap_or_default(),
                p.and_then(|p| p.rating)
                    .map_or(String::new(), |r| r.to_string()),
                r.points.to_string(),
            ];
            row.extend(r.values.iter().map(value_text));
            row
        })
        .collect();
    output::table(&header, &rows);
    outln!(
        "{} participants, {} rounds, edition {}{}",
        s.rows.len(),
        ct.crosstable.rounds_played,
        s.edition,
        s.lot_seed.map_or(String::new(), |seed| format!(
            ", lots drawn with seed {seed} (*)"
        ))
    );
}

fn source_text(src: &Source) -> String {
    match src {
        Source::Opponent { tpn } => format!("opponent {tpn}"),
        Source::Dummy { category, cap } => {
            let what = match category {
                Category::PabOrFpb => "PAB/FPB, Art. 16.2.1",
                Category::ForfeitWin => "forfeit win, Art. 16.2.2",
                Category::RequestedByeThenPlayed => "requested bye, Art. 16.2.3",
                Category::ForfeitLoss => "forfeit loss, Art. 16.2.4",
                Category::RequestedByeToTheEnd => "bye to the end, Art. 16.2.5",
            };
            match cap {
                Some(DummyCap::ScheduledOpponentAdjustedScore { opponent_tpn }) => format!(
                    "dummy ({what}; capped at opponent {opponent_tpn}'s adjusted score, 16.4.1)"
                ),
                Some(DummyCap::DrawTimesRounds) => {
                    format!("dummy ({what}; capped at draw × rounds, 16.4.2)")
                }
                None => format!("dummy ({what})"),
            }
        }
        Source::VirtualOpponent => "virtual opponent".into(),
        Source::OwnRound => "own round".into(),
        Source::OwnData => "own data".into(),
    }
}

fn print_explain(s: &Standings, tpn: u32) {
    let Some(row) = s.rows.iter().find(|r| r.tpn == tpn) else {
        return;
    };
    outln!();
    outln!(
        "Participant {tpn}: rank {}, {} points",
        row.rank,
        row.points
    );
    print_working(&s.tie_breaks, &row.values, "opponent");
}

/// Each tie-break value and its working, round by round; `opponent` is what the working
/// calls an opponent ("opponent", or "team" in team standings).
fn print_working(tie_breaks: &[TieBreak], values: &[tiebreak::TieBreakValue], opponent: &str) {
    for (tb, v) in tie_breaks.iter().zip(values) {
        outln!();
        outln!("{tb} = {}", value_text(v));
        let rows: Vec<Vec<String>> = v
            .working
            .contributions
            .iter()
            .map(|c| {
                vec![
                    c.round.map_or(String::new(), |r| r.to_string()),
                    source_text(&c.source).replace("opponent", opponent),
                    c.value.to_string(),
                    if c.cut { "cut".into() } else { String::new() },
                ]
            })
            .collect();
        if !rows.is_empty() {
            output::table(&["Round", "From", "Value", ""], &rows);
        }
        if let Some(note) = &v.working.note {
            outln!("{note}");
        }
    }
}

fn standings_json(s: &Standings, ct: &TrfCrosstable, explain: Option<u32>) -> serde_json::Value {
    let rows: Vec<serde_json::Value> = s
        .rows
        .iter()
        .map(|r| {
            let p = ct.crosstable.players.iter().find(|p| p.tpn == r.tpn);
            let f = ct.players.iter().find(|p| p.tpn == r.tpn);
            let values: Vec<serde_json::Value> = r
                .values
                .iter()
                .map(|v| v.value.map_or(serde_json::Value::Null, |x| json!(x.to_string())))
                .collect();
            let mut row = json!({
                "rank": r.rank,
                "tpn": r.tpn,
                "name": p.and_then(|p| p.name.clone()),
                "federation": p.and_then(|p| p.federation.clone()),
                "rating": p.and_then(|p| p.rating),
                "points": r.points.to_string(),
                "values": values,
                "by_lot": r.by_lot,
                "stated_points": f.and_then(|f| f.stated_points).map(|x| format!("{:.1}", f64::from(x.tenths()) / 10.0)),
                "stated_rank": f.and_then(|f| f.stated_rank),
            });
            if explain == Some(r.tpn) {
                row["working"] = serde_json::to_value(&r.values).unwrap_or_default();
            }
            row
        })
        .collect();
    json!({
        "edition": s.edition.name(),
        "rounds": ct.crosstable.rounds_played,
        "tie_breaks": s.tie_breaks.iter().map(ToString::to_string).collect::<Vec<_>>(),
        "dropped": s.dropped.iter().map(|d| json!({
            "tie_break": d.tie_break.to_string(),
            "position": d.position,
            "reason": d.reason,
        })).collect::<Vec<_>>(),
        "lot_seed": s.lot_seed,
        "rows": rows,
    })
}
