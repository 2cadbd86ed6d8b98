//! Seed 000, "Système de départage", 6. "Playoff" (k) 1–10: the playoff schemes for 2–11+
//! players tied for first place.

use std::collections::BTreeMap;

use knockout::match_play::{KnockoutMatch, MatchStatus, Side};
use knockout::playoff::{
    NextStep, PlayoffEvent, PlayoffOptions, PlayoffOrder, PlayoffRound, RoundRobinScheme,
    SectionWinners, TwoPlayerFormat, after_round_robin, after_sections, first_place_playoff,
};
use proptest::prelude::*;
use roundrobin::DrawSeed;

fn players(n: usize) -> Vec<u32> {
    (1..=n as u32).collect()
}

fn rr(event: &PlayoffEvent<u32>) -> (RoundRobinScheme, Vec<u32>, Vec<PlayoffRound<u32>>) {
    match event {
        PlayoffEvent::RoundRobin {
            scheme,
            by_pairing_number,
            rounds,
            ..
        } => (*scheme, by_pairing_number.clone(), rounds.clone()),
        other => panic!("expected a round robin, got {other:?}"),
    }
}

fn ko(event: &PlayoffEvent<u32>) -> (Vec<(u32, u32)>, TwoPlayerFormat) {
    match event {
        PlayoffEvent::Knockout {
            first_round,
            format,
        } => (first_round.clone(), *format),
        other => panic!("expected a knockout, got {other:?}"),
    }
}

fn sections(event: &PlayoffEvent<u32>) -> (Vec<PlayoffEvent<u32>>, SectionWinners) {
    match event {
        PlayoffEvent::Sections { sections, winners } => (sections.clone(), *winners),
        other => panic!("expected sections, got {other:?}"),
    }
}

fn plan(n: usize) -> knockout::playoff::PlayoffPlan<u32> {
    first_place_playoff(&players(n), PlayoffOptions::default()).unwrap()
}

/// Paragraph 1: two players: (a) two-game blitz 3+3 mini-match, then (b) Armageddon; 12: directly
/// Armageddon when the original games end very late.
#[test]
fn seed_000_playoff_1_two_players() {
    let p = plan(2);
    assert_eq!(p.paragraph, 1);
    assert_eq!(
        p.event,
        PlayoffEvent::TwoPlayers {
            players: [1, 2],
            format: TwoPlayerFormat::MiniMatchThenArmageddon
        }
    );
    let late = PlayoffOptions {
        two_players_direct_armageddon: true,
        ..PlayoffOptions::default()
    };
    let p = first_place_playoff(&players(2), late).unwrap();
    assert!(matches!(
        p.event,
        PlayoffEvent::TwoPlayers {
            format: TwoPlayerFormat::ArmageddonOnly,
            ..
        }
    ));
    // The format plugs into the match state machine: Armageddon only, draw = Black wins.
    let mut m =
        KnockoutMatch::new(TwoPlayerFormat::ArmageddonOnly.match_format(Side::A, Side::B)).unwrap();
    let s = m.record(knockout::match_play::GameResult::Draw).unwrap();
    assert!(matches!(
        s,
        MatchStatus::Decided {
            winner: Side::A,
            ..
        }
    ));
}

/// Paragraph 2: three players: round robin of blitz games; "Le numéro d'appariement 1 sera le joueur avec
/// le meilleur départage … Le numéro d'appariement 3 sera le joueur avec deuxième meilleur".
#[test]
fn seed_000_playoff_2_three_players_round_robin_pairing_numbers() {
    let p = plan(3);
    assert_eq!(p.paragraph, 2);
    let (scheme, numbers, rounds) = rr(&p.event);
    assert_eq!(scheme, RoundRobinScheme::ThreeBlitz);
    assert_eq!(
        numbers,
        vec![1, 3, 2],
        "pairing no. 1 = rank 1, no. 2 = rank 3, no. 3 = rank 2"
    );
    // Berger table 3–4: R1 2-3 (1 bye), R2 1-2 (3 bye), R3 3-1 (2 bye).
    assert_eq!(
        rounds,
        vec![
            PlayoffRound {
                games: vec![(3, 2)],
                bye: Some(1)
            },
            PlayoffRound {
                games: vec![(1, 3)],
                bye: Some(2)
            },
            PlayoffRound {
                games: vec![(2, 1)],
                bye: Some(3)
            },
        ]
    );
}

/// 2 (a)–(c) and "Si deux joueurs éliminent le troisième, ils jouent comme en 1 (b)".
#[test]
fn seed_000_playoff_2_continuations() {
    let next = after_round_robin(RoundRobinScheme::ThreeBlitz, &[1, 2, 3]).unwrap();
    match next {
        NextStep::Play(e) => assert_eq!(rr(&e).0, RoundRobinScheme::ThreeArmageddon),
        other => panic!("{other:?}"),
    }
    assert_eq!(
        after_round_robin(RoundRobinScheme::ThreeArmageddon, &[1, 2, 3]).unwrap(),
        NextStep::FewestMoves(vec![1, 2, 3])
    );
    assert_eq!(
        after_round_robin(RoundRobinScheme::ThreeBlitz, &[1, 3]).unwrap(),
        NextStep::Play(PlayoffEvent::TwoPlayers {
            players: [1, 3],
            format: TwoPlayerFormat::ArmageddonOnly
        })
    );
    assert_eq!(
        after_round_robin(RoundRobinScheme::ThreeBlitz, &[2]).unwrap(),
        NextStep::Winner(2)
    );
    assert!(after_round_robin::<u32>(RoundRobinScheme::ThreeBlitz, &[]).is_err());
    assert!(after_round_robin(RoundRobinScheme::ThreeBlitz, &[1, 2, 3, 4]).is_err());
}

/// Paragraph 3: four players: knockout "1 contre 4 et 2 contre 3"; mini-matches as 1 (a) if time permits,
/// "Sinon, Armageddon sera utilisé".
#[test]
fn seed_000_playoff_3_four_players_knockout() {
    let p = plan(4);
    assert_eq!(p.paragraph, 3);
    assert_eq!(
        ko(&p.event),
        (
            vec![(1, 4), (2, 3)],
            TwoPlayerFormat::MiniMatchThenArmageddon
        )
    );
    let short = PlayoffOptions {
        four_players_time_permits_mini_matches: false,
        ..PlayoffOptions::default()
    };
    let p = first_place_playoff(&players(4), short).unwrap();
    assert_eq!(ko(&p.event).1, TwoPlayerFormat::ArmageddonOnly);
}

/// Paragraph 4: five players: round robin, "Les numéros d'appariement seront dans l'ordre du meilleur
/// départage : 1, 4, 2, 5, 3"; (α)–(δ) continuations.
#[test]
fn seed_000_playoff_4_five_players() {
    let p = plan(5);
    assert_eq!(p.paragraph, 4);
    let (scheme, numbers, rounds) = rr(&p.event);
    assert_eq!(scheme, RoundRobinScheme::FiveBlitz);
    // rank 1 → no. 1, rank 2 → no. 4, rank 3 → no. 2, rank 4 → no. 5, rank 5 → no. 3.
    assert_eq!(numbers, vec![1, 3, 5, 2, 4]);
    assert_eq!(rounds.len(), 5);
    assert_eq!(
        after_round_robin(RoundRobinScheme::FiveBlitz, &[1, 2, 3, 4, 5]).unwrap(),
        NextStep::FewestMoves(vec![1, 2, 3, 4, 5]),
        "(α)"
    );
    match after_round_robin(RoundRobinScheme::FiveBlitz, &[1, 2, 4, 5]).unwrap() {
        NextStep::Play(e) => assert_eq!(
            ko(&e),
            (vec![(1, 5), (2, 4)], TwoPlayerFormat::ArmageddonOnly),
            "(β)"
        ),
        other => panic!("{other:?}"),
    }
    match after_round_robin(RoundRobinScheme::FiveBlitz, &[2, 3, 5]).unwrap() {
        NextStep::Play(e) => assert_eq!(rr(&e).0, RoundRobinScheme::ThreeBlitz, "(χ)"),
        other => panic!("{other:?}"),
    }
    assert!(
        matches!(
            after_round_robin(RoundRobinScheme::FiveBlitz, &[4, 5]).unwrap(),
            NextStep::Play(PlayoffEvent::TwoPlayers {
                format: TwoPlayerFormat::ArmageddonOnly,
                ..
            })
        ),
        "(δ)"
    );
}

/// Paragraph 5: six players: "Les joueurs 1, 4, 5 seront placés dans une section et 2, 3, 6 dans l'autre";
/// "Ils joueront comme en 2"; "Les deux vainqueurs de section joueront alors un playoff comme en
/// 1 (b)".
#[test]
fn seed_000_playoff_5_six_players_two_sections() {
    let p = plan(6);
    assert_eq!(p.paragraph, 5);
    let (secs, winners) = sections(&p.event);
    assert_eq!(winners, SectionWinners::ArmageddonFinal);
    let numbers: Vec<Vec<u32>> = secs.iter().map(|s| rr(s).1).collect();
    // Inside each section the rule of 2 applies: best = no. 1, second best = no. 3.
    assert_eq!(numbers, vec![vec![1, 5, 4], vec![2, 6, 3]]);
    assert!(secs.iter().all(|s| rr(s).0 == RoundRobinScheme::ThreeBlitz));
    assert_eq!(
        after_sections(winners, &[1, 3]).unwrap(),
        PlayoffEvent::TwoPlayers {
            players: [1, 3],
            format: TwoPlayerFormat::ArmageddonOnly
        }
    );
}

/// Paragraph 6: seven players: Armageddon round robin, pairing numbers "1, 5, 2, 6, 3, 7, 4"; a tie →
/// "le joueur qui a marqué un point en jouant le moins de coups".
#[test]
fn seed_000_playoff_6_seven_players() {
    let p = plan(7);
    assert_eq!(p.paragraph, 6);
    let (scheme, numbers, rounds) = rr(&p.event);
    assert_eq!(scheme, RoundRobinScheme::SevenArmageddon);
    assert_eq!(numbers, vec![1, 3, 5, 7, 2, 4, 6]);
    assert_eq!(rounds.len(), 7);
    assert!(rounds.iter().all(|r| r.games.len() == 3 && r.bye.is_some()));
    assert_eq!(
        after_round_robin(RoundRobinScheme::SevenArmageddon, &[3, 6]).unwrap(),
        NextStep::FewestMoves(vec![3, 6])
    );
}

/// Paragraph 7: eight players: "1 contre 8, 2 contre 7, 3 contre 6 et 4 contre 5, comme en 1 (b)".
#[test]
fn seed_000_playoff_7_eight_players_knockout() {
    let p = plan(8);
    assert_eq!(p.paragraph, 7);
    let (first, format) = ko(&p.event);
    assert_eq!(first, vec![(1, 8), (4, 5), (2, 7), (3, 6)]);
    assert_eq!(format, TwoPlayerFormat::ArmageddonOnly);
}

/// Paragraph 8: nine players: "Groupe A : 1, 5, 9. Groupe B : 2, 6, 7. Groupe C : 3, 4, 8", as 2 (b).
#[test]
fn seed_000_playoff_8_nine_players_three_sections() {
    let p = plan(9);
    assert_eq!(p.paragraph, 8);
    let (secs, winners) = sections(&p.event);
    let members: Vec<Vec<u32>> = secs
        .iter()
        .map(|s| {
            let mut m = rr(s).1;
            m.sort_unstable();
            m
        })
        .collect();
    assert_eq!(members, vec![vec![1, 5, 9], vec![2, 6, 7], vec![3, 4, 8]]);
    assert!(
        secs.iter()
            .all(|s| rr(s).0 == RoundRobinScheme::ThreeArmageddon)
    );
    assert_eq!(winners, SectionWinners::ThreeArmageddonRoundRobin);
    assert_eq!(
        rr(&after_sections(winners, &[2, 3, 9]).unwrap()).0,
        RoundRobinScheme::ThreeArmageddon
    );
}

/// Paragraph 9: ten players: "deux sections comme en 4. Les deux vainqueurs jouent comme en 1 (b)".
#[test]
fn seed_000_playoff_9_ten_players_two_sections_of_five() {
    let p = plan(10);
    assert_eq!(p.paragraph, 9);
    let (secs, winners) = sections(&p.event);
    assert_eq!(winners, SectionWinners::ArmageddonFinal);
    let members: Vec<Vec<u32>> = secs
        .iter()
        .map(|s| {
            let mut m = rr(s).1;
            m.sort_unstable();
            m
        })
        .collect();
    assert_eq!(members, vec![vec![1, 4, 5, 8, 9], vec![2, 3, 6, 7, 10]]);
    assert!(secs.iter().all(|s| rr(s).0 == RoundRobinScheme::FiveBlitz));
}

/// Paragraph 10: eleven or more: "ceux qui sont classés neuvièmes ou plus bas … seront éliminés"; the
/// other 8 play as in 7.
#[test]
fn seed_000_playoff_10_eleven_or_more() {
    for n in [11, 15, 40] {
        let p = plan(n);
        assert_eq!(p.paragraph, 10);
        assert_eq!(p.eliminated, (9..=n as u32).collect::<Vec<_>>());
        assert_eq!(ko(&p.event).0, vec![(1, 8), (4, 5), (2, 7), (3, 6)]);
    }
}

/// "Alternative : les numéros d'appariement seront choisis par tirage au sort": the order is
/// drawn with a recorded seed and reproducible.
#[test]
fn seed_000_playoff_order_by_lot_is_recorded_and_reproducible() {
    let options = PlayoffOptions {
        order: PlayoffOrder::Lot(DrawSeed::from_u64(7)),
        ..PlayoffOptions::default()
    };
    let a = first_place_playoff(&players(5), options).unwrap();
    let b = first_place_playoff(&players(5), options).unwrap();
    assert_eq!(a, b);
    assert_eq!(a.lot, Some(DrawSeed::from_u64(7)));
    let mut r = a.ranking.clone();
    r.sort_unstable();
    assert_eq!(r, players(5));
}

#[test]
fn fewer_than_two_tied_is_an_error() {
    assert!(first_place_playoff::<u32>(&[], PlayoffOptions::default()).is_err());
    assert!(first_place_playoff(&[1u32], PlayoffOptions::default()).is_err());
}

fn count_players(e: &PlayoffEvent<u32>, counts: &mut BTreeMap<u32, usize>) {
    match e {
        PlayoffEvent::TwoPlayers { players, .. } => players
            .iter()
            .for_each(|p| *counts.entry(*p).or_default() += 1),
        PlayoffEvent::RoundRobin {
            by_pairing_number,
            rounds,
            ..
        } => {
            by_pairing_number
                .iter()
                .for_each(|p| *counts.entry(*p).or_default() += 1);
            // Every pair meets exactly once.
            let mut met = BTreeMap::new();
            for g in rounds.iter().flat_map(|r| &r.games) {
                *met.entry((g.0.min(g.1), g.0.max(g.1))).or_insert(0) += 1;
            }
            let k = by_pairing_number.len();
            assert_eq!(met.len(), k * (k - 1) / 2);
            assert!(met.values().all(|&c| c == 1));
        }
        PlayoffEvent::Knockout { first_round, .. } => first_round.iter().for_each(|(a, b)| {
            [a, b]
                .iter()
                .for_each(|p| *counts.entry(**p).or_default() += 1)
        }),
        PlayoffEvent::Sections { sections, .. } => {
            sections.iter().for_each(|s| count_players(s, counts))
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// For any number of tied players, every one either plays exactly once in the first event
    /// or is eliminated by paragraph 10, whether ordered by tie-break or by lot.
    #[test]
    fn every_tied_player_is_placed_once(n in 2usize..=60, lot in any::<Option<u64>>()) {
        let order = lot.map_or(PlayoffOrder::TieBreak, |s| PlayoffOrder::Lot(DrawSeed::from_u64(s)));
        let p = first_place_playoff(&players(n), PlayoffOptions { order, ..PlayoffOptions::default() }).unwrap();
        let mut counts = BTreeMap::new();
        count_players(&p.event, &mut counts);
        for e in &p.eliminated { *counts.entry(*e).or_default() += 1; }
        prop_assert_eq!(counts.len(), n);
        prop_assert!(counts.values().all(|&c| c == 1));
        prop_assert_eq!(p.paragraph as usize, n.min(11) - 1);
    }
}
