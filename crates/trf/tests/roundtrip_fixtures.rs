//! Every real fixture round-trips: parse → write → parse gives the same model, and writing is
//! idempotent; files already in canonical layout are reproduced byte for byte.

use std::path::{Path, PathBuf};
use trf::{LineEnding, TrfVersion, WriteOptions, parse, write, write_with};

fn data_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let mut out = Vec::new();
    for dir in ["trf", "pairing", "engine-regression"] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(root.join(dir))
            .expect("test data directory")
            .map(|e| e.expect("dir entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "trf" || e == "input"))
            .collect();
        files.sort();
        out.extend(files);
    }
    out
}

#[test]
fn there_are_fixtures() {
    assert!(
        data_files().len() >= 20,
        "expected the copied fixtures in tests/data"
    );
}

#[test]
fn every_fixture_round_trips_through_the_model() {
    for path in data_files() {
        let bytes = std::fs::read(&path).expect("read fixture");
        let first = parse(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let written = write(&first.doc, TrfVersion::Trf26);
        let second = parse(written.as_bytes()).expect("reparse");
        assert_eq!(
            first.doc,
            second.doc,
            "{}: parse→write→parse changed the model",
            path.display()
        );
        let rewritten = write(&second.doc, TrfVersion::Trf26);
        assert_eq!(
            written,
            rewritten,
            "{}: writing is not idempotent",
            path.display()
        );
        assert_eq!(
            first.doc.lines.len(),
            bytes_line_count(&bytes),
            "{}: a line was lost",
            path.display()
        );
    }
}

fn bytes_line_count(bytes: &[u8]) -> usize {
    let mut n = 0;
    let mut i = 0;
    let mut at_line_start = true;
    while i < bytes.len() {
        at_line_start = false;
        match bytes[i] {
            b'\r' => {
                n += 1;
                at_line_start = true;
                if bytes.get(i + 1) == Some(&b'\n') {
                    i += 1;
                }
            }
            b'\n' => {
                n += 1;
                at_line_start = true;
            }
            _ => {}
        }
        i += 1;
    }
    if !at_line_start { n + 1 } else { n }
}

#[test]
fn canonical_pairing_corpus_files_are_reproduced_byte_for_byte() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/pairing");
    let mut checked = 0;
    for entry in std::fs::read_dir(root).expect("dir") {
        let path = entry.expect("entry").path();
        let text = std::fs::read_to_string(&path).expect("read");
        let parsed = parse(text.as_bytes()).expect("parse");
        assert!(
            parsed.doc.lines.iter().all(|l| l.verbatim.is_none()),
            "{}: the reference engine's output should be canonical",
            path.display()
        );
        let out = write_with(
            &parsed.doc,
            &WriteOptions {
                version: TrfVersion::Trf26,
                line_ending: LineEnding::Lf,
            },
        );
        assert_eq!(out, text, "{}", path.display());
        checked += 1;
    }
    assert!(checked >= 5);
}
