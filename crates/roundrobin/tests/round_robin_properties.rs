//! Structural properties of the Berger tables (C.05 Annex 1) for 3–40 players, single and double
//! round robin, and of the drawing of lots.

use std::collections::{BTreeMap, BTreeSet};

use proptest::prelude::*;
use roundrobin::{
    DrawSeed, Round, SecondCycle, berger_table, double_round_robin, draw_pairing_numbers,
};

/// Colours of `player` in playing order (true = White), skipping byes.
fn colours(rounds: &[Round], player: u32) -> Vec<bool> {
    rounds
        .iter()
        .flat_map(|r| r.games.iter())
        .filter_map(|g| {
            if g.white == player {
                Some(true)
            } else if g.black == player {
                Some(false)
            } else {
                None
            }
        })
        .collect()
}

fn longest_same_colour_run(c: &[bool]) -> usize {
    let mut best = 0;
    let mut run = 0;
    for (i, x) in c.iter().enumerate() {
        run = if i > 0 && c[i - 1] == *x { run + 1 } else { 1 };
        best = best.max(run);
    }
    best
}

fn check_rounds_well_formed(n: u32, rounds: &[Round]) {
    for r in rounds {
        let mut seen = BTreeSet::new();
        for (b, g) in r.games.iter().enumerate() {
            assert_eq!(g.board as usize, b + 1);
            assert!((1..=n).contains(&g.white) && (1..=n).contains(&g.black));
            assert!(
                seen.insert(g.white) && seen.insert(g.black),
                "player twice in a round"
            );
        }
        if let Some(bye) = r.bye {
            assert!(seen.insert(bye));
        }
        assert_eq!(
            seen.len() as u32,
            n,
            "everyone plays or has the bye, every round"
        );
        assert_eq!(r.bye.is_some(), n % 2 == 1);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// C.05 Annex 1: in a single cycle everyone meets everyone exactly once; every round
    /// pairs everyone (odd: exactly one bye, each player has it once); colours are balanced
    /// within one (odd: exactly balanced); nobody has three consecutive games with one colour.
    #[test]
    fn single_round_robin_structure(n in 3u32..=40) {
        let rounds = berger_table(n).unwrap();
        let m = if n % 2 == 0 { n - 1 } else { n };
        prop_assert_eq!(rounds.len() as u32, m);
        check_rounds_well_formed(n, &rounds);
        let mut met = BTreeMap::new();
        for g in rounds.iter().flat_map(|r| &r.games) {
            *met.entry((g.white.min(g.black), g.white.max(g.black))).or_insert(0) += 1;
        }
        prop_assert_eq!(met.len() as u32, n * (n - 1) / 2);
        prop_assert!(met.values().all(|&c| c == 1));
        let byes: Vec<u32> = rounds.iter().filter_map(|r| r.bye).collect();
        if n % 2 == 1 {
            prop_assert_eq!(byes.iter().copied().collect::<BTreeSet<_>>().len() as u32, n);
        }
        for p in 1..=n {
            let c = colours(&rounds, p);
            let whites = c.iter().filter(|&&w| w).count() as i64;
            let blacks = c.len() as i64 - whites;
            let limit = if n % 2 == 0 { 1 } else { 0 };
            prop_assert!((whites - blacks).abs() <= limit, "player {} W{} B{}", p, whites, blacks);
            prop_assert!(longest_same_colour_run(&c) <= 2, "player {}", p);
        }
    }

    /// C.05 Annex 1, double round robin: each pair meets twice, once with each colour; with the
    /// recommended swap of the last two rounds of the first cycle nobody gets three consecutive
    /// games with the same colour (the stated purpose of the recommendation).
    #[test]
    fn double_round_robin_structure(n in 3u32..=40) {
        let rounds = double_round_robin(n, SecondCycle::SwapLastTwoRoundsOfFirstCycle).unwrap();
        let m = if n % 2 == 0 { n - 1 } else { n } as usize;
        prop_assert_eq!(rounds.len(), 2 * m);
        check_rounds_well_formed(n, &rounds);
        for (i, r) in rounds.iter().enumerate() {
            prop_assert_eq!(r.number as usize, i + 1);
        }
        let mut games = BTreeMap::new();
        for g in rounds.iter().flat_map(|r| &r.games) {
            *games.entry((g.white, g.black)).or_insert(0) += 1;
        }
        prop_assert_eq!(games.len() as u32, n * (n - 1));
        prop_assert!(games.values().all(|&c| c == 1));
        for p in 1..=n {
            prop_assert!(longest_same_colour_run(&colours(&rounds, p)) <= 2, "player {}", p);
        }
    }

    /// The drawing of lots is a permutation of the entrants and depends only on the seed.
    #[test]
    fn drawing_of_lots_is_a_reproducible_permutation(len in 0usize..60, seed in any::<u64>()) {
        let entrants: Vec<usize> = (0..len).collect();
        let a = draw_pairing_numbers(&entrants, DrawSeed::from_u64(seed));
        let b = draw_pairing_numbers(&entrants, DrawSeed::from_u64(seed));
        prop_assert_eq!(&a, &b);
        let mut sorted = a.by_pairing_number.clone();
        sorted.sort_unstable();
        prop_assert_eq!(sorted, entrants);
    }
}

/// Why the recommendation exists: without the swap, some player gets three consecutive games
/// with the same colour across the two cycles (even sizes 4–40).
#[test]
fn c05_annex1_double_round_robin_without_swap_gives_three_same_colours() {
    for n in (4u32..=40).step_by(2) {
        let rounds = double_round_robin(n, SecondCycle::AsPrinted).unwrap();
        let worst = (1..=n)
            .map(|p| longest_same_colour_run(&colours(&rounds, p)))
            .max();
        assert_eq!(worst, Some(3), "{n} players");
    }
}

/// C.05 Annex 1, "reverse the order of the last two rounds of the first cycle": 4 players,
/// first cycle 1-4 2-3 / 2-4 3-1 / 4-3 1-2, second cycle = table with colours reversed.
#[test]
fn c05_annex1_double_round_robin_four_players_worked_example() {
    let rounds = double_round_robin(4, SecondCycle::SwapLastTwoRoundsOfFirstCycle).unwrap();
    let pairs: Vec<Vec<(u32, u32)>> = rounds
        .iter()
        .map(|r| r.games.iter().map(|g| (g.white, g.black)).collect())
        .collect();
    assert_eq!(
        pairs,
        vec![
            vec![(1, 4), (2, 3)],
            vec![(2, 4), (3, 1)],
            vec![(4, 3), (1, 2)],
            vec![(4, 1), (3, 2)],
            vec![(3, 4), (2, 1)],
            vec![(4, 2), (1, 3)],
        ]
    );
}
