//! The output formats: `text` (a terminal or a plain printer), `csv` (a spreadsheet) and
//! `html` (a page with a print stylesheet).
use crate::RenderError;

/// An output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    /// Aligned columns, one line per row.
    #[default]
    Text,
    /// RFC 4180 CSV with a header row.
    Csv,
    /// A whole HTML page, with `@media print` rules.
    Html,
}

impl Format {
    /// Reads `text`, `csv` or `html` (any case; "" = text).
    ///
    /// # Errors
    /// Any other word, naming the field and the formats.
    pub fn parse(s: &str) -> Result<Self, RenderError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "" | "text" | "txt" => Ok(Self::Text),
            "csv" => Ok(Self::Csv),
            "html" | "htm" => Ok(Self::Html),
            _ => Err(RenderError::Input(format!(
                "--format: {s:?} is not a format: text, csv or html"
            ))),
        }
    }

    /// The file name extension of the format.
    #[must_use]
    pub fn extension(self) -> &'static str {
        match self {
            Self::Text => "txt",
            Self::Csv => "csv",
            Self::Html => "html",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_are_read_by_name_and_others_refused_with_the_list() {
        assert_eq!(Format::parse("HTML").ok(), Some(Format::Html));
        assert_eq!(Format::parse("").ok(), Some(Format::Text));
        assert_eq!(Format::parse("csv").ok(), Some(Format::Csv));
        let e = Format::parse("pdf").err().map(|e| e.to_string());
        assert_eq!(
            e.as_deref(),
            Some("--format: \"pdf\" is not a format: text, csv or html")
        );
    }
}
