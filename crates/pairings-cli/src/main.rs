//! `arbiter-pairings`: the JaVaFo / bbpPairings command line for the FIDE Dutch system.
//!
//! ```text
//! arbiter-pairings --dutch input.trf -p [output]   pair the next round
//! arbiter-pairings --dutch input.trf -c            re-pair every round, list differences
//!   --edition dutch-2017|dutch-2026   (else from record 092/192, else 2026)
//!   --explain                         per-bracket explanation on stderr
//!   --json                            the pairing as JSON (with -p)
//!   --acceleration baku|baku-2016|haley|haley-example-2|degressive
//!                                     virtual points of the declared accelerated system
//!                                     (with -p; not with XXA/250 records in the file)
//! ```
//! With `-c`, one line `FILE: Round #r` per round that differs (details on stderr).
//! Exit codes: 0 ok, 1 no valid pairing (or differences with -c), 2 unexpected error,
//! 3 invalid input, 5 file access.

use pairings::trf_input;

use std::io::Write;
use std::process::ExitCode;
use swiss::{Edition, Options, RoundPairing};

const USAGE: &str = "usage: arbiter-pairings --dutch INPUT.trf (-p [OUTPUT] | -c) [--edition dutch-2017|dutch-2026] [--explain] [--json] [--acceleration baku|baku-2016|haley|haley-example-2|degressive]";

enum Mode {
    Pair(Option<String>),
    Check,
}

struct Args {
    input: String,
    mode: Mode,
    edition: Option<Edition>,
    explain: bool,
    json: bool,
    acceleration: Option<swiss::AccelerationMethod>,
}

fn parse_args(argv: &[String]) -> Result<Args, String> {
    let mut input = None;
    let mut mode = None;
    let mut edition = None;
    let mut explain = false;
    let mut json = false;
    let mut dutch = false;
    let mut acceleration = None;
    let mut i = 0;
    while i < argv.len() {
        match argv[i].as_str() {
            "--dutch" => dutch = true,
            "-p" => {
                let out = argv.get(i + 1).filter(|a| !a.starts_with('-')).cloned();
                if out.is_some() {
                    i += 1;
                }
                mode = Some(Mode::Pair(out));
            }
            "-c" => mode = Some(Mode::Check),
            "--explain" => explain = true,
            "--json" => json = true,
            "--edition" => {
                i += 1;
                edition = Some(match argv.get(i).map(String::as_str) {
                    Some("dutch-2017") => Edition::Dutch2017,
                    Some("dutch-2026") => Edition::Dutch2026,
                    other => return Err(format!("unknown edition {other:?}")),
                });
            }
            "--acceleration" => {
                i += 1;
                acceleration = Some(pairings::acceleration_method(
                    argv.get(i).map_or("", String::as_str),
                )?);
            }
            a if a.starts_with('-') => return Err(format!("unknown option {a}")),
            a => {
                if input.is_some() {
                    return Err(format!("unexpected argument {a}"));
                }
                input = Some(a.to_string());
            }
        }
        i += 1;
    }
    if !dutch {
        return Err("only --dutch is supported".into());
    }
    Ok(Args {
        input: input.ok_or("missing input file")?,
        mode: mode.ok_or("missing -p or -c")?,
        edition,
        explain,
        json,
        acceleration,
    })
}

fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let args = match parse_args(&argv) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}\n{USAGE}");
            return ExitCode::from(3);
        }
    };
    let bytes = match std::fs::read(&args.input) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("{}: {e}", args.input);
            return ExitCode::from(5);
        }
    };
    let parsed = match trf::parse(&bytes) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{}:1:1: {e}", args.input);
            return ExitCode::from(3);
        }
    };
    let errors: Vec<_> = parsed
        .findings
        .iter()
        .filter(|f| f.severity == trf::Severity::Error)
        .collect();
    if !errors.is_empty() {
        for f in errors {
            eprintln!("{}:{f}", args.input);
        }
        return ExitCode::from(3);
    }
    let doc = parsed.doc;
    let edition = args
        .edition
        .or_else(|| trf_input::edition_hint(&doc))
        .unwrap_or_default();
    let options = Options {
        explain: args.explain,
    };
    match args.mode {
        Mode::Pair(out) => {
            let round = trf_input::round_to_pair(&doc);
            let state = match trf_input::state_before(&doc, round, edition) {
                Ok(s) => s,
                Err(e) => {
                    eprintln!("{}: {e}", args.input);
                    return ExitCode::from(3);
                }
            };
            let state = match pairings::accelerate(&doc, state, round, args.acceleration) {
                Ok(s) => s,
                Err(e) => {
                    eprintln!("{}: {e}", args.input);
                    return ExitCode::from(3);
                }
            };
            let pairing = match swiss::pair(&state, edition, &options) {
                Ok(p) => p,
                Err(e) => {
                    eprintln!("round {round}: {e}");
                    return ExitCode::from(1);
                }
            };
            if args.explain {
                explain(&pairing);
            }
            let text = if args.json {
                format!("{}\n", json(&pairing))
            } else {
                render(&pairing)
            };
            let res = match out {
                Some(path) => std::fs::write(&path, text).map_err(|e| format!("{path}: {e}")),
                None => std::io::stdout()
                    .write_all(text.as_bytes())
                    .map_err(|e| e.to_string()),
            };
            if let Err(e) = res {
                eprintln!("{e}");
                return ExitCode::from(5);
            }
            ExitCode::SUCCESS
        }
        Mode::Check if args.acceleration.is_some() => {
            eprintln!("--acceleration is for -p only\n{USAGE}");
            ExitCode::from(3)
        }
        Mode::Check => check(&doc, edition, &options, &args.input),
    }
}

/// The JaVaFo/bbp output: number of pairs (the bye counts), boards, `ID 0` for the bye.
fn render(p: &RoundPairing) -> String {
    let mut s = format!("{}\n", p.boards.len() + usize::from(p.bye.is_some()));
    for b in &p.boards {
        s.push_str(&format!("{} {}\n", b.white, b.black));
    }
    if let Some(b) = p.bye {
        s.push_str(&format!("{b} 0\n"));
    }
    s
}

/// The whole pairing (boards in board order, bye, explanation) as JSON.
fn json(p: &RoundPairing) -> String {
    serde_json::to_string(p).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
}

fn explain(p: &RoundPairing) {
    for b in &p.explanation {
        eprintln!(
            "bracket score {}: players {:?}, moved down {:?}",
            b.score, b.players, b.moved_down
        );
        for (x, y) in &b.pairs {
            eprintln!("  pair {x} - {y}");
        }
        for d in &b.decisions {
            eprintln!(
                "  {}: {} rejected for {} ({})",
                d.subject, d.rejected, d.chosen, d.criterion
            );
        }
        for (f, why) in &b.downfloaters {
            eprintln!("  floater {f}: {why}");
        }
    }
}

/// `-c`: re-pair every round of a complete file and list the rounds that differ.
fn check(doc: &trf::TrfDocument, edition: Edition, options: &Options, input: &str) -> ExitCode {
    let stem = std::path::Path::new(input)
        .file_stem()
        .map_or_else(|| input.to_string(), |s| s.to_string_lossy().into_owned());
    let rounds = doc.rounds_in_player_records();
    let mut differ = 0;
    for r in 1..=rounds {
        let (boards, byes) = trf_input::recorded_round(doc, r);
        if boards.is_empty() && byes.is_empty() {
            continue;
        }
        let state = match trf_input::state_before(doc, r, edition) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("round {r}: {e}");
                return ExitCode::from(3);
            }
        };
        match swiss::pair(&state, edition, options) {
            Ok(p) => {
                let got: std::collections::BTreeSet<(u32, u32)> =
                    p.boards.iter().map(|b| (b.white, b.black)).collect();
                let got_bye: std::collections::BTreeSet<u32> = p.bye.into_iter().collect();
                if got != boards || got_bye != byes {
                    differ += 1;
                    let missing: Vec<_> = boards.difference(&got).collect();
                    let extra: Vec<_> = got.difference(&boards).collect();
                    println!("{stem}: Round #{r}");
                    eprintln!(
                        "round {r}: expected {missing:?} bye {byes:?}, got {extra:?} bye {got_bye:?}"
                    );
                }
            }
            Err(e) => {
                differ += 1;
                println!("{stem}: Round #{r}");
                eprintln!("round {r}: {e}");
            }
        }
    }
    println!();
    eprintln!("rounds {rounds}, different {differ}");
    if differ == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
