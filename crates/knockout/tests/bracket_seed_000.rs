//! Seed 000, "Systèmes K.O.": brackets, the preliminary round and the 47-player example.

use std::collections::{BTreeMap, BTreeSet};

use knockout::{Bracket, BracketFormat, Entrant, bracket};
use proptest::prelude::*;

/// Outcome "the better nominal seed always wins": resolves every entrant to a seed.
/// Per round: the games (as seed pairs) and the bye holders.
type ResolvedRound = (BTreeSet<(u32, u32)>, BTreeSet<u32>);

fn resolve(b: &Bracket) -> Vec<ResolvedRound> {
    let mut winners: BTreeMap<(u32, u32), u32> = BTreeMap::new();
    let mut out = Vec::new();
    for r in &b.rounds {
        let seed_of = |e: &Entrant, w: &BTreeMap<(u32, u32), u32>| match *e {
            Entrant::Seed(s) => s,
            Entrant::WinnerOf { round, index } => w[&(round, index)],
        };
        let mut games = BTreeSet::new();
        for (i, m) in r.matches.iter().enumerate() {
            let (a, b) = (seed_of(&m.a, &winners), seed_of(&m.b, &winners));
            games.insert((a.min(b), a.max(b)));
            winners.insert((r.number, i as u32), a.min(b));
        }
        let byes = r.byes.iter().map(|e| seed_of(e, &winners)).collect();
        out.push((games, byes));
    }
    out
}

/// Seed 000, "Systèmes K.O.", "Ex. : 47 joueurs : (47 − 32) × 2 = 30. 17 joueurs sont dispensés du
/// 1er tour et 15 joueurs sont désignés par ce premier tour."
#[test]
fn seed_000_systemes_ko_47_players_preliminary_round() {
    let b = bracket(47, BracketFormat::PreliminaryRound).unwrap();
    let first = &b.rounds[0];
    assert!(first.preliminary);
    assert_eq!(
        first.matches.len() * 2,
        30,
        "(47 - 32) x 2 = 30 players in the preliminary round"
    );
    assert_eq!(
        first.byes.len(),
        17,
        "17 players exempt from the first round"
    );
    assert_eq!(first.byes, (1..=17).map(Entrant::Seed).collect::<Vec<_>>());
    assert_eq!(
        first.matches.len(),
        15,
        "15 players designated by this first round"
    );
    assert_eq!(
        (first.matches[0].a, first.matches[0].b),
        (Entrant::Seed(18), Entrant::Seed(47))
    );
    assert_eq!(
        (first.matches[14].a, first.matches[14].b),
        (Entrant::Seed(32), Entrant::Seed(33))
    );
    let shape: Vec<(u32, usize)> = b
        .rounds
        .iter()
        .map(|r| (r.players, r.matches.len()))
        .collect();
    assert_eq!(
        shape,
        vec![(47, 15), (32, 16), (16, 8), (8, 4), (4, 2), (2, 1)]
    );
    // Main bracket: seed 1 meets the qualifier from 32 v 33 (it takes seed 32's place).
    let main = &b.rounds[1];
    assert_eq!(main.matches[0].a, Entrant::Seed(1));
    assert_eq!(
        main.matches[0].b,
        Entrant::WinnerOf {
            round: 1,
            index: 14
        }
    );
    assert!(
        b.rounds
            .iter()
            .skip(1)
            .all(|r| !r.preliminary && r.byes.is_empty())
    );
}

/// Seed 000, "Systèmes K.O.", "On peut aussi procéder de la sorte": 47 joueurs 23 parties 1 bye;
/// 24 joueurs 12 parties; 12 joueurs 6 parties; 6 joueurs 3 parties; 3 joueurs 1 partie 1 bye;
/// Finale 2 joueurs 1 partie.
#[test]
fn seed_000_systemes_ko_47_players_bye_in_each_odd_round() {
    let b = bracket(47, BracketFormat::ByeInEachOddRound).unwrap();
    let shape: Vec<(u32, usize, usize)> = b
        .rounds
        .iter()
        .map(|r| (r.players, r.matches.len(), r.byes.len()))
        .collect();
    assert_eq!(
        shape,
        vec![
            (47, 23, 1),
            (24, 12, 0),
            (12, 6, 0),
            (6, 3, 0),
            (3, 1, 1),
            (2, 1, 0)
        ]
    );
    // The bye goes to the best seed; the others are paired best against worst.
    assert_eq!(b.rounds[0].byes, vec![Entrant::Seed(1)]);
    assert_eq!(
        (b.rounds[0].matches[0].a, b.rounds[0].matches[0].b),
        (Entrant::Seed(2), Entrant::Seed(47))
    );
}

/// Seed 000: "Il nécessite un nombre de joueurs qui soit une puissance de 2": 16 players need no
/// preliminary round; 1 v 16 on the top board, 1 and 2 meet only in the final.
#[test]
fn seed_000_systemes_ko_power_of_two_needs_no_preliminary_round() {
    let b = bracket(16, BracketFormat::PreliminaryRound).unwrap();
    assert_eq!(b.rounds.len(), 4);
    assert!(b.rounds.iter().all(|r| !r.preliminary));
    let resolved = resolve(&b);
    assert!(resolved[0].0.contains(&(1, 16)));
    assert_eq!(resolved[3].0, [(1, 2)].into_iter().collect());
    assert_eq!(resolved[2].0, [(1, 4), (2, 3)].into_iter().collect());
}

#[test]
fn fewer_than_two_players_is_an_error() {
    assert!(bracket(0, BracketFormat::PreliminaryRound).is_err());
    assert!(bracket(1, BracketFormat::ByeInEachOddRound).is_err());
    assert!(bracket(100_000, BracketFormat::ByesBySeeding).is_err());
}

fn check_structure(b: &Bracket) -> Result<(), TestCaseError> {
    let n = b.players;
    // N − 1 matches in total: each eliminates one player.
    let total: usize = b.rounds.iter().map(|r| r.matches.len()).sum();
    prop_assert_eq!(total as u32, n - 1);
    prop_assert_eq!(b.rounds.last().map(|r| r.matches.len()), Some(1));
    // Each seed enters exactly once, each winner is used exactly once (except the champion).
    let mut seeds = BTreeSet::new();
    let mut used = BTreeSet::new();
    for r in &b.rounds {
        // Byes carry an entrant forward unchanged; only count entrants in matches as "used".
        for e in r.byes.iter() {
            if let Entrant::Seed(s) = e {
                seeds.insert(*s);
            }
        }
        for e in r.matches.iter().flat_map(|m| [m.a, m.b]) {
            match e {
                Entrant::Seed(s) => {
                    // A bye holder reappears as Seed(s) in the next round.
                    seeds.insert(s);
                }
                Entrant::WinnerOf { round, index } => {
                    prop_assert!(round < r.number);
                    prop_assert!(used.insert((round, index)), "winner used twice");
                }
            }
        }
    }
    prop_assert_eq!(seeds, (1..=n).collect::<BTreeSet<_>>());
    prop_assert_eq!(used.len() as u32, n - 2);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// Every format is a valid single-elimination bracket for 2–300 players.
    #[test]
    fn every_format_is_a_valid_bracket(n in 2u32..=300) {
        for f in [BracketFormat::PreliminaryRound, BracketFormat::ByesBySeeding, BracketFormat::ByeInEachOddRound] {
            check_structure(&bracket(n, f).unwrap())?;
        }
        // After the preliminary round the field is a power of two.
        let b = bracket(n, BracketFormat::PreliminaryRound).unwrap();
        for r in b.rounds.iter().filter(|r| !r.preliminary) {
            prop_assert!(r.players.is_power_of_two());
        }
    }

    /// Byes by seeding in a bracket of the next power of two give exactly the games of the
    /// seed's preliminary round system (when the better seed always wins).
    #[test]
    fn byes_by_seeding_equals_preliminary_round(n in 2u32..=300) {
        let pre = resolve(&bracket(n, BracketFormat::PreliminaryRound).unwrap());
        let byes = resolve(&bracket(n, BracketFormat::ByesBySeeding).unwrap());
        prop_assert_eq!(pre.len(), byes.len());
        for (p, b) in pre.iter().zip(&byes) {
            prop_assert_eq!(&p.0, &b.0);
        }
    }
}

/// Playing the 47-player bracket (seed 000 preliminary round): results propagate to the next
/// rounds; an upset in the preliminary round puts seed 33 against seed 1.
#[test]
fn seed_000_systemes_ko_47_players_played_through() {
    use knockout::BracketProgress;
    use knockout::match_play::Side;
    let mut p = BracketProgress::new(bracket(47, BracketFormat::PreliminaryRound).unwrap());
    // Second-round match 0 (seed 1 v winner of 32–33) is not ready yet.
    assert!(p.record_winner(2, 0, Side::A).is_err());
    assert_eq!(p.sides(2, 0), Some((Some(1), None)));
    for index in 0..15 {
        let upset = if index == 14 { Side::B } else { Side::A };
        p.record_winner(1, index, upset).unwrap();
    }
    assert!(p.record_winner(1, 0, Side::A).is_err(), "already recorded");
    assert!(p.record_winner(9, 0, Side::A).is_err(), "no such round");
    assert_eq!(p.sides(2, 0), Some((Some(1), Some(33))));
    let rounds = p.bracket().rounds.clone();
    for r in rounds.iter().skip(1) {
        for index in 0..r.matches.len() as u32 {
            p.record_winner(r.number, index, Side::A).unwrap();
        }
    }
    assert_eq!(p.champion(), Some(1));
}
