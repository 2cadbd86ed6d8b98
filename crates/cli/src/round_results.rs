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

use crate::client::{authed, connect, token};
use crate::{Cli, Failure, output};

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
    /// Tournament id.
    id: String,
    /// Round.
    round: u32,
    #[command(flatten)]
    meta: MetaArgs,
}

#[derive(Args)]
pub struct ShowArgs {
    /// Tournament id.
    id: String,
    /// Round (default: the last paired).
    #[arg(default_value_t = 0)]
    round: u32,
}

#[derive(Args)]
pub struct SetArgs {
    /// Tournament id.
    id: String,
    /// Round.
    round: u32,
    /// A board as WHITE-BLACK (player ids or pairing numbers), in board order.
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
    id: String,
    round: u32,
    board: u32,
    #[command(flatten)]
    meta: MetaArgs,
}

#[derive(Args)]
pub struct CorrectArgs {
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
    id: String,
    round: u32,
    /// Player id or pairing number.
    player: String,
    /// pab, full, half, zero, absent.
    kind: String,
    #[command(flatten)]
    meta: MetaArgs,
}

#[derive(Args)]
pub struct RoundShowArgs {
    id: String,
    round: u32,
}

#[derive(Args)]
pub struct HistoryArgs {
    id: String,
    #[arg(long, default_value_t = 0)]
    round: u32,
    #[arg(long, default_value_t = 0)]
    board: u32,
    /// Player id or pairing number.
    #[arg(long, default_value = "")]
    player: String,
}

#[derive(Args)]
pub struct ImpactArgs {
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
}

fn print_pairing(cli: &Cli, p: &RoundPairingView, explanation: Option<&str>) {
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
            "times_paired": p.times_paired,
        });
        if let Some(e) = explanation {
            v["explanation"] = json!(e);
        }
        output::json(&v);
        return;
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
    let mut rows: Vec<Vec<String>> = p
        .boards
        .iter()
        .map(|b| {
            vec![
                b.board.to_string(),
                b.white_tpn.to_string(),
                b.black_tpn.to_string(),
                b.white_id.clone(),
                b.black_id.clone(),
            ]
        })
        .collect();
    if !p.bye_player_id.is_empty() {
        rows.push(vec![
            "bye".into(),
            p.bye_tpn.to_string(),
            String::new(),
            p.bye_player_id.clone(),
            String::new(),
        ]);
    }
    output::table(&["BOARD", "WHITE", "BLACK", "WHITE ID", "BLACK ID"], &rows);
    if let Some(e) = explanation {
        print!("{}", output::clean_lines(e));
    }
}

fn parse_boards(boards: &[String]) -> Result<Vec<PairedBoard>, Failure> {
    boards
        .iter()
        .enumerate()
        .map(|(i, b)| {
            let (w, k) = b.split_once('-').ok_or_else(|| Failure {
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

fn answer(cli: &Cli, r: PairingResponse) {
    match r.pairing {
        Some(p) => print_pairing(cli, &p, None),
        None => println!("done"),
    }
}

pub async fn run_round(cli: &Cli, cmd: &RoundCommand) -> Result<(), Failure> {
    let channel = connect(cli).await?;
    let mut pairing = PairingServiceClient::new(channel.clone());
    match cmd {
        RoundCommand::Pair(a) | RoundCommand::Repair(a) => {
            let req = authed(
                &token(cli)?,
                PairRoundRequest {
                    meta: meta(&a.meta),
                    tournament_id: a.id.clone(),
                    round: a.round,
                },
            )?;
            let r = if matches!(cmd, RoundCommand::Pair(_)) {
                pairing.pair_round(req).await?
            } else {
                pairing.repair_round(req).await?
            };
            answer(cli, r.into_inner());
        }
        RoundCommand::Set(a) => {
            let r = pairing
                .set_pairings(authed(
                    &token(cli)?,
                    SetPairingsRequest {
                        meta: meta(&a.meta),
                        tournament_id: a.id.clone(),
                        round: a.round,
                        boards: parse_boards(&a.boards)?,
                        bye_player_id: a.bye.clone(),
                    },
                )?)
                .await?;
            answer(cli, r.into_inner());
        }
        RoundCommand::Publish(a) => {
            let r = pairing
                .publish_pairings(authed(
                    &token(cli)?,
                    PublishPairingsRequest {
                        meta: meta(&a.meta),
                        tournament_id: a.id.clone(),
                        round: a.round,
                    },
                )?)
                .await?;
            answer(cli, r.into_inner());
        }
        RoundCommand::Unpublish(a) => {
            let r = pairing
                .unpublish_pairings(authed(
                    &token(cli)?,
                    UnpublishPairingsRequest {
                        meta: meta(&a.meta),
                        tournament_id: a.id.clone(),
                        round: a.round,
                    },
                )?)
                .await?;
            answer(cli, r.into_inner());
        }
        RoundCommand::Discard(a) => {
            let r = pairing
                .discard_pairing(authed(
                    &token(cli)?,
                    DiscardPairingRequest {
                        meta: meta(&a.meta),
                        tournament_id: a.id.clone(),
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
                    tournament_id: a.id.clone(),
                    round: a.round,
                })
                .await?
                .into_inner();
            print_pairing(cli, &p, None);
        }
        RoundCommand::Explain(a) => {
            let r = pairing
                .explain_pairing(GetPairingsRequest {
                    tournament_id: a.id.clone(),
                    round: a.round,
                })
                .await?
                .into_inner();
            print_pairing(cli, &r.pairing.unwrap_or_default(), Some(&r.explanation));
        }
        RoundCommand::Close(a) => {
            let r = ResultsServiceClient::new(channel)
                .close_round(authed(
                    &token(cli)?,
                    CloseRoundRequest {
                        meta: meta(&a.meta),
                        tournament_id: a.id.clone(),
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

fn print_impact(cli: &Cli, i: &CorrectionImpact) {
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
    for c in &i.rating_changes {
        println!(
            "rating: round {} {} vs {}: {} → {}",
            c.round,
            c.player_id,
            c.opponent_id,
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

pub async fn run_result(cli: &Cli, cmd: &ResultCommand) -> Result<(), Failure> {
    let mut results = ResultsServiceClient::new(connect(cli).await?);
    match cmd {
        ResultCommand::Set(a) if a.file.is_some() => {
            let file = a.file.as_deref().unwrap_or(std::path::Path::new(""));
            crate::result_sheet::record(cli, &mut results, a, file).await?;
        }
        ResultCommand::Set(a) => {
            let board = a.board.unwrap_or(0);
            let result = a.result.clone().unwrap_or_default();
            let r = results
                .record_result(authed(
                    &token(cli)?,
                    RecordResultRequest {
                        meta: meta(&a.meta),
                        tournament_id: a.id.clone(),
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
                        tournament_id: a.id.clone(),
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
                        tournament_id: a.id.clone(),
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
                print_impact(cli, &impact);
            }
        }
        ResultCommand::Bye(a) => {
            let r = results
                .record_bye(authed(
                    &token(cli)?,
                    RecordByeRequest {
                        meta: meta(&a.meta),
                        tournament_id: a.id.clone(),
                        round: a.round,
                        player: a.player.clone(),
                        kind: a.kind.clone(),
                    },
                )?)
                .await?
                .into_inner();
            let ack = r.ack.unwrap_or_default();
            println!(
                "round {}: {} for {} (position {})",
                a.round, a.kind, a.player, ack.last_position
            );
        }
        ResultCommand::Show(a) => {
            let r = results
                .get_round_results(GetRoundResultsRequest {
                    tournament_id: a.id.clone(),
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
                        "corrections": b.corrections, "version": b.version,
                    })).collect::<Vec<_>>(),
                }));
            } else {
                let rows: Vec<Vec<String>> = r
                    .boards
                    .iter()
                    .map(|b| {
                        vec![
                            b.board.to_string(),
                            b.white_tpn.to_string(),
                            b.black_tpn.to_string(),
                            b.result.clone(),
                            if b.reported_result.is_empty() {
                                String::new()
                            } else {
                                format!("{} ({})", b.reported_result, b.reported_termination)
                            },
                            b.corrections.to_string(),
                        ]
                    })
                    .collect();
                output::table(
                    &["BOARD", "WHITE", "BLACK", "RESULT", "CLOCK", "CORRECTIONS"],
                    &rows,
                );
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
                    tournament_id: a.id.clone(),
                    round: a.round,
                    board: a.board,
                    player: a.player.clone(),
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
                    tournament_id: a.id.clone(),
                    correction_position: a.position,
                    round: a.round.unwrap_or(0),
                    board: a.board.unwrap_or(0),
                    result: a.result.clone().unwrap_or_default(),
                    tiebreaks: a.tiebreaks.clone(),
                    edition: a.edition.clone(),
                })
                .await?
                .into_inner();
            print_impact(cli, &i);
        }
    }
    Ok(())
}

pub async fn standings(cli: &Cli, q: &StandingsQuery<'_>) -> Result<(), Failure> {
    let mut results = ResultsServiceClient::new(connect(cli).await?);
    let format = if cli.json {
        "json"
    } else if q.format.is_empty() {
        "text"
    } else {
        q.format
    };
    let s = results
        .get_standings(GetStandingsRequest {
            tournament_id: q.id.to_owned(),
            round: q.round,
            as_of_position: q.as_of,
            as_of_micros: 0,
            tiebreaks: q.tiebreaks.to_owned(),
            edition: q.edition.to_owned(),
            format: format.to_owned(),
            explain_player: q.explain.to_owned(),
        })
        .await?
        .into_inner();
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
    let mut results = ResultsServiceClient::new(connect(cli).await?);
    match cmd {
        AuditCommand::Verify { id } => {
            let r = results
                .verify_log(VerifyLogRequest {
                    tournament_id: id.clone(),
                })
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
            let r = results
                .export_audit(ExportAuditRequest {
                    tournament_id: id.clone(),
                })
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
