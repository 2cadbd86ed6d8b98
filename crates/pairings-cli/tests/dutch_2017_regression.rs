//! The 2017 edition on a reference-generated tournament whose round 8 once differed from the
//! reference engine (bbpPairings v5, Dutch 2017): the bracket of score 1.5 floated 180, the
//! last bracket {180, 184, 197} then had to give the PAB to 180 (197 already had one, C2);
//! 2017 C.7 takes the following bracket's pairing with its PAB when it is the last one, so the
//! bracket floats 176 and the PAB goes to 184 (ADR swiss-049). Every round of the file, on
//! the fast and the plain path, is the reference's. Data: tests/data/dutch-2017-regression
//! (see PROVENANCE.md).

use pairings::trf_input;
use std::collections::BTreeSet;
use std::path::Path;
use swiss::{Edition, EnginePath, Options};

const FILE: &str = "tests/data/dutch-2017-regression/s117724692270086-p197-r11.trf";

fn doc() -> trf::TrfDocument {
    let bytes = std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join(FILE)).expect("read");
    trf::parse(&bytes).expect("parse").doc
}

/// Round `r` paired by the 2017 edition on `path`: (white, black) boards and the PAB.
fn paired(
    doc: &trf::TrfDocument,
    r: usize,
    path: EnginePath,
) -> (BTreeSet<(u32, u32)>, BTreeSet<u32>) {
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

#[test]
fn round_8_pab_to_184_as_the_reference() {
    let doc = doc();
    let (boards, byes) = trf_input::recorded_round(&doc, 8);
    assert_eq!(byes, BTreeSet::from([184]), "the file's round 8");
    for path in [EnginePath::Fast, EnginePath::Reference] {
        let (got, bye) = paired(&doc, 8, path);
        assert_eq!(bye, BTreeSet::from([184]), "{path:?}: the PAB");
        // 176 floats to the last bracket and meets 197; 180 stays in its scoregroup.
        assert!(
            got.contains(&(197, 176)) && got.contains(&(180, 167)),
            "{path:?}"
        );
        assert_eq!(got, boards, "{path:?}: round 8");
    }
}

#[test]
fn every_round_as_the_reference() {
    let doc = doc();
    let rounds = doc.rounds_in_player_records();
    assert_eq!(rounds, 11);
    for r in 1..=rounds {
        let recorded = trf_input::recorded_round(&doc, r);
        for path in [EnginePath::Fast, EnginePath::Reference] {
            assert_eq!(paired(&doc, r, path), recorded, "round {r}, {path:?}");
        }
    }
}
