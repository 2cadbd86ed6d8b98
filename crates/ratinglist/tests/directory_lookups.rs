//! PlayerDirectory: lookups by FIDE ID and by name prefix, against the samples, generated
//! lists and a brute-force model.

use proptest::prelude::*;
use ratinglist::directory::LoadReport;
use ratinglist::name_key::{key_starts_with, name_key};
use ratinglist::{
    ListError, ListPlayer, PlayerDirectory, PlayerDirectoryBuilder, RatingKind, Title,
    generate_list, read_list,
};

fn sample_directory() -> PlayerDirectory {
    let data = include_bytes!("data/combined_foa_sample.txt");
    let (dir, report) = PlayerDirectory::from_list(read_list(&data[..]).unwrap()).unwrap();
    assert_eq!(report.loaded, 4);
    assert_eq!(report.error_count, 0);
    dir
}

#[test]
fn lookup_by_fide_id() {
    let dir = sample_directory();
    let c = dir.by_id(1503014).unwrap();
    assert_eq!(c.name(), "Carlsen, Magnus");
    assert_eq!(c.federation(), "NOR");
    assert_eq!(c.title(), Some(Title::GM));
    assert_eq!(c.rating(RatingKind::Rapid).unwrap().games, 12);
    assert_eq!(c.birth_year(), Some(1990));
    assert!(!c.is_inactive());
    assert!(dir.by_id(1).is_none());
    assert!(dir.by_id(0).is_none());
    assert!(dir.by_id(u32::MAX).is_none());
}

#[test]
fn full_record_comes_back_unchanged() {
    let data = include_bytes!("data/combined_foa_sample.txt");
    let players: Vec<ListPlayer> = read_list(&data[..]).unwrap().map(Result::unwrap).collect();
    let (dir, dups) = PlayerDirectory::from_players(&players).unwrap();
    assert!(dups.is_empty());
    for p in &players {
        assert_eq!(&dir.by_id(p.fide_id).unwrap().to_player(), p);
    }
    // Iteration is in FIDE ID order.
    let ids: Vec<u32> = dir.iter().map(|p| p.fide_id()).collect();
    assert_eq!(ids, vec![1503014, 2000019, 4100042, 13300032]);
}

#[test]
fn name_search_ignores_case_diacritics_and_spacing() {
    let dir = sample_directory();
    let names =
        |q: &str| -> Vec<String> { dir.search_name(q).map(|p| p.name().to_string()).collect() };
    assert_eq!(names("carlsen"), vec!["Carlsen, Magnus"]);
    assert_eq!(names("CARLSEN , MAG"), vec!["Carlsen, Magnus"]);
    assert_eq!(names("muller swiatek, zo"), vec!["Müller-Świątek, Zoë"]);
    assert_eq!(names("Müller-Świątek"), vec!["Müller-Świątek, Zoë"]);
    assert_eq!(names("m"), vec!["Magistr", "Müller-Świątek, Zoë"]);
    assert!(
        names("magnus").is_empty(),
        "surname first, as FIDE writes names"
    );
    assert_eq!(names("").len(), 4);
}

#[test]
fn duplicate_ids_keep_the_first_occurrence() {
    let mut b = PlayerDirectoryBuilder::new();
    b.push(&ListPlayer::new(5, "First, A")).unwrap();
    b.push(&ListPlayer::new(6, "Other, B")).unwrap();
    b.push(&ListPlayer::new(5, "Second, A")).unwrap();
    let (dir, dups) = b.finish();
    assert_eq!(dups, vec![5]);
    assert_eq!(dir.len(), 2);
    assert_eq!(dir.by_id(5).unwrap().name(), "First, A");
    assert_eq!(dir.search_name("second").count(), 0);
}

#[test]
fn load_report_counts_bad_records_and_keeps_going() {
    let items: Vec<Result<ListPlayer, ListError>> = vec![
        Ok(ListPlayer::new(1, "A, A")),
        Err(ListError::Xml {
            line: 2,
            column: 1,
            problem: "x".into(),
        }),
        Ok(ListPlayer::new(2, "B, B")),
    ];
    let (dir, report) = PlayerDirectory::from_list(items).unwrap();
    assert_eq!(dir.len(), 2);
    assert_eq!(
        report,
        LoadReport {
            loaded: 2,
            error_count: 1,
            first_errors: vec![ListError::Xml {
                line: 2,
                column: 1,
                problem: "x".into()
            }],
            duplicate_ids: vec![],
        }
    );
}

#[test]
fn empty_directory() {
    let (dir, _) = PlayerDirectory::from_players(Vec::<ListPlayer>::new()).unwrap();
    assert!(dir.is_empty());
    assert!(dir.by_id(1).is_none());
    assert_eq!(dir.search_name("a").count(), 0);
}

#[test]
fn generated_list_every_player_found_by_id_and_by_its_own_name() {
    let players: Vec<_> = generate_list(20_000, 3).collect();
    let (dir, dups) = PlayerDirectory::from_players(&players).unwrap();
    assert!(dups.is_empty());
    assert_eq!(dir.len(), players.len());
    for p in players.iter().step_by(7) {
        assert_eq!(&dir.by_id(p.fide_id).unwrap().to_player(), p);
        assert!(
            dir.search_name(&p.name).any(|r| r.fide_id() == p.fide_id),
            "{}",
            p.name
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Name search returns exactly the players whose key starts with the query's key, in
    /// key order: compared with a brute-force scan.
    #[test]
    fn name_search_equals_brute_force(seed in 0u64..1000, query in "[a-zA-Zéöš ,-]{0,5}") {
        let players: Vec<_> = generate_list(400, seed).collect();
        let (dir, _) = PlayerDirectory::from_players(&players).unwrap();
        let key = name_key(&query);
        let mut expected: Vec<(String, u32)> = players
            .iter()
            .filter(|p| key_starts_with(&p.name, &key))
            .map(|p| (name_key(&p.name), p.fide_id))
            .collect();
        expected.sort();
        let found: Vec<(String, u32)> = dir
            .search_name(&query)
            .map(|p| (name_key(p.name()), p.fide_id()))
            .collect();
        prop_assert_eq!(found, expected);
    }

    /// Random IDs: found iff present.
    #[test]
    fn id_lookup_equals_membership(seed in 0u64..1000, probes in proptest::collection::vec(100_000u32..120_000, 50)) {
        let players: Vec<_> = generate_list(500, seed).collect();
        let (dir, _) = PlayerDirectory::from_players(&players).unwrap();
        for id in probes {
            let present = players.iter().any(|p| p.fide_id == id);
            prop_assert_eq!(dir.by_id(id).is_some(), present);
        }
    }
}
