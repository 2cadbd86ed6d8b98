//! Seed 000, "Systèmes K.O.": "système de Belgrade où un joueur n'est éliminé qu'après avoir
//! perdu 2 ou 3 points (2 nulles = 1 point)".

use knockout::belgrade::{BelgradeEvent, BelgradeResult, BelgradeStatus, BelgradeThreshold};
use proptest::prelude::*;

/// "éliminé qu'après avoir perdu 2 points (2 nulles = 1 point)": one loss and two draws eliminate
/// with the 2-point threshold; one loss and one draw do not.
#[test]
fn seed_000_belgrade_two_points_two_draws_count_as_one() {
    let mut e = BelgradeEvent::new(2, BelgradeThreshold::TwoPoints).unwrap();
    let r = e.pair_next_round().unwrap();
    assert_eq!(r.games.len(), 1);
    assert_eq!((r.games[0].white, r.games[0].black), (1, 2));
    assert!(
        e.record_round(&[BelgradeResult::BlackWins])
            .unwrap()
            .is_empty()
    ); // 1 lost 1 point
    let r = e.pair_next_round().unwrap();
    assert_eq!(
        (r.games[0].white, r.games[0].black),
        (2, 1),
        "2 has fewer Whites"
    );
    assert!(e.record_round(&[BelgradeResult::Draw]).unwrap().is_empty()); // 1: 1.5, 2: 0.5
    assert_eq!(e.lost_half_points(1), Some(3));
    e.pair_next_round().unwrap();
    let out = e.record_round(&[BelgradeResult::Draw]).unwrap(); // 1: 2.0 → out
    assert_eq!(out, vec![1]);
    assert_eq!(e.status(), BelgradeStatus::Winner(2));
    assert!(e.pair_next_round().is_err());
}

/// With the 3-point threshold, two losses do not eliminate.
#[test]
fn seed_000_belgrade_three_points() {
    let mut e = BelgradeEvent::new(2, BelgradeThreshold::ThreePoints).unwrap();
    for _ in 0..2 {
        let r = e.pair_next_round().unwrap();
        let res = if r.games[0].white == 2 {
            BelgradeResult::BlackWins
        } else {
            BelgradeResult::WhiteWins
        };
        assert!(e.record_round(&[res]).unwrap().is_empty());
    }
    assert_eq!(e.lost_half_points(2), Some(4));
    assert!(!e.is_eliminated(2));
}

#[test]
fn both_finalists_out_on_the_same_draw_is_reported() {
    let mut e = BelgradeEvent::new(2, BelgradeThreshold::TwoPoints).unwrap();
    for r in [
        BelgradeResult::Draw,
        BelgradeResult::Draw,
        BelgradeResult::Draw,
    ] {
        e.pair_next_round().unwrap();
        e.record_round(&[r]).unwrap();
    }
    e.pair_next_round().unwrap();
    e.record_round(&[BelgradeResult::Draw]).unwrap();
    assert_eq!(
        e.status(),
        BelgradeStatus::AllEliminatedTogether(vec![1, 2])
    );
}

#[test]
fn bad_inputs_are_errors() {
    assert!(BelgradeEvent::new(1, BelgradeThreshold::TwoPoints).is_err());
    let mut e = BelgradeEvent::new(5, BelgradeThreshold::TwoPoints).unwrap();
    assert!(e.record_round(&[]).is_err(), "nothing paired yet");
    let r = e.pair_next_round().unwrap();
    assert_eq!(r.games.len(), 2);
    assert_eq!(r.bye, Some(5));
    assert!(
        e.record_round(&[BelgradeResult::Draw]).is_err(),
        "2 games, 1 result"
    );
    assert_eq!(e.lost_half_points(0), None);
    assert_eq!(e.lost_half_points(6), None);
}

fn result() -> impl Strategy<Value = BelgradeResult> {
    prop_oneof![
        Just(BelgradeResult::WhiteWins),
        Just(BelgradeResult::Draw),
        Just(BelgradeResult::BlackWins)
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Whatever the results, the event ends; every eliminated player lost at least the
    /// threshold; no survivor has; nobody plays twice in a round.
    #[test]
    fn belgrade_event_always_terminates(n in 2u32..40, three in any::<bool>(),
                                        results in proptest::collection::vec(result(), 400)) {
        let t = if three { BelgradeThreshold::ThreePoints } else { BelgradeThreshold::TwoPoints };
        let limit = if three { 6 } else { 4 };
        let mut e = BelgradeEvent::new(n, t).unwrap();
        let mut it = results.into_iter().cycle();
        let mut rounds = 0;
        while let BelgradeStatus::InProgress { .. } = e.status() {
            let r = e.pair_next_round().unwrap();
            let mut seen = std::collections::BTreeSet::new();
            for g in &r.games { prop_assert!(seen.insert(g.white) && seen.insert(g.black)); }
            if let Some(b) = r.bye { prop_assert!(seen.insert(b)); }
            let res: Vec<_> = r.games.iter().map(|_| it.next().unwrap()).collect();
            e.record_round(&res).unwrap();
            rounds += 1;
            // Every round with at least one game adds ≥ 1 lost point in total, so the event
            // ends within n · threshold rounds (plus bye-only rounds, which cannot happen).
            prop_assert!(rounds <= n * 6 + 1);
        }
        for p in 1..=n {
            let lost = e.lost_half_points(p).unwrap();
            prop_assert_eq!(e.is_eliminated(p), lost >= limit);
        }
    }
}
