//! [`Record`]: one typed line of a TRF file, and the per-line reader/writer.

use crate::columns::{Cols, field_text, number_field, trim_end_blanks};
use crate::engine_extensions::{self as ext, BbPointKind, XxaRecord, XxcOption, XxsItem};
use crate::field::Field;
use crate::header::{
    self, HeaderKind, HeaderRecord, InitialColour, ScoringSystemRecord, StartingRankMethodRecord,
};
use crate::pairing_records::{
    self as pr, AbnormalPointsRecord, AccelerationRecord, ByeRecord, ProhibitedPairingRecord,
};
use crate::player::{self, LineNote, PlayerRecord};
use crate::score::Score;
use crate::team::{
    self, ForfeitedMatchRecord, LineupRecord, Team013Record, TeamByeRecord, TeamRecord,
};

/// One line of a TRF file, typed by its record code (columns 1–3).
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Record {
    /// A blank line.
    Empty,
    /// TRF26 comment `###…` (the text after `###`).
    Comment(String),
    /// Free-text header `012`…`132`, `182`–`222`, `352`, `362`.
    Header(HeaderRecord),
    /// `142` number of rounds (TRF26).
    NumberOfRounds(Field<u16>),
    /// `152` initial colour (TRF26).
    InitialColour(Field<InitialColour>),
    /// `162` scoring system (TRF26).
    ScoringSystem(ScoringSystemRecord),
    /// `172` starting-rank method (TRF26).
    StartingRankMethod(StartingRankMethodRecord),
    /// `001` player.
    Player(PlayerRecord),
    /// TRF26 National Rating Support record: a 3-letter federation code in columns 1–3 and the
    /// static layout of `001` (national rating at 49–52).
    NationalRating {
        /// Columns 1–3.
        federation: String,
        /// The `001`-shaped body.
        player: PlayerRecord,
    },
    /// `013` team (TRF16).
    Team013(Team013Record),
    /// `310` team (TRF26).
    Team(TeamRecord),
    /// `320` team pairing-allocated byes (TRF26).
    TeamBye(TeamByeRecord),
    /// `330` forfeited match (TRF26).
    ForfeitedMatch(ForfeitedMatchRecord),
    /// `300` out-of-order line-up (TRF26).
    Lineup(LineupRecord),
    /// `240` byes (TRF26).
    Bye(ByeRecord),
    /// `250` accelerated rounds (TRF26).
    Acceleration(AccelerationRecord),
    /// `260` prohibited pairings (TRF26).
    ProhibitedPairing(ProhibitedPairingRecord),
    /// `299` abnormal points (TRF26).
    AbnormalPoints(AbnormalPointsRecord),
    /// JaVaFo `XXR n`: total number of rounds.
    XxRounds(Field<u16>),
    /// JaVaFo `XXC …`: colour / ranking options.
    XxColour(Vec<XxcOption>),
    /// JaVaFo `XXZ id …`: absent in the round to be paired.
    XxAbsent(Vec<Field<u16>>),
    /// JaVaFo `XXS CODE=VALUE …`: scoring.
    XxScoring(Vec<XxsItem>),
    /// JaVaFo `XXA`: acceleration points of one player per round.
    XxAcceleration(XxaRecord),
    /// JaVaFo `XXP id …`: these players may never meet.
    XxProhibited(Vec<Field<u16>>),
    /// bbpPairings `BBW BBD BBL BBZ BBF BBU pp.p`.
    BbPoints {
        /// Which value.
        kind: BbPointKind,
        /// The points.
        value: Field<Score>,
    },
    /// Any other line (`801`/`802` cross-tables, column rulers, vendor records…), kept as
    /// written (trailing blanks removed).
    Other(String),
}

impl Record {
    /// The record code (columns 1–3); `""` for a blank line, `###` for a comment.
    pub fn code(&self) -> String {
        match self {
            Record::Empty => String::new(),
            Record::Comment(_) => "###".into(),
            Record::Header(h) => h.kind.code().into(),
            Record::NumberOfRounds(_) => "142".into(),
            Record::InitialColour(_) => "152".into(),
            Record::ScoringSystem(_) => "162".into(),
            Record::StartingRankMethod(_) => "172".into(),
            Record::Player(_) => "001".into(),
            Record::NationalRating { federation, .. } => federation.clone(),
            Record::Team013(_) => "013".into(),
            Record::Team(_) => "310".into(),
            Record::TeamBye(_) => "320".into(),
            Record::ForfeitedMatch(_) => "330".into(),
            Record::Lineup(_) => "300".into(),
            Record::Bye(_) => "240".into(),
            Record::Acceleration(_) => "250".into(),
            Record::ProhibitedPairing(_) => "260".into(),
            Record::AbnormalPoints(_) => "299".into(),
            Record::XxRounds(_) => "XXR".into(),
            Record::XxColour(_) => "XXC".into(),
            Record::XxAbsent(_) => "XXZ".into(),
            Record::XxScoring(_) => "XXS".into(),
            Record::XxAcceleration(_) => "XXA".into(),
            Record::XxProhibited(_) => "XXP".into(),
            Record::BbPoints { kind, .. } => kind.code().into(),
            Record::Other(text) => text.chars().take(3).collect(),
        }
    }

    /// True for the records TRF16 does not define (written only in TRF26 mode).
    pub fn is_trf26_only(&self) -> bool {
        match self {
            Record::Header(h) => h.kind.is_trf26_only(),
            Record::Comment(_)
            | Record::NumberOfRounds(_)
            | Record::InitialColour(_)
            | Record::ScoringSystem(_)
            | Record::StartingRankMethod(_)
            | Record::NationalRating { .. }
            | Record::Team(_)
            | Record::TeamBye(_)
            | Record::ForfeitedMatch(_)
            | Record::Lineup(_)
            | Record::Bye(_)
            | Record::Acceleration(_)
            | Record::ProhibitedPairing(_)
            | Record::AbnormalPoints(_) => true,
            _ => false,
        }
    }
}

fn is_nrs_code(code: &str) -> bool {
    code.len() == 3 && code.bytes().all(|b| b.is_ascii_uppercase()) && !code.starts_with("XX")
}

/// Reads one line (without its line terminator). Never fails: unknown lines become
/// [`Record::Other`]. Returns local notes (separator garbage, cut-short round blocks).
pub(crate) fn parse_record(line: &str) -> (Record, Vec<LineNote>) {
    let mut notes = Vec::new();
    let line = trim_end_blanks(line);
    if line.is_empty() {
        return (Record::Empty, notes);
    }
    if let Some(rest) = line.strip_prefix("###") {
        return (Record::Comment(rest.to_string()), notes);
    }
    let cols = Cols::new(line);
    let code = cols.span(1, 3);
    if cols.len() > 3 && cols.at(4) != ' ' {
        // Every record has a blank column 4; anything else (column rulers such as
        // `0123456789…`, glued text) is not that record.
        return (Record::Other(line.to_string()), notes);
    }
    let record = match code.as_str() {
        "001" => Record::Player(player::parse_player(&cols, &mut notes)),
        "142" => Record::NumberOfRounds(number_field(header::header_value(&cols).trim())),
        "152" => Record::InitialColour(header::parse_initial_colour(&header::header_value(&cols))),
        "162" => Record::ScoringSystem(header::parse_162(&cols)),
        "172" => Record::StartingRankMethod(header::parse_172(&cols)),
        "013" => Record::Team013(team::parse_013(&cols)),
        "310" => Record::Team(team::parse_310(&cols)),
        "320" => Record::TeamBye(team::parse_320(&cols)),
        "330" => Record::ForfeitedMatch(team::parse_330(&cols)),
        "300" => Record::Lineup(team::parse_300(&cols)),
        "240" => Record::Bye(pr::parse_240(&cols)),
        "250" => Record::Acceleration(pr::parse_250(&cols)),
        "260" => Record::ProhibitedPairing(pr::parse_260(&cols)),
        "299" => Record::AbnormalPoints(pr::parse_299(&cols)),
        "XXR" => Record::XxRounds(number_field(&ext::single_value(&cols))),
        "XXC" => Record::XxColour(ext::parse_xxc(&cols)),
        "XXZ" => Record::XxAbsent(ext::parse_id_tokens(&cols)),
        "XXS" => Record::XxScoring(ext::parse_xxs(&cols)),
        "XXA" => Record::XxAcceleration(ext::parse_xxa(&cols)),
        "XXP" => Record::XxProhibited(ext::parse_id_tokens(&cols)),
        c => {
            if let Some(kind) = HeaderKind::from_code(c) {
                Record::Header(HeaderRecord {
                    kind,
                    value: header::header_value(&cols),
                })
            } else if let Some(kind) = BbPointKind::from_code(c) {
                Record::BbPoints {
                    kind,
                    value: crate::columns::score_field(&ext::single_value(&cols)),
                }
            } else if is_nrs_code(c)
                && cols.at(4) == ' '
                && cols.number::<u16>(5, 8).value().is_some()
            {
                let mut nrs_notes = Vec::new();
                let player = player::parse_player(&cols, &mut nrs_notes);
                notes.extend(nrs_notes);
                Record::NationalRating {
                    federation: c.to_string(),
                    player,
                }
            } else {
                Record::Other(line.to_string())
            }
        }
    };
    (record, notes)
}

/// Writes one record in canonical layout (no line terminator, no trailing blanks).
pub(crate) fn render_record(record: &Record) -> String {
    let s = match record {
        Record::Empty => String::new(),
        Record::Comment(text) => format!("###{text}"),
        Record::Header(h) => header::render_header_like(h.kind.code(), &h.value),
        Record::NumberOfRounds(n) => header::render_header_like("142", &field_text(n)),
        Record::InitialColour(c) => header::render_header_like("152", &field_text(c)),
        Record::ScoringSystem(s) => header::render_162(s),
        Record::StartingRankMethod(s) => header::render_172(s),
        Record::Player(p) => player::render_player("001", p),
        Record::NationalRating { federation, player } => player::render_player(federation, player),
        Record::Team013(t) => team::render_013(t),
        Record::Team(t) => team::render_310(t),
        Record::TeamBye(t) => team::render_320(t),
        Record::ForfeitedMatch(t) => team::render_330(t),
        Record::Lineup(t) => team::render_300(t),
        Record::Bye(b) => pr::render_240(b),
        Record::Acceleration(a) => pr::render_250(a),
        Record::ProhibitedPairing(p) => pr::render_260(p),
        Record::AbnormalPoints(a) => pr::render_299(a),
        Record::XxRounds(n) => header::render_header_like("XXR", &field_text(n)),
        Record::XxColour(o) => ext::render_xxc(o),
        Record::XxAbsent(ids) => ext::render_tokens("XXZ", ids.iter().map(field_text)),
        Record::XxScoring(items) => ext::render_xxs(items),
        Record::XxAcceleration(a) => ext::render_xxa(a),
        Record::XxProhibited(ids) => ext::render_tokens("XXP", ids.iter().map(field_text)),
        Record::BbPoints { kind, value } => ext::render_bb(*kind, value),
        Record::Other(text) => text.clone(),
    };
    trim_end_blanks(&s).to_string()
}
