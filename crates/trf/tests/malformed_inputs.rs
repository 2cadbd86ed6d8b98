//! Malformed inputs still import, and every problem is reported with line:column
//! (`parse_and_validate` = reading findings + validation findings).

use trf::*;

const GOOD_1: &str = "001    1 m    Doe, John                         2100 IRL     1234567 1980/01/02  1.0    1     2 w 1";
const GOOD_2: &str = "001    2 w    Roe, Jane                         2000 IRL     7654321 1990/03/04  0.0    2     1 b 0";

fn check(text: &str) -> Parsed {
    parse_and_validate(text.as_bytes()).expect("still imports")
}

fn has(p: &Parsed, line: usize, column: usize, needle: &str) -> bool {
    p.findings
        .iter()
        .any(|f| f.line == line && f.column == column && f.message.contains(needle))
}

#[test]
fn truncated_line() {
    // The line stops right after the round-1 opponent number (column 95).
    let cut = &GOOD_2[..95];
    let p = check(&format!("012 T\n{GOOD_1}\n{cut}\n"));
    assert!(has(&p, 3, 96, "cut short"), "{:#?}", p.findings);
    // …and the colours are no longer symmetric (player 1's colour column, 97).
    assert!(has(&p, 2, 97, "asymmetric colours"), "{:#?}", p.findings);
    assert_eq!(p.doc.players().count(), 2);
}

#[test]
fn letters_in_the_rating_column() {
    let bad = GOOD_2.replace("2000", "2OOO");
    let p = check(&format!("012 T\n{GOOD_1}\n{bad}\n"));
    assert!(
        has(&p, 3, 49, "letters in the rating column: '2OOO'"),
        "{:#?}",
        p.findings
    );
    assert_eq!(
        p.doc.player(2).expect("imported").rating,
        Field::Invalid("2OOO".into())
    );
    // Written back unchanged.
    assert!(write(&p.doc, TrfVersion::Trf26).contains("2OOO"));
}

#[test]
fn round_block_past_column_9999() {
    let mut line = GOOD_1[..89].to_string();
    for r in 0..995 {
        line.push_str(if r == 0 { "     2 w 1" } else { "  0000 - Z" });
    }
    let p = check(&format!("012 T\n{line}\n{GOOD_2}\n"));
    assert!(
        has(&p, 2, 10_002, "past column 9999"),
        "{:#?}",
        p.findings
            .iter()
            .filter(|f| f.line == 2)
            .collect::<Vec<_>>()
    );
}

#[test]
fn unknown_result_code() {
    let bad = GOOD_2.replace("1 b 0", "1 b ?");
    let p = check(&format!("012 T\n{GOOD_1}\n{bad}\n"));
    assert!(
        has(&p, 3, 99, "unknown result code '?'"),
        "{:#?}",
        p.findings
    );
    let r = &p.doc.player(2).expect("p2").rounds[0];
    assert_eq!(r.result, ResultCode::Unknown('?'));
}

#[test]
fn garbage_in_a_separator_column_is_kept_and_reported() {
    let mut chars: Vec<char> = GOOD_2.chars().collect();
    chars[47] = '#'; // column 48, between name and rating
    let bad: String = chars.into_iter().collect();
    let p = check(&format!("012 T\n{GOOD_1}\n{bad}\n"));
    assert!(has(&p, 3, 48, "separator column 48"), "{:#?}", p.findings);
    assert_eq!(p.doc.lines[2].verbatim.as_deref(), Some(bad.as_str()));
    assert_eq!(
        write(&p.doc, TrfVersion::Trf26).lines().nth(2),
        Some(bad.as_str())
    );
}

#[test]
fn unknown_records_are_kept() {
    let p = check("012 T\nDAT 0001 EMAIL x@y\n801  1 IND   15 28.0\nXXW 5\n");
    assert!(matches!(&p.doc.lines[1].record, Record::Other(t) if t == "DAT 0001 EMAIL x@y"));
    assert!(has(&p, 2, 1, "unknown record type"));
    assert_eq!(
        write(&p.doc, TrfVersion::Trf26),
        "012 T\r\nDAT 0001 EMAIL x@y\r\n801  1 IND   15 28.0\r\nXXW 5\r\n"
    );
}

#[test]
fn hopeless_input_is_an_error() {
    assert_eq!(parse(b""), Err(TrfError::Empty));
    assert!(matches!(
        parse(b"hello world\nthis is not a tournament\n"),
        Err(TrfError::NotTrf { lines: 2 })
    ));
}

#[test]
fn edited_records_are_written_canonically_not_verbatim() {
    // Zero-padded rating (as Swiss-Manager writes it) is not canonical: kept verbatim...
    let src = GOOD_2.replace("2000", "0951");
    let mut p = parse(format!("012 T\n{GOOD_1}\n{src}\n").as_bytes()).expect("parse");
    assert_eq!(p.doc.lines[2].verbatim.as_deref(), Some(src.as_str()));
    assert_eq!(
        write(&p.doc, TrfVersion::Trf26).lines().nth(2),
        Some(src.as_str())
    );
    // ...until the record changes: then the typed fields are written.
    for pl in p.doc.players_mut() {
        if pl.tpn() == Some(2) {
            pl.points = Field::Value(Score::HALF);
        }
    }
    let out = write(&p.doc, TrfVersion::Trf26);
    let line = out.lines().nth(2).expect("line 3");
    assert!(line.contains(" 951 ") && line.contains(" 0.5 "), "{line}");
}

#[test]
fn trf16_output_converts_or_leaves_out_trf26_records() {
    let text = "### comment\n012 T\n142 9\n152 B\n192 FIDE_DUTCH_2026\n240 H   3    1\n\
310   1 Team One                         ONE     2100    0.0    0.0   1     1    2\n";
    let p = parse(text.as_bytes()).expect("parse");
    let out = write_with(
        &p.doc,
        &WriteOptions {
            version: TrfVersion::Trf16,
            line_ending: LineEnding::Lf,
        },
    );
    assert_eq!(
        out,
        "012 T\nXXR 9\nXXC black1\n013 Team One                           1    2\n"
    );
    // TRF26 keeps everything.
    let all = write_with(
        &p.doc,
        &WriteOptions {
            version: TrfVersion::Trf26,
            line_ending: LineEnding::Lf,
        },
    );
    assert_eq!(all, text);
}

#[test]
fn oversized_input_is_refused() {
    let big = vec![b' '; MAX_INPUT_BYTES + 1];
    assert_eq!(
        parse(&big),
        Err(TrfError::TooLarge {
            bytes: MAX_INPUT_BYTES + 1,
            limit: MAX_INPUT_BYTES
        })
    );
}

#[test]
fn line_breaks_in_caller_built_text_cannot_split_a_line() {
    let mut doc = TrfDocument::new();
    doc.push(Record::Header(HeaderRecord {
        kind: HeaderKind::TournamentName,
        value: "A\nB".into(),
    }));
    doc.push(Record::Player(PlayerRecord::new(1, "Doe,\r\nJohn")));
    let out = write(&doc, TrfVersion::Trf26);
    assert_eq!(out.matches("\r\n").count(), 2, "{out:?}");
    assert_eq!(parse(out.as_bytes()).expect("parse").doc.lines.len(), 2);
}
