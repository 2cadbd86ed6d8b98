//! Typed errors. Every error that comes from the file says where (1-based line and column,
//! columns counted in characters) and, for a field, which field and what was found.

use std::fmt;

/// Why a field value was rejected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldProblem {
    /// A required field (FIDE ID, name) is blank.
    Missing,
    /// Something other than decimal digits in a numeric column.
    NotANumber,
    /// Digits, but the value does not fit (or is 0 where 0 is meaningless, e.g. an ID).
    OutOfRange,
    /// A code that is not one of the published codes (title, sex).
    UnknownCode,
}

impl fmt::Display for FieldProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FieldProblem::Missing => "required value is blank",
            FieldProblem::NotANumber => "not a number",
            FieldProblem::OutOfRange => "number out of range",
            FieldProblem::UnknownCode => "unknown code",
        })
    }
}

/// An error while reading a rating list. Reading continues after any error except
/// [`ListError::Io`], [`ListError::EmptyInput`] and [`ListError::Header`]: the caller decides
/// whether to skip the record or stop.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ListError {
    /// The reader failed. Iteration stops after this error.
    #[error("line {line}: read error ({kind:?}): {message}")]
    Io {
        /// Line being read when the reader failed.
        line: u64,
        /// The I/O error kind.
        kind: std::io::ErrorKind,
        /// The I/O error text.
        message: String,
    },
    /// Nothing but whitespace in the input.
    #[error("input is empty: neither a TXT header line nor an XML element was found")]
    EmptyInput,
    /// The first TXT line is not a FIDE list header (no `ID Number` or no `Name` column).
    #[error("line {line}: not a FIDE rating list header: {reason}")]
    Header {
        /// Line of the header (after leading blank lines).
        line: u64,
        /// What is missing.
        reason: String,
    },
    /// A field has a value that cannot be read.
    #[error("line {line}:{column}: field {field}: {problem} (found {found:?})")]
    Field {
        /// 1-based line.
        line: u64,
        /// 1-based column (characters) where the field starts.
        column: u32,
        /// Field name as in the TXT header (`SRtng`, `B-day`…) or the XML element.
        field: &'static str,
        /// What is wrong.
        problem: FieldProblem,
        /// The trimmed text found (at most 64 characters).
        found: String,
    },
    /// A TXT line ends before a column it must reach (see ADR ratinglist-001).
    #[error(
        "line {line}:{column}: line is truncated: it ends before field {field} ({length} characters)"
    )]
    Truncated {
        /// 1-based line.
        line: u64,
        /// 1-based column just after the last character of the line.
        column: u32,
        /// The first field the line does not reach.
        field: &'static str,
        /// Length of the line in characters.
        length: u32,
    },
    /// A line (TXT) or a text/tag (XML) longer than the reader accepts; it is skipped.
    #[error("line {line}:{column}: more than {max} bytes without a line end or tag end; skipped")]
    TooLong {
        /// 1-based line where the overlong item starts.
        line: u64,
        /// 1-based column where it starts.
        column: u32,
        /// The limit in bytes.
        max: usize,
    },
    /// Malformed XML (bad tag, mismatched end tag, bad entity, unexpected end of input).
    #[error("line {line}:{column}: XML: {problem}")]
    Xml {
        /// 1-based line.
        line: u64,
        /// 1-based column.
        column: u32,
        /// What is wrong.
        problem: String,
    },
}

impl ListError {
    /// The 1-based line of the error, if it has one.
    pub fn line(&self) -> Option<u64> {
        match self {
            ListError::Io { line, .. }
            | ListError::Header { line, .. }
            | ListError::Field { line, .. }
            | ListError::Truncated { line, .. }
            | ListError::TooLong { line, .. }
            | ListError::Xml { line, .. } => Some(*line),
            ListError::EmptyInput => None,
        }
    }

    /// The 1-based column of the error, if it has one.
    pub fn column(&self) -> Option<u32> {
        match self {
            ListError::Field { column, .. }
            | ListError::Truncated { column, .. }
            | ListError::TooLong { column, .. }
            | ListError::Xml { column, .. } => Some(*column),
            _ => None,
        }
    }

    /// True if reading cannot continue after this error.
    pub fn is_fatal(&self) -> bool {
        matches!(
            self,
            ListError::Io { .. } | ListError::EmptyInput | ListError::Header { .. }
        )
    }

    pub(crate) fn io(line: u64, e: &std::io::Error) -> ListError {
        ListError::Io {
            line,
            kind: e.kind(),
            message: e.to_string(),
        }
    }
}

/// An error while writing a list.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    /// The writer failed.
    #[error("write error: {0}")]
    Io(#[from] std::io::Error),
    /// A value does not fit its fixed-width TXT column.
    #[error("player {fide_id}: field {field} value {value:?} is wider than its column ({width})")]
    FieldTooWide {
        /// The player.
        fide_id: u32,
        /// The TXT header name of the column.
        field: &'static str,
        /// The value.
        value: String,
        /// The column width in characters.
        width: usize,
    },
    /// A character that the chosen encoding cannot write (Latin-1 above U+00FF), or a line
    /// break inside a TXT field.
    #[error("player {fide_id}: field {field}: character {character:?} cannot be written")]
    Unrepresentable {
        /// The player.
        fide_id: u32,
        /// The field.
        field: &'static str,
        /// The character.
        character: char,
    },
    /// The single-list month token is not three letters and two digits (`OCT26`).
    #[error("single-list month code {0:?} is not like OCT26")]
    BadMonthCode(String),
}
