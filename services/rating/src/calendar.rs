//! Text forms of list months and dates, stream names, and kinds (shared by every module).
use elo::{CalendarDate, ListMonth, RatingKind};

/// A validation failure naming the field at fault.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldError {
    /// The request field (or `line N` of an uploaded file).
    pub field: String,
    /// What is wrong.
    pub message: String,
}

impl FieldError {
    /// A failure of `field`.
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        FieldError {
            field: field.into(),
            message: message.into(),
        }
    }
}

impl std::fmt::Display for FieldError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

/// `"YYYY-MM"` → list month.
pub fn parse_month(field: &str, text: &str) -> Result<ListMonth, FieldError> {
    let t = text.trim();
    let bad = || FieldError::new(field, format!("{t:?} is not a list month YYYY-MM"));
    let (y, m) = t.split_once('-').ok_or_else(bad)?;
    if y.len() != 4 || m.len() != 2 {
        return Err(bad());
    }
    let y: i32 = y.parse().map_err(|_| bad())?;
    let m: u8 = m.parse().map_err(|_| bad())?;
    ListMonth::new(y, m).map_err(|_| bad())
}

/// List month → `"YYYY-MM"`.
pub fn month_text(m: ListMonth) -> String {
    format!("{:04}-{:02}", m.year, m.month)
}

/// The list before `m`.
pub fn previous(m: ListMonth) -> ListMonth {
    if m.month <= 1 {
        ListMonth {
            year: m.year.saturating_sub(1),
            month: 12,
        }
    } else {
        ListMonth {
            year: m.year,
            month: m.month - 1,
        }
    }
}

/// A date in `YYYY-MM-DD`, `YYYY/MM/DD` or `YYYY.MM.DD`; `YY/MM/DD` is read as 20YY.
pub fn parse_date(field: &str, text: &str) -> Result<CalendarDate, FieldError> {
    let t = text.trim();
    let bad = || FieldError::new(field, format!("{t:?} is not a date YYYY-MM-DD"));
    let parts: Vec<&str> = t.split(['-', '/', '.']).collect();
    if parts.len() != 3 {
        return Err(bad());
    }
    let mut y: i32 = parts[0].parse().map_err(|_| bad())?;
    if parts[0].len() == 2 {
        y += 2000;
    } else if parts[0].len() != 4 {
        return Err(bad());
    }
    let m: u8 = parts[1].parse().map_err(|_| bad())?;
    let d: u8 = parts[2].parse().map_err(|_| bad())?;
    CalendarDate::new(y, m, d).map_err(|_| bad())
}

/// Date → `"YYYY-MM-DD"`.
pub fn date_text(d: CalendarDate) -> String {
    format!("{:04}-{:02}-{:02}", d.year, d.month, d.day)
}

/// The three lists, in the order they are computed and reported.
pub const KINDS: [RatingKind; 3] = [RatingKind::Standard, RatingKind::Rapid, RatingKind::Blitz];

/// `RatingListKind` number (proto) of a kind.
pub fn kind_number(k: RatingKind) -> u32 {
    match k {
        RatingKind::Standard => 1,
        RatingKind::Rapid => 2,
        RatingKind::Blitz => 3,
    }
}

/// Kind from a `RatingListKind` number; unspecified (0) is `None`.
pub fn kind_from_number(n: u32) -> Option<RatingKind> {
    match n {
        1 => Some(RatingKind::Standard),
        2 => Some(RatingKind::Rapid),
        3 => Some(RatingKind::Blitz),
        _ => None,
    }
}

/// Lower-case name of a kind.
pub fn kind_name(k: RatingKind) -> &'static str {
    match k {
        RatingKind::Standard => "standard",
        RatingKind::Rapid => "rapid",
        RatingKind::Blitz => "blitz",
    }
}

/// Stream of an imported starting list.
pub fn list_stream(m: ListMonth) -> String {
    format!("rating-list-{}", month_text(m))
}

/// Stream of a rating period.
pub fn period_stream(m: ListMonth) -> String {
    format!("rating-period-{}", month_text(m))
}

/// Stream of a submitted tournament.
pub fn tournament_stream(id: &str) -> String {
    format!("rating-tournament-{id}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn months_and_dates() {
        let m = parse_month("period", "2026-01").unwrap();
        assert_eq!(month_text(previous(m)), "2025-12");
        assert!(parse_month("period", "2026-13").is_err());
        assert!(parse_month("period", "26-01").unwrap_err().field == "period");
        assert_eq!(
            date_text(parse_date("end_date", "2026/11/05").unwrap()),
            "2026-11-05"
        );
        assert_eq!(
            date_text(parse_date("end_date", "26.02.28").unwrap()),
            "2026-02-28"
        );
        assert!(parse_date("end_date", "2026-02-30").is_err());
    }
}
