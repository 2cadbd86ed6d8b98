//! The fields of a list record and how each one is read from its text (shared by the TXT
//! and XML readers, so both formats accept exactly the same values).

use crate::error::FieldProblem;
use crate::player::{Flags, ListPlayer, RatingEntry, RatingKind, Sex, Title};

/// One field of a list record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Field {
    /// FIDE ID (`ID Number`, `<fideid>`).
    FideId,
    /// Name (`Name`, `<name>`).
    Name,
    /// Federation (`Fed`, `<country>`).
    Federation,
    /// Gender (`Sex`, `<sex>`).
    Sex,
    /// Title (`Tit`, `<title>`).
    Title,
    /// Women's title (`WTit`, `<w_title>`).
    WomenTitle,
    /// Other titles (`OTit`, `<o_title>`).
    OtherTitles,
    /// FIDE Online Arena title (`FOA`, `<foa_title>`).
    Foa,
    /// Rating of one list.
    Rating(RatingKind),
    /// Games in the period of one list.
    Games(RatingKind),
    /// K factor of one list.
    K(RatingKind),
    /// Year of birth (`B-day`, `<birthday>`).
    BirthYear,
    /// Flags (`Flag`, `<flag>`).
    Flags,
}

/// Every field, in the order a record is assembled: ratings before their games and K, so
/// that XML elements may come in any order.
pub(crate) const APPLY_ORDER: [Field; Field::COUNT] = [
    Field::FideId,
    Field::Name,
    Field::Federation,
    Field::Sex,
    Field::Title,
    Field::WomenTitle,
    Field::OtherTitles,
    Field::Foa,
    Field::Rating(RatingKind::Standard),
    Field::Rating(RatingKind::Rapid),
    Field::Rating(RatingKind::Blitz),
    Field::Games(RatingKind::Standard),
    Field::Games(RatingKind::Rapid),
    Field::Games(RatingKind::Blitz),
    Field::K(RatingKind::Standard),
    Field::K(RatingKind::Rapid),
    Field::K(RatingKind::Blitz),
    Field::BirthYear,
    Field::Flags,
];

impl Field {
    /// Number of distinct fields (size of a per-field table).
    pub(crate) const COUNT: usize = 19;

    /// A dense index `0..COUNT`.
    pub(crate) fn index(self) -> usize {
        fn k(kind: RatingKind) -> usize {
            match kind {
                RatingKind::Standard => 0,
                RatingKind::Rapid => 1,
                RatingKind::Blitz => 2,
            }
        }
        match self {
            Field::FideId => 0,
            Field::Name => 1,
            Field::Federation => 2,
            Field::Sex => 3,
            Field::Title => 4,
            Field::WomenTitle => 5,
            Field::OtherTitles => 6,
            Field::Foa => 7,
            Field::Rating(r) => 8 + k(r),
            Field::Games(r) => 11 + k(r),
            Field::K(r) => 14 + k(r),
            Field::BirthYear => 17,
            Field::Flags => 18,
        }
    }

    /// The name of the field in the current combined TXT header.
    pub fn txt_name(self) -> &'static str {
        match self {
            Field::FideId => "ID Number",
            Field::Name => "Name",
            Field::Federation => "Fed",
            Field::Sex => "Sex",
            Field::Title => "Tit",
            Field::WomenTitle => "WTit",
            Field::OtherTitles => "OTit",
            Field::Foa => "FOA",
            Field::Rating(RatingKind::Standard) => "SRtng",
            Field::Rating(RatingKind::Rapid) => "RRtng",
            Field::Rating(RatingKind::Blitz) => "BRtng",
            Field::Games(RatingKind::Standard) => "SGm",
            Field::Games(RatingKind::Rapid) => "RGm",
            Field::Games(RatingKind::Blitz) => "BGm",
            Field::K(RatingKind::Standard) => "SK",
            Field::K(RatingKind::Rapid) => "Rk",
            Field::K(RatingKind::Blitz) => "BK",
            Field::BirthYear => "B-day",
            Field::Flags => "Flag",
        }
    }

    /// The name of the element in the combined XML file.
    pub fn xml_name(self) -> &'static str {
        match self {
            Field::FideId => "fideid",
            Field::Name => "name",
            Field::Federation => "country",
            Field::Sex => "sex",
            Field::Title => "title",
            Field::WomenTitle => "w_title",
            Field::OtherTitles => "o_title",
            Field::Foa => "foa_title",
            Field::Rating(RatingKind::Standard) => "rating",
            Field::Rating(RatingKind::Rapid) => "rapid_rating",
            Field::Rating(RatingKind::Blitz) => "blitz_rating",
            Field::Games(RatingKind::Standard) => "games",
            Field::Games(RatingKind::Rapid) => "rapid_games",
            Field::Games(RatingKind::Blitz) => "blitz_games",
            Field::K(RatingKind::Standard) => "k",
            Field::K(RatingKind::Rapid) => "rapid_k",
            Field::K(RatingKind::Blitz) => "blitz_k",
            Field::BirthYear => "birthday",
            Field::Flags => "flag",
        }
    }
}

/// Trimmed text, at most 64 characters, for error messages.
pub(crate) fn shown(text: &str) -> String {
    text.trim().chars().take(64).collect()
}

fn digits<T: TryFrom<u64>>(text: &str) -> Result<Option<T>, FieldProblem> {
    let t = text.trim();
    if t.is_empty() {
        return Ok(None);
    }
    if !t.bytes().all(|b| b.is_ascii_digit()) {
        return Err(FieldProblem::NotANumber);
    }
    // At most 19 digits fit a u64; longer numbers are out of range for every field.
    let significant = t.trim_start_matches('0');
    if significant.len() > 19 {
        return Err(FieldProblem::OutOfRange);
    }
    let mut v: u64 = 0;
    for b in significant.bytes() {
        v = v * 10 + u64::from(b - b'0');
    }
    T::try_from(v)
        .map(Some)
        .map_err(|_| FieldProblem::OutOfRange)
}

/// FIDE ID: required, digits, 1 ..= u32::MAX.
pub(crate) fn fide_id(text: &str) -> Result<u32, FieldProblem> {
    match digits::<u32>(text)? {
        None => Err(FieldProblem::Missing),
        Some(0) => Err(FieldProblem::OutOfRange),
        Some(v) => Ok(v),
    }
}

/// Name: required, trimmed, inner runs of spaces kept as published.
pub(crate) fn name(text: &str) -> Result<String, FieldProblem> {
    let t = text.trim();
    if t.is_empty() {
        Err(FieldProblem::Missing)
    } else {
        Ok(t.to_string())
    }
}

/// A rating: blank or 0 is "not rated" (ADR ratinglist-002).
pub(crate) fn rating(text: &str) -> Result<Option<u16>, FieldProblem> {
    Ok(digits::<u16>(text)?.filter(|&r| r != 0))
}

/// Games in the period: blank is 0.
pub(crate) fn games(text: &str) -> Result<u16, FieldProblem> {
    Ok(digits::<u16>(text)?.unwrap_or(0))
}

/// K factor: blank or 0 is "not published".
pub(crate) fn k(text: &str) -> Result<Option<u8>, FieldProblem> {
    Ok(digits::<u8>(text)?.filter(|&k| k != 0))
}

/// Year of birth: blank or 0 is unknown. A date `YYYY-MM-DD` (some older XML files) gives
/// its year.
pub(crate) fn birth_year(text: &str) -> Result<Option<u16>, FieldProblem> {
    let t = text.trim();
    let year = match t.split_once('-') {
        Some((y, rest))
            if y.len() == 4 && rest.bytes().all(|b| b.is_ascii_digit() || b == b'-') =>
        {
            y
        }
        _ => t,
    };
    Ok(digits::<u16>(year)?.filter(|&y| y != 0))
}

/// Gender: blank is unknown; otherwise `M`/`F` (`W` accepted).
pub(crate) fn sex(text: &str) -> Result<Option<Sex>, FieldProblem> {
    let t = text.trim();
    if t.is_empty() {
        return Ok(None);
    }
    Sex::from_code(t).map(Some).ok_or(FieldProblem::UnknownCode)
}

/// Title: blank is none; otherwise a code of [`Title::from_code`].
pub(crate) fn title(text: &str) -> Result<Option<Title>, FieldProblem> {
    let t = text.trim();
    if t.is_empty() {
        return Ok(None);
    }
    Title::from_code(t)
        .map(Some)
        .ok_or(FieldProblem::UnknownCode)
}

/// Other titles: comma- (or space-) separated codes, kept as written.
pub(crate) fn other_titles(text: &str) -> Vec<String> {
    text.split([',', ' '])
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}

/// Free text that is `None` when blank.
pub(crate) fn optional_text(text: &str) -> Option<String> {
    let t = text.trim();
    (!t.is_empty()).then(|| t.to_string())
}

/// Applies one field's text to a player under construction.
pub(crate) fn apply(player: &mut ListPlayer, field: Field, text: &str) -> Result<(), FieldProblem> {
    match field {
        Field::FideId => player.fide_id = fide_id(text)?,
        Field::Name => player.name = name(text)?,
        Field::Federation => player.federation = text.trim().to_string(),
        Field::Sex => player.sex = sex(text)?,
        Field::Title => player.title = title(text)?,
        Field::WomenTitle => player.women_title = title(text)?,
        Field::OtherTitles => player.other_titles = other_titles(text),
        Field::Foa => player.foa_title = optional_text(text),
        Field::Rating(kind) => match rating(text)? {
            None => *player.rating_mut(kind) = None,
            Some(r) => {
                let slot = player.rating_mut(kind);
                match slot {
                    Some(e) => e.rating = r,
                    None => {
                        *slot = Some(RatingEntry {
                            rating: r,
                            games: 0,
                            k: None,
                        })
                    }
                }
            }
        },
        Field::Games(kind) => {
            let g = games(text)?;
            if let Some(e) = player.rating_mut(kind) {
                e.games = g;
            }
        }
        Field::K(kind) => {
            let kk = k(text)?;
            if let Some(e) = player.rating_mut(kind) {
                e.k = kk;
            }
        }
        Field::BirthYear => player.birth_year = birth_year(text)?,
        Field::Flags => player.flags = Flags::parse(text),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_indexes_are_dense_and_distinct() {
        for (i, f) in APPLY_ORDER.iter().enumerate() {
            assert_eq!(f.index(), i, "{f:?}");
        }
    }

    #[test]
    fn numbers() {
        assert_eq!(fide_id(" 1503014 "), Ok(1503014));
        assert_eq!(fide_id(""), Err(FieldProblem::Missing));
        assert_eq!(fide_id("0"), Err(FieldProblem::OutOfRange));
        assert_eq!(fide_id("12a"), Err(FieldProblem::NotANumber));
        assert_eq!(fide_id("99999999999"), Err(FieldProblem::OutOfRange));
        assert_eq!(rating("0"), Ok(None));
        assert_eq!(rating("28x3"), Err(FieldProblem::NotANumber));
        assert_eq!(rating("70000"), Err(FieldProblem::OutOfRange));
        assert_eq!(birth_year("1990-00-00"), Ok(Some(1990)));
        assert_eq!(birth_year("0"), Ok(None));
        assert_eq!(k("40"), Ok(Some(40)));
        assert_eq!(k("300"), Err(FieldProblem::OutOfRange));
        assert_eq!(digits::<u64>("000000000000000000000000001"), Ok(Some(1u64)));
    }
}
