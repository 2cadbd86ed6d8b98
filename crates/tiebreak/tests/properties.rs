//! Property tests on random (plausible, valid) Swiss and round-robin crosstables.

use proptest::prelude::*;
use std::collections::BTreeMap;
use tiebreak::*;

const ALL_2026: &[&str] = &[
    "DE",
    "DE/P",
    "BPG",
    "BWG",
    "REP",
    "STD",
    "SB",
    "SB/C1",
    "SB/C2",
    "SB/P",
    "SB/C1/P",
    "ARO",
    "ARO/C1",
    "ARO/M1",
    "TPR",
    "PTP",
    "APRO",
    "APPO",
    "RTNG",
    "RTNG/R",
    "WIN",
    "WON",
    "PS",
    "PS/C1",
    "TPN",
    "TPN/R",
    "BH",
    "BH/C1",
    "BH/C2",
    "BH/M1",
    "BH/M2",
    "BH/P",
    "FB",
    "FB/C1",
    "FB/M1/P",
    "AOB",
    "AOB/F",
    "KS",
    "KS/L2",
    "SOLKOFF",
    "SOLKOFF/M1",
];

/// Builds a crosstable from random choices: each round shuffles the players, gives some of
/// them a bye of a random kind, pairs the rest, and picks results.
fn build(
    n: usize,
    rounds: usize,
    ratings: &[Option<u32>],
    order_seeds: &[Vec<usize>],
    byes: &[Vec<u8>],
    results: &[Vec<u8>],
) -> Crosstable {
    let mut entries: Vec<Vec<RoundEntry>> = vec![Vec::new(); n];
    for r in 0..rounds {
        let mut order: Vec<usize> = (0..n).collect();
        // deterministic shuffle from the seeds
        for (i, &s) in order_seeds[r].iter().enumerate().take(n) {
            let j = i + s % (n - i);
            order.swap(i, j);
        }
        let mut paired = Vec::new();
        for (x, &p) in order.iter().enumerate() {
            let b = byes[r][x % byes[r].len()];
            let e = match b {
                0 => RoundEntry::HalfPointBye,
                1 => RoundEntry::ZeroPointBye,
                2 => RoundEntry::FullPointBye,
                3 => RoundEntry::Withdrawn,
                4 => RoundEntry::Absent,
                _ => {
                    paired.push(p);
                    continue;
                }
            };
            entries[p].push(e);
        }
        if paired.len() % 2 == 1 {
            let last = paired.pop().unwrap_or(0);
            entries[last].push(RoundEntry::PairingAllocatedBye);
        }
        for (g, pair) in paired.chunks(2).enumerate() {
            let (a, b) = (pair[0], pair[1]);
            let (ta, tb) = (a as u32 + 1, b as u32 + 1);
            use Colour::*;
            use GameResult::*;
            let res = results[r][g % results[r].len()];
            let played = |o, colour, result| RoundEntry::Played {
                opponent: o,
                colour,
                result,
            };
            let (ea, eb) = match res {
                0 => (played(tb, White, Win), played(ta, Black, Loss)),
                1 => (played(tb, White, Draw), played(ta, Black, Draw)),
                2 => (played(tb, White, Loss), played(ta, Black, Win)),
                3 => (
                    RoundEntry::ForfeitWin {
                        opponent: tb,
                        colour: Some(White),
                    },
                    RoundEntry::ForfeitLoss {
                        opponent: ta,
                        colour: Some(Black),
                    },
                ),
                4 => (
                    RoundEntry::ForfeitLoss {
                        opponent: tb,
                        colour: None,
                    },
                    RoundEntry::ForfeitWin {
                        opponent: ta,
                        colour: None,
                    },
                ),
                _ => (
                    RoundEntry::ForfeitLoss {
                        opponent: tb,
                        colour: None,
                    },
                    RoundEntry::ForfeitLoss {
                        opponent: ta,
                        colour: None,
                    },
                ),
            };
            entries[a].push(ea);
            entries[b].push(eb);
        }
    }
    Crosstable {
        kind: EventKind::Swiss,
        rounds_played: rounds as u32,
        scoring: Scoring::classical(),
        players: (0..n)
            .map(|i| Participant {
                tpn: i as u32 + 1,
                rating: ratings[i],
                federation: None,
                name: None,
                entries: entries[i].clone(),
            })
            .collect(),
    }
}

fn arb_event() -> impl Strategy<Value = Crosstable> {
    (2usize..12, 1usize..7).prop_flat_map(|(n, rounds)| {
        (
            Just(n),
            Just(rounds),
            prop::collection::vec(prop::option::weighted(0.95, 1000u32..2800), n),
            prop::collection::vec(prop::collection::vec(0usize..1000, n), rounds),
            // bye kinds: values >= 5 mean "paired"; mostly paired
            prop::collection::vec(
                prop::collection::vec(prop_oneof![8 => Just(9u8), 1 => 0u8..5], 1..n + 1),
                rounds,
            ),
            prop::collection::vec(
                prop::collection::vec(prop_oneof![9 => 0u8..3, 1 => 3u8..6], 1..8),
                rounds,
            ),
        )
            .prop_map(|(n, rounds, ratings, orders, byes, results)| {
                build(n, rounds, &ratings, &orders, &byes, &results)
            })
    })
}

fn values_by_tpn(s: &Standings) -> BTreeMap<u32, Vec<Option<Exact>>> {
    s.rows
        .iter()
        .map(|r| (r.tpn, r.values.iter().map(|v| v.value).collect()))
        .collect()
}

fn opts() -> Options {
    Options {
        unrated_rating: Some(1000),
        ..Options::default()
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// Art. 14: every cut removes a non-negative value: BH ≥ BH/C1 ≥ BH/C2 ≥ 0,
    /// BH/C1 ≥ BH/M1 ≥ BH/M2, and likewise for SB; the 2026 cap never raises BH.
    #[test]
    fn cuts_are_monotone(ct in arb_event()) {
        for edition in [Edition::C07_2026, Edition::C07_2024] {
            let list = parse_list(
                &["BH", "BH/C1", "BH/C2", "BH/M1", "BH/M2", "SB", "SB/C1", "SB/C2"],
                edition,
            ).unwrap();
            let s = standings(&ct, edition, &list, &opts()).unwrap();
            for row in &s.rows {
                let v: Vec<Exact> = row.values.iter().map(|v| v.value.unwrap()).collect();
                prop_assert!(v[0] >= v[1] && v[1] >= v[2] && v[2] >= Exact::ZERO, "{:?}", v);
                prop_assert!(v[1] >= v[3] && v[3] >= v[4], "{:?}", v);
                prop_assert!(v[5] >= v[6] && v[6] >= v[7] && v[7] >= Exact::ZERO, "{:?}", v);
            }
        }
        let l = parse_list(&["BH"], Edition::C07_2026).unwrap();
        let s26 = standings(&ct, Edition::C07_2026, &l, &opts()).unwrap();
        let s24 = standings(&ct, Edition::C07_2024, &l, &opts()).unwrap();
        let (a, b) = (values_by_tpn(&s26), values_by_tpn(&s24));
        for (t, v) in &a {
            prop_assert!(v[0] <= b[t][0]);
        }
    }

    /// Reordering the participants in the input changes no value and no rank.
    #[test]
    fn player_order_does_not_matter(ct in arb_event(), rot in 0usize..12) {
        let list = parse_list(ALL_2026, Edition::C07_2026).unwrap();
        let a = standings(&ct, Edition::C07_2026, &list, &opts()).unwrap();
        let mut shuffled = ct.clone();
        let k = rot % shuffled.players.len();
        shuffled.players.rotate_left(k);
        shuffled.players.reverse();
        let b = standings(&shuffled, Edition::C07_2026, &list, &opts()).unwrap();
        prop_assert_eq!(values_by_tpn(&a), values_by_tpn(&b));
        let ra: Vec<(u32, u32)> = a.rows.iter().map(|r| (r.tpn, r.rank)).collect();
        let rb: Vec<(u32, u32)> = b.rows.iter().map(|r| (r.tpn, r.rank)).collect();
        prop_assert_eq!(ra, rb);
    }

    /// Ranks form a valid ordering: points never increase down the table, rank 1 first,
    /// equal ranks only between equal points, rank = 1 + number of participants strictly
    /// ahead; with lots every rank is distinct.
    #[test]
    fn ranks_are_a_valid_ordering(ct in arb_event(), seed in any::<u64>()) {
        for edition in [Edition::C07_2026, Edition::C07_2024, Edition::SeedC06] {
            let codes: &[&str] = match edition {
                Edition::SeedC06 => &["DE", "BH/C1", "BH", "SB", "PS", "WIN", "BPG", "KS"],
                _ => &["DE", "BH/C1", "BH", "SB", "PS", "WIN", "BPG", "AOB", "FB"],
            };
            let list = parse_list(codes, edition).unwrap();
            let s = standings(&ct, edition, &list, &opts()).unwrap();
            prop_assert_eq!(s.rows.len(), ct.players.len());
            prop_assert_eq!(s.rows[0].rank, 1);
            for (x, w) in s.rows.windows(2).enumerate() {
                prop_assert!(w[0].points >= w[1].points);
                prop_assert!(w[0].rank <= w[1].rank);
                if w[0].rank == w[1].rank {
                    prop_assert_eq!(w[0].points, w[1].points);
                } else {
                    prop_assert_eq!(w[1].rank as usize, x + 2);
                }
            }
            let lots = Options { ties: TieResolution::ByLot { seed }, ..opts() };
            let s = standings(&ct, edition, &list, &lots).unwrap();
            let r: Vec<u32> = s.rows.iter().map(|r| r.rank).collect();
            let want: Vec<u32> = (1..=ct.players.len() as u32).collect();
            prop_assert_eq!(r, want);
        }
    }

    /// Every code in every edition it exists in runs without error or panic, and the
    /// working is consistent: the sum of uncut contributions equals BH/SB.
    #[test]
    fn every_code_runs_and_working_adds_up(ct in arb_event()) {
        let list = parse_list(ALL_2026, Edition::C07_2026).unwrap();
        let s = standings(&ct, Edition::C07_2026, &list, &opts()).unwrap();
        let bh = list.iter().position(|t| t.to_string() == "BH/C2").unwrap();
        for row in &s.rows {
            let w = &row.values[bh].working.contributions;
            let sum = w.iter().filter(|c| !c.cut).fold(Exact::ZERO, |a, c| a + c.value);
            prop_assert_eq!(Some(sum), row.values[bh].value);
        }
        let seed = parse_list(
            &["DE", "WIN", "BPG", "PS/C2", "KS/L-1", "BH/M2", "BHSUM", "SB", "ARO/C1",
              "TPR", "TPR/350", "SOLKOFF/C1"],
            Edition::SeedC06,
        ).unwrap();
        standings(&ct, Edition::SeedC06, &seed, &opts()).unwrap();
    }
}
