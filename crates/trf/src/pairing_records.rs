//! TRF26 records that feed the pairing engine (reference §1.5): `240` byes, `250` accelerated
//! rounds, `260` prohibited pairings, `299` abnormal points.

use crate::columns::{Cols, LineBuf, field_text};
use crate::field::Field;
use crate::score::Score;

pub(crate) fn render_list(
    b: &mut LineBuf,
    start: usize,
    width: usize,
    stride: usize,
    list: &[Field<u16>],
) {
    for (i, f) in list.iter().enumerate() {
        let col = start + i * stride;
        b.right(col, col + width - 1, &field_text(f));
    }
}

pub(crate) use render_list as render_number_list;

/// The kind of a pre-announced bye (record `240` column 5, or a `0000 - H/F/Z` round block).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub enum ByeKind {
    /// `F` full-point bye.
    Full,
    /// `H` half-point bye.
    Half,
    /// `Z` zero-point bye.
    Zero,
}

impl ByeKind {
    /// Reads `F`, `H`, `Z` (case-insensitive).
    pub fn from_char(c: char) -> Option<ByeKind> {
        match c.to_ascii_uppercase() {
            'F' => Some(ByeKind::Full),
            'H' => Some(ByeKind::Half),
            'Z' => Some(ByeKind::Zero),
            _ => None,
        }
    }
}

/// Record `240` (TRF26): `240 T RRR IIII IIII …` — bye type at column 5, round at 7–9,
/// player/team ids at 11–14, 16–19, …
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize)]
pub struct ByeRecord {
    /// Column 5 as written (`F`, `H`, `Z`; anything else is reported by validation).
    pub kind: char,
    /// Round number.
    pub round: Field<u16>,
    /// Player (or team) ids.
    pub players: Vec<Field<u16>>,
}

impl ByeRecord {
    /// The bye kind, if column 5 is `F`, `H` or `Z`.
    pub fn bye_kind(&self) -> Option<ByeKind> {
        ByeKind::from_char(self.kind)
    }
}

pub(crate) fn parse_240(c: &Cols) -> ByeRecord {
    ByeRecord {
        kind: c.at(5),
        round: c.number(7, 9),
        players: c.number_list(11, 4, 5),
    }
}

pub(crate) fn render_240(r: &ByeRecord) -> String {
    let mut b = LineBuf::new("240");
    b.left(5, 5, &r.kind.to_string());
    b.right(7, 9, &field_text(&r.round));
    render_list(&mut b, 11, 4, 5, &r.players);
    b.finish()
}

/// Record `250` (TRF26): fictitious points for a range of rounds and a range of ids.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize)]
pub struct AccelerationRecord {
    /// Columns 5–8: fictitious match points (empty for individuals).
    pub match_points: Field<Score>,
    /// Columns 10–13: fictitious (game) points.
    pub points: Field<Score>,
    /// Columns 15–17.
    pub first_round: Field<u16>,
    /// Columns 19–21.
    pub last_round: Field<u16>,
    /// Columns 23–26.
    pub first_player: Field<u16>,
    /// Columns 28–31.
    pub last_player: Field<u16>,
}

pub(crate) fn parse_250(c: &Cols) -> AccelerationRecord {
    AccelerationRecord {
        match_points: c.score(5, 8),
        points: c.score(10, 13),
        first_round: c.number(15, 17),
        last_round: c.number(19, 21),
        first_player: c.number(23, 26),
        last_player: c.number(28, 31),
    }
}

pub(crate) fn render_250(r: &AccelerationRecord) -> String {
    let mut b = LineBuf::new("250");
    b.right(5, 8, &field_text(&r.match_points));
    b.right(10, 13, &field_text(&r.points));
    b.right(15, 17, &field_text(&r.first_round));
    b.right(19, 21, &field_text(&r.last_round));
    b.right(23, 26, &field_text(&r.first_player));
    b.right(28, 31, &field_text(&r.last_player));
    b.finish()
}

/// Record `260` (TRF26): players (or teams) that may not meet between two rounds.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize)]
pub struct ProhibitedPairingRecord {
    /// Columns 5–7.
    pub first_round: Field<u16>,
    /// Columns 9–11.
    pub last_round: Field<u16>,
    /// Ids at 13–16, 18–21, …
    pub players: Vec<Field<u16>>,
}

pub(crate) fn parse_260(c: &Cols) -> ProhibitedPairingRecord {
    ProhibitedPairingRecord {
        first_round: c.number(5, 7),
        last_round: c.number(9, 11),
        players: c.number_list(13, 4, 5),
    }
}

pub(crate) fn render_260(r: &ProhibitedPairingRecord) -> String {
    let mut b = LineBuf::new("260");
    b.right(5, 7, &field_text(&r.first_round));
    b.right(9, 11, &field_text(&r.last_round));
    render_list(&mut b, 13, 4, 5, &r.players);
    b.finish()
}

/// Record `299` (TRF26): abnormal assignment of points.
///
/// Layout of the TRF26 table: type at column 5, match points 8–11, points 14–17, round 20–22
/// (`000`/blank = all rounds), ids 24–27, 29–32, … FIDE's own TRF26 sample writes the fields
/// one to five columns further left (7–10, 12–15, 17–19, 21–24…); such lines are read with that
/// layout when the table layout does not fit (ADR trf-003) and written back as they were.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize)]
pub struct AbnormalPointsRecord {
    /// Column 5: `W D L F H Z + -` or blank (penalty/bonus).
    pub kind: char,
    /// Match points (teams only).
    pub match_points: Field<Score>,
    /// Game points (teams) or points (individuals).
    pub points: Field<Score>,
    /// Round (`0`/blank = all rounds).
    pub round: Field<u16>,
    /// Ids.
    pub players: Vec<Field<u16>>,
}

fn parse_299_with(
    c: &Cols,
    mp: (usize, usize),
    gp: (usize, usize),
    rd: (usize, usize),
    ids: usize,
) -> AbnormalPointsRecord {
    AbnormalPointsRecord {
        kind: c.at(5),
        match_points: c.score(mp.0, mp.1),
        points: c.score(gp.0, gp.1),
        round: c.number(rd.0, rd.1),
        players: c.number_list(ids, 4, 5),
    }
}

fn invalid_count(r: &AbnormalPointsRecord) -> usize {
    usize::from(r.match_points.is_invalid())
        + usize::from(r.points.is_invalid())
        + usize::from(r.round.is_invalid())
        + r.players.iter().filter(|p| p.is_invalid()).count()
}

pub(crate) fn parse_299(c: &Cols) -> AbnormalPointsRecord {
    let table = parse_299_with(c, (8, 11), (14, 17), (20, 22), 24);
    if invalid_count(&table) == 0 {
        return table;
    }
    let sample = parse_299_with(c, (7, 10), (12, 15), (17, 19), 21);
    if invalid_count(&sample) < invalid_count(&table) {
        sample
    } else {
        table
    }
}

pub(crate) fn render_299(r: &AbnormalPointsRecord) -> String {
    let mut b = LineBuf::new("299");
    b.left(5, 5, &r.kind.to_string());
    b.right(8, 11, &field_text(&r.match_points));
    b.right(14, 17, &field_text(&r.points));
    b.right(20, 22, &field_text(&r.round));
    render_list(&mut b, 24, 4, 5, &r.players);
    b.finish()
}
