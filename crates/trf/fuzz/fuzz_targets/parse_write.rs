//! Fuzz target: any bytes → parse must not panic; when it parses, validation, the helpers and
//! both writers must not panic, and parse → write → parse must give back the same document.
#![no_main]

use libfuzzer_sys::fuzz_target;
use trf::{TrfVersion, parse, validate, write};

fuzz_target!(|data: &[u8]| {
    let Ok(parsed) = parse(data) else { return };
    let _ = validate(&parsed.doc);
    let _ = trf::ScoringSystem::from_document(&parsed.doc);
    let _ = trf::known_byes(&parsed.doc);
    let _ = trf::accelerations(&parsed.doc);
    let _ = trf::forbidden_pairings(&parsed.doc);
    let _ = trf::total_rounds(&parsed.doc);
    let _ = trf::initial_colour(&parsed.doc);
    let _ = write(&parsed.doc, TrfVersion::Trf16);
    let out = write(&parsed.doc, TrfVersion::Trf26);
    let again = parse(out.as_bytes()).expect("the writer's output must parse");
    assert_eq!(again.doc, parsed.doc, "parse → write → parse changed the document");
    assert_eq!(write(&again.doc, TrfVersion::Trf26), out, "writing is not idempotent");
});
