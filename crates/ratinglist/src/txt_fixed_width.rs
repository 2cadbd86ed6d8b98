//! FIDE download TXT files: fixed-width columns located from the header line.
//!
//! Layouts met in FIDE downloads (all located from the header, never hard-coded offsets, so
//! that any re-spacing or re-ordering of columns by FIDE is followed):
//! - [`TxtLayout::CombinedFoa`], `players_list_foa.txt` (current, 162 characters):
//!   `ID Number  Name  Fed Sex Tit WTit OTit FOA SRtng SGm SK RRtng RGm Rk BRtng BGm BK B-day Flag`;
//! - [`TxtLayout::CombinedLegacy`], `players_list.txt` without the FOA column (158 characters);
//! - [`TxtLayout::SingleList`], `standard_xxx.txt` / `rapid_…` / `blitz_…`: one rating whose
//!   header is the month code (`OCT26`), then `Gms`, `K`, `B-day`, `Flag`.
//!
//! A column spans from the first character of its header label to the first character of
//! the next label (the last column runs to the end of the line); values are trimmed.

use std::io::BufRead;

use crate::error::ListError;
use crate::fields::{self, APPLY_ORDER, Field};
use crate::input::{Input, MAX_ITEM_BYTES, decode};
use crate::player::{ListPlayer, RatingKind};
use crate::reader::ReadOptions;

/// A known TXT layout (used by the writer, and reported by the reader when the header is
/// one of them).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub enum TxtLayout {
    /// `players_list_foa.txt`: the combined list with the FOA column (current; default).
    #[default]
    CombinedFoa,
    /// `players_list.txt`: the combined list before the FOA column was added.
    CombinedLegacy,
    /// A single-list file (`standard_oct26frl.txt`…): one rating column headed by the month
    /// code.
    SingleList {
        /// Which rating the file holds (the file name says it; the header does not).
        kind: RatingKind,
        /// Month code as in the header, three letters and two digits (`OCT26`).
        month: String,
    },
}

impl TxtLayout {
    /// The canonical columns of this layout: (field, header label, 0-based start column),
    /// and the full line width.
    pub fn columns(&self) -> (Vec<(Field, String, u32)>, u32) {
        let front: [(Field, &str, u32); 7] = [
            (Field::FideId, "ID Number", 0),
            (Field::Name, "Name", 15),
            (Field::Federation, "Fed", 76),
            (Field::Sex, "Sex", 80),
            (Field::Title, "Tit", 84),
            (Field::WomenTitle, "WTit", 89),
            (Field::OtherTitles, "OTit", 94),
        ];
        let mut cols: Vec<(Field, String, u32)> = front
            .iter()
            .map(|&(f, l, s)| (f, l.to_string(), s))
            .collect();
        let combined = |cols: &mut Vec<(Field, String, u32)>, at: u32| {
            let mut at = at;
            for kind in [RatingKind::Standard, RatingKind::Rapid, RatingKind::Blitz] {
                for (field, width) in [
                    (Field::Rating(kind), 6),
                    (Field::Games(kind), 4),
                    (Field::K(kind), 3),
                ] {
                    cols.push((field, field.txt_name().to_string(), at));
                    at += width;
                }
            }
            at
        };
        let width = match self {
            TxtLayout::CombinedFoa => {
                cols.push((Field::Foa, "FOA".into(), 109));
                let at = combined(&mut cols, 113);
                cols.push((Field::BirthYear, "B-day".into(), at));
                cols.push((Field::Flags, "Flag".into(), at + 6));
                at + 10
            }
            TxtLayout::CombinedLegacy => {
                let at = combined(&mut cols, 109);
                cols.push((Field::BirthYear, "B-day".into(), at));
                cols.push((Field::Flags, "Flag".into(), at + 6));
                at + 10
            }
            TxtLayout::SingleList { kind, month } => {
                cols.push((Field::Foa, "FOA".into(), 109));
                cols.push((Field::Rating(*kind), month.clone(), 113));
                cols.push((Field::Games(*kind), "Gms".into(), 119));
                cols.push((Field::K(*kind), "K".into(), 123));
                cols.push((Field::BirthYear, "B-day".into(), 126));
                cols.push((Field::Flags, "Flag".into(), 132));
                136
            }
        };
        (cols, width)
    }
}

/// One column found in a header line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TxtColumn {
    /// The label as written in the header.
    pub label: String,
    /// What the column holds; `None` for a label this crate does not know (ignored).
    pub field: Option<Field>,
    /// 0-based first character.
    pub start: u32,
    /// 0-based end (exclusive); `None` for the last column (to the end of the line).
    pub end: Option<u32>,
}

/// The columns of a TXT file, located from its header line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TxtHeader {
    columns: Vec<TxtColumn>,
    layout: Option<TxtLayout>,
    /// Length of the header line in characters (lines longer than this may carry an OTit
    /// overflow, ADR ratinglist-003).
    width: u32,
    /// Minimum line length for a record not to be truncated (ADR ratinglist-001).
    min_len: u32,
    /// Index of the OTit column, if any.
    other_titles: Option<usize>,
}

fn is_month_code(label: &str) -> bool {
    let b = label.as_bytes();
    b.len() == 5
        && b[..3].iter().all(u8::is_ascii_alphabetic)
        && b[3..].iter().all(u8::is_ascii_digit)
}

fn field_for_label(label: &str, plain: RatingKind) -> Option<Field> {
    use RatingKind::*;
    let l = label.to_ascii_lowercase();
    Some(match l.as_str() {
        "id number" | "id" | "id no" | "id nr" | "fide id" | "fideid" | "id_number" | "id_no" => {
            Field::FideId
        }
        "name" => Field::Name,
        "fed" | "federation" | "country" => Field::Federation,
        "sex" | "gender" => Field::Sex,
        "tit" | "title" => Field::Title,
        "wtit" => Field::WomenTitle,
        "otit" => Field::OtherTitles,
        "foa" => Field::Foa,
        "srtng" => Field::Rating(Standard),
        "sgm" => Field::Games(Standard),
        "sk" => Field::K(Standard),
        "rrtng" => Field::Rating(Rapid),
        "rgm" => Field::Games(Rapid),
        "rk" => Field::K(Rapid),
        "brtng" => Field::Rating(Blitz),
        "bgm" => Field::Games(Blitz),
        "bk" => Field::K(Blitz),
        "gms" | "gm" | "games" => Field::Games(plain),
        "k" => Field::K(plain),
        "rating" | "rtng" => Field::Rating(plain),
        "b-day" | "bday" | "born" | "b-year" | "byear" => Field::BirthYear,
        "flag" | "flags" => Field::Flags,
        _ if is_month_code(label) => Field::Rating(plain),
        _ => return None,
    })
}

impl TxtHeader {
    /// Locates the columns of a header line. `plain` is the list that an unqualified rating
    /// column (month code, `Gms`, `K`) belongs to.
    pub fn parse(line: &str, plain: RatingKind) -> Result<TxtHeader, String> {
        let line = line.trim_end_matches(['\r', '\n']);
        let chars: Vec<char> = line.chars().collect();
        // Tokens: maximal runs of non-blank characters, with their character starts.
        let mut tokens: Vec<(String, u32)> = Vec::new();
        let mut i = 0;
        while i < chars.len() {
            if chars[i].is_whitespace() {
                i += 1;
                continue;
            }
            let start = i;
            while i < chars.len() && !chars[i].is_whitespace() {
                i += 1;
            }
            tokens.push((chars[start..i].iter().collect(), start as u32));
        }
        // "ID Number" (and "ID No", "FIDE ID") are one label in two words.
        let mut labels: Vec<(String, u32)> = Vec::new();
        for (tok, start) in tokens {
            if let Some((prev, _)) = labels.last_mut() {
                let p = prev.to_ascii_lowercase();
                let t = tok.to_ascii_lowercase();
                if (p == "id" && matches!(t.as_str(), "number" | "no" | "nr"))
                    || (p == "fide" && t == "id")
                {
                    prev.push(' ');
                    prev.push_str(&tok);
                    continue;
                }
            }
            labels.push((tok, start));
        }
        let mut columns: Vec<TxtColumn> = labels
            .iter()
            .map(|(label, start)| TxtColumn {
                label: label.clone(),
                field: field_for_label(label, plain),
                start: *start,
                end: None,
            })
            .collect();
        for i in 0..columns.len().saturating_sub(1) {
            columns[i].end = Some(columns[i + 1].start);
        }
        let has = |f: Field| columns.iter().any(|c| c.field == Some(f));
        if !has(Field::FideId) {
            return Err("no `ID Number` column".into());
        }
        if !has(Field::Name) {
            return Err("no `Name` column".into());
        }
        let labels_lower: Vec<String> = columns
            .iter()
            .map(|c| c.label.to_ascii_lowercase())
            .collect();
        let month = columns.iter().find(|c| is_month_code(&c.label));
        let layout = if labels_lower.iter().any(|l| l == "srtng") {
            if has(Field::Foa) {
                Some(TxtLayout::CombinedFoa)
            } else {
                Some(TxtLayout::CombinedLegacy)
            }
        } else {
            month.map(|m| TxtLayout::SingleList {
                kind: plain,
                month: m.label.clone(),
            })
        };
        // A record must reach the last column before the flags (ADR ratinglist-001).
        let last_data = columns
            .iter()
            .rev()
            .find(|c| c.field != Some(Field::Flags))
            .map(|c| c.start + 1)
            .unwrap_or(1);
        let other_titles = columns
            .iter()
            .position(|c| c.field == Some(Field::OtherTitles));
        Ok(TxtHeader {
            columns,
            layout,
            width: chars.len() as u32,
            min_len: last_data,
            other_titles,
        })
    }

    /// The columns, in header order.
    pub fn columns(&self) -> &[TxtColumn] {
        &self.columns
    }

    /// The known layout this header is, if any.
    pub fn layout(&self) -> Option<&TxtLayout> {
        self.layout.as_ref()
    }
}

/// Streaming reader of a TXT list (after the header).
#[derive(Debug)]
pub struct TxtReader<R> {
    pub(crate) input: Input<R>,
    header: TxtHeader,
    raw: Vec<u8>,
    scratch: String,
    char_starts: Vec<usize>,
    finished: bool,
}

/// Character-indexed view of one line.
struct Line<'a> {
    text: &'a str,
    /// Byte offset of each character, plus the text length at the end; empty when ASCII.
    starts: &'a [usize],
    chars: u32,
}

impl Line<'_> {
    fn byte(&self, char_index: u32) -> usize {
        if self.starts.is_empty() {
            (char_index as usize).min(self.text.len())
        } else {
            self.starts[(char_index.min(self.chars)) as usize]
        }
    }

    fn slice(&self, start: u32, end: Option<u32>) -> &str {
        let end = end.unwrap_or(self.chars).min(self.chars);
        if start >= end {
            return "";
        }
        &self.text[self.byte(start)..self.byte(end)]
    }

    fn is_blank_at(&self, char_index: u32) -> bool {
        if char_index >= self.chars {
            return true;
        }
        self.slice(char_index, Some(char_index + 1))
            .chars()
            .all(char::is_whitespace)
    }
}

impl<R: BufRead> TxtReader<R> {
    /// Reads the header line and prepares to read records.
    pub(crate) fn start(mut input: Input<R>, options: &ReadOptions) -> Result<Self, ListError> {
        let mut raw = Vec::new();
        let line = input.line;
        let input_column_at_start = input.column;
        let outcome = input
            .read_until(b'\n', &mut raw, MAX_ITEM_BYTES)
            .map_err(|e| ListError::io(line, &e))?;
        if outcome.consumed == 0 {
            return Err(ListError::EmptyInput);
        }
        // Leading blanks of the header line were consumed by format detection: put them back
        // so that header columns line up with the records.
        let indent = (input_column_at_start - 1) as usize;
        let mut scratch = String::new();
        let text = decode(&raw, &mut scratch);
        let text = format!("{}{}", " ".repeat(indent), text);
        let header = TxtHeader::parse(&text, options.plain_rating_kind)
            .map_err(|reason| ListError::Header { line, reason })?;
        Ok(TxtReader {
            input,
            header,
            raw,
            scratch,
            char_starts: Vec::new(),
            finished: false,
        })
    }

    /// The header this reader located its columns from.
    pub fn header(&self) -> &TxtHeader {
        &self.header
    }

    /// Bytes consumed from the underlying reader so far.
    pub fn bytes_consumed(&self) -> u64 {
        self.input.bytes
    }

    /// Returns the underlying reader.
    pub fn into_inner(self) -> R {
        self.input.into_inner()
    }
}

fn parse_record(
    header: &TxtHeader,
    line: &Line<'_>,
    line_no: u64,
) -> Result<ListPlayer, ListError> {
    if line.chars < header.min_len {
        let field = header
            .columns
            .iter()
            .find(|c| c.start >= line.chars)
            .and_then(|c| c.field)
            .map(Field::txt_name)
            .unwrap_or("?");
        return Err(ListError::Truncated {
            line: line_no,
            column: line.chars + 1,
            field,
            length: line.chars,
        });
    }
    // OTit overflow (ADR ratinglist-003): text runs over the OTit/next boundary and the
    // line is longer than the header: everything after OTit is shifted right.
    let mut shift = 0u32;
    if let Some(ot) = header.other_titles
        && let Some(end) = header.columns[ot].end
        && line.chars > header.width
        && end > 0
        && !line.is_blank_at(end - 1)
        && !line.is_blank_at(end)
    {
        shift = line.chars - header.width;
    }
    let mut spans: [Option<(u32, Option<u32>)>; Field::COUNT] = [None; Field::COUNT];
    for (i, col) in header.columns.iter().enumerate() {
        let Some(field) = col.field else { continue };
        let after_ot = header.other_titles.is_some_and(|ot| i > ot);
        let is_ot = header.other_titles == Some(i);
        let start = if after_ot {
            col.start + shift
        } else {
            col.start
        };
        let end = match col.end {
            Some(e) if after_ot || is_ot => Some(e + shift),
            e => e,
        };
        if spans[field.index()].is_none() {
            spans[field.index()] = Some((start, end));
        }
    }
    let mut player = ListPlayer::new(0, String::new());
    for field in APPLY_ORDER {
        let (text, start) = match spans[field.index()] {
            Some((s, e)) => (line.slice(s, e), s),
            None if matches!(field, Field::FideId | Field::Name) => ("", 0),
            None => continue,
        };
        fields::apply(&mut player, field, text).map_err(|problem| ListError::Field {
            line: line_no,
            column: start + 1,
            field: field.txt_name(),
            problem,
            found: fields::shown(text),
        })?;
    }
    Ok(player)
}

impl<R: BufRead> Iterator for TxtReader<R> {
    type Item = Result<ListPlayer, ListError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if self.finished {
                return None;
            }
            self.raw.clear();
            let line_no = self.input.line;
            let outcome = match self.input.read_until(b'\n', &mut self.raw, MAX_ITEM_BYTES) {
                Ok(o) => o,
                Err(e) => {
                    self.finished = true;
                    return Some(Err(ListError::io(line_no, &e)));
                }
            };
            if outcome.consumed == 0 {
                self.finished = true;
                return None;
            }
            if outcome.overflow {
                return Some(Err(ListError::TooLong {
                    line: line_no,
                    column: 1,
                    max: MAX_ITEM_BYTES,
                }));
            }
            let text = decode(&self.raw, &mut self.scratch);
            let text = text.trim_end_matches(['\r', '\n']);
            // Blank lines and a DOS end-of-file mark are not records.
            if text.chars().all(|c| c.is_whitespace() || c == '\u{1a}') {
                continue;
            }
            self.char_starts.clear();
            let chars = if text.is_ascii() {
                text.len() as u32
            } else {
                self.char_starts.extend(text.char_indices().map(|(i, _)| i));
                self.char_starts.push(text.len());
                (self.char_starts.len() - 1) as u32
            };
            let line = Line {
                text,
                starts: &self.char_starts,
                chars,
            };
            return Some(parse_record(&self.header, &line, line_no));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FOA_HEADER: &str = "ID Number      Name                                                         Fed Sex Tit  WTit OTit           FOA SRtng SGm SK RRtng RGm Rk BRtng BGm BK B-day Flag";

    #[test]
    fn current_header_is_the_canonical_foa_layout() {
        let h = TxtHeader::parse(FOA_HEADER, RatingKind::Standard).unwrap();
        assert_eq!(h.layout(), Some(&TxtLayout::CombinedFoa));
        let (canon, width) = TxtLayout::CombinedFoa.columns();
        assert_eq!(width, 162);
        assert_eq!(h.width, 162);
        let found: Vec<(Option<Field>, u32)> =
            h.columns().iter().map(|c| (c.field, c.start)).collect();
        let expected: Vec<(Option<Field>, u32)> =
            canon.iter().map(|(f, _, s)| (Some(*f), *s)).collect();
        assert_eq!(found, expected);
    }

    #[test]
    fn header_without_id_is_rejected() {
        assert!(TxtHeader::parse("Name Fed", RatingKind::Standard).is_err());
        assert!(TxtHeader::parse("ID Number Fed", RatingKind::Standard).is_err());
    }
}
