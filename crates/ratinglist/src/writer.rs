//! Writers for both FIDE formats (tests, benchmarks and exports). The output reads back to
//! the same players with [`crate::read_list`].
//!
//! TXT: header line then one fixed-width line per player, values left-aligned at the first
//! character of their column as in the FIDE files, CRLF line ends as FIDE publishes them.
//! A player without a rating in a list is written `0` (rating, games and K), an unknown
//! birth year `0` (as FIDE does). XML: one `<player>` per line inside `<playerslist>`, every
//! element written (empty when blank).

use std::borrow::Borrow;
use std::fmt::Write as _;
use std::io::Write;

use crate::error::WriteError;
use crate::fields::Field;
use crate::player::{ListPlayer, RatingKind};
use crate::txt_fixed_width::TxtLayout;

/// Character encoding of written files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TextEncoding {
    /// UTF-8 (default).
    #[default]
    Utf8,
    /// ISO 8859-1, one byte per character (characters above U+00FF are refused).
    Latin1,
}

/// The XML variant to write.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum XmlLayout {
    /// `players_list_xml_foa.xml`: standard as `<rating>…`, then `<rapid_…>`, `<blitz_…>`.
    #[default]
    Combined,
    /// A single-list file: one list as `<rating>`, `<games>`, `<k>`.
    SingleList(RatingKind),
}

fn field_text(player: &ListPlayer, field: Field) -> String {
    let entry = |kind: RatingKind| player.rating(kind).copied();
    match field {
        Field::FideId => player.fide_id.to_string(),
        Field::Name => player.name.clone(),
        Field::Federation => player.federation.clone(),
        Field::Sex => player.sex.map(|s| s.code().to_string()).unwrap_or_default(),
        Field::Title => player
            .title
            .map(|t| t.code().to_string())
            .unwrap_or_default(),
        Field::WomenTitle => player
            .women_title
            .map(|t| t.code().to_string())
            .unwrap_or_default(),
        Field::OtherTitles => player.other_titles.join(","),
        Field::Foa => player.foa_title.clone().unwrap_or_default(),
        Field::Rating(kind) => entry(kind).map_or(0, |e| e.rating).to_string(),
        Field::Games(kind) => entry(kind).map_or(0, |e| e.games).to_string(),
        Field::K(kind) => entry(kind).and_then(|e| e.k).unwrap_or(0).to_string(),
        Field::BirthYear => player.birth_year.unwrap_or(0).to_string(),
        Field::Flags => player.flags.code(),
    }
}

fn encode(
    text: &str,
    encoding: TextEncoding,
    out: &mut Vec<u8>,
    fide_id: u32,
    field: &'static str,
) -> Result<(), WriteError> {
    match encoding {
        TextEncoding::Utf8 => out.extend_from_slice(text.as_bytes()),
        TextEncoding::Latin1 => {
            for c in text.chars() {
                let b = u8::try_from(u32::from(c)).map_err(|_| WriteError::Unrepresentable {
                    fide_id,
                    field,
                    character: c,
                })?;
                out.push(b);
            }
        }
    }
    Ok(())
}

fn is_month_code(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 5
        && b[..3].iter().all(u8::is_ascii_alphabetic)
        && b[3..].iter().all(u8::is_ascii_digit)
}

/// Writes a TXT list in `layout`; returns the number of players written.
pub fn write_txt<W, I, P>(
    mut out: W,
    players: I,
    layout: &TxtLayout,
    encoding: TextEncoding,
) -> Result<u64, WriteError>
where
    W: Write,
    I: IntoIterator<Item = P>,
    P: Borrow<ListPlayer>,
{
    if let TxtLayout::SingleList { month, .. } = layout
        && !is_month_code(month)
    {
        return Err(WriteError::BadMonthCode(month.clone()));
    }
    let (columns, width) = layout.columns();
    let widths: Vec<usize> = (0..columns.len())
        .map(|i| {
            let end = columns.get(i + 1).map_or(width, |c| c.2);
            (end - columns[i].2) as usize
        })
        .collect();
    let mut line = String::with_capacity(width as usize + 2);
    for (_, label, start) in &columns {
        while line.len() < *start as usize {
            line.push(' ');
        }
        line.push_str(label);
    }
    line.push_str("\r\n");
    out.write_all(line.as_bytes())?;
    let mut bytes = Vec::with_capacity(width as usize * 2);
    let mut count = 0;
    for p in players {
        let p = p.borrow();
        line.clear();
        let mut chars = 0usize;
        for ((field, _, start), w) in columns.iter().zip(&widths) {
            while chars < *start as usize {
                line.push(' ');
                chars += 1;
            }
            let text = field_text(p, *field);
            if let Some(c) = text.chars().find(|c| c.is_control()) {
                return Err(WriteError::Unrepresentable {
                    fide_id: p.fide_id,
                    field: field.txt_name(),
                    character: c,
                });
            }
            let n = text.chars().count();
            if n > *w {
                return Err(WriteError::FieldTooWide {
                    fide_id: p.fide_id,
                    field: field.txt_name(),
                    value: text,
                    width: *w,
                });
            }
            line.push_str(&text);
            chars += n;
        }
        while chars < width as usize {
            line.push(' ');
            chars += 1;
        }
        line.push_str("\r\n");
        bytes.clear();
        encode(&line, encoding, &mut bytes, p.fide_id, "line")?;
        out.write_all(&bytes)?;
        count += 1;
    }
    out.flush()?;
    Ok(count)
}

fn escape_into(text: &str, out: &mut String) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            c => out.push(c),
        }
    }
}

/// Writes an XML list; returns the number of players written.
pub fn write_xml<W, I, P>(
    mut out: W,
    players: I,
    layout: XmlLayout,
    encoding: TextEncoding,
) -> Result<u64, WriteError>
where
    W: Write,
    I: IntoIterator<Item = P>,
    P: Borrow<ListPlayer>,
{
    use RatingKind::*;
    let mut fields: Vec<(Field, &'static str)> = [
        Field::FideId,
        Field::Name,
        Field::Federation,
        Field::Sex,
        Field::Title,
        Field::WomenTitle,
        Field::OtherTitles,
        Field::Foa,
    ]
    .iter()
    .map(|f| (*f, f.xml_name()))
    .collect();
    match layout {
        XmlLayout::Combined => {
            for kind in [Standard, Rapid, Blitz] {
                for f in [Field::Rating(kind), Field::Games(kind), Field::K(kind)] {
                    fields.push((f, f.xml_name()));
                }
            }
        }
        XmlLayout::SingleList(kind) => {
            fields.push((Field::Rating(kind), "rating"));
            fields.push((Field::Games(kind), "games"));
            fields.push((Field::K(kind), "k"));
        }
    }
    fields.push((Field::BirthYear, "birthday"));
    fields.push((Field::Flags, "flag"));

    if encoding == TextEncoding::Latin1 {
        out.write_all(b"<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n")?;
    }
    out.write_all(b"<playerslist>\n")?;
    let mut s = String::new();
    let mut bytes = Vec::new();
    let mut count = 0;
    for p in players {
        let p = p.borrow();
        s.clear();
        s.push_str("<player>");
        for (field, element) in &fields {
            let _ = write!(s, "<{element}>");
            escape_into(&field_text(p, *field), &mut s);
            let _ = write!(s, "</{element}>");
        }
        s.push_str("</player>\n");
        bytes.clear();
        encode(&s, encoding, &mut bytes, p.fide_id, "player")?;
        out.write_all(&bytes)?;
        count += 1;
    }
    out.write_all(b"</playerslist>\n")?;
    out.flush()?;
    Ok(count)
}
