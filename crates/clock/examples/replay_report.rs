//! Replays a PGN file and prints one line per game (and the time spent).
//! `cargo run --release -p arbiter-clock --example replay_report -- FILE.pgn [TIMECONTROL]`

use clock::pgn_replay::{ReplayOptions, replay_pgn};
use clock::{TimeControl, TimeControlTag};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(path) = args.get(1) else {
        eprintln!("usage: replay_report FILE.pgn [TIMECONTROL]");
        std::process::exit(2);
    };
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(1);
        }
    };
    let mut opts = ReplayOptions::default();
    if let Some(tc) = args.get(2) {
        opts.fallback_time_control = match TimeControlTag::parse(tc) {
            Ok(TimeControlTag::Timed(t)) => Some(t),
            _ => TimeControl::parse_free_text(tc),
        };
    }
    let start = std::time::Instant::now();
    let games = match replay_pgn(&bytes, &opts) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    let took = start.elapsed();
    let plies: usize = games.iter().map(|g| g.moves.len()).sum();
    for g in &games {
        let name = |k: &str| {
            g.tags
                .iter()
                .find(|(t, _)| t == k)
                .map_or("?", |(_, v)| v.as_str())
                .to_string()
        };
        println!(
            "{} - {} | plies {} | max dev {} ms | laws {:?} | tag {} | anomalies {}",
            name("White"),
            name("Black"),
            g.moves.len(),
            g.max_deviation_ms,
            g.laws_end.map(|e| e.termination),
            g.result_tag,
            g.anomalies.len()
        );
        for a in &g.anomalies {
            println!("    {a:?}");
        }
    }
    println!(
        "{} games, {} plies in {:?} ({:.0} plies/s)",
        games.len(),
        plies,
        took,
        plies as f64 / took.as_secs_f64()
    );
}
