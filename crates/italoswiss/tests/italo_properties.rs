//! Properties over simulated tournaments: every present player paired exactly once or has the
//! bye, never a rematch, at most one bye each, deterministic, no panic on arbitrary input.

use italoswiss::{Colour, ItaloPairing, ItaloSwissError, ItaloSwissState, Player, pair_round};
use proptest::prelude::*;

fn next(seed: &mut u64) -> u64 {
    *seed = seed
        .wrapping_mul(6_364_136_223_846_793_005)
        .wrapping_add(1_442_695_040_888_963_407);
    *seed >> 33
}

fn legal_pairing_exists(s: &ItaloSwissState) -> bool {
    let present: Vec<&Player> = s.players.iter().filter(|p| !p.absent).collect();
    fn matchable(rest: &[&Player]) -> bool {
        let Some((first, others)) = rest.split_first() else {
            return true;
        };
        others.iter().enumerate().any(|(k, o)| {
            !first.opponents.contains(&o.number) && {
                let r: Vec<&Player> = others
                    .iter()
                    .enumerate()
                    .filter(|&(j, _)| j != k)
                    .map(|(_, p)| *p)
                    .collect();
                matchable(&r)
            }
        })
    }
    if present.len().is_multiple_of(2) {
        return matchable(&present);
    }
    present.iter().enumerate().any(|(k, b)| {
        !b.had_bye && {
            let r: Vec<&Player> = present
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != k)
                .map(|(_, p)| *p)
                .collect();
            matchable(&r)
        }
    })
}

fn check(s: &ItaloSwissState, p: &ItaloPairing) {
    let mut seen: Vec<u32> = p
        .boards
        .iter()
        .flat_map(|b| [b.white, b.black])
        .chain(p.bye)
        .collect();
    seen.sort_unstable();
    let mut expected: Vec<u32> = s
        .players
        .iter()
        .filter(|x| !x.absent)
        .map(|x| x.number)
        .collect();
    expected.sort_unstable();
    assert_eq!(seen, expected);
    let by = |n: u32| s.players.iter().find(|x| x.number == n).unwrap();
    for b in &p.boards {
        assert!(
            !by(b.white).opponents.contains(&b.black),
            "rematch {} - {}",
            b.white,
            b.black
        );
    }
    if let Some(b) = p.bye {
        assert!(!by(b).had_bye);
    }
}

fn apply(s: &mut ItaloSwissState, p: &ItaloPairing, seed: &mut u64) {
    for b in &p.boards {
        let (pw, pb) = [(2, 0), (1, 1), (0, 2)][(next(seed) % 3) as usize];
        let iw = s.players.iter().position(|x| x.number == b.white).unwrap();
        let ib = s.players.iter().position(|x| x.number == b.black).unwrap();
        s.players[iw].score_half_points += pw;
        s.players[ib].score_half_points += pb;
        s.players[iw].colours.push(Colour::White);
        s.players[ib].colours.push(Colour::Black);
        s.players[iw].opponents.push(b.black);
        s.players[ib].opponents.push(b.white);
    }
    if let Some(b) = p.bye {
        let i = s.players.iter().position(|x| x.number == b).unwrap();
        s.players[i].score_half_points += 2;
        s.players[i].had_bye = true;
    }
    s.round += 1;
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn every_present_player_paired_once_no_rematch_deterministic(
        n in 2u32..16,
        rounds in 2u32..8,
        seed0 in any::<u64>(),
        absent_mask in any::<u16>(),
    ) {
        let mut seed = seed0;
        let mut s = ItaloSwissState { total_rounds: rounds, round: 1, players: (1..=n).map(Player::new).collect() };
        while s.round <= rounds {
            let round = s.round as usize;
            for (k, p) in s.players.iter_mut().enumerate() {
                p.absent = round > 1 && k % 4 == 2 && (absent_mask >> ((k + round) % 16)) & 1 == 1;
            }
            match pair_round(&s) {
                Ok(p) => {
                    check(&s, &p);
                    prop_assert_eq!(&pair_round(&s).unwrap(), &p);
                    apply(&mut s, &p, &mut seed);
                }
                Err(ItaloSwissError::NoLegalPairing { .. }) | Err(ItaloSwissError::NoByeCandidate { .. }) => {
                    prop_assert!(!legal_pairing_exists(&s), "a legal pairing exists: {:?}", s);
                    break;
                }
                Err(e) => prop_assert!(false, "unexpected error {e}"),
            }
        }
    }

    #[test]
    fn arbitrary_input_never_panics(
        round in 0u32..6,
        total in 0u32..6,
        raw in proptest::collection::vec(
            (0u32..12, 0u32..12, proptest::collection::vec(any::<bool>(), 0..5), proptest::collection::vec(0u32..12, 0..5), any::<bool>(), any::<bool>(), any::<bool>()),
            0..10),
    ) {
        let players = raw.into_iter().map(|(number, score, cols, opponents, adjourned, had_bye, absent)| Player {
            number,
            score_half_points: score,
            colours: cols.into_iter().map(|w| if w { Colour::White } else { Colour::Black }).collect(),
            opponents,
            adjourned,
            had_bye,
            absent,
        }).collect();
        let _ = pair_round(&ItaloSwissState { total_rounds: total, round, players });
    }
}

#[test]
fn extreme_numbers_never_panic() {
    let mut a = Player::new(u32::MAX);
    a.score_half_points = u32::MAX;
    a.adjourned = true;
    let mut b = Player::new(1);
    b.score_half_points = u32::MAX - 1;
    for (round, total) in [(u32::MAX, u32::MAX), (2, 2), (1, u32::MAX)] {
        let _ = pair_round(&ItaloSwissState {
            total_rounds: total,
            round,
            players: vec![a.clone(), b.clone(), Player::new(7)],
        });
    }
}
