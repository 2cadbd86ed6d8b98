//! One player record of a FIDE rating list, as published under FIDE Rating Regulations
//! B.02 §7.1.2 ("title, federation, rating, ID, games in the period, year of birth, gender,
//! current K") plus the FIDE Online Arena (FOA) title, the other titles (arbiter, trainer,
//! organiser…) and the activity flags of the download files.

use std::fmt;

/// The three rating lists of the combined FIDE file (B.02 for standard, the rapid and blitz
/// chapter for the other two).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum RatingKind {
    /// Standard (classical) rating.
    #[default]
    Standard,
    /// Rapid rating.
    Rapid,
    /// Blitz rating.
    Blitz,
}

/// One published rating with its games in the period and K factor (B.02 §7.1.2).
///
/// A rating of 0 (or a blank column) in the file means "not rated" and is read as
/// `None` for the whole entry (see ADR `ratinglist-002`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RatingEntry {
    /// The published rating (1 ..= 9999 in the file format; FIDE publishes ≥ 1400 since 2024).
    pub rating: u16,
    /// Rated games in the rating period (0 when the column is blank).
    pub games: u16,
    /// Current K factor; `None` when the column is blank or 0.
    pub k: Option<u8>,
}

/// Over-the-board FIDE titles (FIDE Title Regulations B.01). The declaration order is the
/// title order of C.04.2 §2.2 (initial ranking): GM, IM, WGM, FM, WIM, CM, WFM, WCM, so
/// `Ord` sorts strongest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Title {
    /// Grandmaster.
    GM,
    /// International Master.
    IM,
    /// Woman Grandmaster.
    WGM,
    /// FIDE Master.
    FM,
    /// Woman International Master.
    WIM,
    /// Candidate Master.
    CM,
    /// Woman FIDE Master.
    WFM,
    /// Woman Candidate Master.
    WCM,
}

impl Title {
    /// All titles in C.04.2 §2.2 order.
    pub const ALL: [Title; 8] = [
        Title::GM,
        Title::IM,
        Title::WGM,
        Title::FM,
        Title::WIM,
        Title::CM,
        Title::WFM,
        Title::WCM,
    ];

    /// The code written in the current download files (`GM`, `WIM`…).
    pub fn code(self) -> &'static str {
        match self {
            Title::GM => "GM",
            Title::IM => "IM",
            Title::WGM => "WGM",
            Title::FM => "FM",
            Title::WIM => "WIM",
            Title::CM => "CM",
            Title::WFM => "WFM",
            Title::WCM => "WCM",
        }
    }

    /// Parses a title code, case-insensitively. Accepts the current codes (`GM`, `WGM`…) and
    /// the one/two-letter codes of older lists and of the TRF (`g`, `wg`, `m`, `wm`, `f`,
    /// `wf`, `c`, `wc`).
    pub fn from_code(code: &str) -> Option<Title> {
        let upper = code.trim().to_ascii_uppercase();
        Some(match upper.as_str() {
            "GM" | "G" => Title::GM,
            "IM" | "M" => Title::IM,
            "WGM" | "WG" => Title::WGM,
            "FM" | "F" => Title::FM,
            "WIM" | "WM" => Title::WIM,
            "CM" | "C" => Title::CM,
            "WFM" | "WF" => Title::WFM,
            "WCM" | "WC" => Title::WCM,
            _ => return None,
        })
    }

    /// True for the titles reserved to women (WGM, WIM, WFM, WCM).
    pub fn is_women_title(self) -> bool {
        matches!(self, Title::WGM | Title::WIM | Title::WFM | Title::WCM)
    }
}

impl fmt::Display for Title {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// Gender as published (B.02 §7.1.2). The files write `M` and `F`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Sex {
    /// `M`.
    Male,
    /// `F` (older lists sometimes wrote `W`).
    Female,
}

impl Sex {
    /// The code written in the files.
    pub fn code(self) -> char {
        match self {
            Sex::Male => 'M',
            Sex::Female => 'F',
        }
    }

    /// Parses `M`, `F` or `W` (case-insensitive).
    pub fn from_code(code: &str) -> Option<Sex> {
        match code.trim() {
            "M" | "m" => Some(Sex::Male),
            "F" | "f" | "W" | "w" => Some(Sex::Female),
            _ => None,
        }
    }
}

/// The `Flag` column: `i` inactive (B.02 §7.2.2), `w` woman, `wi` both. Unknown letters are
/// kept in `other` so that nothing published is lost.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Flags {
    /// `i`: inactive (no rated game in one year, B.02 §7.2.2).
    pub inactive: bool,
    /// `w`: woman.
    pub woman: bool,
    /// Any other flag letters, in file order, lower-cased.
    pub other: String,
}

impl Flags {
    /// Parses the flag column text (`""`, `"i"`, `"w"`, `"wi"`…). Whitespace is ignored.
    pub fn parse(text: &str) -> Flags {
        let mut flags = Flags::default();
        for c in text.chars().filter(|c| !c.is_whitespace()) {
            match c.to_ascii_lowercase() {
                'i' => flags.inactive = true,
                'w' => flags.woman = true,
                other => flags.other.push(other),
            }
        }
        flags
    }

    /// The text written in the files: `w` before `i` as FIDE does (`wi`), then other letters.
    pub fn code(&self) -> String {
        let mut s = String::new();
        if self.woman {
            s.push('w');
        }
        if self.inactive {
            s.push('i');
        }
        s.push_str(&self.other);
        s
    }

    /// True when no flag is set.
    pub fn is_empty(&self) -> bool {
        !self.inactive && !self.woman && self.other.is_empty()
    }
}

/// One player of a FIDE rating list file.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ListPlayer {
    /// FIDE ID.
    pub fide_id: u32,
    /// Name as FIDE writes it: "Surname, Firstname" (some players have a single name).
    pub name: String,
    /// Three-letter FIDE federation code (`NOR`, `FID`…); empty if the column is blank.
    pub federation: String,
    /// Gender, if published.
    pub sex: Option<Sex>,
    /// Title column (`Tit`); women may carry a women's title here too.
    pub title: Option<Title>,
    /// Women's title column (`WTit`).
    pub women_title: Option<Title>,
    /// Other titles (`OTit`): comma list such as `IA`, `FA`, `NA`, `IO`, `FT`, `FST`, `DI`…
    pub other_titles: Vec<String>,
    /// FIDE Online Arena title (`FOA`): `AGM`, `AIM`, `AFM`, `ACM`.
    pub foa_title: Option<String>,
    /// Standard rating.
    pub standard: Option<RatingEntry>,
    /// Rapid rating.
    pub rapid: Option<RatingEntry>,
    /// Blitz rating.
    pub blitz: Option<RatingEntry>,
    /// Year of birth (the files publish the year only; `0`/blank is `None`).
    pub birth_year: Option<u16>,
    /// Activity and gender flags.
    pub flags: Flags,
}

impl ListPlayer {
    /// A player with only an ID and a name; every other field empty.
    pub fn new(fide_id: u32, name: impl Into<String>) -> ListPlayer {
        ListPlayer {
            fide_id,
            name: name.into(),
            federation: String::new(),
            sex: None,
            title: None,
            women_title: None,
            other_titles: Vec::new(),
            foa_title: None,
            standard: None,
            rapid: None,
            blitz: None,
            birth_year: None,
            flags: Flags::default(),
        }
    }

    /// The rating entry of one list.
    pub fn rating(&self, kind: RatingKind) -> Option<&RatingEntry> {
        match kind {
            RatingKind::Standard => self.standard.as_ref(),
            RatingKind::Rapid => self.rapid.as_ref(),
            RatingKind::Blitz => self.blitz.as_ref(),
        }
    }

    /// Mutable access to the rating entry of one list.
    pub fn rating_mut(&mut self, kind: RatingKind) -> &mut Option<RatingEntry> {
        match kind {
            RatingKind::Standard => &mut self.standard,
            RatingKind::Rapid => &mut self.rapid,
            RatingKind::Blitz => &mut self.blitz,
        }
    }
}
