//! Timing of the per-period batch on a generated list: 1,000,000 players, 5,000,000 games.
//! Run: `cargo test -p arbiter-elo --release --test batch_timing -- --ignored --nocapture`.

use elo::calendar::ListMonth;
use elo::k_factor_8_3_3::{BirthDate, KProfile};
use elo::period_batch::{BatchGame, BatchPlayer, BatchResult, rate_period};
use elo::{EloError, Rules};
use std::time::Instant;

/// xorshift64*: deterministic, dependency-free generator for the synthetic list.
struct Gen(u64);
impl Gen {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn generate(players: usize, games: usize) -> (Vec<BatchPlayer>, Vec<BatchGame>) {
    let mut g = Gen(0x9E37_79B9_7F4A_7C15);
    let ps = (0..players)
        .map(|_| BatchPlayer {
            rating: (g.below(10) != 0).then(|| 1400 + g.below(1400) as u16),
            profile: KProfile {
                games_before_period: g.below(200) as u32,
                ever_published_2400: g.below(50) == 0,
                ever_published_2300: g.below(30) == 0,
                birth: Some(BirthDate {
                    year: 1940 + g.below(80) as i32,
                    month_day: None,
                }),
            },
        })
        .collect();
    let mut gs: Vec<BatchGame> = (0..games)
        .map(|_| {
            let w = g.below(players as u64) as u32;
            let mut b = g.below(players as u64) as u32;
            if b == w {
                b = (w + 1) % players as u32;
            }
            BatchGame {
                white: w,
                black: b,
                result: [
                    BatchResult::WhiteWins,
                    BatchResult::Draw,
                    BatchResult::BlackWins,
                ][g.below(3) as usize],
                event: g.below(2000) as u32,
            }
        })
        .collect();
    gs.sort_unstable_by_key(|x| x.event);
    (ps, gs)
}

#[test]
#[ignore = "timing run, use --release"]
fn one_million_players_five_million_games() -> Result<(), EloError> {
    let (players, games) = generate(1_000_000, 5_000_000);
    let period = ListMonth::new(2026, 5)?;
    let start = Instant::now();
    let out = rate_period(Rules::standard(), period, &players, &games)?;
    let elapsed = start.elapsed();
    let rated: u64 = out.iter().map(|o| o.rated_games as u64).sum();
    println!(
        "rate_period: {} players, {} games ({} rated player-games) in {:.3} s",
        players.len(),
        games.len(),
        rated,
        elapsed.as_secs_f64()
    );
    assert!(elapsed.as_secs_f64() < 5.0, "took {elapsed:?}");
    Ok(())
}

#[test]
fn small_generated_period_runs() -> Result<(), EloError> {
    let (players, games) = generate(1000, 5000);
    let out = rate_period(
        Rules::standard(),
        ListMonth::new(2026, 5)?,
        &players,
        &games,
    )?;
    assert_eq!(out.len(), 1000);
    // sanity: a random period moves some ratings
    assert!(out.iter().any(|o| o.change != 0));
    Ok(())
}
