//! Writing: canonical TRF text from a [`TrfDocument`].

use crate::document::TrfDocument;
use crate::engine_extensions::XxcOption;
use crate::field::Field;
use crate::header::InitialColour;
use crate::record::{Record, parse_record, render_record};
use crate::team::Team013Record;

/// Which TRF edition to write.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
pub enum TrfVersion {
    /// TRF16 (Krause 2006, updated 2014, approved 2015). TRF26-only records are left out; see
    /// [`write_with`] for what is converted.
    Trf16,
    /// TRF26 (in force since 1 September 2025): every record is written. The default.
    #[default]
    Trf26,
}

/// Line terminator of the output.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
pub enum LineEnding {
    /// `\r` alone, as TRF Remark 1 literally says.
    Cr,
    /// `\n`.
    Lf,
    /// `\r\n`: read correctly both by CR-only and LF-only readers. The default (ADR trf-001).
    #[default]
    CrLf,
}

impl LineEnding {
    fn as_str(self) -> &'static str {
        match self {
            LineEnding::Cr => "\r",
            LineEnding::Lf => "\n",
            LineEnding::CrLf => "\r\n",
        }
    }
}

/// Options of [`write_with`].
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
pub struct WriteOptions {
    /// TRF edition.
    pub version: TrfVersion,
    /// Line terminator (every line, the last one included, is terminated).
    pub line_ending: LineEnding,
}

/// Writes the document in canonical form, UTF-8, CRLF line ends.
///
/// Lossless: `parse(write(doc))` gives back `doc` for every document `parse` produced
/// (TRF26 mode). Lines that did not follow the canonical layout are written as they were read
/// as long as their typed record was not changed.
pub fn write(doc: &TrfDocument, version: TrfVersion) -> String {
    write_with(
        doc,
        &WriteOptions {
            version,
            line_ending: LineEnding::CrLf,
        },
    )
}

/// Writes the document with explicit options.
///
/// In [`TrfVersion::Trf16`] mode the TRF26-only records (comments, `142`–`222` except as
/// below, `352`, `362`, NRS, `240`–`330`) are left out, and, when the document has no
/// JaVaFo equivalent already, `142 n` is written as `XXR n`, `152 W|B` as `XXC white1|black1`,
/// and each `310` team as a `013` team.
pub fn write_with(doc: &TrfDocument, options: &WriteOptions) -> String {
    let eol = options.line_ending.as_str();
    let mut out = String::new();
    let has = |pred: fn(&Record) -> bool| doc.records().any(pred);
    let has_xxr = has(|r| matches!(r, Record::XxRounds(_)));
    let has_xxc = has(|r| matches!(r, Record::XxColour(_)));
    let has_013 = has(|r| matches!(r, Record::Team013(_)));
    for line in &doc.lines {
        let text = match options.version {
            TrfVersion::Trf26 => line_text(&line.record, line.verbatim.as_deref()),
            TrfVersion::Trf16 => {
                if !line.record.is_trf26_only() {
                    line_text(&line.record, line.verbatim.as_deref())
                } else {
                    match trf16_equivalent(&line.record, has_xxr, has_xxc, has_013) {
                        Some(r) => render_record(&r),
                        None => continue,
                    }
                }
            }
        };
        out.push_str(&text);
        out.push_str(eol);
    }
    out
}

fn line_text(record: &Record, verbatim: Option<&str>) -> String {
    if let Some(v) = verbatim
        && parse_record(v).0 == *record
    {
        return v.to_string();
    }
    render_record(record)
}

fn trf16_equivalent(
    record: &Record,
    has_xxr: bool,
    has_xxc: bool,
    has_013: bool,
) -> Option<Record> {
    match record {
        Record::NumberOfRounds(n) if !has_xxr => Some(Record::XxRounds(n.clone())),
        Record::InitialColour(Field::Value(c)) if !has_xxc => {
            Some(Record::XxColour(vec![match c {
                InitialColour::White => XxcOption::White1,
                InitialColour::Black => XxcOption::Black1,
            }]))
        }
        Record::Team(t) if !has_013 => Some(Record::Team013(Team013Record {
            name: t.name.clone(),
            members: t.members.clone(),
        })),
        _ => None,
    }
}
