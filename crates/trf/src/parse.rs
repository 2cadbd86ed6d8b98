//! Reading: bytes → text (UTF-8, or Latin-1 with a warning) → lines (CR, LF or CRLF) → records.

use crate::columns::trim_end_blanks;
use crate::document::{Line, TrfDocument};
use crate::finding::{Finding, Severity, TrfError};
use crate::record::{Record, parse_record, render_record};

/// Inputs larger than this are refused with [`TrfError::TooLarge`] (64 MiB; the largest real
/// TRF files are a few megabytes).
pub const MAX_INPUT_BYTES: usize = 64 * 1024 * 1024;

/// The result of [`parse`]: the document and what was noticed while reading it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Parsed {
    /// The document.
    pub doc: TrfDocument,
    /// Reading findings (encoding, line layout). Semantic checks are [`crate::validate`]'s job.
    pub findings: Vec<Finding>,
}

/// Decodes the input: UTF-8 (a BOM is dropped), else Latin-1 (ISO-8859-1) with a warning.
fn decode(input: &[u8], findings: &mut Vec<Finding>) -> String {
    let (bytes, had_bom) = match input.strip_prefix(&[0xEF, 0xBB, 0xBF]) {
        Some(rest) => (rest, true),
        None => (input, false),
    };
    if had_bom {
        findings.push(Finding::new(
            Severity::Info,
            1,
            1,
            "",
            "UTF-8 byte-order mark removed",
        ));
    }
    match std::str::from_utf8(bytes) {
        Ok(s) => s.to_string(),
        Err(e) => {
            let bad = e.valid_up_to();
            let before = &bytes[..bad];
            let line = 1 + before
                .iter()
                .enumerate()
                .filter(|&(i, &b)| b == b'\n' || (b == b'\r' && before.get(i + 1) != Some(&b'\n')))
                .count();
            let line_start = before
                .iter()
                .rposition(|&b| b == b'\n' || b == b'\r')
                .map_or(0, |i| i + 1);
            let column = 1 + String::from_utf8_lossy(&before[line_start..])
                .chars()
                .count();
            findings.push(Finding::new(
                Severity::Warning,
                line,
                column,
                "",
                format!(
                    "the file is not valid UTF-8 (byte 0x{:02X} at line {line}, column {column}); \
                     it was read as Latin-1 (ISO-8859-1) and will be written as UTF-8",
                    bytes.get(bad).copied().unwrap_or(0)
                ),
            ));
            bytes.iter().map(|&b| char::from(b)).collect()
        }
    }
}

/// Splits text into lines on CR, LF or CRLF. A final terminator does not start a new line.
fn split_lines<'a>(text: &'a str, findings: &mut Vec<Finding>) -> Vec<&'a str> {
    let mut lines = Vec::new();
    let (mut cr, mut lf, mut crlf) = (0usize, 0usize, 0usize);
    let bytes = text.as_bytes();
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\r' => {
                lines.push(&text[start..i]);
                if bytes.get(i + 1) == Some(&b'\n') {
                    crlf += 1;
                    i += 1;
                } else {
                    cr += 1;
                }
                start = i + 1;
            }
            b'\n' => {
                lines.push(&text[start..i]);
                lf += 1;
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    if start < text.len() {
        lines.push(&text[start..]);
    }
    let kinds = usize::from(cr > 0) + usize::from(lf > 0) + usize::from(crlf > 0);
    if kinds > 1 {
        findings.push(Finding::new(
            Severity::Info,
            0,
            0,
            "",
            format!("mixed line endings: {crlf} CRLF, {lf} LF, {cr} CR"),
        ));
    }
    lines
}

/// First column (1-based) where two lines differ.
fn first_difference(a: &str, b: &str) -> usize {
    let mut col = 1;
    let mut ai = a.chars();
    let mut bi = b.chars();
    loop {
        match (ai.next(), bi.next()) {
            (Some(x), Some(y)) if x == y => col += 1,
            (None, None) => return col,
            _ => return col,
        }
    }
}

/// Reads one line into a document line, with its local findings.
pub(crate) fn read_line(raw: &str, line_no: usize, findings: &mut Vec<Finding>) -> Line {
    let (record, notes) = parse_record(raw);
    let code = record.code();
    for n in notes {
        findings.push(Finding::new(
            n.severity,
            line_no,
            n.column,
            code.clone(),
            n.message,
        ));
    }
    let trimmed = trim_end_blanks(raw);
    let canonical = render_record(&record);
    let verbatim = if canonical == trimmed {
        None
    } else {
        findings.push(Finding::new(
            Severity::Info,
            line_no,
            first_difference(&canonical, trimmed),
            code.clone(),
            "the line does not follow the canonical column layout from this column on; it is kept as written",
        ));
        Some(trimmed.to_string())
    };
    if let Record::Other(_) = &record {
        findings.push(Finding::new(
            Severity::Info,
            line_no,
            1,
            code,
            "unknown record type: the line is kept as written",
        ));
    }
    Line { record, verbatim }
}

/// Reads a TRF file (TRF16, TRF26, with JaVaFo/bbpPairings extensions).
///
/// Accepts CR, LF or CRLF line ends, UTF-8 or Latin-1. Only hopeless input is an error: empty
/// input, input with no TRF record at all, or input larger than [`MAX_INPUT_BYTES`]. Anything
/// else parses, every line is kept (unknown ones as [`Record::Other`]), and reading problems are
/// returned as findings. Run [`crate::validate`] for the semantic checks.
pub fn parse(input: &[u8]) -> Result<Parsed, TrfError> {
    if input.len() > MAX_INPUT_BYTES {
        return Err(TrfError::TooLarge {
            bytes: input.len(),
            limit: MAX_INPUT_BYTES,
        });
    }
    let mut findings = Vec::new();
    let text = decode(input, &mut findings);
    let raw_lines = split_lines(&text, &mut findings);
    let mut doc = TrfDocument {
        lines: Vec::with_capacity(raw_lines.len()),
    };
    for (i, raw) in raw_lines.iter().enumerate() {
        doc.lines.push(read_line(raw, i + 1, &mut findings));
    }
    let non_blank = doc
        .records()
        .filter(|r| !matches!(r, Record::Empty))
        .count();
    if non_blank == 0 {
        return Err(TrfError::Empty);
    }
    let known = doc
        .records()
        .filter(|r| !matches!(r, Record::Empty | Record::Other(_) | Record::Comment(_)))
        .count();
    if known == 0 {
        return Err(TrfError::NotTrf { lines: non_blank });
    }
    Ok(Parsed { doc, findings })
}

/// [`parse`] followed by [`crate::validate`]: all findings, reading ones first.
pub fn parse_and_validate(input: &[u8]) -> Result<Parsed, TrfError> {
    let mut parsed = parse(input)?;
    let more = crate::validate::validate(&parsed.doc);
    parsed.findings.extend(more);
    Ok(parsed)
}
