//! [`TrfDocument`]: every line of a file, in order, typed.

use crate::header::{HeaderKind, HeaderRecord};
use crate::player::PlayerRecord;
use crate::record::Record;

/// One line of a document: the typed record, plus the original text when the line did not
/// follow the canonical layout (so writing it back loses nothing).
///
/// The writer uses `verbatim` only while it still reads back as `record`; once the record is
/// edited, the line is written in canonical layout from the typed fields.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Line {
    /// The typed content.
    pub record: Record,
    /// The original line (trailing blanks removed) when it differs from the canonical layout.
    pub verbatim: Option<String>,
}

impl Line {
    /// A line built from a record (written in canonical layout).
    pub fn new(record: Record) -> Line {
        Line {
            record,
            verbatim: None,
        }
    }
}

/// A whole TRF file: its lines in order (line `i` of the input is `lines[i - 1]`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize)]
pub struct TrfDocument {
    /// All lines, blank lines and comments included.
    pub lines: Vec<Line>,
}

/// The tournament header (`012`…`132`), gathered from the header records of a document.
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct TournamentHeader {
    /// `012`.
    pub name: Option<String>,
    /// `022`.
    pub city: Option<String>,
    /// `032`.
    pub federation: Option<String>,
    /// `042`.
    pub start_date: Option<String>,
    /// `052`.
    pub end_date: Option<String>,
    /// `062`.
    pub number_of_players: Option<String>,
    /// `072`.
    pub number_of_rated_players: Option<String>,
    /// `082`.
    pub number_of_teams: Option<String>,
    /// `092`.
    pub tournament_type: Option<String>,
    /// `102`.
    pub chief_arbiter: Option<String>,
    /// `112`, one per line.
    pub deputy_chief_arbiters: Vec<String>,
    /// `122`.
    pub time_control: Option<String>,
    /// `132`, one date text per round.
    pub round_dates: Vec<String>,
    /// `182` (TRF26).
    pub pairing_controller: Option<String>,
    /// `192` (TRF26), e.g. `FIDE_DUTCH_2026`.
    pub encoded_tournament_type: Option<String>,
    /// `202` (TRF26), MTB26 codes.
    pub tie_breaks: Vec<String>,
    /// `212` (TRF26), MTB26 codes.
    pub standings_tie_breaks: Vec<String>,
    /// `222` (TRF26).
    pub encoded_time_control: Option<String>,
    /// `352` (TRF26).
    pub board_colours: Option<String>,
    /// `362` (TRF26).
    pub team_scoring: Option<String>,
}

impl TrfDocument {
    /// An empty document.
    pub fn new() -> TrfDocument {
        TrfDocument::default()
    }

    /// Appends a record (written in canonical layout).
    pub fn push(&mut self, record: Record) {
        self.lines.push(Line::new(record));
    }

    /// All records, in file order.
    pub fn records(&self) -> impl Iterator<Item = &Record> {
        self.lines.iter().map(|l| &l.record)
    }

    /// The `001` player records, in file order.
    pub fn players(&self) -> impl Iterator<Item = &PlayerRecord> {
        self.records().filter_map(|r| match r {
            Record::Player(p) => Some(p),
            _ => None,
        })
    }

    /// Mutable access to the `001` player records.
    pub fn players_mut(&mut self) -> impl Iterator<Item = &mut PlayerRecord> {
        self.lines.iter_mut().filter_map(|l| match &mut l.record {
            Record::Player(p) => Some(p),
            _ => None,
        })
    }

    /// The first player whose starting rank is `start_rank`.
    pub fn player(&self, start_rank: u16) -> Option<&PlayerRecord> {
        self.players().find(|p| p.tpn() == Some(start_rank))
    }

    /// Values of the header records of one kind, in file order.
    pub fn header_values(&self, kind: HeaderKind) -> impl Iterator<Item = &str> {
        self.records().filter_map(move |r| match r {
            Record::Header(HeaderRecord { kind: k, value }) if *k == kind => Some(value.as_str()),
            _ => None,
        })
    }

    /// The first value of a header kind, trimmed.
    pub fn header_value(&self, kind: HeaderKind) -> Option<&str> {
        self.header_values(kind).next().map(str::trim)
    }

    /// The tournament header gathered from the header records (first occurrence wins,
    /// `112` collects every line).
    pub fn header(&self) -> TournamentHeader {
        let one = |k| self.header_value(k).map(String::from);
        let codes = |k| {
            self.records()
                .find_map(|r| match r {
                    Record::Header(h) if h.kind == k => Some(h.tie_break_codes()),
                    _ => None,
                })
                .unwrap_or_default()
        };
        TournamentHeader {
            name: one(HeaderKind::TournamentName),
            city: one(HeaderKind::City),
            federation: one(HeaderKind::Federation),
            start_date: one(HeaderKind::StartDate),
            end_date: one(HeaderKind::EndDate),
            number_of_players: one(HeaderKind::NumberOfPlayers),
            number_of_rated_players: one(HeaderKind::NumberOfRatedPlayers),
            number_of_teams: one(HeaderKind::NumberOfTeams),
            tournament_type: one(HeaderKind::TournamentType),
            chief_arbiter: one(HeaderKind::ChiefArbiter),
            deputy_chief_arbiters: self
                .header_values(HeaderKind::DeputyChiefArbiter)
                .map(|s| s.trim().to_string())
                .filter(|s| !s.is_empty())
                .collect(),
            time_control: one(HeaderKind::TimeControl),
            round_dates: self
                .records()
                .find_map(|r| match r {
                    Record::Header(h) if h.kind == HeaderKind::RoundDates => Some(h.round_dates()),
                    _ => None,
                })
                .unwrap_or_default(),
            pairing_controller: one(HeaderKind::PairingController),
            encoded_tournament_type: one(HeaderKind::EncodedTournamentType),
            tie_breaks: codes(HeaderKind::TieBreaks),
            standings_tie_breaks: codes(HeaderKind::StandingsTieBreaks),
            encoded_time_control: one(HeaderKind::EncodedTimeControl),
            board_colours: one(HeaderKind::BoardColours),
            team_scoring: one(HeaderKind::TeamScoring),
        }
    }

    /// The largest number of round blocks on any `001` line (rounds present in the file).
    pub fn rounds_in_player_records(&self) -> usize {
        self.players().map(|p| p.rounds.len()).max().unwrap_or(0)
    }
}
