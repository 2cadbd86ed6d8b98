//! Real events (tests/data, see PROVENANCE.md): the model accepts them, points agree with the
//! published files, an independently computed Solkoff agrees, and the tie-break invariants
//! hold on real data with byes, absences and forfeits.

mod common;
use common::trf;
use tiebreak::*;

fn load(name: &str) -> (Crosstable, Vec<trf::TrfPlayer>) {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).unwrap();
    trf::read(&text)
}

const FILES: [&str; 2] = [
    "icu-armstrong-2011.trf",
    "lichess-swiss-FaLp5fSD-2020-05.trf",
];

fn opts() -> Options {
    Options {
        unrated_rating: Some(1000),
        ..Options::default()
    }
}

#[test]
fn points_agree_with_the_published_file() {
    for name in FILES {
        let (ct, extra) = load(name);
        let s = standings(&ct, Edition::C07_2026, &[], &opts()).unwrap();
        for row in &s.rows {
            let i = ct.players.iter().position(|p| p.tpn == row.tpn).unwrap();
            assert_eq!(
                row.points,
                Exact::ratio(extra[i].points_tenths, 10).unwrap(),
                "{name} player {}",
                row.tpn
            );
        }
    }
}

/// Solkoff (sum of the final scores of the opponents met over the board) computed by an
/// independent script from the published files.
#[test]
fn solkoff_agrees_with_an_independent_computation() {
    let (ct, _) = load("lichess-swiss-FaLp5fSD-2020-05.trf");
    let s = standings(
        &ct,
        Edition::C07_2026,
        &parse_list(&["SOLKOFF"], Edition::C07_2026).unwrap(),
        &opts(),
    )
    .unwrap();
    let got: Vec<String> = (1..=13).map(|t| common::val(&s, t, 0)).collect();
    assert_eq!(
        got,
        [
            "49", "48", "49", "49", "43", "47", "42", "19", "49", "47.5", "50", "44.5", "17"
        ]
    );
    let (ct, _) = load("icu-armstrong-2011.trf");
    let s = standings(
        &ct,
        Edition::C07_2026,
        &parse_list(&["SOLKOFF"], Edition::C07_2026).unwrap(),
        &opts(),
    )
    .unwrap();
    let got: Vec<String> = (1..=10).map(|t| common::val(&s, t, 0)).collect();
    assert_eq!(
        got,
        [
            "45.5", "58.5", "5.5", "45", "13", "52", "4", "39", "58", "8.5"
        ]
    );
}

#[test]
fn invariants_hold_on_real_events_in_every_edition() {
    for name in FILES {
        let (ct, _) = load(name);
        for edition in [Edition::C07_2026, Edition::C07_2024, Edition::SeedC06] {
            let codes: &[&str] = match edition {
                Edition::SeedC06 => &["BH", "BH/C1", "SB", "DE", "PS", "KS", "TPR/350", "BHSUM"],
                _ => &[
                    "BH", "BH/C1", "SB", "DE", "PS", "AOB", "FB", "TPR", "PTP", "APPO",
                ],
            };
            let list = parse_list(codes, edition).unwrap();
            let s = standings(&ct, edition, &list, &opts()).unwrap();
            for row in &s.rows {
                let bh = row.values[0].value.unwrap();
                let bh1 = row.values[1].value.unwrap();
                assert!(bh1 <= bh, "{name} {edition} {}", row.tpn);
                let sum = row.values[0]
                    .working
                    .contributions
                    .iter()
                    .fold(Exact::ZERO, |a, c| a + c.value);
                assert_eq!(sum, bh);
                assert_eq!(
                    row.values[0].working.contributions.len(),
                    ct.rounds_played as usize
                );
            }
            for w in s.rows.windows(2) {
                assert!(w[0].points >= w[1].points);
            }
        }
        // The 2026 caps never raise a Buchholz.
        let list = parse_list(&["BH"], Edition::C07_2026).unwrap();
        let a = standings(&ct, Edition::C07_2026, &list, &opts()).unwrap();
        let b = standings(&ct, Edition::C07_2024, &list, &opts()).unwrap();
        let mut lower = 0;
        for ra in &a.rows {
            let rb = b.rows.iter().find(|r| r.tpn == ra.tpn).unwrap();
            assert!(ra.values[0].value <= rb.values[0].value);
            if ra.values[0].value < rb.values[0].value {
                lower += 1;
            }
        }
        // Both events have byes of participants scoring over half the rounds: the caps bite.
        assert!(
            lower > 0,
            "{name}: expected the 2026 caps to bite somewhere"
        );
    }
}
