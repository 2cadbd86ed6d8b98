//! Timing of a large event: 10,000 players × 11 rounds, 6 tie-breaks.
//! Run with `cargo test --release -p arbiter-tiebreak --test perf -- --ignored --nocapture`.
//! No timed assertion: it prints the numbers.

use std::time::Instant;
use tiebreak::*;

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
    let ct = tiebreak::generated::generated_swiss(10_000, 11, 7);
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
