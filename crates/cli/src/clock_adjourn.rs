//! `arbiter clock adjourn|resume|sealed`: adjourned games (Guidelines I) on the clock
//! service. The sealed move goes to the server with the adjournment and is shown again
//! only by `clock sealed`, which only the arbiters may call.
use arbiter_proto::v1::clock_service_client::ClockServiceClient;
use arbiter_proto::v1::{
    AdjournGameRequest, ClockCommandResponse, CommandMeta, GetSealedMoveRequest, ResumeGameRequest,
};
use clap::Args;
use serde_json::json;

use crate::client::connect;
use crate::{Cli, Failure};

#[derive(Args)]
pub struct AdjournArgs {
    /// Tournament id or a unique prefix (default: the one `arbiter use` set).
    pub tournament: String,
    /// Board number (from 1).
    pub board: u32,
    /// Who sealed: white or black (the player having the move, I.1.1).
    #[arg(long)]
    pub sealed_by: String,
    /// The sealed move as written on the scoresheet (SAN, e.g. Nf3, or UCI, e.g. g1f3).
    #[arg(long = "move", value_name = "MOVE")]
    pub sealed_move: String,
    /// The session's scheduled end, milliseconds since the Unix epoch: sealing earlier is
    /// charged to the sealer up to it (I.1.2).
    #[arg(long)]
    pub session_end_ms: Option<u64>,
    #[command(flatten)]
    pub command: CommandArgs,
}

#[derive(Args)]
pub struct ResumeArgs {
    /// Tournament id or a unique prefix (default: the one `arbiter use` set).
    pub tournament: String,
    /// Board number (from 1).
    pub board: u32,
    /// I.9.2: the player who must answer the sealed move is absent: their clock runs, the
    /// envelope stays closed.
    #[arg(long, conflicts_with_all = ["envelope_missing", "envelope_opened", "absent"])]
    pub responder_absent: bool,
    /// I.9.2: the absent player arrived: open the envelope.
    #[arg(long, conflicts_with_all = ["envelope_missing", "absent"])]
    pub envelope_opened: bool,
    /// I.12.1: the envelope is missing: play on from the position before the adjournment.
    #[arg(long, conflicts_with = "absent")]
    pub envelope_missing: bool,
    /// I.10: this player (white or black) arrived after the default time.
    #[arg(long, value_name = "SIDE")]
    pub absent: Option<String>,
    #[command(flatten)]
    pub command: CommandArgs,
}

#[derive(Args)]
pub struct SealedArgs {
    /// Tournament id or a unique prefix (default: the one `arbiter use` set).
    pub tournament: String,
    /// Board number (from 1).
    pub board: u32,
}

#[derive(Args)]
pub struct CommandArgs {
    /// Idempotency key: retrying with the same id is safe (default: a new id).
    #[arg(long)]
    command_id: Option<String>,
    /// Why (recorded on the event).
    #[arg(long, default_value = "")]
    reason: String,
}

fn meta(c: &CommandArgs) -> Option<CommandMeta> {
    Some(CommandMeta {
        command_id: c
            .command_id
            .clone()
            .unwrap_or_else(|| uuid::Uuid::now_v7().to_string()),
        expected_version: None,
        reason: c.reason.clone(),
        request_digest: Vec::new(),
    })
}

fn print_response(cli: &Cli, r: &ClockCommandResponse) {
    if cli.json {
        let s = r.state.as_ref();
        println!(
            "{}",
            json!({
                "effects": r.effects,
                "adjournment": s.map(|s| s.adjournment.clone()),
                "side_to_move": s.map(|s| s.side_to_move.clone()),
                "white_ms": s.map(|s| s.white_ms),
                "black_ms": s.map(|s| s.black_ms),
                "result": s.map(|s| s.result.clone()),
                "stream_version": r.ack.as_ref().map(|a| a.stream_version),
            })
        );
    } else {
        for e in &r.effects {
            println!("{e}");
        }
    }
}

/// `arbiter clock adjourn ID BOARD --sealed-by SIDE --move MOVE`.
pub async fn adjourn(cli: &Cli, a: &AdjournArgs) -> Result<(), Failure> {
    let chan = connect(cli).await?;
    let tournament_id = crate::resolve::tournament(cli, &chan, &a.tournament).await?;
    let r = ClockServiceClient::new(chan)
        .adjourn_game(AdjournGameRequest {
            meta: meta(&a.command),
            tournament_id,
            board: a.board,
            sealed_by: a.sealed_by.clone(),
            sealed_move: a.sealed_move.clone(),
            session_end_ms: a.session_end_ms,
        })
        .await?
        .into_inner();
    print_response(cli, &r);
    Ok(())
}

/// `arbiter clock resume ID BOARD [--responder-absent|--envelope-opened|--envelope-missing|--absent SIDE]`.
pub async fn resume(cli: &Cli, a: &ResumeArgs) -> Result<(), Failure> {
    let (step, absent) = if let Some(side) = &a.absent {
        ("absent", side.clone())
    } else if a.responder_absent {
        ("responder-absent", String::new())
    } else if a.envelope_opened {
        ("envelope-opened", String::new())
    } else if a.envelope_missing {
        ("envelope-missing", String::new())
    } else {
        ("responder-present", String::new())
    };
    let chan = connect(cli).await?;
    let tournament_id = crate::resolve::tournament(cli, &chan, &a.tournament).await?;
    let r = ClockServiceClient::new(chan)
        .resume_game(ResumeGameRequest {
            meta: meta(&a.command),
            tournament_id,
            board: a.board,
            step: step.into(),
            absent,
        })
        .await?
        .into_inner();
    print_response(cli, &r);
    Ok(())
}

/// `arbiter clock sealed ID BOARD`: the envelope (I.2), for the arbiter.
pub async fn sealed(cli: &Cli, a: &SealedArgs) -> Result<(), Failure> {
    let chan = connect(cli).await?;
    let tournament_id = crate::resolve::tournament(cli, &chan, &a.tournament).await?;
    let e = ClockServiceClient::new(chan)
        .get_sealed_move(GetSealedMoveRequest {
            tournament_id,
            board: a.board,
        })
        .await?
        .into_inner();
    if cli.json {
        println!(
            "{}",
            json!({
                "white": e.white, "black": e.black, "sealed_by": e.sealed_by,
                "sealed_move": e.sealed_move, "move_number": e.move_number, "fen": e.fen,
                "white_ms": e.white_ms, "black_ms": e.black_ms,
                "resumed_unopened": e.resumed_unopened,
            })
        );
    } else {
        println!(
            "board {}: {} – {}; {} sealed move {}: {}",
            e.board, e.white, e.black, e.sealed_by, e.move_number, e.sealed_move
        );
        println!("position before it: {}", e.fen);
        println!(
            "times at adjournment: white {} black {}",
            clock::laws::format_clk(e.white_ms),
            clock::laws::format_clk(e.black_ms)
        );
    }
    Ok(())
}
