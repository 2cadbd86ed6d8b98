//! Findings (problems found in a file that still imports) and the hopeless-input error.

use std::fmt;

/// How serious a [`Finding`] is.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum Severity {
    /// Informational: the file is fine, but something was normalised or is unusual.
    Info,
    /// Suspicious data that a rating officer or pairing engine should look at.
    Warning,
    /// The data is wrong (a result, a pairing, a number that cannot be read).
    Error,
}

/// One problem found while reading or validating a TRF file.
///
/// `line` and `column` are 1-based positions in the input (columns count characters, not bytes);
/// `0` means "not tied to one line / column" (for example an encoding finding).
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Finding {
    /// Seriousness.
    pub severity: Severity,
    /// 1-based line number (0 = whole file).
    pub line: usize,
    /// 1-based column (0 = whole line).
    pub column: usize,
    /// The record code (columns 1–3 of the line, e.g. `001`, `XXR`), or empty for the whole file.
    pub record: String,
    /// What is wrong, in words.
    pub message: String,
}

impl Finding {
    /// Builds a finding.
    pub fn new(
        severity: Severity,
        line: usize,
        column: usize,
        record: impl Into<String>,
        message: impl Into<String>,
    ) -> Finding {
        Finding {
            severity,
            line,
            column,
            record: record.into(),
            message: message.into(),
        }
    }
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sev = match self.severity {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        };
        write!(f, "{}:{}: {sev}", self.line, self.column)?;
        if !self.record.is_empty() {
            write!(f, " [{}]", self.record)?;
        }
        write!(f, ": {}", self.message)
    }
}

/// Input that cannot be read as a TRF file at all. Anything less hopeless parses with findings.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TrfError {
    /// The input holds no non-blank line.
    #[error("the input is empty (no non-blank line)")]
    Empty,
    /// None of the lines is a TRF record (no `001`, no `xx2` header, no known extension record).
    #[error("not a TRF file: none of the {lines} non-blank lines is a known TRF record")]
    NotTrf {
        /// Number of non-blank lines inspected.
        lines: usize,
    },
    /// The input is larger than [`crate::MAX_INPUT_BYTES`].
    #[error("the input is {bytes} bytes, more than the limit of {limit} bytes")]
    TooLarge {
        /// Size of the input.
        bytes: usize,
        /// The limit.
        limit: usize,
    },
}
