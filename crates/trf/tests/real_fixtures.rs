//! Spot checks of the typed model against real files (values read by eye from the fixtures).

use std::path::Path;
use trf::*;

fn load(rel: &str) -> Parsed {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(rel);
    parse(&std::fs::read(&path).expect("read fixture")).expect("parse fixture")
}

fn serious(findings: &[Finding]) -> Vec<&Finding> {
    findings
        .iter()
        .filter(|f| f.severity >= Severity::Warning)
        .collect()
}

#[test]
fn fide_trf26_sample_player_and_header() {
    // fide-tec-grandmommys-cup-trf26-sample.trf line 33.
    let parsed = load("trf/fide-tec-grandmommys-cup-trf26-sample.trf");
    let doc = &parsed.doc;
    let p = doc.player(1).expect("player 1");
    assert_eq!(p.name, "Test0001 Player0001");
    assert_eq!(p.rating.get(), Some(2586));
    assert_eq!(p.federation, "IND");
    assert_eq!(p.fide_id.get(), Some(70_123_454_321));
    assert_eq!(p.birth_date, "1987/00/00");
    assert_eq!(p.points.get(), Some(Score::from_tenths(80)));
    assert_eq!(p.rank.get(), Some(12));
    assert_eq!(p.rounds.len(), 14);
    assert_eq!(
        p.rounds[0],
        RoundResult::game(51, Colour::Black, ResultCode::Draw)
    );
    assert_eq!(
        p.rounds[2],
        RoundResult::game(242, Colour::Black, ResultCode::Loss)
    );
    let h = doc.header();
    assert_eq!(h.name.as_deref(), Some("Grandmommy's Cup"));
    assert_eq!(h.deputy_chief_arbiters.len(), 2);
    assert_eq!(h.encoded_tournament_type.as_deref(), Some("FIDE_TEAM_BAKU"));
    assert_eq!(
        h.tie_breaks,
        vec!["EDET/P", "EMGSB/C1/P", "BH:MP/C1/P", "MPvGP"]
    );
    assert_eq!(h.round_dates.first().map(String::as_str), Some("24/01/01"));
    assert_eq!(total_rounds(doc), Some(14));
    assert_eq!(initial_colour(doc), Some(InitialColour::White));
    // 240 F   1    3  (line 340): team 3 has a full-point bye in round 1.
    assert!(known_byes(doc).contains(&KnownBye {
        round: 1,
        player: 3,
        kind: ByeKind::Full,
        source: Source::Trf26
    }));
    // 250  2.0        1   1    1    2: the sample puts its value in the match-point field.
    let acc = accelerations(doc);
    assert_eq!(acc.len(), 4);
    assert_eq!(acc[0].match_points, Some(Score::from_tenths(20)));
    // 260   1  14    1   11   16
    assert!(
        forbidden_pairings(doc)
            .iter()
            .any(|f| f.forbids(11, 16, 14))
    );
    // NRS record (line 284): national number with a letter is kept, not reported as a FIDE id.
    let nrs = doc.records().find_map(|r| match r {
        Record::NationalRating { federation, player } => Some((federation.clone(), player.clone())),
        _ => None,
    });
    let (fed, nrs) = nrs.expect("NRS record");
    assert_eq!(fed, "FRA");
    assert_eq!(nrs.tpn(), Some(14));
    assert_eq!(nrs.fide_id, Field::Invalid("L01854".into()));
    // 299 lines use the sample's shifted layout (ADR trf-003) and are kept verbatim.
    let a299: Vec<_> = doc
        .records()
        .filter_map(|r| match r {
            Record::AbnormalPoints(a) => Some(a.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(a299[0].kind, '+');
    assert_eq!(a299[0].match_points.get(), Some(Score::from_tenths(20)));
    assert_eq!(a299[0].points.get(), Some(Score::from_tenths(25)));
    assert_eq!(a299[0].round.get(), Some(1));
    assert_eq!(a299[0].players, vec![Field::Value(1)]);
    // The sample is consistent: no warning or error.
    assert_eq!(serious(&validate(doc)), Vec::<&Finding>::new());
}

#[test]
fn latin1_file_is_converted_with_a_warning() {
    // icu-irish-intermediate-champs-2011.trf line 34 holds "Mícheál" in ISO-8859-1.
    let parsed = load("trf/icu-irish-intermediate-champs-2011.trf");
    assert!(
        parsed
            .findings
            .iter()
            .any(|f| f.severity == Severity::Warning
                && f.line == 34
                && f.message.contains("Latin-1"))
    );
    assert_eq!(
        parsed.doc.player(20).expect("player 20").name,
        "Morgan, Mícheál"
    );
    let out = write(&parsed.doc, TrfVersion::Trf26);
    assert!(out.contains("Morgan, Mícheál"), "written back as UTF-8");
}

#[test]
fn cr_only_file_from_bbp_pairings() {
    // issue_15.input ends its lines with CR alone.
    let parsed = load("engine-regression/issue_15.input");
    assert_eq!(parsed.doc.players().count(), 180);
    // No XXR: the engine was given the number of rounds on its command line.
    assert_eq!(total_rounds(&parsed.doc), None);
    assert_eq!(parsed.doc.rounds_in_player_records(), 11);
    assert_eq!(parsed.doc.lines.len(), 182);
    assert_eq!(serious(&validate(&parsed.doc)), Vec::<&Finding>::new());
}

#[test]
fn pairing_corpus_files_are_consistent_under_their_scoring_system() {
    // 3/1/0 corpus: record 162 `W 3.0  D 1.0`, PAB = W; the points columns must agree.
    for f in [
        "pairing/s14891904432047-p13-r7.trf",
        "pairing/s456006487535817-p10-r7.trf",
        "pairing/s14891904432047-p13-r7.cut-before-round-5.trf",
        "pairing/s105438970955638-p15-r10.trf",
        "pairing/s947119414066003-p10-r6.trf",
    ] {
        let parsed = load(f);
        assert_eq!(
            serious(&validate(&parsed.doc)),
            Vec::<&Finding>::new(),
            "{f}"
        );
    }
    let cut = load("pairing/s14891904432047-p13-r7.cut-before-round-5.trf");
    assert_eq!(
        ScoringSystem::from_document(&cut.doc),
        ScoringSystem::three_one_zero()
    );
    assert_eq!(total_rounds(&cut.doc), Some(7));
    assert_eq!(initial_colour(&cut.doc), Some(InitialColour::White));
    assert_eq!(next_round(&cut.doc), 5);
    // Player 9 (line 10): 3 b 0, 12 w 1, 10 b 0, 0000 - U  → 6.0 at 3/1/0.
    let p9 = cut.doc.player(9).expect("player 9");
    assert_eq!(p9.points.get(), Some(Score::from_points(6)));
    assert_eq!(
        p9.rounds[3],
        RoundResult::bye(ResultCode::PairingAllocatedBye)
    );
}

#[test]
fn engine_regression_input_with_a_known_absence() {
    // dutch_2025_C5.input: player 4 has `0000 - Z` in round 3, the round to be paired.
    let parsed = load("engine-regression/dutch_2025_C5.input");
    let doc = &parsed.doc;
    assert_eq!(total_rounds(doc), Some(3));
    assert_eq!(next_round(doc), 3);
    assert_eq!(
        known_byes(doc),
        vec![KnownBye {
            round: 3,
            player: 4,
            kind: ByeKind::Zero,
            source: Source::PlayerRecord
        }]
    );
}

#[test]
fn icu_file_points_that_disagree_with_results_are_reported() {
    // icu-bunratty-challengers-2011.trf line 14: `       -  ` in round 1 (no result = zero-point
    // bye), results 1 0 1 1 1 = 4.0, but the points column says 4.5.
    let parsed = load("trf/icu-bunratty-challengers-2011.trf");
    let f = validate(&parsed.doc);
    assert!(f.iter().any(|x| x.line == 14
        && x.column == 81
        && x.severity == Severity::Warning
        && x.message.contains("says 4.5 but the results add up to 4.0")));
}

#[test]
fn icu_gonzaga_half_point_bye_written_as_a_draw() {
    // icu-gonzaga-classic-2008.trf line 10: `0000 - =` (a draw without an opponent).
    let parsed = load("trf/icu-gonzaga-classic-2008.trf");
    let f = validate(&parsed.doc);
    assert!(
        f.iter()
            .any(|x| x.line == 10 && x.column == 99 && x.message.contains("without an opponent"))
    );
}

#[test]
fn team_file_with_greek_names_keeps_columns_by_character() {
    let parsed = load("trf/heltour-crete-friendship-cup-2024-team.trf");
    let teams: Vec<_> = parsed
        .doc
        .records()
        .filter_map(|r| match r {
            Record::Team013(t) => Some(t.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(teams.len(), 15);
    assert_eq!(teams[0].name, "ΓΑΖΙ 1");
    assert_eq!(teams[0].members.first(), Some(&Field::Value(13)));
    assert_eq!(teams[0].members.len(), 8);
    assert_eq!(
        parsed.doc.header().name.as_deref(),
        Some("ΔΙΑΣΥΛΛΟΓΙΚΟ ΚΥΠΕΛΛΟ ΚΡΗΤΙΚΗΣ ΦΙΛΙΑΣ 2024")
    );
}

#[test]
fn lichess_file_with_javafo_extensions() {
    let parsed = load("trf/lichess-swiss-FaLp5fSD-2020-05.trf");
    let doc = &parsed.doc;
    assert_eq!(total_rounds(doc), Some(10));
    assert_eq!(initial_colour(doc), Some(InitialColour::White));
    assert_eq!(doc.player(1).expect("p1").name, "mattderkuerschner");
    assert_eq!(doc.player(1).expect("p1").rating, Field::Empty);
}
