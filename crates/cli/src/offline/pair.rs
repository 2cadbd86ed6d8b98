//! `arbiter pair --system round-robin|double-round-robin|knockout --players N [--seed S]`;
//! `arbiter pair --system dutch|lim|italo-swiss|draughts-swiss|round-robin|double-round-robin
//! --trf FILE [--edition E] [--acceleration A]`: the next round of a TRF file (see `pair_trf`);
//! `arbiter pair --system knockout --trf FILE [--games N] [--tie-breaks LIST]`: the next round
//! of a knockout in progress (see `pair_knockout`).
use std::path::PathBuf;

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
    /// Number of players (round robin, knockout).
    #[arg(long)]
    players: Option<u32>,
    /// Swiss systems, round robins and knockouts: the TRF file whose next round is paired.
    #[arg(long)]
    trf: Option<PathBuf>,
    /// Dutch system: rule edition (default: from record 092/192, else dutch-2026).
    #[arg(long, value_enum)]
    edition: Option<DutchEdition>,
    /// Dutch system: accelerated system declared by the arbiter, when the file has no
    /// XXA/250 records: baku (C.04.7, 2026), baku-2016, haley, haley-example-2,
    /// degressive[:A_MIN:C_BELOW].
    #[arg(long)]
    acceleration: Option<String>,
    /// Round robin: draw the pairing numbers by lot from this recorded seed (players are
    /// given in registration order 1..N); without it, player k has pairing number k.
    #[arg(long)]
    seed: Option<u64>,
    /// Knockout: how a field that is not a power of two is reduced.
    #[arg(long, value_enum, default_value = "preliminary-round")]
    format: FormatArg,
    /// Knockout with --trf: regular games per match (default 2).
    #[arg(long)]
    games: Option<u32>,
    /// Knockout with --trf: the tie-break stages of a match level after its games, in
    /// order: `none`, or a list of rapid:N, blitz:N, armageddon, sudden-death:N
    /// (default rapid:2,blitz:2,armageddon).
    #[arg(long)]
    tie_breaks: Option<String>,
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
    /// Swiss: FIDE (Dutch) system (C.04.3), next round of `--trf FILE`.
    Dutch,
    /// Swiss: Lim system (C.04.4.3), next round of `--trf FILE`.
    Lim,
    /// Swiss: Italo-Swiss system, next round of `--trf FILE`.
    ItaloSwiss,
    /// Swiss: FMJD draughts Swiss system, next round of `--trf FILE`.
    DraughtsSwiss,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum DutchEdition {
    /// C.04.3 applied from 1 February 2026.
    #[value(name = "dutch-2026")]
    Dutch2026,
    /// C.04.3 Baku 2016 (2017 to 31 January 2026).
    #[value(name = "dutch-2017")]
    Dutch2017,
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
    if (a.games.is_some() || a.tie_breaks.is_some())
        && !(a.system == System::Knockout && a.trf.is_some())
    {
        return Err(usage(
            "--games and --tie-breaks describe the matches of a knockout paired from a TRF (--system knockout --trf FILE)",
        ));
    }
    match a.system {
        System::Knockout if a.trf.is_some() => knockout_round(cli, a),
        System::Dutch | System::Lim | System::ItaloSwiss | System::DraughtsSwiss => {
            swiss_round(cli, a)
        }
        System::RoundRobin | System::DoubleRoundRobin if a.trf.is_some() => swiss_round(cli, a),
        _ if a.trf.is_some() || a.edition.is_some() || a.acceleration.is_some() => Err(usage(
            "--trf, --edition and --acceleration are for the Swiss systems (dutch, lim, italo-swiss, draughts-swiss)",
        )),
        System::RoundRobin | System::DoubleRoundRobin => round_robin(cli, a),
        System::Knockout if a.seed.is_some() => Err(usage(
            "--seed draws round-robin pairing numbers; a knockout bracket is by seed 1..N",
        )),
        System::Knockout => knockout_bracket(cli, a),
    }
}

/// The Swiss systems: one round from a TRF file (`pair_trf`).
fn swiss_round(cli: &Cli, a: &PairArgs) -> Result<(), Failure> {
    use super::pair_trf::{DutchOptions, SwissSystem};
    let system = match a.system {
        System::Lim => SwissSystem::Lim,
        System::ItaloSwiss => SwissSystem::ItaloSwiss,
        System::DraughtsSwiss => SwissSystem::DraughtsSwiss,
        System::RoundRobin => SwissSystem::RoundRobin,
        System::DoubleRoundRobin => SwissSystem::DoubleRoundRobin,
        _ => SwissSystem::Dutch,
    };
    let Some(path) = &a.trf else {
        return Err(usage(
            "--system dutch|lim|italo-swiss|draughts-swiss pairs the next round of a TRF file: give --trf FILE (a Swiss round is paired from the players' ratings and history, not from a count)",
        ));
    };
    if a.players.is_some() || a.seed.is_some() {
        return Err(usage("--players and --seed are not used with --trf"));
    }
    if system != SwissSystem::Dutch && (a.edition.is_some() || a.acceleration.is_some()) {
        return Err(usage(
            "--edition and --acceleration are options of --system dutch",
        ));
    }
    let dutch = DutchOptions {
        edition: a.edition.map(|e| match e {
            DutchEdition::Dutch2026 => swiss::Edition::Dutch2026,
            DutchEdition::Dutch2017 => swiss::Edition::Dutch2017,
        }),
        acceleration: a
            .acceleration
            .as_deref()
            .map(pairings::acceleration_method)
            .transpose()
            .map_err(|e| usage(format!("--acceleration: {e}")))?,
    };
    super::pair_trf::run(cli, system, path, &dutch)
}

/// The next round of a knockout in progress, from `--trf FILE`.
fn knockout_round(cli: &Cli, a: &PairArgs) -> Result<(), Failure> {
    let Some(path) = &a.trf else {
        return Err(usage("--trf FILE is required"));
    };
    if a.players.is_some() || a.seed.is_some() || a.edition.is_some() || a.acceleration.is_some() {
        return Err(usage(
            "--players, --seed, --edition and --acceleration are not used with --system knockout --trf (the field and the seeds are the file's pairing numbers)",
        ));
    }
    let games = a
        .games
        .unwrap_or(pairings::other_systems::knockout::DEFAULT_GAMES);
    if games == 0 || games > knockout::match_play::MAX_GAMES_PER_STAGE {
        return Err(usage(format!(
            "--games {games}: a match has 1..={} regular games",
            knockout::match_play::MAX_GAMES_PER_STAGE
        )));
    }
    let tie_breaks = match &a.tie_breaks {
        Some(spec) => pairings::other_systems::knockout::parse_tie_breaks(spec)
            .map_err(|e| usage(format!("--tie-breaks: {e}")))?,
        None => pairings::other_systems::knockout::default_tie_breaks(),
    };
    super::pair_knockout::run(cli, path, bracket_format(a.format), games, tie_breaks)
}

fn bracket_format(f: FormatArg) -> BracketFormat {
    match f {
        FormatArg::PreliminaryRound => BracketFormat::PreliminaryRound,
        FormatArg::Byes => BracketFormat::ByesBySeeding,
        FormatArg::ByeEachOddRound => BracketFormat::ByeInEachOddRound,
    }
}

/// `--players N`, required by the round robin and the knockout.
fn players(a: &PairArgs) -> Result<u32, Failure> {
    a.players.ok_or_else(|| {
        usage("--players N is required for round-robin, double-round-robin and knockout")
    })
}

fn round_robin(cli: &Cli, a: &PairArgs) -> Result<(), Failure> {
    let n = players(a)?;
    let rounds: Vec<Round> = if a.system == System::DoubleRoundRobin {
        let order = if a.as_printed {
            SecondCycle::AsPrinted
        } else {
            SecondCycle::SwapLastTwoRoundsOfFirstCycle
        };
        roundrobin::double_round_robin(n, order)
    } else {
        roundrobin::berger_table(n)
    }
    .map_err(|e| usage(format!("--players: {e}")))?;
    // Pairing numbers: drawn by lot, or player k = number k.
    let entrants: Vec<u32> = (1..=n).collect();
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
            "players": n,
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
    let format = bracket_format(a.format);
    let b: Bracket =
        knockout::bracket(players(a)?, format).map_err(|e| usage(format!("--players: {e}")))?;
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
