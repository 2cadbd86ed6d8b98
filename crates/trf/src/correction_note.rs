//! A comment line (`###`, TRF26 Remark 1) naming a round that was paired before a result
//! of an earlier round was corrected: re-pairing that round from the final results can
//! give another pairing, and a checker should say why rather than count a difference.
//!
//! `### paired before a correction: round 4 (corrected: round 3, round 2)`
//!
//! Written by the registry's export, read by `arbiter-pairings -c` (ADR trf-005).
use std::collections::BTreeMap;

use crate::{Record, TrfDocument};

const PREFIX: &str = " paired before a correction: round ";

/// The comment record for `round`, paired before the results of `corrected` changed.
pub fn note(round: u32, corrected: &[u32]) -> Record {
    let list: Vec<String> = corrected.iter().map(|r| format!("round {r}")).collect();
    Record::Comment(format!("{PREFIX}{round} (corrected: {})", list.join(", ")))
}

/// Round → the rounds whose correction came after it was paired, from the file's notes.
pub fn rounds_paired_before_correction(doc: &TrfDocument) -> BTreeMap<u32, Vec<u32>> {
    let mut out = BTreeMap::new();
    for r in doc.records() {
        let Record::Comment(text) = r else { continue };
        let Some(rest) = text.strip_prefix(PREFIX) else {
            continue;
        };
        let (round, tail) = rest.split_once(' ').unwrap_or((rest, ""));
        let Ok(round) = round.parse::<u32>() else {
            continue;
        };
        let corrected: Vec<u32> = tail
            .trim_start_matches("(corrected:")
            .trim_end_matches(')')
            .split(',')
            .filter_map(|x| x.trim().trim_start_matches("round ").parse().ok())
            .collect();
        out.insert(round, corrected);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_note_reads_back_from_the_written_file() {
        let mut doc = TrfDocument::new();
        doc.push(Record::Header(crate::HeaderRecord {
            kind: crate::HeaderKind::TournamentName,
            value: "T".into(),
        }));
        doc.push(note(4, &[3]));
        doc.push(note(5, &[2, 3]));
        let text = crate::write(&doc, crate::TrfVersion::Trf26);
        assert!(
            text.contains("### paired before a correction: round 4 (corrected: round 3)"),
            "{text}"
        );
        let back = crate::parse(text.as_bytes()).unwrap().doc;
        let got = rounds_paired_before_correction(&back);
        assert_eq!(got.get(&4), Some(&vec![3]));
        assert_eq!(got.get(&5), Some(&vec![2, 3]));
        assert_eq!(got.len(), 2);
    }

    #[test]
    fn other_comments_are_not_notes() {
        let doc = crate::parse(
            b"012 T\n### a ruler 0001 0002\n### paired before a correction: round x\n",
        )
        .unwrap()
        .doc;
        assert!(rounds_paired_before_correction(&doc).is_empty());
    }
}
