//! Bad input: every error says line:column and field, and reading goes on.

use ratinglist::{FieldProblem, ListError, MAX_ITEM_BYTES, Title, read_list};

const FOA_HEADER: &str = "ID Number      Name                                                         Fed Sex Tit  WTit OTit           FOA SRtng SGm SK RRtng RGm Rk BRtng BGm BK B-day Flag";

/// Column starts of the current combined layout (0-based).
const COLS: [usize; 19] = [
    0, 15, 76, 80, 84, 89, 94, 109, 113, 119, 123, 126, 132, 136, 139, 145, 149, 152, 158,
];

/// A fixed-width line of 162 characters, values left-aligned at their column.
fn line(values: [&str; 19]) -> String {
    let mut s = String::new();
    for (start, v) in COLS.iter().zip(values) {
        while s.chars().count() < *start {
            s.push(' ');
        }
        s.push_str(v);
    }
    while s.chars().count() < 162 {
        s.push(' ');
    }
    s
}

fn good(id: &str) -> String {
    line([
        id,
        "Good, Player",
        "FRA",
        "M",
        "",
        "",
        "",
        "",
        "2000",
        "3",
        "20",
        "0",
        "0",
        "0",
        "0",
        "0",
        "0",
        "1980",
        "",
    ])
}

fn txt(lines: &[String]) -> Vec<u8> {
    let mut s = String::from(FOA_HEADER);
    s.push('\n');
    for l in lines {
        s.push_str(l);
        s.push('\n');
    }
    s.into_bytes()
}

#[test]
fn letters_in_a_rating_column_give_line_column_field_and_reading_continues() {
    let bad = line([
        "1503014",
        "Carlsen, Magnus",
        "NOR",
        "M",
        "GM",
        "",
        "",
        "",
        "28x7",
        "0",
        "10",
        "0",
        "0",
        "0",
        "0",
        "0",
        "0",
        "1990",
        "",
    ]);
    let data = txt(&[good("100"), bad, good("101")]);
    let items: Vec<_> = read_list(&data[..]).unwrap().collect();
    assert_eq!(items.len(), 3);
    assert_eq!(items[0].as_ref().unwrap().fide_id, 100);
    assert_eq!(
        items[1],
        Err(ListError::Field {
            line: 3,
            column: 114,
            field: "SRtng",
            problem: FieldProblem::NotANumber,
            found: "28x7".into(),
        })
    );
    assert_eq!(items[2].as_ref().unwrap().fide_id, 101);
    let msg = items[1].as_ref().unwrap_err().to_string();
    assert!(msg.starts_with("line 3:114: field SRtng"), "{msg}");
}

#[test]
fn truncated_line_is_an_error_at_its_end() {
    let data = txt(&["1503014        Carlsen, Magnus".to_string(), good("101")]);
    let items: Vec<_> = read_list(&data[..]).unwrap().collect();
    assert_eq!(
        items[0],
        Err(ListError::Truncated {
            line: 2,
            column: 31,
            field: "Fed",
            length: 30
        })
    );
    assert!(items[1].is_ok());
}

#[test]
fn line_stripped_of_trailing_blanks_after_the_birth_year_is_complete() {
    // ADR ratinglist-001: a line must reach the last column before `Flag`.
    let full = good("100");
    let stripped = full.trim_end().to_string();
    assert!(stripped.chars().count() < 158);
    let data = txt(&[stripped]);
    let p = read_list(&data[..]).unwrap().next().unwrap().unwrap();
    assert_eq!(p.birth_year, Some(1980));
}

#[test]
fn missing_id_unknown_title_bad_sex_out_of_range() {
    let mut no_id = good("100");
    no_id.replace_range(0..3, "   ");
    let bad_title = line([
        "7", "X, Y", "FRA", "M", "XX", "", "", "", "0", "0", "0", "0", "0", "0", "0", "0", "0",
        "0", "",
    ]);
    let bad_sex = line([
        "8", "X, Y", "FRA", "Q", "", "", "", "", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0",
        "",
    ]);
    let big_k = line([
        "9", "X, Y", "FRA", "M", "", "", "", "", "1500", "0", "999", "0", "0", "0", "0", "0", "0",
        "0", "",
    ]);
    let data = txt(&[no_id, bad_title, bad_sex, big_k]);
    let errors: Vec<_> = read_list(&data[..])
        .unwrap()
        .map(|r| r.unwrap_err())
        .map(|e| match e {
            ListError::Field {
                line,
                column,
                field,
                problem,
                ..
            } => (line, column, field, problem),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(
        errors,
        vec![
            (2, 1, "ID Number", FieldProblem::Missing),
            (3, 85, "Tit", FieldProblem::UnknownCode),
            (4, 81, "Sex", FieldProblem::UnknownCode),
            (5, 124, "SK", FieldProblem::OutOfRange),
        ]
    );
}

#[test]
fn non_ascii_names_keep_columns_in_characters_not_bytes() {
    // A UTF-8 name: the columns after it are character positions.
    let l = line([
        "5",
        "Ŝŝ Ǆ Ω, Ä",
        "FRA",
        "F",
        "",
        "WIM",
        "",
        "",
        "2100",
        "0",
        "20",
        "0",
        "0",
        "0",
        "0",
        "0",
        "0",
        "2000",
        "w",
    ]);
    let data = txt(&[l]);
    let p = read_list(&data[..]).unwrap().next().unwrap().unwrap();
    assert_eq!(p.name, "Ŝŝ Ǆ Ω, Ä");
    assert_eq!(p.women_title, Some(Title::WIM));
    assert_eq!(p.standard.unwrap().rating, 2100);
}

#[test]
fn other_titles_overflowing_into_foa_shift_the_rest_of_the_line() {
    // ADR ratinglist-003: FIDE's file has a few 163-character lines where OTit
    // (16 characters) runs into FOA.
    let normal = line([
        "1234567",
        "Arbiter, Busy",
        "ESP",
        "M",
        "",
        "",
        "",
        "",
        "1900",
        "0",
        "20",
        "0",
        "0",
        "0",
        "0",
        "0",
        "0",
        "1970",
        "i",
    ]);
    let l = format!("{}SI,FI,LSI,SLI,NAAFM {}", &normal[..94], &normal[113..]);
    assert_eq!(l.len(), 163);
    let data = txt(&[l]);
    let p = read_list(&data[..]).unwrap().next().unwrap().unwrap();
    assert_eq!(p.other_titles, vec!["SI", "FI", "LSI", "SLI", "NA"]);
    assert_eq!(p.foa_title.as_deref(), Some("AFM"));
    assert_eq!(p.standard.unwrap().rating, 1900);
    assert_eq!(p.birth_year, Some(1970));
    assert!(p.flags.inactive);
}

#[test]
fn overlong_line_is_skipped_with_an_error() {
    let long = "9".repeat(MAX_ITEM_BYTES + 10);
    let data = txt(&[long, good("101")]);
    let items: Vec<_> = read_list(&data[..]).unwrap().collect();
    assert_eq!(
        items[0],
        Err(ListError::TooLong {
            line: 2,
            column: 1,
            max: MAX_ITEM_BYTES
        })
    );
    assert_eq!(items[1].as_ref().unwrap().fide_id, 101);
}

#[test]
fn blank_lines_and_dos_eof_are_not_records() {
    let mut data = txt(&[good("100"), String::new(), "   ".into(), good("101")]);
    data.push(0x1a);
    let items: Vec<_> = read_list(&data[..]).unwrap().collect();
    assert_eq!(items.len(), 2);
    assert!(items.iter().all(Result::is_ok));
}

#[test]
fn not_a_header_and_empty_input() {
    assert_eq!(
        read_list(&b"hello world\n1 2 3\n"[..]).unwrap_err(),
        ListError::Header {
            line: 1,
            reason: "no `ID Number` column".into()
        }
    );
    assert_eq!(
        read_list(&b" \n\t\n"[..]).unwrap_err(),
        ListError::EmptyInput
    );
    assert_eq!(read_list(&b""[..]).unwrap_err(), ListError::EmptyInput);
}

// ---------------------------------------------------------------- XML

fn xml_items(xml: &str) -> Vec<Result<ratinglist::ListPlayer, ListError>> {
    read_list(xml.as_bytes()).unwrap().collect()
}

const OK_PLAYER: &str = "<player><fideid>7</fideid><name>Ok, One</name></player>";

#[test]
fn xml_letters_in_rating_give_position_of_the_text() {
    let xml = format!(
        "<playerslist>\n<player>\n  <fideid>5</fideid><name>A, B</name>\n  <rating>27a0</rating>\n</player>\n{OK_PLAYER}\n</playerslist>\n"
    );
    let items = xml_items(&xml);
    assert_eq!(
        items[0],
        Err(ListError::Field {
            line: 4,
            column: 11,
            field: "rating",
            problem: FieldProblem::NotANumber,
            found: "27a0".into()
        })
    );
    assert_eq!(items[1].as_ref().unwrap().fide_id, 7);
    assert_eq!(items.len(), 2);
}

#[test]
fn xml_mismatched_end_tag_is_reported_once_and_the_next_player_is_read() {
    let xml = format!(
        "<playerslist>\n<player><fideid>5</fideid><name>A, B</nme></player>\n{OK_PLAYER}\n</playerslist>"
    );
    let items = xml_items(&xml);
    assert_eq!(items.len(), 2, "{items:?}");
    match &items[0] {
        Err(ListError::Xml {
            line,
            column,
            problem,
        }) => {
            assert_eq!((*line, *column), (2, 37));
            assert!(problem.contains("</nme>"), "{problem}");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(items[1].as_ref().unwrap().fide_id, 7);
}

#[test]
fn xml_bad_entity_and_malformed_tag() {
    let xml = format!(
        "<playerslist><player><fideid>5</fideid><name>A &foo; B</name></player>\n<player>< fideid>6</fideid></player>\n{OK_PLAYER}</playerslist>"
    );
    let items = xml_items(&xml);
    let errors: Vec<_> = items
        .iter()
        .filter_map(|r| r.as_ref().err())
        .map(|e| (e.line().unwrap(), e.column().unwrap(), e.to_string()))
        .collect();
    assert!(errors[0].2.contains("&foo;"), "{errors:?}");
    assert_eq!((errors[0].0, errors[0].1), (1, 48));
    assert!(errors[1].2.contains("malformed tag"), "{errors:?}");
    assert_eq!((errors[1].0, errors[1].1), (2, 9));
    assert_eq!(items.last().unwrap().as_ref().unwrap().fide_id, 7);
}

#[test]
fn xml_truncated_document() {
    let items = xml_items("<playerslist>\n<player><fideid>5</fideid><name>A, B");
    assert_eq!(items.len(), 1);
    match &items[0] {
        Err(ListError::Xml { line, problem, .. }) => {
            assert_eq!(*line, 2);
            assert!(problem.contains("unexpected end of input"), "{problem}");
        }
        other => panic!("{other:?}"),
    }
    let items = xml_items("<playerslist><player><fideid>5</fideid><name");
    assert!(
        matches!(&items[0], Err(ListError::Xml { problem, .. }) if problem.contains("inside a tag"))
    );
}

#[test]
fn xml_missing_id_is_reported_at_the_player() {
    let items = xml_items("<playerslist>\n  <player><name>A, B</name></player></playerslist>");
    assert_eq!(
        items[0],
        Err(ListError::Field {
            line: 2,
            column: 3,
            field: "fideid",
            problem: FieldProblem::Missing,
            found: String::new()
        })
    );
}

#[test]
fn xml_comments_cdata_declaration_and_attributes() {
    let xml = "<?xml version=\"1.0\"?>\n<!DOCTYPE playerslist>\n<playerslist date=\"2026-11-01\"><!-- a > b --><player id=\"x\"><fideid>5</fideid><name><![CDATA[Smith & <Jones>, A]]></name><country>ENG</country></player></playerslist>";
    let items = xml_items(xml);
    let p = items[0].as_ref().unwrap();
    assert_eq!(p.name, "Smith & <Jones>, A");
    assert_eq!(p.federation, "ENG");
}

#[test]
fn xml_long_comment_is_skipped_and_overlong_field_text_is_one_error() {
    let comment = format!(
        "<!-- {} -> > -- {} --><!--{}-->",
        "licence text ".repeat(1000),
        "y".repeat(5000),
        "z".repeat(5000)
    );
    let long_name = "x".repeat(MAX_ITEM_BYTES + 1);
    let xml = format!(
        "{comment}<playerslist>\n<player><fideid>5</fideid><name>{long_name}</name><country>{long_name}</country></player>\n{OK_PLAYER}</playerslist>"
    );
    let items = xml_items(&xml);
    assert_eq!(
        items.len(),
        2,
        "{:?}",
        items.iter().map(|r| r.as_ref().err()).collect::<Vec<_>>()
    );
    assert_eq!(
        items[0],
        Err(ListError::TooLong {
            line: 2,
            column: 33,
            max: MAX_ITEM_BYTES
        })
    );
    assert_eq!(items[1].as_ref().unwrap().fide_id, 7);
}

#[test]
fn header_with_leading_blanks_keeps_its_columns() {
    // Format detection skips leading whitespace; the header's columns must not move.
    let header = format!("\n\n  ID Number    {}", &FOA_HEADER[15..]);
    assert_eq!(header.trim_start_matches('\n').len(), 162);
    let data = format!("{header}\n{}\n", good("  100"));
    let p = read_list(data.as_bytes()).unwrap().next().unwrap().unwrap();
    assert_eq!(p.fide_id, 100);
    assert_eq!(p.federation, "FRA");
    assert_eq!(p.standard.unwrap().rating, 2000);
}

#[test]
fn incomplete_byte_order_mark_is_an_io_error() {
    match read_list(&b"\xEF\xBBID Number"[..]).unwrap_err() {
        ListError::Io { kind, line, .. } => {
            assert_eq!(kind, std::io::ErrorKind::InvalidData);
            assert_eq!(line, 1);
        }
        other => panic!("{other:?}"),
    }
}
