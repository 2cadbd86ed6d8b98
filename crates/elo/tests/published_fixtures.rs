//! Every case of `tests/data/fide-rating-examples.json` (real FIDE calculations, see
//! `tests/data/PROVENANCE.md`) reproduced to the published figures, with the K of its era
//! (K is given by each case: 15/10 in 2008–2010, 40 in 2017) and the 2014 edition's tables.
//!
//! The 2008–2010 cases were rated under a 350-point cap; no game in them has a difference
//! above 350, which the test checks, so the 2014 edition's 400 cap gives the same numbers.

use elo::conversion_tables_8_1::pd_from_d;
use elo::rating_change_8_3::{OpponentGame, event_change_with_k, performance_rating};
use elo::{Edition, GameScore, Hundredths, RatingKind, Rules};
use serde_json::Value;

const DATA: &str = include_str!("data/fide-rating-examples.json");

fn hundredths(v: &Value) -> Hundredths {
    // published figures have at most two decimals
    let x = v.as_f64().expect("number");
    Hundredths((x * 100.0).round() as i64)
}

fn score(s: &str) -> GameScore {
    match s {
        "W" => GameScore::Win,
        "D" => GameScore::Draw,
        "L" => GameScore::Loss,
        other => panic!("unknown result {other}"),
    }
}

#[test]
fn every_published_case_is_reproduced() {
    let root: Value = serde_json::from_str(DATA).unwrap();
    let cases = root["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 7);
    let rules = Rules::new(Edition::Fide2014, RatingKind::Standard);
    let mut checked = 0;
    for c in cases {
        let id = c["id"].as_str().unwrap();
        let rating = c["rating"].as_u64().unwrap() as u16;
        let k = c["k"].as_u64().unwrap() as u32;
        let opponents: Vec<u16> = c["opponents"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap() as u16)
            .collect();
        let results: Vec<GameScore> = c["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| score(v.as_str().unwrap()))
            .collect();
        for &o in &opponents {
            assert!((rating as i32 - o as i32).abs() <= 350, "{id}: cap era");
        }
        let games: Vec<OpponentGame> = opponents
            .iter()
            .zip(&results)
            .map(|(&o, &s)| OpponentGame {
                opponent_id: None,
                opponent_rating: Some(o),
                score: s,
            })
            .collect();
        let w = event_change_with_k(rules, rating, k, id, &games);
        let exp = &c["expected"];
        if let Some(v) = exp.get("points_expected") {
            assert_eq!(w.expected, hundredths(v), "{id}: points expected");
            checked += 1;
        }
        if let Some(v) = exp.get("rating_change") {
            assert_eq!(w.change, hundredths(v), "{id}: K × ΣΔR");
            checked += 1;
        }
        if let Some(v) = exp.get("change") {
            assert_eq!(w.sum_delta, hundredths(v), "{id}: ΣΔR");
            checked += 1;
        }
        if let Some(v) = exp.get("per_game_change") {
            let got: Vec<Hundredths> = w.games.iter().map(|l| l.delta).collect();
            let want: Vec<Hundredths> = v.as_array().unwrap().iter().map(hundredths).collect();
            assert_eq!(got, want, "{id}: ΔR per game");
            checked += 1;
        }
        if let Some(v) = exp.get("per_game_k_change") {
            let got: Vec<Hundredths> = w.games.iter().map(|l| l.k_delta).collect();
            let want: Vec<Hundredths> = v.as_array().unwrap().iter().map(hundredths).collect();
            assert_eq!(got, want, "{id}: K × ΔR per game");
            checked += 1;
        }
        if let Some(v) = exp.get("Rc") {
            assert_eq!(w.average_opponent_rating, v.as_i64(), "{id}: Rc");
            checked += 1;
        }
        if let Some(v) = exp.get("performance") {
            let hp: u64 = results.iter().map(|s| s.half_points() as u64).sum();
            assert_eq!(
                performance_rating(Edition::Fide2014, &opponents, hp),
                v.as_i64(),
                "{id}: performance (third-party TPR)"
            );
            checked += 1;
        }
        // the same case with today's rules gives the same per-game expectations
        // (no opponent beyond 400, nobody ≥ 2650 facing a > 400 gap)
        for (line, &o) in w.games.iter().zip(&opponents) {
            assert_eq!(
                line.expected,
                Some(pd_from_d(Edition::Fide2026, rating as i32 - o as i32))
            );
        }
    }
    // 6 rating changes, 5 points expected, 4 performances, Rc, ΣΔR, two per-game lists
    assert_eq!(checked, 19);
}
