//! Hand-worked examples, one per rule, from the text of B.02 (2024, amended 2025) and of the
//! 2014 regulations (seed 000 part III). Each test names the article.

use elo::initial_rating_8_2::{NotPublishedReason, UnratedEvent, initial_rating};
use elo::k_factor_8_3_3::{BirthDate, KProfile, KRule};
use elo::rating_change_8_3::{EventGames, GameStatus, OpponentGame, period_change};
use elo::rating_difference_8_3_1::NotRatedReason;
use elo::rating_list_7::{FloorStatus, apply_floor};
use elo::{Edition, GameScore, Hundredths, ListMonth, RatingKind, Rules};

use GameScore::{Draw, Loss, Win};

fn lm(y: i32, m: u8) -> ListMonth {
    ListMonth::new(y, m).unwrap()
}

fn profile(games: u32) -> KProfile {
    KProfile {
        games_before_period: games,
        ever_published_2400: false,
        ever_published_2300: false,
        birth: Some(BirthDate {
            year: 1980,
            month_day: None,
        }),
    }
}

fn event(name: &str, games: &[(u16, GameScore)]) -> EventGames {
    EventGames {
        event: name.into(),
        games: games
            .iter()
            .map(|&(r, s)| OpponentGame {
                opponent_id: None,
                opponent_rating: Some(r),
                score: s,
            })
            .collect(),
    }
}

/// §8.3.3: K = 40 "until they have completed events with at least 30 games". A player with 25
/// games before the period plays 6 games in event A (still K = 40: only 25 completed when it
/// starts) and 5 in event B (31 completed: K = 20). n = 11, 40 × 11 = 440 ≤ 700.
#[test]
fn k_changes_between_events_of_one_period_8_3_3() {
    let a = event(
        "A",
        &[
            (1600, Win),  // D = 0 → .50, +.50
            (1600, Draw), // 0
            (1600, Loss), // −.50
            (1600, Win),  // +.50
            (1600, Win),  // +.50
            (1600, Draw), // 0
        ],
    );
    let b = event("B", &[(1600, Win); 5]); // 5 × +.50
    let w = period_change(Rules::standard(), lm(2026, 5), 1600, &profile(25), &[a, b]);
    assert_eq!(w.rated_games, 11);
    let ka = w.events[0].k_working.unwrap();
    let kb = w.events[1].k_working.unwrap();
    assert_eq!((ka.k, ka.rule), (40, KRule::NewPlayer));
    assert_eq!((kb.k, kb.rule), (20, KRule::Below2400));
    assert_eq!(w.events[0].sum_delta, Hundredths(100));
    assert_eq!(w.events[0].change, Hundredths(4000)); // 40 × 1.00
    assert_eq!(w.events[1].change, Hundredths(5000)); // 20 × 2.50
    assert_eq!(w.change, 90);
    assert_eq!(w.rating_after, 1690);
}

/// §8.3.3: "If the number of games (n) for a player on any list for a rating period
/// multiplied by K exceeds 700, K shall be the largest whole number such that K × n does not
/// exceed 700." A junior (K = 40) with 20 games: K = 35.
#[test]
fn k_times_n_at_most_700_8_3_3() {
    let mut p = profile(100);
    p.birth = Some(BirthDate {
        year: 2012,
        month_day: None,
    });
    let e1 = event("Open", &[(1700, Win); 12]);
    let e2 = event("League", &[(1700, Loss); 8]);
    let w = period_change(Rules::standard(), lm(2026, 5), 1700, &p, &[e1, e2]);
    for e in &w.events {
        let k = e.k_working.unwrap();
        assert_eq!((k.base_k, k.k, k.rule), (40, 35, KRule::Junior));
        assert_eq!(k.capped_for_games, Some(20));
    }
    // 35 × (12 × .5 − 8 × .5) = 35 × 2 = 70
    assert_eq!(w.change, 70);
    // the 2014 edition has no cap: 40 × 2 = 80
    let w14 = period_change(
        Rules::new(Edition::Fide2014, RatingKind::Standard),
        lm(2014, 9),
        1700,
        &KProfile {
            birth: Some(BirthDate {
                year: 2000,
                month_day: Some((1, 1)),
            }),
            ..p
        },
        &[
            event("Open", &[(1700, Win); 12]),
            event("League", &[(1700, Loss); 8]),
        ],
    );
    assert_eq!(w14.change, 80);
}

/// §8.3.1 (effective 1 October 2025): no 400 cap for a player rated 2650 or more; the cap
/// still protects the lower-rated opponent. Before (Fide2024) the cap applied to both.
#[test]
fn rule_400_and_2650_8_3_1() {
    let top = KProfile {
        ever_published_2400: true,
        ..profile(500)
    };
    // 2700 beats 2200: D = 500 → PD .96 (2026), .92 with the cap (2024)
    let games = [event("GM open", &[(2200, Win)])];
    let now = period_change(Rules::standard(), lm(2026, 5), 2700, &top, &games);
    assert_eq!(now.events[0].games[0].expected, Some(Hundredths(96)));
    assert_eq!(now.change_unrounded, Hundredths(40)); // 10 × .04
    assert_eq!(now.change, 0);
    let before = period_change(
        Rules::new(Edition::Fide2024, RatingKind::Standard),
        lm(2025, 5),
        2700,
        &top,
        &games,
    );
    assert_eq!(before.events[0].games[0].expected, Some(Hundredths(92)));
    assert_eq!(before.change, 1); // 10 × .08 = .8 → 1
    // the 2200 player: capped at −400 in both editions → PD .08; a loss costs 20 × .08 = 1.6
    let low = period_change(
        Rules::standard(),
        lm(2026, 5),
        2200,
        &profile(500),
        &[event("GM open", &[(2700, Loss)])],
    );
    let d = low.events[0].games[0].difference.unwrap();
    assert_eq!((d.actual, d.used, d.capped), (-500, -400, true));
    assert_eq!(low.change_unrounded, Hundredths(-160));
    assert_eq!(low.change, -2);
    // 2649 is still capped
    let just_below = period_change(Rules::standard(), lm(2026, 5), 2649, &top, &games);
    assert_eq!(just_below.events[0].games[0].expected, Some(Hundredths(92)));
}

/// Rapid/blitz, effective 1 December 2024: a 600-point game is not rated when a player is
/// above 2600 — for either player — and does not count in n. The 400 cap has no 2650 exemption.
#[test]
fn rapid_blitz_600_2600_rule() {
    let top = KProfile {
        ever_published_2400: true,
        ..profile(500)
    };
    let games = [event(
        "Rapid open",
        &[(2100, Win), (2250, Win)], // 650 (not rated), 500 (rated, capped at 400)
    )];
    let w = period_change(Rules::rapid(), lm(2026, 5), 2750, &top, &games);
    let lines = &w.events[0].games;
    assert_eq!(
        lines[0].status,
        GameStatus::NotRated(NotRatedReason::RapidBlitz600Above2600)
    );
    assert_eq!(lines[1].status, GameStatus::Rated);
    assert_eq!(lines[1].expected, Some(Hundredths(92)));
    assert_eq!(w.rated_games, 1);
    assert_eq!(w.change_unrounded, Hundredths(80));
    // opponent not rated: shown, not rated
    let mut with_unrated = games[0].clone();
    with_unrated.games.push(OpponentGame {
        opponent_id: Some(1),
        opponent_rating: None,
        score: Win,
    });
    let w = period_change(Rules::rapid(), lm(2026, 5), 2750, &top, &[with_unrated]);
    assert_eq!(
        w.events[0].games[2].status,
        GameStatus::NotRated(NotRatedReason::OpponentUnrated)
    );
    assert_eq!(w.rated_games, 1);
}

/// §8.3.4: the change of the period is rounded once, .5 away from zero. Two events of +0.4
/// each give +0.8 → +1 (rounding each event would give 0).
#[test]
fn rounding_per_period_half_away_from_zero_8_3_4() {
    let p = profile(100); // K = 20
    // draw against 1804: D = −4 → PD .49, ΔR = +.01, K × ΔR = +.2
    let e = event("club", &[(1804, Draw), (1804, Draw)]);
    let w = period_change(Rules::standard(), lm(2026, 5), 1800, &p, &[e.clone(), e]);
    assert_eq!(w.events[0].change, Hundredths(40));
    assert_eq!(w.change_unrounded, Hundredths(80));
    assert_eq!(w.change, 1);
    // exactly −.5 → −1; +.5 → +1 (K = 10, five draws at D = ±4)
    let top = KProfile {
        ever_published_2400: true,
        ..profile(500)
    };
    let down = period_change(
        Rules::standard(),
        lm(2026, 5),
        2404,
        &top,
        &[event("x", &[(2400, Draw); 5])],
    );
    assert_eq!(down.change_unrounded, Hundredths(-50));
    assert_eq!(down.change, -1);
    let up = period_change(
        Rules::standard(),
        lm(2026, 5),
        2400,
        &top,
        &[event("x", &[(2404, Draw); 5])],
    );
    assert_eq!(up.change_unrounded, Hundredths(50));
    assert_eq!(up.change, 1);
}

/// §7.2.1: a rating that drops below 1400 leaves the list (the player is then unrated);
/// 2014: the floor was 1000.
#[test]
fn floor_after_a_period_7_2_1() {
    let w = period_change(
        Rules::standard(),
        lm(2026, 5),
        1405,
        &profile(100),
        &[event("club", &[(1405, Loss)])], // 20 × −.5 = −10
    );
    assert_eq!(w.rating_after, 1395);
    assert_eq!(
        apply_floor(Edition::Fide2026, w.rating_after),
        FloorStatus::Unrated
    );
    assert_eq!(
        apply_floor(Edition::Fide2014, w.rating_after),
        FloorStatus::Rated(1395)
    );
}

fn unrated(period: ListMonth, games: &[(u16, GameScore)]) -> UnratedEvent {
    UnratedEvent::from_games(period, games)
}

/// §8.2 worked example (reference notes, fixture F-N01): 5 games, 3 points, opponents summing
/// to 9507. Ra = (9507 + 3600)/7 = 1872.43; p = 4/7 → .57 → dp = 50; Ru = 1922.
#[test]
fn initial_rating_worked_example_8_2() {
    // 9507 = 1900 + 1850 + 1950 + 1907 + 1900
    let e = unrated(
        lm(2026, 5),
        &[
            (1900, Win),
            (1850, Win),
            (1950, Draw),
            (1907, Draw),
            (1900, Loss),
        ],
    );
    let r = initial_rating(Rules::standard(), lm(2026, 5), &[e]);
    assert_eq!(r.working.opponents_rating_sum, 9507);
    assert_eq!(r.working.ra, (13107, 7));
    assert_eq!(r.working.p, Hundredths(57));
    assert_eq!(r.working.dp, 50);
    assert_eq!(r.published, Some(1922));
}

/// §7.1.4: games pooled over rating periods; published once 5 games against rated opponents
/// are reached. 3 games in January, 2 in March: nothing in January, a rating in March.
#[test]
fn initial_rating_pooled_across_periods_7_1_4() {
    let jan = unrated(lm(2026, 1), &[(1600, Win), (1700, Draw), (1650, Loss)]);
    let mar = unrated(lm(2026, 3), &[(1500, Win), (1550, Win)]);
    let r = initial_rating(Rules::standard(), lm(2026, 1), std::slice::from_ref(&jan));
    assert_eq!(r.published, None);
    assert_eq!(
        r.not_published,
        Some(NotPublishedReason::TooFewGames { games: 3 })
    );
    let r = initial_rating(Rules::standard(), lm(2026, 3), &[jan, mar]);
    // Σ = 8000 + 3600 = 11600 over 7 → 1657.14; score 3.5 + 1 = 4.5/7 = .643 → .64 → 102
    assert_eq!(r.working.games, 5);
    assert_eq!(r.working.p, Hundredths(64));
    assert_eq!(r.working.dp, 102);
    assert_eq!(r.published, Some(1759)); // (11600 + 714)/7 = 1759.14
    // 26 months later January 2026 is out of the window: only March's 2 games remain
    let r = initial_rating(Rules::standard(), lm(2028, 3), &[jan, mar]);
    assert_eq!(r.working.events_outside_window, vec![0]);
    assert_eq!(r.working.games, 2);
    // 25 months after January it is still in
    let r = initial_rating(Rules::standard(), lm(2028, 2), &[jan, mar]);
    assert_eq!(r.working.games, 5);
}

/// §8.2.1: a zero score in the first event is disregarded (and only in the first event).
#[test]
fn zero_score_first_event_disregarded_8_2_1() {
    let first = unrated(lm(2026, 1), &[(1900, Loss), (1800, Loss)]);
    let second = unrated(lm(2026, 2), &[(1500, Draw); 5]);
    let r = initial_rating(Rules::standard(), lm(2026, 2), &[first, second]);
    assert!(r.working.first_event_zero_disregarded);
    assert_eq!(r.working.events_used, vec![1]);
    // (7500 + 3600)/7 = 1585.7, p = 3.5/7 = .50 → 0 → 1586
    assert_eq!(r.published, Some(1586));
    // the same zero event second is counted
    let r = initial_rating(Rules::standard(), lm(2026, 2), &[second, first]);
    assert!(!r.working.first_event_zero_disregarded);
    assert_eq!(r.working.games, 7);
}

/// §8.2.3: maximum 2200; §7.1.4: not published below 1400.
#[test]
fn initial_rating_max_2200_and_floor_1400() {
    let strong = unrated(lm(2026, 5), &[(2300, Win); 6]);
    let r = initial_rating(Rules::standard(), lm(2026, 5), &[strong]);
    // (13800 + 3600)/8 = 2175, p = 7/8 = .875 → .88 → 336 → 2511 → 2200
    assert_eq!(r.working.ru_rounded, 2511);
    assert_eq!(r.published, Some(2200));
    let weak = unrated(
        lm(2026, 5),
        &[
            (1400, Loss),
            (1400, Loss),
            (1400, Loss),
            (1400, Loss),
            (1400, Draw),
        ],
    );
    let r = initial_rating(Rules::standard(), lm(2026, 5), &[weak]);
    // (7000 + 3600)/7 = 1514.3, p = 1.5/7 = .214 → .21 → −230 → 1284
    assert_eq!(r.working.ru, 1284);
    assert_eq!(r.published, None);
    assert_eq!(r.not_published, Some(NotPublishedReason::BelowFloor));
}

/// 2014 §8.22–8.24 (Swiss): Ru = Ra at 50 %, Ra + 20 per half point above, Rc + dp below;
/// floor 1000, no maximum.
#[test]
fn initial_rating_2014_method() {
    let rules = Rules::new(Edition::Fide2014, RatingKind::Standard);
    let now = lm(2014, 9);
    let ev = |s: [GameScore; 5]| {
        unrated(
            now,
            &[
                (1700, s[0]),
                (1800, s[1]),
                (1900, s[2]),
                (1750, s[3]),
                (1850, s[4]),
            ],
        )
    };
    // average 1800
    let r = initial_rating(rules, now, &[ev([Win, Win, Win, Draw, Loss])]); // 3.5/5: 2 half points above 50 %
    assert_eq!(r.published, Some(1840));
    let r = initial_rating(rules, now, &[ev([Win, Draw, Loss, Win, Loss])]); // 2.5/5
    assert_eq!(r.published, Some(1800));
    let r = initial_rating(rules, now, &[ev([Win, Loss, Loss, Win, Loss])]); // 2/5 = .40 → −72
    assert_eq!(r.published, Some(1728));
    // no 2200 maximum in 2014: 5/5 against 2300 → 2300 + 20 × 5 = 2400
    let r = initial_rating(rules, now, &[unrated(now, &[(2300, Win); 5])]);
    assert_eq!(r.published, Some(2400));
}

/// 2014 §8.21 (b): a 6-player round robin with one unrated player (n = 5 opponents).
/// Rated players 2000, 1900, 1800, 1700, 1600: Rar = 1800. Their scores against all opponents
/// 3.5, 3, 2.5, 2, 1.5 out of 5 → p .70 .60 .50 .40 .30 → dp 149, 72, 0, −72, −149 → dpa = 0,
/// so Ra = 1800. The unrated player scores 2.5 → Ru = 1800; 3.5 → 1800 + 2 × 20 = 1840;
/// 1.5 → p .30 → dp −149 × 5/6 = −124.17 → 1675.83 → 1676.
#[test]
fn round_robin_initial_rating_2014() {
    use elo::initial_rating_8_2::{RoundRobinRatedPlayer, round_robin_ru_2014};
    let rated: Vec<RoundRobinRatedPlayer> = [(2000, 7), (1900, 6), (1800, 5), (1700, 4), (1600, 3)]
        .iter()
        .map(|&(rating, half_points)| RoundRobinRatedPlayer {
            rating,
            half_points,
            games: 5,
        })
        .collect();
    assert_eq!(round_robin_ru_2014(&rated, 5, 5), Some(1800));
    assert_eq!(round_robin_ru_2014(&rated, 7, 5), Some(1840));
    assert_eq!(round_robin_ru_2014(&rated, 3, 5), Some(1676));
    // dpa ≠ 0: the rated players scored better overall (the unrated lost points to them):
    // all five at p .60 → dp 72 → Ra = 1800 − 72 × 5/6 = 1740
    let strong: Vec<RoundRobinRatedPlayer> = rated
        .iter()
        .map(|p| RoundRobinRatedPlayer {
            half_points: 6,
            ..*p
        })
        .collect();
    assert_eq!(round_robin_ru_2014(&strong, 5, 5), Some(1740));
    assert_eq!(round_robin_ru_2014(&[], 5, 5), None);
    assert_eq!(round_robin_ru_2014(&rated, 11, 5), None);
}

/// The working serialises (for the service's "individual calculation" view) and round-trips.
#[test]
fn period_working_serialises() {
    use elo::rating_change_8_3::PeriodWorking;
    let w = period_change(
        Rules::standard(),
        lm(2026, 5),
        1922,
        &profile(10),
        &[event("Open", &[(1798, Win), (1801, Loss), (1897, Win)])],
    );
    // the June 2017 fixture's figures, now with K = 40 from the new-player rule
    assert_eq!(w.events[0].k, 40);
    assert_eq!(w.change_unrounded, Hundredths(560));
    assert_eq!(w.change, 6);
    let json = serde_json::to_string(&w).unwrap();
    let back: PeriodWorking = serde_json::from_str(&json).unwrap();
    assert_eq!(back, w);
}
