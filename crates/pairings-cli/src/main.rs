//! `arbiter-pairings`: the JaVaFo / bbpPairings command line for the FIDE Dutch system.
//!
//! ```text
//! arbiter-pairings --dutch input.trf -p [output]   pair the next round
//! arbiter-pairings --dutch input.trf -c            re-pair every round, list differences
//! arbiter-pairings --dutch -g [config] [-o out.trf] [-s seed]
//!                                                  random tournament generator
//!   --edition dutch-2017|dutch-2026   (else from record 092/192, else 2026)
//!   --explain                         per-bracket explanation on stderr
//!   --json                            the pairing as JSON (with -p)
//!   --acceleration baku|baku-2016|haley|haley-example-2|degressive
//!                                     (a 192 code ending in _BAKU declares Baku)
//!                                     virtual points of the declared accelerated system
//!                                     (with -p; not with XXA/250 records in the file)
//!   -l [checklist]                    with -p: per-player check-list (file, else stdout)
//!   --reference-path                  the plain (oracle) algorithm instead of the fast path
//!   --progress-after SECONDS          progress lines from this time on (default 2; 0: at once)
//! ```
//! A pairing that takes more than 2 s (or `--progress-after`) prints its progress on stderr
//! (bracket k, score groups and players left), at most one line a second.
//! With `-c`, one line `FILE: Round #r` per round that differs (details on stderr).
//! With `-g`, every round is paired by this engine, results drawn from a ChaCha generator
//! seeded by `-s` (default 1: same seed, same bytes); config keys in `pairings::generator`; no config
//! file means the defaults; the TRF goes to `-o` (else stdout).
//! With `-l`, one line per player: TPN, score, colour difference and preference, floats of
//! the last two rounds, the colour and opponent of this round (see `pairings::checklist`).
//! Exit codes: 0 ok, 1 no valid pairing (or differences with -c), 2 unexpected error,
//! 3 invalid input, 5 file access.

use pairings::{checklist, generator, trf_input};

use std::io::Write;
use std::process::ExitCode;
use std::time::{Duration, Instant};
use swiss::{Edition, EnginePath, NoValidPairing, Options, RoundPairing, TournamentState};

/// When a pairing starts reporting its progress, unless `--progress-after` says otherwise.
const DEFAULT_PROGRESS_AFTER: Duration = Duration::from_secs(2);

/// Pairs one round on `path`; once the round has taken `progress_after`, a progress line on
/// stderr before each bracket (at most one a second), so a long pairing never looks stuck.
fn pair_round(
    state: &TournamentState,
    edition: Edition,
    options: &Options,
    path: EnginePath,
    progress_after: Duration,
) -> Result<RoundPairing, NoValidPairing> {
    let start = Instant::now();
    let mut shown: Option<Duration> = None;
    swiss::pair_with(state, edition, options, path, &mut |p| {
        let t = start.elapsed();
        if t >= progress_after && shown.is_none_or(|s| t - s >= Duration::from_secs(1)) {
            shown = Some(t);
            eprintln!(
                "pairing: bracket {} ({} score groups left), {} of {} players left, {:.1} s",
                p.bracket,
                p.score_groups_left,
                p.players_left,
                p.players,
                t.as_secs_f64()
            );
        }
    })
}

const USAGE: &str = "usage: arbiter-pairings --dutch INPUT.trf (-p [OUTPUT] [-l [CHECKLIST]] | -c) [--edition dutch-2017|dutch-2026] [--explain] [--json] [--reference-path] [--progress-after SECONDS] [--acceleration baku|baku-2016|haley|haley-example-2|degressive]\n       arbiter-pairings --dutch -g [CONFIG] [-o OUTPUT.trf] [-s SEED] [--edition dutch-2017|dutch-2026]";

/// Seed of `-g` when `-s` is not given.
const DEFAULT_SEED: u64 = 1;

enum Mode {
    Pair(Option<String>),
    Check,
    Generate(Option<String>),
}

struct Args {
    input: String,
    mode: Mode,
    edition: Option<Edition>,
    explain: bool,
    json: bool,
    reference_path: bool,
    /// `--progress-after`: when progress lines start.
    progress_after: Duration,
    acceleration: Option<swiss::AccelerationMethod>,
    /// `-l [file]`: `Some(None)` for stdout.
    checklist: Option<Option<String>>,
    /// `-o` (generator output).
    output: Option<String>,
    /// `-s` (generator seed).
    seed: u64,
}

/// The value following option `argv[*i]` when it is not another option (advances `i`).
fn optional_value(argv: &[String], i: &mut usize) -> Option<String> {
    let v = argv.get(*i + 1).filter(|a| !a.starts_with('-')).cloned();
    if v.is_some() {
        *i += 1;
    }
    v
}

fn parse_args(argv: &[String]) -> Result<Args, String> {
    let mut input = None;
    let mut mode = None;
    let mut edition = None;
    let mut explain = false;
    let mut json = false;
    let mut reference_path = false;
    let mut progress_after = DEFAULT_PROGRESS_AFTER;
    let mut dutch = false;
    let mut acceleration = None;
    let mut checklist = None;
    let mut output = None;
    let mut seed = DEFAULT_SEED;
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
            "-g" => mode = Some(Mode::Generate(optional_value(argv, &mut i))),
            "-l" => checklist = Some(optional_value(argv, &mut i)),
            "-o" => {
                i += 1;
                output = Some(argv.get(i).cloned().ok_or("-o needs a file name")?);
            }
            "-s" => {
                i += 1;
                seed = argv
                    .get(i)
                    .and_then(|s| s.parse().ok())
                    .ok_or("-s needs an unsigned integer seed")?;
            }
            "--explain" => explain = true,
            "--json" => json = true,
            "--reference-path" => reference_path = true,
            "--progress-after" => {
                i += 1;
                progress_after = argv
                    .get(i)
                    .and_then(|s| s.parse::<f64>().ok())
                    .and_then(|s| Duration::try_from_secs_f64(s).ok())
                    .ok_or("--progress-after needs a number of seconds (0 or more)")?;
            }
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
    let mode = mode.ok_or("missing -p, -c or -g")?;
    let input = match (&mode, input) {
        (Mode::Generate(_), None) => String::new(),
        (Mode::Generate(_), Some(m)) => {
            return Err(format!(
                "generating from a model file ({m}) is not supported: use -g [config]"
            ));
        }
        (_, i) => i.ok_or("missing input file")?,
    };
    if checklist.is_some() && !matches!(mode, Mode::Pair(_)) {
        return Err("-l goes with -p".into());
    }
    Ok(Args {
        input,
        mode,
        edition,
        explain,
        json,
        reference_path,
        progress_after,
        acceleration,
        checklist,
        output,
        seed,
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
    if let Mode::Generate(config) = &args.mode {
        return generate(config.as_deref(), &args);
    }
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
    let path = if args.reference_path {
        EnginePath::Reference
    } else {
        EnginePath::Fast
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
            let method = args
                .acceleration
                .or_else(|| pairings::declared_acceleration(&doc, edition));
            let state = match pairings::accelerate(&doc, state, round, method) {
                Ok(s) => s,
                Err(e) => {
                    eprintln!("{}: {e}", args.input);
                    return ExitCode::from(3);
                }
            };
            let pairing = match pair_round(&state, edition, &options, path, args.progress_after) {
                Ok(p) => p,
                Err(e) => {
                    eprintln!("round {round}: {e}");
                    return ExitCode::from(1);
                }
            };
            if args.explain {
                explain(&pairing);
            }
            if let Some(list) = &args.checklist {
                let text = checklist::render(&state, &pairing, edition);
                if let Err(e) = write_out(list.as_deref(), &text) {
                    eprintln!("{e}");
                    return ExitCode::from(5);
                }
            }
            let text = if args.json {
                format!("{}\n", json(&pairing))
            } else {
                render(&pairing)
            };
            if let Err(e) = write_out(out.as_deref(), &text) {
                eprintln!("{e}");
                return ExitCode::from(5);
            }
            ExitCode::SUCCESS
        }
        Mode::Check if args.acceleration.is_some() => {
            eprintln!("--acceleration is for -p only\n{USAGE}");
            ExitCode::from(3)
        }
        Mode::Check => check(
            &doc,
            edition,
            &options,
            path,
            args.progress_after,
            &args.input,
        ),
        // Handled before reading an input file.
        Mode::Generate(_) => ExitCode::from(2),
    }
}

/// Writes `text` to `path`, or to stdout.
fn write_out(path: Option<&str>, text: &str) -> Result<(), String> {
    match path {
        Some(path) => std::fs::write(path, text).map_err(|e| format!("{path}: {e}")),
        None => std::io::stdout()
            .write_all(text.as_bytes())
            .map_err(|e| e.to_string()),
    }
}

/// `-g [config]`: a random tournament paired round by round by this engine.
fn generate(config: Option<&str>, args: &Args) -> ExitCode {
    use rand::SeedableRng;
    let (cfg, warnings) = match config {
        None => (generator::GeneratorConfig::default(), Vec::new()),
        Some(path) => {
            let text = match std::fs::read_to_string(path) {
                Ok(t) => t,
                Err(e) => {
                    eprintln!("{path}: {e}");
                    return ExitCode::from(5);
                }
            };
            match generator::parse_config(&text, path) {
                Ok(c) => c,
                Err(e) => {
                    eprintln!("{e}");
                    return ExitCode::from(3);
                }
            }
        }
    };
    for w in warnings {
        eprintln!("warning: {w}");
    }
    let edition = args.edition.unwrap_or_default();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(args.seed);
    let doc = match generator::generate(&cfg, edition, &mut rng, args.seed) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(1);
        }
    };
    let text = trf::write_with(
        &doc,
        &trf::WriteOptions {
            version: trf::TrfVersion::Trf16,
            line_ending: trf::LineEnding::Lf,
        },
    );
    match write_out(args.output.as_deref(), &text) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(5)
        }
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
fn check(
    doc: &trf::TrfDocument,
    edition: Edition,
    options: &Options,
    path: EnginePath,
    progress_after: Duration,
    input: &str,
) -> ExitCode {
    let stem = std::path::Path::new(input)
        .file_stem()
        .map_or_else(|| input.to_string(), |s| s.to_string_lossy().into_owned());
    let rounds = doc.rounds_in_player_records();
    // `XXZ` names who is absent in the round to be paired, the one after the file's last
    // (JaVaFo AUM); a recorded round's absences are in its own round blocks and `240`s, so
    // re-pairing a recorded round does not read it.
    let mut recorded = doc.clone();
    recorded
        .lines
        .retain(|l| !matches!(l.record, trf::Record::XxAbsent(_)));
    let doc = &recorded;
    let before_correction = trf::correction_note::rounds_paired_before_correction(doc);
    let mut differ = 0;
    let mut explained = 0;
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
        match pair_round(&state, edition, options, path, progress_after) {
            Ok(p) => {
                let got: std::collections::BTreeSet<(u32, u32)> =
                    p.boards.iter().map(|b| (b.white, b.black)).collect();
                let got_bye: std::collections::BTreeSet<u32> = p.bye.into_iter().collect();
                if got != boards || got_bye != byes {
                    let missing: Vec<_> = boards.difference(&got).collect();
                    let extra: Vec<_> = got.difference(&boards).collect();
                    if let Some(corrected) = before_correction.get(&(r as u32)) {
                        // Paired on results corrected later: not a difference of the engine.
                        explained += 1;
                        let list: Vec<String> =
                            corrected.iter().map(|c| format!("round {c}")).collect();
                        println!(
                            "{stem}: Round #{r} paired before a correction of {} (not counted)",
                            list.join(", ")
                        );
                        eprintln!(
                            "round {r}: recorded {missing:?} bye {byes:?}, from the corrected results {extra:?} bye {got_bye:?}"
                        );
                        continue;
                    }
                    differ += 1;
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
    if explained > 0 {
        eprintln!("rounds {rounds}, different {differ}, paired before a correction {explained}");
    } else {
        eprintln!("rounds {rounds}, different {differ}");
    }
    if differ == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
