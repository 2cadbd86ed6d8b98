//! `arbiter clock replay FILE.pgn [--time-control TC]`: each game's recorded clock times
//! replayed through the authoritative clock and the Laws of Chess.
use std::path::PathBuf;

use clap::Subcommand;
use clock::pgn_replay::{DeviceAnomaly, GameReplay, ReplayOptions, TimeControlSource, replay_pgn};
use clock::{TimeControl, TimeControlTag};
use serde_json::json;

use super::{failed, read_file, usage};
use crate::{Cli, Failure, output};

#[derive(Subcommand)]
pub enum ClockCommand {
    /// Replay every game of a PGN with [%clk]/[%emt] readings: moves, largest deviation of the
    /// computed clock from the recorded one, how the game ended by the Laws, the reported result.
    /// Exit 1 if a recorded move cannot be played.
    Replay {
        /// The PGN file.
        file: PathBuf,
        /// Time control to use whatever the TimeControl tag says: PGN notation
        /// (40/7200:1800+30), TRF26 record 222 (90'+30") or free text.
        #[arg(long, value_name = "TC")]
        time_control: Option<String>,
    },
    /// Follow one board's live clock (clock-telemetry service, needs the server) until its
    /// game ends.
    Watch(crate::clock_watch::WatchArgs),
    /// One board's game as PGN with a [%clk] comment after every move (needs the server).
    Pgn(crate::clock_watch::PgnArgs),
    /// Adjourn a board's game (Guidelines I.1): the sealed move, hidden from everyone but
    /// the arbiters, and who sealed; the clock stops (needs the server).
    Adjourn(crate::clock_adjourn::AdjournArgs),
    /// Resume an adjourned game (I.5, I.9): the sealed move is played and the clocks restart
    /// with the recorded times; or record the arbiter's decision (I.9.2, I.10, I.12.1).
    Resume(crate::clock_adjourn::ResumeArgs),
    /// The envelope of an adjourned game, sealed move included (arbiters only).
    Sealed(crate::clock_adjourn::SealedArgs),
}

pub fn run(cli: &Cli, cmd: &ClockCommand) -> Result<(), Failure> {
    match cmd {
        ClockCommand::Replay { file, time_control } => replay(cli, file, time_control.as_deref()),
        // Dispatched by main (it needs the async client).
        ClockCommand::Watch(_)
        | ClockCommand::Pgn(_)
        | ClockCommand::Adjourn(_)
        | ClockCommand::Resume(_)
        | ClockCommand::Sealed(_) => Err(usage(
            "clock watch, pgn, adjourn, resume and sealed talk to the server",
        )),
    }
}

/// A time control in any of the notations the clock crate reads.
pub(crate) fn parse_time_control(text: &str) -> Option<TimeControl> {
    if let Ok(TimeControlTag::Timed(tc)) = TimeControlTag::parse(text) {
        return Some(tc);
    }
    TimeControl::parse_trf222(text)
        .ok()
        .or_else(|| TimeControl::parse_free_text(text))
}

fn ms_text(ms: u64) -> String {
    if ms < 1000 {
        format!("{ms} ms")
    } else {
        format!("{}.{:03} s", ms / 1000, ms % 1000)
    }
}

fn tag<'a>(g: &'a GameReplay, name: &str) -> &'a str {
    g.tags
        .iter()
        .find(|(k, _)| k == name)
        .map_or("?", |(_, v)| v.as_str())
}

fn source_text(s: TimeControlSource) -> &'static str {
    match s {
        TimeControlSource::Override => "--time-control",
        TimeControlSource::Tag => "TimeControl tag",
        TimeControlSource::FreeTextTag => "TimeControl tag (free text)",
        TimeControlSource::Fallback => "fallback",
        TimeControlSource::Unknown => "unknown: clocks not compared",
    }
}

fn ending(g: &GameReplay) -> String {
    match g.laws_end {
        Some(e) => format!(
            "{} {:?} (art. {})",
            e.result.to_pgn(),
            e.termination,
            e.termination.article()
        ),
        None => "not ended by the moves".into(),
    }
}

fn replay(cli: &Cli, path: &std::path::Path, tc: Option<&str>) -> Result<(), Failure> {
    let mut opts = ReplayOptions::default();
    if let Some(text) = tc {
        opts.time_control = Some(parse_time_control(text).ok_or_else(|| {
            usage(format!(
                "--time-control {text:?}: not a time control (e.g. 40/7200:1800+30, 5400+30)"
            ))
        })?);
    }
    let bytes = read_file(path)?;
    let games: Vec<GameReplay> = replay_pgn(&bytes, &opts)
        .map_err(|e| failed(format!("{}: {e}", path.display())))?
        .into_iter()
        // text that is not PGN reads as games with neither tags nor moves
        .filter(|g| !g.tags.is_empty() || !g.moves.is_empty())
        .collect();
    if games.is_empty() {
        return Err(failed(format!("{}: no game found", path.display())));
    }
    let illegal: Vec<String> = games
        .iter()
        .zip(1..)
        .flat_map(|(g, n): (&GameReplay, usize)| {
            g.anomalies.iter().filter_map(move |a| match a {
                DeviceAnomaly::IllegalMove { ply, san, why } => Some(format!(
                    "{}: game {n}, ply {ply}: move {san} cannot be played: {why}",
                    path.display()
                )),
                _ => None,
            })
        })
        .collect();
    if cli.json {
        let list: Vec<serde_json::Value> = games
            .iter()
            .zip(1..)
            .map(|(g, n): (&GameReplay, usize)| {
                json!({
                    "game": n,
                    "white": tag(g, "White"),
                    "black": tag(g, "Black"),
                    "round": tag(g, "Round"),
                    "time_control": g.time_control.as_ref().and_then(|t| TimeControlTag::Timed(t.clone()).to_pgn().ok()),
                    "time_control_source": g.time_control_source,
                    "plies": g.moves.len(),
                    "max_deviation_ms": g.max_deviation_ms,
                    "laws_end": g.laws_end.map(|e| json!({
                        "result": e.result.to_pgn(),
                        "termination": e.termination,
                        "article": e.termination.article(),
                        "at_ms": e.at,
                    })),
                    "result_tag": g.result_tag,
                    "result_agrees": g.result_agrees(),
                    "anomalies": g.anomalies,
                    "moves": g.moves,
                })
            })
            .collect();
        output::json(&json!({ "file": path.display().to_string(), "games": list }));
    } else {
        let rows: Vec<Vec<String>> = games
            .iter()
            .zip(1..)
            .map(|(g, n): (&GameReplay, usize)| {
                vec![
                    n.to_string(),
                    format!("{} - {}", tag(g, "White"), tag(g, "Black")),
                    g.moves.len().div_ceil(2).to_string(),
                    ms_text(g.max_deviation_ms),
                    ending(g),
                    match g.result_agrees() {
                        Some(false) => format!("{} (differs)", g.result_tag),
                        _ => g.result_tag.clone(),
                    },
                    g.anomalies.len().to_string(),
                    source_text(g.time_control_source).into(),
                ]
            })
            .collect();
        output::table(
            &[
                "#",
                "Game",
                "Moves",
                "Max dev",
                "By the Laws",
                "Reported",
                "Anomalies",
                "Clock",
            ],
            &rows,
        );
        outln!("{} games", games.len());
    }
    if !illegal.is_empty() {
        for l in &illegal {
            eprintln!("{l}");
        }
        return Err(failed(format!(
            "{}: {} game(s) hold a move that cannot be played",
            path.display(),
            illegal.len()
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_in_every_notation() {
        assert!(parse_time_control("40/7200:1800+30").is_some());
        assert!(parse_time_control("5400+30").is_some());
        assert!(parse_time_control("not a control").is_none());
    }
}
