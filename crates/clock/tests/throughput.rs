//! Throughput of event application (target ≥ 50,000 events/s on one core).
//! `cargo test --release -p arbiter-clock --test throughput -- --ignored --nocapture`

use clock::laws::{Game, GameConfig, GameEvent, MoveText};
use clock::pgn_replay::{ReplayOptions, read_pgn, replay_game};
use clock::{TimeControl, TimeControlTag};
use std::time::Instant;

const CANDIDATES: &[u8] = include_bytes!("data/candidates-2024-toronto-clk.pgn");

fn tc(s: &str) -> TimeControl {
    match TimeControlTag::parse(s).unwrap() {
        TimeControlTag::Timed(t) => t,
        _ => panic!("timed"),
    }
}

#[test]
#[ignore = "timing: run in release with --ignored --nocapture"]
fn replay_throughput() {
    let games = read_pgn(CANDIDATES).unwrap();
    let opts = ReplayOptions {
        fallback_time_control: Some(tc("40/7200:1800+30")),
        ..ReplayOptions::default()
    };
    // 1. full replay (derivation of elapsed times + Game::apply per move)
    let rounds = 10;
    let start = Instant::now();
    let mut plies = 0usize;
    for _ in 0..rounds {
        for g in &games {
            plies += replay_game(g, &opts).moves.len();
        }
    }
    let s = start.elapsed().as_secs_f64();
    println!(
        "pgn replay: {plies} plies in {s:.3} s = {:.0} plies/s",
        plies as f64 / s
    );

    // 2. bare Game::apply with SAN moves at given instants
    let sans: Vec<Vec<String>> = games
        .iter()
        .map(|g| g.moves.iter().map(|m| m.san.clone()).collect())
        .collect();
    let start = Instant::now();
    let mut events = 0usize;
    for _ in 0..rounds {
        for moves in &sans {
            let mut game = Game::new(GameConfig::new(tc("40/7200:1800+30"))).unwrap();
            game.apply(&GameEvent::Start { at: 0 }).unwrap();
            events += 1;
            let mut t = 0;
            for m in moves {
                t += 1_000;
                if game
                    .apply(&GameEvent::Move {
                        at: t,
                        mv: MoveText::San(m.clone()),
                    })
                    .is_err()
                {
                    break;
                }
                events += 1;
            }
        }
    }
    let s = start.elapsed().as_secs_f64();
    let rate = events as f64 / s;
    println!("Game::apply: {events} events in {s:.3} s = {rate:.0} events/s");
    assert!(
        rate > 50_000.0,
        "{rate:.0} events/s is below the 50,000 target"
    );
}
