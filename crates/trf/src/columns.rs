//! Fixed-column reading and writing. Columns are 1-based and inclusive, as in the FIDE tables,
//! and count characters (not bytes), so UTF-8 names (Greek, Cyrillic…) keep their alignment.

use crate::field::Field;
use crate::score::Score;

/// A line split into characters, for reading fixed columns.
pub(crate) struct Cols {
    chars: Vec<char>,
}

impl Cols {
    pub(crate) fn new(line: &str) -> Cols {
        Cols {
            chars: line.chars().collect(),
        }
    }

    /// Number of characters on the line.
    pub(crate) fn len(&self) -> usize {
        self.chars.len()
    }

    /// The character at a 1-based column, or `' '` past the end of the line.
    pub(crate) fn at(&self, col: usize) -> char {
        col.checked_sub(1)
            .and_then(|i| self.chars.get(i))
            .copied()
            .unwrap_or(' ')
    }

    /// Text of columns `from..=to` (1-based), shorter if the line ends earlier.
    pub(crate) fn span(&self, from: usize, to: usize) -> String {
        let start = from.saturating_sub(1).min(self.chars.len());
        let end = to.min(self.chars.len()).max(start);
        self.chars[start..end].iter().collect()
    }

    /// Text from column `from` (1-based) to the end of the line.
    pub(crate) fn rest(&self, from: usize) -> String {
        self.span(from, self.chars.len())
    }

    /// Trimmed text of columns `from..=to`.
    pub(crate) fn text(&self, from: usize, to: usize) -> String {
        self.span(from, to).trim().to_string()
    }

    /// True if columns `from..=to` are all blank (or past the end of the line).
    pub(crate) fn blank(&self, from: usize, to: usize) -> bool {
        self.span(from, to).chars().all(|c| c == ' ')
    }

    /// An unsigned number in columns `from..=to`.
    pub(crate) fn number<T: std::str::FromStr>(&self, from: usize, to: usize) -> Field<T> {
        number_field(&self.text(from, to))
    }

    /// A score (`11.5`) in columns `from..=to`.
    pub(crate) fn score(&self, from: usize, to: usize) -> Field<Score> {
        score_field(&self.text(from, to))
    }

    /// A list of numbers in slots of `width` columns starting at `start`, one slot every
    /// `stride` columns, up to the end of the line. Trailing empty slots are dropped.
    pub(crate) fn number_list(&self, start: usize, width: usize, stride: usize) -> Vec<Field<u16>> {
        let mut out = Vec::new();
        let mut col = start;
        while col <= self.len() {
            out.push(self.number(col, col + width - 1));
            col += stride;
        }
        while out.last().is_some_and(Field::is_empty) {
            out.pop();
        }
        out
    }
}

/// Reads an unsigned number from already-trimmed text.
pub(crate) fn number_field<T: std::str::FromStr>(text: &str) -> Field<T> {
    if text.is_empty() {
        Field::Empty
    } else if text.bytes().all(|b| b.is_ascii_digit()) {
        match text.parse::<T>() {
            Ok(v) => Field::Value(v),
            Err(_) => Field::Invalid(text.to_string()),
        }
    } else {
        Field::Invalid(text.to_string())
    }
}

/// Reads a score from already-trimmed text.
pub(crate) fn score_field(text: &str) -> Field<Score> {
    if text.is_empty() {
        Field::Empty
    } else {
        match Score::parse(text) {
            Some(s) => Field::Value(s),
            None => Field::Invalid(text.to_string()),
        }
    }
}

/// Text of a field for writing.
pub(crate) fn field_text<T: ToString>(f: &Field<T>) -> String {
    match f {
        Field::Empty => String::new(),
        Field::Value(v) => v.to_string(),
        Field::Invalid(s) => s.clone(),
    }
}

/// A line under construction, written by fixed columns.
pub(crate) struct LineBuf {
    chars: Vec<char>,
}

impl LineBuf {
    /// Starts a line with the record code in columns 1–3.
    pub(crate) fn new(code: &str) -> LineBuf {
        let mut b = LineBuf { chars: Vec::new() };
        b.left(1, 3, code);
        b
    }

    fn put(&mut self, col: usize, text: &str) {
        let start = col.saturating_sub(1);
        for (i, c) in text.chars().enumerate() {
            let idx = start + i;
            if self.chars.len() <= idx {
                self.chars.resize(idx + 1, ' ');
            }
            self.chars[idx] = c;
        }
    }

    /// Writes `text` left-aligned in columns `from..=to`. Text longer than the field is written
    /// in full (it runs into the next columns: nothing is silently cut).
    pub(crate) fn left(&mut self, from: usize, _to: usize, text: &str) {
        self.put(from, text);
    }

    /// Writes `text` right-aligned so that it ends at column `to`. Text longer than the field
    /// starts before column `from` (into the separator) rather than being cut.
    pub(crate) fn right(&mut self, _from: usize, to: usize, text: &str) {
        let n = text.chars().count();
        let start = (to + 1).saturating_sub(n).max(1);
        self.put(start, text);
    }

    /// The finished line, without trailing blanks.
    pub(crate) fn finish(mut self) -> String {
        while self.chars.last().is_some_and(|c| *c == ' ') {
            self.chars.pop();
        }
        self.chars.into_iter().collect()
    }
}

/// Trims trailing blanks (space, tab) of a line: they carry no data in TRF.
pub(crate) fn trim_end_blanks(s: &str) -> &str {
    s.trim_end_matches([' ', '\t'])
}
