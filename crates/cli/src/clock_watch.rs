//! `arbiter clock watch TOURNAMENT BOARD`: the live clock of one board, one line per
//! recorded event (the state first), until the game ends. `--json`: one JSON object per
//! line (JSON Lines).
use arbiter_proto::v1::clock_service_client::ClockServiceClient;
use arbiter_proto::v1::{BoardUpdate, ClockState, WatchBoardRequest};
use clap::Args;

use crate::client::connect;
use crate::{Cli, Failure};

#[derive(Args)]
pub struct WatchArgs {
    /// Tournament id or a unique prefix (default: the one `arbiter use` set).
    pub tournament: String,
    /// Board number (from 1).
    pub board: u32,
    /// Stop after this many updates (the first is the current state).
    #[arg(long)]
    pub updates: Option<u64>,
}

#[derive(Args)]
pub struct PgnArgs {
    /// Tournament id or a unique prefix (default: the one `arbiter use` set).
    pub tournament: String,
    /// Board number (from 1).
    pub board: u32,
}

/// `arbiter clock pgn ID BOARD`: the board's current game as PGN with `[%clk]`.
pub async fn pgn(cli: &Cli, a: &PgnArgs) -> Result<(), Failure> {
    let chan = connect(cli).await?;
    let tournament_id = crate::resolve::tournament(cli, &chan, &a.tournament).await?;
    let s = ClockServiceClient::new(chan)
        .get_clock_state(arbiter_proto::v1::GetClockStateRequest {
            tournament_id,
            board: a.board,
        })
        .await?
        .into_inner();
    print!("{}", s.pgn);
    if !s.pgn.ends_with('\n') {
        println!();
    }
    Ok(())
}

/// `h:mm:ss`, tenths under ten seconds.
fn clk(ms: u64) -> String {
    let s = ms / 1000;
    if ms < 10_000 {
        format!("0:00:0{}.{}", s, (ms % 1000) / 100)
    } else {
        format!("{}:{:02}:{:02}", s / 3600, (s / 60) % 60, s % 60)
    }
}

fn line(u: &BoardUpdate, s: &ClockState) -> String {
    let running = s.started && !s.paused && s.result.is_empty();
    let mark = |side: &str| {
        if running && s.side_to_move == side {
            "*"
        } else {
            " "
        }
    };
    // The first event is the cause (FlagFell), the rest its consequences (GameEnded, …).
    let what = match u.event_type.split(',').next() {
        Some(t) if !t.is_empty() => t,
        _ => "state",
    };
    let mut out = format!(
        "{what:<14} White {}{}  Black {}{}  moves {:>3}",
        clk(s.white_ms),
        mark("white"),
        clk(s.black_ms),
        mark("black"),
        s.moves_san.len()
    );
    if let Some(last) = s.moves_san.last() {
        out.push_str(&format!("  last {last}"));
    }
    if !s.started {
        out.push_str("  (clock not started)");
    } else if s.paused {
        out.push_str("  (paused)");
    }
    if !u.effects.is_empty() {
        out.push_str(&format!("  | {}", u.effects.join("; ")));
    }
    if !s.result.is_empty() {
        out.push_str(&format!(
            "\nresult {} ({}, Law {})",
            s.result, s.termination, s.article
        ));
    }
    out
}

fn json(u: &BoardUpdate, s: &ClockState) -> serde_json::Value {
    serde_json::json!({
        "event_type": u.event_type,
        "effects": u.effects,
        "tournament_id": s.tournament_id,
        "board": s.board,
        "round": s.round,
        "game_number": s.game_number,
        "white": s.white,
        "black": s.black,
        "time_control": s.time_control,
        "rate": s.rate,
        "started": s.started,
        "paused": s.paused,
        "side_to_move": s.side_to_move,
        "white_ms": s.white_ms,
        "black_ms": s.black_ms,
        "as_of_ms": s.as_of_ms,
        "flag_instant_ms": s.flag_instant_ms,
        "fen": s.fen,
        "moves_san": s.moves_san,
        "result": s.result,
        "termination": s.termination,
        "article": s.article,
        "anomalies": s.anomalies,
        "stream_version": s.stream_version,
    })
}

pub async fn watch(cli: &Cli, a: &WatchArgs) -> Result<(), Failure> {
    let chan = connect(cli).await?;
    let tournament_id = crate::resolve::tournament(cli, &chan, &a.tournament).await?;
    let mut client = ClockServiceClient::new(chan);
    let mut stream = client
        .watch_board(WatchBoardRequest {
            tournament_id,
            board: a.board,
        })
        .await?
        .into_inner();
    let mut n = 0u64;
    while let Some(u) = stream.message().await? {
        let Some(s) = u.state.as_ref() else { continue };
        if n == 0 && !cli.json {
            println!(
                "board {} of {} (round {}, game {}): {} – {}, {} ({}), Laws {}",
                s.board,
                s.tournament_id,
                s.round,
                s.game_number,
                s.white,
                s.black,
                s.time_control,
                s.rate,
                s.laws_edition
            );
        }
        if cli.json {
            println!("{}", json(&u, s));
        } else {
            println!("{}", line(&u, s));
        }
        n += 1;
        if a.updates.is_some_and(|max| n >= max) {
            break;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::clk;

    #[test]
    fn clock_readings() {
        assert_eq!(clk(5_400_000), "1:30:00");
        assert_eq!(clk(61_000), "0:01:01");
        assert_eq!(clk(9_870), "0:00:09.8");
        assert_eq!(clk(0), "0:00:00.0");
    }
}
