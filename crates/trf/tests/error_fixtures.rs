//! The error fixtures (`tests/data/errors`, see PROVENANCE.md): each has at least one
//! error finding, on the line the fault was written into, so a reader that refuses
//! files with errors (the registry's import) refuses every one of them.

use std::path::Path;
use trf::*;

fn errors(name: &str) -> Vec<Finding> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/errors")
        .join(name);
    let p = parse_and_validate(&std::fs::read(&path).expect("read fixture")).expect("parses");
    p.findings
        .into_iter()
        .filter(|f| f.severity == Severity::Error)
        .collect()
}

#[test]
fn every_error_fixture_has_an_error_on_its_faulty_line() {
    for (name, line, needle) in [
        ("asymmetric-pairing.trf", 2, "asymmetric pairing"),
        ("paired-with-himself.trf", 3, "paired with himself"),
        ("opponent-out-of-range.trf", 4, "out of range"),
        ("letters-in-rating.trf", 5, "letters in the rating column"),
        ("unknown-result-code.trf", 6, "unknown result code"),
        ("shifted-columns.trf", 4, "starting rank"),
        ("duplicate-starting-rank.trf", 7, "duplicate starting rank"),
    ] {
        let e = errors(name);
        assert!(
            e.iter()
                .any(|f| f.line == line && f.message.contains(needle)),
            "{name}: {e:#?}"
        );
    }
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/errors");
    assert_eq!(
        std::fs::read_dir(dir).expect("dir").count(),
        7,
        "every fixture is listed here"
    );
}
