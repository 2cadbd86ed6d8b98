//! Server commands of the pairing and results services:
//! `arbiter round pair|repair|set|publish|unpublish|discard|show|explain|close ID ROUND`,
//! `arbiter result set|correct|bye|show|history|impact ID …`,
//! `arbiter standings ID [--round N] [--as-of POS] [--explain PLAYER]`,
//! `arbiter audit verify|export ID`.
use arbiter_proto::v1::pairing_service_client::PairingServiceClient;
use arbiter_proto::v1::results_service_client::ResultsServiceClient;
use arbiter_proto::v1::{
    CloseRoundRequest, CommandMeta, CorrectResultRequest, CorrectionImpact, DiscardPairingRequest,
    ExportAuditRequest, GetCorrectionImpactRequest, GetHistoryRequest, GetPairingsRequest,
    GetRoundResultsRequest, GetStandingsRequest, PairRoundRequest, PairedBoard, PairingResponse,
    PublishPairingsRequest, RecordByeRequest, RecordResultRequest, RoundPairingView,
    SetPairingsRequest, UnpublishPairingsRequest, VerifyLogRequest,
};
use clap::{Args, Subcommand};
use serde_json::json;

use crate::client::{Chan, authed, connect, token};
use crate::{Cli, Failure, output, sheets};

#[derive(Args, Clone)]
pub struct MetaArgs {
    /// Idempotency key: retrying with the same id is safe (default: a new id).
    #[arg(long)]
    command_id: Option<String>,
    /// Why (recorded on the event; required for corrections and pairings set by hand).
    #[arg(long, default_value = "")]
    reason: String,
    /// Fail unless the target stream is at this version (optimistic concurrency).
    #[arg(long)]
    expected_version: Option<i64>,
}

pub(crate) fn meta(m: &MetaArgs) -> Option<CommandMeta> {
    Some(CommandMeta {
        command_id: m
            .command_id
            .clone()
            .unwrap_or_else(|| uuid::Uuid::now_v7().to_string()),
        expected_version: m.expected_version,
        reason: m.reason.clone(),
        request_digest: Vec::new(),
    })
}

#[derive(Subcommand)]
pub enum RoundCommand {
    /// Pair the next round with the tournament's system (Dutch C.04.3 by default).
    Pair(RoundArgs),
    /// Re-pair an unpublished round (after a correction, a late entry, a withdrawal).
    Repair(RoundArgs),
    /// Set a round's pairing by hand: `--board WHITE-BLACK` per board (ids or pairing numbers).
    Set(SetArgs),
    /// Publish a round's pairing.
    Publish(RoundArgs),
    /// Withdraw a published pairing from publication, before any result of the round
    /// (`--reason` required).
    Unpublish(RoundArgs),
    /// Discard the unpublished pairing of the last paired round, so it can be paired
    /// again (`--reason` required).
    Discard(RoundArgs),
    /// Show a round's pairing (ROUND 0 or absent: the last paired round).
    Show(ShowArgs),
    /// The pairing engine's explanation of a round.
    Explain(ShowArgs),
    /// End a round (every board must have a result).
    Close(RoundArgs),
}

#[derive(Args)]
pub struct RoundArgs {
    /// Tournament id or a unique prefix; left out: the default (`arbiter use`).
    id: String,
    /// Round.
    round: u32,
    #[command(flatten)]
    meta: MetaArgs,
}

#[derive(Args)]
pub struct ShowArgs {
    /// Tournament id or a unique prefix; left out: the default (`arbiter use`).
    id: String,
    /// Round (default: the last paired).
    #[arg(default_value_t = 0)]
    round: u32,
}

#[derive(Args)]
pub struct SetArgs {
    /// Tournament id or a unique prefix; left out: the default (`arbiter use`).
    id: String,
    /// Round.
    round: u32,
    /// A board as WHITE-BLACK (pairing numbers, player ids, or id prefixes written without
    /// hyphens), in board order.
    #[arg(long = "board")]
    boards: Vec<String>,
    /// The player who gets the pairing-allocated bye.
    #[arg(long, default_value = "")]
    bye: String,
    #[command(flatten)]
    meta: MetaArgs,
}

#[derive(Subcommand)]
pub enum ResultCommand {
    /// Record a board's result: 1-0, 0-1, 1/2, +-, -+, --, W-L, L-W, D-D, or e.g. 1-1/2, 0-0.
    Set(SetResultArgs),
    /// Confirm the result the board's clock reported (clock-telemetry).
    Confirm(ConfirmArgs),
    /// Correct a recorded result (`--was` the value being corrected, `--reason` required).
    Correct(CorrectArgs),
    /// An unpaired player's outcome: pab, full, half, zero, absent.
    Bye(ByeArgs),
    /// A round's boards and results.
    Show(RoundShowArgs),
    /// Every event that touched the tournament, a game (--round --board) or a player.
    History(HistoryArgs),
    /// What a correction changed (--position) or would change (ROUND BOARD RESULT).
    Impact(ImpactArgs),
}

#[derive(Args)]
pub struct SetResultArgs {
    /// Tournament id or a unique prefix; left out: the default (`arbiter use`).
    pub(crate) id: String,
    pub(crate) round: u32,
    /// The board (not with --file).
    #[arg(required_unless_present = "file")]
    board: Option<u32>,
    /// The result (a double forfeit: `-:-`, or `-- --` after the other arguments).
    #[arg(allow_hyphen_values = true, required_unless_present = "file")]
    result: Option<String>,
    /// A result sheet: lines `BOARD RESULT` (e.g. `12 1-0`, `13 ½-½`, `14 +-`; `#` starts
    /// a comment). Every line is checked first (faults as FILE:LINE:COLUMN) and nothing
    /// is recorded then; all the boards are recorded in one command.
    #[arg(long, conflicts_with_all = ["board", "result"])]
    file: Option<std::path::PathBuf>,
    /// With --file: print what would be recorded, record nothing.
    #[arg(long, requires = "file")]
    pub(crate) dry_run: bool,
    #[command(flatten)]
    pub(crate) meta: MetaArgs,
}

#[derive(Args)]
pub struct ConfirmArgs {
    /// Tournament id or a unique prefix; left out: the default (`arbiter use`).
    id: String,
    round: u32,
    board: u32,
    #[command(flatten)]
    meta: MetaArgs,
}

#[derive(Args)]
pub struct CorrectArgs {
    /// Tournament id or a unique prefix; left out: the default (`arbiter use`).
    id: String,
    round: u32,
    board: u32,
    /// The new result.
    #[arg(allow_hyphen_values = true)]
    result: String,
    /// The result being corrected, as you see it (refused if it changed meanwhile).
    #[arg(long, default_value = "", allow_hyphen_values = true)]
    was: String,
    /// A player's claim (C.04.2 D.8 deadlines decide what it changes); default: the
    /// record differs from the result sheet (entry error).
    #[arg(long)]
    claim: bool,
    #[command(flatten)]
    meta: MetaArgs,
}

#[derive(Args)]
pub struct ByeArgs {
    /// Tournament id or a unique prefix; left out: the default (`arbiter use`).
    id: String,
    round: u32,
    /// Pairing number, player id or a unique prefix of it.
    player: String,
    /// pab, full, half, zero, absent.
    kind: String,
    #[command(flatten)]
    meta: MetaArgs,
}

#[derive(Args)]
pub struct RoundShowArgs {
    /// Tournament id or a unique prefix; left out: the default (`arbiter use`).
    id: String,
    round: u32,
}

#[derive(Args)]
pub struct HistoryArgs {
    /// Tournament id or a unique prefix; left out: the default (`arbiter use`).
    id: String,
    #[arg(long, default_value_t = 0)]
    round: u32,
    #[arg(long, default_value_t = 0)]
    board: u32,
    /// Pairing number, player id or a unique prefix of it.
    #[arg(long, default_value = "")]
    player: String,
}

#[derive(Args)]
pub struct ImpactArgs {
    /// Tournament id or a unique prefix; left out: the default (`arbiter use`).
    id: String,
    /// Global position of a recorded correction.
    #[arg(long, default_value_t = 0)]
    position: i64,
    round: Option<u32>,
    board: Option<u32>,
    result: Option<String>,
    #[arg(long, default_value = "")]
    tiebreaks: String,
    #[arg(long, default_value = "")]
    edition: String,
}

#[derive(Subcommand)]
pub enum AuditCommand {
    /// Check the hash chain of the log (of one tournament's streams, or all).
    Verify {
        /// Tournament id (default: the whole log).
        #[arg(default_value = "")]
        id: String,
    },
    /// The tournament's audit log as JSON lines.
    Export {
        /// Tournament id or a unique prefix; left out: the default (`arbiter use`).
        id: String,
        /// Write to this file (default: stdout).
        #[arg(long, short)]
        output: Option<std::path::PathBuf>,
    },
}

/// `arbiter standings ID …` (the server form of `arbiter standings`).
pub struct StandingsQuery<'a> {
    pub id: &'a str,
    pub round: u32,
    pub as_of: i64,
    pub tiebreaks: &'a str,
    pub edition: &'a str,
    pub format: &'a str,
    pub explain: &'a str,
    /// Team standings (`--teams`).
    pub teams: bool,
    /// With teams: "mp" or "gp" ("" = mp).
    pub primary: &'a str,
    /// With teams: the board prizes, with this least number of games (0 = the default).
    pub board_prizes: Option<u32>,
}

async fn print_pairing(
    cli: &Cli,
    chan: &Chan,
    p: &RoundPairingView,
    explanation: Option<&str>,
) -> Result<(), Failure> {
    let (matches, match_lines) = crate::teams::round_matches(cli, chan, p).await;
    if cli.json {
        let boards: Vec<_> = p
            .boards
            .iter()
            .map(|b| {
                json!({"board": b.board, "white": b.white_id, "black": b.black_id,
                       "white_tpn": b.white_tpn, "black_tpn": b.black_tpn})
            })
            .collect();
        let mut v = json!({
            "round": p.round, "boards": boards, "bye": p.bye_player_id, "bye_tpn": p.bye_tpn,
            "absent": p.absent_player_ids, "published": p.published, "engine_made": p.engine_made,
            "system": p.system, "edition": p.edition, "engine_version": p.engine_version,
            "input_sha256": p.input_sha256, "paired_by": p.paired_by, "position": p.position,
            "times_paired": p.times_paired, "matches": matches, "bye_team": p.bye_team_id,
        });
        if let Some(e) = explanation {
            v["explanation"] = json!(e);
        }
        output::json(&v);
        return Ok(());
    }
    println!(
        "round {} ({} {}, {}{}{})",
        p.round,
        p.system,
        p.edition,
        if p.engine_made {
            "engine"
        } else {
            "set by hand"
        },
        if p.published {
            ", published"
        } else {
            ", not published"
        },
        if p.times_paired > 1 {
            format!(", paired {} times", p.times_paired)
        } else {
            String::new()
        }
    );
    // Names first: the players in one call, the points before the round in another.
    let event = sheets::event_or_id(chan, &p.tournament_id).await;
    let roster = sheets::roster_or_note(chan, &p.tournament_id).await;
    let points = sheets::points_before(chan, &p.tournament_id, p.round).await;
    let sheet = sheets::pairing_sheet(event, p, &roster, &points, None);
    let text = render::pairings::by_board(&sheet, render::Format::Text).map_err(|e| Failure {
        code: 1,
        message: e.to_string(),
    })?;
    for l in &match_lines {
        println!("{l}");
    }
    print!("{}", output::clean_lines(&text));
    if let Some(n) = &roster.note {
        eprintln!("{n}");
    }
    if let Some(e) = explanation {
        print!("{}", output::clean_lines(e));
    }
    Ok(())
}

fn parse_boards(boards: &[String]) -> Result<Vec<PairedBoard>, Failure> {
    boards
        .iter()
        .enumerate()
        .map(|(i, b)| {
            // A full id (with its hyphens) on the white side ends at character 36;
            // otherwise the first '-' parts the sides (give id prefixes without hyphens).
            let split = match (b.get(..36), b.get(36..37)) {
                (Some(w), Some("-")) if uuid::Uuid::try_parse(w).is_ok() => Some((w, &b[37..])),
                _ => b.split_once('-'),
            };
            let (w, k) = split.ok_or_else(|| Failure {
                code: 2,
                message: format!("--board {b:?}: write WHITE-BLACK (ids or pairing numbers)"),
            })?;
            Ok(PairedBoard {
                board: u32::try_from(i + 1).unwrap_or(u32::MAX),
                white_id: w.trim().to_owned(),
                black_id: k.trim().to_owned(),
                white_tpn: 0,
                black_tpn: 0,
            })
        })
        .collect()
}

async fn answer(cli: &Cli, chan: &Chan, r: PairingResponse) -> Result<(), Failure> {
    match r.pairing {
        Some(p) => print_pairing(cli, chan, &p, None).await,
        None => {
            println!("done");
            Ok(())
        }
    }
}

impl RoundCommand {
    /// The tournament argument as given, and the round of `show`/`explain` when their
    /// only argument was a round (1–2 digits: a tournament prefix is at least 4).
    fn given(&self) -> (&str, Option<u32>) {
        match self {
            RoundCommand::Pair(a)
            | RoundCommand::Repair(a)
            | RoundCommand::Publish(a)
            | RoundCommand::Unpublish(a)
            | RoundCommand::Discard(a)
            | RoundCommand::Close(a) => (&a.id, None),
            RoundCommand::Set(a) => (&a.id, None),
            RoundCommand::Show(a) | RoundCommand::Explain(a) => {
                let id = a.id.trim();
                if a.round == 0
                    && (1..=2).contains(&id.len())
                    && id.chars().all(|c| c.is_ascii_digit())
                {
                    (crate::resolve::DEFAULT, id.parse().ok())
                } else {
                    (&a.id, None)
                }
            }
        }
    }
}

pub async fn run_round(cli: &Cli, cmd: &RoundCommand) -> Result<(), Failure> {
    let channel = connect(cli).await?;
    let (given, show_round) = cmd.given();
    let id = crate::resolve::tournament(cli, &channel, given).await?;
    let mut pairing = PairingServiceClient::new(channel.clone());
    match cmd {
        RoundCommand::Pair(a) | RoundCommand::Repair(a) => {
            let req = authed(
                &token(cli)?,
                PairRoundRequest {
                    meta: meta(&a.meta),
                    tournament_id: id.clone(),
                    round: a.round,
                },
            )?;
            let r = if matches!(cmd, RoundCommand::Pair(_)) {
                pairing.pair_round(req).await?
            } else {
                pairing.repair_round(req).await?
            };
            answer(cli, &channel, r.into_inner()).await?;
        }
        RoundCommand::Set(a) => {
            // Each side a pairing number, an id or a unique id prefix (ADR cli-001).
            let mut boards = parse_boards(&a.boards)?;
            for b in &mut boards {
                b.white_id = crate::resolve::player(&channel, &id, &b.white_id).await?;
                b.black_id = crate::resolve::player(&channel, &id, &b.black_id).await?;
            }
            let bye = crate::resolve::player(&channel, &id, &a.bye).await?;
            let r = pairing
                .set_pairings(authed(
                    &token(cli)?,
                    SetPairingsRequest {
                        meta: meta(&a.meta),
                        tournament_id: id.clone(),
                        round: a.round,
                        boards,
                        bye_player_id: bye,
                    },
                )?)
                .await?;
            answer(cli, &channel, r.into_inner()).await?;
        }
        RoundCommand::Publish(a) => {
            let r = pairing
                .publish_pairings(authed(
                    &token(cli)?,
                    PublishPairingsRequest {
                        meta: meta(&a.meta),
                        tournament_id: id.clone(),
                        round: a.round,
                    },
                )?)
                .await?;
            answer(cli, &channel, r.into_inner()).await?;
        }
        RoundCommand::Unpublish(a) => {
            let r = pairing
                .unpublish_pairings(authed(
                    &token(cli)?,
                    UnpublishPairingsRequest {
                        meta: meta(&a.meta),
                        tournament_id: id.clone(),
                        round: a.round,
                    },
                )?)
                .await?;
            answer(cli, &channel, r.into_inner()).await?;
        }
        RoundCommand::Discard(a) => {
            let r = pairing
                .discard_pairing(authed(
                    &token(cli)?,
                    DiscardPairingRequest {
                        meta: meta(&a.meta),
                        tournament_id: id.clone(),
                        round: a.round,
                    },
                )?)
                .await?
                .into_inner();
            let ack = r.ack.unwrap_or_default();
            if cli.json {
                output::json(&json!({"round": a.round, "discarded": true,
                    "position": ack.last_position, "replayed": ack.replayed}));
            } else {
                println!(
                    "round {}: pairing discarded (position {}); the round can be paired again",
                    a.round, ack.last_position
                );
            }
        }
        RoundCommand::Show(a) => {
            let p = pairing
                .get_pairings(GetPairingsRequest {
                    tournament_id: id.clone(),
                    round: show_round.unwrap_or(a.round),
                })
                .await?
                .into_inner();
            print_pairing(cli, &channel, &p, None).await?;
        }
        RoundCommand::Explain(a) => {
            // The explanation is made after the pairing is stored (ADR pairing-004):
            // asked again while it is being made.
            let mut told = false;
            let started = std::time::Instant::now();
            let r = loop {
                let r = pairing
                    .explain_pairing(GetPairingsRequest {
                        tournament_id: id.clone(),
                        round: show_round.unwrap_or(a.round),
                    })
                    .await?
                    .into_inner();
                if !r.pending {
                    break r;
                }
                if !told {
                    eprintln!("the engine is still explaining this pairing; waiting for it");
                    told = true;
                }
                if started.elapsed() > std::time::Duration::from_secs(600) {
                    return Err(anyhow::anyhow!(
                        "the engine has been explaining this pairing for 10 minutes; ask again later with `arbiter round explain`"
                    )
                    .into());
                }
                tokio::time::sleep(std::time::Duration::from_millis(200)).await;
            };
            print_pairing(
                cli,
                &channel,
                &r.pairing.unwrap_or_default(),
                Some(&r.explanation),
            )
            .await?;
        }
        RoundCommand::Close(a) => {
            let r = ResultsServiceClient::new(channel)
                .close_round(authed(
                    &token(cli)?,
                    CloseRoundRequest {
                        meta: meta(&a.meta),
                        tournament_id: id.clone(),
                        round: a.round,
                    },
                )?)
                .await?
                .into_inner();
            let ack = r.ack.clone().unwrap_or_default();
            if cli.json {
                output::json(
                    &json!({"round": a.round, "closed": true, "position": ack.last_position,
                        "rating_period": r.rating_period, "rating_list": r.rating_list,
                        "rating_note": r.rating_note}),
                );
            } else {
                println!("round {} closed (position {})", a.round, ack.last_position);
                if !r.rating_note.is_empty() {
                    println!("{}", output::clean(&r.rating_note));
                }
            }
        }
    }
    Ok(())
}

fn print_impact(cli: &Cli, i: &CorrectionImpact, roster: Option<&sheets::Roster>) {
    if cli.json {
        output::json(&impact_json(i));
        return;
    }
    println!("{}", output::clean_lines(&i.summary));
    if !i.rank_moves.is_empty() {
        let rows: Vec<Vec<String>> = i
            .rank_moves
            .iter()
            .map(|m| {
                vec![
                    m.tpn.to_string(),
                    m.name.clone(),
                    format!("{} → {}", m.rank_before, m.rank_after),
                    format!("{} → {}", m.points_before, m.points_after),
                    format!(
                        "{} → {}",
                        m.tiebreaks_before.join(" "),
                        m.tiebreaks_after.join(" ")
                    ),
                ]
            })
            .collect();
        output::table(&["TPN", "NAME", "RANK", "POINTS", "TIE-BREAKS"], &rows);
    }
    let who = |id: &str| match roster.map(|r| r.name(id)) {
        Some(n) if !n.is_empty() => n,
        _ => id.to_owned(),
    };
    for c in &i.rating_changes {
        println!(
            "rating: round {} {} vs {}: {} → {}",
            c.round,
            who(&c.player_id),
            who(&c.opponent_id),
            if c.score_before.is_empty() {
                "not rated"
            } else {
                &c.score_before
            },
            if c.score_after.is_empty() {
                "not rated"
            } else {
                &c.score_after
            }
        );
    }
}

fn impact_json(i: &CorrectionImpact) -> serde_json::Value {
    json!({
        "applies_to": i.applies_to,
        "summary": i.summary,
        "published_rounds_with_old_result": i.published_rounds_with_old_result,
        "unpublished_rounds_to_repair": i.unpublished_rounds_to_repair,
        "rank_moves": i.rank_moves.iter().map(|m| json!({
            "player_id": m.player_id, "tpn": m.tpn, "name": m.name,
            "rank_before": m.rank_before, "rank_after": m.rank_after,
            "points_before": m.points_before, "points_after": m.points_after,
            "tiebreaks_before": m.tiebreaks_before, "tiebreaks_after": m.tiebreaks_after,
        })).collect::<Vec<_>>(),
        "rating_changes": i.rating_changes.iter().map(|c| json!({
            "player_id": c.player_id, "opponent_id": c.opponent_id, "round": c.round,
            "score_before": c.score_before, "score_after": c.score_after,
        })).collect::<Vec<_>>(),
    })
}

fn micros_text(m: i64) -> String {
    chrono::DateTime::from_timestamp_micros(m)
        .map(|d| d.format("%Y-%m-%d %H:%M:%S UTC").to_string())
        .unwrap_or_default()
}

impl ResultCommand {
    fn given(&self) -> &str {
        match self {
            ResultCommand::Set(a) => &a.id,
            ResultCommand::Confirm(a) => &a.id,
            ResultCommand::Correct(a) => &a.id,
            ResultCommand::Bye(a) => &a.id,
            ResultCommand::Show(a) => &a.id,
            ResultCommand::History(a) => &a.id,
            ResultCommand::Impact(a) => &a.id,
        }
    }
}

pub async fn run_result(cli: &Cli, cmd: &ResultCommand) -> Result<(), Failure> {
    let channel = connect(cli).await?;
    let id = crate::resolve::tournament(cli, &channel, cmd.given()).await?;
    let mut results = ResultsServiceClient::new(channel.clone());
    match cmd {
        ResultCommand::Set(a) if a.file.is_some() => {
            let file = a.file.as_deref().unwrap_or(std::path::Path::new(""));
            crate::result_sheet::record(cli, &mut results, &id, a, file).await?;
        }
        ResultCommand::Set(a) => {
            let board = a.board.unwrap_or(0);
            let result = a.result.clone().unwrap_or_default();
            let r = results
                .record_result(authed(
                    &token(cli)?,
                    RecordResultRequest {
                        meta: meta(&a.meta),
                        tournament_id: id.clone(),
                        round: a.round,
                        board,
                        result: result.clone(),
                        confirm_reported: false,
                        ..Default::default()
                    },
                )?)
                .await?
                .into_inner();
            let ack = r.ack.unwrap_or_default();
            if cli.json {
                output::json(
                    &json!({"round": a.round, "board": board, "position": ack.last_position, "replayed": ack.replayed}),
                );
            } else {
                println!(
                    "round {} board {board}: {result} recorded (position {})",
                    a.round, ack.last_position
                );
            }
        }
        ResultCommand::Confirm(a) => {
            let r = results
                .record_result(authed(
                    &token(cli)?,
                    RecordResultRequest {
                        meta: meta(&a.meta),
                        tournament_id: id.clone(),
                        round: a.round,
                        board: a.board,
                        result: String::new(),
                        confirm_reported: true,
                        ..Default::default()
                    },
                )?)
                .await?
                .into_inner();
            let ack = r.ack.unwrap_or_default();
            if cli.json {
                output::json(
                    &json!({"round": a.round, "board": a.board, "position": ack.last_position}),
                );
            } else {
                println!(
                    "round {} board {}: the clock's result confirmed (position {})",
                    a.round, a.board, ack.last_position
                );
            }
        }
        ResultCommand::Correct(a) => {
            let r = results
                .correct_result(authed(
                    &token(cli)?,
                    CorrectResultRequest {
                        meta: meta(&a.meta),
                        tournament_id: id.clone(),
                        round: a.round,
                        board: a.board,
                        result: a.result.clone(),
                        previous_result: a.was.clone(),
                        basis: if a.claim { "claim" } else { "entry-error" }.into(),
                    },
                )?)
                .await?
                .into_inner();
            let ack = r.ack.unwrap_or_default();
            let impact = r.impact.unwrap_or_default();
            if cli.json {
                let mut v = impact_json(&impact);
                v["position"] = json!(ack.last_position);
                output::json(&v);
            } else {
                println!(
                    "round {} board {}: corrected to {} (position {}, {})",
                    a.round, a.board, a.result, ack.last_position, r.applies_to
                );
                let roster = sheets::roster_or_note(&channel, &id).await;
                print_impact(cli, &impact, Some(&roster));
            }
        }
        ResultCommand::Bye(a) => {
            let r = results
                .record_bye(authed(
                    &token(cli)?,
                    RecordByeRequest {
                        meta: meta(&a.meta),
                        tournament_id: id.clone(),
                        round: a.round,
                        player: crate::resolve::player(&channel, &id, &a.player).await?,
                        kind: a.kind.clone(),
                    },
                )?)
                .await?
                .into_inner();
            let ack = r.ack.unwrap_or_default();
            // Names first: the player as the record names them (the argument otherwise).
            let roster = sheets::roster_or_note(&channel, &id).await;
            let who = roster
                .by_id
                .iter()
                .find(|(id, e)| *id == &a.player || e.player.tpn.to_string() == a.player.trim())
                .map_or_else(
                    || a.player.clone(),
                    |(_, e)| format!("{} ({})", e.player.name, e.player.tpn),
                );
            println!(
                "round {}: {} for {} (position {})",
                a.round,
                a.kind,
                output::clean(&who),
                ack.last_position
            );
        }
        ResultCommand::Show(a) => {
            let r = results
                .get_round_results(GetRoundResultsRequest {
                    tournament_id: id.clone(),
                    round: a.round,
                })
                .await?
                .into_inner();
            if cli.json {
                output::json(&json!({
                    "round": r.round, "closed": r.closed, "published": r.published,
                    "boards": r.boards.iter().map(|b| json!({
                        "board": b.board, "white": b.white_id, "black": b.black_id,
                        "white_tpn": b.white_tpn, "black_tpn": b.black_tpn,
                        "result": b.result, "rating_result": b.rating_result,
                        "reported_result": b.reported_result, "source": b.source,
                        "adjourned": b.adjourned,
                        "corrections": b.corrections, "version": b.version,
                    })).collect::<Vec<_>>(),
                }));
            } else {
                // Names first: the round's sheet with its results, then what the clocks
                // reported and the corrections, board by board.
                // The pairing adds the unpaired players; a results service on its own
                // (distributed mode) answers with the boards alone.
                let view = match sheets::pairing_view(&channel, &id, r.round).await {
                    Ok(v) => v,
                    Err(_) => RoundPairingView {
                        tournament_id: id.clone(),
                        round: r.round,
                        published: r.published,
                        boards: r
                            .boards
                            .iter()
                            .map(|b| PairedBoard {
                                board: b.board,
                                white_id: b.white_id.clone(),
                                black_id: b.black_id.clone(),
                                white_tpn: b.white_tpn,
                                black_tpn: b.black_tpn,
                            })
                            .collect(),
                        ..RoundPairingView::default()
                    },
                };
                let event = sheets::event_or_id(&channel, &id).await;
                let roster = sheets::roster_or_note(&channel, &id).await;
                let points = sheets::points_before(&channel, &id, r.round).await;
                let sheet = sheets::pairing_sheet(event, &view, &roster, &points, Some(&r));
                let text =
                    render::pairings::results(&sheet, render::Format::Text).map_err(|e| {
                        Failure {
                            code: 1,
                            message: e.to_string(),
                        }
                    })?;
                print!("{}", output::clean_lines(&text));
                for b in &r.boards {
                    let mut notes = Vec::new();
                    if b.adjourned {
                        notes.push(
                            "adjourned: result pending, a draw for pairing only (C.04.2 3.1)"
                                .to_owned(),
                        );
                    }
                    if !b.reported_result.is_empty() {
                        notes.push(format!(
                            "the clock reported {} ({})",
                            b.reported_result, b.reported_termination
                        ));
                    }
                    if b.corrections > 0 {
                        notes.push(format!("{} correction(s)", b.corrections));
                    }
                    if b.rating_result != b.result && !b.rating_result.is_empty() {
                        notes.push(format!("rated as {}", b.rating_result));
                    }
                    if !notes.is_empty() {
                        println!("board {}: {}", b.board, output::clean(&notes.join("; ")));
                    }
                }
                if let Some(n) = &roster.note {
                    eprintln!("{n}");
                }
                println!(
                    "round {}{}",
                    r.round,
                    if r.closed { " (closed)" } else { "" }
                );
            }
        }
        ResultCommand::History(a) => {
            let h = results
                .get_history(GetHistoryRequest {
                    tournament_id: id.clone(),
                    round: a.round,
                    board: a.board,
                    player: crate::resolve::player(&channel, &id, &a.player).await?,
                })
                .await?
                .into_inner();
            if cli.json {
                output::json(&serde_json::Value::Array(
                    h.entries
                        .iter()
                        .map(|e| {
                            json!({
                                "position": e.position, "stream": e.stream, "type": e.event_type,
                                "at": micros_text(e.recorded_at_micros), "actor": e.actor,
                                "command_id": e.command_id, "reason": e.reason,
                                "rule_edition": e.rule_edition, "before": e.before,
                                "after": e.after, "summary": e.summary, "hash": e.hash,
                            })
                        })
                        .collect(),
                ));
            } else {
                let rows: Vec<Vec<String>> = h
                    .entries
                    .iter()
                    .map(|e| {
                        vec![
                            e.position.to_string(),
                            micros_text(e.recorded_at_micros),
                            e.actor.clone(),
                            e.event_type.clone(),
                            e.summary.clone(),
                            e.reason.clone(),
                        ]
                    })
                    .collect();
                output::table(&["POS", "AT", "ACTOR", "EVENT", "WHAT", "REASON"], &rows);
            }
        }
        ResultCommand::Impact(a) => {
            let i = results
                .get_correction_impact(GetCorrectionImpactRequest {
                    tournament_id: id.clone(),
                    correction_position: a.position,
                    round: a.round.unwrap_or(0),
                    board: a.board.unwrap_or(0),
                    result: a.result.clone().unwrap_or_default(),
                    tiebreaks: a.tiebreaks.clone(),
                    edition: a.edition.clone(),
                })
                .await?
                .into_inner();
            let roster = if cli.json {
                None
            } else {
                Some(sheets::roster_or_note(&channel, &id).await)
            };
            print_impact(cli, &i, roster.as_ref());
        }
    }
    Ok(())
}

/// The team standings the results service answered: its rows and the JSON document's
/// match and game points (the table of the offline `--teams`).
fn print_team_standings(s: &arbiter_proto::v1::Standings) {
    let doc: serde_json::Value = serde_json::from_str(&s.document).unwrap_or_default();
    let text = |v: &serde_json::Value| v.as_str().map(str::to_owned).unwrap_or_default();
    let mut header = vec!["Rank", "No", "Team", "MP", "GP"];
    header.extend(s.tiebreaks.iter().map(String::as_str));
    let rows: Vec<Vec<String>> = s
        .rows
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let d = &doc["rows"][i];
            let mut row = vec![
                format!("{}{}", r.rank, if r.shared { "=" } else { "" }),
                r.tpn.to_string(),
                output::clean(&r.name).into_owned(),
                text(&d["match_points"]),
                text(&d["game_points"]),
            ];
            row.extend(r.tiebreak_values.iter().cloned());
            row
        })
        .collect();
    output::table(&header, &rows);
    println!(
        "{} teams, {} boards, after round {}, ranked on {} first, edition {}, as of log position {}",
        s.rows.len(),
        doc["boards"],
        s.after_round,
        if doc["primary"] == "GP" {
            "game points"
        } else {
            "match points"
        },
        text(&doc["edition"]),
        s.as_of_position
    );
    if !s.explanation.is_empty() {
        print!("{}", output::clean_lines(&s.explanation));
    }
    print_board_prizes(&doc["board_prizes"]);
}

/// The board prizes of the standings document (`--boards`): a table per board.
fn print_board_prizes(b: &serde_json::Value) {
    let Some(boards) = b["boards"].as_array() else {
        return;
    };
    let text = |v: &serde_json::Value| match v {
        serde_json::Value::String(s) => output::clean(s).into_owned(),
        serde_json::Value::Null => "-".to_owned(),
        other => other.to_string(),
    };
    for board in boards {
        println!();
        println!(
            "Board {} (ranked with at least {} games on the board)",
            board["board"], b["min_games"]
        );
        let rows: Vec<Vec<String>> = board["players"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|p| {
                vec![
                    match p["rank"].as_u64() {
                        Some(0) | None => "-".to_owned(),
                        Some(r) => r.to_string(),
                    },
                    format!("{} ({})", text(&p["name"]), p["tpn"]),
                    format!("{} ({})", text(&p["team_name"]), p["team"]),
                    text(&p["games"]),
                    text(&p["points"]),
                    format!("{}%", text(&p["percentage"])),
                    text(&p["performance"]),
                ]
            })
            .collect();
        output::table(
            &["Rank", "Player", "Team", "Games", "Pts", "%", "Perf"],
            &rows,
        );
    }
}

pub async fn standings(cli: &Cli, q: &StandingsQuery<'_>) -> Result<(), Failure> {
    let channel = connect(cli).await?;
    let id = crate::resolve::tournament(cli, &channel, q.id)
        .await
        .map_err(|mut f| {
            if q.id == crate::resolve::DEFAULT && f.code == 2 {
                f.message = "no tournament given: pass ID or run `arbiter use ID` (or --trf FILE for a file)".into();
            }
            f
        })?;
    let explain = if q.explain.is_empty() || q.teams {
        // A team is named by its number or name, which the server resolves.
        q.explain.to_owned()
    } else {
        crate::resolve::player(&channel, &id, q.explain).await?
    };
    let mut results = ResultsServiceClient::new(channel);
    let format = if cli.json {
        "json"
    } else if q.format.is_empty() {
        "text"
    } else {
        q.format
    };
    let s = results
        .get_standings(GetStandingsRequest {
            tournament_id: id,
            round: q.round,
            as_of_position: q.as_of,
            as_of_micros: 0,
            tiebreaks: q.tiebreaks.to_owned(),
            edition: q.edition.to_owned(),
            format: format.to_owned(),
            explain_player: explain,
            teams: q.teams,
            primary: q.primary.to_owned(),
            board_prizes: q.board_prizes.is_some(),
            board_prizes_min_games: q.board_prizes.unwrap_or(0),
        })
        .await?
        .into_inner();
    if q.teams && !cli.json {
        print_team_standings(&s);
        return Ok(());
    }
    if cli.json {
        let mut v: serde_json::Value =
            serde_json::from_str(&s.document).unwrap_or(serde_json::Value::Null);
        v["as_of_position"] = json!(s.as_of_position);
        if !s.explanation.is_empty() {
            v["explanation"] = json!(s.explanation);
        }
        output::json(&v);
        return Ok(());
    }
    print!("{}", output::clean_lines(&s.document));
    if format == "text" {
        println!(
            "after round {}, tie-breaks {}, as of log position {}",
            s.after_round,
            s.tiebreaks.join(","),
            s.as_of_position
        );
    }
    if !s.explanation.is_empty() {
        print!("{}", output::clean_lines(&s.explanation));
    }
    Ok(())
}

pub async fn run_audit(cli: &Cli, cmd: &AuditCommand) -> Result<(), Failure> {
    let channel = connect(cli).await?;
    let mut results = ResultsServiceClient::new(channel.clone());
    match cmd {
        AuditCommand::Verify { id } => {
            // No id: the whole log (the default tournament is not implied here).
            let id = if id.is_empty() {
                String::new()
            } else {
                crate::resolve::tournament(cli, &channel, id).await?
            };
            let r = results
                .verify_log(VerifyLogRequest { tournament_id: id })
                .await?
                .into_inner();
            if cli.json {
                output::json(
                    &json!({"ok": r.ok, "events_checked": r.events_checked, "problems": r.problems}),
                );
            } else if r.ok {
                println!("log intact: {} events checked", r.events_checked);
            } else {
                for p in &r.problems {
                    println!("{}", output::clean(p));
                }
            }
            if !r.ok {
                return Err(Failure {
                    code: 1,
                    message: format!("{} problem(s) in the log", r.problems.len()),
                });
            }
        }
        AuditCommand::Export { id, output: out } => {
            let id = crate::resolve::tournament(cli, &channel, id).await?;
            let r = results
                .export_audit(ExportAuditRequest { tournament_id: id })
                .await?
                .into_inner();
            match out {
                Some(path) => std::fs::write(path, &r.jsonl).map_err(|e| Failure {
                    code: 1,
                    message: format!("{}: {e}", path.display()),
                })?,
                None => print!("{}", r.jsonl),
            }
        }
    }
    Ok(())
}
