//! [`Field`]: a fixed-column value that may be absent or unreadable, kept losslessly.

/// The content of one fixed-column field of a TRF line.
///
/// Real files have blanks and garbage where numbers belong (letters in the rating column, `0.5x`
/// points…). Such content is not dropped: it is kept as [`Field::Invalid`] with its text (trimmed),
/// written back unchanged, and reported by [`crate::validate`].
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize)]
pub enum Field<T> {
    /// The columns are blank.
    #[default]
    Empty,
    /// A well-formed value.
    Value(T),
    /// Non-blank text that is not a well-formed value (kept verbatim, trimmed).
    Invalid(String),
}

impl<T> Field<T> {
    /// The value, if well-formed.
    pub fn value(&self) -> Option<&T> {
        match self {
            Field::Value(v) => Some(v),
            _ => None,
        }
    }

    /// True for [`Field::Invalid`].
    pub fn is_invalid(&self) -> bool {
        matches!(self, Field::Invalid(_))
    }

    /// True for [`Field::Empty`].
    pub fn is_empty(&self) -> bool {
        matches!(self, Field::Empty)
    }

    /// The invalid text, if any.
    pub fn invalid_text(&self) -> Option<&str> {
        match self {
            Field::Invalid(s) => Some(s),
            _ => None,
        }
    }
}

impl<T: Copy> Field<T> {
    /// The value by copy, if well-formed.
    pub fn get(&self) -> Option<T> {
        self.value().copied()
    }
}

impl<T> From<T> for Field<T> {
    fn from(v: T) -> Self {
        Field::Value(v)
    }
}
