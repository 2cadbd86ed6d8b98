//! The 2017 edition on reference-generated tournaments (bbpPairings v5, Dutch 2017) whose
//! rounds once differed from the reference engine. Data: tests/data/dutch-2017-regression
//! (see PROVENANCE.md).
//! - s117724692270086 round 8: the bracket of score 1.5 floated 180, the last bracket
//!   {180, 184, 197} then had to give the PAB to 180 (197 already had one, C2); 2017 C.7 takes
//!   the following bracket's pairing with its PAB when it is the last one, so the bracket
//!   floats 176 and the PAB goes to 184 (ADR swiss-049). g3162 round 8: the same case.
//! - g2092 round 9: the collapsed last bracket's PSD counts the player left for the PAB with
//!   its A.8 score difference, so the PAB goes to 10 (3.0), not 3 (3.5) (ADR swiss-050).
//!
//! Every round of each file, on the fast and the plain path, is the reference's.

use pairings::trf_input;
use std::collections::BTreeSet;
use std::path::Path;
use swiss::{Edition, EnginePath, Options};

type Round = (BTreeSet<(u32, u32)>, BTreeSet<u32>);

fn doc(name: &str) -> trf::TrfDocument {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/dutch-2017-regression")
        .join(name);
    let bytes = std::fs::read(path).expect("read");
    trf::parse(&bytes).expect("parse").doc
}

/// Round `r` paired by the 2017 edition on `path`: (white, black) boards and the PAB.
fn paired(doc: &trf::TrfDocument, r: usize, path: EnginePath) -> Round {
    let state = trf_input::state_before(doc, r, Edition::Dutch2017).expect("state");
    let p = swiss::pair_with(
        &state,
        Edition::Dutch2017,
        &Options::default(),
        path,
        &mut |_| {},
    )
    .unwrap_or_else(|e| panic!("round {r}, {path:?}: {e}"));
    (
        p.boards.iter().map(|b| (b.white, b.black)).collect(),
        p.bye.into_iter().collect(),
    )
}

/// Round `r` of `name`: the file's PAB is `bye`, the file holds the `pairs` (white, black),
/// and both paths pair the round as the file does.
fn round_as_recorded(name: &str, r: usize, bye: u32, pairs: &[(u32, u32)]) {
    let doc = doc(name);
    let (boards, byes) = trf_input::recorded_round(&doc, r);
    assert_eq!(byes, BTreeSet::from([bye]), "{name}: the file's round {r}");
    assert!(
        pairs.iter().all(|p| boards.contains(p)),
        "{name}: the file's round {r}"
    );
    for path in [EnginePath::Fast, EnginePath::Reference] {
        let got = paired(&doc, r, path);
        assert_eq!(got.1, BTreeSet::from([bye]), "{name}, {path:?}: the PAB");
        assert_eq!(got.0, boards, "{name}, {path:?}: round {r}");
    }
}

#[test]
fn s117724692270086_round_8_pab_to_184() {
    // 176 floats to the last bracket and meets 197; 180 stays in its scoregroup.
    round_as_recorded(
        "s117724692270086-p197-r11.trf",
        8,
        184,
        &[(197, 176), (180, 167)],
    );
}

#[test]
fn g3162_round_8_pab_to_40() {
    round_as_recorded("g3162-p43-r10.trf", 8, 40, &[(42, 36), (43, 41)]);
}

#[test]
fn g2092_round_9_pab_to_10() {
    round_as_recorded("g2092-p13-r9.trf", 9, 10, &[(11, 3)]);
}

#[test]
fn every_round_as_the_reference() {
    for (name, rounds) in [
        ("s117724692270086-p197-r11.trf", 11),
        ("g3162-p43-r10.trf", 10),
        ("g2092-p13-r9.trf", 9),
    ] {
        let doc = doc(name);
        assert_eq!(doc.rounds_in_player_records(), rounds, "{name}");
        for r in 1..=rounds {
            let recorded = trf_input::recorded_round(&doc, r);
            for path in [EnginePath::Fast, EnginePath::Reference] {
                assert_eq!(
                    paired(&doc, r, path),
                    recorded,
                    "{name}, round {r}, {path:?}"
                );
            }
        }
    }
}
