//! Properties of the Lim pairing over simulated tournaments: every present player paired exactly
//! once (or has the bye), no rematch (art. 2), colour limits of art. 12.1 outside the last round,
//! deterministic, and no panic on arbitrary input.

use lim::colour_allocation::colours_allow_game;
use lim::{Colour, LimError, Player, RoundPairing, TournamentState, pair_round};
use proptest::prelude::*;

/// A small deterministic generator for results (keeps the strategy simple).
fn next(seed: &mut u64) -> u64 {
    *seed = seed
        .wrapping_mul(6_364_136_223_846_793_005)
        .wrapping_add(1_442_695_040_888_963_407);
    *seed >> 33
}

/// Is there any legal pairing at all (some allowed bye, then a perfect matching)?
fn brute_force_exists(state: &TournamentState) -> bool {
    let present: Vec<&Player> = state.players.iter().filter(|p| !p.absent).collect();
    let last = state.round == state.total_rounds;
    let ok = |a: &Player, b: &Player| {
        !a.opponents.contains(&b.pairing_number) && colours_allow_game(&a.colours, &b.colours, last)
    };
    fn matchable(rest: &[&Player], ok: &dyn Fn(&Player, &Player) -> bool) -> bool {
        let Some((first, others)) = rest.split_first() else {
            return true;
        };
        others.iter().enumerate().any(|(k, o)| {
            ok(first, o) && {
                let r: Vec<&Player> = others
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
        !b.bye_ineligible && {
            let r: Vec<&Player> = present
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != k)
                .map(|(_, p)| *p)
                .collect();
            matchable(&r, &ok)
        }
    })
}

fn check_round(state: &TournamentState, p: &RoundPairing) {
    let present: Vec<u32> = state
        .players
        .iter()
        .filter(|x| !x.absent)
        .map(|x| x.pairing_number)
        .collect();
    let mut seen: Vec<u32> = p
        .boards
        .iter()
        .flat_map(|b| [b.white, b.black])
        .chain(p.bye)
        .collect();
    seen.sort_unstable();
    let mut expected = present.clone();
    expected.sort_unstable();
    assert_eq!(seen, expected, "every present player exactly once");
    let by = |n: u32| {
        state
            .players
            .iter()
            .find(|x| x.pairing_number == n)
            .unwrap()
    };
    for b in &p.boards {
        let (w, k) = (by(b.white), by(b.black));
        assert!(
            !w.opponents.contains(&b.black),
            "rematch {} - {}",
            b.white,
            b.black
        );
        if state.round < state.total_rounds {
            assert!(
                !lim::colour_allocation::breaks_colour_limits(&w.colours, Colour::White),
                "colour limit for {}",
                b.white
            );
            assert!(
                !lim::colour_allocation::breaks_colour_limits(&k.colours, Colour::Black),
                "colour limit for {}",
                b.black
            );
        }
    }
    if let Some(b) = p.bye {
        assert!(!by(b).bye_ineligible, "bye given twice");
    }
}

fn apply(state: &mut TournamentState, p: &RoundPairing, seed: &mut u64) {
    let idx = |s: &TournamentState, n: u32| {
        s.players
            .iter()
            .position(|x| x.pairing_number == n)
            .unwrap()
    };
    for b in &p.boards {
        let (w, k) = (idx(state, b.white), idx(state, b.black));
        let r = next(seed) % 3; // 0: white wins, 1: draw, 2: black wins
        let (sw, sb) = [(2, 0), (1, 1), (0, 2)][r as usize];
        state.players[w].score_half_points += sw;
        state.players[k].score_half_points += sb;
        state.players[w].colours.push(Colour::White);
        state.players[k].colours.push(Colour::Black);
        state.players[w].opponents.push(b.black);
        state.players[k].opponents.push(b.white);
    }
    if let Some(b) = p.bye {
        let i = idx(state, b);
        state.players[i].score_half_points += 2;
        state.players[i].bye_ineligible = true;
    }
    state.round += 1;
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn every_present_player_is_paired_once_no_rematch_deterministic(
        n in 2u32..14,
        rounds in 2u32..7,
        seed0 in any::<u64>(),
        absent_mask in any::<u16>(),
        white_first in any::<bool>(),
    ) {
        let mut seed = seed0;
        let mut state = TournamentState {
            total_rounds: rounds,
            round: 1,
            initial_colour: if white_first { Colour::White } else { Colour::Black },
            players: (1..=n).map(|k| Player::new(k, 2500 - 7 * k)).collect(),
        };
        while state.round <= rounds {
            for (k, p) in state.players.iter_mut().enumerate() {
                p.absent = state.round > 1 && (absent_mask >> ((k + state.round as usize) % 16)) & 1 == 1 && k % 3 == 0;
            }
            match pair_round(&state) {
                Ok(p) => {
                    check_round(&state, &p);
                    prop_assert_eq!(&pair_round(&state).unwrap(), &p, "deterministic");
                    apply(&mut state, &p, &mut seed);
                }
                Err(LimError::NoLegalPairing { .. }) | Err(LimError::NoByeCandidate { .. }) => {
                    prop_assert!(!brute_force_exists(&state), "engine found nothing but a legal pairing exists: {:?}", state);
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
        raw in proptest::collection::vec((0u32..12, 0u32..3000, 0u32..12, proptest::collection::vec(0u32..12, 0..4), proptest::collection::vec(any::<bool>(), 0..5), any::<bool>(), any::<bool>()), 0..10),
    ) {
        let players = raw.into_iter().map(|(pn, rating, score, opponents, colours, absent, bye)| Player {
            pairing_number: pn,
            rating,
            score_half_points: score,
            colours: colours.into_iter().map(|w| if w { Colour::White } else { Colour::Black }).collect(),
            opponents,
            floated_last_round: None,
            absent,
            bye_ineligible: bye,
        }).collect();
        let state = TournamentState { total_rounds: total, round, initial_colour: Colour::White, players };
        let _ = pair_round(&state);
    }
}

#[test]
fn extreme_numbers_never_panic() {
    let mut a = Player::new(u32::MAX, u32::MAX);
    a.score_half_points = u32::MAX;
    let mut b = Player::new(1, 0);
    b.score_half_points = u32::MAX;
    for (round, total) in [(u32::MAX, u32::MAX), (200, 200), (1, u32::MAX)] {
        let s = TournamentState {
            total_rounds: total,
            round,
            initial_colour: Colour::Black,
            players: vec![a.clone(), b.clone(), Player::new(7, 1)],
        };
        let _ = pair_round(&s);
    }
}
