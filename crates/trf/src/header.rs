//! Tournament header records `xx2` (reference §1.3; TRF16 `012`–`132`, TRF26 adds `142`–`222`,
//! `352`, `362`). Free-text headers keep their value from column 5 (leading blanks kept, so the
//! round dates of `132` stay aligned with the round columns of `001`).

use crate::columns::{Cols, LineBuf, field_text};
use crate::field::Field;
use crate::score::Score;

/// A header record whose value is free text (or a code the crate does not need to decompose).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum HeaderKind {
    /// `012` tournament name.
    TournamentName,
    /// `022` city.
    City,
    /// `032` federation.
    Federation,
    /// `042` start date (TRF26: `YYYY/MM/DD`).
    StartDate,
    /// `052` end date (TRF26: `YYYY/MM/DD`).
    EndDate,
    /// `062` number of players.
    NumberOfPlayers,
    /// `072` number of rated players.
    NumberOfRatedPlayers,
    /// `082` number of teams.
    NumberOfTeams,
    /// `092` type of tournament (free text).
    TournamentType,
    /// `102` chief arbiter.
    ChiefArbiter,
    /// `112` deputy chief arbiter (one line each).
    DeputyChiefArbiter,
    /// `122` allotted times per moves/game (free text).
    TimeControl,
    /// `132` round dates `YY/MM/DD` at columns `92+10(r−1)`.
    RoundDates,
    /// `182` pairing controller identifier (TRF26).
    PairingController,
    /// `192` encoded type of tournament, an ETT26 code such as `FIDE_DUTCH_2026` (TRF26).
    EncodedTournamentType,
    /// `202` tie-breaks for tied participants, comma-separated MTB26 codes (TRF26).
    TieBreaks,
    /// `212` tie-breaks defining the standings, starting with `PTS` (TRF26).
    StandingsTieBreaks,
    /// `222` encoded time control, e.g. `40/6000+30:900+30` (TRF26).
    EncodedTimeControl,
    /// `352` board colour sequence for team matches, e.g. `WBWB` (TRF26).
    BoardColours,
    /// `362` team match-point system, e.g. `TW 2.0   TD 1.0   TL 0.0` (TRF26).
    TeamScoring,
}

impl HeaderKind {
    /// All kinds, in record-code order.
    pub const ALL: [HeaderKind; 20] = [
        HeaderKind::TournamentName,
        HeaderKind::City,
        HeaderKind::Federation,
        HeaderKind::StartDate,
        HeaderKind::EndDate,
        HeaderKind::NumberOfPlayers,
        HeaderKind::NumberOfRatedPlayers,
        HeaderKind::NumberOfTeams,
        HeaderKind::TournamentType,
        HeaderKind::ChiefArbiter,
        HeaderKind::DeputyChiefArbiter,
        HeaderKind::TimeControl,
        HeaderKind::RoundDates,
        HeaderKind::PairingController,
        HeaderKind::EncodedTournamentType,
        HeaderKind::TieBreaks,
        HeaderKind::StandingsTieBreaks,
        HeaderKind::EncodedTimeControl,
        HeaderKind::BoardColours,
        HeaderKind::TeamScoring,
    ];

    /// The record code (`012`…).
    pub fn code(self) -> &'static str {
        match self {
            HeaderKind::TournamentName => "012",
            HeaderKind::City => "022",
            HeaderKind::Federation => "032",
            HeaderKind::StartDate => "042",
            HeaderKind::EndDate => "052",
            HeaderKind::NumberOfPlayers => "062",
            HeaderKind::NumberOfRatedPlayers => "072",
            HeaderKind::NumberOfTeams => "082",
            HeaderKind::TournamentType => "092",
            HeaderKind::ChiefArbiter => "102",
            HeaderKind::DeputyChiefArbiter => "112",
            HeaderKind::TimeControl => "122",
            HeaderKind::RoundDates => "132",
            HeaderKind::PairingController => "182",
            HeaderKind::EncodedTournamentType => "192",
            HeaderKind::TieBreaks => "202",
            HeaderKind::StandingsTieBreaks => "212",
            HeaderKind::EncodedTimeControl => "222",
            HeaderKind::BoardColours => "352",
            HeaderKind::TeamScoring => "362",
        }
    }

    /// The kind for a record code.
    pub fn from_code(code: &str) -> Option<HeaderKind> {
        HeaderKind::ALL.into_iter().find(|k| k.code() == code)
    }

    /// True for the records that exist only since TRF26.
    pub fn is_trf26_only(self) -> bool {
        matches!(
            self,
            HeaderKind::PairingController
                | HeaderKind::EncodedTournamentType
                | HeaderKind::TieBreaks
                | HeaderKind::StandingsTieBreaks
                | HeaderKind::EncodedTimeControl
                | HeaderKind::BoardColours
                | HeaderKind::TeamScoring
        )
    }
}

/// A free-text header record.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct HeaderRecord {
    /// Which header.
    pub kind: HeaderKind,
    /// The text from column 5, trailing blanks removed (leading blanks kept).
    pub value: String,
}

impl HeaderRecord {
    /// For `132`: the date text of each round (columns `92+10(r−1)`…`99+10(r−1)`, trimmed).
    pub fn round_dates(&self) -> Vec<String> {
        let line = format!("132 {}", self.value);
        let cols = Cols::new(&line);
        let mut out = Vec::new();
        let mut round = 1;
        while crate::player::layout::opponent_col(round) <= cols.len() {
            let c = crate::player::layout::opponent_col(round);
            out.push(cols.text(c, c + 7));
            round += 1;
        }
        out
    }

    /// For `202`/`212`: the comma-separated tie-break codes (trimmed, empty ones dropped).
    pub fn tie_break_codes(&self) -> Vec<String> {
        self.value
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(String::from)
            .collect()
    }
}

/// Value text of a header-like record: from column 5 if column 4 is blank, else from column 4.
pub(crate) fn header_value(cols: &Cols) -> String {
    let from = if cols.at(4) == ' ' { 5 } else { 4 };
    crate::columns::trim_end_blanks(&cols.rest(from)).to_string()
}

/// Writes `code` + blank + value (just `code` if the value is empty).
pub(crate) fn render_header_like(code: &str, value: &str) -> String {
    if value.is_empty() {
        code.to_string()
    } else {
        format!("{code} {value}")
    }
}

/// Initial colour of record `152` (TRF26): the colour of the top participant in round 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum InitialColour {
    /// `W`.
    White,
    /// `B`.
    Black,
}

impl std::fmt::Display for InitialColour {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            InitialColour::White => "W",
            InitialColour::Black => "B",
        })
    }
}

impl std::str::FromStr for InitialColour {
    type Err = ();
    fn from_str(s: &str) -> Result<Self, ()> {
        match s {
            "W" => Ok(InitialColour::White),
            "B" => Ok(InitialColour::Black),
            _ => Err(()),
        }
    }
}

/// Reads the value of `152`.
pub(crate) fn parse_initial_colour(value: &str) -> Field<InitialColour> {
    match value.trim() {
        "" => Field::Empty,
        "W" | "w" => Field::Value(InitialColour::White),
        "B" | "b" => Field::Value(InitialColour::Black),
        other => Field::Invalid(other.to_string()),
    }
}

/// One `symbol points` pair of record `162`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct ScoringEntry {
    /// `W D L A P X` (anything else is kept and reported by validation).
    pub symbol: char,
    /// The points for that symbol.
    pub points: Field<Score>,
}

/// Record `162` (TRF26 §"Tag 162"): symbol at column 6, points at 7–10; further pairs every
/// 9 columns (15/16–19, 24/25–28, …).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize)]
pub struct ScoringSystemRecord {
    /// The pairs, in column order.
    pub entries: Vec<ScoringEntry>,
}

pub(crate) fn parse_162(cols: &Cols) -> ScoringSystemRecord {
    let mut entries = Vec::new();
    let mut col = 6;
    while col <= cols.len() {
        let symbol = cols.at(col);
        let points = cols.score(col + 1, col + 4);
        // A blank pair is kept only when more follows, so that later pairs keep their columns.
        if symbol != ' ' || !points.is_empty() || !cols.blank(col, cols.len()) {
            entries.push(ScoringEntry { symbol, points });
        }
        col += 9;
    }
    ScoringSystemRecord { entries }
}

pub(crate) fn render_162(r: &ScoringSystemRecord) -> String {
    let mut b = LineBuf::new("162");
    for (i, e) in r.entries.iter().enumerate() {
        let col = 6 + 9 * i;
        b.left(col, col, &e.symbol.to_string());
        b.right(col + 1, col + 4, &field_text(&e.points));
    }
    b.finish()
}

/// Record `172` (TRF26): how starting ranks were formed when NRS records exist.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize)]
pub struct StartingRankMethodRecord {
    /// Columns 5–7: federation.
    pub federation: String,
    /// Columns 9–13: `FIDE NRO FIDON NIDOF HBFN LBFN OTHER`.
    pub method: String,
}

pub(crate) fn parse_172(cols: &Cols) -> StartingRankMethodRecord {
    StartingRankMethodRecord {
        federation: cols.text(5, 7),
        method: cols.text(9, cols.len().max(9)),
    }
}

pub(crate) fn render_172(r: &StartingRankMethodRecord) -> String {
    let mut b = LineBuf::new("172");
    b.left(5, 7, &r.federation);
    b.left(9, 13, &r.method);
    b.finish()
}
