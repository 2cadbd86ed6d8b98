//! Hand-worked examples of C.04.3 (2026 unless stated) and properties of the engine.

use proptest::prelude::*;
use swiss::{Board, Colour, Edition, Float, Options, Player, TournamentState, pair};

fn player(tpn: u32) -> Player {
    Player {
        tpn,
        rating: 2500u32.saturating_sub(tpn * 10),
        score: 0,
        acceleration: 0,
        colours: vec![],
        floats: vec![],
        opponents: vec![],
        had_pab: false,
        had_unplayed_win: false,
        absent: false,
    }
}

fn state(n: u32, total_rounds: u32) -> TournamentState {
    TournamentState {
        players: (1..=n).map(player).collect(),
        rounds_played: 0,
        total_rounds,
        points_for_win: 2,
        initial_colour: Colour::White,
        forbidden_pairs: vec![],
    }
}

fn b(white: u32, black: u32) -> Board {
    Board { white, black }
}

/// Plays a round: higher TPN loses unless `results` says otherwise (2 = white wins,
/// 1 = draw, 0 = black wins), scores in half-points.
fn play(st: &mut TournamentState, boards: &[Board], bye: Option<u32>, results: &[u8]) {
    let idx = |st: &TournamentState, t: u32| st.players.iter().position(|p| p.tpn == t).unwrap();
    let before: Vec<u32> = st.players.iter().map(|p| p.score).collect();
    let mut touched = vec![false; st.players.len()];
    for (k, bd) in boards.iter().enumerate() {
        let r = results
            .get(k)
            .copied()
            .unwrap_or(if bd.white < bd.black { 2 } else { 0 });
        let (w, bl) = (idx(st, bd.white), idx(st, bd.black));
        let (sw, sb) = (before[w], before[bl]);
        st.players[w].score += u32::from(r);
        st.players[bl].score += 2 - u32::from(r);
        st.players[w].colours.push(Some(Colour::White));
        st.players[bl].colours.push(Some(Colour::Black));
        st.players[w].opponents.push(bd.black);
        st.players[bl].opponents.push(bd.white);
        let (fw, fb) = if sw > sb {
            (Float::Down, Float::Up)
        } else if sw < sb {
            (Float::Up, Float::Down)
        } else {
            (Float::None, Float::None)
        };
        st.players[w].floats.push(fw);
        st.players[bl].floats.push(fb);
        touched[w] = true;
        touched[bl] = true;
    }
    for (i, p) in st.players.iter_mut().enumerate() {
        if touched[i] {
            continue;
        }
        p.colours.push(None);
        if Some(p.tpn) == bye {
            p.score += 2;
            p.had_pab = true;
            p.floats.push(Float::Down);
        } else {
            p.floats.push(Float::None);
        }
    }
    st.rounds_played += 1;
}

#[test]
fn round_one_homogeneous_bracket_s1_against_s2_art_3() {
    // Art. 3.2/3.3: S1 = {1,2,3}, S2 = {4,5,6}; colours Art. 5.2.5 (initial colour White,
    // odd TPN of the higher-ranked player gets it).
    let st = state(6, 5);
    let p = pair(&st, Edition::Dutch2026, &Options::default()).unwrap();
    assert_eq!(p.boards, vec![b(1, 4), b(5, 2), b(3, 6)]);
    assert_eq!(p.bye, None);
}

#[test]
fn round_one_odd_number_pab_to_lowest_c5() {
    let st = state(7, 5);
    let p = pair(&st, Edition::Dutch2026, &Options::default()).unwrap();
    assert_eq!(p.boards, vec![b(1, 4), b(5, 2), b(3, 6)]);
    assert_eq!(p.bye, Some(7));
}

#[test]
fn pab_not_twice_c2() {
    let mut st = state(3, 5);
    // round 1: 1-2, bye 3.
    play(&mut st, &[b(1, 2)], Some(3), &[2]);
    let p = pair(&st, Edition::Dutch2026, &Options::default()).unwrap();
    // scores: 1:2, 3:2 (bye), 2:0. 3 cannot get the bye again; 1-2 would be a rematch,
    // so 1 plays 3 and 2 gets the bye.
    assert_eq!(p.bye, Some(2));
    assert_eq!(p.boards.len(), 1);
    let bd = p.boards[0];
    assert!(bd == b(3, 1) || bd == b(1, 3));
}

#[test]
fn no_valid_pairing_names_the_absolute_criterion() {
    let mut st = state(2, 3);
    play(&mut st, &[b(1, 2)], None, &[2]);
    let e = pair(&st, Edition::Dutch2026, &Options::default()).unwrap_err();
    assert!(e.to_string().contains("C1-C3"), "{e}");
}

#[test]
fn round_two_winners_and_losers_c12_colours() {
    // Round 1 (6 players): 1-4 (1 wins), 5-2 (2 wins), 3-6 (3 wins).
    let mut st = state(6, 5);
    play(&mut st, &[b(1, 4), b(5, 2), b(3, 6)], None, &[2, 0, 2]);
    let p = pair(&st, Edition::Dutch2026, &Options::default()).unwrap();
    // Winners {1,2,3}: odd bracket → S1={1}, S2={2,3}. 1 (had W) vs 2 (had B): 2 gets W.
    // 3 floats down to {4,5,6}: 3 (had W) plays 4? 4 had B: preference W, 3 pref B → 4-3?
    // MDP 3 pairs the first S2 player (4) compatible: 3 prefers B, 4 prefers W: 4 white.
    // Remainder {5,6}: 5 had W, 6 had B → 6 white.
    assert_eq!(p.boards, vec![b(2, 1), b(4, 3), b(6, 5)]);
}

#[test]
fn explanation_lists_brackets() {
    let st = state(7, 5);
    let p = pair(&st, Edition::Dutch2026, &Options { explain: true }).unwrap();
    assert!(!p.explanation.is_empty());
    assert_eq!(p.explanation[0].players.len(), 7);
}

fn simulate(
    n: u32,
    rounds: u32,
    seed: u64,
    edition: Edition,
) -> Vec<(TournamentState, swiss::RoundPairing)> {
    let mut st = state(n, rounds);
    let mut s = seed | 1;
    let mut out = vec![];
    for _ in 0..rounds {
        let Ok(p) = pair(&st, edition, &Options::default()) else {
            break;
        };
        let res: Vec<u8> = p
            .boards
            .iter()
            .map(|_| {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                (s % 3) as u8
            })
            .collect();
        out.push((st.clone(), p.clone()));
        play(&mut st, &p.boards, p.bye, &res);
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn properties_hold_over_whole_tournaments(n in 2u32..24, rounds in 1u32..7, seed in any::<u64>(), e2017 in any::<bool>()) {
        let edition = if e2017 { Edition::Dutch2017 } else { Edition::Dutch2026 };
        for (st, p) in simulate(n, rounds, seed, edition) {
            let last = st.rounds_played + 1 == st.total_rounds;
            let mut seen = std::collections::HashSet::new();
            for bd in &p.boards {
                prop_assert!(seen.insert(bd.white) && seen.insert(bd.black), "player paired twice");
                let w = st.players.iter().find(|x| x.tpn == bd.white).unwrap();
                prop_assert!(!w.opponents.contains(&bd.black), "rematch {:?}", bd);
            }
            if let Some(by) = p.bye {
                prop_assert!(seen.insert(by));
                let pl = st.players.iter().find(|x| x.tpn == by).unwrap();
                prop_assert!(!pl.had_pab, "bye twice");
            }
            prop_assert_eq!(seen.len(), st.players.len(), "every present player paired once");
            // Colour limits (C.04.1 Art. 6-7) for non-topscorers / before the last round.
            if !last {
                for bd in &p.boards {
                    for (t, c) in [(bd.white, Colour::White), (bd.black, Colour::Black)] {
                        let pl = st.players.iter().find(|x| x.tpn == t).unwrap();
                        let hist: Vec<Colour> = pl.colours.iter().flatten().copied().collect();
                        let cd: i32 = hist.iter().map(|&x| if x == Colour::White {1} else {-1}).sum::<i32>()
                            + if c == Colour::White {1} else {-1};
                        prop_assert!(cd.abs() <= 2, "colour difference {} for {}", cd, t);
                        let k = hist.len();
                        prop_assert!(!(k >= 2 && hist[k-1] == c && hist[k-2] == c), "3 in a row for {}", t);
                    }
                }
            }
            // Deterministic.
            let again = pair(&st, edition, &Options::default()).unwrap();
            prop_assert_eq!(again, p);
        }
    }
}

#[test]
fn absent_players_are_not_paired_ghr_3_2() {
    let mut st = state(5, 5);
    st.players[1].absent = true; // TPN 2
    let p = pair(&st, Edition::Dutch2026, &Options::default()).unwrap();
    // 4 present: S1 = {1,3}, S2 = {4,5}. Art. 5.2.5 as both reference engines apply it
    // (ADR swiss-004): 3 is the 2nd player paired, an even number → Black.
    assert_eq!(p.boards, vec![b(1, 4), b(5, 3)]);
    assert_eq!(p.bye, None);
    let p = pair(&st, Edition::Dutch2017, &Options::default()).unwrap();
    assert_eq!(p.boards, vec![b(1, 4), b(5, 3)]);
}

#[test]
fn forbidden_pairs_are_respected_c1() {
    let mut st = state(4, 5);
    st.forbidden_pairs.push((1, 3));
    let p = pair(&st, Edition::Dutch2026, &Options::default()).unwrap();
    assert!(
        !p.boards
            .iter()
            .any(|bd| (bd.white == 1 && bd.black == 3) || (bd.white == 3 && bd.black == 1))
    );
    assert_eq!(p.boards.len(), 2);
}

#[test]
fn c3_non_topscorers_with_same_absolute_preference_do_not_meet() {
    // Four players, two rounds played; 1 and 2 both had White twice (absolute Black),
    // 3 and 4 both had Black twice. Scores equal. Round 3 of 5 (no topscorers).
    let mut st = state(4, 5);
    for p in st.players.iter_mut() {
        let c = if p.tpn <= 2 {
            Colour::White
        } else {
            Colour::Black
        };
        p.colours = vec![Some(c), Some(c)];
        p.floats = vec![Float::None, Float::None];
        p.score = 2;
    }
    st.players[0].opponents = vec![3, 4];
    st.players[1].opponents = vec![4, 3];
    st.players[2].opponents = vec![1, 2];
    st.players[3].opponents = vec![2, 1];
    st.rounds_played = 2;
    // 1-3, 1-4, 2-3, 2-4 are rematches; 1-2 and 3-4 violate C3 → no valid pairing.
    let e = pair(&st, Edition::Dutch2026, &Options::default()).unwrap_err();
    assert!(matches!(e, swiss::NoValidPairing::AbsoluteCriteria { .. }));
    // In the last round both pairs are topscorers-or-not: make it the last round with
    // 1 and 3 topscorers (score 3 of a possible 4): C3 no longer applies to their pairs.
    st.total_rounds = 3;
    st.players[0].score = 3;
    st.players[2].score = 3;
    let p = pair(&st, Edition::Dutch2026, &Options::default()).unwrap();
    assert_eq!(p.boards.len(), 2);
}

#[test]
fn board_order_ghr_3_6_higher_score_first() {
    let mut st = state(4, 5);
    play(&mut st, &[b(1, 3), b(4, 2)], None, &[0, 0]);
    // scores: 3 and 2 won (2 points each), 1 and 4 lost.
    let p = pair(&st, Edition::Dutch2026, &Options::default()).unwrap();
    let top = [p.boards[0].white, p.boards[0].black];
    assert!(top.contains(&2) && top.contains(&3), "{:?}", p.boards);
}

#[test]
fn acceleration_virtual_points_define_the_scoregroups_c04_7() {
    // 8 players, GA = {1..4} with +2 virtual points (one win): two brackets in round 1.
    let mut st = state(8, 9);
    for p in st.players.iter_mut().take(4) {
        p.acceleration = 2;
    }
    let p = pair(&st, Edition::Dutch2026, &Options::default()).unwrap();
    assert_eq!(p.boards, vec![b(1, 3), b(4, 2), b(5, 7), b(8, 6)]);
}

#[test]
fn dutch_2017_edition_pairs_round_one_like_2026() {
    let st = state(6, 5);
    let p = pair(&st, Edition::Dutch2017, &Options::default()).unwrap();
    assert_eq!(p.boards, vec![b(1, 4), b(5, 2), b(3, 6)]);
}

/// A caller that stops the engine (a service whose timeout expired, whose client went
/// away) gets a "stopped" error, and a caller that never stops gets the same pairing as
/// `pair` (ADR pairing-003).
#[test]
fn a_stopped_pairing_returns_and_an_unstopped_one_pairs_as_pair() {
    use swiss::{EnginePath, NoValidPairing, StopSignal, pair_stoppable};
    let mut st = state(8, 5);
    let r1 = pair(&st, Edition::Dutch2026, &Options { explain: false }).unwrap();
    play(&mut st, &r1.boards, r1.bye, &[]);
    let options = Options { explain: false };
    let pair_until = |stop: &StopSignal, at_bracket: usize| {
        pair_stoppable(
            &st,
            Edition::Dutch2026,
            &options,
            EnginePath::Fast,
            &mut |p| {
                if p.bracket == at_bracket {
                    stop.stop();
                }
            },
            stop,
        )
    };
    // Round 2 has two brackets (winners, losers): stopped as the first starts, the engine
    // ends in it or before the second.
    let stop = StopSignal::new();
    match pair_until(&stop, 1) {
        Err(NoValidPairing::Limit(m)) => assert!(m.contains("stopped by the caller"), "{m}"),
        other => panic!("expected a stop, got {other:?}"),
    }
    // Stopped before it starts: at once, before bracket 1.
    match pair_until(&stop, 0) {
        Err(NoValidPairing::Limit(m)) => {
            assert!(m.contains("stopped by the caller before bracket 1"), "{m}")
        }
        other => panic!("expected a stop, got {other:?}"),
    }
    let whole = pair_until(&StopSignal::new(), 0).unwrap();
    assert_eq!(whole, pair(&st, Edition::Dutch2026, &options).unwrap());
}

/// A stop given while one large bracket is being solved (round 1 of 3,000 players: one
/// bracket, its cold matching and the decisions after it) ends the engine within a second,
/// on every thread: the matcher's delta steps, the listings' rows and the passes' helpers
/// watch it (ADR pairing-003).
#[test]
fn a_stop_ends_a_large_bracket_within_a_second() {
    use std::time::{Duration, Instant};
    use swiss::{EnginePath, NoValidPairing, StopSignal, pair_stoppable};
    let st = state(3000, 9);
    let stop = StopSignal::new();
    // Given 300 ms into the bracket (a debug build checks its C1 lists for seconds before).
    let (tell, bracket_started) = std::sync::mpsc::channel();
    let (stopped_at, result) = std::thread::scope(|s| {
        let stop = &stop;
        let giver = s.spawn(move || {
            let started: Instant = bracket_started.recv().unwrap();
            std::thread::sleep(Duration::from_millis(300));
            stop.stop();
            (started, Instant::now())
        });
        let result = pair_stoppable(
            &st,
            Edition::Dutch2026,
            &Options { explain: true },
            EnginePath::Fast,
            &mut |_| {
                let _ = tell.send(Instant::now());
            },
            stop,
        );
        (giver.join().unwrap(), result)
    });
    let ended = Instant::now();
    let (started, stopped_at) = stopped_at;
    eprintln!(
        "{:?} after the stop: {}",
        ended.saturating_duration_since(stopped_at),
        match &result {
            Ok(_) => "paired".to_string(),
            Err(e) => e.to_string(),
        }
    );
    match result {
        Err(NoValidPairing::Limit(m)) => assert!(m.contains("stopped by the caller"), "{m}"),
        // Paired before the engine read the stop (a fast machine): still within a second.
        Ok(_) => {}
        other => panic!("expected a stop, got {other:?}"),
    }
    let after = ended.saturating_duration_since(stopped_at);
    assert!(
        after < Duration::from_secs(1),
        "the engine went on {after:?} after the stop (started {:?} before it)",
        stopped_at - started
    );
}

/// Fields are limited by the four-digit pairing numbers of the TRF, not by time: 9,999
/// players are accepted (slow, with progress and the service's timeout), 10,000 refused at
/// once with the reason.
#[test]
fn ten_thousand_players_are_refused_with_the_reason() {
    use swiss::NoValidPairing;
    let st = state(10_000, 11);
    match pair(&st, Edition::Dutch2026, &Options { explain: false }) {
        Err(NoValidPairing::Limit(m)) => {
            assert!(m.contains("10000 players: at most 9999"), "{m}")
        }
        other => panic!("expected the limit, got {other:?}"),
    }
}
