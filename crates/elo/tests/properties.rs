//! Property tests (proptest, modest case counts).

use elo::calendar::ListMonth;
use elo::conversion_tables_8_1::{dp_from_p, pd_from_d};
use elo::initial_rating_8_2::{UnratedEvent, initial_rating};
use elo::k_factor_8_3_3::{BirthDate, KProfile};
use elo::period_batch::{BatchGame, BatchPlayer, BatchResult, rate_period};
use elo::rating_change_8_3::{EventGames, OpponentGame, period_change};
use elo::rating_difference_8_3_1::expected_score;
use elo::{Edition, GameScore, Hundredths, RatingKind, Rules};
use proptest::prelude::*;

const EDITIONS: [Edition; 3] = [Edition::Fide2014, Edition::Fide2024, Edition::Fide2026];

fn any_rules() -> impl Strategy<Value = Rules> {
    (0usize..3, 0usize..3).prop_map(|(e, k)| {
        Rules::new(
            EDITIONS[e],
            [RatingKind::Standard, RatingKind::Rapid, RatingKind::Blitz][k],
        )
    })
}

fn any_score() -> impl Strategy<Value = GameScore> {
    prop_oneof![
        Just(GameScore::Win),
        Just(GameScore::Draw),
        Just(GameScore::Loss)
    ]
}

fn any_profile() -> impl Strategy<Value = KProfile> {
    (
        0u32..60,
        any::<bool>(),
        any::<bool>(),
        proptest::option::of(1990i32..2015),
    )
        .prop_map(|(g, a, b, y)| KProfile {
            games_before_period: g,
            ever_published_2400: a,
            ever_published_2300: b,
            birth: y.map(|year| BirthDate {
                year,
                month_day: None,
            }),
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// Table 8.1.2: PD(D) + PD(−D) = 1.
    #[test]
    fn pd_symmetry(d in -2000i32..2000, e in 0usize..3) {
        let ed = EDITIONS[e];
        prop_assert_eq!(pd_from_d(ed, d) + pd_from_d(ed, -d), Hundredths(100));
    }

    /// Table 8.1.2 is non-decreasing in D, table 8.1.1 in p.
    #[test]
    fn monotone_tables(d in -2000i32..2000, p in 0i64..100, e in 0usize..3) {
        let ed = EDITIONS[e];
        prop_assert!(pd_from_d(ed, d) <= pd_from_d(ed, d + 1));
        prop_assert!(dp_from_p(ed, Hundredths(p)).unwrap() < dp_from_p(ed, Hundredths(p + 1)).unwrap());
    }

    /// The expected score never decreases with the player's own rating.
    #[test]
    fn expected_score_monotone(r in 1000u16..3000, o in 1000u16..3000, rules in any_rules()) {
        prop_assert!(expected_score(rules, r, o) <= expected_score(rules, r + 1, o));
    }

    /// Below 2650 (or in any edition without the exemption) the two expectations of a game sum
    /// to 1, so with equal K a game moves no points overall.
    #[test]
    fn expectations_complement_without_2650(a in 1000u16..2649, b in 1000u16..2649, rules in any_rules()) {
        prop_assert_eq!(expected_score(rules, a, b) + expected_score(rules, b, a), Hundredths(100));
    }

    /// A period of draws against equally rated opponents changes nothing, whatever K.
    #[test]
    fn draws_against_equals_change_nothing(
        r in 1400u16..2900, rules in any_rules(), prof in any_profile(),
        sizes in proptest::collection::vec(1usize..12, 1..4),
    ) {
        let events: Vec<EventGames> = sizes.iter().enumerate().map(|(i, &n)| EventGames {
            event: format!("e{i}"),
            games: vec![OpponentGame { opponent_id: None, opponent_rating: Some(r), score: GameScore::Draw }; n],
        }).collect();
        let w = period_change(rules, ListMonth::new(2026, 5).unwrap(), r, &prof, &events);
        prop_assert_eq!(w.change_unrounded, Hundredths::ZERO);
        prop_assert_eq!(w.rating_after, r as i64);
    }

    /// Rounding is symmetric: −x rounds to −round(x).
    #[test]
    fn rounding_symmetric(x in -1_000_000i64..1_000_000) {
        prop_assert_eq!(Hundredths(-x).round_half_away_from_zero(), -Hundredths(x).round_half_away_from_zero());
        let r = Hundredths(x).round_half_away_from_zero();
        prop_assert!((x - 100 * r).abs() <= 50);
    }

    /// Initial rating (2024): never above 2200, published only with ≥ 5 games and ≥ 1400.
    #[test]
    fn initial_rating_bounds(games in proptest::collection::vec((1000u16..2800, any_score()), 0..15)) {
        let now = ListMonth::new(2026, 5).unwrap();
        let r = initial_rating(Rules::standard(), now, &[UnratedEvent::from_games(now, &games)]);
        prop_assert!(r.working.ru <= 2200);
        if let Some(p) = r.published {
            prop_assert!(p >= 1400);
            prop_assert!(r.working.games >= 5);
        }
    }

    /// The batch gives every rated player exactly the per-player working's change.
    #[test]
    fn batch_matches_individual_working(
        rules in any_rules(),
        players in proptest::collection::vec((proptest::option::weighted(0.85, 1400u16..2900), any_profile()), 2..12),
        raw_games in proptest::collection::vec((0usize..1000, 0usize..1000, 0u8..3, 0u32..4), 0..80),
    ) {
        let period = ListMonth::new(2026, 5).unwrap();
        let np = players.len();
        let bplayers: Vec<BatchPlayer> = players.iter().map(|&(rating, profile)| BatchPlayer { rating, profile }).collect();
        let mut games: Vec<BatchGame> = raw_games.iter().filter_map(|&(a, b, r, e)| {
            let (w, bl) = (a % np, b % np);
            (w != bl).then_some(BatchGame {
                white: w as u32, black: bl as u32, event: e,
                result: [BatchResult::WhiteWins, BatchResult::Draw, BatchResult::BlackWins][r as usize],
            })
        }).collect();
        games.sort_by_key(|g| g.event);
        let out = rate_period(rules, period, &bplayers, &games).unwrap();
        for (i, p) in bplayers.iter().enumerate() {
            let Some(rating) = p.rating else { continue };
            let mut events: Vec<EventGames> = Vec::new();
            for g in &games {
                let (opp, score) = if g.white as usize == i {
                    (g.black, match g.result { BatchResult::WhiteWins => GameScore::Win, BatchResult::Draw => GameScore::Draw, BatchResult::BlackWins => GameScore::Loss })
                } else if g.black as usize == i {
                    (g.white, match g.result { BatchResult::WhiteWins => GameScore::Loss, BatchResult::Draw => GameScore::Draw, BatchResult::BlackWins => GameScore::Win })
                } else { continue };
                let label = g.event.to_string();
                if events.last().is_none_or(|e| e.event != label) {
                    events.push(EventGames { event: label, games: Vec::new() });
                }
                if let Some(e) = events.last_mut() {
                    e.games.push(OpponentGame { opponent_id: Some(opp as u64), opponent_rating: bplayers[opp as usize].rating, score });
                }
            }
            let w = period_change(rules, period, rating, &p.profile, &events);
            prop_assert_eq!(out[i].change_unrounded, w.change_unrounded, "player {}", i);
            prop_assert_eq!(out[i].change, w.change);
            prop_assert_eq!(out[i].rated_games, w.rated_games);
        }
    }
}

fn any_period() -> impl Strategy<Value = elo::rate_of_play_1::TimeControlPeriod> {
    (
        proptest::option::of(any::<u32>()),
        any::<u32>(),
        any::<u32>(),
    )
        .prop_map(|(moves, b, i)| elo::rate_of_play_1::TimeControlPeriod {
            moves,
            base_seconds: b,
            increment_seconds: i,
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// No panic on any input: arbitrary time controls, tallies, percentages, dates.
    #[test]
    fn no_panic_on_arbitrary_input(
        w in proptest::collection::vec(any_period(), 0..4),
        b in proptest::collection::vec(any_period(), 0..4),
        r in proptest::option::of(any::<u16>()),
        hp in any::<u64>(), g in any::<u64>(),
        tally in (any::<u32>(), any::<i64>(), any::<u64>()),
        y in any::<i32>(), m in any::<u8>(), d in any::<u8>(),
        h in any::<i64>(),
        e in 0usize..3,
    ) {
        use elo::initial_rating_8_2::UnratedTally;
        use elo::rate_of_play_1::{TimeControl, classify_rate_of_play};
        let ed = EDITIONS[e];
        let _ = classify_rate_of_play(ed, &TimeControl { periods: w }, &TimeControl { periods: b }, r);
        let _ = elo::conversion_tables_8_1::percentage_hundredths(hp, g);
        let _ = dp_from_p(ed, Hundredths(h));
        let _ = Hundredths(h).round_half_away_from_zero();
        let _ = Hundredths(h).to_string();
        let lm = ListMonth { year: y, month: m };
        let _ = elo::rating_list_7::closing_date(lm);
        let _ = elo::rating_list_7::is_inactive(lm, Some(ListMonth { year: y.wrapping_add(1), month: d }));
        let _ = elo::calendar::CalendarDate::new(y, m, d);
        let ev = UnratedEvent { period: lm, tally: UnratedTally { games: tally.0, opponents_rating_sum: tally.1, half_points: tally.2 } };
        for ed in EDITIONS {
            let _ = initial_rating(Rules::new(ed, RatingKind::Standard), lm, &[ev, ev]);
        }
        let _ = elo::initial_rating_8_2::round_robin_ru_2014(
            &[elo::initial_rating_8_2::RoundRobinRatedPlayer { rating: r.unwrap_or(0), half_points: hp, games: g }],
            hp, tally.0,
        );
        let _ = elo::march_2024_adjustment::march_2024_adjustment(r.unwrap_or(0));
        let _ = elo::Edition::in_force_on(RatingKind::Rapid, elo::calendar::CalendarDate { year: y, month: m, day: d });
    }
}
