//! `arbiter rating list-import|submit|run|publish|status|export|report`: the rating
//! service (monthly FIDE lists). PERIOD is the list produced, `YYYY-MM`.
use std::io::{BufReader, Write};
use std::path::PathBuf;
use std::time::Duration;

use arbiter_proto::v1::rating_service_client::RatingServiceClient;
use arbiter_proto::v1::{
    CommandMeta, ExportRatingListRequest, GetRatingPeriodRequest, GetRatingReportRequest,
    GetRatingTournamentReportRequest, ImportStartingListRequest, PublishRatingPeriodRequest,
    RatingChange, RatingListEntry, RatingListKind, RatingListPlayer, RatingPeriodStatus,
    RatingPlayerReport, RunRatingPeriodRequest, SubmitExternalTournamentRequest,
};
use clap::{Args, Subcommand, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};

use crate::client::{authed, connect, token};
use crate::{Cli, Failure, output};

/// Players per import request (one `StartingListImported` event each).
const CHUNK: usize = 5_000;

#[derive(Subcommand)]
pub enum RatingCommand {
    /// Import a FIDE player list (TXT or XML) as the starting list of a month.
    ListImport {
        /// The list file (players_list_foa.txt, players_list_xml_foa.xml, …).
        file: PathBuf,
        /// The list month these ratings are published on, YYYY-MM.
        #[arg(long)]
        month: String,
        #[command(flatten)]
        command: CommandArgs,
    },
    /// Submit a tournament rated outside this system (TRF16/TRF26). Submitting the same
    /// tournament id again is a correction (give --reason).
    Submit {
        /// The TRF file.
        file: PathBuf,
        /// Which list the games are rated for.
        #[arg(long, value_enum)]
        kind: Kind,
        /// Tournament id (default: from the 012 name and the end date).
        #[arg(long, default_value = "")]
        tournament_id: String,
        /// End date YYYY-MM-DD (default: the 052 record).
        #[arg(long, default_value = "")]
        end_date: String,
        /// Official FIDE event (may end on the day before the list date, §7.1.3).
        #[arg(long)]
        official: bool,
        #[command(flatten)]
        rules: MatchArgs,
        #[command(flatten)]
        command: CommandArgs,
    },
    /// Submit a tournament run here (its results as rating sees them). Submitting it
    /// again after a correction is a revision (give --reason).
    SubmitTournament {
        /// The tournament id (registry) or a unique prefix (default: the one `arbiter use` set).
        id: String,
        /// Which list the games are rated for.
        #[arg(long, value_enum)]
        kind: Kind,
        /// Official FIDE event (may end on the day before the list date, §7.1.3).
        #[arg(long)]
        official: bool,
        #[command(flatten)]
        rules: MatchArgs,
        #[command(flatten)]
        command: CommandArgs,
    },
    /// Compute a period's list (closing it when its closing date has passed).
    Run {
        /// The list produced, YYYY-MM.
        period: String,
        /// Compute and show, write and publish nothing; also before the period's closing
        /// date (a rehearsal of the run).
        #[arg(long, visible_alias = "rehearse")]
        dry_run: bool,
        #[command(flatten)]
        command: CommandArgs,
    },
    /// Publish a computed period.
    Publish {
        /// YYYY-MM.
        period: String,
        #[command(flatten)]
        command: CommandArgs,
    },
    /// A period's status, revision and last diff.
    Status {
        /// YYYY-MM.
        period: String,
    },
    /// Export a period's list.
    Export {
        /// YYYY-MM.
        period: String,
        #[arg(long, value_enum, default_value = "txt")]
        format: ExportFormat,
        /// Revision (default: the latest).
        #[arg(long, default_value_t = 0)]
        revision: u32,
        /// Write here instead of stdout.
        #[arg(long, short)]
        output: Option<PathBuf>,
    },
    /// A tournament's rating report: per player, rated games, score, expected score, K
    /// and K × ΣΔR in the tournament's period.
    TournamentReport {
        /// Tournament id (as `submit` printed it).
        tournament_id: String,
        /// Revision of the tournament's period (default: the latest).
        #[arg(long, default_value_t = 0)]
        revision: u32,
    },
    /// A player's individual calculation for a period (every game: opponent, rating, D,
    /// PD, score, ΔR, K; the totals).
    Report {
        /// FIDE id.
        fide_id: u32,
        /// YYYY-MM.
        period: String,
        /// One list only (default: every list with games).
        #[arg(long, value_enum)]
        kind: Option<Kind>,
        /// Revision (default: the latest).
        #[arg(long, default_value_t = 0)]
        revision: u32,
    },
}

#[derive(Clone, Copy, ValueEnum)]
pub enum Kind {
    Standard,
    Rapid,
    Blitz,
}

impl Kind {
    fn proto(self) -> RatingListKind {
        match self {
            Kind::Standard => RatingListKind::Standard,
            Kind::Rapid => RatingListKind::Rapid,
            Kind::Blitz => RatingListKind::Blitz,
        }
    }
}

#[derive(Clone, Copy, ValueEnum)]
pub enum ExportFormat {
    Txt,
    Xml,
    Csv,
}

#[derive(Args)]
pub struct CommandArgs {
    /// Idempotency key: retrying with the same id is safe (default: a new id).
    #[arg(long)]
    command_id: Option<String>,
    /// Why (recorded on the events; required for a correction).
    #[arg(long, default_value = "")]
    reason: String,
}

/// B.02 §6 matches.
#[derive(Args)]
pub struct MatchArgs {
    /// The event is a match (assumed for a file of two players): games after it was
    /// decided are not rated; with an unrated player, none is.
    #[arg(long = "match")]
    match_event: bool,
    /// Games scheduled in the match (default: the TRF's 142/XXR record).
    #[arg(long, default_value_t = 0)]
    match_games: u32,
}

fn meta(c: &CommandArgs, suffix: &str) -> Option<CommandMeta> {
    Some(CommandMeta {
        command_id: match &c.command_id {
            Some(id) => format!("{id}{suffix}"),
            None => uuid::Uuid::now_v7().to_string(),
        },
        expected_version: None,
        reason: c.reason.clone(),
        request_digest: Vec::new(),
    })
}

fn kind_name(k: u32) -> &'static str {
    match k {
        2 => "rapid",
        3 => "blitz",
        _ => "standard",
    }
}

fn rating_text(r: u32) -> String {
    if r == 0 {
        "unrated".into()
    } else {
        r.to_string()
    }
}

fn usage(message: String) -> Failure {
    Failure { code: 2, message }
}

fn diff_json(d: &[RatingChange]) -> serde_json::Value {
    serde_json::Value::Array(
        d.iter()
            .map(|c| {
                serde_json::json!({"fide_id": c.fide_id, "name": c.name, "kind": kind_name(c.kind),
                "old": c.old_rating, "new": c.new_rating})
            })
            .collect(),
    )
}

fn print_diff(d: &[RatingChange]) {
    let rows: Vec<Vec<String>> = d
        .iter()
        .map(|c| {
            vec![
                c.fide_id.to_string(),
                c.name.clone(),
                kind_name(c.kind).into(),
                rating_text(c.old_rating),
                rating_text(c.new_rating),
            ]
        })
        .collect();
    output::table(&["FIDE ID", "NAME", "LIST", "OLD", "NEW"], &rows);
}

fn status_json(s: &RatingPeriodStatus) -> serde_json::Value {
    serde_json::json!({"period": s.period, "status": s.status, "closing_date": s.closing_date,
        "revision": s.revision, "list_sha256": s.list_sha256, "tournaments": s.tournaments,
        "version": s.version, "last_diff": diff_json(&s.last_diff)})
}

fn print_status(s: &RatingPeriodStatus) {
    println!(
        "period {}: {} (closing date {}), revision {}, {} tournament(s)",
        s.period,
        s.status,
        s.closing_date,
        s.revision,
        s.tournaments.len()
    );
    if !s.list_sha256.is_empty() {
        println!("list sha256 {}", s.list_sha256);
    }
    if !s.last_diff.is_empty() {
        println!("revision {} changed:", s.revision);
        print_diff(&s.last_diff);
    }
}

/// From the file-format record: published fields only (the service derives the rest).
fn to_proto(l: &ratinglist::ListPlayer) -> RatingListPlayer {
    let e = |r: Option<&ratinglist::RatingEntry>| {
        r.map(|r| RatingListEntry {
            rating: r.rating as u32,
            games: r.games as u32,
            k: r.k.unwrap_or(0) as u32,
            ..Default::default()
        })
    };
    RatingListPlayer {
        fide_id: l.fide_id,
        name: l.name.clone(),
        federation: l.federation.clone(),
        sex: l.sex.map(|s| s.code().to_string()).unwrap_or_default(),
        title: l.title.map(|t| t.code().to_owned()).unwrap_or_default(),
        women_title: l
            .women_title
            .map(|t| t.code().to_owned())
            .unwrap_or_default(),
        other_titles: l.other_titles.join(","),
        foa_title: l.foa_title.clone().unwrap_or_default(),
        birth_year: l.birth_year.unwrap_or(0) as u32,
        flags: l.flags.code(),
        standard: e(l.standard.as_ref()),
        rapid: e(l.rapid.as_ref()),
        blitz: e(l.blitz.as_ref()),
    }
}

async fn list_import(
    cli: &Cli,
    client: &mut RatingServiceClient<crate::client::Chan>,
    file: &PathBuf,
    month: &str,
    command: &CommandArgs,
) -> Result<(), Failure> {
    let token = token(cli)?;
    let f = std::fs::File::open(file).map_err(|e| usage(format!("{}: {e}", file.display())))?;
    let size = f.metadata().map(|m| m.len()).unwrap_or(0);
    let mut reader = ratinglist::read_list(BufReader::with_capacity(1 << 16, f))
        .map_err(|e| usage(format!("{}: {e}", file.display())))?;
    let bar = if cli.json {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(size)
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {bytes}/{total_bytes} {msg} ({eta})")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let base_id = command
        .command_id
        .clone()
        .unwrap_or_else(|| uuid::Uuid::now_v7().to_string());
    let source_name = file
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let (mut chunk, mut sent, mut bad) = (0u32, 0u64, Vec::new());
    let mut batch = Vec::with_capacity(CHUNK);
    let resume = |f: Failure, chunk: u32| Failure {
        code: f.code,
        message: format!(
            "{} (chunk {chunk}; chunks before it are stored: re-run with --command-id {base_id} to resume)",
            f.message
        ),
    };
    let send = |batch: Vec<RatingListPlayer>, chunk: u32, last: bool| {
        let req = ImportStartingListRequest {
            meta: Some(CommandMeta {
                command_id: format!("{base_id}-chunk-{chunk}"),
                expected_version: None,
                reason: command.reason.clone(),
                request_digest: Vec::new(),
            }),
            list_month: month.to_owned(),
            chunk,
            last,
            players: batch,
            source_name: source_name.clone(),
        };
        let mut c = client.clone();
        let token = token.clone();
        async move {
            c.import_starting_list(authed(&token, req)?)
                .await
                .map(|r| r.into_inner())
                .map_err(Failure::from)
        }
    };
    loop {
        let item = reader.next();
        match item {
            Some(Ok(p)) => batch.push(to_proto(&p)),
            Some(Err(e)) if e.is_fatal() => {
                bar.abandon();
                return Err(Failure {
                    code: 1,
                    message: format!("{}: {e}", file.display()),
                });
            }
            Some(Err(e)) => bad.push(e.to_string()),
            None => break,
        }
        if batch.len() == CHUNK {
            let b = std::mem::replace(&mut batch, Vec::with_capacity(CHUNK));
            sent += b.len() as u64;
            send(b, chunk, false).await.map_err(|f| resume(f, chunk))?;
            chunk += 1;
            bar.set_position(reader.bytes_consumed());
            bar.set_message(format!("{sent} players"));
        }
    }
    sent += batch.len() as u64;
    let r = send(batch, chunk, true)
        .await
        .map_err(|f| resume(f, chunk))?;
    bar.finish_and_clear();
    if cli.json {
        output::json(
            &serde_json::json!({"list_month": month, "players": r.players_so_far,
            "chunks": chunk + 1, "skipped_records": bad.len(), "skipped": bad}),
        );
    } else {
        println!(
            "imported {} players for the {month} list in {} chunk(s) ({sent} sent)",
            r.players_so_far,
            chunk + 1
        );
        if !bad.is_empty() {
            println!("skipped {} bad record(s):", bad.len());
            for b in bad.iter().take(20) {
                println!("  {}", output::clean(b));
            }
        }
    }
    Ok(())
}

fn print_report(r: &RatingPlayerReport) {
    println!(
        "{} (FIDE {}), period {}, revision {}",
        r.name, r.fide_id, r.period, r.revision
    );
    if r.lists.is_empty() {
        println!("no games in this period");
    }
    for l in &r.lists {
        println!();
        println!(
            "{} ({}): rating {}",
            kind_name(l.kind as u32),
            l.edition,
            rating_text(l.rating_before)
        );
        for e in &l.events {
            println!();
            println!(
                "  {} [{}]  K = {} {}",
                e.name, e.tournament_id, e.k, e.k_rule
            );
            let rows: Vec<Vec<String>> = e
                .games
                .iter()
                .map(|g| {
                    vec![
                        g.opponent_id.to_string(),
                        g.opponent_name.clone(),
                        rating_text(g.opponent_rating),
                        if g.pd.is_empty() {
                            String::new()
                        } else {
                            format!("{} ({})", g.d_used, g.d_actual)
                        },
                        g.pd.clone(),
                        g.score.clone(),
                        g.delta.clone(),
                        if g.pd.is_empty() {
                            String::new()
                        } else {
                            g.k.to_string()
                        },
                        g.k_delta.clone(),
                        g.status.clone(),
                    ]
                })
                .collect();
            output::table(
                &[
                    "OPPONENT",
                    "NAME",
                    "RATING",
                    "D (ACTUAL)",
                    "PD",
                    "SCORE",
                    "ΔR",
                    "K",
                    "K×ΔR",
                    "",
                ],
                &rows,
            );
            if !e.score.is_empty() {
                println!(
                    "  score {}  expected {}  ΣΔR {}  K×ΣΔR {}",
                    e.score, e.expected, e.sum_delta, e.change
                );
            }
        }
        println!();
        println!(
            "  rated games {}  change {} → {}  new rating {}",
            l.rated_games,
            l.change_unrounded,
            l.change,
            rating_text(l.rating_after)
        );
        if !l.note.is_empty() {
            println!("  {}", output::clean(&l.note));
        }
    }
}

fn report_json(r: &RatingPlayerReport) -> serde_json::Value {
    serde_json::json!({"fide_id": r.fide_id, "name": r.name, "period": r.period, "revision": r.revision,
      "lists": r.lists.iter().map(|l| serde_json::json!({
        "kind": kind_name(l.kind as u32), "edition": l.edition, "rating_before": l.rating_before,
        "rated_games": l.rated_games, "change_unrounded": l.change_unrounded, "change": l.change,
        "rating_after": l.rating_after, "note": l.note,
        "events": l.events.iter().map(|e| serde_json::json!({
            "tournament_id": e.tournament_id, "name": e.name, "k": e.k, "k_rule": e.k_rule,
            "score": e.score, "expected": e.expected, "sum_delta": e.sum_delta, "change": e.change,
            "games": e.games.iter().map(|g| serde_json::json!({
                "opponent_id": g.opponent_id, "opponent_name": g.opponent_name,
                "opponent_rating": g.opponent_rating, "d_actual": g.d_actual, "d_used": g.d_used,
                "pd": g.pd, "score": g.score, "delta": g.delta, "k": g.k, "k_delta": g.k_delta,
                "status": g.status})).collect::<Vec<_>>()})).collect::<Vec<_>>()})).collect::<Vec<_>>()})
}

pub async fn run(cli: &Cli, cmd: &RatingCommand) -> Result<(), Failure> {
    let mut client = RatingServiceClient::new(connect(cli).await?)
        .max_decoding_message_size(64 * 1024 * 1024)
        .max_encoding_message_size(64 * 1024 * 1024);
    match cmd {
        RatingCommand::ListImport {
            file,
            month,
            command,
        } => list_import(cli, &mut client, file, month, command).await?,
        RatingCommand::Submit {
            file,
            kind,
            tournament_id,
            end_date,
            official,
            rules,
            command,
        } => {
            let token = token(cli)?;
            let trf = std::fs::read(file).map_err(|e| usage(format!("{}: {e}", file.display())))?;
            let r = client
                .submit_external_tournament(authed(
                    &token,
                    SubmitExternalTournamentRequest {
                        meta: meta(command, ""),
                        trf,
                        kind: kind.proto() as i32,
                        tournament_id: tournament_id.clone(),
                        end_date: end_date.clone(),
                        official_fide_event: *official,
                        match_event: rules.match_event,
                        match_games: rules.match_games,
                    },
                )?)
                .await?
                .into_inner();
            print_submitted(cli, &r);
        }
        RatingCommand::SubmitTournament {
            id,
            kind,
            official,
            rules,
            command,
        } => {
            let token = token(cli)?;
            let id = crate::resolve::tournament(cli, &connect(cli).await?, id).await?;
            let r = client
                .submit_tournament(authed(
                    &token,
                    arbiter_proto::v1::SubmitTournamentRequest {
                        meta: meta(command, ""),
                        tournament_id: id.clone(),
                        kind: kind.proto() as i32,
                        official_fide_event: *official,
                        match_event: rules.match_event,
                        match_games: rules.match_games,
                    },
                )?)
                .await?
                .into_inner();
            print_submitted(cli, &r);
        }
        RatingCommand::Run {
            period,
            dry_run,
            command,
        } => {
            let token = token(cli)?;
            let spinner = if cli.json {
                ProgressBar::hidden()
            } else {
                ProgressBar::new_spinner()
            };
            spinner.set_message(format!("computing {period}…"));
            spinner.enable_steady_tick(Duration::from_millis(120));
            let r = client
                .run_period(authed(
                    &token,
                    RunRatingPeriodRequest {
                        meta: meta(command, ""),
                        period: period.clone(),
                        dry_run: *dry_run,
                    },
                )?)
                .await;
            spinner.finish_and_clear();
            let r = r?.into_inner();
            let status = r.status.clone().unwrap_or_default();
            if cli.json {
                output::json(&serde_json::json!({"period": period, "dry_run": dry_run,
                    "unchanged": r.unchanged, "written": r.ack.is_some(), "status": status_json(&status),
                    "list_sha256": r.list_sha256, "players": r.players, "games": r.games,
                    "tournaments": r.tournaments, "diff": diff_json(&r.diff),
                    "rippled": ripple_json(&r.rippled)}));
            } else {
                let what = if *dry_run {
                    "rehearsal (dry run): nothing written, nothing published".to_owned()
                } else if r.unchanged {
                    format!("unchanged: revision {} stands", status.revision)
                } else {
                    format!("{} revision {}", status.status, status.revision)
                };
                println!(
                    "period {period}: {what}; {} players, {} games, {} tournament(s)",
                    r.players, r.games, r.tournaments
                );
                println!("list sha256 {}", r.list_sha256);
                if !r.diff.is_empty() {
                    print_diff(&r.diff);
                }
                print_ripple(&r.rippled);
            }
        }
        RatingCommand::Publish { period, command } => {
            let token = token(cli)?;
            let s = client
                .publish_period(authed(
                    &token,
                    PublishRatingPeriodRequest {
                        meta: meta(command, ""),
                        period: period.clone(),
                    },
                )?)
                .await?
                .into_inner();
            if cli.json {
                output::json(&status_json(&s));
            } else {
                print_status(&s);
            }
        }
        RatingCommand::Status { period } => {
            let s = client
                .get_period(GetRatingPeriodRequest {
                    period: period.clone(),
                })
                .await?
                .into_inner();
            if cli.json {
                output::json(&status_json(&s));
            } else {
                print_status(&s);
            }
        }
        RatingCommand::Export {
            period,
            format,
            revision,
            output: path,
        } => {
            let format = match format {
                ExportFormat::Txt => "txt",
                ExportFormat::Xml => "xml",
                ExportFormat::Csv => "csv",
            };
            let mut stream = client
                .export_list(ExportRatingListRequest {
                    period: period.clone(),
                    format: format.into(),
                    revision: *revision,
                })
                .await?
                .into_inner();
            let mut out: Box<dyn Write> = match path {
                Some(p) => Box::new(std::io::BufWriter::new(
                    std::fs::File::create(p).map_err(|e| usage(format!("{}: {e}", p.display())))?,
                )),
                None => Box::new(std::io::stdout().lock()),
            };
            let io = |e: std::io::Error| Failure {
                code: 1,
                message: format!("writing the export: {e}"),
            };
            let mut sha = String::new();
            while let Some(c) = stream.message().await? {
                match out.write_all(&c.data) {
                    // `arbiter rating export … | head`: the reader left; not an error
                    Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return Ok(()),
                    r => r.map_err(io)?,
                }
                if !c.sha256.is_empty() {
                    sha = c.sha256;
                }
            }
            match out.flush() {
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return Ok(()),
                r => r.map_err(io)?,
            }
            if let Some(p) = path {
                eprintln!("wrote {} (sha256 {sha})", p.display());
            }
        }
        RatingCommand::TournamentReport {
            tournament_id,
            revision,
        } => {
            let r = client
                .get_tournament_report(GetRatingTournamentReportRequest {
                    tournament_id: tournament_id.clone(),
                    revision: *revision,
                })
                .await?
                .into_inner();
            let rows: Vec<serde_json::Value> = r
                .rows
                .iter()
                .map(|x| {
                    serde_json::json!({"fide_id": x.fide_id, "name": x.name, "rating": x.rating,
                        "games": x.games, "score": x.score, "expected": x.expected, "k": x.k,
                        "change": x.change, "note": x.note})
                })
                .collect();
            if cli.json {
                output::json(
                    &serde_json::json!({"tournament_id": r.tournament_id, "name": r.name,
                    "period": r.period, "revision": r.revision, "kind": kind_name(r.kind as u32),
                    "tournament_version": r.tournament_version, "rows": rows}),
                );
            } else {
                println!(
                    "{} [{}], {} list of {} (revision {}, submission version {})",
                    r.name,
                    r.tournament_id,
                    kind_name(r.kind as u32),
                    r.period,
                    r.revision,
                    r.tournament_version
                );
                let table: Vec<Vec<String>> = r
                    .rows
                    .iter()
                    .map(|x| {
                        vec![
                            x.fide_id.to_string(),
                            x.name.clone(),
                            rating_text(x.rating),
                            x.games.to_string(),
                            x.score.clone(),
                            x.expected.clone(),
                            if x.k == 0 {
                                String::new()
                            } else {
                                x.k.to_string()
                            },
                            x.change.clone(),
                            x.note.clone(),
                        ]
                    })
                    .collect();
                output::table(
                    &[
                        "FIDE ID", "NAME", "RATING", "GAMES", "SCORE", "EXPECTED", "K", "K×ΣΔR", "",
                    ],
                    &table,
                );
            }
        }
        RatingCommand::Report {
            fide_id,
            period,
            kind,
            revision,
        } => {
            let r = client
                .get_player_report(GetRatingReportRequest {
                    period: period.clone(),
                    fide_id: *fide_id,
                    kind: kind.map_or(0, |k| k.proto() as i32),
                    revision: *revision,
                })
                .await?
                .into_inner();
            if cli.json {
                output::json(&report_json(&r));
            } else {
                print_report(&r);
            }
        }
    }
    Ok(())
}

fn print_submitted(cli: &Cli, r: &arbiter_proto::v1::SubmitExternalTournamentResponse) {
    if cli.json {
        output::json(
            &serde_json::json!({"tournament_id": r.tournament_id, "period": r.period,
            "rated_games": r.rated_games, "skipped_games": r.skipped_games, "version": r.version,
            "period_status": r.period_status, "notes": r.notes, "revision": r.revision,
            "diff": diff_json(&r.diff), "rippled": ripple_json(&r.rippled),
            "skipped": r.skipped.iter().map(|g| serde_json::json!({"round": g.round,
                "white": g.white, "black": g.black, "result": g.result, "reason": g.reason}))
                .collect::<Vec<_>>()}),
        );
    } else {
        println!(
            "tournament {} (version {}): {} rated game(s), {} skipped; period {} ({})",
            r.tournament_id, r.version, r.rated_games, r.skipped_games, r.period, r.period_status
        );
        for n in &r.notes {
            println!("note: {}", output::clean(n));
        }
        if !r.skipped.is_empty() {
            println!("not rated:");
            let rows: Vec<Vec<String>> = r
                .skipped
                .iter()
                .map(|g| {
                    vec![
                        g.round.to_string(),
                        g.white.clone(),
                        g.black.clone(),
                        g.result.clone(),
                        g.reason.clone(),
                    ]
                })
                .collect();
            output::table(&["ROUND", "WHITE", "BLACK", "RESULT", "WHY"], &rows);
        }
        if !r.diff.is_empty() {
            print_diff(&r.diff);
        }
        print_ripple(&r.rippled);
    }
}

fn ripple_json(r: &[arbiter_proto::v1::RatingRipple]) -> serde_json::Value {
    r.iter()
        .map(|x| {
            serde_json::json!({"period": x.period, "revision": x.revision, "status": x.status,
                "unchanged": x.unchanged, "diff": diff_json(&x.diff)})
        })
        .collect()
}

/// The later periods re-run from a revised list (ADR elo-010).
fn print_ripple(r: &[arbiter_proto::v1::RatingRipple]) {
    for x in r {
        if x.unchanged {
            println!(
                "period {} re-run from the revised list: unchanged (revision {})",
                x.period, x.revision
            );
        } else {
            println!(
                "period {} re-run from the revised list: {} revision {}",
                x.period, x.status, x.revision
            );
            print_diff(&x.diff);
        }
    }
}
