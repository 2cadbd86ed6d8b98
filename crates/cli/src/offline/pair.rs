//! `arbiter pair --system round-robin|double-round-robin|knockout --players N [--seed S]`.
use clap::{Args, ValueEnum};
use knockout::{Bracket, BracketFormat, Entrant};
use roundrobin::{DrawSeed, Round, SecondCycle};
use serde_json::json;

use super::usage;
use crate::{Cli, Failure, output};

#[derive(Args)]
pub struct PairArgs {
    /// Pairing system.
    #[arg(long, value_enum)]
    system: System,
    /// Number of players.
    #[arg(long)]
    players: u32,
    /// Round robin: draw the pairing numbers by lot from this recorded seed (players are
    /// given in registration order 1..N); without it, player k has pairing number k.
    #[arg(long)]
    seed: Option<u64>,
    /// Knockout: how a field that is not a power of two is reduced.
    #[arg(long, value_enum, default_value = "preliminary-round")]
    format: FormatArg,
    /// Double round robin: play the cycles as printed instead of swapping the last two
    /// rounds of the first cycle (C.05 Annex 1 recommendation).
    #[arg(long)]
    as_printed: bool,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum System {
    /// Single round robin, Berger tables (C.05 Annex 1).
    RoundRobin,
    /// Double round robin (second cycle with colours reversed).
    DoubleRoundRobin,
    /// Knockout bracket.
    Knockout,
    /// Swiss Dutch system (C.04.3): not in this build.
    Dutch,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum FormatArg {
    /// A preliminary round brings the field to a power of two.
    PreliminaryRound,
    /// One bracket of the next power of two, the best seeds getting first-round byes.
    Byes,
    /// One bye in every round with an odd number of players.
    ByeEachOddRound,
}

pub fn run(cli: &Cli, a: &PairArgs) -> Result<(), Failure> {
    match a.system {
        System::Dutch => Err(usage(
            "--system dutch: the Dutch system is not yet available in this build",
        )),
        System::RoundRobin | System::DoubleRoundRobin => round_robin(cli, a),
        System::Knockout if a.seed.is_some() => Err(usage(
            "--seed draws round-robin pairing numbers; a knockout bracket is by seed 1..N",
        )),
        System::Knockout => knockout_bracket(cli, a),
    }
}

fn round_robin(cli: &Cli, a: &PairArgs) -> Result<(), Failure> {
    let rounds: Vec<Round> = if a.system == System::DoubleRoundRobin {
        let order = if a.as_printed {
            SecondCycle::AsPrinted
        } else {
            SecondCycle::SwapLastTwoRoundsOfFirstCycle
        };
        roundrobin::double_round_robin(a.players, order)
    } else {
        roundrobin::berger_table(a.players)
    }
    .map_err(|e| usage(format!("--players: {e}")))?;
    // Pairing numbers: drawn by lot, or player k = number k.
    let entrants: Vec<u32> = (1..=a.players).collect();
    let drawing = match a.seed {
        Some(s) => roundrobin::draw_pairing_numbers(&entrants, DrawSeed::from_u64(s)),
        None => roundrobin::given_pairing_numbers(&entrants, &entrants)
            .map_err(|e| usage(e.to_string()))?,
    };
    let player = |number: u32| drawing.entrant(number).copied().unwrap_or(number);
    if cli.json {
        let list: Vec<serde_json::Value> = rounds
            .iter()
            .map(|r| {
                json!({
                    "round": r.number,
                    "games": r.games.iter().map(|g| json!({
                        "board": g.board,
                        "white": player(g.white),
                        "black": player(g.black),
                        "white_pairing_number": g.white,
                        "black_pairing_number": g.black,
                    })).collect::<Vec<_>>(),
                    "bye": r.bye.map(player),
                })
            })
            .collect();
        output::json(&json!({
            "system": if a.system == System::DoubleRoundRobin { "double-round-robin" } else { "round-robin" },
            "players": a.players,
            "seed": drawing.seed.map(|s| s.to_hex()),
            "pairing_numbers": drawing.by_pairing_number,
            "rounds": list,
        }));
        return Ok(());
    }
    if let Some(s) = drawing.seed {
        outln!("Pairing numbers drawn by lot, seed {}", s.to_hex());
        let rows: Vec<Vec<String>> = drawing
            .by_pairing_number
            .iter()
            .zip(1..)
            .map(|(p, n): (&u32, u32)| vec![n.to_string(), p.to_string()])
            .collect();
        output::table(&["No.", "Player"], &rows);
        outln!();
    }
    for r in &rounds {
        outln!("Round {}", r.number);
        let rows: Vec<Vec<String>> = r
            .games
            .iter()
            .map(|g| {
                vec![
                    g.board.to_string(),
                    player(g.white).to_string(),
                    player(g.black).to_string(),
                ]
            })
            .collect();
        output::table(&["Board", "White", "Black"], &rows);
        if let Some(b) = r.bye {
            outln!("bye: {}", player(b));
        }
        outln!();
    }
    Ok(())
}

fn entrant_text(e: Entrant) -> String {
    match e {
        Entrant::Seed(s) => format!("seed {s}"),
        Entrant::WinnerOf { round, index } => format!("winner R{round}.{}", index + 1),
    }
}

fn knockout_bracket(cli: &Cli, a: &PairArgs) -> Result<(), Failure> {
    let format = match a.format {
        FormatArg::PreliminaryRound => BracketFormat::PreliminaryRound,
        FormatArg::Byes => BracketFormat::ByesBySeeding,
        FormatArg::ByeEachOddRound => BracketFormat::ByeInEachOddRound,
    };
    let b: Bracket =
        knockout::bracket(a.players, format).map_err(|e| usage(format!("--players: {e}")))?;
    if cli.json {
        output::json(&serde_json::to_value(&b).unwrap_or_default());
        return Ok(());
    }
    for r in &b.rounds {
        outln!(
            "Round {}{} ({} players)",
            r.number,
            if r.preliminary { " (preliminary)" } else { "" },
            r.players
        );
        let rows: Vec<Vec<String>> = r
            .matches
            .iter()
            .zip(1..)
            .map(|(m, n): (&knockout::BracketMatch, u32)| {
                vec![
                    format!("R{}.{n}", r.number),
                    entrant_text(m.a),
                    entrant_text(m.b),
                ]
            })
            .collect();
        output::table(&["Match", "Side A", "Side B"], &rows);
        if !r.byes.is_empty() {
            let byes: Vec<String> = r.byes.iter().map(|e| entrant_text(*e)).collect();
            outln!("through without playing: {}", byes.join(", "));
        }
        outln!();
    }
    Ok(())
}
