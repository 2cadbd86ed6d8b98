//! Prize categories of the standings: rating bands, age groups and women, alone or
//! combined (ADR render-001).
//!
//! | written | who | rule |
//! |---|---|---|
//! | `U1800` | rated under 1800 | four digits: a rating; unrated players are in no band |
//! | `1600-1799` | rated 1600 to 1799 | both ends included |
//! | `U16` | 16 or younger on 1 January | one or two digits: an age, by year of birth (FIDE youth) |
//! | `S50` | 50 or older in the year | born in (year − 50) or before (FIDE seniors) |
//! | `W` | women | the record's sex `w` |
//! | `U16+W` | both | `+` combines |
//!
//! The year is the tournament's (its start date). A player without a year of birth is in
//! no age group.
use crate::RenderError;
use crate::model::{Player, StandingLine};

/// One condition of a category.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Condition {
    /// Rated, rating in `min..=max`.
    Rating { min: u32, max: u32 },
    /// Born in (year − n) or later.
    AgeUnder(u32),
    /// Born in (year − n) or earlier.
    AgeFrom(u32),
    /// Sex `w`.
    Women,
}

/// A category: every condition holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Category {
    label: String,
    conditions: Vec<Condition>,
}

const HELP: &str = "U1800 (rated under 1800), 1600-1799 (a rating band), U16 (16 or younger on 1 January), S50 (50 or older in the year), W (women); combine with +, e.g. U16+W";

fn bad(text: &str, why: &str) -> RenderError {
    RenderError::Input(format!("--category {text:?}: {why}; write {HELP}"))
}

fn number(s: &str) -> Option<u32> {
    if s.is_empty() || s.len() > 4 || !s.bytes().all(|b| b.is_ascii_digit()) {
        None
    } else {
        s.parse().ok()
    }
}

fn condition(part: &str, whole: &str) -> Result<Condition, RenderError> {
    let p = part.trim().to_ascii_uppercase();
    if p == "W" || p == "WOMEN" {
        return Ok(Condition::Women);
    }
    if let Some((lo, hi)) = p.split_once('-') {
        let (Some(min), Some(max)) = (number(lo.trim()), number(hi.trim())) else {
            return Err(bad(whole, &format!("{part:?} is not a rating band")));
        };
        if min > max {
            return Err(bad(whole, &format!("{part:?}: {min} is above {max}")));
        }
        return Ok(Condition::Rating { min, max });
    }
    if let Some(n) = p.strip_prefix('U') {
        return match (n.len(), number(n)) {
            (1 | 2, Some(age)) => Ok(Condition::AgeUnder(age)),
            (4, Some(r)) if r > 0 => Ok(Condition::Rating { min: 1, max: r - 1 }),
            _ => Err(bad(
                whole,
                &format!("{part:?} is neither an age (U16) nor a rating (U1800)"),
            )),
        };
    }
    if let Some(n) = p.strip_prefix('S') {
        return match (n.len(), number(n)) {
            (1 | 2, Some(age)) => Ok(Condition::AgeFrom(age)),
            _ => Err(bad(
                whole,
                &format!("{part:?} is not a seniors' age (S50, S65)"),
            )),
        };
    }
    Err(bad(whole, &format!("{part:?} is not a category")))
}

impl Category {
    /// Reads a category (`U1800`, `1600-1799`, `U16`, `S50`, `W`, combined with `+`).
    ///
    /// # Errors
    /// What is not a category, with the forms that are.
    pub fn parse(text: &str) -> Result<Self, RenderError> {
        if text.trim().is_empty() {
            return Err(bad(text, "empty"));
        }
        if text.chars().count() > 50 {
            return Err(bad(
                &text.chars().take(50).collect::<String>(),
                "longer than 50 characters",
            ));
        }
        let conditions = text
            .split('+')
            .map(|p| condition(p, text))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Self {
            label: text.trim().to_ascii_uppercase(),
            conditions,
        })
    }

    /// As written (upper case).
    #[must_use]
    pub fn label(&self) -> &str {
        &self.label
    }

    /// True when the category needs the tournament's year.
    #[must_use]
    pub fn needs_year(&self) -> bool {
        self.conditions
            .iter()
            .any(|c| matches!(c, Condition::AgeUnder(_) | Condition::AgeFrom(_)))
    }

    /// True when `p` is in the category in `year`.
    #[must_use]
    pub fn admits(&self, p: &Player, year: Option<i32>) -> bool {
        self.conditions.iter().all(|c| match *c {
            Condition::Rating { min, max } => p.rating > 0 && (min..=max).contains(&p.rating),
            Condition::Women => p.sex.eq_ignore_ascii_case("w") || p.sex.eq_ignore_ascii_case("f"),
            Condition::AgeUnder(n) => match (p.birth_year(), year) {
                (Some(b), Some(y)) => i64::from(y) - i64::from(b) <= i64::from(n),
                _ => false,
            },
            Condition::AgeFrom(n) => match (p.birth_year(), year) {
                (Some(b), Some(y)) => i64::from(y) - i64::from(b) >= i64::from(n),
                _ => false,
            },
        })
    }
}

/// The lines of `lines` in `category`, ranked within it: players who share a rank in the
/// whole tournament share their place in the category.
#[must_use]
pub fn select(lines: &[StandingLine], category: &Category, year: Option<i32>) -> Vec<StandingLine> {
    let mut out: Vec<StandingLine> = Vec::new();
    for l in lines.iter().filter(|l| category.admits(&l.player, year)) {
        let place = match out.last() {
            Some(prev) if prev.overall_rank == l.overall_rank => prev.rank,
            _ => u32::try_from(out.len() + 1).unwrap_or(u32::MAX),
        };
        let mut line = l.clone();
        line.rank = place;
        out.push(line);
    }
    let n = out.len();
    for i in 0..n {
        let same = |j: usize| {
            out.get(j)
                .is_some_and(|o: &StandingLine| o.rank == out[i].rank)
        };
        let shared = (i > 0 && same(i - 1)) || same(i + 1);
        out[i].shared = shared;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(rating: u32, sex: &str, born: &str) -> Player {
        Player {
            rating,
            sex: sex.into(),
            birth_date: born.into(),
            ..Player::default()
        }
    }

    #[test]
    fn forms_are_read_and_bad_ones_name_the_part_and_the_forms() {
        for ok in ["U1800", "1600-1799", "u16", "S50", "w", "U16+W", "women"] {
            assert!(Category::parse(ok).is_ok(), "{ok}");
        }
        let e = Category::parse("U180")
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(
            e.starts_with("--category \"U180\": \"U180\" is neither an age"),
            "{e}"
        );
        assert!(e.contains("U16+W"), "{e}");
        let e = Category::parse("1900-1800")
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(e.contains("1900 is above 1800"), "{e}");
        assert!(Category::parse("").is_err());
        assert!(Category::parse(&"W+".repeat(40)).is_err());
    }

    #[test]
    fn rating_bands_take_rated_players_only() {
        let c = Category::parse("U1800").unwrap_or_else(|_| unreachable!());
        assert!(c.admits(&p(1799, "", ""), None));
        assert!(!c.admits(&p(1800, "", ""), None));
        assert!(!c.admits(&p(0, "", ""), None));
        let b = Category::parse("1600-1799").unwrap_or_else(|_| unreachable!());
        assert!(b.admits(&p(1600, "", ""), None) && b.admits(&p(1799, "", ""), None));
        assert!(!b.admits(&p(1599, "", ""), None));
    }

    #[test]
    fn age_groups_go_by_year_of_birth_and_need_one() {
        let u16 = Category::parse("U16").unwrap_or_else(|_| unreachable!());
        assert!(u16.needs_year());
        assert!(u16.admits(&p(0, "m", "2010/12/31"), Some(2026)));
        assert!(u16.admits(&p(0, "m", "2010"), Some(2026)));
        assert!(!u16.admits(&p(0, "m", "2009/12/31"), Some(2026)));
        assert!(!u16.admits(&p(0, "m", ""), Some(2026)));
        let s50 = Category::parse("S50").unwrap_or_else(|_| unreachable!());
        assert!(s50.admits(&p(0, "m", "1976/12/31"), Some(2026)));
        assert!(!s50.admits(&p(0, "m", "1977/01/01"), Some(2026)));
        let girls = Category::parse("U16+W").unwrap_or_else(|_| unreachable!());
        assert!(girls.admits(&p(0, "w", "2012"), Some(2026)));
        assert!(!girls.admits(&p(0, "m", "2012"), Some(2026)));
    }

    #[test]
    fn places_in_a_category_are_shared_where_the_overall_rank_is() {
        let line = |rank: u32, rating: u32| StandingLine {
            rank,
            overall_rank: rank,
            player: p(rating, "", ""),
            ..StandingLine::default()
        };
        let lines = [
            line(1, 2400),
            line(2, 1700),
            line(3, 1650),
            line(3, 1600),
            line(5, 1500),
        ];
        let c = Category::parse("U1800").unwrap_or_else(|_| unreachable!());
        let got: Vec<(u32, bool, u32)> = select(&lines, &c, None)
            .iter()
            .map(|l| (l.rank, l.shared, l.overall_rank))
            .collect();
        assert_eq!(
            got,
            [(1, false, 2), (2, true, 3), (2, true, 3), (4, false, 5)]
        );
    }
}
