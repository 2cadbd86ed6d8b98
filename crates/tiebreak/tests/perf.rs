//! Timing of a large event: 10,000 players × 11 rounds, 6 tie-breaks.
//! Run with `cargo test --release -p arbiter-tiebreak --test perf -- --ignored --nocapture`.
//! No timed assertion: it prints the numbers.

use rand::{Rng, SeedableRng};
use std::time::Instant;
use tiebreak::*;

/// A plausible Swiss history: each round pairs neighbours in score order (no rematch
/// check), results drawn from an Elo-like model, an odd player out gets the PAB, a few
/// requested byes and forfeits.
fn big_event(n: usize, rounds: usize) -> Crosstable {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    let ratings: Vec<u32> = (0..n)
        .map(|i| 2700 - (i as u32 * 1700 / n as u32))
        .collect();
    let mut entries: Vec<Vec<RoundEntry>> = vec![Vec::with_capacity(rounds); n];
    let mut score = vec![0i64; n];
    for _ in 0..rounds {
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&i| (-score[i], i));
        let mut paired = Vec::with_capacity(n);
        for &i in &order {
            if rng.random_range(0..200) == 0 {
                entries[i].push(RoundEntry::HalfPointBye);
                score[i] += 5;
            } else {
                paired.push(i);
            }
        }
        if paired.len() % 2 == 1 {
            let last = paired.pop().unwrap();
            entries[last].push(RoundEntry::PairingAllocatedBye);
            score[last] += 10;
        }
        for pair in paired.chunks(2) {
            let (a, b) = (pair[0], pair[1]);
            let (ta, tb) = (a as u32 + 1, b as u32 + 1);
            let roll = rng.random_range(0..1000);
            let diff = ratings[a] as i64 - ratings[b] as i64;
            let p_white = (500 + diff / 2).clamp(50, 950);
            if roll < 5 {
                entries[a].push(RoundEntry::ForfeitWin {
                    opponent: tb,
                    colour: None,
                });
                entries[b].push(RoundEntry::ForfeitLoss {
                    opponent: ta,
                    colour: None,
                });
                score[a] += 10;
                continue;
            }
            let (ra, rb, sa, sb) = if roll < p_white - 150 {
                (GameResult::Win, GameResult::Loss, 10, 0)
            } else if roll < p_white + 150 {
                (GameResult::Draw, GameResult::Draw, 5, 5)
            } else {
                (GameResult::Loss, GameResult::Win, 0, 10)
            };
            entries[a].push(RoundEntry::Played {
                opponent: tb,
                colour: Colour::White,
                result: ra,
            });
            entries[b].push(RoundEntry::Played {
                opponent: ta,
                colour: Colour::Black,
                result: rb,
            });
            score[a] += sa;
            score[b] += sb;
        }
    }
    Crosstable {
        kind: EventKind::Swiss,
        rounds_played: rounds as u32,
        scoring: Scoring::classical(),
        players: (0..n)
            .map(|i| Participant {
                tpn: i as u32 + 1,
                rating: Some(ratings[i]),
                federation: None,
                name: None,
                entries: std::mem::take(&mut entries[i]),
            })
            .collect(),
    }
}

/// CPU time of this process in milliseconds (user + system, from /proc; Linux only,
/// test-only). The machine is shared, so CPU time is a fairer measure than wall time.
fn cpu_ms() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let after = stat.rsplit(')').next().unwrap_or("");
    let f: Vec<&str> = after.split_whitespace().collect();
    let ticks = |x: usize| f.get(x).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
    (ticks(11) + ticks(12)) * 10.0 // fields 14 and 15 of stat, 100 ticks per second
}

#[test]
#[ignore]
fn time_10000_players_11_rounds_6_tiebreaks() {
    let ct = big_event(10_000, 11);
    let opts = Options {
        with_working: false,
        ..Options::default()
    };
    let mut best = f64::MAX;
    for _ in 0..20 {
        let t = Instant::now();
        standings(&ct, Edition::C07_2026, &[], &opts).unwrap();
        best = best.min(t.elapsed().as_secs_f64() * 1000.0);
    }
    println!("10000 x 11, no tie-break (validation + ranking by points): best {best:.1} ms");
    for code in ["BH/C1", "BH", "SB", "PS", "WIN", "ARO"] {
        let list = parse_list(&[code], Edition::C07_2026).unwrap();
        let mut best = f64::MAX;
        for _ in 0..10 {
            let t = Instant::now();
            standings(&ct, Edition::C07_2026, &list, &opts).unwrap();
            best = best.min(t.elapsed().as_secs_f64() * 1000.0);
        }
        println!("  {code} alone: best {best:.1} ms");
    }
    let list = parse_list(
        &["BH/C1", "BH", "SB", "PS", "WIN", "ARO"],
        Edition::C07_2026,
    )
    .unwrap();
    for with_working in [false, true] {
        let opts = Options {
            with_working,
            ..Options::default()
        };
        let mut best = f64::MAX;
        for _ in 0..20 {
            let t = Instant::now();
            let s = standings(&ct, Edition::C07_2026, &list, &opts).unwrap();
            let ms = t.elapsed().as_secs_f64() * 1000.0;
            best = best.min(ms);
            assert_eq!(s.rows.len(), 10_000);
        }
        let c0 = cpu_ms();
        for _ in 0..50 {
            standings(&ct, Edition::C07_2026, &list, &opts).unwrap();
        }
        let cpu = (cpu_ms() - c0) / 50.0;
        println!(
            "10000 x 11, 6 tie-breaks, with_working={with_working}: best wall {best:.1} ms, mean CPU {cpu:.1} ms"
        );
    }
    // DE on large tied groups is the expensive one: report it too.
    let list = parse_list(&["DE", "BH/C1", "BH", "SB", "PS", "WIN"], Edition::C07_2026).unwrap();
    let t = Instant::now();
    standings(
        &ct,
        Edition::C07_2026,
        &list,
        &Options {
            with_working: false,
            ..Options::default()
        },
    )
    .unwrap();
    println!(
        "with DE first: {:.1} ms",
        t.elapsed().as_secs_f64() * 1000.0
    );
}
