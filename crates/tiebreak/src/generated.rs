//! A generated Swiss event for benchmarks and tests of scale: no FIDE rule lives here.
use rand::{Rng, SeedableRng};

use crate::{Colour, Crosstable, EventKind, GameResult, Participant, RoundEntry, Scoring};

/// A plausible Swiss history of `n` players over `rounds` rounds, the same for the same
/// `seed`: each round pairs neighbours in score order (no rematch check), results from an
/// Elo-like model, the odd player out gets the PAB, a few half-point byes and forfeits.
pub fn generated_swiss(n: usize, rounds: usize, seed: u64) -> Crosstable {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let ratings: Vec<u32> = (0..n)
        .map(|i| 2700 - (i as u32 * 1700 / n.max(1) as u32))
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
        if paired.len() % 2 == 1
            && let Some(last) = paired.pop()
        {
            entries[last].push(RoundEntry::PairingAllocatedBye);
            score[last] += 10;
        }
        for pair in paired.chunks_exact(2) {
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

#[cfg(test)]
mod tests {
    use super::generated_swiss;

    #[test]
    fn deterministic_and_complete() {
        let a = generated_swiss(51, 5, 3);
        assert_eq!(a, generated_swiss(51, 5, 3));
        assert!(a.players.iter().all(|p| p.entries.len() == 5));
        assert!(crate::standings(&a, crate::Edition::C07_2026, &[], &Default::default()).is_ok());
    }
}
