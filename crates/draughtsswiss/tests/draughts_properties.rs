//! Properties over simulated events: every present participant paired exactly once or resting,
//! no rematch (art. 2.3), no third colour in a row (art. 7.1.6), one rest each (art. 5.2),
//! deterministic, no panic on arbitrary input.

use draughtsswiss::group_pairing::third_in_a_row;
use draughtsswiss::{
    Acceleration, Colour, DraughtsPairing, DraughtsSwissError, DraughtsSwissState, Game,
    InitialOrder, Participant, pair_round,
};
use proptest::prelude::*;

fn next(seed: &mut u64) -> u64 {
    *seed = seed
        .wrapping_mul(6_364_136_223_846_793_005)
        .wrapping_add(1_442_695_040_888_963_407);
    *seed >> 33
}

fn legal_pairing_exists(s: &DraughtsSwissState) -> bool {
    let present: Vec<&Participant> = s.participants.iter().filter(|p| !p.absent).collect();
    let ok = |a: &Participant, b: &Participant| {
        let met = a
            .games
            .iter()
            .any(|g| g.colour.is_some() && g.opponent == b.id);
        let (ca, cb) = (a.colours(), b.colours());
        !met && [Colour::White, Colour::Black]
            .into_iter()
            .any(|c| !third_in_a_row(&ca, c) && !third_in_a_row(&cb, c.opposite()))
    };
    fn matchable(rest: &[&Participant], ok: &dyn Fn(&Participant, &Participant) -> bool) -> bool {
        let Some((first, others)) = rest.split_first() else {
            return true;
        };
        others.iter().enumerate().any(|(k, o)| {
            ok(first, o) && {
                let r: Vec<&Participant> = others
                    .iter()
                    .enumerate()
                    .filter(|&(j, _)| j != k)
                    .map(|(_, p)| *p)
                    .collect();
                matchable(&r, ok)
            }
        })
    }
    if present.len().is_multiple_of(2) {
        return matchable(&present, &ok);
    }
    present.iter().enumerate().any(|(k, b)| {
        b.rests == 0 && {
            let r: Vec<&Participant> = present
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != k)
                .map(|(_, p)| *p)
                .collect();
            matchable(&r, &ok)
        }
    })
}

fn check(s: &DraughtsSwissState, p: &DraughtsPairing) {
    let mut seen: Vec<u32> = p
        .boards
        .iter()
        .flat_map(|b| [b.white, b.black])
        .chain(p.rest)
        .collect();
    seen.sort_unstable();
    let mut expected: Vec<u32> = s
        .participants
        .iter()
        .filter(|x| !x.absent)
        .map(|x| x.id)
        .collect();
    expected.sort_unstable();
    assert_eq!(seen, expected, "every present participant exactly once");
    let by = |id: u32| s.participants.iter().find(|x| x.id == id).unwrap();
    for b in &p.boards {
        let (w, k) = (by(b.white), by(b.black));
        assert!(
            !w.games
                .iter()
                .any(|g| g.colour.is_some() && g.opponent == b.black),
            "rematch"
        );
        assert!(
            !third_in_a_row(&w.colours(), Colour::White),
            "third White in a row for {}",
            w.id
        );
        assert!(
            !third_in_a_row(&k.colours(), Colour::Black),
            "third Black in a row for {}",
            k.id
        );
    }
    if let Some(r) = p.rest {
        assert_eq!(by(r).rests, 0, "second rest");
    }
}

fn apply(s: &mut DraughtsSwissState, p: &DraughtsPairing, seed: &mut u64) {
    for b in &p.boards {
        let (pw, pb) = [(2, 0), (1, 1), (0, 2)][(next(seed) % 3) as usize];
        let iw = s.participants.iter().position(|x| x.id == b.white).unwrap();
        let ib = s.participants.iter().position(|x| x.id == b.black).unwrap();
        s.participants[iw].games.push(Game {
            opponent: b.black,
            colour: Some(Colour::White),
            points: pw,
        });
        s.participants[ib].games.push(Game {
            opponent: b.white,
            colour: Some(Colour::Black),
            points: pb,
        });
    }
    if let Some(r) = p.rest {
        let i = s.participants.iter().position(|x| x.id == r).unwrap();
        s.participants[i].rests += 1;
    }
    if s.round == 1 {
        s.haley_group_a = p.haley_group_a.clone();
    }
    s.round += 1;
}

fn acceleration(k: u8) -> Acceleration {
    [
        Acceleration::None,
        Acceleration::Quarter,
        Acceleration::Haley,
    ][usize::from(k % 3)]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn every_present_participant_paired_once_no_rematch_deterministic(
        n in 2u32..14,
        rounds in 2u32..7,
        seed0 in any::<u64>(),
        accel in any::<u8>(),
        lots in any::<bool>(),
        white in any::<bool>(),
        absent_mask in any::<u16>(),
    ) {
        let mut seed = seed0;
        let mut s = DraughtsSwissState {
            total_rounds: rounds,
            round: 1,
            first_colour: if white { Colour::White } else { Colour::Black },
            initial_order: if lots { InitialOrder::DrawnLots } else { InitialOrder::RankingList },
            acceleration: acceleration(accel),
            participants: (1..=n).map(Participant::new).collect(),
            haley_group_a: Vec::new(),
        };
        while s.round <= rounds {
            let round = s.round as usize;
            for (k, p) in s.participants.iter_mut().enumerate() {
                p.absent = round > 1 && k % 3 == 1 && (absent_mask >> ((k + round) % 16)) & 1 == 1;
            }
            match pair_round(&s) {
                Ok(p) => {
                    check(&s, &p);
                    prop_assert_eq!(&pair_round(&s).unwrap(), &p);
                    apply(&mut s, &p, &mut seed);
                }
                Err(DraughtsSwissError::NoLegalPairing { .. }) | Err(DraughtsSwissError::NoRestCandidate { .. }) => {
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
        accel in any::<u8>(),
        lots in any::<bool>(),
        raw in proptest::collection::vec(
            (0u32..12, proptest::collection::vec((0u32..12, proptest::option::of(any::<bool>()), 0u32..4), 0..4), 0u32..3, 0u32..5, any::<bool>()),
            0..10),
        group_a in proptest::collection::vec(0u32..12, 0..5),
    ) {
        let participants = raw.into_iter().map(|(id, games, rests, extra, absent)| Participant {
            id,
            games: games.into_iter().map(|(o, c, pts)| Game {
                opponent: o,
                colour: c.map(|w| if w { Colour::White } else { Colour::Black }),
                points: pts,
            }).collect(),
            rests,
            extra_points: extra,
            absent,
            withdrawn: false,
        }).collect();
        let s = DraughtsSwissState {
            total_rounds: total,
            round,
            first_colour: Colour::White,
            initial_order: if lots { InitialOrder::DrawnLots } else { InitialOrder::RankingList },
            acceleration: acceleration(accel),
            participants,
            haley_group_a: group_a,
        };
        let _ = pair_round(&s);
    }
}

#[test]
fn extreme_numbers_never_panic() {
    let mut a = Participant::new(u32::MAX);
    a.extra_points = u32::MAX;
    a.rests = u32::MAX / 4;
    let mut b = Participant::new(1);
    b.extra_points = u32::MAX;
    for (round, total, accel) in [(u32::MAX, u32::MAX, 0u8), (2, 3, 2), (1, u32::MAX, 1)] {
        let s = DraughtsSwissState {
            total_rounds: total,
            round,
            first_colour: Colour::White,
            initial_order: InitialOrder::RankingList,
            acceleration: acceleration(accel),
            participants: vec![a.clone(), b.clone(), Participant::new(7)],
            haley_group_a: vec![u32::MAX, 1],
        };
        let _ = pair_round(&s);
    }
}
